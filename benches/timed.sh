# Sourced by the many-core scripts (benches/many_cores.sh, benches/many_cores_loopy.sh): a
# scratch folder `$out` removed on exit, the machine in one line, `timely` (below) for a
# binary `$bin`, and `run LABEL COMMAND...`,
# which prints LABEL, the wall seconds, the exit status, the peak KiB (GNU time) and what of
# the command's stdout matches `$answer` (an extended regular expression), in one line.
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
echo "machine: $(nproc) cpus, $(lscpu | sed -n 's/^Model name: *//p'), L3 $(lscpu | sed -n 's/^L3 cache: *//p')"

run() {
    local label=$1; shift
    local start end
    start=$(date +%s%N)
    /usr/bin/time -f "%M" -o "$out/mem" "$@" > "$out/stdout" 2> "$out/stderr"
    local rc=$?
    end=$(date +%s%N)
    echo "$label $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1e9 }') s" \
        "rc=$rc peak=$(tail -1 "$out/mem") KiB $(grep -oE "$answer" "$out/stdout" | head -2 | tr "\n" " ")"
    [ "$rc" -eq 0 ] || tail -3 "$out/stderr"
}

# `timely PROCESSES WORKERS GAME VALUES...`: `$bin GAME VALUES... --solver distributed` with
# WORKERS workers in each of PROCESSES processes on localhost (one process: no cluster), timed
# by `run` on process 0, labelled "GAME VALUES timely PROCESSESxWORKERS".
timely() {
    local processes=$1 workers=$2 index; shift 2
    : > "$out/hosts"
    for ((index = 0; index < processes; index++)); do
        echo "127.0.0.1:$((21000 + index))" >> "$out/hosts"
    done
    for ((index = 1; index < processes; index++)); do
        "$bin" "$@" --solver distributed --workers "$workers" --processes "$processes" \
            --process "$index" --hostfile "$out/hosts" > /dev/null 2>&1 &
    done
    local cluster=()
    [ "$processes" -gt 1 ] && cluster=(--processes "$processes" --process 0 --hostfile "$out/hosts")
    run "$* timely ${processes}x${workers}" "$bin" "$@" --solver distributed \
        --workers "$workers" "${cluster[@]}" --json
    wait
}
