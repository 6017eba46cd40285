#!/usr/bin/env bash
# The tier solver on Dots and Boxes against a straightforward C sweep over every set of drawn
# edges (benches/cpp/dots_and_boxes.c) and against the exhaustive engine, whole processes side
# by side, interleaved:
#
#   benches/dots_and_boxes.sh [RUNS] [ROWS COLUMNS]
#
# Default: 5 runs on 3x3 boxes (24 edges, 2^24 boards); PROGRAMS="c-tight tier-1 ..." runs
# some of the programs (c-tight, the yardstick of the ratios, must be one). Programs: the C
# sweep and the tight C sweep (benches/cpp/dots_and_boxes.c, and with --tight: free edges by bit
# tricks, the yardstick of issue 25's tier kernel); the tier solver on 1 and 2 threads (laid out
# by the boards' bitmasks, its dense layout), and on 1 and 2 threads with its ranked layout (a
# memory limit of half a byte per board); the engine with a dense table (1 thread) and the
# parallel engine (2 threads); the distributed tier solver (feature `distributed`) in one
# process with one worker, one process with two workers, and two processes of one worker each
# on localhost. Prints per program the median wall time, the median peak memory (of the process
# with worker 0, for two processes) and the answer, which must agree, and each time's ratio to
# the tight C sweep's.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
rows=${2:-3}
columns=${3:-3}
out=target/dots-and-boxes
mkdir -p "$out"
cargo build --release --quiet --features distributed
if [ ! -x "$out/dots_and_boxes" ] || [ benches/cpp/dots_and_boxes.c -nt "$out/dots_and_boxes" ]; then
    gcc -O2 -o "$out/dots_and_boxes" benches/cpp/dots_and_boxes.c
fi
solver=target/release/gamesolver
edges=$(( (rows + 1) * columns + rows * (columns + 1) ))
ranked_budget=$(( (1 << edges) / 2 ))
printf '127.0.0.1:%d\n127.0.0.1:%d\n' $((20000 + RANDOM % 20000)) $((40000 + RANDOM % 20000)) > "$out/hosts"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# Runs PROGRAM once; prints "milliseconds KiB answer".
run() {
    local program=$1 start end answer
    start=$(date +%s%N)
    case $program in
        c-sweep) /usr/bin/time -f "%M" -o "$out/time.txt" "$out/dots_and_boxes" "$rows" "$columns" > "$out/stdout.txt" ;;
        c-tight) /usr/bin/time -f "%M" -o "$out/time.txt" "$out/dots_and_boxes" --tight "$rows" "$columns" > "$out/stdout.txt" ;;
        tier-1) /usr/bin/time -f "%M" -o "$out/time.txt" $solver dots-and-boxes "$rows" "$columns" --solver tier --threads 1 --json > "$out/stdout.txt" ;;
        tier-2) /usr/bin/time -f "%M" -o "$out/time.txt" $solver dots-and-boxes "$rows" "$columns" --solver tier --threads 2 --json > "$out/stdout.txt" ;;
        ranked-1) /usr/bin/time -f "%M" -o "$out/time.txt" $solver dots-and-boxes "$rows" "$columns" --solver tier --threads 1 --memory-limit "$ranked_budget" --json > "$out/stdout.txt" ;;
        ranked-2) /usr/bin/time -f "%M" -o "$out/time.txt" $solver dots-and-boxes "$rows" "$columns" --solver tier --threads 2 --memory-limit "$ranked_budget" --json > "$out/stdout.txt" ;;
        engine-1) /usr/bin/time -f "%M" -o "$out/time.txt" $solver dots-and-boxes "$rows" "$columns" --solver engine --json > "$out/stdout.txt" ;;
        parallel-2) /usr/bin/time -f "%M" -o "$out/time.txt" $solver dots-and-boxes "$rows" "$columns" --solver parallel --threads 2 --json > "$out/stdout.txt" ;;
        timely-1x1) /usr/bin/time -f "%M" -o "$out/time.txt" $solver dots-and-boxes "$rows" "$columns" --solver distributed --json --workers 1 > "$out/stdout.txt" ;;
        timely-1x2) /usr/bin/time -f "%M" -o "$out/time.txt" $solver dots-and-boxes "$rows" "$columns" --solver distributed --json --workers 2 > "$out/stdout.txt" ;;
        timely-2x1)
            # Either order works (a process that finds no listener retries within
            # milliseconds: src/engines/tiers/sockets.rs); process 0 reports the answer.
            /usr/bin/time -f "%M" -o "$out/time.txt" $solver dots-and-boxes "$rows" "$columns" --solver distributed --json --processes 2 --process 0 --hostfile "$out/hosts" > "$out/stdout.txt" &
            sleep 0.05
            $solver dots-and-boxes "$rows" "$columns" --solver distributed --processes 2 --process 1 --hostfile "$out/hosts" > /dev/null 2> "$out/helper.txt"
            wait
            ;;
    esac
    end=$(date +%s%N)
    if [ "$program" = c-sweep ] || [ "$program" = c-tight ]; then
        answer=$(cat "$out/stdout.txt")
    else
        answer=$(tail -1 "$out/stdout.txt" | sed -E 's/.*"value":(-?[0-9]+).*/\1/')
    fi
    echo "$(( (end - start) / 1000000 )) $(tail -1 "$out/time.txt") $answer"
}

programs=${PROGRAMS:-"c-tight c-sweep tier-1 tier-2 ranked-1 ranked-2 engine-1 parallel-2 timely-1x1 timely-1x2 timely-2x1"}
declare -A times=() memory=() answers=()
for ((round = 0; round < runs; round++)); do
    for program in $programs; do
        read -r ms kib answer <<< "$(run "$program")"
        times[$program]+="$ms "
        memory[$program]+="$kib "
        answers[$program]=$answer
    done
done
c_ms=$(echo "${times[c-tight]}" | tr ' ' '\n' | grep . | median)
echo "Dots and Boxes ${rows}x${columns}, $runs runs, medians:"
for program in $programs; do
    ms=$(echo "${times[$program]}" | tr ' ' '\n' | grep . | median)
    kib=$(echo "${memory[$program]}" | tr ' ' '\n' | grep . | median)
    ratio=$(awk -v a="$ms" -v b="$c_ms" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
    printf '%-11s %8s ms %9s KiB  %5sx tight C  answer %s\n' "$program" "$ms" "$kib" "$ratio" "${answers[$program]}"
    if [ "${answers[$program]}" != "${answers[c-tight]}" ]; then
        echo "answers differ: $program says ${answers[$program]}, the C sweep ${answers[c-tight]}" >&2
        exit 1
    fi
done
if [[ " $programs " == *" timely-2x1 "* ]]; then
    echo "two processes: $(cat "$out/helper.txt")"
fi
