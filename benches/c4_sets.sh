#!/usr/bin/env bash
# Connect Four, whole processes side by side: gamesolver's pruning engine against Christophe
# Steininger's c4 (the fastest public solver we know), on position sets with exact scores.
#
#   C4=/path/to/c4-batch-WxH-t1-ENTRIES benches/c4_sets.sh RUNS WIDTH HEIGHT SET[:N]...
#
# C4 is a batch binary that benches/c4/build.sh built from your own checkout of c4, outside
# this repository, for the same board (one thread and a 64 MB table, 8388593 entries, is the
# configuration of docs/performance.md). SET is a file of "POSITION SCORE" lines, e.g. c4's
# tst/data/9x5/midgame_L2.txt, or its first N lines with SET:N. Columns count from 0 (c4's sets;
# FROM=1 for Pons' sets). gamesolver runs `connect-four --batch` on one thread with its own
# default table (64 MiB). Every command must print the file's scores; each runs RUNS times,
# interleaved, and the script prints per set the median wall time and the ratio to c4's. Without
# C4, only gamesolver is timed.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 4 ] || { sed -n '2,15p' "$0"; exit 2; }
runs=$1; width=$2; height=$3; shift 3
from=${FROM:-0}
out=target/c4-sets
mkdir -p "$out"
cargo build --release --quiet
ours="target/release/gamesolver connect-four --width $width --height $height"
c4flag=""
if [ "$from" = 0 ]; then ours="$ours --columns-from-zero"; c4flag=--zero; fi
ours="$ours --batch"

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
seconds() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.4f", (b - a) / 1e9 }'; }

printf '%-24s %-12s %10s %8s\n' set command "median s" "vs c4"
for set in "$@"; do
    file=${set%%:*}
    name=$(basename "$file" .txt)
    count=1000000000
    [ "$file" = "$set" ] || { count=${set#*:}; name="$name:$count"; }
    head -n "$count" "$file" | cut -d' ' -f1-2 > "$out/scores"
    cut -d' ' -f1 "$out/scores" > "$out/positions"
    ours_times=""; c4_times=""
    for ((run = 0; run < runs; run++)); do
        if [ -n "${C4:-}" ]; then
            start=$(date +%s%N)
            "$C4" $c4flag < "$out/positions" > "$out/c4.txt" 2> /dev/null
            c4_times+="$(seconds "$start") "
            diff -q "$out/c4.txt" "$out/scores" > /dev/null || { echo "WRONG SCORES from c4 on $set" >&2; exit 1; }
        fi
        start=$(date +%s%N)
        $ours "$out/positions" > "$out/ours.txt"
        ours_times+="$(seconds "$start") "
        cut -d' ' -f1-2 "$out/ours.txt" | diff -q - "$out/scores" > /dev/null \
            || { echo "WRONG SCORES from gamesolver on $set" >&2; exit 1; }
    done
    ours_median=$(median <<< "$ours_times")
    if [ -n "${C4:-}" ]; then
        c4_median=$(median <<< "$c4_times")
        printf '%-24s %-12s %10s %8s\n' "$name" c4 "$c4_median" 1.00x
        printf '%-24s %-12s %10s %8s\n' "$name" gamesolver "$ours_median" \
            "$(awk -v a="$c4_median" -v b="$ours_median" 'BEGIN { printf "%.2fx", b / a }')"
    else
        printf '%-24s %-12s %10s %8s\n' "$name" gamesolver "$ours_median" -
    fi
done
echo "(whole processes, $runs interleaved runs each, $(nproc) cores; 'vs c4' = time / c4's time)"
