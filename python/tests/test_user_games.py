"""Games written in Python equal hand-written functools.cache recursions of the same rules."""

import functools
import random
import threading
import time
import _thread

import pytest

import gamesolver


class Wythoff(gamesolver.Game):
    """Two heaps: take any number from one heap, or the same number from both; who cannot move
    loses. A win/lose game with (a+1)(b+1) states."""

    outcome_game = True

    def __init__(self, a, b):
        self.heaps = (a, b)

    def start(self):
        return self.heaps

    def moves(self, heaps):
        a, b = heaps
        yield from ((k, 0) for k in range(1, a + 1))
        yield from ((0, k) for k in range(1, b + 1))
        yield from ((k, k) for k in range(1, min(a, b) + 1))

    def play(self, heaps, take):
        return (heaps[0] - take[0], heaps[1] - take[1]), 0, False

    def payoff(self, heaps):
        return -1


def wythoff_oracle(a, b):
    @functools.cache
    def wins(a, b):
        return any(not wins(a - k, b) for k in range(1, a + 1)) or any(
            not wins(a, b - k) for k in range(1, b + 1)
        ) or any(not wins(a - k, b - k) for k in range(1, min(a, b) + 1))

    return 1 if wins(a, b) else -1


class Pick(gamesolver.Game):
    """Take 1, 2 or 3 cards from the front of a row and score their sum; whoever takes an even
    card last of those taken moves again. A score game with extra turns."""

    def __init__(self, cards):
        self.cards = tuple(cards)

    def start(self):
        return 0

    def moves(self, front):
        return range(1, min(3, len(self.cards) - front) + 1)

    def play(self, front, count):
        taken = self.cards[front : front + count]
        return front + count, sum(taken), taken[-1] % 2 == 0

    def payoff(self, front):
        return 0


def pick_oracle(cards):
    @functools.cache
    def value(front):
        if front == len(cards):
            return 0
        best = None
        for count in range(1, min(3, len(cards) - front) + 1):
            taken = cards[front : front + count]
            later = value(front + count)
            mine = sum(taken) + (later if taken[-1] % 2 == 0 else -later)
            best = mine if best is None else max(best, mine)
        return best

    return value(0)


class RangedPick(Pick):
    """The same game, with the range of what is left declared."""

    def value_range(self, front):
        left = sum(abs(card) for card in self.cards[front:])
        return -left, left


@pytest.mark.parametrize("seed", range(20))
def test_a_win_lose_game_equals_the_cache_recursion(seed):
    rng = random.Random(seed)
    a, b = rng.randint(0, 25), rng.randint(0, 25)
    solved = gamesolver.solve(Wythoff(a, b), moves=True)
    assert solved.value == wythoff_oracle(a, b)
    assert solved.outcome == {1: "win", -1: "loss"}[solved.value]
    for entry in solved.moves:
        after = (a - entry["move"][0], b - entry["move"][1])
        assert entry["value"] == -wythoff_oracle(*after)
    # By default: the value and one best move, the first in the game's order.
    plain = gamesolver.solve(Wythoff(a, b))
    assert (plain.moves, plain.best_moves, plain.line, plain.remoteness) == (None, None, None, None)
    firsts = [entry["move"] for entry in solved.moves if entry["best"]]
    assert plain.best_move == (firsts[0] if firsts else None)


@pytest.mark.parametrize("seed", range(20))
def test_a_score_game_with_extra_turns_equals_the_cache_recursion(seed):
    rng = random.Random(seed)
    cards = [rng.randint(-20, 40) for _ in range(rng.randint(0, 60))]
    expected = pick_oracle(tuple(cards))
    plain = gamesolver.solve(Pick(cards), line=True)
    ranged = gamesolver.solve(RangedPick(cards))
    assert plain.value == expected == ranged.value
    # The line is played by the rules and adds up to the value.
    total, front = 0, 0
    for ply in plain.line:
        assert ply["state"] == front
        step = Pick(cards).play(front, ply["move"])
        total += step[1] if ply["player"] == "first" else -step[1]
        front = step[0]
    assert front == len(cards) and total == expected


def wythoff_remoteness(a, b):
    """The remoteness by the literal rules: a winner takes its fastest win, a loser its
    slowest loss; 0 where no move is left."""

    @functools.cache
    def remote(a, b):
        children = [(a - k, b) for k in range(1, a + 1)] + [(a, b - k) for k in range(1, b + 1)]
        children += [(a - k, b - k) for k in range(1, min(a, b) + 1)]
        if not children:
            return 0
        losing = [remote(*child) for child in children if wythoff_oracle(*child) < 0]
        if losing:
            return 1 + min(losing)
        return 1 + max(remote(*child) for child in children)

    return remote(a, b)


@pytest.mark.parametrize("seed", range(12))
def test_remoteness_and_what_to_leave_out(seed):
    rng = random.Random(100 + seed)
    a, b = rng.randint(0, 12), rng.randint(0, 12)
    expected = wythoff_remoteness(a, b)
    for engine in ("exhaustive", "retrograde"):
        measured = gamesolver.solve(Wythoff(a, b), engine=engine, remoteness=True)
        assert measured.remoteness == expected, engine
        # With the line: the swift one, whose length it is.
        lined = gamesolver.solve(Wythoff(a, b), engine=engine, line=True, remoteness=True)
        assert lined.remoteness == len(lined.line) == expected, engine
        # Not asked for: None from every engine alike.
        assert gamesolver.solve(Wythoff(a, b), engine=engine, line=True).remoteness is None
    # The pruning engine keeps bounds, not lengths: it says it does not measure remoteness.
    with pytest.raises(gamesolver.UnsupportedError, match="does not measure remoteness"):
        gamesolver.solve(Wythoff(a, b), engine="pruning", remoteness=True)
    bare = gamesolver.solve(Wythoff(a, b))
    assert bare.value == wythoff_oracle(a, b)
    assert (bare.moves, bare.best_moves, bare.line, bare.remoteness) == (None, None, None, None)
    with pytest.raises(gamesolver.InputError, match="for games written in Python"):
        gamesolver.solve("nim", [1, 2], moves=True)


def test_every_engine_gives_the_same_values():
    game = Wythoff(6, 9)
    engines = ("exhaustive", "pruning", "retrograde", "proof")
    values = {engine: gamesolver.solve(game, engine=engine, line=True, moves=True).value for engine in engines}
    assert set(values.values()) == {wythoff_oracle(6, 9)}
    assert gamesolver.solve(game, engine="proof").engine == "proof"


class Chase(gamesolver.Game):
    """A token on a cycle of n places; a move steps it 1 or 2 forward; whoever lands on the
    goal wins. Play may go round forever, so it may cycle."""

    outcome_game = True
    may_cycle = True

    def __init__(self, places, goal, blocked):
        self.places, self.goal, self.blocked = places, goal, blocked

    def start(self):
        return 0

    def moves(self, at):
        if at == self.goal:
            return []
        return [step for step in (1, 2) if (at + step) % self.places not in self.blocked]

    def play(self, at, step):
        return (at + step) % self.places, 0, False

    def payoff(self, at):
        return -1 if at == self.goal else 0


def chase_oracle(game):
    """Win/loss/draw by the fixpoint over the literal rules."""
    value = {}
    changed = True
    while changed:
        changed = False
        for at in range(game.places):
            if at in value:
                continue
            moves = game.moves(at)
            if not moves:
                value[at] = game.payoff(at)
                changed = True
                continue
            after = [value.get(game.play(at, m)[0]) for m in moves]
            if any(v == -1 for v in after):
                value[at], changed = 1, True
            elif all(v == 1 for v in after):
                value[at], changed = -1, True
    return value.get(0, 0)


@pytest.mark.parametrize("seed", range(10))
def test_a_game_that_cycles_equals_the_fixpoint(seed):
    rng = random.Random(seed)
    places = rng.randint(3, 12)
    game = Chase(places, rng.randint(1, places - 1), set(rng.sample(range(1, places), rng.randint(0, places // 3))) - {0})
    solved = gamesolver.solve(game)
    assert solved.engine == "retrograde"
    assert solved.value == chase_oracle(game)


def test_analyze_values_every_move_at_a_state():
    analysis = gamesolver.analyze(Pick([3, 8, -2, 5]), at=1)
    assert analysis.value == pick_oracle((8, -2, 5))
    assert [entry["move"] for entry in analysis.moves] == [1, 2, 3]


def test_check_passes_a_good_game_and_finds_a_wrong_declaration():
    assert gamesolver.check(Pick([1, 2, 3, 4])).ok

    class Lying(Pick):
        def value_range(self, front):
            return 0, 0

    report = gamesolver.check(Lying([5, 6, 7]))
    assert not report.ok and report.violations
    assert any("range" in violation for violation in report.violations)


def test_a_callbacks_exception_reaches_the_caller():
    class Broken(Pick):
        def moves(self, front):
            if front == 3:
                raise ZeroDivisionError("three")
            return super().moves(front)

    with pytest.raises(ZeroDivisionError, match="three"):
        gamesolver.solve(Broken([1] * 10))

    class Shapeless(Pick):
        def play(self, front, count):
            return front + count

    with pytest.raises(TypeError, match=r"play\(\) must return"):
        gamesolver.solve(Shapeless([1, 2]))

    with pytest.raises(TypeError, match=r"needs a method start\(\)"):
        gamesolver.solve(object())


def test_limits_are_python_exceptions():
    with pytest.raises(MemoryError):
        gamesolver.solve(Wythoff(60, 60), memory_limit=20_000)
    with pytest.raises(TimeoutError):
        gamesolver.solve(Wythoff(300, 300), time_limit=0.05)
    with pytest.raises(ValueError):
        gamesolver.solve(Wythoff(1, 1), engine="no-such-engine")
    with pytest.raises(ValueError):
        gamesolver.solve(Pick([1]), engine="retrograde")


def test_ctrl_c_stops_a_python_game():
    threading.Timer(0.3, _thread.interrupt_main).start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        gamesolver.solve(Wythoff(2000, 2000))
    assert time.monotonic() - started < 5


def test_the_readme_and_the_guides_python_examples_run():
    """Every ```python block of README.md and docs/python.md runs as written, and the values its
    comments give (`expression   # value`) are what it computes."""
    import pathlib
    import re
    import textwrap

    root = pathlib.Path(__file__).resolve().parents[2]
    for page in (root / "README.md", root / "docs" / "python.md"):
        scope = {}  # a page's blocks go on from one another, as a reader's session does
        for block in re.findall(r"```python\n(.*?)```", page.read_text(), re.S):
            block = textwrap.dedent(block)  # a block inside a list item is indented
            if "pyspiel" in block:
                pytest.importorskip("pyspiel")
            for line in block.splitlines():
                shown = re.match(r"^(\S.*?)\s+# (-?\d+)(?![,\d])", line)
                if shown and "=" not in shown.group(1).split("(")[0] and not line.startswith(("def ", "class ", "import", "from")):
                    exec(compile(block[: block.index(line)], str(page), "exec"), scope)
                    assert eval(shown.group(1), scope) == int(shown.group(2)), (page.name, line)
            exec(compile(block, str(page), "exec"), scope)


class Kayles(gamesolver.Game):
    """Rows of pins; a move knocks down one pin or two neighbours, which may split a row in
    two; who cannot move loses. Impartial: its rows are independent parts."""

    impartial = True

    def __init__(self, rows, split=True):
        self.rows = tuple(sorted(rows))
        if not split:
            self.split = None

    def start(self):
        return self.rows

    def moves(self, rows):
        for index, row in enumerate(rows):
            if index and rows[index - 1] == row:
                continue  # the same moves as the row before it
            for take in (1, 2):
                for left in range(row - take + 1):
                    if left <= row - take - left:
                        yield index, take, left

    def play(self, rows, move):
        index, take, left = move
        right = rows[index] - take - left
        rest = rows[:index] + rows[index + 1:] + (left, right)
        return tuple(sorted(r for r in rest if r)), 0, False

    def payoff(self, rows):
        return -1

    def split(self, rows):
        return [(row,) for row in rows]


def kayles_oracle(rows):
    """Kayles by the literal rules, never split: the mex over the whole position."""

    @functools.cache
    def nimber(rows):
        seen = set()
        for index, row in enumerate(rows):
            for take in (1, 2):
                for left in range(row - take + 1):
                    right = row - take - left
                    rest = rows[:index] + rows[index + 1:] + (left, right)
                    seen.add(nimber(tuple(sorted(r for r in rest if r))))
        return next(g for g in range(len(seen) + 1) if g not in seen)

    return nimber(tuple(sorted(rows)))


@pytest.mark.parametrize("seed", range(4))
def test_an_impartial_game_gives_the_nimber_of_the_literal_rules(seed):
    rng = random.Random(seed)
    for _ in range(6):
        rows = [rng.randint(1, 7) for _ in range(rng.randint(1, 3))]
        expected = kayles_oracle(rows)
        for split in (True, False):
            result = gamesolver.solve(Kayles(rows, split=split), moves=True)
            assert result.nimber == expected, (rows, split)
            assert result.value == (1 if expected else -1), rows
            for entry in result.moves:
                after, _, _ = Kayles(rows).play(Kayles(rows).rows, entry["move"])
                assert entry["nimber"] == kayles_oracle(after), (rows, entry)
                assert entry["value"] == (1 if entry["nimber"] == 0 else -1), (rows, entry)
    # Kayles' nimbers from the row of 1 pin (OEIS A002186).
    assert [gamesolver.solve(Kayles([n])).nimber for n in range(1, 13)] == [1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]
    assert gamesolver.check(Kayles([3, 4, 5])).ok


class WrongSplit(Kayles):
    def split(self, rows):
        return [rows[:1]] if rows else []  # forgets every row but the first


def test_an_impartial_declaration_is_checked_and_refused_where_it_cannot_hold():
    assert not gamesolver.check(WrongSplit([2, 3, 4])).ok
    assert gamesolver.solve(Wythoff(3, 4)).nimber is None

    class Cycling(Kayles):
        may_cycle = True

    with pytest.raises(TypeError, match="impartial"):
        gamesolver.solve(Cycling([3]))

    class NotDeclared(Wythoff):
        def split(self, heaps):
            return [heaps]

    with pytest.raises(TypeError, match="impartial = True"):
        gamesolver.solve(NotDeclared(1, 2))
