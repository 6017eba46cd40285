//! The engine with each memo table, side by side, on the bundled games.
//!
//! Run with `cargo bench --bench engine`. Each benchmark asserts the value it computes against
//! an independent closed form (VIII) or against the other table (II), so a fast wrong answer
//! cannot pass.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use gamesolver::games::{StoneGameII, StoneGameVIII};
use gamesolver::memo::{DenseTable, HashTable};
use gamesolver::solve;

/// SplitMix64 values in `low..=high`, so inputs are the same on every run.
fn random(n: usize, seed: u64, low: i64, high: i64) -> Vec<i64> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            low + ((z ^ (z >> 31)) % (high - low + 1) as u64) as i64
        })
        .collect()
}

fn stone_game_ii(c: &mut Criterion) {
    let mut group = c.benchmark_group("stone_game_ii");
    group.sample_size(10);
    for n in [100, 1000] {
        let game = StoneGameII::new(random(n, n as u64, 1, 10_000)).unwrap();
        let expected = solve(&game, HashTable::new()).unwrap().value();
        group.bench_with_input(BenchmarkId::new("engine/hash", n), &game, |b, game| {
            b.iter(|| {
                let value = solve(black_box(game), HashTable::new()).unwrap().value();
                assert_eq!(value, expected);
            })
        });
        group.bench_with_input(BenchmarkId::new("engine/dense", n), &game, |b, game| {
            b.iter(|| {
                let value = solve(black_box(game), DenseTable::for_game(game))
                    .unwrap()
                    .value();
                assert_eq!(value, expected);
            })
        });
    }
    group.finish();
}

fn stone_game_viii(c: &mut Criterion) {
    let mut group = c.benchmark_group("stone_game_viii");
    group.sample_size(10);
    for n in [100_000, 1_000_000] {
        let stones = random(n, n as u64, -10_000, 10_000);
        let expected = closed_form(&stones);
        let game = StoneGameVIII::new(stones).unwrap();
        let stepwise = game.stepwise();
        group.bench_with_input(BenchmarkId::new("engine/hash", n), &stepwise, |b, game| {
            b.iter(|| {
                let value = solve(black_box(game), HashTable::new()).unwrap().value();
                assert_eq!(value, expected);
            })
        });
        group.bench_with_input(BenchmarkId::new("engine/dense", n), &stepwise, |b, game| {
            b.iter(|| {
                let value = solve(black_box(game), DenseTable::for_game(game))
                    .unwrap()
                    .value();
                assert_eq!(value, expected);
            })
        });
    }
    group.finish();
}

/// `f = max(f, prefix[i] − f)` from the right: the known O(n) answer.
fn closed_form(stones: &[i64]) -> i64 {
    let mut prefix = Vec::with_capacity(stones.len());
    let mut sum = 0;
    for stone in stones {
        sum += stone;
        prefix.push(sum);
    }
    let mut f = prefix[stones.len() - 1];
    for i in (1..stones.len() - 1).rev() {
        f = f.max(prefix[i] - f);
    }
    f
}

criterion_group!(benches, stone_game_ii, stone_game_viii);
criterion_main!(benches);
