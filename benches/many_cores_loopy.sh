#!/usr/bin/env bash
# The loopy tier solver on many cores (docs/performance.md), as one prepared run: Quixo 4x4 by the
# tier solver on rayon at 1, 2, 4, 8 and THREADS threads, on timely with 1xTHREADS workers and
# 4x(THREADS/4) workers in four processes on localhost, and Six Men's Morris with 7 men at 2 and
# THREADS threads.
#
#   BIN=gamesolver benches/many_cores_loopy.sh [THREADS]
#
# BIN: a release binary built with `--features distributed` (default target/release/gamesolver).
# Every line is printed as it is measured: label, wall seconds, the exit status, peak KiB (GNU
# time; of process 0 on timely's cluster) and the answer, which must be a win for X in 21
# (Quixo 4x4) and a draw (Six Men's Morris, 7 men).
set -u
cd "$(dirname "$0")/.."
threads=${1:-16}
bin=${BIN:-target/release/gamesolver}
answer='"answer":"[^"]*"|"remoteness":[0-9]*'
. benches/timed.sh

for t in "$threads" 8 4 2 1 "$threads"; do
    run "quixo 4 tier t$t" "$bin" quixo 4 --threads "$t" --json
done
timely 1 "$threads" quixo 4
timely 4 $((threads / 4)) quixo 4
for t in "$threads" 2; do
    run "morris 7 tier t$t" "$bin" six-mens-morris 7 --threads "$t" --json
done
