//! Six Men's Morris through the command line: the solve, positions read and refused by name,
//! and answers from a tier file agreeing with answers solved afresh.
#![cfg(feature = "cli")]

mod common;

use std::process::Command;

use common::gamesolver_json;

fn gamesolver() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gamesolver"))
}

/// White to move with three men on a5, c5 and e3, Black with three on the inner square's
/// bottom side: e3-e5 closes a mill and leaves Black two men.
const WON_IN_ONE: &str = "W00:WW-/---/---W/BBB/---";

/// `analyze six-mens-morris 4 --at POSITION --json`.
fn analyze_four_men(position: &str) -> serde_json::Value {
    gamesolver_json(&[
        "analyze",
        "six-mens-morris",
        "4",
        "--at",
        position,
        "--json",
    ])
}

#[test]
fn four_men_draw_and_a_mill_wins_in_one() {
    let solved = gamesolver_json(&["six-mens-morris", "4", "--json"]);
    assert_eq!(solved["value"], 0);
    assert_eq!(solved["solver"], "loopy-tier");
    let analysis = analyze_four_men(WON_IN_ONE);
    assert_eq!(
        (analysis["value"].as_i64(), analysis["remoteness"].as_i64()),
        (Some(1), Some(1))
    );
    let winning: Vec<&str> = analysis["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|mv| mv["value"] == 1 && mv["remoteness"] == 1)
        .map(|mv| mv["move"].as_str().unwrap())
        .collect();
    // Flying (three men on the board) reaches e5 from any of them; only e3 leaves a5 and c5.
    assert!(winning.contains(&"e3-e5xb2"), "{winning:?}");
    assert!(
        winning.iter().all(|name| name.contains("-e5x")),
        "{winning:?}"
    );
}

#[test]
fn bad_values_and_positions_are_refused_by_name() {
    for (args, says) in [
        (vec!["six-mens-morris", "8"], "3 to 7 men"),
        (vec!["six-mens-morris", "6", "2"], "FLYING is 1"),
        (vec!["six-mens-morris", "6", "1", "1"], "one or two VALUES"),
        (vec!["six-mens-morris"], "no values given"),
        (
            vec!["analyze", "six-mens-morris", "6", "--at", "W66:---"],
            "3 points given",
        ),
        (
            vec![
                "analyze",
                "six-mens-morris",
                "6",
                "--at",
                "W56:W--/---/----/---/---",
            ],
            "not White's turn",
        ),
    ] {
        let output = gamesolver().args(&args).output().unwrap();
        assert!(!output.status.success(), "{args:?}");
        let text = String::from_utf8_lossy(&output.stderr);
        assert!(text.contains(says), "{args:?}: {text}");
    }
}

/// A solve saved tier by tier answers positions from the file as a solve in memory does.
#[test]
fn a_saved_solve_answers_as_a_fresh_one() {
    let dir = std::env::temp_dir().join(format!("morris-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("morris4.tiers");
    let path = file.to_str().unwrap();
    let saved = gamesolver_json(&["six-mens-morris", "4", "--save", path, "--json"]);
    assert_eq!(saved["value"], 0);
    for at in [
        WON_IN_ONE,
        "B23:W--/-W-/----/-B-/---",
        "W00:WWB/B-W/B--W/---/B--",
    ] {
        let fresh = gamesolver_json(&["analyze", "six-mens-morris", "4", "--at", at, "--json"]);
        let loaded = gamesolver_json(&[
            "analyze",
            "six-mens-morris",
            "4",
            "--load",
            path,
            "--at",
            at,
            "--json",
        ]);
        for field in ["value", "remoteness", "moves"] {
            assert_eq!(fresh[field], loaded[field], "{at}: {field}");
        }
    }
    // The file holds four men's game: five men's is refused, naming what it holds.
    let output = gamesolver()
        .args(["six-mens-morris", "5", "--load", path])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let text = String::from_utf8_lossy(&output.stderr);
    assert!(text.contains("six-mens-morris 4"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Black to move with two men (four a side, none in hand): White has won. The value is the
/// mover's (−1), and the result names White, from whichever side the position is seen.
#[test]
fn analyze_at_a_position_with_black_to_move_names_white_the_winner() {
    let analysis = analyze_four_men("B00:W-W/-B-/W--W/-B-/---");
    assert_eq!(analysis["value"], -1);
    assert_eq!(analysis["to_move"], "second");
    assert_eq!(analysis["result"], "White wins");
    let won = analyze_four_men(WON_IN_ONE);
    assert_eq!(won["to_move"], "first");
    assert_eq!(won["result"], "White wins");
}
