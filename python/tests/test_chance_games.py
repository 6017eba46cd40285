"""Games with chance written in Python: exact fractions against a plain recursion in
fractions; Piglet against Neller and Presser's values; the guide's Hog against its rules;
what is refused, and how."""

import functools
import itertools
import pathlib
import random
import re
from fractions import Fraction

import pytest

import gamesolver


class DiceRace(gamesolver.Game):
    """Each player in turn rolls a die of `faces` faces and moves that many steps, or stands
    still (a choice made after the roll); passing `goal` first wins, and each step scores a
    point for the mover on the way. A score game with chance that cannot cycle (every turn at
    least one roll, and a standing player's turn passes: but the rolls are finite by `turns`)."""

    def __init__(self, goal, faces, turns):
        self.goal, self.faces, self.turns = goal, faces, turns

    def start(self):
        return (0, 0, self.turns, None)

    def moves(self, state):
        mine, theirs, turns, rolled = state
        if mine >= self.goal or theirs >= self.goal or turns == 0:
            return []
        if rolled is None:
            return range(1, self.faces + 1)
        return ["move", "stand"]

    def is_chance(self, state):
        return state[3] is None

    def probability(self, state, face):
        return Fraction(1, self.faces)

    def play(self, state, move):
        mine, theirs, turns, rolled = state
        if rolled is None:
            return (mine, theirs, turns, move), 0, True
        step = rolled if move == "move" else 0
        return (theirs, mine + step, turns - 1, None), step, False

    def payoff(self, state):
        mine, theirs, _, _ = state
        return 10 if mine >= self.goal else -10 if theirs >= self.goal else 0


def dice_race_oracle(game):
    @functools.cache
    def value(state):
        moves = list(game.moves(state))
        if not moves:
            return Fraction(game.payoff(state))
        results = []
        for move in moves:
            after, gain, keeps = game.play(state, move)
            results.append(gain + (value(after) if keeps else -value(after)))
        if game.is_chance(state):
            return sum(Fraction(1, game.faces) * result for result in results)
        return max(results)

    return value(game.start())


@pytest.mark.parametrize("seed", range(12))
def test_a_dice_game_is_exact_and_equals_a_recursion_in_fractions(seed):
    rng = random.Random(seed)
    game = DiceRace(rng.randint(3, 9), rng.randint(2, 6), rng.randint(2, 7))
    solved = gamesolver.solve(game, moves=True, line=True)
    assert isinstance(solved.value, Fraction)
    assert solved.value == dice_race_oracle(game)
    assert solved.error_bound == 0 and solved.engine == "expectimax" and solved.win_chance is None
    # At the start a roll decides: every outcome with its probability, none best.
    assert all(m["probability"] == Fraction(1, game.faces) for m in solved.moves)
    assert solved.best_moves == [] and solved.best_move is None
    assert sum(m["probability"] * m["value"] for m in solved.moves) == solved.value
    assert solved.line[0]["roll"] is True
    assert gamesolver.check(game).ok


class Piglet(gamesolver.Game):
    """Neller and Presser's Piglet: flip a coin, heads adds 1 to the turn total, tails loses
    it; hold to bank it; the first whose points and turn total reach the goal wins."""

    outcome_game = True
    may_cycle = True

    def __init__(self, goal):
        self.goal = goal

    def start(self):
        return (0, 0, 0, False)

    def moves(self, state):
        mine, theirs, turn, flipping = state
        if mine + turn >= self.goal:
            return []
        return ["tails", "heads"] if flipping else ["flip", "hold"]

    def is_chance(self, state):
        return state[3]

    def probability(self, state, outcome):
        return (1, 2)

    def play(self, state, move):
        mine, theirs, turn, flipping = state
        if move == "flip":
            return (mine, theirs, turn, True), 0, True
        if move == "hold":
            return (theirs, mine + turn, 0, False), 0, False
        if move == "tails":
            return (theirs, mine, 0, False), 0, False
        return (mine, theirs, turn + 1, False), 0, True

    def payoff(self, state):
        return 1 if state[0] + state[2] >= self.goal else -1


def test_piglet_written_in_python_is_neller_and_pressers():
    solved = gamesolver.solve(Piglet(2), moves=True)
    assert solved.win_chance == Fraction(4, 7)
    assert solved.engine == "value-iteration"
    assert solved.best_move == "flip"
    assert {m["move"]: m["value"] for m in solved.moves} == {"flip": Fraction(1, 7), "hold": Fraction(-1, 7)}
    for at, chance in [((0, 0, 1, False), Fraction(5, 7)), ((0, 1, 0, False), Fraction(2, 5)), ((1, 1, 0, False), Fraction(2, 3))]:
        value = gamesolver.analyze(Piglet(2), at=at).value
        assert (1 + value) / 2 == chance, at
    assert gamesolver.solve(Piglet(3)).win_chance == Fraction(6, 11)
    assert gamesolver.check(Piglet(3)).ok


def test_a_float_probability_and_a_half_declaration_are_refused():
    class Floaty(Piglet):
        def probability(self, state, outcome):
            return 0.5

    with pytest.raises(TypeError, match="Fraction"):
        gamesolver.solve(Floaty(2))

    class Unsure(Piglet):
        probability = None

    with pytest.raises(TypeError, match="both is_chance"):
        gamesolver.solve(Unsure(2))

    class Lopsided(Piglet):
        def probability(self, state, outcome):
            return Fraction(1, 3)

    with pytest.raises(gamesolver.InputError, match="sum to 2/3"):
        gamesolver.solve(Lopsided(2))
    assert not gamesolver.check(Lopsided(2)).ok


def test_a_bundled_game_with_chance_gives_its_exact_value_as_the_command_line():
    solved = gamesolver.solve("piglet", [2])
    assert solved.exact == "4/7" and Fraction(solved.exact) == Fraction(4, 7)
    assert abs(solved.value - 4 / 7) < 1e-15
    solved = gamesolver.solve("pig", [20])
    assert solved.error_bound < 1e-9 and "exact" not in solved


def guide_hog():
    """The Hog of docs/adding-a-game.md (section 10), run as the guide prints it."""
    guide = pathlib.Path(__file__).resolve().parents[2] / "docs" / "adding-a-game.md"
    blocks = re.findall(r"```python\n(.*?)```", guide.read_text(), re.S)
    (code,) = [block for block in blocks if "class Hog" in block]
    scope = {}
    exec(compile(code, str(guide), "exec"), scope)
    return scope["Hog"], scope["solved"]


def hog_by_its_rules(goal, most):
    """The first player's winning chance at Hog, each roll dealt out die by die, in fractions."""

    @functools.cache
    def chance(mine, theirs):
        if theirs >= goal:
            return Fraction(0)
        best = Fraction(0)
        for dice in range(1, most + 1):
            total = Fraction(0)
            for faces in itertools.product(range(1, 7), repeat=dice):
                points = 1 if 1 in faces else sum(faces)
                total += 1 - chance(theirs, mine + points)
            best = max(best, total / 6**dice)
        return best

    return chance(0, 0)


def test_the_guides_hog_is_exact_and_agrees_with_its_rules():
    Hog, solved = guide_hog()
    assert isinstance(solved.win_chance, Fraction)
    assert abs(float(solved.win_chance) - 0.623208316994703) < 1e-15
    for goal, most in [(6, 1), (10, 2), (13, 3)]:
        game = Hog(goal, most)
        result = gamesolver.solve(game)
        assert result.win_chance == hog_by_its_rules(goal, most)
        assert result.value == 2 * result.win_chance - 1 and result.error_bound == 0
        assert gamesolver.check(game).ok
