"""The OpenSpiel adapter equals OpenSpiel's own minimax."""

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import minimax  # noqa: E402

import gamesolver  # noqa: E402
from gamesolver import openspiel  # noqa: E402


def reference(state):
    """Every action's value for the player to move, by OpenSpiel's alpha-beta."""
    mover = state.current_player()
    values = {}
    for action in state.legal_actions():
        child = state.child(action)
        if child.is_terminal():
            values[action] = child.returns()[mover]
        else:
            values[action] = minimax.alpha_beta_search(
                state.get_game(), state=child, maximizing_player_id=mover, maximum_depth=1000
            )[0]
    return max(values.values()), values


def random_state(game, moves, rng):
    state = game.new_initial_state()
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def same_as_reference(state):
    solved = openspiel.solve(state, moves=True)
    if state.is_terminal():
        assert solved.value == state.returns()[0]
        return
    value, values = reference(state)
    assert solved.player == state.current_player()
    assert solved.value == value
    assert solved.values == values
    assert set(solved.best_actions) == {a for a, v in values.items() if v == value}
    # By default: the value and the first best action, nothing more.
    plain = openspiel.solve(state)
    assert plain.value == value and values[plain.best_action] == value
    assert plain.best_action == next(a for a in state.legal_actions() if values[a] == value)
    assert (plain.values, plain.best_actions, plain.line, plain.remoteness) == (None, None, None, None)


@pytest.mark.parametrize("seed", range(15))
def test_tic_tac_toe_from_random_positions(seed):
    rng = random.Random(seed)
    game = pyspiel.load_game("tic_tac_toe")
    same_as_reference(random_state(game, rng.randint(0, 6), rng))


def test_tic_tac_toe_from_the_start_is_a_draw():
    solved = openspiel.solve(pyspiel.load_game("tic_tac_toe"), moves=True)
    assert (solved.value, solved.player) == (0, 0)
    assert set(solved.values.values()) == {0}  # every first move draws


@pytest.mark.parametrize("piles", ["1;2;3", "3;4;5", "1;3;5", "2;2", "1;4"])
def test_nim(piles):
    same_as_reference(pyspiel.load_game(f"nim(pile_sizes={piles})").new_initial_state())


@pytest.mark.parametrize("seed", range(8))
def test_dots_and_boxes_2x2(seed):
    rng = random.Random(seed)
    game = pyspiel.load_game("dots_and_boxes(num_rows=2,num_cols=2)")
    same_as_reference(random_state(game, rng.randint(4, 9), rng))


def test_dots_and_boxes_2x2_from_the_start():
    # The first player wins (boxes 3 to 1 with perfect play by gamesolver's own solver too).
    solved = openspiel.solve(pyspiel.load_game("dots_and_boxes(num_rows=2,num_cols=2)"))
    assert solved.value == 1


@pytest.mark.parametrize("seed", range(8))
def test_connect_four_with_30_stones_or_more(seed):
    rng = random.Random(seed)
    game = pyspiel.load_game("connect_four")
    while True:
        state = random_state(game, rng.randint(30, 34), rng)
        if not state.is_terminal() and len(state.history()) >= 30:
            break
    same_as_reference(state)


@pytest.mark.parametrize(
    "name, missing",
    [
        ("kuhn_poker", "perfect information"),
        ("matrix_rps", "sequential moves"),
        ("tiny_hanabi", "perfect information"),
    ],
)
def test_other_games_are_refused_with_what_they_lack(name, missing):
    with pytest.raises(gamesolver.UnsupportedError, match=missing) as refused:
        openspiel.solve(pyspiel.load_game(name))
    assert refused.value.kind == "unsupported"


def test_a_line_is_legal_play_to_the_end():
    state = pyspiel.load_game("tic_tac_toe").new_initial_state()
    for action in openspiel.solve(state, line=True).line:
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


def tic_tac_toe_remoteness(state):
    """Moves to the end by the literal rules: the winner hurries, the loser stalls; None for a draw."""
    if state.is_terminal():
        return 0
    mover = state.current_player()
    value, values = reference(state)
    if value == 0:
        return None
    lasts = []
    for action, worth in values.items():
        if worth == value:
            child = state.child(action)
            lasts.append(1 + (tic_tac_toe_remoteness(child) or 0))
    return min(lasts) if value > 0 else max(lasts)


@pytest.mark.parametrize("seed", range(6))
def test_remoteness_and_its_line_from_random_positions(seed):
    rng = random.Random(50 + seed)
    state = random_state(pyspiel.load_game("tic_tac_toe"), rng.randint(3, 6), rng)
    if state.is_terminal():
        return
    solved = openspiel.solve(state, line=True, remoteness=True)
    expected = tic_tac_toe_remoteness(state)
    assert solved.remoteness == expected
    if expected is not None:
        assert len(solved.line) == expected


def test_the_switches_cost_what_they_give():
    """m,n,k 3,4,3's value alone is a fraction of every first move's value with the line."""
    import time

    game = pyspiel.load_game("mnk(m=3,n=4,k=3)")
    started = time.perf_counter()
    plain = openspiel.solve(game)
    plain_seconds = time.perf_counter() - started
    full = openspiel.solve(game, line=True, moves=True)
    assert plain.value == full.value and full.values[plain.best_action] == plain.value
    assert plain.stats["stored"] < full.stats["stored"], (plain.stats, full.stats, plain_seconds)


def test_memory_limit_holds_for_openspiels_states():
    """lines_of_action after 60 random plies grows by hundreds of MB a second through the
    adapter's OpenSpiel states; under memory_limit the solve stops with MemoryError, its peak
    within the limit and the interpreter's own memory. In a process of its own, so that the
    peak is its own. Its states are keyed by their history: by the default key (the
    observation) its play cycles, which the plan's race on the whole game finds first."""
    import subprocess
    import sys

    script = """
import random, resource, sys, pyspiel, gamesolver
from gamesolver import openspiel
state = pyspiel.load_game("lines_of_action").new_initial_state()
rng = random.Random(0)
for _ in range(60):
    state.apply_action(rng.choice(state.legal_actions()))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
try:
    openspiel.solve(state, memory_limit="300M", key=lambda s: tuple(s.history()))
    print("solved")
except MemoryError as error:
    assert isinstance(error, gamesolver.MemoryBudgetError) and "memory_limit" in str(error), error
    print("MemoryError", before, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    kind, before, peak = done.stdout.split()
    assert kind == "MemoryError"
    assert int(peak) < int(before) + 1.15 * (300 << 20), (before, peak)


def test_pig_agrees_with_openspiels_own_value_iteration():
    """OpenSpiel's pig has chance nodes and cycles: solved by value iteration with proved
    bounds, it agrees with OpenSpiel's value_iteration (to its threshold, 1e-6) and with the
    bundled Pig, exactly."""
    from open_spiel.python.algorithms import value_iteration

    game = pyspiel.load_game("pig", {"winscore": 10})
    solved = openspiel.solve(game, moves=True)
    theirs = value_iteration.value_iteration(game, -1, 1e-6, cyclic_game=True)
    start = game.new_initial_state()
    assert abs(solved.value - theirs[str(start)]) < 1e-6
    assert solved.error_bound < 1e-9
    assert abs((1 + solved.value) / 2 - 0.709424) < 1e-6
    bundled = gamesolver.solve("pig", [10, 6])
    assert abs((1 + solved.value) / 2 - bundled.value) <= solved.error_bound + 1e-15
    # Rolling is the first best action (0: roll, 1: stop).
    assert solved.best_action == 0 and set(solved.values) == {0, 1}


def test_a_small_game_with_chance_is_exact():
    solved = openspiel.solve(pyspiel.load_game("pig", {"winscore": 2}))
    # Small enough for exact policy iteration: a fraction, with no error.
    assert solved.error_bound == 0
    assert solved.value == int(solved.value) or hasattr(solved.value, "denominator")
