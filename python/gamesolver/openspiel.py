"""Exact solutions of OpenSpiel's games (``pip install open-spiel``).

:func:`solve` solves any perfect-information, two-player, zero-sum, sequential OpenSpiel game,
deterministic or with explicit chance nodes, exactly from a state, with every legal action's
value::

    >>> import pyspiel
    >>> from gamesolver import openspiel
    >>> solved = openspiel.solve(pyspiel.load_game("tic_tac_toe"))
    >>> solved.value, solved.player
    (0, 0)

It runs gamesolver's engines on the game through an adapter: OpenSpiel's states are played
with ``child``, and states that two orders of moves reach alike (transpositions) are one
state, keyed by the game's observation string and the player to move (for a perfect-information
game the observation is the whole state), so each is solved once. A move that ends the game
gains the mover its return (in a game won, lost or drawn, returns -1, 0, +1, the final state's
payoff instead: an outcome game, whose search stops at a winning move and whose remoteness is
measured); a move after which the same player moves again (Dots and Boxes' extra turns) keeps
the turn.

A chance node is a chance state whose outcomes are its ``chance_outcomes()``. OpenSpiel gives
their probabilities as floats: each is read as the nearest fraction with a denominator up to a
million (``0.16666666666666666`` is 1/6), and the last as 1 less the others, so that they sum to
exactly 1 (a probability that no such fraction matches within 1e-9 is refused). A chance node is
valued for the player who moved into it (player 0 at the start). A game with chance is solved by
value iteration over every state reachable from the start (its play may cycle, as Pig's does),
with proved bounds, exact where it is small enough::

    >>> solved = openspiel.solve(pyspiel.load_game("pig", {"winscore": 6}))
    >>> round((1 + solved.value) / 2, 6), solved.error_bound < 1e-9   # the first player's chance
    (0.774194, True)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Dict, Hashable, List, Optional, Tuple, Union

from . import InputError, Result, UnsupportedError, _native, _user

__all__ = ["solve", "adapt", "OpenSpielGame"]


def _refuse_unless_solvable(game: Any) -> None:
    import pyspiel

    kind = game.get_type()
    name = kind.short_name
    missing = []
    if kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        missing.append(f"sequential moves (it has {kind.dynamics})")
    if kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        missing.append(f"explicit chance outcomes (it has {kind.chance_mode})")
    if kind.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
        missing.append(f"perfect information (it has {kind.information})")
    if game.num_players() != 2:
        missing.append(f"two players (it has {game.num_players()})")
    if kind.utility != pyspiel.GameType.Utility.ZERO_SUM:
        missing.append(f"zero-sum returns (it has {kind.utility})")
    if missing:
        raise UnsupportedError(
            f"{name} cannot be solved exactly here: it needs " + ", ".join(missing), "unsupported"
        )


def pyspiel_deterministic() -> Any:
    """OpenSpiel's chance mode of a game without chance."""
    import pyspiel

    return pyspiel.GameType.ChanceMode.DETERMINISTIC


def _whole(value: float, what: str) -> int:
    if value != int(value):
        raise UnsupportedError(f"{what} is {value}: gamesolver's values are whole numbers", "unsupported")
    return int(value)


class OpenSpielGame:
    """An OpenSpiel game from a state, in gamesolver's game protocol (:class:`gamesolver.Game`).

    States are keys (``key(state)``: by default the player to move and the observation
    string); the OpenSpiel state of each key is kept to play from. Values are from the side
    to move, in the units of the game's returns.
    """

    def __init__(self, state: Any, key: Optional[Callable[[Any], Hashable]] = None) -> None:
        game = state.get_game()
        _refuse_unless_solvable(game)
        self._root = state.clone()
        self._observed = game.get_type().provides_observation_string
        self._key = key or self._default_key
        self._states: Dict[Hashable, Any] = {}
        #: Every value lies within the game's returns: a cut-off at the best one.
        self.value_range = (
            _whole(game.min_utility(), "the least return"),
            _whole(game.max_utility(), "the greatest return"),
        )
        #: A game won, lost or drawn (returns -1, 0, +1) is an outcome game: a final state's
        #: return is its payoff for the side that would move, and moves gain nothing, so the
        #: search stops at a winning move and remoteness is measured.
        self.outcome_game = self.value_range == (-1, 1)
        self._payoffs: Dict[Hashable, int] = {}
        #: Explicit chance nodes make a game with chance: its play may cycle (Pig's does), so
        #: it is solved by value iteration over every reachable state.
        self._chance = game.get_type().chance_mode != pyspiel_deterministic()
        self.may_cycle = self._chance
        # The player each chance node is valued for (who moved into it), and its outcomes'
        # probabilities as fractions.
        self._perspective: Dict[Hashable, int] = {}
        self._probabilities: Dict[Hashable, Dict[int, Fraction]] = {}
        if not self._chance:
            self.is_chance = None
            self.probability = None

    def _default_key(self, state: Any) -> Hashable:
        if self._observed and not state.is_chance_node():
            return (state.current_player(), state.observation_string(0))
        return (state.current_player(), str(state))

    def _known(self, state: Any, perspective: int = 0) -> Hashable:
        key = self._key(state)
        if state.is_chance_node():
            # A chance node is valued for the player who moved into it: part of its key.
            key = ("chance", perspective, key)
            self._perspective[key] = perspective
        self._states.setdefault(key, state)
        return key

    def _mover(self, key: Hashable) -> int:
        """The player a state is valued for: who moves, or at a chance node who moved into it."""
        state = self._states[key]
        if state.is_chance_node():
            return self._perspective[key]
        return state.current_player()

    def is_chance(self, key: Hashable) -> bool:
        """Whether the state is a chance node."""
        return self._states[key].is_chance_node()

    def probability(self, key: Hashable, action: int) -> Fraction:
        """The probability of a chance node's outcome, as a fraction (see the module's docs)."""
        known = self._probabilities.get(key)
        if known is None:
            outcomes = self._states[key].chance_outcomes()
            known = {}
            for at, (outcome, probability) in enumerate(outcomes):
                if at == len(outcomes) - 1:
                    exact = 1 - sum(known.values())
                else:
                    exact = Fraction(probability).limit_denominator(1_000_000)
                if exact <= 0 or abs(float(exact) - probability) > 1e-9:
                    raise UnsupportedError(
                        f"the chance outcome {outcome} has probability {probability}, which no "
                        "fraction with a denominator up to a million matches within 1e-9 (or "
                        "the outcomes' probabilities do not sum to 1)",
                        "unsupported",
                    )
                known[outcome] = exact
            self._probabilities[key] = known
        return known[action]

    def state_of(self, key: Hashable) -> Any:
        """The OpenSpiel state of a key that the solve met."""
        return self._states[key]

    def start(self) -> Hashable:
        return self._known(self._root)

    def moves(self, key: Hashable) -> List[int]:
        state = self._states[key]
        if state.is_terminal():
            return []
        if state.is_chance_node():
            return [outcome for outcome, _ in state.chance_outcomes()]
        return state.legal_actions()

    def play(self, key: Hashable, action: int) -> Tuple[Hashable, int, bool]:
        state = self._states[key]
        mover = self._mover(key)
        rolled = state.is_chance_node()
        child = state.child(action)
        if child.is_terminal():
            gain = _whole(child.returns()[mover], "a return")
            if rolled:
                # The roll ends the game: the terminal state is the same player's to value.
                key = self._known(child)
                if not self.outcome_game:
                    return key, gain, True
                self._payoffs[key] = gain
                return key, 0, True
            if not self.outcome_game:
                return self._known(child), gain, False
            # The side that would move next loses what the mover won.
            key = self._known(child)
            self._payoffs[key] = -gain
            return key, 0, False
        if child.is_chance_node():
            # A roll after a move: valued for the mover, whose turn it is.
            return self._known(child, mover), 0, True
        return self._known(child), 0, child.current_player() == mover

    def payoff(self, key: Hashable) -> int:
        return self._payoffs.get(key, 0)


def adapt(game_or_state: Any, key: Optional[Callable[[Any], Hashable]] = None) -> OpenSpielGame:
    """The adapter :func:`solve` runs: a game object for :func:`gamesolver.solve`,
    :func:`gamesolver.analyze` and :func:`gamesolver.check`."""
    state = game_or_state
    if hasattr(game_or_state, "new_initial_state"):
        state = game_or_state.new_initial_state()
    return OpenSpielGame(state, key)


def solve(
    game_or_state: Any,
    *,
    key: Optional[Callable[[Any], Hashable]] = None,
    engine: Optional[str] = None,
    memory_limit: Union[None, int, float, str] = None,
    time_limit: Union[None, int, float, str] = None,
    line: bool = False,
    moves: bool = False,
    remoteness: bool = False,
) -> Result:
    """Solves an OpenSpiel game (from its initial state) or state exactly.

    The result has ``player`` (who moves at that state), ``value`` (the return that player
    secures with perfect play by both), ``best_action`` (the first legal action that secures
    it), ``engine`` and ``stats``; as :func:`gamesolver.solve` does, more on request:
    ``moves=True`` gives ``values`` (every legal action's value for that player, by action)
    and ``best_actions``; ``line=True`` gives ``line`` (an optimal line of play, as actions);
    ``remoteness=True`` gives ``remoteness``, for a game whose returns are +1, 0, -1 (the moves
    to the end, the winner hurrying and the loser stalling). Fields not asked for are ``None``.
    A terminal state has value ``returns()[0]`` for player 0 and no actions.

    A game with chance's ``value`` is the return that player expects: a
    :class:`fractions.Fraction` where it is exact, else a float within ``error_bound`` (proved)
    of it; ``error_bound`` is 0 where the value is exact (``None`` for a game without chance).

    ``key`` maps a state to a hashable key that equal positions share (the default: the player
    to move and the observation string). ``memory_limit`` caps the process's growth while it
    solves, OpenSpiel's states included (:class:`gamesolver.MemoryBudgetError` past it).
    Other games are refused with :class:`gamesolver.UnsupportedError`, which says which
    property is missing.
    """
    from . import _bytes, _engine, _float_seconds

    for name, flag in (("line", line), ("moves", moves), ("remoteness", remoteness)):
        if not isinstance(flag, bool):
            raise InputError(f"{name} must be True or False, not {flag!r}", "usage")
    if key is not None and not callable(key):
        raise InputError(f"key must be a function of a state, not {key!r}", "usage")
    _engine(engine)
    budget, seconds = _bytes(memory_limit), _float_seconds(time_limit)
    adapter = adapt(game_or_state, key)
    root = adapter._root
    if root.is_terminal():
        return Result(
            {
                "player": 0,
                "value": _whole(root.returns()[0], "a return"),
                "error_bound": None,
                "best_action": None,
                "values": {} if moves else None,
                "best_actions": [] if moves else None,
                "line": [] if line else None,
                "remoteness": 0 if remoteness else None,
                "engine": None,
                "stats": {},
            }
        )
    try:
        solved = _user(
            lambda: _native.solve_game(
                adapter, None, engine, budget, seconds, line=line, moves=moves, remoteness=remoteness
            )
        )
    except UnsupportedError as refused:
        if refused.kind != "cycle":
            raise
        raise UnsupportedError(
            f"{refused}. An OpenSpiel state is known by its key: by default the player to move and "
            "the observation string, which two different positions can share; give key= a "
            "function that tells them apart (one that includes state.history(), for instance)",
            "cycle",
        ) from None
    values = None
    if moves:
        values = {entry["move"]: entry["value"] for entry in solved["moves"]}
    return Result(
        {
            "player": max(0, root.current_player()),
            "value": solved["value"],
            "error_bound": solved.get("error_bound"),
            "best_action": solved["best_move"],
            "values": values,
            "best_actions": solved["best_moves"],
            "line": None if solved["line"] is None else [ply["move"] for ply in solved["line"]],
            "remoteness": solved["remoteness"],
            "engine": solved["engine"],
            "stats": solved["stats"],
        }
    )
