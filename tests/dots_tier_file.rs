//! Dots and Boxes saved by the tier solver through the command line: a tier file written as
//! tiers complete, a solve killed mid-way and resumed, answers read from the file, and a
//! damaged file refused by name.
#![cfg(feature = "cli")]

mod common;

use std::process::{Command, Stdio};
use std::time::Duration;

use common::gamesolver_json;
use gamesolver::Tiered;
use gamesolver::engines::tiers::file::TierFile;
use gamesolver::games::DotsAndBoxes;

fn gamesolver() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gamesolver"))
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dots-tiers-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What resuming must not change: the value and the line.
fn essentials(report: &serde_json::Value) -> String {
    format!("{} {}", report["value"], report["line"])
}

/// A saving solve of 2×4 (23 tiers, 4 Mi states) killed at random moments resumes with
/// `--resume` to the answer of a solve never stopped; the file then answers every position of
/// the line as the solve in memory does.
#[test]
fn a_killed_dots_and_boxes_solve_resumes_to_the_same_answer() {
    let dir = scratch("resume");
    let game = DotsAndBoxes::new(2, 4).unwrap();
    let whole = gamesolver_json(&["dots-and-boxes", "2", "4", "--json"]);
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut landed_mid_solve = 0;
    for run in 0..3 {
        let file = dir.join(format!("run{run}.tiers"));
        let file_text = file.to_str().unwrap();
        let mut child = gamesolver()
            .args(["dots-and-boxes", "2", "4", "--threads", "1"])
            .args(["--save", file_text, "--json"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        std::thread::sleep(Duration::from_millis(100 + seed % 1500));
        let _ = child.kill();
        child.wait().unwrap();
        let held = TierFile::open(&file).map_or(0, |saved| saved.tiers_held());
        if held > 0 && held < game.tier_count() {
            landed_mid_solve += 1;
        }
        let resumed = gamesolver_json(&[
            "dots-and-boxes",
            "2",
            "4",
            "--save",
            file_text,
            "--resume",
            "--json",
        ]);
        assert_eq!(essentials(&resumed), essentials(&whole), "run {run}");
        assert_eq!(
            TierFile::open(&file).unwrap().tiers_held(),
            game.tier_count()
        );
    }
    assert!(
        landed_mid_solve > 0,
        "no kill landed while tiers were being written"
    );

    // The file answers the start and each position of the line as the solve in memory does.
    let file = dir.join("run0.tiers");
    let file_text = file.to_str().unwrap();
    let loaded = gamesolver_json(&["dots-and-boxes", "2", "4", "--load", file_text, "--json"]);
    assert_eq!(essentials(&loaded), essentials(&whole));
    assert_eq!(loaded["table"], "file");
    let mut drawn: Vec<String> = Vec::new();
    for ply in whole["line"].as_array().unwrap().iter().take(3) {
        let dot = |key: &str| format!("{},{}", ply[key][0], ply[key][1]);
        drawn.push(format!("{}-{}", dot("from"), dot("to")));
        let at = drawn.join(" ");
        let ask = |load: Option<&str>| {
            let mut args = vec!["analyze", "dots-and-boxes", "2", "4", "--at", &at, "--json"];
            if let Some(file) = load {
                args.extend(["--load", file]);
            }
            let answer = gamesolver_json(&args);
            (answer["value"].clone(), answer["moves"].clone())
        };
        assert_eq!(ask(Some(file_text)), ask(None), "at {at}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A tier file with a damaged block is refused by `--load` (whose line reads every tier) and
/// by `--resume`, with a message that names the file, and never used; a file of another board
/// is refused too.
#[test]
fn a_damaged_dots_and_boxes_tier_file_is_refused_by_name() {
    let dir = scratch("damaged");
    let file = dir.join("two-by-three.tiers");
    let file_text = file.to_str().unwrap();
    gamesolver_json(&["dots-and-boxes", "2", "3", "--save", file_text, "--json"]);
    let mut bytes = std::fs::read(&file).unwrap();
    // The blocks lie past the header and the first record's head: damage one in the middle.
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    let damaged = dir.join("damaged.tiers");
    std::fs::write(&damaged, &bytes).unwrap();
    let damaged_text = damaged.to_str().unwrap();
    for args in [
        vec!["dots-and-boxes", "2", "3", "--load", damaged_text],
        vec![
            "dots-and-boxes",
            "2",
            "3",
            "--save",
            damaged_text,
            "--resume",
        ],
    ] {
        let output = gamesolver().args(&args).output().unwrap();
        let text = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {text}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(
            text.contains(damaged_text) && text.contains("damaged"),
            "{args:?}: {text}"
        );
    }
    let output = gamesolver()
        .args(["dots-and-boxes", "2", "2", "--load", file_text])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(text.contains("dots-and-boxes 2 3"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `play --load` answers from a tier file: the solver's replies and the verdict on the
/// person's moves come from the file, as `analyze` from the same file values them.
#[test]
fn play_answers_from_a_dots_and_boxes_tier_file() {
    use std::io::Write;
    let dir = scratch("play");
    let file = dir.join("one-by-two.tiers");
    let file_text = file.to_str().unwrap();
    gamesolver_json(&["dots-and-boxes", "1", "2", "--save", file_text, "--json"]);
    let mut child = gamesolver()
        .args(["play", "dots-and-boxes", "1", "2", "--load", file_text])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"0,0-0,1\nq\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{text}");
    // Alice's first move loses 2 boxes where 0,1-1,1 holds the game level (the file says so).
    let analysis = gamesolver_json(&[
        "analyze",
        "dots-and-boxes",
        "1",
        "2",
        "--load",
        file_text,
        "--json",
    ]);
    let first = analysis["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|mv| mv["name"] == "0,0-0,1")
        .unwrap()
        .clone();
    assert_eq!(first["value"], -2);
    assert!(
        text.contains("Not the best") && text.contains("this move -2"),
        "{text}"
    );
    assert!(text.contains("Bob draws"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}
