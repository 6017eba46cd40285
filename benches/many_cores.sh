#!/usr/bin/env bash
# The many-core figures of docs/performance.md, as one prepared run (a borrowed machine's minutes
# are few): the empty 7x6 Connect Four board against c4 on THREADS threads (and on 4), the tier
# solver on Dots and Boxes 3x4 at 2, 4, 8 and THREADS threads, and the distributed solver
# (timely) with 1xTHREADS and 4x(THREADS/4) workers on localhost.
#
#   BIN=gamesolver C4DIR=dir benches/many_cores.sh [THREADS] [PAIRS]
#
# BIN: a release binary built with `--features distributed` (default target/release/gamesolver);
# C4DIR: where benches/c4/build.sh put c4-empty-7x6-tTHREADS-134217757 (c4's 1 GB table),
# c4-empty-7x6-tTHREADS-8388593 (64 MB) and c4-empty-7x6-t4-134217757; without it c4 is skipped.
# PAIRS (default 5) interleaved runs of each solver of the empty board. Every line is printed as
# it is measured: label, wall seconds, peak KiB (GNU time), and the answer, which must be +1 for
# Connect Four and 0 for Dots and Boxes 3x4.
set -u
cd "$(dirname "$0")/.."
threads=${1:-16}; pairs=${2:-5}
bin=${BIN:-target/release/gamesolver}
# Connect Four's score (+1 from the empty board; c4 prints "score is"), Dots and Boxes' value.
answer='"value":-?[0-9]*|score is -?[0-9]*'
. benches/timed.sh

c4() { [ -n "${C4DIR:-}" ] && run "c4 t$1 $2" "$C4DIR/c4-empty-7x6-t$1-$2"; }
ours() { run "gamesolver connect-four t$1" "$bin" connect-four --threads "$1" --json; }

for ((pair = 0; pair < pairs; pair++)); do
    c4 "$threads" 134217757; ours "$threads"; c4 "$threads" 8388593
done
c4 4 134217757; ours 4
for t in "$threads" 8 4 2; do
    run "tier 3x4 t$t" "$bin" dots-and-boxes 3 4 --solver tier --threads "$t" --json
done
timely 1 "$threads" dots-and-boxes 3 4
timely 4 $((threads / 4)) dots-and-boxes 3 4
