# Sourced by the many-core scripts (benches/many_cores.sh, benches/many_cores_loopy.sh): a
# scratch folder `$out` removed on exit, the machine in one line, and `run LABEL COMMAND...`,
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
