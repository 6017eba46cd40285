#!/usr/bin/env bash
# Installs the Python package into a fresh virtual environment (target/python-ci) the way a
# user does, with what its tests need (pytest, open-spiel) from the package index, and runs
# its tests and doctests. Needs python3 (3.9 or later) and the Rust toolchain.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/python-ci
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --upgrade pip
# cvxpy: OpenSpiel's value_iteration, which the tests compare the chance engines with, needs it.
"$venv/bin/pip" install --quiet maturin pytest open-spiel cvxpy
# The wheel for the tests is built without link-time optimisation and in more codegen units
# (a few minutes less on two cores; the benchmarks use a wheel built with the release profile).
CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    "$venv/bin/pip" install --quiet ./python
# The command line the tests compare with (cargo test built it; built here if not).
cargo build --quiet --bin gamesolver
export GAMESOLVER_BIN="$PWD/target/debug/gamesolver"
# From outside the sources, so that `import gamesolver` is the installed package.
cd target
"../$venv/bin/python" -m pytest -q -p no:cacheprovider ../python/tests
"../$venv/bin/python" -m pytest -q -p no:cacheprovider --doctest-modules --pyargs gamesolver
