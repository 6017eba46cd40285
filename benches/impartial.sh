#!/usr/bin/env bash
# Impartial games against igs (Piotr Beling's igsolve), whole processes side by side,
# interleaved, one thread each:
#
#   benches/impartial.sh [RUNS] [ROWSxCOLUMNS ...]
#
# - Cram boards (default 4x7 5x5 5x6): `gamesolver cram R C --threads 1 --json` against
#   `igsolve --tt hash-map cram -r R -c C` (igs's hash map: its default on boards to 40 cells,
#   and faster than its default past them, an 8 GB succinct table); both must give the same
#   nimber.
# - Grundy's game, one heap of 10 000: `gamesolver grundys-game 10000` against
#   `igsolve grundy -p 10000` (nimber 39).
#
# igsolve is GPL: install it outside the repository (`cargo install igsolve --root DIR`) and
# put it on PATH, or name it in IGSOLVE. Prints per input the median wall time and peak memory
# of each (GNU time) and the ratio gamesolver / igsolve.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
shift || true
boards=("$@")
[ ${#boards[@]} -gt 0 ] || boards=(4x7 5x5 5x6)
igsolve=${IGSOLVE:-$(command -v igsolve || true)}
if [ -z "$igsolve" ]; then
    echo "igsolve not found: cargo install igsolve --root DIR, then IGSOLVE=DIR/bin/igsolve" >&2
    exit 1
fi
cargo build --release --quiet
ours=target/release/gamesolver
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# NAME 'OURS' 'IGS': runs both in turn RUNS times; checks that they give the same nimber.
side_by_side() {
    local name=$1 a=$2 b=$3 ta="" tb="" ma="" mb="" na nb
    for _ in $(seq "$runs"); do
        na=$(/usr/bin/time -f "%e %M" -o target/impartial-a $a | grep -o '"nimber":[0-9]*' | cut -d: -f2)
        read -r t m < target/impartial-a; ta="$ta $t"; ma="$ma $m"
        nb=$(/usr/bin/time -f "%e %M" -o target/impartial-b $b | grep -o 'initial position: [0-9]*' | cut -d' ' -f3)
        read -r t m < target/impartial-b; tb="$tb $t"; mb="$mb $m"
        if [ "$na" != "$nb" ]; then
            echo "$name: gamesolver says nimber $na, igsolve $nb" >&2
            exit 1
        fi
    done
    local wa wb
    wa=$(echo "$ta" | median); wb=$(echo "$tb" | median)
    printf '%-12s nimber %-3s gamesolver %8s s %7s KB   igsolve %8s s %7s KB   ratio %s\n' \
        "$name" "$na" "$wa" "$(echo "$ma" | median)" "$wb" "$(echo "$mb" | median)" \
        "$(awk -v a="$wa" -v b="$wb" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }')"
}

for board in "${boards[@]}"; do
    rows=${board%x*}
    columns=${board#*x}
    side_by_side "cram $board" "$ours cram $rows $columns --threads 1 --json" \
        "$igsolve --tt hash-map cram -r $rows -c $columns"
done
side_by_side "grundy 10000" "$ours grundys-game 10000 --threads 1 --json" "$igsolve grundy -p 10000"
