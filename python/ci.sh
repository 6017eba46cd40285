#!/usr/bin/env bash
# The Python package as a user receives it, tested: the sdist (`maturin sdist`), a wheel built
# from that sdist for manylinux2014 (x86-64, glibc 2.17: the oldest glibc that Rust's standard
# library supports; zig links against that glibc's symbols, so no container is needed), and that
# wheel installed into a fresh virtual environment with no cargo or rustc on PATH, with what the
# tests need (pytest, open-spiel, cvxpy) from the package index; then the tests and doctests run
# there. Needs python3 (3.9 or later) and the Rust toolchain (for the build only). Leaves the
# sdist and the wheel in target/python-dist.
set -euo pipefail
cd "$(dirname "$0")/.."
build=target/python-build   # maturin and zig, for the build
venv=target/python-ci       # the user's environment
dist=target/python-dist
rm -rf "$build" "$venv" "$dist"
python3 -m venv "$build"
"$build/bin/pip" install --quiet --upgrade pip
"$build/bin/pip" install --quiet maturin ziglang
"$build/bin/maturin" sdist --manifest-path python/Cargo.toml --out "$dist"
unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked"' EXIT
tar xzf "$dist"/gamesolver-*.tar.gz -C "$unpacked"
# Built without link-time optimisation and in more codegen units (a few minutes less on two
# cores; the benchmarks use a wheel built with the release profile).
PATH="$PWD/$build/bin:$PATH" CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    maturin build --release --zig --compatibility manylinux2014 \
    --manifest-path "$(echo "$unpacked"/gamesolver-*/python/Cargo.toml)" --out "$dist" \
    --target-dir "$PWD/target/wheel-ci"
wheel=$(echo "$dist"/gamesolver-*-manylinux*.whl)
# The command line the tests compare with (cargo test built it; built here if not).
cargo build --quiet --bin gamesolver
export GAMESOLVER_BIN="$PWD/target/debug/gamesolver"
# The user's PATH: every folder of this one but those that hold cargo or rustc.
user_path=$(tr ':' '\n' <<< "$PATH" | while read -r dir; do
    [ -e "$dir/cargo" ] || [ -e "$dir/rustc" ] || printf '%s\n' "$dir"
done | paste -sd: -)
if PATH="$user_path" command -v cargo rustc; then
    echo "cargo or rustc is still on the user's PATH" >&2
    exit 1
fi
python3 -m venv "$venv"
PATH="$user_path" "$venv/bin/pip" install --quiet --upgrade pip
PATH="$user_path" "$venv/bin/pip" install --quiet "$wheel" pytest open-spiel cvxpy
# From outside the sources, so that `import gamesolver` is the installed package.
cd target
PATH="$user_path" "../$venv/bin/python" -m pytest -q -p no:cacheprovider ../python/tests
PATH="$user_path" "../$venv/bin/python" -m pytest -q -p no:cacheprovider --doctest-modules \
    --pyargs gamesolver
