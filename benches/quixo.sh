#!/usr/bin/env bash
# Quixo against GamesmanOne (github GamesCrafters/GamesmanOne), position by position and side by
# side: both solve SIDE x SIDE Quixo to a database, then both answer N random positions from it
# and every value and remoteness must agree.
#
#   GAMESMAN=/path/to/GamesmanOne/bin/gamesman [GMQUERY=/path/to/gamesmanone-query] \
#       benches/quixo.sh SIDE N
#
# GMQUERY, built from benches/gamesmanone_query.c (its head says how), answers every position in
# one process; without it each position is a `gamesman query` of its own (about 0.25 s each).
#
# Build GamesmanOne outside this repository: clone it with its submodules (lib/json-c, lib/xz,
# lib/lz4), build each into res/ with cmake (its gamesman_install.sh; add
# -DCMAKE_POLICY_VERSION_MINIMUM=3.5 with cmake 4), then `cmake -S . -B build
# -DCMAKE_BUILD_TYPE=Release && cmake --build build`: bin/gamesman. Its variants: 0 is 5x5, 1 is
# 4x4, 2 is 3x3. It writes its database under ./data of the directory it runs in (a relative
# path: an absolute --data-path fails to be created), which is target/quixo-gamesman/SIDE here.
#
# The positions are drawn uniformly among the boards GamesmanOne calls legal (each cell X, O or
# blank, either side to move, the side that just moved with a cube on the border). Prints the
# count of positions compared and of disagreements (each one on stderr), the two databases'
# sizes, and each solve's time and peak memory (one run each; benches/quixo_time.sh times them
# with farm-bench).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { sed -n '2,18p' "$0"; exit 2; }
side=$1; count=$2
case "$side" in 3) variant=2 ;; 4) variant=1 ;; 5) variant=0 ;; *) echo "SIDE is 3, 4 or 5" >&2; exit 2 ;; esac
: "${GAMESMAN:?set GAMESMAN to the gamesman binary of GamesmanOne}"
out=$PWD/target/quixo-gamesman/$side
mkdir -p "$out"
cargo build --release --quiet
ours=$PWD/target/release/gamesolver

rm -rf "$out/data" "$out/quixo$side.tiers"
(cd "$out" && /usr/bin/time -f "GamesmanOne solve: %e s, peak %M KiB" \
    env OMP_NUM_THREADS=1 "$GAMESMAN" solve quixo "$variant" > gamesman-solve.log)
/usr/bin/time -f "gamesolver solve (2 threads): %e s, peak %M KiB" \
    "$ours" quixo "$side" --threads 2 --save "$out/quixo$side.tiers" > "$out/ours-solve.log"
echo "GamesmanOne database: $(du -sb "$out/data/quixo/$variant" | cut -f1) bytes"
echo "gamesolver tier file: $(stat -c %s "$out/quixo$side.tiers") bytes"

python3 - "$side" "$count" > "$out/positions" <<'EOF'
import random, sys
side, count = int(sys.argv[1]), int(sys.argv[2])
cells = side * side
border = [r * side + c for r in range(side) for c in range(side)
          if r in (0, side - 1) or c in (0, side - 1)]
rng = random.Random(20261128 + side)
made = 0
while made < count:
    board = [rng.choice("XO-") for _ in range(cells)]
    turn = rng.choice("12")
    just_moved = "O" if turn == "1" else "X"
    if not any(board[at] == just_moved for at in border):
        continue
    print(f"{turn}_{''.join(board)}")
    made += 1
EOF

cat > "$out/theirs.py" <<'EOF'
import json, sys
answer = json.load(sys.stdin)
value = {"win": 1, "lose": -1, "draw": 0}[answer["positionValue"]]
print(value, answer.get("remoteness") if value != 0 else None)
EOF
cat > "$out/theirs_many.py" <<'EOF'
import json, sys
for line in sys.stdin:
    answer = json.loads(line)
    value = {"win": 1, "lose": -1, "draw": 0}[answer["positionValue"]]
    print(value, answer.get("remoteness") if value != 0 else None)
EOF
cat > "$out/mine.py" <<'EOF'
import json, sys
answer = json.load(sys.stdin)
print(answer["value"], answer["remoteness"])
EOF

if [ -n "${GMQUERY:-}" ]; then
    (cd "$out" && "$GMQUERY" "$variant" < positions) | grep -v "^$" | python3 "$out/theirs_many.py" > "$out/theirs"
else
    while read -r position; do
        (cd "$out" && "$GAMESMAN" query quixo "$variant" "$position" | python3 theirs.py)
    done < "$out/positions" > "$out/theirs"
fi
while read -r position; do
    "$ours" analyze quixo "$side" --load "$out/quixo$side.tiers" --at "$position" --json \
        | python3 "$out/mine.py"
done < "$out/positions" > "$out/mine"
compared=$(wc -l < "$out/positions")
differ=$(paste -d' ' "$out/positions" "$out/theirs" "$out/mine" | awk '$2 != $4 || $3 != $5' | tee /dev/stderr | wc -l)
echo "positions compared: $compared (answers: GamesmanOne $(wc -l < "$out/theirs"), gamesolver $(wc -l < "$out/mine")), disagreements: $differ"
[ "$differ" = 0 ] && [ "$(wc -l < "$out/theirs")" = "$compared" ] && [ "$(wc -l < "$out/mine")" = "$compared" ]
