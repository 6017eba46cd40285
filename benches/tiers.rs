//! The tier solver on Dots and Boxes 2x3 (2^17 boards), side by side with the exhaustive
//! engine on its dense table: the tier solver on 1 and 2 threads, the engine sequential and
//! parallel on 2 threads. Every run asserts the value against the others.
//!
//! `cargo bench --bench tiers`; whole-process ratios against a C sweep on 3x3 come from
//! benches/dots_and_boxes.sh (docs/performance.md).

use criterion::{Criterion, criterion_group, criterion_main};
use gamesolver::engines::{exhaustive, tiers};
use gamesolver::games::DotsAndBoxes;
use gamesolver::memo::{AtomicDenseTable, DenseTable};

fn dots_and_boxes(c: &mut Criterion) {
    let game = DotsAndBoxes::new(2, 3).unwrap();
    let expected = tiers::solve(&game, tiers::Options::new()).unwrap().value();
    let mut group = c.benchmark_group("dots-and-boxes 2x3");
    group.sample_size(10);
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        group.bench_function(format!("tier solver, {threads} threads"), |b| {
            b.iter(|| {
                let solved = pool.install(|| tiers::par_solve(&game, tiers::Options::new()));
                assert_eq!(solved.unwrap().value(), expected)
            })
        });
    }
    group.bench_function("engine, dense table", |b| {
        b.iter(|| {
            let solved = exhaustive::solve(
                &game,
                DenseTable::for_game(&game),
                exhaustive::Options::new(),
            )
            .unwrap();
            assert_eq!(solved.value(), expected)
        })
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    group.bench_function("parallel engine, 2 threads", |b| {
        b.iter(|| {
            let table = AtomicDenseTable::for_game(&game);
            let solved = pool.install(|| {
                exhaustive::par_solve(&game, &table, exhaustive::Options::new()).map(|s| s.value())
            });
            assert_eq!(solved.unwrap(), expected)
        })
    });
    group.finish();
}

criterion_group!(benches, dots_and_boxes);
criterion_main!(benches);
