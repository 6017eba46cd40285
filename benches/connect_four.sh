#!/usr/bin/env bash
# Connect Four, whole processes side by side: gamesolver's pruning engine against Pascal Pons'
# solver, on Pons' benchmark sets (../shared/bench/connect4, or the samples in tests/data).
#
#   PONS=/path/to/c4solver benches/connect_four.sh [RUNS] [SET]...
#
# PONS is a c4solver binary you built yourself from Pons' public source (PascalPons/connect4 on
# GitHub), outside this repository: nothing here builds or ships it. It runs without an opening
# book. SET is a file name in the sets' folder (below), or NAME:N for its first N positions
# (default: the sets of issue 25's goal, Test_L3_R1, Test_L2_R1 and Test_L1_R1:100).
# Every command reads the same positions and must print the published scores; each is run
# RUNS times (default 7), interleaved so that a noisy neighbour hurts all alike. Prints per set
# the median wall time of the whole process, the mean per position, and the ratio to Pons'.
# Without PONS, only gamesolver is timed.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:-7}
shift $(( $# >= 1 ? 1 : 0 ))
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(Test_L3_R1 Test_L2_R1 Test_L1_R1:100)
# The sets: GAMESOLVER_CONNECT4_DIR, else ../shared/bench/connect4 where it exists (beside a CI
# clone), else the 250-line samples kept in tests/data/connect4 (a user's clone).
bench=${GAMESOLVER_CONNECT4_DIR:-../shared/bench/connect4}
if [ ! -d "$bench" ]; then
    echo "(no $bench: timing the 250-line samples in tests/data/connect4)" >&2
    bench=tests/data/connect4
fi
out=target/connect-four
mkdir -p "$out"
cargo build --release --quiet
ours=target/release/gamesolver

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-16s %-28s %10s %14s %8s\n' set command "median s" "per position" "vs Pons"
declare -A totals=()
for set in "${sets[@]}"; do
    file=${set%%:*}
    count=1000000000
    [ "$file" = "$set" ] || count=${set#*:}
    head -n "$count" "$bench/$file" > "$out/$set.scores"
    cut -d' ' -f1 "$out/$set.scores" > "$out/$set.positions"
    labels=(gamesolver "gamesolver --threads 2" "... --one-at-a-time")
    commands=("$ours connect-four --batch $out/$set.positions" "$ours connect-four --batch $out/$set.positions --threads 2" "$ours connect-four --batch $out/$set.positions --threads 2 --one-at-a-time")
    if [ -n "${PONS:-}" ]; then
        labels=(pons "${labels[@]}")
        commands=("$PONS" "${commands[@]}")
    fi
    declare -A times=()
    for ((run = 0; run < runs; run++)); do
        for index in "${!labels[@]}"; do
            start=$(date +%s%N)
            if [ "${labels[$index]}" = pons ]; then
                ${commands[$index]} < "$out/$set.positions" > "$out/stdout.txt" 2> /dev/null
            else
                ${commands[$index]} > "$out/stdout.txt"
            fi
            times[$index]+="$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.4f", (b - a) / 1e9 }') "
            # The scores must be the published ones (Pons prints "POSITION SCORE" too).
            if ! cut -d' ' -f1-2 "$out/stdout.txt" | diff -q - "$out/$set.scores" > /dev/null; then
                echo "WRONG SCORES from ${labels[$index]} on $set" >&2
                exit 1
            fi
        done
    done
    base=""
    for index in "${!labels[@]}"; do
        med=$(median <<< "${times[$index]}")
        [ -n "$base" ] || base=$med
        totals[$index]=$(awk -v a="${totals[$index]:-0}" -v b="$med" 'BEGIN { printf "%.4f", a + b }')
        count=$(wc -l < "$out/$set.positions")
        per=$(awk -v s="$med" -v n="$count" 'BEGIN { printf "%.1f us", s / n * 1e6 }')
        ratio=$(awk -v a="$base" -v b="$med" 'BEGIN { printf "%.2fx", b / a }')
        [ -n "${PONS:-}" ] || ratio="-"
        printf '%-16s %-28s %10s %14s %8s\n' "$set" "${labels[$index]}" "$med" "$per" "$ratio"
    done
    unset times
done
for index in "${!labels[@]}"; do
    ratio=$(awk -v a="${totals[0]}" -v b="${totals[$index]}" 'BEGIN { printf "%.2fx", b / a }')
    [ -n "${PONS:-}" ] || ratio="-"
    printf '%-16s %-28s %10s %14s %8s\n' total "${labels[$index]}" "${totals[$index]}" "" "$ratio"
done
echo "(whole processes, $runs interleaved runs each, $(nproc) cores; 'vs Pons' = time / Pons' time)"
