#!/usr/bin/env bash
# Games with chance, whole processes side by side, interleaved:
#
#   benches/chance.sh [RUNS]
#
# - Pig to 100: `gamesolver pig 100` (value iteration with proved bounds, tier by tier) against
#   benches/cpp/pig.c (plain Gauss-Seidel sweeps of Neller and Presser's equations in doubles,
#   no bound proved); both must print 0.5305927.
# - The bear-off race of 6 checkers on 6 points: `gamesolver bear-off 6 6 --threads 1` (exact
#   fractions) against GNU Backgammon's makebearoff -t 6x6 -C (the cubeless two-sided database,
#   16-bit integers, every pair of positions where we solve those reachable from the start).
#   Needs makebearoff and bearoffdump (Debian: apt install gnubg, in /usr/games). Before timing,
#   the database is checked against the crate pair by pair (tests/bear_off_gnubg.rs, ignored
#   test, with the one-sided position numbers read by bearoffdump).
#
# Prints per input the median wall time of each and the ratio gamesolver / yardstick.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
out=target/chance-bench
mkdir -p "$out"
cargo build --release --quiet
if [ ! -x "$out/pig" ] || [ benches/cpp/pig.c -nt "$out/pig" ]; then
    cc -O2 -march=native -o "$out/pig" benches/cpp/pig.c -lm
fi
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
seconds() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'; }

# NAME EXPECTED 'OURS' 'YARDSTICK': runs both in turn, checks each prints EXPECTED.
side_by_side() {
    local name=$1 expected=$2 ours=$3 theirs=$4 ours_times="" their_times="" start
    for ((run = 0; run < runs; run++)); do
        start=$(date +%s%N)
        sh -c "$theirs" > "$out/theirs.txt" 2>&1
        their_times+="$(seconds "$start") "
        start=$(date +%s%N)
        sh -c "$ours" > "$out/ours.txt" 2>&1
        ours_times+="$(seconds "$start") "
        for file in ours theirs; do
            if [ -n "$expected" ] && ! grep -q "$expected" "$out/$file.txt"; then
                echo "$name: $file did not print $expected" >&2
                exit 1
            fi
        done
    done
    local a b
    a=$(median <<< "$ours_times")
    b=$(median <<< "$their_times")
    echo "$name: gamesolver $a s, yardstick $b s: $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2fx", a / b }') (medians of $runs interleaved runs)"
}

side_by_side "Pig to 100" 0.530592 "target/release/gamesolver pig 100" "$out/pig 100"

makebearoff=$(command -v makebearoff || echo /usr/games/makebearoff)
bearoffdump=$(command -v bearoffdump || echo /usr/games/bearoffdump)
if [ ! -x "$makebearoff" ] || [ ! -x "$bearoffdump" ]; then
    echo "bear-off: makebearoff and bearoffdump not found (apt install gnubg): skipped" >&2
    exit 0
fi
database="$out/gnubg_6x6.bd"
if [ ! -s "$database" ]; then
    "$makebearoff" -t 6x6 -C -f "$database" > /dev/null 2>&1
fi
ranks="$out/gnubg_6x6.ranks"
if [ ! -s "$ranks" ]; then
    # One-sided position number k is the opponent's side of two-sided entry k (we, on roll,
    # have borne every checker off); its position ID (gnubg's key, base64) gives the checkers:
    # per point, that many 1 bits and a 0, the side not on roll first.
    python3 - "$bearoffdump" "$database" 6 924 > "$ranks" <<'EOF'
import base64, re, subprocess, sys
dump, path, points, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
print(",".join(["0"] * points))
for number in range(1, count):
    out = subprocess.run([dump, path, "-n", str(number)], capture_output=True, text=True).stdout
    key = base64.b64decode(re.search(r"Position ID: (\S+)", out).group(1) + "==")
    bits = [(key[i // 8] >> (i % 8)) & 1 for i in range(80)]
    counts, at = [], 0
    for point in range(points):
        run = 0
        while bits[at]:
            run, at = run + 1, at + 1
        counts.append(run)
        at += 1
    print(",".join(map(str, counts)))
EOF
fi
GNUBG_BEAROFF="$database" GNUBG_BEAROFF_RANKS="$ranks" GNUBG_BEAROFF_SIZE=6x6 \
    cargo test --release --quiet --test bear_off_gnubg -- --ignored --nocapture 2>&1 | grep "6x6:"
side_by_side "Bear-off 6 x 6" "" "target/release/gamesolver bear-off 6 6 --threads 1" \
    "$makebearoff -t 6x6 -C -f $out/timed.bd"
