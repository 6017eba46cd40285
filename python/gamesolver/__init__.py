"""Exact solutions of two-player, perfect-information, zero-sum games.

Solve a bundled game at native speed (the same solvers, options and answers as the
``gamesolver`` command line)::

    >>> import gamesolver
    >>> gamesolver.solve("stone-game-ii", [2, 7, 9, 4, 4]).answer
    10

or your own game, written as a Python class with ``start``, ``moves``, ``play`` and ``payoff``
(see :class:`Game`)::

    >>> class Countdown(gamesolver.Game):
    ...     "Take 1 to 3 counters; each counter taken is a point."
    ...     def start(self): return 10
    ...     def moves(self, left): return [t for t in (1, 2, 3) if t <= left]
    ...     def play(self, left, take): return left - take, take, False
    ...     def payoff(self, left): return 0
    >>> gamesolver.solve(Countdown()).value
    2

and any deterministic, perfect-information, two-player, zero-sum OpenSpiel game with
:func:`gamesolver.openspiel.solve`.

Errors are Python exceptions of fitting types: :class:`InputError` (a ``ValueError``) for bad
input, :class:`MemoryBudgetError` (a ``MemoryError``) when a solve would pass its memory
budget, :class:`TimeLimitError` (a ``TimeoutError``) past its time limit. Ctrl-C stops a solve
(``KeyboardInterrupt``).
"""

from __future__ import annotations

import copy
import json
import math
import os
import re
from typing import Any, Dict, Hashable, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _native

__all__ = [
    "GAMES",
    "Game",
    "Result",
    "GamesolverError",
    "InputError",
    "MemoryBudgetError",
    "TimeLimitError",
    "UnsupportedError",
    "SolveError",
    "solve",
    "analyze",
    "check",
]

__version__: str = _native.__version__

#: The bundled games: name -> what it is and what its answer says.
GAMES: Dict[str, str] = dict(_native.bundled_games())


class GamesolverError(Exception):
    """A solve that did not reach its answer. ``kind`` names the failure as the command
    line's ``--json`` errors do (``"parse"``, ``"memory-budget"``, ``"time-limit"``, …)."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


class InputError(GamesolverError, ValueError):
    """The game, its values, a position or an option was rejected."""


class MemoryBudgetError(GamesolverError, MemoryError):
    """The solve would pass its memory budget (``memory_limit``)."""


class TimeLimitError(GamesolverError, TimeoutError):
    """The solve ran past its time limit (``time_limit``), or is forecast to."""


class UnsupportedError(GamesolverError, ValueError):
    """The engine asked for cannot solve this game (a cycle, an engine it does not declare)."""


class SolveError(GamesolverError, RuntimeError):
    """Any other failure (I/O of saved solutions, threads that could not start, …)."""


_INPUT_KINDS = {
    "usage",
    "unknown-game",
    "help",
    "parse",
    "too-few",
    "too-many",
    "out-of-range",
    "total-overflow",
    "invalid-game",
    "illegal-move",
    "invalid-state",
    "score-overflow",
}
_MEMORY_KINDS = {"memory-budget", "allocation"}
_TIME_KINDS = {"time-limit"}
_UNSUPPORTED_KINDS = {"unsupported", "unanswerable", "cycle"}


def _error(message: str, kind: str) -> GamesolverError:
    if kind in _INPUT_KINDS:
        return InputError(message, kind)
    if kind in _MEMORY_KINDS:
        return MemoryBudgetError(message, kind)
    if kind in _TIME_KINDS:
        return TimeLimitError(message, kind)
    if kind in _UNSUPPORTED_KINDS:
        return UnsupportedError(message, kind)
    if kind == "stopped":
        return SolveError("the solve was stopped", kind)
    return SolveError(message, kind)


class Result:
    """A solve's, an analysis's or a check's result: its fields as attributes (``answer``,
    ``value``, ``line``, ``moves``, ``states``, …) and :meth:`to_dict`.

    For a bundled game the fields are exactly those of the command line's ``--json``.
    """

    __slots__ = ("_fields",)

    def __init__(self, fields: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_fields", dict(fields))

    def __getattr__(self, name: str) -> Any:
        try:
            return self._fields[name]
        except KeyError:
            raise AttributeError(
                f"this result has no field {name!r}; it has {', '.join(self._fields)}"
            ) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a result is read-only")

    def __getitem__(self, name: str) -> Any:
        return self._fields[name]

    def __contains__(self, name: object) -> bool:
        return name in self._fields

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Result) and self._fields == other._fields

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> Dict[str, Any]:
        """The fields as a new dict (a deep copy)."""
        return copy.deepcopy(self._fields)

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | set(self._fields))

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{key}={value!r}" for key, value in self._fields.items() if key not in ("line", "moves")
        )
        return f"Result({shown})"


class Game:
    """The protocol of a game written in Python (subclassing this is optional: any object
    with these methods will do).

    Values are *from the side to move*: ``play`` returns the points the mover gains, and the
    value of a state is the best ``mover's points - opponent's points`` from there on.

    Required:

    - ``start()``: the state play starts in. States are any hashable values (equal states
      must hash equally); moves are any hashable values.
    - ``moves(state)``: the legal moves, an iterable (empty when the game is over).
    - ``play(state, move)``: ``(next_state, points, keeps_turn)``: the points the mover gains
      with this move, and whether the same player moves again.
    - ``payoff(state)``: the value, for the side to move, of a state with no move.

    Optional declarations (they make solves faster; a wrong one gives wrong answers, and
    :func:`check` finds it):

    - ``known_value(state)``: the state's exact value when known without search, else None.
    - ``value_range(state)``: ``(low, high)``, the values still possible (cut-offs); or
      ``value_range = (low, high)``, one range for every state (no call per state).
    - ``outcome_game = True``: payoffs are +1 (the mover wins), -1 or 0 and moves gain
      nothing: searches stop at the first winning move.
    - ``may_cycle = True``: play may return to an earlier state (an outcome game only; solved
      by retrograde analysis, with draws and remoteness).

    Chance (dice, coins): a game whose states may be *chance states* defines both

    - ``is_chance(state)``: whether a roll decides ``state``: its ``moves`` are then the
      outcomes, and ``play`` plays the one that came up (its ``keeps_turn`` says whether the
      player whose roll it is moves next);
    - ``probability(state, outcome)``: the outcome's probability, exactly: a
      :class:`fractions.Fraction` (``Fraction(1, 6)``), or ``(numerator, denominator)``; a float
      is refused. A chance state's probabilities sum to exactly 1.

    Such a game is solved by expectation: ``value`` is the expected points difference (in a
    win/lose game ``P(win) - P(loss)``, and ``win_chance`` the winning chance), a
    :class:`fractions.Fraction` where exact (every game whose play cannot cycle; a game that may
    cycle where it is small enough), else a float within ``error_bound`` of the true value
    (proved). A game whose play may cycle (Pig) sets ``may_cycle = True`` and declares bounds on
    its values (``outcome_game = True``, or ``value_range``).

    Impartial games (both players have the same moves; who cannot move loses): a game that says
    ``impartial = True`` (its ``payoff`` is -1, its moves gain nothing, its play ends) is solved
    for its *nimber* (``nimber`` in the result, 0 a loss for the player to move; with
    ``moves=True`` each move's ``nimber``, the one it leaves). It may also define

    - ``split(state)``: the independent parts of ``state`` (an iterable of states of the same
      game, each a game of its own): the nimber is the XOR of theirs, and each part's is found
      once, wherever it sits. Equal parts should be equal states (a canonical form).
    - ``known_nimber(part)``: a part's nimber where it is known without search, else None.
    """

    known_value = None
    value_range = None
    outcome_game = False
    may_cycle = False
    is_chance = None
    probability = None
    impartial = False
    split = None
    known_nimber = None

    def start(self) -> Hashable:
        raise NotImplementedError("a game defines start()")

    def moves(self, state: Any) -> Iterable[Hashable]:
        raise NotImplementedError("a game defines moves(state)")

    def play(self, state: Any, move: Any) -> Tuple[Hashable, int, bool]:
        raise NotImplementedError("a game defines play(state, move)")

    def payoff(self, state: Any) -> int:
        raise NotImplementedError("a game defines payoff(state)")


Values = Union[None, str, int, Sequence[Any], Mapping[str, Any]]


def _values(values: Values) -> List[str]:
    """A bundled game's values as command-line arguments."""
    if values is None:
        return []
    if isinstance(values, str):
        return [values]
    if isinstance(values, bool):
        raise InputError(f"values must be integers or a string, not {values!r}", "usage")
    if isinstance(values, int):
        return [str(values)]
    if isinstance(values, Mapping):
        return [json.dumps(values)]
    if isinstance(values, Sequence):
        if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            return [",".join(str(v) for v in values)] if values else []
        return [json.dumps(values)]
    raise InputError(
        f"values must be a list of integers, a string or a JSON-like value, not {values!r}",
        "usage",
    )


#: The bundled games' options besides solver, threads, memory_limit and time_limit, by
#: keyword, with the type each takes (``tests/test_bundled.py`` checks each reaches the command
#: line).
_OPTIONS: Dict[str, str] = {
    "width": "int",
    "height": "int",
    "columns_from_zero": "bool",
    "analyze": "bool",
    "save": "path",
    "resume": "bool",
    "load": "path",
    "input": "path",
    "workers": "int",
    "processes": "int",
    "process": "int",
    "hostfile": "path",
    "one_at_a_time": "bool",
}

_SOLVERS = ("auto", "fast", "engine", "parallel", "alphabeta", "tier", "proof", "distributed")
_ENGINES = ("auto", "exhaustive", "pruning", "retrograde", "proof")


def _unexpected(function: str, name: str, takes: Iterable[str]) -> TypeError:
    return TypeError(f"{function}() got an unexpected keyword argument {name!r}; it also takes " + ", ".join(takes))


def _game_name(game: str) -> str:
    if game not in GAMES:
        near = [name for name in GAMES if name.startswith(game.rsplit("-", 1)[0])]
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        raise InputError(
            f"no bundled game is named {game!r}{hint}: the bundled games are "
            + ", ".join(GAMES)
            + "; for a game of your own, pass a gamesolver.Game object",
            "unknown-game",
        )
    return game


def _count(value: Any, what: str, least: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise InputError(f"{what} must be an int of at least {least}, not {value!r}", "usage")
    return value


def _options(
    function: str,
    solver: Optional[str],
    threads: Optional[int],
    memory_limit: Union[None, int, str],
    time_limit: Union[None, int, float, str],
    options: Mapping[str, Any],
) -> List[str]:
    """A bundled game's options as command-line arguments, each checked here first, so that a
    mistake is told in Python's words."""
    arguments: List[str] = []
    if solver is not None:
        if solver not in _SOLVERS:
            raise InputError(f"solver must be one of {', '.join(map(repr, _SOLVERS))}, not {solver!r}", "usage")
        arguments += ["--solver", solver]
    if threads is not None:
        arguments += ["--threads", str(_count(threads, "threads"))]
    if memory_limit is not None:
        arguments += ["--memory-limit", str(_bytes(memory_limit))]
    if time_limit is not None:
        seconds = _float_seconds(time_limit)
        # Whole milliseconds, at least one: the command line's smallest limit.
        arguments += ["--time-limit", f"{max(1, int(round(seconds * 1000)))}ms"]
    for name, value in options.items():
        kind = _OPTIONS.get(name)
        if kind is None:
            raise _unexpected(function, name, ["solver", "threads", "memory_limit", "time_limit", *_OPTIONS])
        flag = "--" + name.replace("_", "-")
        if value is None or value is False:
            if kind != "bool" and value is False:
                raise InputError(f"{name} must be {'an int' if kind == 'int' else 'a path'}, not False", "usage")
            continue
        if kind == "bool":
            if value is not True:
                raise InputError(f"{name} must be True or False, not {value!r}", "usage")
            arguments.append(flag)
        elif kind == "int":
            arguments += [flag, str(_count(value, name, 0))]
        else:
            if not isinstance(value, (str, os.PathLike)):
                raise InputError(f"{name} must be a path (a str or os.PathLike), not {value!r}", "usage")
            arguments += [flag, os.fspath(value)]
    return arguments


def _pythonic(message: str) -> str:
    """A command-line message in Python's words: its flags as keywords (``--width`` as
    ``width=``), without the command line's usage and help hints."""
    kept = []
    for line in message.splitlines():
        stripped = line.strip()
        if stripped.startswith(("For more information", "Usage:", "tip:", "gamesolver <COMMAND>")):
            continue
        if stripped:
            kept.append(stripped)
    text = " ".join(kept)
    text = re.sub(r"'?--([a-z][a-z-]*)(?: <[A-Z_]+>)?'?", lambda m: m.group(1).replace("-", "_") + "=", text)
    return text


def _run(arguments: List[str]) -> Dict[str, Any]:
    ok, text, kind = _native.run_json(arguments)
    if not ok:
        raise _error(_pythonic(text), kind)
    return json.loads(text)


def _is_bundled(game: Any) -> bool:
    return isinstance(game, str)


def solve(
    game: Any,
    values: Values = None,
    *,
    solver: Optional[str] = None,
    threads: Optional[int] = None,
    memory_limit: Union[None, int, str] = None,
    time_limit: Union[None, int, float, str] = None,
    engine: Optional[str] = None,
    line: bool = False,
    moves: bool = False,
    remoteness: bool = False,
    **options: Any,
) -> Result:
    """Solves a game exactly.

    ``game`` is a bundled game's name (see :data:`GAMES`) with its ``values`` (a list of
    integers, a Connect Four position such as ``"4453"``, Cat and Mouse's JSON as a list or
    dict), or a game object (see :class:`Game`).

    For a bundled game, every option of the command line applies: ``solver`` ("auto",
    "fast", "engine", "parallel", "alphabeta", "tier", "proof"), ``threads``, ``memory_limit`` (bytes,
    or a size such as ``"2G"``), ``time_limit`` (seconds, or ``"500ms"``), and the others as
    keywords (``width=5, height=4`` for Connect Four's board; the list is in ``TypeError``'s
    message for a keyword it does not know). The result's fields are the command line's
    ``--json`` fields (``answer``, ``value``, ``line``, ``solver``, ``states``, …). The
    interpreter is released while it solves.

    For a game object: ``engine`` ("auto", "exhaustive", "pruning", "retrograde", "proof"),
    ``memory_limit`` and ``time_limit`` apply. The result has ``value`` (for the player to
    move at the start), ``best_move`` (the first move in the game's order that keeps it;
    ``None`` if the game is over), ``outcome`` for outcome games, ``nimber`` for an impartial
    game (else ``None``), ``engine``, ``start`` and ``stats``: what a memoized recursion of the
    same game costs. More on request:

    - ``moves=True``: ``moves`` (every first move's value) and ``best_moves``: each first
      move's value is a solve of its own, where the value needs only those the search tried;
    - ``line=True``: ``line``, an optimal line of play (the first best move at each state);
    - ``remoteness=True``: ``remoteness``, a won or lost outcome game's number of moves to the
      end, the winner hurrying and the loser stalling (``None`` for a draw or a game that is
      not an outcome game), with the line (if asked) that plays it out. It values every move of
      the states on the winner's fastest lines: far more than the solve in a game of many moves
      a state. The pruning engine does not measure it (``UnsupportedError`` when asked for by
      ``engine=``); without ``engine=`` the plan keeps the exhaustive engine for it.

    Fields not asked for are ``None``, whatever the engine.

    ``memory_limit`` caps the process's growth while a game object is solved (its states as
    Python objects included, where the system reports resident memory: Linux): past it, the
    solve stops with :class:`MemoryBudgetError`. Default: half the memory the process may have.
    """
    for name, flag in (("line", line), ("moves", moves), ("remoteness", remoteness)):
        if not isinstance(flag, bool):
            raise InputError(f"{name} must be True or False, not {flag!r}", "usage")
    if _is_bundled(game):
        if engine is not None:
            raise InputError("engine= is for games written in Python; a bundled game takes solver=", "usage")
        if line or moves or remoteness:
            raise InputError(
                "line=, moves= and remoteness= are for games written in Python: a bundled game's "
                "result has its line already, and gamesolver.analyze values every move",
                "usage",
            )
        arguments = [_game_name(game)] + _options("solve", solver, threads, memory_limit, time_limit, options)
        return Result(_run(arguments + ["--"] + _values(values)))
    if options:
        raise _unexpected("solve", next(iter(options)), ["engine", "memory_limit", "time_limit", "line", "moves", "remoteness"])
    if values is not None or solver is not None or threads not in (None, 1):
        raise InputError(
            "a game written in Python takes engine=, memory_limit=, time_limit=, line=, moves= "
            "and remoteness= "
            "(its values live in the object; it is solved on the calling thread)",
            "usage",
        )
    _engine(engine)
    return Result(_user(lambda: _native.solve_game(
        game, None, engine, _bytes(memory_limit), _float_seconds(time_limit),
        line=line, moves=moves, remoteness=remoteness)))


def analyze(
    game: Any,
    values: Values = None,
    *,
    at: Any = None,
    after: Union[None, str, Sequence[str]] = None,
    solver: Optional[str] = None,
    threads: Optional[int] = None,
    memory_limit: Union[None, int, str] = None,
    time_limit: Union[None, int, float, str] = None,
    engine: Optional[str] = None,
    **options: Any,
) -> Result:
    """Every legal move's value at a position, for the side to move there.

    For a bundled game, ``at`` is a position as ``gamesolver analyze --at`` takes it (in the
    game's own notation), ``after`` plays moves by their names first (a list of names, or
    ``"M1;M2"``; each move's ``name`` in the result), and the fields are those of ``gamesolver
    analyze --json``: each move's ``name``, ``words``, ``gain``, ``keeps_turn`` and
    ``final_margin``, ``remoteness`` in games won or lost; the position's ``view``, ``players``,
    ``to_move``, ``points`` (over the moves of ``after``) and ``result``. For a game object,
    ``at`` is a state (default: the start); the result has ``value``, ``best_move`` and
    ``moves`` (each ``{"move", "value", "best"}``).
    """
    if _is_bundled(game):
        arguments = ["analyze", _game_name(game)] + _options("analyze", solver, threads, memory_limit, time_limit, options)
        if at is not None:
            arguments += ["--at", str(at)]
        if after is not None:
            if isinstance(after, str):
                names = after
            elif isinstance(after, Sequence) and all(isinstance(name, str) for name in after):
                names = ";".join(after)
            else:
                raise InputError(f"after must be move names (a list of str, or 'M1;M2'), not {after!r}", "usage")
            if names:
                arguments += ["--after", names]
        return Result(_run(arguments + ["--"] + _values(values)))
    if options:
        raise _unexpected("analyze", next(iter(options)), ["at", "engine", "memory_limit", "time_limit"])
    if values is not None or solver is not None or threads not in (None, 1) or after is not None:
        raise InputError("a game written in Python takes at=, engine=, memory_limit= and time_limit=", "usage")
    _engine(engine)
    return Result(_user(lambda: _native.solve_game(
        game, at, engine, _bytes(memory_limit), _float_seconds(time_limit), line=False, moves=True)))


def check(
    game: Any,
    values: Values = None,
    *,
    seed: int = 1,
    max_states: int = 20_000,
    playouts: int = 200,
    memory_limit: Union[None, int, str] = None,
    time_limit: Union[None, int, float, str] = None,
) -> Result:
    """Runs the conformance checker: moves, steps, payoffs and every declaration on the states
    it reaches and on random playouts, against a reference search. The result has ``ok``,
    ``states``, ``playouts``, ``values_compared`` and ``violations`` (each a sentence; for a
    game object, states and moves are shown by their ``repr``).
    """
    if _is_bundled(game):
        arguments = ["check", _game_name(game)] + _options("check", None, None, memory_limit, time_limit, {}) + ["--"] + _values(values)
        return Result(_run(arguments))
    if values is not None:
        raise InputError("a game written in Python has its values in the object", "usage")
    for name, count in (("seed", seed), ("max_states", max_states), ("playouts", playouts)):
        _count(count, name, 0)
    return Result(
        _user(lambda: _native.check_game(game, seed, max_states, playouts, _bytes(memory_limit), _float_seconds(time_limit)))
    )


def _engine(engine: Optional[str]) -> None:
    if engine is not None and engine not in _ENGINES:
        raise InputError(f"engine must be one of {', '.join(map(repr, _ENGINES))}, not {engine!r}", "usage")


_UNITS = {"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "KIB": 1 << 10, "M": 1 << 20, "MB": 1 << 20,
          "MIB": 1 << 20, "G": 1 << 30, "GB": 1 << 30, "GIB": 1 << 30, "T": 1 << 40, "TB": 1 << 40, "TIB": 1 << 40}


def _bytes(limit: Union[None, int, float, str]) -> Optional[int]:
    """A memory limit in bytes: a number of bytes (``2_000_000_000``, ``2e9``) or a size such
    as ``"2G"``, ``"512MiB"``."""
    if limit is None:
        return None
    amount = -1.0
    if isinstance(limit, (int, float)) and not isinstance(limit, bool):
        amount = limit
    elif isinstance(limit, str):
        text = limit.strip().upper()
        number = text.rstrip("KMGTIB")
        unit = text[len(number):]
        try:
            amount = float(number) * _UNITS[unit]
        except (ValueError, KeyError):
            pass
    if isinstance(amount, float) and not math.isfinite(amount):
        amount = -1.0
    if not 0 <= amount < 2**64:
        raise InputError(f"memory_limit must be a number of bytes (at least 0) or a size like '2G', not {limit!r}", "usage")
    return int(amount)


def _float_seconds(limit: Union[None, int, float, str]) -> Optional[float]:
    """A time limit in seconds: a number above 0, or a duration such as ``"500ms"``, ``"90s"``,
    ``"10m"``, ``"2h"``."""
    if limit is None:
        return None
    seconds = -1.0
    if isinstance(limit, str):
        text = limit.strip()
        scale = 1.0
        for suffix, factor in (("ms", 0.001), ("s", 1.0), ("m", 60.0), ("h", 3600.0)):
            if text.endswith(suffix):
                text, scale = text[: -len(suffix)], factor
                break
        try:
            seconds = float(text) * scale
        except ValueError:
            pass
    elif isinstance(limit, (int, float)) and not isinstance(limit, bool):
        seconds = float(limit)
    if not (seconds > 0 and math.isfinite(seconds)):
        raise InputError(
            f"time_limit must be a number of seconds above 0, or a duration like '500ms', not {limit!r}", "usage"
        )
    return seconds


#: The engine's names for a game's declarations, and a Python game's.
_DECLARATIONS = (
    ("Capabilities::outcome_game().may_cycle()", "outcome_game = True and may_cycle = True"),
    ("Capabilities::outcome_game", "outcome_game = True"),
)


def _python_words(message: str, kind: str) -> str:
    """An engine's message about a game object, in Python's words."""
    if kind == "cycle":
        found = message.split("; the exhaustive and pruning engines")[0]
        return (
            f"{found}; the exhaustive and pruning engines need a game whose play never returns to "
            "a state: a game whose play may cycle declares outcome_game = True and may_cycle = True "
            "(its payoffs +1, 0 or -1, its moves gaining nothing) and is solved by retrograde "
            "analysis, with draws; if two different positions were given equal states, make the "
            "states tell them apart"
        )
    for engine_words, python_words in _DECLARATIONS:
        message = message.replace(engine_words, python_words)
    return message


def _user(call: Any) -> Dict[str, Any]:
    try:
        return call()
    except _native.Refusal as refusal:
        message, kind = refusal.args
        raise _error(_python_words(message, kind), kind) from None
