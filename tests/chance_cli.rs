//! The games with chance on the command line: `pig`, `piglet` and `bear-off` solved, analysed
//! (every move's winning chance; at a roll every outcome with its probability), played with
//! the tool rolling the dice, checked, saved and loaded; and what they refuse.

#![cfg(feature = "cli")]

mod common;

use std::process::Command;

use common::{gamesolver_json, output_of};
use serde_json::Value;

fn gamesolver(args: &[&str], stdin: Option<&[u8]>) -> std::process::Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gamesolver"));
    command.args(args);
    output_of(command, stdin)
}

fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    gamesolver_json(&all)
}

#[test]
fn piglet_gives_its_value_as_a_number_and_as_an_exact_fraction() {
    let report = json(&["piglet", "2"]);
    assert_eq!(report["exact"], "4/7");
    assert!((report["value"].as_f64().unwrap() - 4.0 / 7.0).abs() < 1e-15);
    assert_eq!(report["answer"], report["value"]);
    assert_eq!(report["solver"], "value-iteration");
    assert!(report.get("error_bound").is_none());
    let report = json(&["piglet", "3"]);
    assert_eq!(report["exact"], "6/11");
    // The line is a game under optimal play: moves, and rolls with their probabilities.
    let line = report["line"].as_array().unwrap();
    assert!(
        line.iter()
            .any(|ply| ply["roll"] == true && ply["probability"] == "1/2")
    );
    assert!(
        line.iter()
            .any(|ply| ply["move"] == "flip" && ply.get("roll").is_none())
    );
}

#[test]
fn pig_gives_its_value_with_its_proved_error_bound() {
    let report = json(&["pig", "25"]);
    assert!(report.get("exact").is_none(), "{report}");
    let bound = report["error_bound"].as_f64().unwrap();
    assert!(bound > 0.0 && bound < 1e-9, "{report}");
    let value = report["value"].as_f64().unwrap();
    assert!(value > 0.5 && value < 0.6, "{report}");
    // Another die: a game of its own.
    let four = json(&["pig", "25", "4"]);
    assert_ne!(four["value"], report["value"]);
    let text = String::from_utf8(gamesolver(&["pig", "25"], None).stdout).unwrap();
    assert!(
        text.starts_with("With perfect play, Alice wins with probability 0.5"),
        "{text}"
    );
    assert!(
        text.contains("value iteration with proved bounds"),
        "{text}"
    );
}

#[test]
fn bear_off_is_exact_on_any_thread_count() {
    let one = json(&["bear-off", "3", "3", "--solver", "engine"]);
    let two = json(&["bear-off", "3", "3", "--threads", "2"]);
    assert_eq!(one["exact"], two["exact"]);
    assert_eq!(
        (one["threads"].as_u64(), two["threads"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(one["solver"], "expectimax");
    let exact = one["exact"].as_str().unwrap();
    assert!(exact.contains('/'), "{exact}");
    // A fraction too long to read is written as its decimal in words, whole in the JSON.
    let long = json(&["bear-off", "5", "4"]);
    let exact = long["exact"].as_str().unwrap();
    let (numerator, denominator) = exact.split_once('/').unwrap();
    assert!(exact.len() > 31, "{exact}");
    let value = numerator.parse::<f64>().unwrap() / denominator.parse::<f64>().unwrap();
    assert!((value - long["value"].as_f64().unwrap()).abs() < 1e-15);
    let words = String::from_utf8(gamesolver(&["bear-off", "5", "4"], None).stdout).unwrap();
    let headline = words.lines().next().unwrap();
    assert_eq!(
        headline,
        format!(
            "With perfect play, Alice wins with probability {value:.10} (exact: {}-digit \
             fraction).",
            denominator.len()
        )
    );
}

#[test]
fn analyze_values_every_move_and_at_a_roll_every_outcome() {
    let at_start = json(&["analyze", "piglet", "2"]);
    assert_eq!(at_start["rolling"], false);
    assert_eq!(at_start["exact"], "4/7");
    let moves = at_start["moves"].as_array().unwrap();
    assert_eq!(moves[0]["name"], "flip");
    assert_eq!(moves[0]["exact"], "4/7");
    assert_eq!(moves[0]["best"], true);
    assert_eq!(moves[1]["exact"], "3/7");
    // After the flip, a roll: each outcome with its probability, and the expectation.
    let rolling = json(&["analyze", "piglet", "2", "--after", "flip"]);
    assert_eq!(rolling["rolling"], true);
    let outcomes = rolling["moves"].as_array().unwrap();
    assert_eq!(outcomes.len(), 2);
    for outcome in outcomes {
        assert_eq!(outcome["probability"], "1/2");
        assert_eq!(outcome["best"], false);
    }
    let mean: f64 = outcomes
        .iter()
        .map(|o| o["value"].as_f64().unwrap() / 2.0)
        .sum();
    assert!((mean - rolling["value"].as_f64().unwrap()).abs() < 1e-12);
    // The first player's chance, whoever moves: after tails, Bob is to move.
    let after = json(&["analyze", "piglet", "2", "--after", "flip;tails"]);
    let bob = after["value"].as_f64().unwrap();
    assert!((after["first_value"].as_f64().unwrap() - (1.0 - bob)).abs() < 1e-12);
    // A bear-off position with the dice shown.
    let race = json(&["analyze", "bear-off", "3", "2", "--at", "0,1,1/0,0,2:1-2"]);
    assert_eq!(race["rolling"], false);
    assert_eq!(race["view"]["kind"], "dice");
    assert_eq!(race["view"]["dice"], serde_json::json!([1, 2]));
    assert!(
        race["moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m.get("probability").is_none())
    );
    let text =
        String::from_utf8(gamesolver(&["analyze", "pig", "20", "--at", "3,5,4,r"], None).stdout)
            .unwrap();
    assert!(text.contains("A roll decides"), "{text}");
    assert!(text.contains("1/6"), "{text}");
}

#[test]
fn play_rolls_the_dice_with_the_seed_given() {
    let input = b"flip\nflip\nflip\nflip\nflip\nflip\nflip\nflip\nflip\nflip\nflip\nflip\n";
    let once = gamesolver(&["play", "piglet", "2", "--seed", "5"], Some(input));
    let twice = gamesolver(&["play", "piglet", "2", "--seed", "5"], Some(input));
    assert!(once.status.success());
    let text = String::from_utf8(once.stdout).unwrap();
    assert_eq!(
        text,
        String::from_utf8(twice.stdout).unwrap(),
        "the same seed, the same game"
    );
    assert!(
        text.contains("rolls: heads") || text.contains("rolls: tails"),
        "{text}"
    );
    assert!(text.contains("Your winning chance now"), "{text}");
    assert!(
        text.contains("Game over") || text.contains("Game left unfinished"),
        "{text}"
    );
}

#[test]
fn check_compares_the_engine_with_a_plain_expectimax() {
    let report = json(&["check", "bear-off", "3", "2"]);
    assert_eq!(report["ok"], true, "{report}");
    assert!(report["values_compared"].as_u64().unwrap() > 0);
    let report = json(&["check", "piglet", "4"]);
    assert_eq!(report["ok"], true, "{report}");
}

#[test]
fn saved_values_answer_without_solving_and_are_refused_for_another_game() {
    let dir = std::env::temp_dir().join(format!("chance-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("pig.gs");
    let path = file.to_str().unwrap();
    let solved = json(&["pig", "15", "--save", path]);
    let loaded = json(&["pig", "15", "--load", path]);
    assert_eq!(loaded["value"], solved["value"]);
    assert_eq!(loaded["table"], "loaded");
    let at = json(&["analyze", "pig", "15", "--load", path, "--at", "4,7,2"]);
    let fresh = json(&["analyze", "pig", "15", "--at", "4,7,2"]);
    assert_eq!(at["value"], fresh["value"]);
    // A race keeps its positions between rolls; after a roll it values the plays from them.
    let race = dir.join("race.gs");
    let race = race.to_str().unwrap();
    let solved = json(&["bear-off", "3", "3", "--save", race]);
    let loaded = json(&["bear-off", "3", "3", "--load", race]);
    assert_eq!(loaded["exact"], solved["exact"]);
    let rolled = ["analyze", "bear-off", "3", "3", "--at", "0,2,1/1,1,1:2-3"];
    let mut with_load = rolled.to_vec();
    with_load.extend(["--load", race]);
    assert_eq!(json(&with_load)["exact"], json(&rolled)["exact"]);
    // Another game's file, another goal's, a damaged one: refused, never used.
    let other = gamesolver(&["piglet", "15", "--load", path], None);
    assert_eq!(other.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&other.stderr).contains("not piglet"));
    let goal = gamesolver(&["pig", "16", "--load", path], None);
    assert!(String::from_utf8_lossy(&goal.stderr).contains("other values"));
    let mut bytes = std::fs::read(path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x5a;
    let damaged = dir.join("damaged.gs");
    std::fs::write(&damaged, &bytes).unwrap();
    let refused = gamesolver(&["pig", "15", "--load", damaged.to_str().unwrap()], None);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("corrupt"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_refused_with_a_message_that_names_it() {
    for (args, says) in [
        (vec!["pig", "0"], "goal"),
        (vec!["pig", "100", "1"], "faces"),
        (vec!["piglet", "5", "2"], "piglet takes GOAL"),
        (vec!["bear-off", "7", "2"], "points"),
        (vec!["bear-off", "6", "16"], "checkers"),
        (
            vec!["pig", "20", "--solver", "alphabeta"],
            "solved by expectation",
        ),
        (
            vec!["analyze", "pig", "20", "--at", "3,5"],
            "MINE,THEIRS,TURN",
        ),
        (
            vec!["analyze", "bear-off", "3", "2", "--at", "0,9/1"],
            "checkers",
        ),
        (
            vec!["analyze", "bear-off", "3", "2", "--at", "0,1/1:7-1"],
            "a die shows 1 to 6",
        ),
    ] {
        let output = gamesolver(&args, None);
        assert_ne!(output.status.code(), Some(0), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
