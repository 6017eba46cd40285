#!/usr/bin/env bash
# The retrograde solver against straightforward C++ retrograde solutions (benches/cpp/
# cat_and_mouse*.cpp), whole processes side by side, interleaved:
#
#   benches/cat_and_mouse.sh [RUNS]
#
# Inputs (fixed seeds, written under target/cat-and-mouse): Cat and Mouse II on an 8x8 grid
# with every jump 8 (LeetCode's largest) and on a 30x30 random grid (a tenth walls, jumps 3 and
# 4); Cat and Mouse on random graphs of 200 and 2000 nodes (about 3 edges a node). Prints per
# input and program the median wall time, the median peak memory, and the answer with the
# start's remoteness (which must agree), and the ratio gamesolver / C++.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
out=target/cat-and-mouse
mkdir -p "$out"
cargo build --release --quiet
for name in cat_and_mouse cat_and_mouse_ii; do
    if [ ! -x "$out/$name" ] || [ "benches/cpp/$name.cpp" -nt "$out/$name" ]; then
        g++ -O2 -o "$out/$name" "benches/cpp/$name.cpp"
    fi
done

# A grid: ROWS COLUMNS WALLS-PER-HUNDRED SEED -> the rows, C top left, M bottom right, F in
# the middle.
grid() {
    awk -v rows="$1" -v columns="$2" -v walls="$3" -v seed="$4" 'BEGIN {
        srand(seed)
        for (r = 0; r < rows; r++) {
            line = ""
            for (c = 0; c < columns; c++) {
                cell = (rand() * 100 < walls) ? "#" : "."
                if (r == 0 && c == 0) cell = "C"
                if (r == rows - 1 && c == columns - 1) cell = "M"
                if (r == int(rows / 2) && c == int(columns / 2)) cell = "F"
                line = line cell
            }
            print line
        }
    }'
}

# A grid input in both formats: NAME ROWS COLUMNS WALLS SEED CATJUMP MOUSEJUMP.
grid_input() {
    local name=$1 rows=$2 columns=$3 walls=$4 seed=$5 cat=$6 mouse=$7
    grid "$rows" "$columns" "$walls" "$seed" > "$out/$name.rows"
    { echo "$rows $columns $cat $mouse"; cat "$out/$name.rows"; } > "$out/$name.txt"
    awk -v cat="$cat" -v mouse="$mouse" 'BEGIN { printf "{\"grid\": [" }
        { printf "%s\"%s\"", (NR > 1 ? ", " : ""), $0 }
        END { printf "], \"catJump\": %d, \"mouseJump\": %d}\n", cat, mouse }' \
        "$out/$name.rows" > "$out/$name.json"
}

# A random connected undirected graph in both formats: NAME NODES SEED (a random tree plus as
# many random edges again, no self-loops or repeats; the mouse's node 1 not next to the hole
# 0 through the tree).
graph_input() {
    local name=$1 nodes=$2 seed=$3
    awk -v n="$nodes" -v seed="$seed" -v text="$out/$name.txt" -v json="$out/$name.json" 'BEGIN {
        srand(seed)
        # A random tree over 0 and 2..n-1, then node 1 (the mouse) hung from a node past 1, so
        # that the mouse does not start next to the hole.
        for (v = 2; v < n; v++) { add(v, (v == 2) ? 0 : int(rand() * v)) }
        add(1, 2 + int(rand() * (n - 2)))
        for (e = 0; e < n; e++) { a = int(rand() * n); b = int(rand() * n); if (a != b) add(a, b) }
        printf "%d\n", n > text
        printf "[" > json
        for (v = 0; v < n; v++) {
            printf "%d%s\n", degree[v], list[v] > text
            printf "%s[%s]", (v ? "," : ""), substr(jlist[v], 2) > json
        }
        printf "]\n" > json
    }
    function add(a, b) {
        if ((a, b) in seen) return
        seen[a, b] = 1; seen[b, a] = 1
        degree[a]++; degree[b]++
        list[a] = list[a] " " b; list[b] = list[b] " " a
        jlist[a] = jlist[a] "," b; jlist[b] = jlist[b] "," a
    }'
}

grid_input grid-8x8 8 8 10 7 8 8
grid_input grid-30x30 30 30 10 11 3 4
graph_input graph-200 200 5
graph_input graph-2000 2000 6

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

for case in grid-8x8:cat_and_mouse_ii:cat-and-mouse-ii grid-30x30:cat_and_mouse_ii:cat-and-mouse-ii \
            graph-200:cat_and_mouse:cat-and-mouse graph-2000:cat_and_mouse:cat-and-mouse; do
    IFS=: read -r name cpp game <<< "$case"
    declare -A times=() memory=() answers=()
    for ((run = 0; run < runs; run++)); do
        for program in cpp gamesolver; do
            start=$(date +%s%N)
            if [ "$program" = cpp ]; then
                /usr/bin/time -f "%M" -o "$out/time.txt" "$out/$cpp" < "$out/$name.txt" > "$out/stdout.txt"
                answer=$(cat "$out/stdout.txt")
            else
                /usr/bin/time -f "%M" -o "$out/time.txt" target/release/gamesolver "$game" \
                    --input "$out/$name.json" --json > "$out/stdout.txt"
                answer=$(sed -E 's/.*"answer":([a-z0-9]+).*"remoteness":(-?[0-9a-z]+).*/\1 \2/; s/true/1/; s/false/0/; s/null/-1/' "$out/stdout.txt")
            fi
            end=$(date +%s%N)
            times[$program]+="$(( (end - start) / 1000000 )) "
            memory[$program]+="$(tail -1 "$out/time.txt") "
            answers[$program]=$answer
        done
    done
    cpp_ms=$(echo "${times[cpp]}" | tr ' ' '\n' | grep . | median)
    ours_ms=$(echo "${times[gamesolver]}" | tr ' ' '\n' | grep . | median)
    for program in cpp gamesolver; do
        ms=$(echo "${times[$program]}" | tr ' ' '\n' | grep . | median)
        kib=$(echo "${memory[$program]}" | tr ' ' '\n' | grep . | median)
        printf '%-10s %-10s %8s ms %8s KiB  answer %s\n' "$name" "$program" "$ms" "$kib" "${answers[$program]}"
    done
    awk -v a="$ours_ms" -v b="$cpp_ms" 'BEGIN { printf "%-10s gamesolver / C++: %.2fx\n", "", (b > 0 ? a / b : 0) }'
    if [ "${answers[cpp]}" != "${answers[gamesolver]}" ]; then
        echo "answers differ on $name: ${answers[cpp]} vs ${answers[gamesolver]}" >&2
        exit 1
    fi
done
