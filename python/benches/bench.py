"""Side-by-side timings of the Python package (docs/performance.md, "Python").

    target/python-ci/bin/python python/benches/bench.py [ROUNDS]

(after python/ci.sh, or with any environment where `pip install ./python` and open-spiel are
installed; the command line is target/release/gamesolver, built by `cargo build --release`).
Every row is timed in interleaved rounds, and each figure is a median of whole calls (for the
command line, of whole processes); every pair of values is checked equal before it is timed.
"""

import functools
import os
import pathlib
import statistics
import subprocess
import sys
import time

import gamesolver

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = os.environ.get("GAMESOLVER_BIN", str(ROOT / "target" / "release" / "gamesolver"))
ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 7
sys.setrecursionlimit(100_000)


def timed(call):
    started = time.perf_counter()
    value = call()
    return time.perf_counter() - started, value


def rows_side_by_side(name, programs):
    """Runs each program once per round, interleaved; prints medians and ratios to the first."""
    times = {label: [] for label, _ in programs}
    values = {}
    for _ in range(ROUNDS):
        for label, call in programs:
            seconds, value = timed(call)
            times[label].append(seconds)
            values[label] = value
    assert len(set(map(repr, values.values()))) == 1, values
    first = statistics.median(times[programs[0][0]])
    print(f"\n{name} (value {next(iter(values.values()))!r}, {ROUNDS} rounds, medians)")
    for label, _ in programs:
        median = statistics.median(times[label])
        print(f"  {label:<48} {median * 1000:10.1f} ms  {median / first:6.2f}x")


# 1. A bundled game: the same solve from Python and from the command line.
def bundled():
    piles = ",".join(str(i * 7919 % 97 + 1) for i in range(2000))
    rows_side_by_side(
        "Stone Game II, 2000 piles, the engine on one thread",
        [
            ("command line (whole process)", lambda: subprocess.run(
                [CLI, "stone-game-ii", piles, "--solver", "engine", "--threads", "1", "--json"],
                capture_output=True, check=True, text=True).stdout.split('"answer":')[1].split(",")[0]),
            ("gamesolver.solve from Python", lambda: str(
                gamesolver.solve("stone-game-ii", piles, solver="engine", threads=1).answer)),
        ],
    )
    rows_side_by_side(
        "Dots and Boxes 3x3, the tier solver on two threads",
        [
            ("command line (whole process)", lambda: subprocess.run(
                [CLI, "dots-and-boxes", "3", "3", "--threads", "2", "--json"],
                capture_output=True, check=True, text=True).stdout.split('"answer":')[1].split(",")[0]),
            ("gamesolver.solve from Python", lambda: str(
                gamesolver.solve("dots-and-boxes", [3, 3], threads=2).answer)),
        ],
    )


# 2. Games written in Python against functools.cache recursions of the same rules.
class Wythoff:
    outcome_game = True

    def __init__(self, a, b):
        self.heaps = (a, b)

    def start(self):
        return self.heaps

    def moves(self, heaps):
        a, b = heaps
        return [(k, 0) for k in range(1, a + 1)] + [(0, k) for k in range(1, b + 1)] + [
            (k, k) for k in range(1, min(a, b) + 1)
        ]

    def play(self, heaps, take):
        return (heaps[0] - take[0], heaps[1] - take[1]), 0, False

    def payoff(self, heaps):
        return -1


def wythoff_cache(a, b):
    @functools.cache
    def wins(heaps):
        a, b = heaps
        moves = [(k, 0) for k in range(1, a + 1)] + [(0, k) for k in range(1, b + 1)] + [
            (k, k) for k in range(1, min(a, b) + 1)
        ]
        return any(not wins((a - x, b - y)) for x, y in moves)

    return 1 if wins((a, b)) else -1


class Pick:
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


class RangedPick(Pick):
    def __init__(self, cards):
        super().__init__(cards)
        self.left = [0] * (len(cards) + 1)
        for i in range(len(cards) - 1, -1, -1):
            self.left[i] = self.left[i + 1] + abs(cards[i])

    def value_range(self, front):
        return -self.left[front], self.left[front]


def pick_cache(cards):
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


class Squares:
    """Take a positive square number of stones; who cannot move loses (LeetCode 1510)."""

    outcome_game = True

    def __init__(self, stones):
        self.stones = stones

    def start(self):
        return self.stones

    def moves(self, left):
        root = 1
        while root * root <= left:
            yield root * root
            root += 1

    def play(self, left, take):
        return left - take, 0, False

    def payoff(self, left):
        return -1


def squares_cache(stones):
    @functools.cache
    def wins(left):
        root = 1
        while root * root <= left:
            if not wins(left - root * root):
                return True
            root += 1
        return False

    for n in range(0, stones, 500):  # bottom-up warm steps keep the recursion shallow
        wins(n)
    return 1 if wins(stones) else -1


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def won(board):
    return any(board[a] != "." and board[a] == board[b] == board[c] for a, b, c in LINES)


class TicTacToe:
    """Boards as 9-character strings, X to move when the counts are equal; +1 a win for the
    mover, -1 a loss, 0 a draw: the range (-1, 1) declared, so a winning move ends a state."""

    value_range = (-1, 1)

    def start(self):
        return "." * 9

    def moves(self, board):
        if won(board):
            return []
        return [i for i in range(9) if board[i] == "."]

    def play(self, board, square):
        mark = "X" if board.count("X") == board.count("O") else "O"
        after = board[:square] + mark + board[square + 1 :]
        return after, (1 if won(after) else 0), False

    def payoff(self, board):
        return 0


class Uncut(TicTacToe):
    value_range = None


def tictactoe_cache():
    @functools.cache
    def value(board):
        if won(board):
            return 0  # the mover's opponent just won: counted by the parent's points
        mark = "X" if board.count("X") == board.count("O") else "O"
        best = None
        for square in range(9):
            if board[square] == ".":
                after = board[:square] + mark + board[square + 1 :]
                mine = 1 if won(after) else -value(after)
                best = mine if best is None else max(best, mine)
        return 0 if best is None else best

    return value("." * 9)


class ConnectK:
    """Connect-K with gravity on a width x height board (an outcome game): who makes K wins."""

    outcome_game = True

    def __init__(self, width, height, k):
        self.width, self.height, self.k = width, height, k

    def start(self):
        return ((),) * self.width

    def moves(self, columns):
        if self.won(columns):
            return []
        return [c for c in range(self.width) if len(columns[c]) < self.height]

    def play(self, columns, column):
        mover = sum(map(len, columns)) % 2
        grown = list(columns)
        grown[column] = columns[column] + (mover,)
        return tuple(grown), 0, False

    def payoff(self, columns):
        return -1 if self.won(columns) else 0  # a line is the last mover's win

    def won(self, columns):
        def at(x, y):
            return columns[x][y] if 0 <= x < self.width and 0 <= y < len(columns[x]) else None

        for x in range(self.width):
            for y, who in enumerate(columns[x]):
                for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    if all(at(x + i * dx, y + i * dy) == who for i in range(1, self.k)):
                        return True
        return False


def user_games():
    rows_side_by_side(
        "Connect-3 on 5x3, a game in Python (an outcome game): what each switch costs",
        [
            ("gamesolver.solve(game, line=False, moves=False)", lambda: gamesolver.solve(ConnectK(5, 3, 3), line=False, moves=False).value),
            ("gamesolver.solve(game) (the value and a best move)", lambda: gamesolver.solve(ConnectK(5, 3, 3)).value),
            ("gamesolver.solve(game, line=True)", lambda: gamesolver.solve(ConnectK(5, 3, 3), line=True).value),
            ("gamesolver.solve(game, line=True, moves=True)", lambda: gamesolver.solve(ConnectK(5, 3, 3), line=True, moves=True).value),
            ("gamesolver.solve(game, remoteness=True)", lambda: gamesolver.solve(ConnectK(5, 3, 3), remoteness=True).value),
        ],
    )
    rows_side_by_side(
        "Wythoff's game, heaps 120 and 150 (win/lose, 18k states, every move listed)",
        [
            ("functools.cache recursion", lambda: wythoff_cache(120, 150)),
            ("gamesolver.solve(game) (the value and a best move)", lambda: gamesolver.solve(Wythoff(120, 150)).value),
            ("gamesolver.solve(game, line=True, moves=True)", lambda: gamesolver.solve(Wythoff(120, 150), line=True, moves=True).value),
        ],
    )
    rows_side_by_side(
        "Squares (LeetCode 1510), 20000 stones (win/lose, the first winning move ends a state)",
        [
            ("functools.cache recursion", lambda: squares_cache(20000)),
            ("gamesolver.solve(game) (the value and a best move)", lambda: gamesolver.solve(Squares(20000)).value),
            ("gamesolver.solve(game, line=True, moves=True)", lambda: gamesolver.solve(Squares(20000), line=True, moves=True).value),
        ],
    )
    rows_side_by_side(
        "tic-tac-toe from the start (value_range (-1, 1) declared: a win ends a state)",
        [
            ("functools.cache recursion (max over every move)", tictactoe_cache),
            ("gamesolver.solve(game) (the value and a best move)", lambda: gamesolver.solve(TicTacToe()).value),
            ("the same game without value_range (no cut)", lambda: gamesolver.solve(Uncut()).value),
        ],
    )
    cards = [(i * 7919) % 61 - 20 for i in range(5000)]
    rows_side_by_side(
        "Pick, 5000 cards (a score game with extra turns)",
        [
            ("functools.cache recursion", lambda: pick_cache(tuple(cards))),
            ("gamesolver.solve(game) (the value and a best move)", lambda: gamesolver.solve(Pick(cards)).value),
            ("the same, value_range declared", lambda: gamesolver.solve(RangedPick(cards)).value),
            ("gamesolver.solve(game, line=True, moves=True)", lambda: gamesolver.solve(Pick(cards), line=True, moves=True).value),
        ],
    )


# 3. The OpenSpiel adapter against OpenSpiel's own alpha-beta.
def openspiel():
    try:
        import pyspiel
        from open_spiel.python.algorithms import minimax
    except ImportError:
        print("\n(open-spiel is not installed: no OpenSpiel rows)")
        return
    from gamesolver import openspiel as adapter

    game = pyspiel.load_game("tic_tac_toe")
    rows_side_by_side(
        "tic-tac-toe from the start",
        [
            ("OpenSpiel alpha_beta_search", lambda: int(minimax.alpha_beta_search(game, maximizing_player_id=0)[0])),
            ("gamesolver.openspiel.solve", lambda: adapter.solve(game).value),
        ],
    )
    mnk = pyspiel.load_game("mnk(m=4,n=4,k=3)")
    rows_side_by_side(
        "m,n,k 4,4,3 from the start",
        [
            ("OpenSpiel alpha_beta_search", lambda: int(minimax.alpha_beta_search(mnk, maximizing_player_id=0)[0])),
            ("gamesolver.openspiel.solve (the value and a best action)", lambda: adapter.solve(mnk).value),
            ("gamesolver.openspiel.solve(..., line=True)", lambda: adapter.solve(mnk, line=True).value),
        ],
    )
    connect = pyspiel.load_game("connect_four")
    # Positions of 20, 22 and 24 stones from ../shared/bench/connect4/Test_L2_R1 (Pons' notation:
    # columns 1-7); positions of fewer stones take OpenSpiel's alpha-beta minutes and more.
    for moves in ("64115442265757253615", "4661237137541742643224", "763452543756455357732314"):
        state = connect.new_initial_state()
        for column in moves:
            state.apply_action(int(column) - 1)
        mover = state.current_player()
        rows_side_by_side(
            f"Connect Four after {moves} ({len(moves)} stones)",
            [
                ("OpenSpiel alpha_beta_search", lambda: int(minimax.alpha_beta_search(
                    connect, state=state, maximizing_player_id=mover, maximum_depth=100)[0])),
                ("gamesolver.openspiel.solve", lambda: adapter.solve(state).value),
                ("gamesolver.openspiel.solve, engine='pruning'", lambda: adapter.solve(state, engine="pruning").value),
            ],
        )


if __name__ == "__main__":
    which = sys.argv[2:] or ["bundled", "user_games", "openspiel"]
    for name in which:
        globals()[name]()
