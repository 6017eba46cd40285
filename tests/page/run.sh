#!/usr/bin/env bash
# The analysis page's browser test: installs Debian's Chromium (if no Chromium is on the PATH)
# and Playwright and pytest into a virtual environment of their own (target/page-ci), builds the
# command line, and runs tests/page (screenshots in target/page-shots). Needs python3, the Rust
# toolchain, and apt-get (as root) where Chromium is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
venv=target/page-ci
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --upgrade pip
# Playwright drives the system's Chromium (no browser of its own is downloaded).
"$venv/bin/pip" install --quiet playwright pytest
cargo build --quiet --bin gamesolver --example user_tool
export GAMESOLVER_BIN="$PWD/target/debug/gamesolver"
export USER_TOOL_BIN="$PWD/target/debug/examples/user_tool"
export PAGE_SHOTS="$PWD/target/page-shots"
mkdir -p "$PAGE_SHOTS"
"$venv/bin/python" -m pytest -q -p no:cacheprovider tests/page
