//! The time forecast before a long solve (issue 28, item 6): calibrated on the running machine,
//! within 3× of the solve's measured time.

#![cfg(feature = "cli")]

use std::process::Command;
use std::time::Instant;

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
/// thread: the refusal under a 1 ms limit states an estimate, and the solve itself takes
/// between a third and three times that.
#[test]
fn a_slow_solve_is_forecast_within_three_times_its_time() {
    let stones: Vec<String> = (0..4000)
        .map(|i| (i * 7919 % 1000 + 1).to_string())
        .collect();
    let stones = stones.join(",");
    let binary = env!("CARGO_BIN_EXE_gamesolver");
    let run = |limit: Option<&str>| {
        let mut command = Command::new(binary);
        command.args(["stone-game-vii", &stones, "--threads", "1"]);
        if let Some(limit) = limit {
            command.args(["--time-limit", limit]);
        }
        command.output().unwrap()
    };
    let refused = run(Some("1ms"));
    assert!(!refused.status.success());
    let message = String::from_utf8(refused.stderr).unwrap();
    let estimate = estimated_seconds(&message);
    let clock = Instant::now();
    let solved = run(None);
    let measured = clock.elapsed().as_secs_f64();
    assert!(solved.status.success(), "{solved:?}");
    eprintln!("estimated {estimate} s, measured {measured:.2} s");
    // The estimate is in whole seconds: half a second either way is its rounding.
    let (low, high) = ((estimate - 0.5).max(0.0) / 3.0, (estimate + 0.5) * 3.0);
    assert!(
        (low..=high).contains(&measured),
        "estimated {estimate} s, measured {measured:.2} s ({message})"
    );
}
