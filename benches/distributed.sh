#!/usr/bin/env bash
# The distributed tier solver (timely) against the tier solver on rayon, whole processes side
# by side, interleaved, on Dots and Boxes:
#
#   benches/distributed.sh [RUNS] [ROWS COLUMNS] [PxW ...]
#
# Each PxW is P processes of W workers on localhost (1x8: one process of 8 workers; 2x1: two
# processes of one worker), run against the tier solver on P*W threads. Default: 3 runs of 3x4
# boxes (31 edges, 2^31 boards: a 2 GiB array a process) for 1x2 1x8 2x1 2x2. On a machine with
# more cores, name its counts: `benches/distributed.sh 3 3 4 1x16 4x4`. BIN=path runs a binary
# built elsewhere (default: target/release/gamesolver, built here with --features distributed).
# EXTRA="--memory-limit 1G" is passed to both solvers: below a value per board (2 GiB for 3x4)
# the distributed solver goes by requests (each worker its share of the tiers) and the tier
# solver by rank.
#
# Prints per configuration the median wall time of each (of the process with worker 0, which
# waits for the others), their ratio, the median peak memory of that process, the bytes each
# other process sent (from its report on stderr: its share of the values, once per other
# process), and the answer, which must agree.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
rows=${2:-3}
columns=${3:-4}
shift $(( $# < 3 ? $# : 3 ))
configs=${*:-"1x2 1x8 2x1 2x2"}
out=target/distributed-bench
mkdir -p "$out"
if [ -z "${BIN:-}" ]; then
    cargo build --release --quiet --features distributed
    BIN=target/release/gamesolver
fi

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
value_of() { tail -1 "$1" | sed -E 's/.*"value":(-?[0-9]+).*/\1/'; }

# Runs the tier solver on THREADS threads; prints "milliseconds KiB answer".
tier() {
    local start end
    start=$(date +%s%N)
    /usr/bin/time -f "%M" -o "$out/time.txt" "$BIN" dots-and-boxes "$rows" "$columns" \
        --solver tier --threads "$1" ${EXTRA:-} --json > "$out/stdout.txt"
    end=$(date +%s%N)
    grep -q '"value"' "$out/stdout.txt" || { echo "the tier solver failed" >&2; return 1; }
    echo "$(( (end - start) / 1000000 )) $(tail -1 "$out/time.txt") $(value_of "$out/stdout.txt")"
}

# Runs PROCESSES processes of WORKERS workers on localhost; prints "milliseconds KiB answer"
# of process 0, and leaves the others' reports in $out/helper-*.txt.
timely() {
    local processes=$1 workers=$2 start end index
    : > "$out/hosts"
    for ((index = 0; index < processes; index++)); do
        echo "127.0.0.1:$((20000 + RANDOM % 40000))" >> "$out/hosts"
    done
    start=$(date +%s%N)
    for ((index = 1; index < processes; index++)); do
        "$BIN" dots-and-boxes "$rows" "$columns" --solver distributed --workers "$workers" \
            --processes "$processes" --process "$index" --hostfile "$out/hosts" ${EXTRA:-} \
            > /dev/null 2> "$out/helper-$index.txt" &
    done
    local cluster=()
    if [ "$processes" -gt 1 ]; then
        cluster=(--processes "$processes" --process 0 --hostfile "$out/hosts")
    fi
    /usr/bin/time -f "%M" -o "$out/time.txt" "$BIN" dots-and-boxes "$rows" "$columns" \
        --solver distributed --workers "$workers" "${cluster[@]}" ${EXTRA:-} --json \
        > "$out/stdout.txt"
    end=$(date +%s%N)
    wait
    grep -q '"value"' "$out/stdout.txt" || { echo "the distributed solver failed" >&2; return 1; }
    echo "$(( (end - start) / 1000000 )) $(tail -1 "$out/time.txt") $(value_of "$out/stdout.txt")"
}

declare -A tier_ms=() timely_ms=() timely_kib=() answers=() sent=()
for ((round = 0; round < runs; round++)); do
    for config in $configs; do
        processes=${config%x*}
        workers=${config#*x}
        result=$(tier $((processes * workers))) || exit 1
        read -r ms _ answer <<< "$result"
        tier_ms[$config]+="$ms "
        answers[$config]+="$answer "
        result=$(timely "$processes" "$workers") || exit 1
        read -r ms kib answer <<< "$result"
        timely_ms[$config]+="$ms "
        timely_kib[$config]+="$kib "
        answers[$config]+="$answer "
        if [ "$processes" -gt 1 ]; then
            sent[$config]=$(sed -E 's/.*, and sent ([^(]*) to other [a-z]*.*/\1/' "$out/helper-1.txt")
        else
            sent[$config]="0 B (one process)"
        fi
    done
done
echo "Dots and Boxes ${rows}x${columns}, $runs runs, medians (PxW: P processes of W workers; tier: P*W threads):"
for config in $configs; do
    distinct=$(echo "${answers[$config]}" | tr ' ' '\n' | grep . | sort -u | wc -l)
    if [ "$distinct" -ne 1 ]; then
        echo "answers differ for $config: ${answers[$config]}" >&2
        exit 1
    fi
    tms=$(echo "${tier_ms[$config]}" | tr ' ' '\n' | grep . | median)
    dms=$(echo "${timely_ms[$config]}" | tr ' ' '\n' | grep . | median)
    kib=$(echo "${timely_kib[$config]}" | tr ' ' '\n' | grep . | median)
    ratio=$(awk -v a="$dms" -v b="$tms" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
    printf '%-5s tier %8s ms  timely %8s ms  %5sx  %9s KiB  process 1 sent %s  answer %s\n' \
        "$config" "$tms" "$dms" "$ratio" "$kib" "${sent[$config]}" \
        "$(echo "${answers[$config]}" | awk '{ print $1 }')"
done
