//! The engine on games written as a user writes them (no dense index; tests/common/
//! user_games.rs), side by side with the memoized recursion a user writes by hand over the same
//! hash map and hasher: the engine with `HashTable`, with the declared value ranges
//! (`solve_ranged_with`), and `par_solve` with `ShardedTable` on 1 and 2 threads.
//!
//! `cargo bench --bench user_games`; ratios in docs/performance.md.

#[path = "../tests/common/user_games.rs"]
mod user_games;

use std::hash::Hash;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gamesolver::memo::{HashTable, ShardedTable};
use gamesolver::{Limits, Score, ValueRange, par_solve, solve, solve_ranged_with};
use user_games::{CanIWin, EndsGame, PlainFour};

fn compare<G>(c: &mut Criterion, name: &str, game: &G, by_hand: impl Fn() -> Score)
where
    G: ValueRange + Sync,
    G::State: Eq + Hash + Send + Sync,
{
    let expected = by_hand();
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    group.bench_function("by hand", |b| {
        b.iter(|| assert_eq!(black_box(by_hand()), expected))
    });
    group.bench_function("engine, HashTable", |b| {
        b.iter(|| assert_eq!(solve(game, HashTable::new()).unwrap().value(), expected))
    });
    group.bench_function("engine ranged, HashTable", |b| {
        b.iter(|| {
            let solution = solve_ranged_with(game, HashTable::new(), Limits::default());
            assert_eq!(solution.unwrap().value(), expected)
        })
    });
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        group.bench_function(format!("parallel, ShardedTable, {threads} threads"), |b| {
            b.iter(|| {
                let table = ShardedTable::new();
                let value = pool.install(|| par_solve(game, &table).map(|s| s.value()));
                assert_eq!(value.unwrap(), expected)
            })
        });
    }
    group.finish();
}

fn user_games(c: &mut Criterion) {
    let can_i_win = CanIWin {
        numbers: 18,
        target: 120,
    };
    compare(c, "can-i-win 18 to 120", &can_i_win, || can_i_win.by_hand());
    let numbers: Vec<Score> = (0..1200).map(|i| (i * 7919 % 2001) - 1000).collect();
    let ends = EndsGame::new(numbers);
    compare(c, "predict-the-winner 1200", &ends, || ends.by_hand());
    let four = PlainFour {
        width: 5,
        height: 4,
    };
    compare(c, "plain connect-four 5x4", &four, || four.by_hand());
}

criterion_group!(benches, user_games);
criterion_main!(benches);
