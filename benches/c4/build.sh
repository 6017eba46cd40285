#!/usr/bin/env bash
# Builds Christophe Steininger's Connect Four solver c4, the yardstick of docs/performance.md,
# from a checkout of its public source (github.com/ChristopheSteininger/c4) that you made outside
# this repository; nothing here ships it. Its board, threads and table size are compile-time
# settings (src/solver/settings.h), so each configuration is its own binary.
#
#   benches/c4/build.sh C4_CHECKOUT OUT_DIR WIDTH HEIGHT THREADS TABLE_ENTRIES
#
# writes OUT_DIR/c4-batch-WxH-tTHREADS-ENTRIES (benches/c4/batch.cpp: reads positions, one per
# line, columns from 1, or from 0 with --zero; prints "POSITION SCORE") and
# OUT_DIR/c4-empty-WxH-tTHREADS-ENTRIES (c4's own main: the empty board, score and statistics).
# A 64 MB table is 8388593 entries (a prime, as c4's default 134217757 is for 1 GB).
# Compiler: g++ with C++20, as c4's CMakeLists asks (-O3 -flto -march=native -DNDEBUG).
set -euo pipefail
[ $# -eq 6 ] || { sed -n '2,14p' "$0"; exit 2; }
checkout=$(cd "$1" && pwd); out=$2; w=$3; h=$4; threads=$5; entries=$6
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"; out=$(cd "$out" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cp -r "$checkout/src" "$work/src"
cp "$here/batch.cpp" "$work/src/batch.cpp"
sed -i -e "s/BOARD_WIDTH = [0-9]*;/BOARD_WIDTH = $w;/" \
       -e "s/BOARD_HEIGHT = [0-9]*;/BOARD_HEIGHT = $h;/" \
       -e "s/NUM_THREADS = [0-9]*;/NUM_THREADS = $threads;/" \
       -e "s/NUM_TABLE_ENTRIES = [0-9]*;/NUM_TABLE_ENTRIES = $entries;/" "$work/src/solver/settings.h"
name="${w}x${h}-t${threads}-${entries}"
for main in batch c4; do
    binary="$out/c4-$([ $main = batch ] && echo batch || echo empty)-$name"
    g++ -std=c++20 -O3 -flto -march=native -DNDEBUG -o "$binary" "$work/src/$main.cpp" \
        "$work"/src/solver/*.cpp "$work"/src/solver/*/*.cpp -lpthread
    echo "$binary"
done
