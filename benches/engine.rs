//! The engine with each memo table, side by side, on the bundled games.
//!
//! Run with `cargo bench --bench engine`. Each benchmark asserts the value it computes against
//! an independent oracle (the textbook DP for II, the closed form for VIII), so a fast wrong
//! answer cannot pass.

#[path = "../tests/common/mod.rs"]
mod common;

use std::hash::Hash;
use std::hint::black_box;

use common::{random_values, stone_game_ii_dp, stone_game_viii_closed_form};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, criterion_group, criterion_main};
use gamesolver::games::{StoneGameII, StoneGameVIII};
use gamesolver::memo::{DenseTable, HashTable};
use gamesolver::{DenseIndex, Score, solve};

/// Benchmarks the engine on `game` with the hash and the dense table, checking each value.
fn each_table<G>(group: &mut BenchmarkGroup<'_, WallTime>, n: usize, game: &G, expected: Score)
where
    G: DenseIndex,
    G::State: Eq + Hash,
{
    group.bench_with_input(BenchmarkId::new("engine/hash", n), game, |b, game| {
        b.iter(|| {
            assert_eq!(
                solve(black_box(game), HashTable::new()).unwrap().value(),
                expected
            )
        })
    });
    group.bench_with_input(BenchmarkId::new("engine/dense", n), game, |b, game| {
        b.iter(|| {
            let table = DenseTable::for_game(game);
            assert_eq!(solve(black_box(game), table).unwrap().value(), expected)
        })
    });
}

fn stone_game_ii(c: &mut Criterion) {
    let mut group = c.benchmark_group("stone_game_ii");
    group.sample_size(10);
    for n in [100, 1000] {
        let piles = random_values(n, n as u64, 1, 10_000);
        let game = StoneGameII::new(piles.clone()).unwrap();
        // The engine's value is Alice − Bob; the DP gives Alice's stones.
        let expected = 2 * stone_game_ii_dp(&piles) - game.total();
        each_table(&mut group, n, &game, expected);
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
        each_table(&mut group, n, &game.stepwise(), expected);
    }
    group.finish();
}

criterion_group!(benches, stone_game_ii, stone_game_viii);
criterion_main!(benches);
