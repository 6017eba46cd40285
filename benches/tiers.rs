//! The tier solver on Dots and Boxes 2x3 (2^17 boards), side by side with the exhaustive
//! engine on its dense table: the tier solver on 1 and 2 threads, the engine sequential and
//! parallel on 2 threads. Every run asserts the value against the others.
//!
//! The loopy tier solver on Six Men's Morris with five men a side (1.6 million positions once
//! symmetric ones are stored once), by backward induction and by value iteration on one thread:
//! the time here, each method's peak of memory printed beside it (docs/performance.md).
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

fn loopy_methods(c: &mut Criterion) {
    use tiers::loopy::{self, BySymmetry, Method};
    let game = gamesolver::games::SixMensMorris::new(5).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let solve = |method| {
        pool.install(|| loopy::par_solve_with(&game, BySymmetry, loopy::Options::new(), method))
            .unwrap()
    };
    let expected = solve(Method::BackwardInduction).tiers().clone();
    let mut group = c.benchmark_group("six men's morris, 5 men, 1 thread");
    group.sample_size(10);
    for method in [Method::BackwardInduction, Method::ValueIteration] {
        let stats = solve(method).stats();
        println!(
            "{method:?}: peak {} bytes, {} moves looked at",
            stats.peak_bytes, stats.moves
        );
        group.bench_function(format!("{method:?}"), |b| {
            b.iter(|| assert!(solve(method).tiers() == &expected))
        });
    }
    group.finish();
}

criterion_group!(benches, dots_and_boxes, loopy_methods);
criterion_main!(benches);
