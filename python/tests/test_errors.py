"""Every bad input is told in Python's words: the exception class its kind calls for, and a
message with no command-line flag, usage line or Rust path in it."""

import re

import pytest

import gamesolver

#: What a message must not contain: a flag (--width), a placeholder (<GAME>), the command
#: line's hints ("try '--help'", "Usage:"), a Rust path.
LEAKS = re.compile(r"--[a-z]|<[A-Z_]+>|try '|Usage:|tip:|Capabilities::|gamesolver::|::")


class Countdown(gamesolver.Game):
    def start(self):
        return 5

    def moves(self, left):
        return [1, 2] if left else []

    def play(self, left, take):
        return max(0, left - take), take, False

    def payoff(self, left):
        return 0


class SaysYes(Countdown):
    def play(self, left, take):
        return max(0, left - take), take, "yes"


class FlagAsText(Countdown):
    outcome_game = "yes"


class GoesRound(gamesolver.Game):
    """Two places, a step goes to the other: play never ends."""

    outcome_game = True

    def start(self):
        return 0

    def moves(self, at):
        return [1]

    def play(self, at, step):
        return 1 - at, 0, False

    def payoff(self, at):
        return 0


def openspiel_cycle():
    pyspiel = pytest.importorskip("pyspiel")
    from gamesolver import openspiel

    # A key that tells no two positions apart: the second state "returns" to the first.
    openspiel.solve(pyspiel.load_game("tic_tac_toe"), key=lambda state: 0)


def openspiel_unsupported():
    pyspiel = pytest.importorskip("pyspiel")
    from gamesolver import openspiel

    openspiel.solve(pyspiel.load_game("kuhn_poker"))


CASES = [
    ("an unknown bundled game", lambda: gamesolver.solve("stone-game-iv"), gamesolver.InputError, "no bundled game"),
    ("an unknown keyword", lambda: gamesolver.solve("nim", [3, 4, 5], foo=1), TypeError, "unexpected keyword argument 'foo'"),
    ("an unknown keyword, analyze", lambda: gamesolver.analyze("nim", [3, 4, 5], bar=2), TypeError, "'bar'"),
    ("a negative memory limit", lambda: gamesolver.solve("nim", [3, 4, 5], memory_limit=-5), gamesolver.InputError, "memory_limit"),
    ("a memory limit in words", lambda: gamesolver.solve("nim", [3, 4, 5], memory_limit="lots"), gamesolver.InputError, "memory_limit"),
    ("a zero time limit", lambda: gamesolver.solve("nim", [3, 4, 5], time_limit=0), gamesolver.InputError, "time_limit"),
    ("a zero time limit as text", lambda: gamesolver.solve("nim", [3, 4, 5], time_limit="0ms"), gamesolver.InputError, "time_limit"),
    ("a time limit for a game object", lambda: gamesolver.solve(Countdown(), time_limit=-1), gamesolver.InputError, "time_limit"),
    ("an unknown solver", lambda: gamesolver.solve("nim", [3, 4, 5], solver="quick"), gamesolver.InputError, "solver must be"),
    ("an unknown engine", lambda: gamesolver.solve(Countdown(), engine="quick"), gamesolver.InputError, "engine must be"),
    ("no threads", lambda: gamesolver.solve("nim", [3, 4, 5], threads=0), gamesolver.InputError, "threads"),
    ("a board too wide", lambda: gamesolver.solve("connect-four", "4", width=99), gamesolver.InputError, "width="),
    ("a width as text", lambda: gamesolver.solve("connect-four", "4", width="7"), gamesolver.InputError, "width"),
    ("a flag as a number", lambda: gamesolver.solve("connect-four", "4", analyze=1), gamesolver.InputError, "analyze"),
    ("moves played as a number", lambda: gamesolver.analyze("nim", [3, 4, 5], after=5), gamesolver.InputError, "after"),
    ("a move that is not legal", lambda: gamesolver.analyze("nim", [1, 2], after=["9,9"]), gamesolver.InputError, "'9,9'"),
    ("a switch that is not a bool", lambda: gamesolver.solve(Countdown(), line="yes"), gamesolver.InputError, "line"),
    ("keeps_turn that is not a bool", lambda: gamesolver.solve(SaysYes()), TypeError, "keeps_turn must be True or False"),
    ("a flag that is not a bool", lambda: gamesolver.solve(FlagAsText()), TypeError, "outcome_game must be True or False"),
    ("a game that cycles, undeclared", lambda: gamesolver.solve(GoesRound()), gamesolver.UnsupportedError, "may_cycle = True"),
    ("retrograde for a score game", lambda: gamesolver.solve(Countdown(), engine="retrograde"), gamesolver.UnsupportedError, "outcome_game = True"),
    ("remoteness from the pruning engine", lambda: gamesolver.solve(Countdown(), engine="pruning", remoteness=True), gamesolver.UnsupportedError, "remoteness"),
    ("an OpenSpiel game that cycles", openspiel_cycle, gamesolver.UnsupportedError, "key="),
    ("an OpenSpiel game of imperfect information", openspiel_unsupported, gamesolver.UnsupportedError, "perfect information"),
]


@pytest.mark.parametrize("what, call, kind, says", CASES, ids=[case[0] for case in CASES])
def test_bad_input_is_told_in_pythons_words(what, call, kind, says):
    with pytest.raises(kind) as raised:
        call()
    message = str(raised.value)
    assert says in message, message
    assert not LEAKS.search(message), message
    if isinstance(raised.value, gamesolver.GamesolverError):
        # The class follows the kind it carries.
        assert type(gamesolver._error("", raised.value.kind)) is type(raised.value)


def test_every_keyword_option_reaches_the_command_line():
    """The options the package checks are those the command line takes: each one is accepted
    (a wrong value of the right type is refused by the game, not as an unknown option)."""
    ints = {name for name, kind in gamesolver._OPTIONS.items() if kind == "int"}
    for name, kind in gamesolver._OPTIONS.items():
        value = {"int": 5, "bool": True, "path": "/nonexistent/gamesolver-test"}[kind]
        try:
            gamesolver.solve("stone-game-ii", [1, 2, 3], **{name: value})
        except gamesolver.GamesolverError as refused:
            assert "unexpected" not in str(refused) and "unknown" not in str(refused), (name, refused)
        assert name in ints or kind != "int"
