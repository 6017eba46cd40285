"""Shared fixtures: the `gamesolver` command line that the package's answers are compared with."""

import os
import pathlib
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
