#!/usr/bin/env bash
# The empty Connect Four board, whole processes side by side: `gamesolver connect-four` (the
# score and the optimal line) against c4's own program (the score), on the same threads.
#
#   C4=/path/to/c4-empty-7x6-t2-ENTRIES benches/c4_empty.sh RUNS [THREADS]
#
# C4 is the "empty" binary that benches/c4/build.sh built from your own checkout of c4, outside
# this repository (docs/performance.md compares 2 threads, with c4's 64 MB table of 8388593
# entries and its default 1 GB one). Both must find +1 (the first player wins with its 21st
# stone); each runs RUNS times, interleaved; prints the medians and the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n '2,10p' "$0"; exit 2; }
runs=$1; threads=${2:-2}
cargo build --release --quiet
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
seconds() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'; }
ours_times=""; c4_times=""
for ((run = 0; run < runs; run++)); do
    if [ -n "${C4:-}" ]; then
        start=$(date +%s%N)
        "$C4" > target/c4-empty.txt
        c4_times+="$(seconds "$start") "
        grep -q "score is 1 " target/c4-empty.txt || { echo "c4 did not find +1" >&2; exit 1; }
    fi
    start=$(date +%s%N)
    target/release/gamesolver connect-four --threads "$threads" --json > target/ours-empty.json
    ours_times+="$(seconds "$start") "
    grep -q '"value":1,' target/ours-empty.json || { echo "gamesolver did not find +1" >&2; exit 1; }
    echo "run $((run + 1)): $(echo $c4_times | awk '{ print "c4 " $NF " s," }') gamesolver $(echo $ours_times | awk '{ print $NF }') s" >&2
done
ours=$(median <<< "$ours_times")
if [ -n "${C4:-}" ]; then
    c4=$(median <<< "$c4_times")
    echo "c4 $c4 s, gamesolver $ours s: $(awk -v a="$c4" -v b="$ours" 'BEGIN { printf "%.2fx", b / a }') (medians of $runs interleaved runs, $threads threads)"
else
    echo "gamesolver $ours s (median of $runs runs, $threads threads)"
fi
