//! The time forecast before a long solve: a solve foreseen to pass its time limit is refused at
//! once, with the estimate. (How close the estimate comes to the solve's time is measured in
//! docs/performance.md, not asserted here: no test asserts a timing.)

#![cfg(feature = "cli")]

use std::process::Command;

/// The estimate, in seconds, in a refusal "this solve would take about N s" or "N minutes".
fn estimated_seconds(message: &str) -> f64 {
    let about = message
        .split("would take about ")
        .nth(1)
        .unwrap_or_else(|| panic!("no estimate in {message:?}"));
    let mut words = about.split_whitespace();
    let number: f64 = words.next().unwrap().parse().unwrap();
    match words.next().unwrap().trim_end_matches(',') {
        "s" => number,
        "minutes" => number * 60.0,
        unit => panic!("unexpected unit {unit:?} in {message:?}"),
    }
}

/// Stone Game VII's engine on 4000 stones (16 million moves: seconds in a test build), one
/// thread: under a 1 ms limit it is refused before it starts, and the refusal states an
/// estimate of seconds; under a limit of an hour it is not refused.
#[test]
fn a_slow_solve_is_refused_at_once_with_its_estimate() {
    let stones: Vec<String> = (0..4000)
        .map(|i| (i * 7919 % 1000 + 1).to_string())
        .collect();
    let stones = stones.join(",");
    let binary = env!("CARGO_BIN_EXE_gamesolver");
    let run = |limit: &str| {
        Command::new(binary)
            .args([
                "stone-game-vii",
                &stones,
                "--threads",
                "1",
                "--time-limit",
                limit,
            ])
            .output()
            .unwrap()
    };
    let refused = run("1ms");
    assert!(!refused.status.success());
    let message = String::from_utf8(refused.stderr).unwrap();
    let estimate = estimated_seconds(&message);
    assert!(estimate.is_finite() && estimate >= 0.0, "{message}");
    let solved = run("1h");
    assert!(solved.status.success(), "{solved:?}");
}
