#!/usr/bin/env bash
# Connect Four boards from empty through the command line, as a user runs them (the value and
# an optimal line to the end), against Pascal Pons' solver built for each board (value only).
#
#   PONS_BOARDS=/path/to/builds benches/connect_four_boards.sh [RUNS] [WxH]...
#
# PONS_BOARDS is a folder with one c4solver per board, PONS_BOARDS/WxH/c4solver, each built
# yourself from Pons' public source (PascalPons/connect4 on GitHub) with WIDTH and HEIGHT set to
# the board's in Position.hpp, outside this repository: nothing here builds or ships it. It
# reads an empty line (the empty board) and runs without an opening book. Boards default to
# 4x4 5x4 4x5 5x5 6x4 4x6 5x6 6x5. Every command runs RUNS times (default 7), interleaved;
# prints the median wall time of each whole process and the totals' ratio. The two programs
# must agree on every board's score.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:-7}
shift $(( $# >= 1 ? 1 : 0 ))
boards=("$@")
[ ${#boards[@]} -gt 0 ] || boards=(4x4 5x4 4x5 5x5 6x4 4x6 5x6 6x5)
cargo build --release --quiet
ours=target/release/gamesolver
out=target/connect-four-boards
mkdir -p "$out"

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
seconds() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.4f", (b - a) / 1e9 }'; }

printf '%-6s %6s %12s %12s %8s\n' board score gamesolver pons ratio
total_ours=0
total_pons=0
for board in "${boards[@]}"; do
    width=${board%x*}
    height=${board#*x}
    ours_times=""
    pons_times=""
    for ((run = 0; run < runs; run++)); do
        start=$(date +%s%N)
        "$ours" connect-four --width "$width" --height "$height" --json > "$out/ours.json"
        ours_times+="$(seconds "$start") "
        if [ -n "${PONS_BOARDS:-}" ]; then
            start=$(date +%s%N)
            echo "" | "$PONS_BOARDS/$board/c4solver" > "$out/pons.txt" 2> /dev/null
            pons_times+="$(seconds "$start") "
        fi
    done
    score=$(grep -o '"value":-\?[0-9]*' "$out/ours.json" | head -1 | cut -d: -f2)
    if [ -n "${PONS_BOARDS:-}" ] && [ "$(tr -d ' ' < "$out/pons.txt")" != "$score" ]; then
        echo "SCORES DISAGREE on $board: gamesolver $score, pons $(cat "$out/pons.txt")" >&2
        exit 1
    fi
    ours_median=$(median <<< "$ours_times")
    total_ours=$(awk -v a="$total_ours" -v b="$ours_median" 'BEGIN { printf "%.4f", a + b }')
    if [ -n "${PONS_BOARDS:-}" ]; then
        pons_median=$(median <<< "$pons_times")
        total_pons=$(awk -v a="$total_pons" -v b="$pons_median" 'BEGIN { printf "%.4f", a + b }')
        ratio=$(awk -v a="$pons_median" -v b="$ours_median" 'BEGIN { printf "%.2fx", b / a }')
    else
        pons_median="-"
        ratio="-"
    fi
    printf '%-6s %6s %12s %12s %8s\n' "$board" "$score" "$ours_median" "$pons_median" "$ratio"
done
if [ -n "${PONS_BOARDS:-}" ]; then
    ratio=$(awk -v a="$total_pons" -v b="$total_ours" 'BEGIN { printf "%.2fx", b / a }')
else
    ratio="-"
fi
printf '%-6s %6s %12s %12s %8s\n' total "" "$total_ours" "$total_pons" "$ratio"
echo "(whole processes, $runs interleaved runs each, $(nproc) cores; gamesolver with its line, Pons value only)"
