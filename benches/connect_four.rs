//! Connect Four with the pruning engine on Pons' three "easy" benchmark sets (end, middle,
//! beginning): all positions of a set per iteration (the full 1000-line sets from the folder in
//! `GAMESOLVER_CONNECT4_DIR`, else ../shared/bench/connect4 where it exists, else the
//! repository's 250-line samples in tests/data/connect4), with a
//! fresh 64 MiB table each time (as one `gamesolver connect-four --batch` process has): on one
//! thread; on two, one position at a time (`par_value_of`); and on two, positions side by side
//! (`par_values_of`, what `--batch --threads 2` does). Every score is asserted against the
//! published one.
//!
//! A last group takes issue 25's goal in process: the first 100 beginning positions on one
//! thread and one at a time on two (a parallel query each, and one session for all, as
//! `--batch --one-at-a-time` runs), each on the 8 MiB table the command line starts a batch
//! with.
//!
//! `cargo bench --bench connect_four`; benches/connect_four.sh times whole processes against
//! Pons' solver side by side. The statistics printed first (states searched per second, table
//! entries) come from one untimed pass.

use gamesolver::engines::pruning;
use std::hint::black_box;
use std::time::Instant;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use gamesolver::games::{ConnectFour, Position};
use gamesolver::memo::{AtomicBoundTable, FixedBoundTable};
use gamesolver::{Score, engines::pruning::Pruner};

const TABLE_BYTES: u64 = 64 << 20;

fn load(set: &str) -> Vec<(Position, Score)> {
    let game = ConnectFour::new(7, 6).unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = match std::env::var("GAMESOLVER_CONNECT4_DIR") {
        Ok(dir) if !dir.is_empty() => dir,
        _ if std::path::Path::new(&format!("{root}/../shared/bench/connect4")).is_dir() => {
            format!("{root}/../shared/bench/connect4")
        }
        _ => format!("{root}/tests/data/connect4"),
    };
    let path = format!("{dir}/{set}");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{path}: {error}"))
        .lines()
        .map(|line| {
            let (moves, score) = line.split_once(' ').unwrap();
            (game.position(moves).unwrap(), score.parse().unwrap())
        })
        .collect()
}

/// Solves every position on one thread with one fresh table; returns (states searched, entries).
fn sequential(game: &ConnectFour, positions: &[(Position, Score)]) -> (u64, usize) {
    sequential_on(game, positions, TABLE_BYTES)
}

/// [`sequential`] with a table of `bytes`.
fn sequential_on(game: &ConnectFour, positions: &[(Position, Score)], bytes: u64) -> (u64, usize) {
    let table = FixedBoundTable::for_game(game, bytes).unwrap();
    let mut pruner = Pruner::new(game, table, pruning::Options::new().ranged()).unwrap();
    for (position, score) in positions {
        assert_eq!(pruner.value_of(black_box(position)).unwrap(), *score);
    }
    (pruner.stats().expanded, pruner.stats().stored)
}

/// The same on every thread of `pool`, sharing one atomic table.
fn parallel(game: &ConnectFour, positions: &[(Position, Score)], pool: &rayon::ThreadPool) -> u64 {
    parallel_on(game, positions, pool, TABLE_BYTES, false)
}

/// [`parallel`] with a table of `bytes`: a parallel query per position, or (`session`) all of
/// them in one session ([`Pruner::par_session`], as the command line's
/// `--batch --one-at-a-time` runs).
fn parallel_on(
    game: &ConnectFour,
    positions: &[(Position, Score)],
    pool: &rayon::ThreadPool,
    bytes: u64,
    session: bool,
) -> u64 {
    let table = AtomicBoundTable::for_game(game, bytes).unwrap();
    let mut pruner = Pruner::new(game, &table, pruning::Options::new().ranged()).unwrap();
    pool.install(|| {
        if session {
            pruner.par_session(|session| {
                for (position, score) in positions {
                    assert_eq!(session.value_of(black_box(position)).unwrap(), *score);
                }
            })
        } else {
            for (position, score) in positions {
                assert_eq!(pruner.par_value_of(black_box(position)).unwrap(), *score);
            }
        }
    });
    pruner.stats().expanded
}

/// Positions side by side on every thread of `pool`, sharing one atomic table.
fn positions_in_parallel(
    game: &ConnectFour,
    positions: &[(Position, Score)],
    pool: &rayon::ThreadPool,
) -> u64 {
    let table = AtomicBoundTable::for_game(game, TABLE_BYTES).unwrap();
    let mut pruner = Pruner::new(game, &table, pruning::Options::new().ranged()).unwrap();
    let states: Vec<Position> = positions.iter().map(|(position, _)| *position).collect();
    let scores = pool
        .install(|| pruner.par_values_of(black_box(&states)))
        .unwrap();
    assert!(
        scores
            .iter()
            .zip(positions)
            .all(|(got, (_, want))| got == want)
    );
    pruner.stats().expanded
}

fn connect_four(c: &mut Criterion) {
    let game = ConnectFour::new(7, 6).unwrap();
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let mut group = c.benchmark_group("connect_four");
    group.sample_size(10);
    for set in ["Test_L3_R1", "Test_L2_R1", "Test_L1_R1"] {
        let positions = load(set);
        let clock = Instant::now();
        let (searched, entries) = sequential(&game, &positions);
        let seconds = clock.elapsed().as_secs_f64();
        eprintln!(
            "{set}: {searched} states searched, {:.1} M/s, {entries} table entries of {} slots, \
             {:.1} us per position (one untimed pass)",
            searched as f64 / seconds / 1e6,
            TABLE_BYTES / 8,
            seconds / positions.len() as f64 * 1e6
        );
        group.bench_with_input(
            BenchmarkId::new("sequential", set),
            &positions,
            |b, positions| b.iter(|| sequential(&game, positions)),
        );
        group.bench_with_input(
            BenchmarkId::new("parallel-2", set),
            &positions,
            |b, positions| b.iter(|| parallel(&game, positions, &two)),
        );
        group.bench_with_input(
            BenchmarkId::new("positions-2", set),
            &positions,
            |b, positions| b.iter(|| positions_in_parallel(&game, positions, &two)),
        );
    }
    group.finish();
    let first: Vec<(Position, Score)> = load("Test_L1_R1").into_iter().take(100).collect();
    let mut group = c.benchmark_group("connect_four_first_100_beginning");
    group.sample_size(30);
    group.bench_function("one thread", |b| {
        b.iter(|| sequential_on(&game, &first, 8 << 20))
    });
    group.bench_function("two threads, one at a time", |b| {
        b.iter(|| parallel_on(&game, &first, &two, 8 << 20, false))
    });
    group.bench_function("two threads, one session", |b| {
        b.iter(|| parallel_on(&game, &first, &two, 8 << 20, true))
    });
    group.finish();
}

criterion_group!(benches, connect_four);
criterion_main!(benches);
