//! Quixo through the command line: the solve, positions as GamesmanOne writes them, tier files
//! written as tiers complete, a solve killed mid-way and resumed, and answers from the file.
#![cfg(feature = "cli")]

mod common;

use std::process::{Command, Stdio};
use std::time::Duration;

use common::gamesolver_json;
use gamesolver::Tiered;
use gamesolver::engines::tiers::file::TierFile;
use gamesolver::games::Quixo;

fn gamesolver() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gamesolver"))
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("quixo-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn three_by_three_is_won_in_seven_and_positions_read_as_gamesmanone_writes_them() {
    let solved = gamesolver_json(&["quixo", "3", "--json"]);
    assert_eq!(solved["value"], 1);
    assert_eq!(solved["remoteness"], 7);
    assert_eq!(solved["solver"], "loopy-tier");
    assert_eq!(solved["line"].as_array().unwrap().len(), 7);
    // X in the top-left corner, O to move: a loss in 6 for O (GamesmanOne's query says so).
    let analysis = gamesolver_json(&["analyze", "quixo", "3", "--at", "2_X--------", "--json"]);
    assert_eq!(
        (analysis["value"].as_i64(), analysis["remoteness"].as_i64()),
        (Some(-1), Some(6))
    );
    for mv in analysis["moves"].as_array().unwrap() {
        assert_eq!(mv["value"], -1);
        assert!(mv["remoteness"].as_i64().unwrap() >= 6, "{mv}");
    }
}

/// `check` keeps the tier contract (moves within a tier allowed: the game may cycle) and
/// compares every reachable position's outcome and remoteness with value iteration.
#[test]
fn check_compares_every_reachable_value() {
    let report = gamesolver_json(&["check", "quixo", "3", "--json"]);
    assert_eq!(report["ok"], true, "{report}");
    assert!(
        report["values_compared"].as_u64().unwrap() > 30_000,
        "{report}"
    );
}

#[test]
fn bad_sides_and_positions_are_refused_by_name() {
    for (args, says) in [
        (vec!["quixo", "6"], "3, 4 or 5"),
        (vec!["quixo", "3", "4"], "one VALUE"),
        (
            vec!["analyze", "quixo", "3", "--at", "1_XO"],
            "2 cells given",
        ),
        (
            vec!["analyze", "quixo", "3", "--at", "2_---------"],
            "no cube on the border",
        ),
        (
            vec!["analyze", "quixo", "3", "--at", "3_---------"],
            "not 1 or 2",
        ),
    ] {
        let output = gamesolver().args(&args).output().unwrap();
        assert!(!output.status.success(), "{args:?}");
        let text = String::from_utf8_lossy(&output.stderr);
        assert!(text.contains(says), "{args:?}: {text}");
    }
}

/// The first four fields of a solve's report: what resuming must not change.
fn essentials(report: &serde_json::Value) -> String {
    format!(
        "{} {} {}",
        report["value"], report["remoteness"], report["line"]
    )
}

/// A saving solve killed at a random moment (several times) resumes with `--resume` and ends
/// with the same answer as a solve never stopped; the file then answers positions with
/// `--load`; a damaged file is refused by name.
#[test]
fn a_killed_solve_resumes_to_the_same_answer() {
    let dir = scratch("resume");
    let whole = gamesolver_json(&["quixo", "3", "--json"]);
    let game = Quixo::new(3).unwrap();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut landed_mid_solve = 0;
    for run in 0..6 {
        let file = dir.join(format!("run{run}.tiers"));
        let file_text = file.to_str().unwrap();
        let mut child = gamesolver()
            .args([
                "quixo",
                "3",
                "--threads",
                "1",
                "--save",
                file_text,
                "--json",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        std::thread::sleep(Duration::from_millis(5 + seed % 120));
        let _ = child.kill();
        child.wait().unwrap();
        let held = TierFile::open(&file).map_or(0, |saved| saved.tiers_held());
        if held > 0 && held < game.tier_count() {
            landed_mid_solve += 1;
        }
        // Whatever the kill left (no file, a header cut short, complete tiers and a tier cut
        // short, or the whole file), --resume ends with the same answer.
        let resumed = gamesolver_json(&["quixo", "3", "--save", file_text, "--resume", "--json"]);
        assert_eq!(essentials(&resumed), essentials(&whole), "run {run}");
        assert_eq!(
            TierFile::open(&file).unwrap().tiers_held(),
            game.tier_count()
        );
    }
    // On a machine so fast or so slow that no kill landed mid-solve the test shows nothing:
    // say so rather than pass quietly.
    assert!(
        landed_mid_solve > 0,
        "no kill landed while tiers were being written"
    );

    let file = dir.join("whole.tiers");
    let file_text = file.to_str().unwrap();
    gamesolver_json(&["quixo", "3", "--save", file_text, "--json"]);
    let loaded = gamesolver_json(&["quixo", "3", "--load", file_text, "--json"]);
    assert_eq!(essentials(&loaded), essentials(&whole));
    assert_eq!(loaded["table"], "file");
    let at = gamesolver_json(&[
        "analyze",
        "quixo",
        "3",
        "--load",
        file_text,
        "--at",
        "2_X--------",
        "--json",
    ]);
    assert_eq!(
        (at["value"].as_i64(), at["remoteness"].as_i64()),
        (Some(-1), Some(6))
    );
    // Saving again over the file is refused: nothing saved is overwritten.
    let again = gamesolver()
        .args(["quixo", "3", "--save", file_text])
        .output()
        .unwrap();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("--resume"));
    // Another game's file.
    let other = gamesolver()
        .args([
            "analyze",
            "quixo",
            "4",
            "--load",
            file_text,
            "--at",
            "1_----------------",
        ])
        .output()
        .unwrap();
    assert!(!other.status.success());
    assert!(String::from_utf8_lossy(&other.stderr).contains("not of quixo 4"));
    // A damaged tier: a byte flipped in the middle of its blocks.
    let mut bytes = std::fs::read(&file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x10;
    std::fs::write(&file, &bytes).unwrap();
    let damaged = gamesolver()
        .args(["quixo", "3", "--save", file_text, "--resume"])
        .output()
        .unwrap();
    assert!(!damaged.status.success());
    let text = String::from_utf8_lossy(&damaged.stderr);
    assert!(text.contains("damaged") && text.contains("tier"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `serve --load FILE` answers the game the file holds from it: a file cut short before the
/// start's tier says it holds no value there (so the answer did come from the file), a whole
/// one gives the solve's answer.
#[cfg(feature = "serve")]
#[test]
fn the_page_answers_from_a_tier_file() {
    use std::io::{BufRead, BufReader, Read, Write};
    let dir = scratch("serve");
    let whole = dir.join("whole.tiers");
    gamesolver_json(&["quixo", "3", "--save", whole.to_str().unwrap(), "--json"]);
    let bytes = std::fs::read(&whole).unwrap();
    let cut = dir.join("cut.tiers");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let ask = |file: &std::path::Path| -> serde_json::Value {
        let mut server = gamesolver()
            .args(["serve", "--port", "0", "--load", file.to_str().unwrap()])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(server.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .split("127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no port in {line:?}"))
            .to_string();
        let mut stream = std::net::TcpStream::connect(format!("127.0.0.1:{port}")).unwrap();
        write!(
            stream,
            "GET /api/analyze?game=quixo&values=3 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let _ = server.kill();
        server.wait().unwrap();
        let body = response.split("\r\n\r\n").nth(1).unwrap_or_default();
        serde_json::from_str(body).unwrap_or_else(|_| panic!("{response}"))
    };
    let answered = ask(&whole);
    assert_eq!(
        (answered["value"].as_i64(), answered["remoteness"].as_i64()),
        (Some(1), Some(7))
    );
    let refused = ask(&cut);
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("holds no value"),
        "{refused}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Within 100 KiB, 3×3 keeps only the tiers still needed and iterates the tiers whose reverse
/// moves do not fit: the start's outcome and remoteness are those of the whole solve, and the
/// line it cannot give is withheld with a note, not cut short.
#[test]
fn a_solve_within_a_small_budget_keeps_the_remoteness_and_withholds_the_line() {
    let whole = gamesolver_json(&["quixo", "3", "--json"]);
    let small = gamesolver_json(&[
        "quixo",
        "3",
        "--threads",
        "1",
        "--memory-limit",
        "100K",
        "--json",
    ]);
    assert_eq!(
        (&small["value"], &small["remoteness"], &small["outcome"]),
        (&whole["value"], &whole["remoteness"], &whole["outcome"])
    );
    assert_eq!(small["remoteness"], 7);
    assert_eq!(small["line"].as_array().map(Vec::len), Some(0));
    let text = gamesolver()
        .args(["quixo", "3", "--threads", "1", "--memory-limit", "100K"])
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("The game lasts 7 moves"), "{text}");
    assert!(text.contains("No line of play"), "{text}");
}
