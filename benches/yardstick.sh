#!/usr/bin/env bash
# Side-by-side timing of whole processes: the `gamesolver` binary against C++ yardsticks.
#
#   benches/yardstick.sh [N] [RUNS] [LABEL=COMMAND]...
#
# Builds the release binary and the C++ programs under benches/cpp (g++ -O2), writes N random
# integers in LOW..=HIGH (default 1..=10000, fixed seed) separated by SEP (default ','), then
# runs every command RUNS times, interleaved so that a
# noisy neighbour hurts all of them alike. Each command reads the piles file, whose path
# replaces {input}; {n} is replaced by N. Prints, per command, the median and spread of wall time, the median peak
# memory (if GNU time is installed), the answer (which must agree), and the ratio to the first
# command. Without LABEL=COMMAND arguments it compares the classic C++ top-down DP with the
# engine.
set -euo pipefail
cd "$(dirname "$0")/.."

n=${1:-2000}
runs=${2:-7}
shift $(( $# >= 2 ? 2 : $# ))

out=target/yardstick
mkdir -p "$out"
cargo build --release --quiet
for source in benches/cpp/*.cpp; do
    binary="$out/$(basename "$source" .cpp)"
    if [ ! -x "$binary" ] || [ "$source" -nt "$binary" ]; then
        g++ -O2 -o "$binary" "$source"
    fi
done

low=${LOW:-1}
high=${HIGH:-10000}
sep=${SEP:-,}
input="$out/values-$n-$low-$high.txt"
awk -v n="$n" -v low="$low" -v high="$high" -v sep="$sep" 'BEGIN { srand(20261122); for (i = 0; i < n; i++) printf "%d%s", low + int(rand() * (high - low + 1)), (i + 1 < n ? sep : "\n") }' > "$input"

if [ $# -eq 0 ]; then
    set -- \
        "cpp-topdown=$out/stone_game_ii_topdown {input}" \
        "engine=target/release/gamesolver stone-game-ii --solver engine --input {input} --json"
fi

labels=(); commands=()
for spec in "$@"; do
    labels+=("${spec%%=*}")
    commands+=("${spec#*=}")
done

have_time=false
[ -x /usr/bin/time ] && have_time=true
declare -A times memory answers
for ((run = 0; run < runs; run++)); do
    for index in "${!labels[@]}"; do
        command=${commands[$index]//\{input\}/$input}
        command=${command//\{n\}/$n}
        start=$(date +%s%N)
        if $have_time; then
            /usr/bin/time -f "%M" -o "$out/time.txt" $command > "$out/stdout.txt"
            kib=$(tail -1 "$out/time.txt")
        else
            $command > "$out/stdout.txt"
            kib=0
        fi
        seconds=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
        # The answer: the "answer" field of JSON output, or the first number printed.
        answer=$(grep -o '"answer":-\?[0-9]*' "$out/stdout.txt" | head -1 | cut -d: -f2 || true)
        [ -n "$answer" ] || answer=$(grep -o -- '-\?[0-9]\+' "$out/stdout.txt" | head -1 || true)
        times[$index]+="$seconds "
        memory[$index]+="$kib "
        answers[$index]=$answer
    done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
spread() { tr ' ' '\n' | grep -v '^$' | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo "-" hi }'; }

echo "n=$n values in $low..=$high, $runs runs each, interleaved; $(nproc) cores"
printf '%-16s %10s %14s %12s %14s %10s\n' command "median s" "spread s" "peak MiB" answer "ratio"
base=""
for index in "${!labels[@]}"; do
    med=$(median <<< "${times[$index]}")
    mem=$(median <<< "${memory[$index]}")
    [ -n "$base" ] || base=$med
    ratio=$(awk -v a="$base" -v b="$med" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }')
    printf '%-16s %10s %14s %12.1f %14s %10s\n' "${labels[$index]}" "$med" "$(spread <<< "${times[$index]}")" \
        "$(awk -v k="$mem" 'BEGIN { print k / 1024 }')" "${answers[$index]}" "$ratio"
    if [ "${answers[$index]}" != "${answers[0]}" ]; then
        echo "ANSWERS DISAGREE: ${labels[$index]} says ${answers[$index]}, ${labels[0]} says ${answers[0]}" >&2
        exit 1
    fi
done
echo "(ratio = first command's median / this command's median: above 1 means faster than the first)"
