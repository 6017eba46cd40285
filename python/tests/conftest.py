"""Shared fixtures: the `gamesolver` command line that the package's answers are compared with, and
Python's own SIGINT handler for the Ctrl-C tests."""

import os
import pathlib
import signal
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli() -> str:
    """The command line's binary: $GAMESOLVER_BIN, or the repository's debug build (built here
    if it is missing)."""
    given = os.environ.get("GAMESOLVER_BIN")
    if given:
        return given
    subprocess.run(["cargo", "build", "--quiet", "--bin", "gamesolver"], cwd=ROOT, check=True)
    return str(ROOT / "target" / "debug" / "gamesolver")


@pytest.fixture(autouse=True)
def _ctrl_c_raises_keyboard_interrupt():
    """The Ctrl-C tests simulate it with `_thread.interrupt_main`, which raises
    `KeyboardInterrupt` only under Python's own SIGINT handler; a shell's background job starts
    with SIGINT ignored, and Python then installs none. Each test runs with the handler."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
