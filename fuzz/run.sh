#!/bin/sh
# Runs every fuzz target for SECONDS each (default 600), one after the other, on a copy of the
# small seed corpus kept in fuzz/corpus/ (new inputs go to fuzz/corpus-run/, which git ignores;
# a crash is kept in fuzz/artifacts/). Needs the nightly toolchain and cargo-fuzz:
#   rustup toolchain install nightly && cargo install cargo-fuzz
# (run here with nightly 1.101 and cargo-fuzz 0.13.2). CI stays on stable: tests/fuzz.rs runs
# the same targets (gamesolver::games::fuzz) for a short mutation pass on every `cargo test`.
# No allocation may pass 256 MiB, the memory budget the targets' commands run under.
# Leak detection is off: a target that starts a thread pool (rayon's, on a first input that
# solves in parallel) leaves glibc's record of that thread's thread-local destructors, which
# LeakSanitizer reports as a 64-byte leak although the pool lives on by design.
#   fuzz/run.sh            # every target, 10 minutes each
#   fuzz/run.sh 60 parse_input
set -eu
cd "$(dirname "$0")"
seconds=${1:-600}
shift 2>/dev/null || true
targets=${*:-"parse_input stone_game_ii stone_game_viii saved_table chance_solution tier_file loopy_database nimber_journal position input_file request proof_file"}
for target in $targets; do
    mkdir -p "corpus-run/$target"
    cp -n corpus/"$target"/* "corpus-run/$target/" 2>/dev/null || true
    echo "== $target for $seconds s"
    cargo +nightly fuzz run "$target" "corpus-run/$target" -- \
        -max_total_time="$seconds" -rss_limit_mb=4096 -malloc_limit_mb=256 -detect_leaks=0 -print_final_stats=1
done
