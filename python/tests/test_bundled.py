"""The bundled games from Python equal the command line's --json, on random instances."""

import json
import random
import subprocess
import threading
import _thread
import time

import pytest

import gamesolver

#: Fields that differ from run to run (the time taken).
TIMED = {"seconds"}


def cli_json(cli, arguments):
    """What the command line prints with --json: (True, object) or (False, error object)."""
    done = subprocess.run([cli] + arguments[:1] + ["--json"] + arguments[1:], capture_output=True, text=True)
    if done.returncode == 0:
        return True, json.loads(done.stdout)
    return False, json.loads(done.stderr.strip().splitlines()[-1])


def untimed(fields):
    return {key: value for key, value in fields.items() if key not in TIMED}


def same_as_cli(cli, call, arguments):
    """Runs `call` (the package) and the command line on the same input; both answer alike
    or both refuse with the same message and kind."""
    ok, expected = cli_json(cli, arguments)
    if ok:
        assert untimed(call().to_dict()) == untimed(expected)
    else:
        with pytest.raises(gamesolver.GamesolverError) as refused:
            call()
        assert (str(refused.value), refused.value.kind) == (expected["error"], expected["kind"])
    return ok


def random_instances(rng):
    """(game, values, command-line values) for every bundled game."""
    n = rng.randint(2, 12) * 2
    piles = [rng.randint(1, 50) for _ in range(n)]
    yield "stone-game", piles, [",".join(map(str, piles))]
    piles = [rng.randint(1, 100) for _ in range(rng.randint(1, 40))]
    yield "stone-game-ii", piles, [",".join(map(str, piles))]
    values = [rng.randint(-1000, 1000) for _ in range(rng.randint(1, 40))]
    yield "stone-game-iii", values, [",".join(map(str, values))]
    stones = [rng.randint(1, 1000) for _ in range(rng.randint(2, 40))]
    yield "stone-game-vii", stones, [",".join(map(str, stones))]
    stones = [rng.randint(-100, 100) for _ in range(rng.randint(2, 40))]
    yield "stone-game-viii", stones, ["--", ",".join(map(str, stones))]
    heaps = [rng.randint(0, 7) for _ in range(rng.randint(1, 4))]
    yield "nim", heaps, [",".join(map(str, heaps))]
    yield "tic-tac-toe", None, []
    side = rng.randint(1, 3)
    yield "hex", [side], [str(side)]
    columns, rows = rng.randint(1, 4), rng.randint(1, 3)
    k = rng.randint(1, max(columns, rows))
    yield "mnk", [columns, rows, k], [str(columns), str(rows), str(k)]
    rows, columns = rng.choice([(1, 1), (1, 2), (2, 1), (2, 2), (1, 3)])
    yield "dots-and-boxes", [rows, columns], [str(rows), str(columns)]
    position = "".join(str(rng.randint(1, 7)) for _ in range(rng.randint(28, 34)))
    yield "connect-four", position, [position]
    size = rng.randint(3, 7)
    edges = {(a, b) for a in range(size) for b in range(a + 1, size) if rng.random() < 0.5}
    edges |= {(0, 1), (1, 2), (0, 2)}
    graph = [sorted({b for a, b in edges if a == node} | {a for a, b in edges if b == node}) for node in range(size)]
    yield "cat-and-mouse", graph, [json.dumps(graph)]
    cells = list("...#..#..")
    spots = rng.sample(range(9), 3)
    for spot, mark in zip(spots, "CMF"):
        cells[spot] = mark
    grid = ["".join(cells[i : i + 3]) for i in (0, 3, 6)]
    puzzle = {"grid": grid, "catJump": rng.randint(1, 2), "mouseJump": rng.randint(1, 2)}
    yield "cat-and-mouse-ii", puzzle, [json.dumps(puzzle)]


@pytest.mark.parametrize("seed", range(4))
def test_every_bundled_game_equals_the_command_line(cli, seed):
    rng = random.Random(seed)
    answered = 0
    for game, values, arguments in random_instances(rng):
        answered += same_as_cli(
            cli,
            lambda: gamesolver.solve(game, values, threads=1),
            [game, "--threads", "1"] + arguments,
        )
    assert answered >= 8


def test_every_game_is_listed():
    assert set(gamesolver.GAMES) == {
        "stone-game", "stone-game-ii", "stone-game-iii", "stone-game-vii", "stone-game-viii",
        "nim", "kayles", "dawsons-kayles", "grundys-game", "cram", "tic-tac-toe", "dots-and-boxes",
        "connect-four", "cat-and-mouse", "cat-and-mouse-ii", "pig", "piglet", "bear-off",
        "quixo", "six-mens-morris", "hex", "mnk",
    }


def test_quixo_is_solved_by_loopy_tiers_as_the_command_line_solves_it(cli):
    same_as_cli(
        cli,
        lambda: gamesolver.solve("quixo", [3], threads=1),
        ["quixo", "--threads", "1", "3"],
    )
    solved = gamesolver.solve("quixo", [3], threads=1).to_dict()
    assert (solved["value"], solved["remoteness"], solved["solver"]) == (1, 7, "loopy-tier")


def test_a_tier_file_answers_positions_as_a_fresh_solve_does(tmp_path):
    path = tmp_path / "quixo3.tiers"
    saved = gamesolver.solve("quixo", [3], threads=1, save=path)
    assert (saved.value, saved.remoteness) == (1, 7)
    # --save never overwrites: again only with resume=True, which finds every tier done.
    with pytest.raises(gamesolver.GamesolverError):
        gamesolver.solve("quixo", [3], threads=1, save=path)
    assert gamesolver.solve("quixo", [3], threads=1, save=path, resume=True).value == 1
    for at in ["2_X--------", "1_XO-------", "2_XOX------"]:
        fresh = gamesolver.analyze("quixo", [3], at=at, threads=1).to_dict()
        loaded = gamesolver.analyze("quixo", [3], at=at, load=path).to_dict()
        assert (loaded["value"], loaded["remoteness"], loaded["moves"]) == (
            fresh["value"], fresh["remoteness"], fresh["moves"])


def test_dots_and_boxes_saves_a_tier_file_that_answers_positions(tmp_path):
    path = tmp_path / "dots23.tiers"
    fresh = gamesolver.solve("dots-and-boxes", [2, 3], threads=1).to_dict()
    saved = gamesolver.solve("dots-and-boxes", [2, 3], threads=1, save=path).to_dict()
    assert (saved["value"], saved["line"]) == (fresh["value"], fresh["line"])
    assert path.read_bytes().startswith(b"GSTIERS\0")
    resumed = gamesolver.solve("dots-and-boxes", [2, 3], save=path, resume=True)
    assert resumed.value == fresh["value"]
    for at in ["0,0-0,1", "0,0-0,1 1,1-2,1"]:
        memory = gamesolver.analyze("dots-and-boxes", [2, 3], at=at, threads=1).to_dict()
        loaded = gamesolver.analyze("dots-and-boxes", [2, 3], at=at, load=path).to_dict()
        assert (loaded["value"], loaded["moves"]) == (memory["value"], memory["moves"])


def test_six_mens_morris_is_a_draw_with_three_men_as_on_the_command_line(cli):
    same_as_cli(
        cli,
        lambda: gamesolver.solve("six-mens-morris", [3], threads=1),
        ["six-mens-morris", "--threads", "1", "3"],
    )
    solved = gamesolver.solve("six-mens-morris", [3], threads=1).to_dict()
    assert (solved["value"], solved["solver"]) == (0, "loopy-tier")


@pytest.mark.parametrize("solver", ["auto", "fast", "engine", "parallel", "proof"])
def test_the_solvers_of_stone_game_ii_equal_the_command_line(cli, solver):
    piles = [random.Random(solver).randint(1, 60) for _ in range(30)]
    same_as_cli(
        cli,
        lambda: gamesolver.solve("stone-game-ii", piles, solver=solver, threads=1),
        ["stone-game-ii", "--solver", solver, "--threads", "1", ",".join(map(str, piles))],
    )


def test_options_reach_the_command_line(cli):
    same_as_cli(
        cli,
        lambda: gamesolver.solve("connect-four", "4455", width=5, height=4, threads=1),
        ["connect-four", "--width", "5", "--height", "4", "--threads", "1", "4455"],
    )
    same_as_cli(
        cli,
        lambda: gamesolver.solve("dots-and-boxes", [2, 2], solver="tier", threads=2),
        ["dots-and-boxes", "--solver", "tier", "--threads", "2", "2", "2"],
    )


def test_analyze_equals_the_command_line(cli):
    same_as_cli(
        cli,
        lambda: gamesolver.analyze("stone-game-ii", [2, 7, 9, 4, 4], threads=1),
        ["analyze", "stone-game-ii", "--threads", "1", "2,7,9,4,4"],
    )
    same_as_cli(
        cli,
        lambda: gamesolver.analyze("nim", [3, 4, 5], threads=1),
        ["analyze", "nim", "--threads", "1", "3,4,5"],
    )
    same_as_cli(
        cli,
        lambda: gamesolver.analyze("tic-tac-toe", after="2,2;1,1"),
        ["analyze", "tic-tac-toe", "--after", "2,2;1,1"],
    )
    same_as_cli(
        cli,
        lambda: gamesolver.analyze("connect-four", "444444333333", threads=1),
        ["analyze", "connect-four", "--threads", "1", "444444333333"],
    )


def test_check_equals_the_command_line(cli):
    same_as_cli(cli, lambda: gamesolver.check("nim", [2, 3]), ["check", "nim", "2,3"])


def test_the_answer_and_the_stats_are_attributes():
    solved = gamesolver.solve("stone-game-ii", [2, 7, 9, 4, 4])
    assert solved.answer == 10 and solved["answer"] == 10
    assert len(solved.line) == 3 and solved.states >= 1
    with pytest.raises(AttributeError):
        solved.no_such_field
    copy = solved.to_dict()
    copy["answer"] = 0
    assert solved.answer == 10


def test_errors_are_python_exceptions_of_fitting_types():
    with pytest.raises(ValueError, match='cannot read "x"'):
        gamesolver.solve("stone-game-ii", "2,x")
    with pytest.raises(ValueError):
        gamesolver.solve("no-such-game", [1])
    with pytest.raises(ValueError):
        gamesolver.solve("connect-four", "4444444")  # a full column
    with pytest.raises(MemoryError) as budget:
        gamesolver.solve("dots-and-boxes", [3, 3], memory_limit="4M", threads=1)
    assert budget.value.kind == "memory-budget"
    with pytest.raises(TimeoutError):
        gamesolver.solve("connect-four", "", time_limit=0.05, threads=1)
    with pytest.raises(ValueError):
        gamesolver.solve("stone-game-ii", [1, True])


def interrupt_after(seconds):
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    return timer


def test_ctrl_c_stops_a_bundled_solve_promptly():
    interrupt_after(0.3)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        gamesolver.solve("connect-four", "", threads=2)  # minutes of search
    assert time.monotonic() - started < 5
    # The next solve runs as usual.
    assert gamesolver.solve("stone-game-ii", [2, 7, 9, 4, 4]).answer == 10
