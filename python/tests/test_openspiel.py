"""The OpenSpiel adapter equals OpenSpiel's own minimax."""

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import minimax  # noqa: E402

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
    solved = openspiel.solve(state)
    if state.is_terminal():
        assert solved.value == state.returns()[0]
        return
    value, values = reference(state)
    assert solved.player == state.current_player()
    assert solved.value == value
    assert solved.values == values
    assert set(solved.best_actions) == {a for a, v in values.items() if v == value}


@pytest.mark.parametrize("seed", range(15))
def test_tic_tac_toe_from_random_positions(seed):
    rng = random.Random(seed)
    game = pyspiel.load_game("tic_tac_toe")
    same_as_reference(random_state(game, rng.randint(0, 6), rng))


def test_tic_tac_toe_from_the_start_is_a_draw():
    solved = openspiel.solve(pyspiel.load_game("tic_tac_toe"))
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
        ("kuhn_poker", "no chance"),
        ("matrix_rps", "sequential moves"),
        ("tiny_hanabi", "perfect information"),
    ],
)
def test_other_games_are_refused_with_what_they_lack(name, missing):
    with pytest.raises(ValueError, match=missing):
        openspiel.solve(pyspiel.load_game(name))


def test_a_line_is_legal_play_to_the_end():
    state = pyspiel.load_game("tic_tac_toe").new_initial_state()
    for action in openspiel.solve(state).line:
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
