#!/usr/bin/env bash
# The front door on games written from docs/adding-a-game.md alone (benches/newcomers/): for
# each game and size, whole processes of examples/newcomers.rs, interleaved, with
# `--solver auto` (every core offered, as a user runs it) beside each engine asked for:
# `engine` (exhaustive, one thread), `parallel` (exhaustive, every core), `alphabeta` (pruning,
# one thread) and `alphabeta --threads 2`. Prints per (game, size) the median wall seconds of
# each, the fastest engine, and auto's ratio to it (docs/performance.md, "A newcomer's games").
#
#   benches/newcomers.sh [RUNS] [LIMIT_SECONDS]
#
# An engine still running after LIMIT_SECONDS (default 60) is stopped and shown as '>LIMIT', one
# that exits with an error (a cycle it cannot search, a budget) as 'refused'; every run that
# finishes must print the same value.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
limit=${2:-60}
cargo build --release --quiet --example newcomers
bin=target/release/examples/newcomers
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
echo "machine: $(nproc) cpus, $(lscpu | sed -n 's/^Model name: *//p'); $runs runs each, medians"

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# `timed ARGS...`: the wall seconds of `$bin ARGS... --json` (or '>LIMIT'), its value in
# "$out/value".
timed() {
    local start end rc=0
    start=$(date +%s%N)
    timeout "$limit" "$bin" "$@" --json > "$out/stdout" 2> "$out/stderr" || rc=$?
    end=$(date +%s%N)
    if [ "$rc" -eq 124 ]; then
        echo ">$limit"
        return
    elif [ "$rc" -ne 0 ]; then
        # Refused (a cycle for an engine that needs an acyclic game, a budget): the
        # message names why.
        echo "refused"
        return
    fi
    grep -oE '"value":-?[0-9]+' "$out/stdout" | head -1 > "$out/value"
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'
}

solvers=("auto" "engine" "parallel" "alphabeta" "alphabeta --threads 2")
sizes=(
    "kalah 4 3" "kalah 5 3" "kalah 6 3"
    "domineering 5 5" "domineering 6 6"
    "othello 4 4" "othello 4 6"
    "hex 3" "hex 4"
    "mnk 4 3 3" "mnk 4 4 4"
    "take-away 100000" "take-away 3000000"
    "dots 2 3" "dots 3 3"
    "slide 3" "slide 4"
    "can-i-win 15 100" "can-i-win 20 200"
)
printf '%-20s %10s %10s %10s %10s %10s  %-22s %s\n' game auto engine parallel alphabeta "ab x2" fastest "auto/fastest"
for size in "${sizes[@]}"; do
    declare -A times=()
    value=""
    for ((run = 0; run < runs; run++)); do
        for solver in "${solvers[@]}"; do
            # shellcheck disable=SC2086 # the solver's words are separate arguments
            seconds=$(timed $size --solver $solver)
            times[$solver]+=" $seconds"
            if [ "${seconds:0:1}" != ">" ] && [ "$seconds" != refused ]; then
                got=$(cat "$out/value")
                if [ -n "$value" ] && [ "$got" != "$value" ]; then
                    echo "$size: --solver $solver gave $got where another gave $value" >&2
                    exit 1
                fi
                value=$got
            fi
        done
    done
    best="" best_time=""
    row=()
    for solver in "${solvers[@]}"; do
        if grep -q 'refused' <<< "${times[$solver]}"; then
            middle="refused"
        elif grep -q '>' <<< "${times[$solver]}"; then
            middle=">$limit"
        else
            middle=$(echo "${times[$solver]}" | median)
            if [ "$solver" != auto ] && { [ -z "$best_time" ] || awk -v a="$middle" -v b="$best_time" 'BEGIN { exit !(a < b) }'; }; then
                best=$solver best_time=$middle
            fi
        fi
        row+=("$middle")
    done
    ratio=$(awk -v a="${row[0]}" -v b="$best_time" 'BEGIN { if (a ~ />|refused/ || b == "") print "-"; else printf "%.2f", a / b }')
    printf '%-20s %10s %10s %10s %10s %10s  %-22s %s\n' "$size" "${row[@]}" "$best" "$ratio"
    unset times
done
