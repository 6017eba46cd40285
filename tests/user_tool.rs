//! A user's games in the whole command line: examples/user_tool.rs (the Divisor Game, LeetCode
//! 1025, with a dense index, Flip Game II, LeetCode 294, without one, Hog, a dice game, and Node
//! Kayles, an impartial game: four games the library does not bundle) run as its own binary,
//! through every command a bundled game has: solve (words and `--json`), `analyze`, `check`,
//! `--save` and `--load` (refused for the game with no index), `play` in a pseudo-terminal, and
//! refusals of bad input. Values are checked against the rules played out by brute force, Flip
//! Game II against Sprague–Grundy theory, on random inputs, Hog against its rules dealt out die
//! by die, and Node Kayles' nimbers against the whole graph's mex.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use gamesolver::Game;
use gamesolver::cli::FromValues;
use serde_json::Value;

/// The example's source, as a module: its own unit tests run here too (the example binary is
/// built as a plain program, which has no test harness).
#[allow(dead_code)]
#[path = "../examples/user_tool.rs"]
mod user_tool;

/// The example's binary, built once (by `cargo build --example`, into this test's own target
/// directory and profile: a no-op when `cargo test` has built the examples already).
fn tool() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let test = std::env::current_exe().unwrap();
        // target/<profile>/deps/user_tool-…: the profile's folder is two up.
        let profile_dir = test.parent().unwrap().parent().unwrap();
        let target_dir = profile_dir.parent().unwrap();
        let mut cargo = Command::new(env!("CARGO"));
        cargo
            .args(["build", "--quiet", "--example", "user_tool", "--target-dir"])
            .arg(target_dir)
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        if profile_dir
            .file_name()
            .is_some_and(|name| name == "release")
        {
            cargo.arg("--release");
        }
        let status = cargo.status().expect("cargo runs");
        assert!(status.success(), "the example builds");
        profile_dir
            .join("examples")
            .join(format!("user_tool{}", std::env::consts::EXE_SUFFIX))
    })
}

fn run(args: &[&str]) -> Output {
    Command::new(tool())
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the example's binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

fn json(args: &[&str]) -> Value {
    let output = run(args);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    serde_json::from_str(&stdout(&output)).unwrap()
}

/// Whether the player to move at each number 0..=most wins, by the literal rules.
fn wins(most: u32) -> Vec<bool> {
    let mut won = vec![false; most as usize + 1];
    for n in 2..=most {
        won[n as usize] = (1..n).any(|x| n.is_multiple_of(x) && !won[(n - x) as usize]);
    }
    won
}

/// How many moves the divisor game lasts from each N up to `most` under perfect play, by the
/// literal rules: the winner ends it as soon as it can, the loser as late as it can.
fn remoteness(most: u32, won: &[bool]) -> Vec<u32> {
    let mut moves = vec![0u32; most as usize + 1];
    for n in 2..=most {
        let children = (1..n)
            .filter(|&x| n.is_multiple_of(x))
            .map(|x| (n - x) as usize);
        moves[n as usize] = 1 + if won[n as usize] {
            children
                .filter(|&c| !won[c])
                .map(|c| moves[c])
                .min()
                .unwrap()
        } else {
            children.map(|c| moves[c]).max().unwrap()
        };
    }
    moves
}

/// A small deterministic generator, so a failure names its input and reruns the same.
fn numbers(seed: u64, count: usize, most: u32) -> Vec<u32> {
    let mut x = seed;
    (0..count)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            1 + (x % u64::from(most)) as u32
        })
        .collect()
}

/// Plays `line`'s moves from `n` by the rules: each is a proper divisor of the number; the
/// line ends where no move is left. Returns how many moves it has.
fn replay(n: u32, line: &[Value]) -> usize {
    let mut at = n;
    for (ply, entry) in line.iter().enumerate() {
        let x: u32 = entry["move"].as_str().unwrap().parse().unwrap();
        assert!(x < at && at.is_multiple_of(x), "move {ply} ({x}) at {at}");
        let mover = if ply % 2 == 0 { "Alice" } else { "Bob" };
        assert_eq!(entry["player"], mover);
        at -= x;
    }
    assert_eq!(at, 1, "the line from {n} plays to the end");
    line.len()
}

#[test]
fn solves_random_numbers_as_the_rules_say_with_a_legal_line() {
    let won = wins(3000);
    for n in numbers(7, 25, 3000).into_iter().chain([1, 2, 3]) {
        let text = n.to_string();
        let report = json(&["divisor-game", &text, "--json"]);
        let first_wins = won[n as usize];
        assert_eq!(report["value"], if first_wins { 1 } else { -1 }, "N = {n}");
        assert_eq!(report["answer"], if first_wins { "Alice" } else { "Bob" });
        assert_eq!(report["outcome"], if first_wins { "win" } else { "loss" });
        // Its index orders it: `auto` runs the library's sweep.
        assert_eq!(report["solver"], "sweep", "N = {n}");
        let moves = replay(n, report["line"].as_array().unwrap());
        // The line ends with the loser to move: an odd length when Alice wins.
        assert_eq!(moves % 2 == 1, first_wins, "N = {n}");
        assert_eq!(report["remoteness"], moves as u64);
        assert!(report["line"][0].get("gain").is_none(), "no points here");
    }
}

#[test]
fn the_words_say_who_wins_and_list_the_line() {
    let output = run(&["divisor-game", "12"]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.starts_with("With perfect play, Alice wins."), "{text}");
    assert!(text.contains("1. Alice plays 1"), "{text}");
    assert!(
        text.contains("each move is the divisor subtracted"),
        "{text}"
    );
}

#[test]
fn analyze_values_every_divisor_at_random_positions() {
    let won = wins(500);
    let lasts = remoteness(500, &won);
    for n in numbers(11, 20, 500) {
        let at = n.to_string();
        let analysis = json(&["analyze", "divisor-game", "500", "--at", &at, "--json"]);
        let moves = analysis["moves"].as_array().unwrap();
        let divisors: Vec<u32> = (1..n).filter(|&x| n.is_multiple_of(x)).collect();
        assert_eq!(moves.len(), divisors.len(), "N = {n}");
        for entry in moves {
            let x: u32 = entry["move"].as_str().unwrap().parse().unwrap();
            assert!(divisors.contains(&x), "N = {n}: {x}");
            let value = if won[(n - x) as usize] { -1 } else { 1 };
            assert_eq!(entry["value"], value, "N = {n}, x = {x}");
            // How long the game lasts after the move, the move included.
            let after = 1 + lasts[(n - x) as usize];
            assert_eq!(entry["remoteness"], after, "N = {n}, x = {x}");
            // A best move keeps the value and the remoteness: the fastest win, the slowest loss.
            assert_eq!(
                entry["best"],
                value == analysis["value"] && after == lasts[n as usize],
                "N = {n}, x = {x}"
            );
        }
        assert_eq!(analysis["remoteness"], lasts[n as usize], "N = {n}");
        let value = if won[n as usize] { 1 } else { -1 };
        assert_eq!(
            analysis["value"],
            if n == 1 { -1 } else { value },
            "N = {n}"
        );
    }
}

#[test]
fn a_saved_table_answers_the_same_and_refuses_other_values() {
    let dir = std::env::temp_dir().join(format!("gamesolver-user-tool-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("divisor-360.table");
    let file = file.to_str().unwrap();
    let saved = json(&["divisor-game", "360", "--save", file, "--json"]);
    let loaded = json(&["divisor-game", "360", "--load", file, "--json"]);
    assert_eq!(loaded["table"], "loaded");
    for key in ["value", "answer", "line", "outcome", "remoteness"] {
        assert_eq!(saved[key], loaded[key], "{key}");
    }
    let analysis = json(&["analyze", "divisor-game", "360", "--load", file, "--json"]);
    assert_eq!(analysis["value"], saved["value"]);
    let other = run(&["divisor-game", "361", "--load", file]);
    assert_eq!(other.status.code(), Some(1));
    assert!(
        stderr(&other).contains("other values"),
        "{}",
        stderr(&other)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_passes_and_bad_input_is_refused_with_a_message() {
    let output = run(&["check", "divisor-game", "300"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("no violation"));

    for (args, code, message) in [
        (
            &["divisor-game", "0"][..],
            1,
            "one number N, from 1 to 1000000",
        ),
        (&["divisor-game", "3", "4"], 1, "one number N"),
        (&["divisor-game", "x"], 1, "cannot read \"x\""),
        (
            &["analyze", "divisor-game", "9", "--at", "10"],
            1,
            "from 1 to 9",
        ),
        (&["stone-game-ii", "1"], 2, "invalid value 'stone-game-ii'"),
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(code), "{args:?}");
        assert!(stdout(&output).is_empty(), "{args:?}");
        assert!(
            stderr(&output).contains(message),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    let help = stdout(&run(&["--help"]));
    assert!(help.contains("divisor-game: LeetCode 1025"), "{help}");
    // The tool names itself and its games, not gamesolver's.
    let first = help.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("Exact solutions of divisor-game, flip-game, hog and node-kayles")
            && first.contains("user_tool")
            && !first.contains("Stone Games"),
        "{first}"
    );
    assert!(help.contains("Usage: user_tool"), "{help}");
    let refused = run(&[]);
    assert!(
        !stderr(&refused).contains("gamesolver"),
        "{}",
        stderr(&refused)
    );
}

#[cfg(unix)]
#[test]
fn play_goes_to_the_end_in_a_terminal() -> Result<(), rexpect::error::Error> {
    let mut command = Command::new(tool());
    command
        .args(["play", "divisor-game", "6"])
        .env("NO_COLOR", "1");
    let mut p = rexpect::session::spawn_command(command, Some(30_000))?;
    p.exp_string("you are Alice and move first; the solver plays Bob")?;
    p.exp_string("N = 6, Alice to choose")?;
    p.exp_string("Your move (1 | 2 | 3): ")?;
    p.send_line("?")?;
    p.exp_string("-1  2")?; // 6 - 2 = 4 leaves Bob a won game
    p.exp_string("Your move (")?;
    p.send_line("7")?;
    p.exp_string("\"7\" is not a legal move here")?;
    p.exp_string("Your move (")?;
    p.send_line("2")?;
    p.exp_string("(Not the best")?;
    // Bob, at 4, wins by taking 1 (3 is lost for Alice: her only move leaves 2).
    p.exp_string("Bob plays 1.")?;
    p.exp_string("N = 3, Alice to choose")?;
    p.exp_string("Your move (1): ")?;
    p.send_line("1")?;
    p.exp_string("Bob plays 1.")?;
    p.exp_string("Game over: Bob wins. You lose.")?;
    p.exp_eof()?;
    assert_eq!(exit_code(&p), 0);
    Ok(())
}

/// Whether the player to move wins Flip Game II on `row` (1: `+`), by Sprague–Grundy theory
/// (the example's own oracle, independent of the engine).
fn flip_wins(row: &[u8]) -> bool {
    let row: Vec<i64> = row.iter().map(|&cell| i64::from(cell)).collect();
    user_tool::tests::flip_first_wins(&row)
}

#[test]
fn a_game_with_no_index_is_solved_on_hash_tables_as_theory_says() {
    for (case, seed) in numbers(3, 20, 1 << 30).into_iter().enumerate() {
        let len = 4 + case % 17;
        let row: Vec<u8> = (0..len)
            .map(|i| u8::from((seed >> (i % 30)) & 1 == 1 || i % 4 != 3))
            .collect();
        let values: Vec<String> = row.iter().map(u8::to_string).collect();
        let mut args = vec!["flip-game"];
        args.extend(values.iter().map(String::as_str));
        args.push("--json");
        let report = json(&args);
        assert_eq!(report["value"] == 1, flip_wins(&row), "{row:?}");
        // No state bound: the threads offered (every core), on a hash table of either kind.
        assert!(
            ["hash", "sharded"].contains(&report["table"].as_str().unwrap()),
            "{report}"
        );
        // The line flips two `+` each move and ends where no move is left.
        let mut at = row.clone();
        for entry in report["line"].as_array().unwrap() {
            let cell: usize = entry["move"].as_str().unwrap().parse().unwrap();
            assert_eq!((at[cell - 1], at[cell]), (1, 1), "{row:?}: move {cell}");
            (at[cell - 1], at[cell]) = (0, 0);
        }
        assert!(
            at.windows(2).all(|pair| pair != [1, 1]),
            "{row:?} ends at {at:?}"
        );
    }
    // Every move of a position, valued as theory says for the row it leaves.
    let analysis = json(&[
        "analyze",
        "flip-game",
        "1",
        "1",
        "1",
        "1",
        "1",
        "1",
        "1",
        "--at",
        "+++-+++",
        "--json",
    ]);
    for entry in analysis["moves"].as_array().unwrap() {
        let cell: usize = entry["move"].as_str().unwrap().parse().unwrap();
        let mut after = vec![1, 1, 1, 0, 1, 1, 1];
        (after[cell - 1], after[cell]) = (0, 0);
        assert_eq!(entry["value"] == 1, !flip_wins(&after), "move {cell}");
    }
    // A saved table is one value per index: refused, with the reason.
    let refused = run(&["flip-game", "1", "1", "1", "--save", "/nonexistent/t"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("declares none"),
        "{}",
        stderr(&refused)
    );
    let check = run(&["check", "flip-game", "1", "1", "1", "1", "1", "1", "1", "1"]);
    assert!(
        stdout(&check).contains("no violation"),
        "{}",
        stdout(&check)
    );
}

/// The guide's impartial game (docs/adding-a-game.md, section 11) in the tool: the nimber in
/// the words and in `--json`, each move's nimber in `analyze`, against the whole graph's mex.
#[test]
fn node_kayles_gives_its_nimber_and_each_moves() {
    let mut memo = std::collections::HashMap::new();
    for (case, seed) in numbers(11, 12, 1 << 30).into_iter().enumerate() {
        let count = 3 + case as i64 % 12;
        let mut values = vec![count];
        for edge in 0..count {
            let (v, w) = (edge, (edge + 1 + (seed >> edge) as i64 % 3) % count);
            if v != w {
                values.extend([v, w]);
            }
        }
        let game = user_tool::NodeKayles::from_values(&values).unwrap();
        memo.clear();
        let expected =
            user_tool::tests::node_kayles_nimber(&game.neighbours, game.start(), &mut memo);
        let texts: Vec<String> = values.iter().map(i64::to_string).collect();
        let mut args = vec!["node-kayles"];
        args.extend(texts.iter().map(String::as_str));
        args.push("--json");
        let report = json(&args);
        assert_eq!(report["nimber"], expected, "{values:?}: {report}");
        assert_eq!(
            report["value"],
            if expected == 0 { -1 } else { 1 },
            "{values:?}"
        );
        args.insert(0, "analyze");
        let analysis = json(&args);
        for entry in analysis["moves"].as_array().unwrap() {
            let vertex: usize = entry["move"].as_str().unwrap().parse().unwrap();
            let left = game.start() & !(1 << vertex | game.neighbours[vertex]);
            let after = user_tool::tests::node_kayles_nimber(&game.neighbours, left, &mut memo);
            assert_eq!(entry["nimber"], after, "{values:?}: vertex {vertex}");
            assert_eq!(
                entry["value"] == 1,
                after == 0,
                "{values:?}: vertex {vertex}"
            );
        }
    }
    let words = run(&["node-kayles", "5", "0", "1", "1", "2", "2", "3", "3", "4"]);
    assert!(stdout(&words).contains("*3"), "{}", stdout(&words));
    // Edges 0-1 and 2-3: two pieces of *1 and a lone vertex (*1) are *1; the two pieces alone *0.
    let at = |position| {
        json(&[
            "analyze",
            "node-kayles",
            "4",
            "0",
            "1",
            "2",
            "3",
            "--at",
            position,
            "--json",
        ])
    };
    assert_eq!(at("0 1 2")["nimber"], 0);
    assert_eq!(at("0 1")["nimber"], 1);
    assert_eq!(at("0 1 2 3")["nimber"], 0);
    let refused = run(&["node-kayles", "3", "0", "7"]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        stderr(&refused).contains("node kayles takes"),
        "{}",
        stderr(&refused)
    );
    let check = run(&[
        "check",
        "node-kayles",
        "6",
        "0",
        "1",
        "1",
        "2",
        "3",
        "4",
        "4",
        "5",
    ]);
    assert!(
        check.status.success() && stdout(&check).contains("no violation"),
        "{}",
        stdout(&check)
    );
}

#[cfg(unix)]
#[test]
fn a_game_with_no_index_is_played_in_a_terminal() -> Result<(), rexpect::error::Error> {
    let mut command = Command::new(tool());
    command
        .args(["play", "flip-game", "1", "1", "1", "1", "--as", "second"])
        .env("NO_COLOR", "1");
    let mut p = rexpect::session::spawn_command(command, Some(30_000))?;
    p.exp_string("you are Bob and move second; the solver plays Alice")?;
    // ++++: only the middle pair (2) leaves Bob no move.
    p.exp_string("Alice plays 2.")?;
    p.exp_string("Game over: Alice wins. You lose.")?;
    p.exp_eof()?;
    assert_eq!(exit_code(&p), 0);
    Ok(())
}

/// Hog's winning chance for the player to choose at `mine` to `theirs`, by its rules dealt out
/// die by die (the example's own oracle, independent of the engine).
fn hog_chance(goal: u32, most: u32, scores: (u32, u32)) -> f64 {
    user_tool::tests::hog_chance(goal, most, scores, &mut Default::default())
}

/// A fraction string's value.
fn fraction(text: &str) -> f64 {
    let (numerator, denominator) = text.split_once('/').unwrap_or((text, "1"));
    numerator.parse::<f64>().unwrap() / denominator.parse::<f64>().unwrap()
}

#[test]
fn a_dice_game_is_solved_exactly_analysed_by_its_outcomes_and_checked() {
    for (goal, most) in [(9, 2), (15, 3), (20, 1)] {
        let values = [goal.to_string(), most.to_string()];
        let report = json(&["hog", &values[0], &values[1], "--json"]);
        let expected = hog_chance(goal, most, (0, 0));
        let value = report["value"].as_f64().unwrap();
        assert!((value - expected).abs() < 1e-12, "{report}");
        // Play cannot cycle (every turn scores): exact, by expectimax.
        let exact = report["exact"].as_str().unwrap();
        assert!((fraction(exact) - expected).abs() < 1e-12, "{exact}");
        assert_eq!(report["solver"], "expectimax");
        assert!(report.get("error_bound").is_none(), "{report}");
        // The line alternates a choice and the roll it brings.
        let line = report["line"].as_array().unwrap();
        for pair in line.chunks(2) {
            assert!(
                pair[0]["move"].as_str().unwrap().starts_with("roll "),
                "{pair:?}"
            );
            if let Some(outcome) = pair.get(1) {
                assert_eq!(outcome["roll"], true, "{outcome}");
            }
        }
    }
    // A choice's value is the chance the rules give after its roll; at a roll, the outcomes'
    // probabilities sum to 1 and their chances, weighted, to the position's.
    let analysis = json(&["analyze", "hog", "20", "3", "--at", "15,18", "--json"]);
    let best = analysis["moves"].as_array().unwrap()[0].clone();
    assert_eq!(best["name"], "roll 2");
    assert!((fraction(best["exact"].as_str().unwrap()) - 5495.0 / 7776.0).abs() < 1e-15);
    let rolled = json(&["analyze", "hog", "20", "3", "--at", "15,18,2", "--json"]);
    assert_eq!(rolled["rolling"], true, "{rolled}");
    let outcomes = rolled["moves"].as_array().unwrap();
    let total: f64 = outcomes
        .iter()
        .map(|m| fraction(m["probability"].as_str().unwrap()))
        .sum();
    assert!((total - 1.0).abs() < 1e-12);
    let mean: f64 = outcomes
        .iter()
        .map(|m| fraction(m["probability"].as_str().unwrap()) * m["value"].as_f64().unwrap())
        .sum();
    assert!((mean - 5495.0 / 7776.0).abs() < 1e-12, "{rolled}");
    // After a Pig Out (1) at 15 to 18, the opponent chooses at 18 to 16.
    let pig_out = outcomes.iter().find(|m| m["name"] == "1").unwrap();
    assert!(
        (pig_out["value"].as_f64().unwrap() - (1.0 - hog_chance(20, 3, (18, 16)))).abs() < 1e-12
    );
    let check = run(&["check", "hog", "16", "3"]);
    assert!(
        stdout(&check).contains("no violation"),
        "{}",
        stdout(&check)
    );
    for (values, message) in [
        (&["hog", "0"][..], "GOAL (1 to 200)"),
        (&["hog", "20", "11"], "1 to 10"),
        (&["analyze", "hog", "20", "--at", "25,3"], "is no position"),
    ] {
        // Bad input: a message naming the problem, exit code 1.
        let output = run(values);
        assert_eq!(output.status.code(), Some(1), "{values:?}");
        assert!(
            stderr(&output).contains(message),
            "{values:?}: {}",
            stderr(&output)
        );
    }
}

#[cfg(unix)]
#[test]
fn a_dice_game_is_played_with_the_tool_rolling() -> Result<(), rexpect::error::Error> {
    let mut command = Command::new(tool());
    command
        .args(["play", "hog", "8", "1", "--seed", "7"])
        .env("NO_COLOR", "1");
    let mut p = rexpect::session::spawn_command(command, Some(30_000))?;
    p.exp_string("the dice are rolled for both (seed 7)")?;
    p.exp_string("Your move (roll 1): ")?;
    p.send_line("?")?;
    p.exp_string("Every move with its winning chance for you:")?;
    p.exp_string("Your move (")?;
    p.send_line("roll 1")?;
    p.exp_string("Alice rolls: ")?;
    // One die a turn until someone has 8: the game ends, won or lost.
    let mut turns = 0;
    loop {
        let (_, matched) = p.exp_regex(r"Your move \(roll 1\): |Game over: [^\n]*")?;
        if matched.starts_with("Game over") {
            break;
        }
        p.send_line("roll 1")?;
        turns += 1;
        assert!(turns < 20, "a game to 8 with a die a turn ends");
    }
    p.exp_eof()?;
    assert_eq!(exit_code(&p), 0);
    Ok(())
}

/// Waits for a program in a pseudo-terminal to end and returns its exit code.
#[cfg(unix)]
fn exit_code(session: &rexpect::session::PtySession) -> i32 {
    match session.process().wait().expect("the program ends") {
        rexpect::process::WaitStatus::Exited(_, code) => code,
        other => panic!("the program did not exit normally: {other:?}"),
    }
}
