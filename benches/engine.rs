//! The engine with each memo table, sequential and parallel, and the specialised solvers, side
//! by side.
//!
//! Run with `cargo bench --bench engine` (all of it takes a few minutes; add a filter such as
//! `stone_game_ii/` to run a part). Each benchmark asserts the value it computes against an
//! independent oracle (the textbook DP for II, the closed form for VIII), so a fast wrong answer
//! cannot pass. Parallel runs use the global rayon pool: one thread per core.

#[path = "../tests/common/mod.rs"]
mod common;

use std::hash::Hash;
use std::hint::black_box;

use common::{random_values, stone_game_ii_dp, stone_game_viii_closed_form};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, criterion_group, criterion_main};
use gamesolver::engines::exhaustive;
use gamesolver::games::{StoneGameII, StoneGameVIII, solve_stone_game_ii, solve_stone_game_viii};
use gamesolver::memo::{AtomicDenseTable, DenseTable, HashTable, ShardedTable};
use gamesolver::{DenseIndex, Limits, Score};

/// Benchmarks `game` with every table, sequential and parallel, checking each value.
fn every_table<G>(group: &mut BenchmarkGroup<'_, WallTime>, n: usize, game: &G, expected: Score)
where
    G: DenseIndex + Sync,
    G::State: Eq + Hash + Send + Sync,
{
    let mut bench = |name: &str, solve: &dyn Fn(&G) -> Score| {
        group.bench_with_input(BenchmarkId::new(name, n), game, |b, game| {
            b.iter(|| assert_eq!(solve(black_box(game)), expected))
        });
    };
    bench("engine/hash", &|game| {
        exhaustive::solve(game, HashTable::new(), exhaustive::Options::new())
            .unwrap()
            .value()
    });
    bench("engine/dense", &|game| {
        exhaustive::solve(game, DenseTable::for_game(game), exhaustive::Options::new())
            .unwrap()
            .value()
    });
    bench("engine/sharded", &|game| {
        exhaustive::solve(game, &ShardedTable::new(), exhaustive::Options::new())
            .unwrap()
            .value()
    });
    bench("engine/atomic-dense", &|game| {
        exhaustive::solve(
            game,
            &AtomicDenseTable::for_game(game),
            exhaustive::Options::new(),
        )
        .unwrap()
        .value()
    });
    bench("parallel/sharded", &|game| {
        exhaustive::par_solve(game, &ShardedTable::new(), exhaustive::Options::new())
            .unwrap()
            .value()
    });
    bench("parallel/atomic-dense", &|game| {
        exhaustive::par_solve(
            game,
            &AtomicDenseTable::for_game(game),
            exhaustive::Options::new(),
        )
        .unwrap()
        .value()
    });
}

fn stone_game_ii(c: &mut Criterion) {
    let mut group = c.benchmark_group("stone_game_ii");
    group.sample_size(10);
    for n in [100, 1000, 2000] {
        let piles = random_values(n, n as u64, 1, 10_000);
        let game = StoneGameII::new(piles.clone()).unwrap();
        // The engine's value is Alice − Bob; the DP gives Alice's stones.
        let expected = 2 * stone_game_ii_dp(&piles) - game.total();
        every_table(&mut group, n, &game, expected);
        group.bench_with_input(BenchmarkId::new("fast", n), &game, |b, game| {
            b.iter(|| {
                let solution = solve_stone_game_ii(black_box(game), Limits::default()).unwrap();
                assert_eq!(solution.value(), expected)
            })
        });
    }
    group.finish();
}

fn stone_game_viii(c: &mut Criterion) {
    let mut group = c.benchmark_group("stone_game_viii");
    group.sample_size(10);
    for n in [100_000, 1_000_000] {
        let stones = random_values(n, n as u64, -10_000, 10_000);
        let expected = stone_game_viii_closed_form(&stones);
        let game = StoneGameVIII::new(stones).unwrap();
        every_table(&mut group, n, &game.stepwise(), expected);
        group.bench_with_input(BenchmarkId::new("fast", n), &game, |b, game| {
            b.iter(|| assert_eq!(solve_stone_game_viii(black_box(game)).value(), expected))
        });
    }
    group.finish();
}

/// The parallel engine on a DashMap with different shard counts (Stone Game II, n = 1000).
fn shards(c: &mut Criterion) {
    let mut group = c.benchmark_group("shards");
    group.sample_size(10);
    let piles = random_values(1000, 1000, 1, 10_000);
    let game = StoneGameII::new(piles.clone()).unwrap();
    let expected = 2 * stone_game_ii_dp(&piles) - game.total();
    for shards in [2, 16, 64, 256, 1024, 4096] {
        group.bench_with_input(
            BenchmarkId::new("parallel", shards),
            &shards,
            |b, &shards| {
                b.iter(|| {
                    let table = ShardedTable::with_shards(shards);
                    assert_eq!(
                        exhaustive::par_solve(&game, &table, exhaustive::Options::new())
                            .unwrap()
                            .value(),
                        expected
                    )
                })
            },
        );
        group.bench_with_input(BenchmarkId::new("engine", shards), &shards, |b, &shards| {
            b.iter(|| {
                let table = ShardedTable::with_shards(shards);
                assert_eq!(
                    exhaustive::solve(&game, &table, exhaustive::Options::new())
                        .unwrap()
                        .value(),
                    expected
                )
            })
        });
    }
    group.finish();
}

criterion_group!(benches, stone_game_ii, stone_game_viii, shards);
criterion_main!(benches);
