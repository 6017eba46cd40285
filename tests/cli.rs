//! The `gamesolver` binary: answers, output shapes, and clean rejection of bad input.

#![cfg(feature = "cli")]

mod common;

use std::collections::HashMap;
use std::process::{Command, Output};

use common::*;
use proptest::prelude::*;
use serde_json::Value;

fn gamesolver(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gamesolver"));
    command.args(args);
    output_of(command, stdin)
}

/// Runs with `--json` and returns the one JSON object it printed.
fn json(args: &[&str], stdin: Option<&[u8]>) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let output = gamesolver(&all, stdin);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(stdout.lines().count(), 1, "exactly one line of JSON");
    serde_json::from_str(&stdout).expect("valid JSON")
}

/// The answer, after checking the object's shape and that its line realises the answer.
fn answer(report: &Value) -> i64 {
    for key in ["game", "n", "answer", "solver", "states", "seconds", "line"] {
        assert!(report.get(key).is_some(), "missing {key}: {report}");
    }
    assert!(report["seconds"].as_f64().unwrap() >= 0.0);
    assert!(report["states"].as_u64().is_some());
    let line = report["line"].as_array().unwrap();
    let side = |entry: &Value| if entry["player"] == "Alice" { 1 } else { -1 };
    let answer = report["answer"].as_i64().unwrap();
    match report["game"].as_str().unwrap() {
        "stone-game-ii" => {
            let alice: i64 = line
                .iter()
                .filter(|entry| side(entry) == 1)
                .map(|entry| entry["stones"].as_i64().unwrap())
                .sum();
            assert_eq!(alice, answer, "Alice's takes add up to the answer");
            let piles: u64 = line
                .iter()
                .map(|entry| entry["piles"].as_u64().unwrap())
                .sum();
            assert_eq!(
                piles,
                report["n"].as_u64().unwrap(),
                "every pile is taken once"
            );
        }
        "stone-game-viii" => {
            let margin: i64 = line
                .iter()
                .map(|entry| side(entry) * entry["gain"].as_i64().unwrap())
                .sum();
            assert_eq!(margin, answer, "the line's score difference is the answer");
            let removed: u64 = line
                .iter()
                .map(|entry| entry["stones"].as_u64().unwrap() - 1)
                .sum();
            assert_eq!(
                removed + 1,
                report["n"].as_u64().unwrap(),
                "play ends with one stone"
            );
        }
        other => panic!("not a stone game with a numeric answer: {other}"),
    }
    answer
}

/// The common JSON shape of every game's report; returns the `answer` as JSON.
fn shape(report: &Value) -> Value {
    for key in [
        "game", "n", "answer", "value", "solver", "states", "seconds", "line",
    ] {
        assert!(report.get(key).is_some(), "missing {key}: {report}");
    }
    for entry in report["line"].as_array().unwrap() {
        assert!(entry["player"].is_string(), "{entry}");
    }
    report["answer"].clone()
}

#[test]
fn every_bundled_game_answers_in_the_same_shape() {
    let cases: Vec<(Vec<&str>, Value)> = vec![
        (vec!["stone-game", "5,3,4,5"], Value::from("Alice")),
        (vec!["stone-game", "1,5,1"], Value::from("Bob")),
        (vec!["stone-game-iii", "1,2,3,7"], Value::from("Bob")),
        (vec!["stone-game-iii", "1,2,3,-9"], Value::from("Alice")),
        (vec!["stone-game-iii", "1,2,3,6"], Value::from("Tie")),
        (vec!["stone-game-vii", "5,3,1,4,2"], Value::from(6)),
        (
            vec!["stone-game-vii", "7,90,5,1,100,10,10,2"],
            Value::from(122),
        ),
        (vec!["nim", "3", "4", "5"], Value::from("Alice")),
        (vec!["nim", "1,2,3"], Value::from("Bob")),
        (vec!["tic-tac-toe"], Value::from("Draw")),
        (vec!["dots-and-boxes", "1", "1"], Value::from(-1)),
        (vec!["stone-game-ii", "2,7,9,4,4"], Value::from(10)),
        (vec!["stone-game-viii", "-1,2,-3,4,-5"], Value::from(5)),
        (vec!["hex", "3"], Value::from("Black")),
        (vec!["mnk", "4", "3", "3"], Value::from("Black")),
        (vec!["mnk", "3", "3", "3"], Value::from("Draw")),
        // Solved from a position: after Black's corner a1, White (to move) wins, after the
        // centre b2 Black does; k in a row's blocked lines still draw.
        (vec!["hex", "3", "--at", "a1"], Value::from("White")),
        (vec!["hex", "3", "--at", "b2"], Value::from("Black")),
        (
            vec!["mnk", "3", "3", "3", "--at", "b2,a1"],
            Value::from("Draw"),
        ),
        (
            vec!["mnk", "3", "3", "3", "--at", "a1,b2,a2"],
            Value::from("Draw"),
        ),
    ];
    for (args, expected) in cases {
        let report = json(&args, None);
        assert_eq!(shape(&report), expected, "{args:?}");
        assert_eq!(report["game"], args[0]);
        for solver in ["engine", "parallel", "fast"] {
            let mut with = args.clone();
            with.extend(["--solver", solver]);
            assert_eq!(shape(&json(&with, None)), expected, "{with:?}");
        }
        // The pruning engine gives the same answer, value and line as the exhaustive one.
        let mut engine = args.clone();
        engine.extend(["--solver", "engine"]);
        let engine = json(&engine, None);
        for threads in ["1", "3"] {
            let mut with = args.clone();
            with.extend(["--solver", "alphabeta", "--threads", threads]);
            let pruned = json(&with, None);
            assert_eq!(pruned["solver"], "alphabeta");
            for key in ["answer", "value", "line"] {
                // An outcome game's engine line is the swift one (with its remoteness); the
                // pruning engine's is the first optimal move at each state.
                if key == "line" && engine.get("remoteness").is_some() {
                    continue;
                }
                assert_eq!(pruned[key], engine[key], "{with:?}: {key}");
            }
        }
    }
    // Nim's line starts with a winning move: it leaves heaps whose XOR is 0.
    let report = json(&["nim", "3,4,5"], None);
    let first = &report["line"][0];
    let mut heaps = [3i64, 4, 5];
    heaps[first["heap"].as_u64().unwrap() as usize - 1] -= first["take"].as_i64().unwrap();
    assert_eq!(heaps.iter().fold(0, |acc, heap| acc ^ heap), 0);
    // Tic-tac-toe's line is a full drawn game.
    assert_eq!(
        json(&["tic-tac-toe"], None)["line"]
            .as_array()
            .unwrap()
            .len(),
        9
    );
}

#[test]
fn the_checker_runs_from_the_command_line() {
    for args in [
        vec!["check", "stone-game-ii", "2,7,9,4,4,6,1"],
        vec!["check", "stone-game-viii", "-1,2,-3,4,-5"],
        vec!["check", "stone-game", "5,3,4,5"],
        vec!["check", "nim", "2,3"],
        vec!["check", "tic-tac-toe"],
        vec!["check", "dots-and-boxes", "1", "2"],
    ] {
        let mut all = args.clone();
        all.push("--json");
        let output = gamesolver(&all, None);
        assert!(output.status.success(), "{args:?}");
        let report: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(report["ok"], true, "{report}");
        assert!(report["states"].as_u64().unwrap() > 0);
        let text = String::from_utf8(gamesolver(&args, None).stdout).unwrap();
        assert!(text.contains("no violation"), "{text}");
    }
    let stderr = rejected(&["check", "stone-game-ii", "0"], None, 1);
    assert!(stderr.contains("pile 1 is 0"), "{stderr}");
}

/// Runs a command that must be rejected: one `error:` line, empty stdout, the given exit code.
fn rejected(args: &[&str], stdin: Option<&[u8]>, code: i32) -> String {
    let output = gamesolver(args, stdin);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(code), "{args:?}: {stderr}");
    assert!(output.stdout.is_empty(), "{args:?} printed to stdout");
    // clap's own errors come in full (the problem, then what to do); ours are one line.
    let from_clap = stderr.ends_with("For more information, try '--help'.\n");
    assert!(
        from_clap || stderr.lines().count() == 1,
        "{args:?}: one line, got {stderr:?}"
    );
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

fn temp_file(name: &str, contents: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gamesolver-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn problem_statement_examples() {
    for (args, expected) in [
        (vec!["stone-game-ii", "2,7,9,4,4"], 10),
        (vec!["stone-game-ii", "1", "2", "3", "4", "5", "100"], 104),
        (vec!["stone-game-viii", "-1,2,-3,4,-5"], 5),
        (vec!["stone-game-viii", "7,-6,5,10,5,-2,-6"], 13),
        (vec!["stone-game-viii", "-10", "-12"], -22),
        (
            vec!["stone-game-viii", "--solver", "engine", "-10,", "-12"],
            -22,
        ),
    ] {
        // The default (auto) runs the specialised solver; every solver gives the answer.
        let report = json(&args, None);
        assert_eq!(answer(&report), expected, "{args:?}");
        assert_eq!(report["game"], args[0]);
        let explicit = args.contains(&"--solver");
        assert_eq!(report["solver"], if explicit { "engine" } else { "fast" });
        for solver in ["fast", "engine", "parallel"] {
            let mut with = args.clone();
            if !explicit {
                with.extend(["--solver", solver]);
                let report = json(&with, None);
                assert_eq!(answer(&report), expected, "{with:?}");
                assert_eq!(report["solver"], solver);
            }
        }
    }
}

#[test]
fn every_solver_and_thread_count_gives_the_same_answer_and_line() {
    let piles = random_values(700, 3, 1, 10_000);
    let arg = piles
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let expected = stone_game_ii_dp(&piles);
    let mut lines = Vec::new();
    for args in [
        vec!["--solver", "engine"],
        vec!["--solver", "parallel", "--threads", "1"],
        vec!["--solver", "parallel", "--threads", "2"],
        vec!["--solver", "parallel", "--threads", "5"],
        vec!["--solver", "auto", "--threads", "2"],
        vec![],
    ] {
        let mut all = vec!["stone-game-ii", arg.as_str()];
        all.extend(&args);
        let report = json(&all, None);
        assert_eq!(answer(&report), expected, "{args:?}");
        lines.push(report["line"].clone());
        // A pool of one thread is the sequential engine, and says so.
        if args.contains(&"parallel") && !args.contains(&"1") {
            assert_eq!(report["solver"], "parallel");
            assert_eq!(report["table"], "atomic-dense");
        }
        if args.contains(&"1") {
            assert_eq!(report["solver"], "engine");
            assert_eq!(report["threads"], 1);
        }
        if args.contains(&"5") {
            assert_eq!(report["threads"], 5);
        }
    }
    assert!(
        lines.windows(2).all(|pair| pair[0] == pair[1]),
        "the optimal line is the same"
    );
    let report = json(
        &["stone-game-viii", "-1,2,-3,4,-5", "--solver", "parallel"],
        None,
    );
    assert_eq!(answer(&report), 5);
}

#[test]
fn the_tier_solver_agrees_with_the_engine_from_the_command_line() {
    for size in [["1", "2"], ["2", "2"], ["2", "3"]] {
        let engine = json(
            &["dots-and-boxes", size[0], size[1], "--solver", "engine"],
            None,
        );
        for threads in ["1", "2", "3"] {
            let args = [
                "dots-and-boxes",
                size[0],
                size[1],
                "--solver",
                "tier",
                "--threads",
                threads,
            ];
            let tiers = json(&args, None);
            assert_eq!(tiers["value"], engine["value"], "{args:?}");
            assert_eq!(tiers["solver"], "tier");
            assert_eq!(tiers["table"], "8-bit tiers by dense index");
            // Both lines take the first best move in the same order of moves.
            assert_eq!(tiers["line"], engine["line"], "{args:?}");
        }
        // Auto picks the tier solver for Dots and Boxes.
        let auto = json(&["dots-and-boxes", size[0], size[1]], None);
        assert_eq!(auto["solver"], "tier");
    }
    // Under a budget that holds the tiers still needed but not all of them: the value, and a
    // note that says why there is no line.
    let args = [
        "dots-and-boxes",
        "2",
        "3",
        "--memory-limit",
        "60K",
        "--threads",
        "1",
    ];
    let text = gamesolver(&args, None);
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(text.status.success(), "{stdout}");
    assert!(
        stdout.contains("No line of play: it needs every tier's values"),
        "{stdout}"
    );
    if !cfg!(feature = "distributed") {
        let args = ["dots-and-boxes", "1", "2", "--solver", "distributed"];
        let message = rejected(&args, None, 2);
        assert!(message.contains("--features distributed"), "{message}");
    }
    // Connect Four on a small board, from a position.
    let board = ["connect-four", "2332", "--width", "4", "--height", "4"];
    let pruned = json(&board, None);
    let tiers = json(&[&board[..], &["--solver", "tier"]].concat(), None);
    assert_eq!(tiers["value"], pruned["value"]);
    assert_eq!(tiers["solver"], "tier");
    let message = rejected(&["nim", "1,2", "--solver", "tier"], None, 2);
    assert!(
        message.contains("nim is not layered into tiers") && message.contains("dots-and-boxes"),
        "{message}"
    );
}

#[test]
fn every_engine_gives_outcome_games_their_remoteness_and_swift_line() {
    // Nim's own plan is its nimbers, which measure the remoteness by a search of their own.
    for heaps in ["3,4,5", "1,2", "2,2", "1,5,6,2"] {
        let retrograde = json(&["nim", heaps], None);
        assert_eq!(retrograde["solver"], "nimbers");
        for solver in ["engine", "parallel"] {
            let engine = json(&["nim", heaps, "--solver", solver], None);
            assert_eq!(engine["outcome"], retrograde["outcome"], "{heaps} {solver}");
            assert_eq!(
                engine["remoteness"], retrograde["remoteness"],
                "{heaps} {solver}"
            );
            let moves = engine["line"].as_array().unwrap().len();
            assert_eq!(
                Some(moves as u64),
                engine["remoteness"].as_u64(),
                "{heaps} {solver}"
            );
        }
    }
    // Where the swift line would cost more than the solve (a heap of 65 535: every move of the
    // start valued), the engine keeps the first optimal move and claims no remoteness.
    let large = json(&["nim", "1,65535"], None);
    assert_eq!(large["value"], 1);
    assert!(large.get("remoteness").is_none(), "{large}");
}

#[test]
fn text_output_explains_the_line() {
    let output = gamesolver(&["stone-game-ii", "2,7,9,4,4"], None);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("Alice can get 10 stones (Bob 16)"), "{text}");
    assert!(
        text.contains("Bob takes piles 2-3 (16 stones; could take 1 to 2); M becomes 2"),
        "{text}"
    );
    let output = gamesolver(&["stone-game-viii", "-1,2,-3,4,-5"], None);
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("Alice's score minus Bob's is 5"), "{text}");
    assert!(
        text.contains("Alice removes the leftmost 4 stones, scoring their sum 2"),
        "{text}"
    );
}

#[test]
fn input_from_files_and_standard_input() {
    let plain = temp_file("plain.txt", b"2 7\n9,4,\n4\n");
    let array = temp_file("array.json", b"[2, 7, 9, 4, 4]\n");
    for path in [&plain, &array] {
        assert_eq!(
            answer(&json(
                &["stone-game-ii", "--input", path.to_str().unwrap()],
                None
            )),
            10
        );
    }
    assert_eq!(
        answer(&json(
            &["stone-game-viii", "--input", "-"],
            Some(b"[-10,-12]")
        )),
        -22
    );
    assert_eq!(
        answer(&json(
            &["stone-game-viii", "--input", "-"],
            Some(b"-1 2 -3 4 -5")
        )),
        5
    );
}

#[test]
fn bad_input_is_rejected_cleanly() {
    /// Arguments, standard input, exit code, and a piece of the expected message.
    type Case<'a> = (Vec<&'a str>, Option<&'a [u8]>, i32, &'a str);
    let cases: Vec<Case> = vec![
        (vec!["stone-game-ii"], None, 2, "no values given"),
        (
            vec!["hex", "12"],
            None,
            1,
            "hex takes a board side from 1 to 11, not 12",
        ),
        (vec!["hex", "3", "3"], None, 1, "hex takes one VALUE"),
        (
            vec!["mnk", "3", "3", "4"],
            None,
            1,
            "K, the stones in a row that win",
        ),
        (vec!["mnk", "17", "16", "5"], None, 1, "has 272 cells"),
        (
            vec!["analyze", "hex", "3", "--at", "a1,d1"],
            None,
            1,
            "'d1' is not a cell of this hex board",
        ),
        (
            vec!["hex", "3", "--at", "a1,d1"],
            None,
            1,
            "'d1' is not a cell of this hex board",
        ),
        (
            vec!["nim", "1", "2", "--at", "1,1"],
            None,
            1,
            "this game is solved from its start",
        ),
        (
            vec!["hex", "3", "--at", "a1", "--save", "/dev/null"],
            None,
            2,
            "with --save or --load, none does",
        ),
        (
            vec!["analyze", "hex", "3", "--at", "b2,b2"],
            None,
            1,
            "move 2 of the moves, b2, is a cell already taken",
        ),
        (
            vec!["analyze", "mnk", "4", "3", "3", "--at", "a1,a2,b1,b2,c1,d3"],
            None,
            1,
            "move 6 of the moves, d3, comes after the game was won",
        ),
        (
            vec!["stone-game-ii", "--input", "-"],
            Some(b""),
            1,
            "Stone Game II needs at least 1 pile, got 0",
        ),
        (
            vec!["stone-game-ii", "--input", "-"],
            Some(b"  \n"),
            1,
            "got 0",
        ),
        (
            vec!["stone-game-ii", "1,2,x"],
            None,
            1,
            "\"x\" (value 3, argument 1, column 5): not an integer",
        ),
        (
            vec!["stone-game-ii", "1", "2.5"],
            None,
            1,
            "\"2.5\" (value 2, argument 2, column 1)",
        ),
        (
            vec!["stone-game-ii", "3,0,1"],
            None,
            1,
            "pile 2 is 0, but piles must be positive",
        ),
        (vec!["stone-game-ii", "3", "-4"], None, 1, "pile 2 is -4"),
        (
            vec!["stone-game-viii", "5"],
            None,
            1,
            "needs at least 2 stones, got 1",
        ),
        (
            vec!["stone-game-ii", "9223372036854775807,1"],
            None,
            1,
            "overflows a 64-bit integer",
        ),
        (
            vec!["stone-game-viii", "9223372036854775807", "1"],
            None,
            1,
            "overflows a 64-bit integer",
        ),
        (
            vec!["stone-game-ii", "99999999999999999999"],
            None,
            1,
            "out of the 64-bit integer range",
        ),
        (
            vec!["stone-game-ii", "--input", "/no/such/file"],
            None,
            1,
            "cannot read /no/such/file",
        ),
        (
            vec!["stone-game-ii", "--input", "-"],
            Some(b"[1, 2"),
            1,
            "the JSON array is not closed",
        ),
        (
            vec!["stone-game-ii", "--input", "-"],
            Some(b"1\n2\n3 y"),
            1,
            "(value 4, line 3, column 3)",
        ),
        (
            vec!["stone-game-ii", "1", "--input", "-"],
            Some(b"2"),
            2,
            "not both",
        ),
        (
            vec!["stone-game-xiv", "1"],
            None,
            2,
            "invalid value 'stone-game-xiv'",
        ),
        (
            vec!["stone-game-ii", "1", "--solver", "magic"],
            None,
            2,
            "invalid value 'magic'",
        ),
        (
            vec!["stone-game-ii", "1", "--frobnicate"],
            None,
            2,
            "--frobnicate",
        ),
        (
            vec!["stone-game-ii", "1", "--memory-limit", "lots"],
            None,
            2,
            "not a size",
        ),
        (
            vec!["stone-game-ii", "1", "--threads", "0"],
            None,
            2,
            "--threads",
        ),
        (
            vec!["tic-tac-toe", "3"],
            None,
            2,
            "tic-tac-toe takes no values",
        ),
        (vec!["dots-and-boxes", "2"], None, 2, "takes two values"),
        (
            vec!["dots-and-boxes", "4", "4"],
            None,
            1,
            "tiers 20 to 21 held at once: 269128937220 states of 1 byte) needs about 250.6 GiB",
        ),
        (
            vec!["dots-and-boxes", "0", "3"],
            None,
            1,
            "1 to 12 boxes per side",
        ),
        (vec!["nim", "3", "-1"], None, 1, "heap 2 is -1"),
        (vec!["stone-game", "2", "0"], None, 1, "pile 2 is 0"),
        (
            vec!["stone-game-ii", "1", "--threads", "many"],
            None,
            2,
            "--threads",
        ),
    ];
    for (args, stdin, code, needle) in cases {
        let stderr = rejected(&args, stdin, code);
        assert!(
            stderr.contains(needle),
            "{args:?}: {stderr:?} lacks {needle:?}"
        );
    }
}

#[test]
fn too_large_for_memory_is_refused_up_front() {
    let piles = vec!["5"; 3000].join(",");
    let stderr = rejected(&["stone-game-ii", &piles, "--memory-limit", "1M"], None, 1);
    assert!(stderr.contains("memory budget is 1.0 MiB"), "{stderr}");
    // With the default budget (half of physical memory): 10⁶ piles need ~10¹¹ states.
    let many = temp_file("million-piles.txt", "1 ".repeat(1_000_000).as_bytes());
    let stderr = rejected(
        &["stone-game-ii", "--input", many.to_str().unwrap()],
        None,
        1,
    );
    assert!(stderr.contains("memory budget"), "{stderr}");
}

#[test]
fn million_stones_through_the_engine() {
    let stones = random_values(1_000_000, 12345, -10_000, 10_000);
    let text: Vec<String> = stones.iter().map(i64::to_string).collect();
    let path = temp_file("million-stones.txt", text.join("\n").as_bytes());
    let report = json(
        &[
            "stone-game-viii",
            "--solver",
            "engine",
            "--input",
            path.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(report["n"], 1_000_000);
    assert_eq!(answer(&report), stone_game_viii_closed_form(&stones));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn cli_matches_brute_force_on_random_piles(piles in prop::collection::vec(1i64..=30, 1..=10)) {
        let arg = piles.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
        prop_assert_eq!(answer(&json(&["stone-game-ii", &arg], None)), stone_game_ii_brute_force(&piles));
    }

    #[test]
    fn cli_matches_brute_force_on_random_stones(stones in prop::collection::vec(-30i64..=30, 2..=8)) {
        let args: Vec<String> = stones.iter().map(i64::to_string).collect();
        let mut all = vec!["stone-game-viii"];
        all.extend(args.iter().map(String::as_str));
        prop_assert_eq!(answer(&json(&all, None)), stone_game_viii_brute_force(&stones));
    }
}

/// Lines of a benchmark file: (position, published score).
fn benchmark_lines(file: &str, count: usize) -> Vec<(String, i64)> {
    let path = connect4_set(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    // Spread over the file, whichever set it is (the repository's 250 lines or the full 1000).
    let lines: Vec<&str> = text.lines().collect();
    let step = (lines.len() / count.max(1)).max(1);
    lines
        .into_iter()
        .step_by(step)
        .take(count)
        .map(|line| {
            let (position, score) = line.split_once(' ').unwrap();
            (position.to_string(), score.parse().unwrap())
        })
        .collect()
}

#[test]
fn connect_four_solves_and_explains_a_position() {
    for (position, score) in benchmark_lines("Test_L3_R1", 4) {
        let report = json(&["connect-four", &position, "--analyze"], None);
        assert_eq!(report["answer"], score, "{position}");
        assert_eq!(report["solver"], "alphabeta");
        assert_eq!(report["position"], position.as_str());
        let stones = position.len();
        assert_eq!(report["n"], stones);
        // Every column's score; the best is the position's; a full column has none.
        let analysis = report["analysis"].as_array().unwrap();
        assert_eq!(analysis.len(), 7);
        let best = analysis.iter().filter_map(|c| c["score"].as_i64()).max();
        assert_eq!(best, Some(score));
        // The line alternates, starting with the side to move, and its moves are legal: the
        // position followed by the line is accepted, and ends the game.
        let line = report["line"].as_array().unwrap();
        let to_move = if stones % 2 == 0 { "first" } else { "second" };
        assert_eq!(line[0]["player"], to_move);
        let played: String = line.iter().map(|e| e["column"].to_string()).collect();
        let full = format!("{position}{played}");
        let after = json(&["connect-four", &full], None);
        assert!(
            after["line"].as_array().unwrap().is_empty(),
            "{full}: the game is over"
        );
    }
    let text = String::from_utf8(gamesolver(&["connect-four", "4453"], None).stdout).unwrap();
    assert!(
        text.contains("score -2: the first player (to move) loses"),
        "{text}"
    );
    assert!(text.contains("Optimal line of play"), "{text}");
}

#[test]
fn connect_four_batch_writes_the_benchmark_format() {
    let mut lines = benchmark_lines("Test_L3_R1", 6);
    lines.extend(benchmark_lines("Test_L2_R1", 4));
    let input: String = lines.iter().map(|(p, s)| format!("{p} {s}\n")).collect();
    let expected = input.clone();
    // The benchmark file itself is valid input (the score column is ignored).
    for source in [
        vec!["connect-four", "--batch", "-"],
        vec!["connect-four", "--batch", "-", "--threads", "2"],
        vec![
            "connect-four",
            "--batch",
            "-",
            "--threads",
            "2",
            "--one-at-a-time",
        ],
    ] {
        let output = gamesolver(&source, Some(input.as_bytes()));
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert_eq!(String::from_utf8(output.stdout).unwrap(), expected);
    }
    let alone = gamesolver(&["connect-four", "--one-at-a-time"], None);
    assert!(!alone.status.success());
    let stderr = String::from_utf8(alone.stderr).unwrap();
    assert!(stderr.contains("--batch"), "{stderr}");
    let file = temp_file("batch.txt", input.as_bytes());
    let output = gamesolver(&["connect-four", "--batch", file.to_str().unwrap()], None);
    assert_eq!(String::from_utf8(output.stdout).unwrap(), expected);
    // Bad lines: named on stderr, nothing on stdout for them, the others still solved.
    let (good, score) = &lines[0];
    let mixed = format!("{good}\n448\n\n1111111\n{good}\n");
    let output = gamesolver(&["connect-four", "--batch", "-"], Some(mixed.as_bytes()));
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        format!("{good} {score}\n{good} {score}\n")
    );
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("error: line 2: move 3 (column 8)"),
        "{stderr}"
    );
    assert!(stderr.contains("error: line 3: an empty line"), "{stderr}");
    assert!(
        stderr.contains("error: line 4: move 7 (column 1): column 1 is full"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn connect_four_options_and_bad_positions() {
    // Small boards, and the exhaustive engine agreeing with the pruning one.
    let pruned = json(&["connect-four", "--width", "4", "--height", "4"], None);
    let exhaustive = json(
        &[
            "connect-four",
            "--width",
            "4",
            "--height",
            "4",
            "--solver",
            "engine",
        ],
        None,
    );
    assert_eq!(pruned["answer"], 0);
    assert_eq!(
        (&pruned["answer"], &pruned["line"]),
        (&exhaustive["answer"], &exhaustive["line"])
    );
    let message = rejected(&["connect-four", "12121212"], None, 1);
    assert!(
        message.contains("move 8 (column 2): the game was already won"),
        "{message}"
    );
    let message = rejected(
        &["connect-four", "--width", "11", "--height", "11"],
        None,
        1,
    );
    assert!(message.contains("11×11 does not fit"), "{message}");
    rejected(&["connect-four", "44", "55"], None, 2);
    rejected(&["connect-four", "--batch", "/no/such/file"], None, 1);
    rejected(&["connect-four", "--input", "x.txt"], None, 2);
    rejected(&["stone-game-ii", "1,2", "--width", "5"], None, 2);
    rejected(&["nim", "1,2", "--analyze"], None, 2);
    // A time limit stops a long solve with one line that says how far it got.
    let message = rejected(&["connect-four", "--time-limit", "300ms"], None, 1);
    assert!(message.contains("time limit of 0.3 s"), "{message}");
    rejected(&["nim", "1,2", "--time-limit", "soon"], None, 2);
    // Threads are capped (thousands of workers only cost memory, or fail to start).
    let message = rejected(
        &["nim", "1,2", "--solver", "parallel", "--threads", "5000"],
        None,
        2,
    );
    assert!(message.contains("1..=256"), "{message}");
    rejected(
        &["connect-four", "4", "--solver", "engine", "--analyze"],
        None,
        2,
    );
}

/// Under a process memory cap smaller than the budget, the budget is lowered to the cap (less
/// the program's 64 MiB), so the solve is refused up front, not aborted.
#[test]
fn a_budget_above_the_process_cap_is_lowered_to_it() {
    let piles: Vec<String> = random_values(30_000, 11, 1, 10_000)
        .iter()
        .map(i64::to_string)
        .collect();
    let input = temp_file("capped.txt", piles.join(",").as_bytes());
    let output = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 300000 && exec \"$0\" stone-game-ii --input \"$1\" --memory-limit 2G")
        .arg(env!("CARGO_BIN_EXE_gamesolver"))
        .arg(&input)
        .output()
        .expect("sh runs");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(output.stdout.is_empty());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // 300 000 KiB less 64 MiB.
    assert!(
        stderr.contains("the memory budget is 229.0 MiB"),
        "{stderr}"
    );
}

#[test]
fn clap_errors_come_in_full_and_every_error_can_be_json() {
    // clap's suggestion and possible values reach the user; no colour off a terminal.
    let message = rejected(&["stone-game-iij", "1,2"], None, 2);
    assert!(
        message.contains("[possible values: stone-game, stone-game-ii"),
        "{message}"
    );
    assert!(
        message.contains("a similar value exists: 'stone-game-ii'"),
        "{message}"
    );
    assert!(!message.contains('\u{1b}'), "{message}");
    // With --json, every error is one JSON object on one line of stderr; stdout stays empty.
    let many_piles = vec!["5"; 3000].join(",");
    for (args, code, kind) in [
        (vec!["stone-game-iij", "1,2", "--json"], 2, "usage"),
        (vec!["nim", "1,2", "--json", "--threads", "0"], 2, "usage"),
        (vec!["nim", "3,-4", "--json"], 1, "out-of-range"),
        (vec!["stone-game-ii", "1,x", "--json"], 1, "parse"),
        (vec!["nim", "1,2", "--json", "--analyze"], 2, "usage"),
        (
            vec![
                "stone-game-ii",
                &many_piles,
                "--json",
                "--memory-limit",
                "1M",
            ],
            1,
            "memory-budget",
        ),
        (vec!["check", "nim", "1,-2", "--json"], 1, "out-of-range"),
    ] {
        let output = gamesolver(&args, None);
        assert_eq!(output.status.code(), Some(code), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?} printed to stdout");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        let error: Value = serde_json::from_str(&stderr).unwrap();
        assert_eq!(error["kind"], kind, "{args:?}: {stderr}");
        assert!(error["error"].as_str().is_some_and(|text| !text.is_empty()));
    }
}

#[test]
fn check_and_completions_are_subcommands() {
    let help = gamesolver(&["check", "--help"], None);
    assert_eq!(help.status.code(), Some(0));
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(help.contains("Usage: gamesolver check"), "{help}");
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let output = gamesolver(&["completions", shell], None);
        assert_eq!(output.status.code(), Some(0), "{shell}");
        let script = String::from_utf8(output.stdout).unwrap();
        assert!(
            script.contains("memory-limit") && script.contains("check"),
            "{shell}"
        );
        // bash and zsh also complete the game's name.
        if matches!(shell, "bash" | "zsh") {
            assert!(script.contains("stone-game-viii"), "{shell}");
        }
    }
    rejected(&["completions", "tcsh"], None, 2);
}

#[test]
fn options_the_solver_cannot_use_are_warnings_and_messages_name_the_problem() {
    // A solver option that cannot apply: the run goes on, with one warning on stderr.
    for (args, says) in [
        (
            vec!["nim", "1,2", "--threads", "2", "--solver", "engine"],
            "warning: --threads 2 has no effect",
        ),
        (
            vec!["stone-game-ii", "2,7,9", "--threads", "2"],
            "the specialised solver runs on one thread",
        ),
        (
            vec!["nim", "1,2", "--solver", "fast"],
            "warning: nim has no specialised solver",
        ),
    ] {
        let output = gamesolver(&args, None);
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(output.status.success(), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    // With --json the warning is a JSON object too, and stdout keeps its one object.
    let output = gamesolver(&["nim", "1,2", "--solver", "fast", "--json"], None);
    let warning: Value = serde_json::from_slice(&output.stderr).unwrap();
    assert!(
        warning["warning"]
            .as_str()
            .unwrap()
            .contains("no specialised solver")
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["answer"], "Alice");
    // Sizes may be fractional with a unit; thread counts say what is wrong with them.
    assert_eq!(
        json(&["nim", "1,2", "--memory-limit", "1.5G"], None)["answer"],
        "Alice"
    );
    for (count, says) in [
        ("-3", "not a number of threads"),
        ("0", "cannot solve anything"),
    ] {
        let message = rejected(&["nim", "1,2", "--threads", count], None, 2);
        assert!(message.contains(says), "{message}");
    }
    // Messages in the game's own terms.
    for (args, says, not) in [
        (
            vec!["dots-and-boxes", "5", "6"],
            "5 x 6 boxes has 71 edges",
            "board of edges",
        ),
        (
            vec!["nim", "1000000,1000000,1000"],
            "more than 2^40 positions",
            "overflows",
        ),
        (vec!["stone-game-vii", "0,1"], "stone 1 is 0", "pile"),
    ] {
        let message = rejected(&args, None, 1);
        assert!(
            message.contains(says) && !message.contains(not),
            "{message}"
        );
    }
    // A game over at the start says so instead of an empty line of play.
    let output = gamesolver(&["nim", "0,0"], None);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains("No move can be played"), "{stdout}");
    assert!(!stdout.contains("Optimal line of play"), "{stdout}");
}

/// The mover's margin in Stone Game II from `piles` with `m`, by the literal rules.
fn stone_game_ii_margin(piles: &[i64], m: usize) -> i64 {
    (1..=(2 * m).min(piles.len()))
        .map(|x| piles[..x].iter().sum::<i64>() - stone_game_ii_margin(&piles[x..], m.max(x)))
        .max()
        .unwrap_or(0)
}

#[test]
fn analyze_values_every_move_at_any_position() {
    // Stone Game II: each move's value is the piles it takes minus the opponent's margin after
    // it, by brute force; best first; the position's value is the best.
    for seed in 0..12 {
        let piles = common::random_values(6 + seed as usize % 4, seed, 1, 30);
        let n = piles.len();
        let (pile, m) = (1 + seed as usize % n, 1 + seed as usize % 3);
        let values: Vec<String> = piles.iter().map(i64::to_string).collect();
        let at = format!("{pile},{m}");
        let report = json(
            &["analyze", "stone-game-ii", &values.join(","), "--at", &at],
            None,
        );
        let left = &piles[pile - 1..];
        let mut expected: Vec<i64> = (1..=(2 * m).min(left.len()))
            .map(|x| left[..x].iter().sum::<i64>() - stone_game_ii_margin(&left[x..], m.max(x)))
            .collect();
        expected.sort_by(|a, b| b.cmp(a));
        let moves = report["moves"].as_array().unwrap();
        let got: Vec<i64> = moves
            .iter()
            .map(|mv| mv["value"].as_i64().unwrap())
            .collect();
        assert_eq!(got, expected, "{piles:?} at {at}");
        assert_eq!(report["value"], expected[0]);
        for mv in moves {
            assert_eq!(mv["best"], mv["value"] == report["value"]);
        }
    }
    // Nim: a move wins (+1) exactly when it leaves heaps whose XOR is 0.
    for at in ["3,4,5", "1,4,5", "0,2,2", "3,0,1"] {
        let report = json(&["analyze", "nim", "3,4,5", "--at", at], None);
        let heaps: Vec<i64> = at.split(',').map(|h| h.parse().unwrap()).collect();
        let moves = report["moves"].as_array().unwrap();
        assert_eq!(moves.len() as i64, heaps.iter().sum::<i64>(), "{at}");
        for mv in moves {
            let mut after = heaps.clone();
            after[mv["heap"].as_u64().unwrap() as usize - 1] -= mv["take"].as_i64().unwrap();
            let wins = after.iter().fold(0, |acc, heap| acc ^ heap) == 0;
            assert_eq!(mv["value"], if wins { 1 } else { -1 }, "{at}: {mv}");
        }
    }
    // In words: every move, best first, the best marked.
    let output = gamesolver(&["analyze", "stone-game", "5,3,4,5", "--at", "2,3"], None);
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("1  takes the right pile (4 stones)  (best)"),
        "{text}"
    );
    assert!(
        text.contains("-1  takes the left pile (3 stones)\n"),
        "{text}"
    );
    // Bad positions are refused with what a position is.
    let message = rejected(&["analyze", "nim", "3,4,5", "--at", "4,4,5"], None, 1);
    assert!(
        message.contains("heap 1 is 4, but it starts with 3"),
        "{message}"
    );
    let message = rejected(&["analyze", "stone-game-ii", "1,2", "--at", "9,1"], None, 1);
    assert!(message.contains("past the 2 piles"), "{message}");
    let message = rejected(&["analyze", "tic-tac-toe", "--at", "XXX/OOO/..."], None, 1);
    assert!(
        message.contains("both X and O have three in a row"),
        "{message}"
    );
    let message = rejected(&["analyze", "tic-tac-toe", "--at", "OO./.../..."], None, 1);
    assert!(message.contains("0 X and 2 O cannot happen"), "{message}");
    let message = rejected(
        &["analyze", "dots-and-boxes", "1", "1", "--at", "0,0-1,1"],
        None,
        1,
    );
    assert!(
        message.contains("\"0,0-1,1\" is not a line of this board"),
        "{message}"
    );
    let message = rejected(
        &["analyze", "stone-game-viii", "1,2,3", "--at", "4"],
        None,
        1,
    );
    assert!(message.contains("from 1 to 3"), "{message}");
    rejected(&["analyze", "connect-four", "--at", "44"], None, 2);
    // Connect Four analyses its position (the VALUE): every column a move, named by its number.
    let analysis = json(
        &[
            "analyze",
            "connect-four",
            "--width",
            "4",
            "--height",
            "4",
            "12",
        ],
        None,
    );
    let mut names: Vec<&str> = analysis["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|mv| mv["name"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["1", "2", "3", "4"]);
}

/// Tic-tac-toe by brute force over the board as text (`X`, `O`, `.`, row by row): the value
/// for the side to move, +1 win, -1 loss, 0 draw.
fn tic_tac_toe_value(board: &mut [u8; 9]) -> i64 {
    let won = tic_tac_toe_wins;
    let marks = board.iter().filter(|&&c| c != b'.').count();
    let (me, other) = if marks % 2 == 0 {
        (b'X', b'O')
    } else {
        (b'O', b'X')
    };
    if won(board, other) {
        return -1;
    }
    let mut best = None;
    for cell in 0..9 {
        if board[cell] == b'.' {
            board[cell] = me;
            let value = -tic_tac_toe_value(board);
            board[cell] = b'.';
            best = Some(best.map_or(value, |best: i64| best.max(value)));
        }
    }
    best.unwrap_or(0)
}

#[test]
fn analyze_takes_boards_lines_and_stones_against_brute_force() {
    // Tic-tac-toe: positions reached by random play, every move against the brute force.
    for seed in 0..6u64 {
        let mut board = [b'.'; 9];
        let mut state = seed * 7 + 3;
        for ply in 0..(seed as usize % 5) {
            let free: Vec<usize> = (0..9).filter(|&c| board[c] == b'.').collect();
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            board[free[(state >> 33) as usize % free.len()]] =
                if ply % 2 == 0 { b'X' } else { b'O' };
        }
        let at = String::from_utf8(board.to_vec()).unwrap();
        let report = json(&["analyze", "tic-tac-toe", "--at", &at], None);
        assert_eq!(
            report["value"],
            tic_tac_toe_value(&mut board.clone()),
            "{at}"
        );
        let mover = if board.iter().filter(|&&c| c != b'.').count() % 2 == 0 {
            b'X'
        } else {
            b'O'
        };
        for mv in report["moves"].as_array().unwrap() {
            let cell = (mv["row"].as_u64().unwrap() - 1) * 3 + mv["column"].as_u64().unwrap() - 1;
            let mut after = board;
            after[cell as usize] = mover;
            assert_eq!(mv["value"], -tic_tac_toe_value(&mut after), "{at}: {mv}");
        }
    }
    // Stone Game VIII from its STONE-th stone is the game on the merged stone and the rest.
    let stones = random_values(7, 11, -9, 9);
    for stone in 1..=6usize {
        let merged: i64 = stones[..stone].iter().sum();
        let mut rest = vec![merged];
        rest.extend_from_slice(&stones[stone..]);
        let at = stone.to_string();
        let values: Vec<String> = stones.iter().map(i64::to_string).collect();
        let report = json(
            &["analyze", "stone-game-viii", &values.join(","), "--at", &at],
            None,
        );
        assert_eq!(report["value"], stone_game_viii_brute_force(&rest), "{at}");
        assert_eq!(
            report["moves"].as_array().unwrap().len(),
            rest.len() - 1,
            "{at}"
        );
    }
    // Dots and Boxes 1x1 with three lines drawn: the last one completes the box.
    let report = json(
        &[
            "analyze",
            "dots-and-boxes",
            "1",
            "1",
            "--at",
            "0,0-0,1 (1,0)-(0,0) 1,1-1,0",
        ],
        None,
    );
    assert_eq!(report["value"], 1);
    assert_eq!(report["moves"][0]["from"], serde_json::json!([0, 1]));
    assert_eq!(report["moves"][0]["to"], serde_json::json!([1, 1]));
    // 1x2 (7 lines) with the middle line drawn: 6 lines left.
    let report = json(
        &["analyze", "dots-and-boxes", "1", "2", "--at", "0,1-1,1"],
        None,
    );
    assert_eq!(report["moves"].as_array().unwrap().len(), 6);
}

#[test]
fn play_reads_moves_from_a_pipe_too_and_answers_from_a_loaded_table() {
    let dir = std::env::temp_dir().join(format!("gamesolver-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("nim.gsv");
    let path = file.to_str().unwrap();
    json(&["nim", "3,4,5", "--save", path], None);
    // The winning first move (2 from heap 1), then the person leaves.
    let output = gamesolver(&["play", "nim", "3,4,5", "--load", path], Some(b"1,2\nq\n"));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{text}");
    assert!(text.contains("Alice takes 2 from heap 1"), "{text}");
    assert!(!text.contains("Not the best"), "{text}");
    assert!(text.contains("Game left unfinished."), "{text}");
    // A table for other heaps is refused before the game starts.
    let message = rejected(&["play", "nim", "3,4,6", "--load", path], None, 1);
    assert!(
        message.contains("3,4,6") || message.contains("values"),
        "{message}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    // Connect Four is played by the pruning engine: on 4x4 from a position, as the second
    // player, typing the columns in turn (a full column is refused and the next one taken),
    // the person never beats it; the game ends.
    let columns = "1\n2\n3\n4\n".repeat(20);
    let args = [
        "play",
        "connect-four",
        "--width",
        "4",
        "--height",
        "4",
        "12",
        "--as",
        "second",
    ];
    let output = gamesolver(&args, Some(columns.as_bytes()));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{text}");
    assert!(
        text.contains("you are O and move second; the solver plays X"),
        "{text}"
    );
    assert!(text.contains("Game over: "), "{text}");
    assert!(!text.contains("You win"), "{text}");
    // What play does not take (with --json, the error too is JSON).
    let output = gamesolver(&["play", "nim", "1,2", "--json"], None);
    assert_eq!(output.status.code(), Some(2));
    let error: Value = serde_json::from_slice(&output.stderr).unwrap();
    assert_eq!(error["kind"], "usage");
    assert!(
        error["error"]
            .as_str()
            .unwrap()
            .contains("does not take --json")
    );
    for (args, says) in [
        (
            vec!["play", "nim", "1,2", "--save", "x"],
            "does not take --save",
        ),
        (vec!["play", "connect-four", "--at", "44"], "not --at"),
        (
            vec!["play", "stone-game-viii", "1,2,3", "--load", "x"],
            "run them without --load",
        ),
    ] {
        let message = rejected(&args, None, 2);
        assert!(message.contains(says), "{args:?}: {message}");
    }
}

/// `--save` keeps the engine the plain solve runs: Dots and Boxes is solved by the tier
/// solver with or without it, with the same line, into a tier file written tier by tier; the
/// file loads to the same answer and line, and answers every position of the line as a file
/// saved by the exhaustive engine does. A tier solve whose tiers do not all fit the budget
/// still saves (the file holds them) and reads its line back from the file.
#[test]
fn save_keeps_the_tier_solver_of_the_plain_solve() {
    let dir = std::env::temp_dir().join(format!("gamesolver-tier-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tiers = dir.join("tiers.gsv");
    let engine = dir.join("engine.gsv");
    let (tiers, engine) = (tiers.to_str().unwrap(), engine.to_str().unwrap());
    for size in [["1", "2"], ["2", "2"], ["2", "3"]] {
        let game = ["dots-and-boxes", size[0], size[1]];
        let plain = json(&game, None);
        // A tier file is written afresh only where none is (else --resume).
        let _ = std::fs::remove_file(tiers);
        let saved = json(&[&game[..], &["--save", tiers]].concat(), None);
        assert_eq!(plain["solver"], "tier", "{size:?}");
        assert_eq!(saved["solver"], "tier", "{size:?}");
        for key in ["answer", "value", "line"] {
            assert_eq!(saved[key], plain[key], "{size:?}: {key}");
        }
        let by_engine = [&game[..], &["--solver", "engine", "--save", engine]].concat();
        assert_eq!(json(&by_engine, None)["value"], plain["value"]);
        assert!(std::fs::read(tiers).unwrap().starts_with(b"GSTIERS\0"));
        assert!(!std::fs::read(engine).unwrap().starts_with(b"GSTIERS\0"));
        for (file, table) in [(tiers, "file"), (engine, "loaded")] {
            let loaded = json(&[&game[..], &["--load", file]].concat(), None);
            assert_eq!(loaded["table"], table);
            for key in ["answer", "value", "line"] {
                assert_eq!(loaded[key], plain[key], "{size:?} from {file}: {key}");
            }
        }
        // Every position of the line, analysed from either file, has the same value.
        let line = plain["line"].as_array().unwrap();
        let mut drawn: Vec<String> = Vec::new();
        for ply in line {
            let at = drawn.join(" ");
            let from = |file: &str| {
                let mut args = vec!["analyze", game[0], game[1], game[2], "--load", file];
                if !at.is_empty() {
                    args.extend(["--at", &at]);
                }
                json(&args, None)["value"].clone()
            };
            assert_eq!(from(tiers), from(engine), "{size:?} at '{at}'");
            let dot = |key: &str| {
                let dot = ply[key].as_array().unwrap();
                format!("{},{}", dot[0], dot[1])
            };
            drawn.push(format!("{}-{}", dot("from"), dot("to")));
        }
    }
    // Within 64 KiB, 2x3's tiers (128 KiB) do not fit together: the plain solve gives no line,
    // the saved one reads it back from its file.
    let _ = std::fs::remove_file(tiers);
    let small = [
        "dots-and-boxes",
        "2",
        "3",
        "--threads",
        "1",
        "--memory-limit",
        "64K",
    ];
    let plain = json(&small, None);
    assert_eq!(plain["line"].as_array().map(Vec::len), Some(0));
    let saved = json(&[&small[..], &["--save", tiers]].concat(), None);
    let whole = json(&["dots-and-boxes", "2", "3"], None);
    assert_eq!(
        (&saved["value"], &saved["line"]),
        (&whole["value"], &whole["line"])
    );
    // A tier file that exists is refused without --resume, and left as it was.
    let before = std::fs::read(tiers).unwrap();
    let refused = rejected(&[&small[..], &["--save", tiers]].concat(), None, 1);
    assert!(
        refused.contains("--resume") && refused.contains(tiers),
        "{refused}"
    );
    assert_eq!(std::fs::read(tiers).unwrap(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn save_keeps_the_retrograde_analysis_of_the_plain_solve() {
    // The small outcome games' plain solve is retrograde analysis: `--save` runs it too (the
    // same report), and what it writes answers as the exhaustive engine's file does, at the
    // start and at every position of the line.
    let dir = std::env::temp_dir().join(format!("gamesolver-retro-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let retro = dir.join("retrograde.gsv");
    let engine = dir.join("engine.gsv");
    let (retro, engine) = (retro.to_str().unwrap(), engine.to_str().unwrap());
    // (Nim's plain solve is its nimbers, which hold no value by the index: `--save` solves it
    // with the exhaustive engine on a dense table instead, as saved_solutions_round_trip checks.)
    let nim = json(&["nim", "3", "4", "5", "--save", retro], None);
    assert_eq!(
        (nim["solver"].as_str(), nim["value"].as_i64()),
        (Some("engine"), Some(1))
    );
    for game in [&["tic-tac-toe"][..]] {
        let plain = json(game, None);
        let saved = json(&[game, &["--save", retro]].concat(), None);
        assert_eq!(plain["solver"], "retrograde", "{game:?}");
        for key in ["solver", "answer", "value", "line", "remoteness"] {
            assert_eq!(saved[key], plain[key], "{game:?}: {key}");
        }
        let by_engine = json(
            &[game, &["--solver", "engine", "--save", engine]].concat(),
            None,
        );
        assert_eq!(by_engine["solver"], "engine");
        for file in [retro, engine] {
            let loaded = json(&[game, &["--load", file]].concat(), None);
            assert_eq!(loaded["table"], "loaded");
            for key in ["answer", "value", "line"] {
                assert_eq!(loaded[key], plain[key], "{game:?} from {file}: {key}");
            }
        }
        let analysis = |file: &str| {
            let mut args = vec!["analyze"];
            args.extend_from_slice(game);
            args.extend(["--load", file]);
            json(&args, None)["moves"].clone()
        };
        let moves = analysis(retro);
        assert!(
            moves.as_array().is_some_and(|moves| !moves.is_empty()),
            "{game:?}"
        );
        assert_eq!(moves, analysis(engine), "{game:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn saved_solutions_round_trip_and_bad_files_are_refused() {
    let dir = std::env::temp_dir().join(format!("gamesolver-saved-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("solution.gsv");
    let path = file.to_str().unwrap();
    // Every game the engine solves on a dense table: the loaded table gives the same answer,
    // value and line.
    for args in [
        vec!["stone-game-ii", "2,7,9,4,4,1,8"],
        vec!["stone-game-viii", "-1,2,-3,4,-5"],
        vec!["stone-game", "5,3,4,5"],
        vec!["stone-game-iii", "1,2,3,7"],
        vec!["stone-game-vii", "5,3,1,4,2"],
        vec!["nim", "3,4,5"],
        vec!["tic-tac-toe"],
        // The tier solver's --save writes a tier file (tests/dots_tier_file.rs).
        vec!["dots-and-boxes", "1", "2", "--solver", "engine"],
    ] {
        let mut save = args.clone();
        save.extend(["--save", path]);
        let solved = json(&save, None);
        let mut load = args.clone();
        load.extend(["--load", path]);
        let loaded = json(&load, None);
        for key in ["answer", "value", "line", "states"] {
            assert_eq!(loaded[key], solved[key], "{args:?}: {key}");
        }
        assert_eq!(loaded["table"], "loaded");
    }
    // On a larger game the loaded run only reads the line's states.
    let piles = common::random_values(60, 7, 1, 50);
    let piles: Vec<String> = piles.iter().map(i64::to_string).collect();
    let piles = piles.join(",");
    let solved = json(&["stone-game-ii", &piles, "--save", path], None);
    let loaded = json(&["stone-game-ii", &piles, "--load", path], None);
    assert_eq!(loaded["answer"], solved["answer"]);
    let (solved, loaded) = (
        solved["hits"].as_u64().unwrap(),
        loaded["hits"].as_u64().unwrap(),
    );
    assert!(
        loaded * 10 < solved,
        "{loaded} hits loaded, {solved} solving"
    );
    // Saving leaves nothing else beside the file, and replaces an older one whole.
    json(&["nim", "3,4,5", "--save", path], None);
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("solution.gsv")]);
    // analyze answers from the saved table too.
    let report = json(
        &["analyze", "nim", "3,4,5", "--load", path, "--at", "1,4,5"],
        None,
    );
    assert_eq!(report["value"], -1);
    // Refused: another game, other values, truncation anywhere, a changed byte, extra bytes.
    let good = std::fs::read(&file).unwrap();
    let bad = dir.join("bad.gsv");
    let bad_path = bad.to_str().unwrap();
    let load = |game: &[&str]| {
        let mut args = game.to_vec();
        args.extend(["--load", bad_path]);
        rejected(&args, None, 1)
    };
    std::fs::write(&bad, &good).unwrap();
    assert!(load(&["stone-game-ii", "3,4,5"]).contains("it holds nim, not stone-game-ii"));
    assert!(load(&["nim", "3,4,6"]).contains("other values"));
    assert!(load(&["nim", "3,4"]).contains("with 3 values, not 2"));
    for cut in [0, 5, 20, good.len() / 2, good.len() - 1] {
        std::fs::write(&bad, &good[..cut]).unwrap();
        assert!(
            load(&["nim", "3,4,5"]).contains("truncated"),
            "cut at {cut}"
        );
    }
    for at in [0, 12, good.len() - 20, good.len() - 1] {
        let mut corrupt = good.clone();
        corrupt[at] ^= 0x10;
        std::fs::write(&bad, &corrupt).unwrap();
        let message = load(&["nim", "3,4,5"]);
        assert!(
            [
                "corrupt",
                "not a saved",
                "truncated",
                "other values",
                "not a solution"
            ]
            .iter()
            .any(|says| message.contains(says)),
            "byte {at}: {message}"
        );
    }
    let mut longer = good.clone();
    longer.push(0);
    std::fs::write(&bad, &longer).unwrap();
    assert!(load(&["nim", "3,4,5"]).contains("after its checksum"));
    // A file of format version 1 (the same layout) is read, but for Dots and Boxes, whose
    // boards are numbered otherwise since version 2; another version is refused.
    let with_version = |file: &[u8], version: u32| {
        let mut file = file.to_vec();
        file[8..12].copy_from_slice(&version.to_le_bytes());
        let body = file.len() - 8;
        let sum = file[..body]
            .iter()
            .fold(0xcbf2_9ce4_8422_2325u64, |sum, &byte| {
                (sum ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
            });
        file[body..].copy_from_slice(&sum.to_le_bytes());
        file
    };
    std::fs::write(&bad, with_version(&good, 1)).unwrap();
    let loaded = json(&["nim", "3,4,5", "--load", bad_path], None);
    let solved = json(&["nim", "3,4,5"], None);
    assert_eq!(
        (&loaded["value"], &loaded["line"]),
        (&solved["value"], &solved["line"])
    );
    assert_eq!(loaded["table"], "loaded");
    std::fs::write(&bad, with_version(&good, 3)).unwrap();
    assert!(load(&["nim", "3,4,5"]).contains("format version 3"));
    // The engine's saved table (the tier solver's --save writes a tier file).
    json(
        &[
            "dots-and-boxes",
            "1",
            "2",
            "--solver",
            "engine",
            "--save",
            path,
        ],
        None,
    );
    let boxes = std::fs::read(&file).unwrap();
    std::fs::write(&bad, with_version(&boxes, 1)).unwrap();
    assert!(load(&["dots-and-boxes", "1", "2"]).contains("solve it again with --save"));
    std::fs::write(&bad, with_version(&boxes, 2)).unwrap();
    let loaded = json(&["dots-and-boxes", "1", "2", "--load", bad_path], None);
    assert_eq!(loaded["table"], "loaded");
    // --save and --load are for solving the exhaustive games.
    rejected(&["connect-four", "--save", path], None, 2);
    rejected(&["check", "nim", "1,2", "--load", path], None, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cat_and_mouse_games_answer_in_leetcodes_terms() {
    // LeetCode 913's examples, as an argument and from standard input.
    let report = json(
        &["cat-and-mouse", "[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]"],
        None,
    );
    assert_eq!(report["answer"], 0);
    assert_eq!(report["outcome"], "draw");
    assert_eq!(report["remoteness"], Value::Null);
    assert_eq!(report["solver"], "retrograde");
    let report = json(
        &["cat-and-mouse", "--input", "-"],
        Some(b"[[1,3],[0],[3],[0,2]]"),
    );
    assert_eq!(
        (report["answer"].clone(), report["remoteness"].clone()),
        (1.into(), 1.into())
    );
    assert_eq!(report["line"][0]["to"], 0);
    // LeetCode 1728's examples; the parallel solver gives the same.
    for (game, answer) in [
        (
            r#####"{"grid": ["####F", "#C...", "M...."], "catJump": 1, "mouseJump": 2}"#####,
            true,
        ),
        (
            r#####"{"grid": ["M.C...F"], "catJump": 1, "mouseJump": 4}"#####,
            true,
        ),
        (
            r#####"{"grid": ["M.C...F"], "catJump": 1, "mouseJump": 3}"#####,
            false,
        ),
        (
            r#####"{"grid": ["C...#", "...#F", "....#", "M...."], "catJump": 2, "mouseJump": 5}"#####,
            false,
        ),
        (
            r#####"{"grid": [".M...", "..#..", "#..#.", "C#.#.", "...#F"], "catJump": 3, "mouseJump": 1}"#####,
            true,
        ),
    ] {
        let report = json(&["cat-and-mouse-ii", "--input", "-"], Some(game.as_bytes()));
        assert_eq!(report["answer"], answer, "{game}");
        let parallel = json(
            &[
                "cat-and-mouse-ii",
                game,
                "--solver",
                "parallel",
                "--threads",
                "2",
            ],
            None,
        );
        for key in ["answer", "outcome", "remoteness", "line"] {
            assert_eq!(parallel[key], report[key], "{game}: {key}");
        }
    }
    // In words: the outcome, the remoteness and the line.
    let output = gamesolver(
        &[
            "cat-and-mouse-ii",
            r#####"{"grid": ["M.C...F"], "catJump": 1, "mouseJump": 4}"#####,
        ],
        None,
    );
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("the mouse reaches the food in 3 moves"),
        "{text}"
    );
    assert!(text.contains("LeetCode's answer: true"), "{text}");
    assert!(
        text.contains("Mouse jumps from (1,5) to (1,7) (the food)"),
        "{text}"
    );
    // Bad input: malformed JSON with where, a broken graph, a broken grid, misplaced options.
    for (args, stdin, says) in [
        (
            vec!["cat-and-mouse", "[[1,3],[0],[3],[0,2]"],
            None,
            "line 1 column 20",
        ),
        (
            vec!["cat-and-mouse", "[[1],[0,2],[]]"],
            None,
            "not symmetric",
        ),
        (
            vec!["cat-and-mouse", "[[1,5],[0],[0]]"],
            None,
            "names node 5",
        ),
        (
            vec!["cat-and-mouse-ii", "--input", "-"],
            Some(&br#####"{"grid": ["M.C", "F"], "catJump": 1, "mouseJump": 1}"#####[..]),
            "row 2 has 1 cells",
        ),
        (
            vec![
                "cat-and-mouse-ii",
                r#####"{"grid": ["M.C.F"], "catJump": 1}"#####,
            ],
            None,
            "missing field `mouseJump`",
        ),
        (
            vec![
                "cat-and-mouse-ii",
                r#####"{"grid": ["M.C.F"], "catJump": 1, "mouseJump": 99}"#####,
            ],
            None,
            "mouseJump is 99",
        ),
    ] {
        let message = rejected(&args, stdin, 1);
        assert!(message.contains(says), "{args:?}: {message}");
    }
    for (args, says) in [
        (vec!["cat-and-mouse"], "no graph given"),
        (
            vec!["cat-and-mouse", "[[1],[0,2],[1]]", "--width", "3"],
            "applies only to connect-four",
        ),
        (
            vec!["cat-and-mouse", "[[1],[0,2],[1]]", "--solver", "alphabeta"],
            "can cycle",
        ),
    ] {
        let message = rejected(&args, None, 2);
        assert!(message.contains(says), "{args:?}: {message}");
    }
    // check: the outcome-game contract, and the retrograde values against value iteration.
    let output = gamesolver(
        &[
            "check",
            "cat-and-mouse",
            "[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]",
        ],
        None,
    );
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{text}");
    assert!(text.contains("no violation"), "{text}");
    // analyze: every move with its outcome and remoteness, best first, at the start or --at.
    let report = json(&["analyze", "cat-and-mouse", "[[1,3],[0],[3],[0,2]]"], None);
    assert_eq!(
        (report["value"].clone(), report["remoteness"].clone()),
        (1.into(), 1.into())
    );
    assert_eq!(report["moves"][0]["to"], 0);
    assert_eq!(report["moves"][0]["best"], true);
    let graph = "[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]";
    let report = json(&["analyze", "cat-and-mouse", graph, "--at", "3,5"], None);
    assert_eq!(report["value"], 0);
    let outcomes: Vec<(i64, Value)> = report["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|mv| (mv["value"].as_i64().unwrap(), mv["remoteness"].clone()))
        .collect();
    // The draw first, then the slowest loss; moving onto the cat loses at once.
    assert_eq!(
        outcomes,
        vec![(0, Value::Null), (-1, 3.into()), (-1, 1.into())]
    );
    let game = r#####"{"grid": ["####F", "#C...", "M...."], "catJump": 1, "mouseJump": 2}"#####;
    let solved = json(&["cat-and-mouse-ii", game], None);
    let analysed = json(&["analyze", "cat-and-mouse-ii", game], None);
    assert_eq!(analysed["remoteness"], solved["remoteness"]);
    assert_eq!(analysed["moves"][0]["to"], solved["line"][0]["to"]);
    for (at, says) in [("0,0", "the cat never in the hole"), ("9,1", "0 to 5")] {
        let message = rejected(&["analyze", "cat-and-mouse", graph, "--at", at], None, 1);
        assert!(message.contains(says), "{at}: {message}");
    }
    let message = rejected(
        &["analyze", "cat-and-mouse-ii", game, "--at", "1,1,2,2"],
        None,
        1,
    );
    assert!(message.contains("not on a wall"), "{message}");
    // Over the memory budget: refused with the budget error.
    let message = rejected(
        &[
            "cat-and-mouse-ii",
            r#####"{"grid": ["M.........", "..........", "..........", "..........", "..........", "..........", "..........", "..........", "..........", ".......C.F"], "catJump": 3, "mouseJump": 3}"#####,
            "--memory-limit",
            "20K",
        ],
        None,
        1,
    );
    assert!(message.contains("needs about"), "{message}");
}

#[test]
fn outcome_games_get_their_remoteness_and_the_fastest_line() {
    // Nim 3,4,5: the winner takes 2 from heap 1 and the loser stalls, one counter at a time:
    // 11 moves in all; every line the retrograde solver gives has the remoteness's length.
    let report = json(&["nim", "3,4,5"], None);
    assert_eq!(report["solver"], "nimbers");
    assert_eq!(
        (report["outcome"].clone(), report["remoteness"].clone()),
        ("win".into(), 11.into())
    );
    assert_eq!(report["line"].as_array().unwrap().len(), 11);
    assert_eq!(
        (
            report["line"][0]["heap"].clone(),
            report["line"][0]["take"].clone()
        ),
        (1.into(), 2.into())
    );
    // Against a brute force over the heaps: a win lasts the fewest moves to a lost position
    // plus one, a loss the most moves to a won one plus one.
    fn nim(heaps: &mut Vec<u32>, memo: &mut HashMap<Vec<u32>, (bool, u32)>) -> (bool, u32) {
        if let Some(&known) = memo.get(heaps.as_slice()) {
            return known;
        }
        let mut win: Option<u32> = None;
        let mut loss: Option<u32> = None;
        for heap in 0..heaps.len() {
            for take in 1..=heaps[heap] {
                heaps[heap] -= take;
                let (child_wins, r) = nim(heaps, memo);
                heaps[heap] += take;
                if child_wins {
                    loss = Some(loss.map_or(r + 1, |l| l.max(r + 1)));
                } else {
                    win = Some(win.map_or(r + 1, |w| w.min(r + 1)));
                }
            }
        }
        let value = match (win, loss) {
            (Some(w), _) => (true, w),
            (None, Some(l)) => (false, l),
            (None, None) => (false, 0),
        };
        memo.insert(heaps.clone(), value);
        value
    }
    let mut memo = HashMap::new();
    for heaps in ["1,2,3", "2,2", "7", "1,5,6,2", "3,4,5", "4,4,1"] {
        let report = json(&["nim", heaps], None);
        let mut sizes: Vec<u32> = heaps.split(',').map(|h| h.parse().unwrap()).collect();
        let (wins, lasts) = nim(&mut sizes, &mut memo);
        assert_eq!(
            report["outcome"],
            if wins { "win" } else { "loss" },
            "{heaps}"
        );
        assert_eq!(report["remoteness"], lasts, "{heaps}");
        assert_eq!(
            report["line"].as_array().unwrap().len(),
            lasts as usize,
            "{heaps}"
        );
    }
    let report = json(&["tic-tac-toe"], None);
    assert_eq!(
        (report["outcome"].clone(), report["remoteness"].clone()),
        ("draw".into(), Value::Null)
    );
    assert_eq!(report["line"].as_array().unwrap().len(), 9);
    // The engine on request, and on games too large for retrograde analysis within its share.
    let report = json(&["nim", "3,4,5", "--solver", "engine"], None);
    assert_eq!(report["solver"], "engine");
    assert_eq!(report["remoteness"], 11); // the engine's swift line
    let report = json(&["nim", "1,65535"], None);
    assert_ne!(report["solver"], "retrograde");
    assert_eq!(report["answer"], "Alice");
}

#[test]
fn double_dash_ends_the_options_before_or_after_the_values() {
    // Values that start with '-' after `--`, as in every Unix tool.
    let plain = json(&["stone-game-iii", "-1,-2,3"], None);
    for args in [
        vec!["stone-game-iii", "--json", "--", "-1,-2,3"],
        vec!["stone-game-iii", "-1,-2", "--json", "--", "3"],
        vec!["--json", "stone-game-iii", "--", "-1", "-2", "3"],
    ] {
        let output = gamesolver(&args, None);
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert!(output.status.success(), "{args:?}");
        assert_eq!(stdout.lines().count(), 1, "{args:?}: {stdout}");
        let report: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(report["answer"], plain["answer"], "{args:?}");
        assert_eq!(report["n"], 3, "{args:?}");
    }
    // After `--`, even "--json" is a value, and not a number.
    let message = rejected(&["stone-game-iii", "--", "-1", "--json"], None, 1);
    assert!(message.contains("--json"), "{message}");
    let text = |args: &[&str]| String::from_utf8(gamesolver(args, None).stdout).unwrap();
    let nim = text(&["nim", "--", "1,2"]);
    assert!(nim.contains("Alice (moving first) wins"), "{nim}");
    assert_eq!(
        nim.lines().next(),
        text(&["nim", "1,2"]).lines().next(),
        "the same answer"
    );
}

#[test]
fn cluster_options_belong_to_the_distributed_solver() {
    for option in [
        ["--workers", "2"],
        ["--processes", "2"],
        ["--process", "0"],
        ["--hostfile", "hosts.txt"],
    ] {
        let mut args = vec!["dots-and-boxes", "2", "2"];
        args.extend(option);
        let message = rejected(&args, None, 2);
        assert!(
            message.contains(&format!(
                "{} applies only to --solver distributed",
                option[0]
            )),
            "{message}"
        );
    }
}

#[test]
fn a_batch_error_names_its_line_on_one_thread_or_many() {
    // Line 1 is solved at once; line 2 (one stone on the board) cannot be within the limit.
    let first = benchmark_lines("Test_L3_R1", 1).remove(0);
    let file = temp_file(
        "batch-time-limit.txt",
        format!("{} {}\n4\n", first.0, first.1).as_bytes(),
    );
    let path = file.to_str().unwrap();
    for threads in ["1", "2"] {
        let output = gamesolver(
            &[
                "connect-four",
                "--batch",
                path,
                "--threads",
                threads,
                "--time-limit",
                "300ms",
            ],
            None,
        );
        let stdout = String::from_utf8(output.stdout).unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(1), "{threads}: {stderr}");
        assert_eq!(stdout, format!("{} {}\n", first.0, first.1), "{threads}");
        assert!(
            stderr.starts_with("error: line 2: the solve reached its time limit"),
            "{threads}: {stderr}"
        );
    }
    std::fs::remove_file(file).ok();
}

#[test]
fn a_score_game_is_analysed_in_points_and_dots_and_boxes_shows_its_board() {
    // Two boxes side by side; the left one has all four sides.
    let lines = "0,0-0,1 1,0-1,1 0,0-1,0 0,1-1,1";
    let output = gamesolver(
        &["analyze", "dots-and-boxes", "1", "2", "--at", lines],
        None,
    );
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(!text.contains("win/loss"), "{text}");
    assert!(
        text.contains("(their points minus the opponent's from here on)"),
        "{text}"
    );
    let board: Vec<&str> = text.lines().skip(1).take(4).collect();
    assert_eq!(
        board,
        [
            "  +---+   +",
            "  | # |    ",
            "  +---+   +",
            "  (dots are ROW,COLUMN from 0,0 at the top left; # is a claimed box)"
        ],
        "{text}"
    );
    // play's list of move values: points, no win/loss either.
    let played = gamesolver(&["play", "dots-and-boxes", "1", "2"], Some(b"?\nq\n"));
    let said = String::from_utf8(played.stdout).unwrap();
    assert!(said.contains("from here on with best play):"), "{said}");
    assert!(!said.contains("win/loss"), "{said}");
    // An outcome game keeps its clause where it has no remoteness to give.
    let nim = gamesolver(&["play", "nim", "1,2"], Some(b"?\nq\n"));
    let said = String::from_utf8(nim.stdout).unwrap();
    assert!(said.contains("+1/-1 for a win/loss"), "{said}");
}

#[test]
fn analyze_and_play_reach_a_layered_game_past_the_engines_table_by_its_tiers() {
    // Dots and Boxes on 2×3 boxes: the engine's dense table (1 MiB) does not fit 900 KiB, its
    // hash table neither; every tier kept (2¹⁷ one-byte values) does, and gives the engine's
    // analysis exactly.
    let small = ["dots-and-boxes", "2", "3", "--threads", "1"];
    let mut tight = vec!["analyze"];
    tight.extend(small);
    tight.extend(["--memory-limit", "900K", "--at", "0,0-0,1 1,1-2,1"]);
    let mut roomy = vec!["analyze"];
    roomy.extend(small);
    roomy.extend(["--at", "0,0-0,1 1,1-2,1"]);
    assert_eq!(json(&tight, None), json(&roomy, None));
    let mut play = vec!["play"];
    play.extend(small);
    play.extend(["--memory-limit", "900K"]);
    let output = gamesolver(&play, Some(b"?\nq\n"));
    let said = String::from_utf8(output.stdout).unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(said.contains("Every move, best first"), "{said}");
    // The engine's refusal of a layered game says what works.
    let message = rejected(&["dots-and-boxes", "3", "4", "--solver", "engine"], None, 1);
    assert!(message.contains("needs about"), "{message}");
    assert!(
        message.contains("(--solver tier solves this game tier by tier"),
        "{message}"
    );
}

/// c4's verified endgame sample in tests/data/`set`, whole, and its first `count` lines as a
/// batch's input (each "POSITION SCORE", which is also what the batch writes back).
fn c4_endgame(set: &str, count: usize) -> (String, String) {
    let path = format!("{}/tests/data/{set}/endgame_L1", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let input = text
        .lines()
        .take(count)
        .map(|line| format!("{line}\n"))
        .collect();
    (text, input)
}

#[test]
fn connect_four_reads_c4s_columns_from_zero_on_a_wider_board() {
    // Lines of c4's verified 9×5 endgame set (tests/data/c4_9x5): columns from 0.
    let (_, input) = c4_endgame("c4_9x5", 8);
    let board = ["--width", "9", "--height", "5"];
    let mut arguments = vec!["connect-four", "--batch", "-", "--columns-from-zero"];
    arguments.extend(board);
    let output = gamesolver(&arguments, Some(input.as_bytes()));
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(String::from_utf8(output.stdout).unwrap(), input);
    // One position as an argument, a line of Pons' end set written both ways.
    let pons = "2252576253462244111563365343671351441";
    let from_zero: String = pons
        .chars()
        .map(|c| char::from_digit(c.to_digit(10).unwrap() - 1, 10).unwrap())
        .collect();
    let zero = gamesolver(
        &["connect-four", "--columns-from-zero", &from_zero, "--json"],
        None,
    );
    let one = gamesolver(&["connect-four", pons, "--json"], None);
    assert!(zero.status.success() && one.status.success());
    let value = |output: &std::process::Output| {
        let text = String::from_utf8_lossy(&output.stdout).to_string();
        text[text.find("\"value\"").unwrap()..]
            .split(',')
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(value(&zero), "\"value\":-1");
    assert_eq!(value(&one), value(&zero));
    // Without the switch, "0" is refused by name; the switch is Connect Four's alone.
    let refused = gamesolver(&["connect-four", &from_zero], None);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not a column"));
    let elsewhere = gamesolver(&["stone-game-ii", "--columns-from-zero"], None);
    assert!(!elsewhere.status.success());
    assert!(String::from_utf8_lossy(&elsewhere.stderr).contains("--columns-from-zero"));
}

#[test]
fn connect_four_solves_boards_past_64_bits() {
    // Lines of c4's verified 10×6 endgame set (tests/data/c4_10x6): 70 bits, 128-bit words.
    let (set, input) = c4_endgame("c4_10x6", 6);
    let board = ["--width", "10", "--height", "6", "--columns-from-zero"];
    let mut arguments = vec!["connect-four", "--batch", "-"];
    arguments.extend(board);
    let output = gamesolver(&arguments, Some(input.as_bytes()));
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(String::from_utf8(output.stdout).unwrap(), input);
    // One position, with its line and every column's score; the first line of the set.
    let (position, score) = set.lines().next().unwrap().split_once(' ').unwrap();
    let mut arguments = vec!["connect-four", position, "--analyze", "--json"];
    arguments.extend(board);
    let output = gamesolver(&arguments, None);
    let text = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(text.contains(&format!("\"value\":{score}")), "{text}");
    assert!(text.contains("\"width\":10"), "{text}");
    // The tier solvers rank positions in 64 bits: refused by name, as is a board past 128.
    let mut arguments = vec!["connect-four", position, "--solver", "tier"];
    arguments.extend(board);
    let tiers = gamesolver(&arguments, None);
    assert!(!tiers.status.success());
    assert!(String::from_utf8_lossy(&tiers.stderr).contains("up to 64 bits"));
    let huge = gamesolver(&["connect-four", "--width", "11", "--height", "11"], None);
    assert!(!huge.status.success());
    assert!(String::from_utf8_lossy(&huge.stderr).contains("at most 128"));
}
