//! Proof-number search against the pruning engine, side by side, on games as a user writes
//! them (tests/common and benches/newcomers: no declaration beyond what each line says): k in
//! a row by its literal rules, Domineering and Hex (outcome games), Connect Four as a newcomer writes it (a value
//! range of −1 to 1), from the empty board. Each input runs both engines in turn, `RUNS` times, one
//! thread each; prints the value (the two must agree), each engine's median time and the
//! states it expanded, and the ratio proof / pruning (docs/performance.md quotes them).
//!
//! `cargo bench --bench proof [-- RUNS [SECONDS] [WORDS]]` (default 3 runs, 60 s a solve; a
//! solve past its limit is shown as `>` the limit; with WORDS, only the rows whose name holds
//! one of them, as `domineering` or `5x5`).

#[allow(dead_code)] // its oracle, `by_hand`, is for the tests
#[path = "newcomers/hex.rs"]
mod hex;
#[path = "../tests/common/k_in_a_row.rs"]
mod k_in_a_row;
#[path = "../tests/common/user_games.rs"]
mod user_games;

use std::time::{Duration, Instant};

use gamesolver::{Engine, Game, Limits, Score, Solved, Solver};
use hex::Hex;
use k_in_a_row::{KInARow, Literal};
use user_games::{Domineering, PlainFour};

/// One solve's value, states expanded and time; `None` past the time limit.
type Run = Option<(Score, u64, Duration)>;

/// `engine` on one thread.
fn by<G>(engine: Engine, game: &G, limit: Duration) -> Run
where
    G: Game + Sync,
    G::State: Eq + std::hash::Hash + Send + Sync,
    G::Move: Send,
{
    let started = Instant::now();
    let solved = Solver::new(game)
        .engine(engine)
        .threads(1)
        .limits(Limits::default().time_limit(limit))
        .solve()
        .ok()?;
    Some((solved.value(), solved.stats().expanded, started.elapsed()))
}

/// The median of `times`.
fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// Both engines on `game`, `runs` times each in turn; one line of the table.
fn compare<G>(name: &str, game: &G, (runs, limit, words): (usize, Duration, &[String]))
where
    G: Game + Sync,
    G::State: Eq + std::hash::Hash + Send + Sync,
    G::Move: Send,
{
    if !words.is_empty() && !words.iter().any(|word| name.contains(word.as_str())) {
        return;
    }
    let (mut proof_times, mut pruning_times) = (Vec::new(), Vec::new());
    let (mut proof_run, mut pruning_run) = (None, None);
    for _ in 0..runs {
        proof_run = by(Engine::Proof, game, limit);
        pruning_run = by(Engine::Pruning, game, limit);
        proof_times.push(proof_run.map_or(limit, |run| run.2));
        pruning_times.push(pruning_run.map_or(limit, |run| run.2));
    }
    if let (Some(a), Some(b)) = (proof_run, pruning_run) {
        assert_eq!(a.0, b.0, "{name}: the engines disagree");
    }
    let shown = |run: Run, times: Vec<Duration>| match run {
        Some((_, expanded, _)) => format!("{:>10.3} s {expanded:>12}", median(times).as_secs_f64()),
        None => format!("{:>10} {:>14}", format!("> {} s", limit.as_secs()), "-"),
    };
    let value = proof_run
        .or(pruning_run)
        .map_or("?".to_string(), |run| run.0.to_string());
    let ratio = match (proof_run, pruning_run) {
        (Some(_), Some(_)) => format!(
            "{:.2}",
            median(proof_times.clone()).as_secs_f64() / median(pruning_times.clone()).as_secs_f64()
        ),
        _ => "-".to_string(),
    };
    println!(
        "{name:<28} {value:>6} {} {} {ratio:>8}",
        shown(proof_run, proof_times),
        shown(pruning_run, pruning_times)
    );
}

fn main() {
    // `cargo bench` passes `--bench`: not a word of ours.
    let (numbers, words): (Vec<String>, Vec<String>) = std::env::args()
        .skip(1)
        .filter(|argument| !argument.starts_with("--"))
        .partition(|argument| argument.parse::<u64>().is_ok());
    let numbers: Vec<u64> = numbers.iter().filter_map(|n| n.parse().ok()).collect();
    let runs = numbers.first().map_or(3, |&runs| runs.max(1) as usize);
    let limit = Duration::from_secs(numbers.get(1).copied().unwrap_or(60));
    let settings = (runs, limit, words.as_slice());
    println!(
        "{:<28} {:>6} {:>12} {:>12} {:>12} {:>12} {:>8}",
        "game", "value", "proof", "expanded", "pruning", "expanded", "ratio"
    );
    for (width, height, k) in [(3, 3, 3), (4, 3, 3), (4, 4, 3), (4, 4, 4), (5, 4, 4)] {
        let name = format!("k in a row {width}x{height}, k {k}");
        compare(&name, &Literal(KInARow::new(width, height, k)), settings);
    }
    for (rows, columns) in [(4, 4), (5, 5), (4, 7), (6, 6)] {
        let name = format!("domineering {rows}x{columns}");
        compare(&name, &Domineering::new(rows, columns), settings);
    }
    for size in [3, 4, 5] {
        compare(&format!("hex {size}x{size}"), &Hex::new(size), settings);
    }
    for (width, height) in [(4, 4), (5, 4), (6, 4), (5, 5), (7, 4), (6, 5)] {
        let name = format!("connect four {width}x{height}");
        compare(&name, &PlainFour { width, height }, settings);
    }
}
