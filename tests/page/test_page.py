"""The analysis page of `gamesolver serve` in a real browser (headless Chromium through
Playwright), and its JSON API under load and against malformed requests.

Run by tests/page/run.sh (which installs Chromium and Playwright); the binary is
$GAMESOLVER_BIN or the repository's debug build. Screenshots go to $PAGE_SHOTS (default
target/page-shots); docs/serve/ keeps one per game.
"""

import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHOTS = pathlib.Path(os.environ.get("PAGE_SHOTS", ROOT / "target" / "page-shots"))
BUDGET = 256 << 20  # the server's --memory-limit in these tests
TONES = {1: "win", 0: "draw", -1: "loss"}


def binary():
    given = os.environ.get("GAMESOLVER_BIN")
    if given:
        return given
    subprocess.run(["cargo", "build", "--quiet", "--bin", "gamesolver"], cwd=ROOT, check=True)
    return str(ROOT / "target" / "debug" / "gamesolver")


@pytest.fixture(scope="module")
def server():
    process = subprocess.Popen(
        [binary(), "serve", "--port", "0", "--memory-limit", str(BUDGET)],
        stdout=subprocess.PIPE,
        text=True,
    )
    first = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:\d+/", first)
    assert match, first
    yield process, match.group(0).rstrip("/")
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium, "Chromium is not installed (tests/page/run.sh installs it)"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        yield launched
        launched.close()


def analyze_cli(*args):
    """`gamesolver analyze … --json`, as the command line prints it."""
    done = subprocess.run([binary(), "analyze", "--json", *args], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def ready(page):
    page.wait_for_selector("#status[data-state=ready]", timeout=120_000)


def shown_moves(page):
    """The moves the page lists: name -> (value, best)."""
    listed = {}
    for item in page.query_selector_all("#moves li[data-move]"):
        listed[item.get_attribute("data-move")] = (
            int(item.get_attribute("data-value")),
            item.get_attribute("data-best") == "true",
        )
    return listed


def board_tones(page):
    """The board's clickable moves: name -> colour class."""
    return {
        node.get_attribute("data-move"): node.get_attribute("data-tone")
        for node in page.query_selector_all("#board [data-move]")
    }


def click_move(page, name):
    before = page.evaluate("location.search")
    page.click(f'#board [data-move="{name}"]')
    page.wait_for_function("before => location.search !== before", arg=before)
    ready(page)


def wait_played(page, moves, settle=True):
    """Waits until the page shows `moves` moves played (and, with `settle`, their analysis)."""
    page.wait_for_function(
        "moves => document.querySelector('#played').textContent.split(' ').length === moves + 1", arg=moves
    )
    if settle:
        ready(page)


def history_points(page):
    return page.eval_on_selector_all("#history circle", "dots => dots.length")


def history_finals(page):
    """The final result each point of the history plots (first player's points minus the second's)."""
    return page.eval_on_selector_all("#history circle", "dots => dots.map(d => Number(d.dataset.final))")


def history_mistakes(page):
    """The points of the history marked as mistakes, by the moves played before them."""
    return page.eval_on_selector_all(
        "#history circle", "dots => dots.flatMap((d, i) => d.dataset.mistake === 'true' ? [i] : [])"
    )


def signed(value):
    """A margin as the page writes it: +2, \u22126, 0."""
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


def final_tones(analysis):
    """Each move's colour as the page must show it: the final result it leads to for its mover."""
    sign = 1 if analysis["to_move"] == "first" else -1
    return {m["name"]: TONES[(sign * m["final_margin"] > 0) - (sign * m["final_margin"] < 0)] for m in analysis["moves"]}


def score_shown(page):
    """The score panel: each player's name and data-points."""
    return page.eval_on_selector_all(
        "#score .player", "ps => ps.map(p => [p.querySelector('.name').textContent, Number(p.dataset.points)])"
    )


def test_tic_tac_toe_from_an_address_plays_by_clicks_and_the_solver_answers(server, browser):
    _, url = server
    page = browser.new_page(viewport={"width": 1000, "height": 760})
    page.goto(f"{url}/play/tic-tac-toe?after=1,1")
    ready(page)
    expected = analyze_cli("tic-tac-toe", "--after", "1,1")
    assert shown_moves(page) == {m["name"]: (m["value"], m["best"]) for m in expected["moves"]}
    # Tic-tac-toe's values are outcomes: every move's colour is its outcome for the mover.
    assert board_tones(page) == {m["name"]: TONES[m["value"]] for m in expected["moves"]}
    assert board_tones(page) == final_tones(expected)
    assert page.text_content("#status").startswith("O to move. With perfect play: a draw")
    # Remoteness: each losing move says how long O lasts, as the command line does.
    chips = page.eval_on_selector_all("#moves li[data-move]", "ls => ls.map(l => [l.dataset.move, l.querySelector('.value').textContent])")
    words = {m["name"]: ("W" if m["value"] > 0 else "L" if m["value"] < 0 else "D") + (str(m["remoteness"]) if m["value"] else "") for m in expected["moves"]}
    assert dict(chips) == words and any(m["remoteness"] for m in expected["moves"])
    # A mistake by O (a corner is forced after X's corner... an edge loses), then the solver answers.
    loser = next(m["name"] for m in expected["moves"] if m["value"] < 0)
    click_move(page, loser)
    assert "after=1%2C1%3B" in page.evaluate("location.search") or "after=1,1;" in page.evaluate("location.search")
    after = analyze_cli("tic-tac-toe", "--after", f"1,1;{loser}")
    assert shown_moves(page) == {m["name"]: (m["value"], m["best"]) for m in after["moves"]}
    assert after["value"] == 1 and page.text_content("#status").startswith(f"X to move. With perfect play: X wins in {after['remoteness']} moves")
    page.click("#solver-move")
    wait_played(page, 3)
    best = next(m["name"] for m in after["moves"] if m["best"])
    assert page.text_content("#played") == f"Played: 1,1 {loser} {best}"
    assert history_points(page) == 4
    # O's mistake turned a draw into X's win: one step, marked, and flat before and after it.
    assert history_finals(page) == [0, 0, 1, 1] and history_mistakes(page) == [2]
    page.screenshot(path=str(SHOTS / "tic-tac-toe.png"))
    # Undo takes back the solver's move; redo plays it again.
    page.click("#undo")
    wait_played(page, 2)
    assert shown_moves(page) == {m["name"]: (m["value"], m["best"]) for m in after["moves"]}
    page.click("#redo")
    wait_played(page, 3, settle=False)
    page.close()


def test_connect_four_columns_are_scored_as_the_command_line_scores_them(server, browser):
    _, url = server
    position = "4453162524174"  # 13 stones: solved in a moment even by a debug build
    page = browser.new_page(viewport={"width": 1000, "height": 760})
    page.goto(f"{url}/play/connect-four?values={position}")
    ready(page)
    # Connect Four answers as every game does: each column a move by name, its value the score.
    expected = analyze_cli("connect-four", "--", position)
    report = json.loads(subprocess.run([binary(), "connect-four", "--analyze", "--json", "--", position], capture_output=True, text=True, check=True).stdout)
    scores = {str(m["column"]): m["score"] for m in report["analysis"] if m["score"] is not None}
    assert {m["name"]: m["value"] for m in expected["moves"]} == scores
    assert {name: value for name, (value, _) in shown_moves(page).items()} == scores
    assert board_tones(page) == {c: TONES[(s > 0) - (s < 0)] for c, s in scores.items()}
    # The chips say how many moves are left, as for any game won or lost.
    chips = page.eval_on_selector_all("#moves li[data-move]", "ls => ls.map(l => [l.dataset.move, l.querySelector('.value').textContent])")
    assert dict(chips) == {m["name"]: ("W" if m["value"] > 0 else "L" if m["value"] < 0 else "D") + (str(m["remoteness"]) if m["value"] else "") for m in expected["moves"]}
    # 13 stones: O is to move, the first player from this position.
    assert expected["players"] == ["O", "X"] and page.text_content("#status").startswith("O to move.")
    # Play the best column by clicking, then let the solver play the other side.
    best = max(scores, key=lambda c: scores[c])
    click_move(page, best)
    assert f"values={position}" in page.evaluate("location.search") and "after=" + best in page.evaluate("location.search")
    after = analyze_cli("connect-four", "--after", best, "--", position)
    appended = analyze_cli("connect-four", "--", position + best)
    valued = lambda analysis: [(m["name"], m["value"], m["remoteness"]) for m in analysis["moves"]]
    assert valued(after) == valued(appended) and after["value"] == appended["value"]
    assert {n: v for n, (v, _) in shown_moves(page).items()} == {m["name"]: m["value"] for m in after["moves"]}
    assert after["value"] == -scores[best]
    assert page.text_content("#status").startswith("X to move.")
    page.select_option("#side", "second")  # the solver plays X, the side to move now
    wait_played(page, 2)
    answer = page.text_content("#played").split()[2]
    assert next(m for m in after["moves"] if m["name"] == answer)["best"], "the solver plays a best column"
    page.screenshot(path=str(SHOTS / "connect-four.png"))
    # Undo takes back the solver's column (and hands the side back to the person).
    page.click("#undo")
    wait_played(page, 1)
    assert {n: v for n, (v, _) in shown_moves(page).items()} == {m["name"]: m["value"] for m in after["moves"]}
    assert page.eval_on_selector("#side", "s => s.value") == "none"
    # Another board from the form: 5 wide, 4 high, its columns as the command line scores them.
    page.fill("#values", "33")
    page.fill("#width", "5")
    page.fill("#height", "4")
    page.click("#setup button[type=submit]")
    page.wait_for_function("() => location.search.includes('width=5')")
    ready(page)
    small = analyze_cli("connect-four", "--width", "5", "--height", "4", "--", "33")
    assert {n: v for n, (v, _) in shown_moves(page).items()} == {m["name"]: m["value"] for m in small["moves"]}
    assert len(page.query_selector_all("#board circle")) == 20
    assert page.eval_on_selector_all("#board circle[data-mark=X]", "c => c.length") == 1
    page.close()


def test_dots_and_boxes_lines_are_coloured_and_played(server, browser):
    _, url = server
    page = browser.new_page(viewport={"width": 1000, "height": 760})
    page.goto(f"{url}/play/dots-and-boxes?values=2%202&after=0,0-0,1;1,0-1,1")
    ready(page)
    expected = analyze_cli("dots-and-boxes", "--after", "0,0-0,1;1,0-1,1", "--", "2", "2")
    assert shown_moves(page) == {m["name"]: (m["value"], m["best"]) for m in expected["moves"]}
    # A score game: each line coloured by the final result it leads to for its player.
    tones = final_tones(expected)
    assert board_tones(page) == tones and len(set(tones.values())) > 1
    assert len(page.query_selector_all("#board line[stroke='#222']")) == 2  # the lines drawn
    assert score_shown(page) == [["Alice", 0], ["Bob", 0]]
    # Close the top-left box: the same player moves again (keeps_turn).
    closing = next(m for m in expected["moves"] if m["boxes"] == 0 and m["name"] in ("0,0-1,0", "0,1-1,1"))
    click_move(page, closing["name"])
    click_move(page, "0,1-1,1" if closing["name"] == "0,0-1,0" else "0,0-1,0")
    played = page.text_content("#played")
    assert played.count(" ") == 4, played
    status = page.text_content("#status")
    # The fourth line closed the box: Bob, who drew it, owns it, scores 1 and moves again.
    now = analyze_cli("dots-and-boxes", "--after", ";".join(played.split()[1:]), "--", "2", "2")
    assert now["to_move"] == "second" and now["points"] == [0, 1]
    assert status == f"Bob to move. With perfect play: {now['result']}.", status
    owners = page.eval_on_selector_all("#board rect[data-owner]", "rs => rs.map(r => r.dataset.owner)")
    assert owners == ["Bob"], owners
    assert score_shown(page) == [["Alice", 0], ["Bob", 1]]
    assert board_tones(page) == final_tones(now)
    page.screenshot(path=str(SHOTS / "dots-and-boxes.png"))
    # Undo twice: back at the address's position, with its moves and colours, and no owner.
    for moves in (3, 2):
        page.click("#undo")
        wait_played(page, moves)
    assert board_tones(page) == tones
    assert shown_moves(page) == {m["name"]: (m["value"], m["best"]) for m in expected["moves"]}
    assert page.query_selector_all("#board rect[data-owner]") == []
    page.close()


def test_a_stone_game_plays_its_piles(server, browser):
    _, url = server
    page = browser.new_page(viewport={"width": 1000, "height": 760})
    page.goto(f"{url}/play/stone-game-ii?values=2,7,9,4,4")
    ready(page)
    expected = analyze_cli("stone-game-ii", "--", "2,7,9,4,4")
    assert shown_moves(page) == {m["name"]: (m["value"], m["best"]) for m in expected["moves"]}
    assert len(page.query_selector_all(".pile")) == 5
    # Each move says what it takes and what M becomes, in the game's words.
    buttons = page.eval_on_selector_all("#board button", "bs => bs.map(b => b.textContent)")
    assert buttons == [f"{m['words'][0].upper()}{m['words'][1:]}: {signed(m['final_margin'])}" for m in expected["moves"]]
    assert "M stays 1" in buttons[0]
    # Along the optimal line (the solver moves for both): the history stays flat at the final
    # result, and the end says who got what.
    for moves in (1, 2, 3):
        page.click("#solver-move")
        wait_played(page, moves)
    assert history_finals(page) == [-6, -6, -6, -6] and history_mistakes(page) == []
    assert page.text_content("#status") == "Game over. Alice 10, Bob 16: Bob wins by 6."
    assert score_shown(page) == [["Alice", 10], ["Bob", 16]]
    assert page.query_selector_all("#board .rule") == []  # no "take the next …" once over
    assert page.is_disabled("#solver-move") and page.is_enabled("#undo") and page.is_disabled("#redo")
    page.screenshot(path=str(SHOTS / "stone-game-ii-end.png"))
    # Back two moves, and Bob errs: the history steps at his move and marks it.
    for moves in (2, 1):
        page.click("#undo")
        wait_played(page, moves)
    assert page.is_enabled("#redo")
    after = analyze_cli("stone-game-ii", "--after", page.text_content("#played").split()[1], "--", "2,7,9,4,4")
    mistake = next(m for m in after["moves"] if not m["best"])
    click_move(page, mistake["name"])
    finals = history_finals(page)
    assert finals[:2] == [-6, -6] and finals[2] == mistake["final_margin"] != -6, finals
    assert history_mistakes(page) == [2]
    # Alice's moves now: coloured by where they end, the points so far included.
    now = analyze_cli("stone-game-ii", "--after", ";".join(page.text_content("#played").split()[1:]), "--", "2,7,9,4,4")
    assert board_tones(page) == final_tones(now)
    page.screenshot(path=str(SHOTS / "stone-game-ii.png"))
    page.close()


def test_kayles_a_game_in_one_file_is_drawn_and_played_with_no_page_code(server, browser):
    _, url = server
    page = browser.new_page(viewport={"width": 1000, "height": 760})
    page.goto(f"{url}/")
    page.wait_for_selector("#games li a")
    page.click("text=kayles")  # its link carries the registry's example values
    ready(page)
    expected = analyze_cli("kayles", "--", "3 4")
    assert "values=3+4" in page.evaluate("location.search") or "values=3%204" in page.evaluate("location.search")
    assert shown_moves(page) == {m["name"]: (m["value"], m["best"]) for m in expected["moves"]}
    # A click on a pin knocks it down; the page follows the analysis's grid.
    single = next(m["name"] for m in expected["moves"] if "-" not in m["name"])
    click_move(page, single)
    cells = page.eval_on_selector_all("#board text", "t => t.map(x => x.textContent)")
    assert "".join(c for c in cells if c in "|.").count("|") == 6
    page.screenshot(path=str(SHOTS / "kayles.png"))
    page.close()


def test_hex_is_drawn_as_hexagons_in_a_rhombus_and_played_by_clicks(server, browser):
    _, url = server
    page = browser.new_page(viewport={"width": 1000, "height": 760})
    page.goto(f"{url}/play/hex?values=3&at=a1")
    ready(page)
    expected = analyze_cli("hex", "3", "--at", "a1")
    assert shown_moves(page) == {m["name"]: (m["value"], m["best"]) for m in expected["moves"]}
    # Nine hexagons, each a cell named as benzene names it; row 2 starts half a cell right.
    assert page.eval_on_selector_all("#board polygon", "p => p.length") == 9
    assert board_tones(page) == {m["name"]: TONES[m["value"]] for m in expected["moves"]}
    def left(name):
        return page.eval_on_selector(f'#board [data-move="{name}"]', "p => p.getBBox().x")

    # A row down is half a cell right: b2 is a whole cell right of a2, a3 half of one.
    cell = left("b2") - left("a2")
    assert cell > 0 and abs((left("a3") - left("a2")) - cell / 2) < 1
    best = next(m["name"] for m in expected["moves"] if m["best"])
    click_move(page, best)
    marks = page.eval_on_selector_all("#board text", "t => t.map(x => x.textContent)")
    assert marks.count("B") == 1 and marks.count("W") == 1
    page.screenshot(path=str(SHOTS / "hex.png"))
    page.close()


def test_quixo_is_played_from_a_tier_file_with_no_solve(browser, tmp_path):
    """`serve --load FILE`: the page plays Quixo from a saved tier file; a file cut before the
    start's tier shows the page an error, so the answers came from the file."""
    whole, cut = tmp_path / "quixo3.tiers", tmp_path / "cut.tiers"
    subprocess.run([binary(), "quixo", "3", "--save", str(whole)], capture_output=True, check=True)
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])

    def serving(file):
        process = subprocess.Popen([binary(), "serve", "--port", "0", "--load", str(file)], stdout=subprocess.PIPE, text=True)
        match = re.search(r"http://127\.0\.0\.1:\d+/", process.stdout.readline())
        assert match
        return process, match.group(0).rstrip("/")

    process, url = serving(whole)
    try:
        page = browser.new_page(viewport={"width": 1000, "height": 760})
        page.goto(f"{url}/play/quixo?values=3")
        ready(page)
        expected = analyze_cli("quixo", "3")
        assert shown_moves(page) == {m["name"]: (m["value"], m["best"]) for m in expected["moves"]}
        assert page.text_content("#status").startswith("X to move. With perfect play: X wins in 7")
        # A move from the list, then the solver's reply: each position answered from the file.
        page.click('#moves li[data-move="1R"]')
        wait_played(page, 1)
        after = analyze_cli("quixo", "3", "--after", "1R")
        assert shown_moves(page) == {m["name"]: (m["value"], m["best"]) for m in after["moves"]}
        page.click("#solver-move")
        wait_played(page, 2)
        page.screenshot(path=str(SHOTS / "quixo.png"))
        page.close()
    finally:
        process.terminate()
        process.wait(timeout=10)
    process, url = serving(cut)
    try:
        page = browser.new_page()
        page.goto(f"{url}/play/quixo?values=3")
        page.wait_for_selector("#status[data-state=error]")
        assert "holds no value" in page.text_content("#error")
        page.close()
    finally:
        process.terminate()
        process.wait(timeout=10)


def chance_moves(page):
    """The moves a game with chance lists: name -> (value, best, probability)."""
    listed = {}
    for item in page.query_selector_all("#moves li[data-move]"):
        listed[item.get_attribute("data-move")] = (
            float(item.get_attribute("data-value")),
            item.get_attribute("data-best") == "true",
            item.get_attribute("data-probability"),
        )
    return listed


def test_a_game_with_dice_draws_the_dice_its_winning_chances_and_their_history(server, browser):
    _, url = server
    page = browser.new_page(viewport={"width": 1000, "height": 760})
    page.goto(f"{url}/play/piglet?values=2")
    ready(page)
    expected = analyze_cli("piglet", "2")
    # Every move with the command line's winning chance, the best starred, as a percentage.
    listed = chance_moves(page)
    assert listed == {m["name"]: (m["value"], m["best"], None) for m in expected["moves"]}
    labels = page.eval_on_selector_all("#moves li span.value", "s => s.map(x => x.textContent)")
    assert "57.1%" in labels
    assert "4/7" in page.text_content("#status")
    # The flip puts the coin in the air: each outcome drawn as a coin to click, with its chance.
    page.click('#moves li[data-move="flip"]')
    page.wait_for_selector("#roll")
    ready(page)
    rolling = analyze_cli("piglet", "2", "--after", "flip")
    outcomes = page.eval_on_selector_all("#board .outcome", "o => o.map(x => x.dataset.move)")
    assert sorted(outcomes) == sorted(m["name"] for m in rolling["moves"])
    assert {name: probability for name, (_, _, probability) in chance_moves(page).items()} == {
        "tails": "1/2",
        "heads": "1/2",
    }
    # The tool rolls: one outcome is played, by its probability.
    before = page.evaluate("location.search")
    page.click("#roll")
    page.wait_for_function("before => location.search !== before", arg=before)
    ready(page)
    played = page.text_content("#played")
    assert played.startswith("Played: flip ") and played.split()[-1] in ("heads", "tails"), played
    # The history plots the first player's winning chance after each move and roll.
    firsts = page.eval_on_selector_all("#history circle", "d => d.map(x => Number(x.dataset.first))")
    assert len(firsts) == 3 and all(0 <= f <= 1 for f in firsts), firsts
    assert abs(firsts[0] - 4 / 7) < 1e-12
    # Pig: dice with pips; the screenshot is docs/serve's.
    page.goto(f"{url}/play/pig?values=20&after=roll")
    ready(page)
    assert page.eval_on_selector_all("#board .outcome", "o => o.length") == 6
    assert page.eval_on_selector_all("#board circle[data-pip]", "p => p.length") == 21
    page.screenshot(path=str(SHOTS / "pig.png"))
    page.close()


def test_a_cancelled_move_keeps_the_board_and_goes_to_redo(server, browser):
    _, url = server
    page = browser.new_page(viewport={"width": 1000, "height": 760})
    page.goto(f"{url}/play/nim?values=3,4,5")
    ready(page)
    before = shown_moves(page)
    # The next analysis hangs until Cancel is pressed, then is answered as a stopped solve is.
    held = {}

    def hold(route):
        if "after" in (route.request.post_data or ""):
            held["route"] = route
        else:
            route.continue_()

    page.route("**/api/analyze", hold)
    page.click('#board [data-move="1,1"]')
    page.wait_for_function("() => document.querySelector('#status').dataset.state === 'loading'")
    # While it solves, nothing that would start another solve is enabled.
    assert page.is_disabled("#undo") and page.is_disabled("#redo") and page.is_disabled("#solver-move")
    page.wait_for_selector("#busy:not([hidden])")
    assert "route" in held
    held["route"].fulfill(status=409, content_type="application/json", body=json.dumps({"error": "stopped", "kind": "stopped"}))
    page.wait_for_selector("#status[data-state=error]")
    page.unroute("**/api/analyze")
    assert page.text_content("#error") == "stopped"
    # The position before stays, with its moves; the move asked for waits in Redo.
    assert shown_moves(page) == before and len(page.query_selector_all("#board [data-move]")) == 12
    assert page.text_content("#played") == "" and "after" not in page.evaluate("location.search")
    assert page.is_disabled("#undo") and page.is_enabled("#redo") and page.is_enabled("#solver-move")
    page.click("#redo")
    wait_played(page, 1)
    assert page.text_content("#played") == "Played: 1,1"
    page.close()


def test_a_bad_address_shows_the_error_on_the_page(server, browser):
    _, url = server
    page = browser.new_page()
    page.goto(f"{url}/play/nim?values=3,x,5")
    page.wait_for_selector("#status[data-state=error]")
    assert "cannot read" in page.text_content("#error")
    page.goto(f"{url}/play/no-such-game")
    page.wait_for_selector("#status[data-state=error]")
    assert "no game is named" in page.text_content("#error")
    page.goto(url + "/")
    page.wait_for_selector("#games li a")
    assert len(page.query_selector_all("#games li")) >= 10
    page.screenshot(path=str(SHOTS / "index.png"))
    page.close()


def request(url, body=None, method=None):
    data = body if body is None or isinstance(body, bytes) else json.dumps(body).encode()
    asked = urllib.request.Request(url, data=data, method=method or ("POST" if data is not None else "GET"))
    try:
        with urllib.request.urlopen(asked, timeout=120) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read()


def huge_body_status(url, size=10 << 20):
    """The status of a POST of `size` bytes: the server answers (413) before it has read them
    and closes, so the body is sent until the connection refuses more, then the answer read."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as connection:
        connection.sendall(
            f"POST /api/analyze HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {size}\r\n\r\n".encode()
        )
        chunk = b"x" * (1 << 16)
        try:
            for _ in range(size // len(chunk)):
                connection.sendall(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = b""
        try:
            while b"\r\n" not in answer:
                more = connection.recv(4096)
                if not more:
                    break
                answer += more
        except ConnectionResetError:
            pass
    return int(answer.split()[1]) if answer else None


def resident_bytes(pid):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


# The load test's clients and how long they keep asking (LOAD_SECONDS to change it).
CLIENTS = 64
LOAD_SECONDS = float(os.environ.get("LOAD_SECONDS", "30"))


def test_64_clients_for_30_seconds_with_a_quarter_bad_get_every_good_answer_right(server):
    """64 clients at once for 30 s, one request in four bad (not JSON, an unknown game, a
    position that is not one, an oversized body, a path that is none): every good request is
    answered with the right value, every bad one with a 4xx, and the server's memory stays
    within its budget (the peak is printed: docs/performance.md)."""
    process, url = server
    bad = [
        (f"{url}/api/analyze", b"{not json", 400),
        (f"{url}/api/analyze", {"game": "no-such-game"}, 404),
        (f"{url}/api/analyze", {"game": "nim", "values": "1,2", "after": "9,9"}, 400),
        (f"{url}/api/analyze", {"game": "tic-tac-toe", "at": "XXX/OOO/..."}, 400),
        (f"{url}/api/analyze", "huge", 413),
        (f"{url}/api/analyze?game=nim&values=1,2&width=99999999999", None, 400),
        (f"{url}/api/nothing", None, 404),
    ]
    tally = {"good": 0, "bad": 0, "wrong": []}
    peak = [0]
    lock = threading.Lock()
    deadline = time.monotonic() + LOAD_SECONDS

    def client(k):
        n = 0
        while time.monotonic() < deadline:
            n += 1
            if (k + n) % 4 == 0:
                target, body, expected = bad[(k * 7 + n) % len(bad)]
                if body == "huge":
                    status, answer = huge_body_status(url, 1 << 20), b""
                else:
                    status, answer = request(target, body)
                ok = status == expected
                kind = "bad"
            else:
                a, b, c = 1 + (k + n) % 7, 1 + (k * 3 + n) % 6, 1 + (k + 5 * n) % 5
                status, answer = request(f"{url}/api/analyze", {"game": "nim", "values": f"{a},{b},{c}"})
                ok = status == 200 and json.loads(answer)["value"] == (1 if a ^ b ^ c else -1)
                kind = "good"
            with lock:
                tally[kind] += 1
                if not ok:
                    tally["wrong"].append((kind, status, answer[:200]))
                peak[0] = max(peak[0], resident_bytes(process.pid))

    threads = [threading.Thread(target=client, args=(k,)) for k in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=LOAD_SECONDS + 300)
    assert not any(thread.is_alive() for thread in threads)
    print(f"load: {CLIENTS} clients, {LOAD_SECONDS:.0f} s: {tally['good']} good and {tally['bad']} bad "
          f"requests, peak resident {peak[0] / (1 << 20):.1f} MiB")
    assert not tally["wrong"], tally["wrong"][:5]
    assert tally["good"] > 0 and tally["bad"] > 0
    assert peak[0] < BUDGET + (64 << 20), peak[0]
    # Still serving.
    assert request(f"{url}/api/analyze?game=nim&values=1,2")[0] == 200


def test_malformed_requests_get_4xx(server):
    _, url = server
    cases = [
        (f"{url}/api/analyze", b"{not json", 400),
        (f"{url}/api/analyze", {"game": "nim", "values": "9" * 40}, 400),
        (f"{url}/api/analyze", {"game": "nim", "values": "1,2", "extra": 1}, 400),
        (f"{url}/api/analyze", {"game": "no-such-game"}, 404),
        (f"{url}/api/analyze", {"game": "nim", "values": "1,2", "after": "9,9"}, 400),
        (f"{url}/api/analyze", {"game": "tic-tac-toe", "at": "XXX/OOO/..."}, 400),
        (f"{url}/api/analyze?game=nim&values=1,2&width=99999999999", None, 400),
        (f"{url}/api/nothing", None, 404),
    ]
    for target, body, status in cases:
        got, answer = request(target, body)
        assert got == status, (target, str(body)[:60], got, answer[:200])
        if target.startswith(f"{url}/api/analyze"):
            assert "error" in json.loads(answer)
    assert huge_body_status(url) == 413
    # Still serving after all of that.
    assert request(f"{url}/api/analyze?game=nim&values=1,2")[0] == 200


def test_a_long_solve_shows_progress_and_is_cancelled(server):
    _, url = server
    answered = {}

    def long_solve():
        answered["reply"] = request(f"{url}/api/analyze", {"game": "connect-four", "values": "4"})

    solving = threading.Thread(target=long_solve)
    solving.start()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        progress = json.loads(request(f"{url}/api/progress")[1])
        if progress["solving"] and progress["seconds"] > 0.5:
            break
        time.sleep(0.1)
    assert progress["solving"], progress
    assert json.loads(request(f"{url}/api/cancel", b"")[1]) == {"cancelled": True}
    solving.join(timeout=60)
    status, body = answered["reply"]
    assert status == 409 and json.loads(body)["kind"] == "stopped", (status, body)
    # The next solve runs as usual.
    assert request(f"{url}/api/analyze?game=nim&values=2,2")[0] == 200


def test_a_request_whose_client_leaves_still_holds_the_solver_until_its_solve_ends(server):
    _, url = server
    abandoned = urllib.request.Request(
        f"{url}/api/analyze", data=json.dumps({"game": "connect-four", "values": "3"}).encode()
    )
    with pytest.raises(Exception):
        urllib.request.urlopen(abandoned, timeout=1)  # the client gives up and closes
    time.sleep(0.5)
    progress = json.loads(request(f"{url}/api/progress")[1])
    # Its solve goes on (one at a time: nothing else started), and it no longer counts as waiting.
    assert progress["solving"] and progress["waiting"] == 0, progress
    assert json.loads(request(f"{url}/api/cancel", b"")[1]) == {"cancelled": True}
    deadline = time.monotonic() + 60
    while json.loads(request(f"{url}/api/progress")[1])["solving"] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert request(f"{url}/api/analyze?game=nim&values=3,3")[0] == 200


@pytest.fixture(scope="module")
def user_tool_server():
    """examples/user_tool.rs, a user's own binary with its own games, serving the same page."""
    tool = os.environ.get("USER_TOOL_BIN")
    if not tool:
        subprocess.run(["cargo", "build", "--quiet", "--example", "user_tool"], cwd=ROOT, check=True)
        tool = str(ROOT / "target" / "debug" / "examples" / "user_tool")
    process = subprocess.Popen([tool, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    first = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:\d+/", first)
    assert match, first
    yield tool, match.group(0).rstrip("/")
    process.terminate()
    process.wait(timeout=10)


def test_a_users_game_is_served_through_its_presentation(user_tool_server, browser):
    tool, url = user_tool_server
    names = [game["name"] for game in json.loads(request(f"{url}/api/games")[1])["games"]]
    assert names == ["divisor-game", "flip-game", "hog", "node-kayles"]
    page = browser.new_page(viewport={"width": 1000, "height": 600})
    page.goto(f"{url}/play/flip-game?values=1%201%201%201%200%201%201%201")
    ready(page)
    analysed = subprocess.run(
        [tool, "analyze", "flip-game", "--json", "--", "1 1 1 1 0 1 1 1"], capture_output=True, text=True, check=True
    )
    expected = json.loads(analysed.stdout)
    assert shown_moves(page) == {m["name"]: (m["value"], m["best"]) for m in expected["moves"]}
    # Its view: a row of cells, each a move where a "++" starts, coloured by outcome.
    assert board_tones(page) == {m["name"]: TONES[m["value"]] for m in expected["moves"]}
    best = next(m["name"] for m in expected["moves"] if m["best"])
    click_move(page, best)
    cells = page.eval_on_selector_all("#board text", "t => t.map(x => x.textContent)")
    assert "".join(c for c in cells if c in "+-").count("-") == 3
    page.screenshot(path=str(SHOTS / "flip-game.png"))
    # A game without a picture shows its state as text.
    page.goto(f"{url}/play/divisor-game?values=12")
    ready(page)
    assert page.text_content("#board pre") == "N = 12"
    page.close()


def test_a_users_dice_game_draws_its_dice_chances_and_history(user_tool_server, browser):
    """Hog, the guide's chance game (examples/user_tool.rs): the page has no code for it."""
    tool, url = user_tool_server

    def analysed(*args):
        done = subprocess.run([tool, "analyze", "hog", "--json", *args], capture_output=True, text=True, check=True)
        return json.loads(done.stdout)

    page = browser.new_page(viewport={"width": 1000, "height": 760})
    page.goto(f"{url}/play/hog?values=12%202")
    ready(page)
    expected = analysed("12", "2")
    assert chance_moves(page) == {m["name"]: (m["value"], m["best"], None) for m in expected["moves"]}
    # Two dice in the air: every score drawn as a die, with its probability (a Pig Out, 1, or
    # a sum from 4 to 12), as the command line gives them.
    page.click('#moves li[data-move="roll 2"]')
    page.wait_for_selector("#roll")
    ready(page)
    rolling = analysed("12", "2", "--after", "roll 2")
    outcomes = page.eval_on_selector_all("#board .outcome", "o => o.map(x => x.dataset.move)")
    assert sorted(outcomes, key=int) == ["1"] + [str(s) for s in range(4, 13)]
    assert {name: (value, probability) for name, (value, _, probability) in chance_moves(page).items()} == {
        m["name"]: (m["value"], m["probability"]) for m in rolling["moves"]
    }
    assert chance_moves(page)["1"][2] == "11/36"
    page.screenshot(path=str(SHOTS / "hog.png"))
    # The tool rolls; the history plots the first player's winning chance after each step.
    before = page.evaluate("location.search")
    page.click("#roll")
    page.wait_for_function("before => location.search !== before", arg=before)
    ready(page)
    firsts = page.eval_on_selector_all("#history circle", "d => d.map(x => Number(x.dataset.first))")
    assert len(firsts) == 3 and abs(firsts[0] - expected["first_value"]) < 1e-12, firsts
    page.close()


def test_a_users_impartial_game_marks_each_move_by_the_nimber_it_leaves(user_tool_server, browser):
    """Node Kayles, the guide's impartial game (examples/user_tool.rs), drawn as a graph."""
    tool, url = user_tool_server
    values = "9 0 1 1 2 2 3 3 0 4 5 5 6 6 7 7 8"
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    page.goto(f"{url}/play/node-kayles?values={urllib.parse.quote(values)}")
    ready(page)
    analysed = subprocess.run(
        [tool, "analyze", "node-kayles", "--json", "--", values], capture_output=True, text=True, check=True
    )
    expected = json.loads(analysed.stdout)
    nimbers = {m["name"]: str(m["nimber"]) for m in expected["moves"]}
    assert len(nimbers) == 9 and "0" in nimbers.values()
    listed = page.eval_on_selector_all("#moves li", "l => l.map(x => [x.dataset.move, x.dataset.nimber])")
    assert dict(listed) == nimbers
    labels = page.eval_on_selector_all("#moves li .value", "l => l.map(x => x.textContent)")
    assert all(re.fullmatch(r"[WL]\d+ \*\d+", label) for label in labels), labels
    drawn = page.eval_on_selector_all("#board .move", "n => n.map(x => [x.dataset.move, x.dataset.nimber])")
    assert dict(drawn) == nimbers
    assert f"nimber is *{expected['nimber']}" in page.text_content("#status")
    page.screenshot(path=str(SHOTS / "node-kayles.png"))
    # A move to *0 wins: after it, every move leaves a non-zero nimber.
    best = next(name for name, nimber in nimbers.items() if nimber == "0")
    click_move(page, best)
    after = page.eval_on_selector_all("#moves li", "l => l.map(x => Number(x.dataset.nimber))")
    assert after and all(n != 0 for n in after), after
    assert "nimber is *0" in page.text_content("#status")
    page.close()
