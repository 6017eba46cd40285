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
_TIME_KINDS = {"time-limit", "too-slow"}
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
    """

    known_value = None
    value_range = None
    outcome_game = False
    may_cycle = False

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


def _size(limit: Union[int, str]) -> str:
    if isinstance(limit, bool) or not isinstance(limit, (int, str)):
        raise InputError(f"memory_limit must be bytes (an int) or a size like '2G', not {limit!r}", "usage")
    return str(limit)


def _seconds(limit: Union[int, float, str]) -> str:
    if isinstance(limit, str):
        return limit  # the command line reads it, and words its own error
    return f"{int(round(_float_seconds(limit) * 1000))}ms"


def _options(
    solver: Optional[str],
    threads: Optional[int],
    memory_limit: Union[None, int, str],
    time_limit: Union[None, int, float, str],
    options: Mapping[str, Any],
) -> List[str]:
    arguments: List[str] = []
    if solver is not None:
        arguments += ["--solver", str(solver)]
    if threads is not None:
        arguments += ["--threads", str(threads)]
    if memory_limit is not None:
        arguments += ["--memory-limit", _size(memory_limit)]
    if time_limit is not None:
        arguments += ["--time-limit", _seconds(time_limit)]
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if value is True:
            arguments.append(flag)
        elif value is False or value is None:
            continue
        else:
            arguments += [flag, str(value)]
    return arguments


def _run(arguments: List[str]) -> Dict[str, Any]:
    ok, text, kind = _native.run_json(arguments)
    if not ok:
        raise _error(text, kind)
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
    line: bool = True,
    moves: bool = True,
    remoteness: bool = False,
    **options: Any,
) -> Result:
    """Solves a game exactly.

    ``game`` is a bundled game's name (see :data:`GAMES`) with its ``values`` (a list of
    integers, a Connect Four position such as ``"4453"``, Cat and Mouse's JSON as a list or
    dict), or a game object (see :class:`Game`).

    For a bundled game, every option of the command line applies: ``solver`` ("auto",
    "fast", "engine", "parallel", "alphabeta", "tier"), ``threads``, ``memory_limit`` (bytes,
    or a size such as ``"2G"``), ``time_limit`` (seconds, or ``"500ms"``), and any other as a
    keyword (``width=5, height=4`` for Connect Four's board). The result's fields are the
    command line's ``--json`` fields (``answer``, ``value``, ``line``, ``solver``,
    ``states``, …). The interpreter is released while it solves.

    For a game object: ``engine`` ("auto", "exhaustive", "pruning", "retrograde"),
    ``memory_limit`` (bytes) and ``time_limit`` (seconds) apply; the result has ``value``
    (for the first player to move), ``moves`` (every first move's value), ``best_moves``,
    ``line`` (the optimal line of play), ``outcome`` for outcome games, ``remoteness``,
    ``engine``, and ``stats``. What is not needed can be left out: ``line=False`` and
    ``moves=False`` (``moves`` and ``best_moves`` are then ``None``) leave the value alone,
    which costs what a memoized recursion of the same game costs, where the first move's
    values cost the solve of every first move. ``remoteness`` (a won or lost outcome game's
    number of moves to the end, the winner hurrying and the loser stalling) comes with the
    line where the line measured it (its length), else ``None`` unless ``remoteness=True``,
    which measures it whatever it costs (every move of the states on the winner's fastest
    lines is valued: far more than the solve, in a game of many moves a state).
    """
    if _is_bundled(game):
        if engine is not None:
            raise InputError("engine= is for games written in Python; a bundled game takes solver=", "usage")
        if not line or not moves or remoteness:
            raise InputError("line=, moves= and remoteness= are for games written in Python", "usage")
        arguments = [game] + _options(solver, threads, memory_limit, time_limit, options) + ["--"] + _values(values)
        return Result(_run(arguments))
    if values is not None or solver is not None or threads not in (None, 1) or options:
        raise InputError(
            "a game written in Python takes engine=, memory_limit=, time_limit=, line=, moves= "
            "and remoteness= "
            "(its values live in the object; it is solved on the calling thread)",
            "usage",
        )
    return Result(_user(lambda: _native.solve_game(
        game, None, engine, _bytes(memory_limit), _float_seconds(time_limit), line, moves, remoteness)))


def analyze(
    game: Any,
    values: Values = None,
    *,
    at: Any = None,
    solver: Optional[str] = None,
    threads: Optional[int] = None,
    memory_limit: Union[None, int, str] = None,
    time_limit: Union[None, int, float, str] = None,
    engine: Optional[str] = None,
    **options: Any,
) -> Result:
    """Every legal move's value at a position, for the side to move there.

    For a bundled game, ``at`` is a position as ``gamesolver analyze --at`` takes it (in the
    game's own notation), ``after="M1;M2"`` plays moves by their names first (each move's
    ``name`` in the result), and the fields are those of ``gamesolver analyze --json``
    (with each move's ``name`` and ``keeps_turn``, and the position's ``view``). For a game object, ``at`` is a state (default: the start);
    the result has ``value`` and ``moves`` (each ``{"move", "value", "best"}``).
    """
    if _is_bundled(game):
        arguments = ["analyze", game] + _options(solver, threads, memory_limit, time_limit, options)
        if at is not None:
            arguments += ["--at", str(at)]
        return Result(_run(arguments + ["--"] + _values(values)))
    if values is not None or solver is not None or threads not in (None, 1) or options:
        raise InputError("a game written in Python takes at=, engine=, memory_limit= and time_limit=", "usage")
    return Result(_user(lambda: _native.solve_game(game, at, engine, _bytes(memory_limit), _float_seconds(time_limit), False)))


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
        arguments = ["check", game] + _options(None, None, memory_limit, time_limit, {}) + ["--"] + _values(values)
        return Result(_run(arguments))
    if values is not None:
        raise InputError("a game written in Python has its values in the object", "usage")
    return Result(
        _user(lambda: _native.check_game(game, seed, max_states, playouts, _bytes(memory_limit), _float_seconds(time_limit)))
    )


_UNITS = {"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "KIB": 1 << 10, "M": 1 << 20, "MB": 1 << 20,
          "MIB": 1 << 20, "G": 1 << 30, "GB": 1 << 30, "GIB": 1 << 30, "T": 1 << 40, "TB": 1 << 40, "TIB": 1 << 40}


def _bytes(limit: Union[None, int, str]) -> Optional[int]:
    if limit is None:
        return None
    if isinstance(limit, int) and not isinstance(limit, bool):
        if limit < 0:
            raise InputError(f"memory_limit must be at least 0 bytes, not {limit}", "usage")
        return limit
    if isinstance(limit, str):
        text = limit.strip().upper()
        number = text.rstrip("KMGTIB")
        unit = text[len(number):]
        try:
            amount = float(number)
        except ValueError:
            amount = -1.0
        if unit in _UNITS and amount >= 0:
            return int(amount * _UNITS[unit])
    raise InputError(f"memory_limit must be bytes or a size like '2G', not {limit!r}", "usage")


def _float_seconds(limit: Union[None, int, float, str]) -> Optional[float]:
    if limit is None:
        return None
    if isinstance(limit, str):
        text = limit.strip()
        for suffix, scale in (("ms", 0.001), ("s", 1.0), ("m", 60.0), ("h", 3600.0)):
            if text.endswith(suffix):
                try:
                    return float(text[: -len(suffix)]) * scale
                except ValueError:
                    break
        try:
            return float(text)
        except ValueError:
            raise InputError(f"time_limit must be seconds or a duration like '500ms', not {limit!r}", "usage") from None
    if isinstance(limit, bool) or not isinstance(limit, (int, float)) or not limit >= 0:
        raise InputError(f"time_limit must be seconds (at least 0), not {limit!r}", "usage")
    return float(limit)


def _user(call: Any) -> Dict[str, Any]:
    try:
        return call()
    except _native.Refusal as refusal:
        message, kind = refusal.args
        raise _error(message, kind) from None
