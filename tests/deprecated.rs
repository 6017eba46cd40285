//! Code written for 0.1 still builds and gives the same answers: each of 0.1's free functions
//! at the crate's root, now a deprecated wrapper, against the engine function it wraps and
//! against `Solver`, on small games.
#![allow(deprecated)]

use gamesolver::games::{CatAndMouse, DotsAndBoxes, Nim, StoneGameII};
use gamesolver::memo::{DenseTable, HashBoundTable, HashTable, ShardedBoundTable, ShardedTable};
use gamesolver::{
    DeclaredRange, DenseIds, Driver, Engine, HashIds, KeepTiers, Limits, Pruning, Solver, engines,
};

#[test]
fn the_exhaustive_entry_points_of_0_1_still_answer() {
    let game = StoneGameII::new(vec![2, 7, 9, 4, 4]).unwrap();
    let value = Solver::new(&game).solve().unwrap().value();
    let limits = Limits::default();
    assert_eq!(
        gamesolver::solve(&game, HashTable::new()).unwrap().value(),
        value
    );
    assert_eq!(
        gamesolver::solve_with(&game, DenseTable::for_game(&game), limits)
            .unwrap()
            .value(),
        value
    );
    assert_eq!(
        gamesolver::solve_within(&game, HashTable::new(), limits, gamesolver::AnyValue)
            .unwrap()
            .value(),
        engines::solve_within(&game, HashTable::new(), limits, gamesolver::AnyValue)
            .unwrap()
            .value()
    );
    let nim = Nim::new(vec![3, 4, 5]).unwrap();
    let nim_value = Solver::new(&nim).solve().unwrap().value();
    assert_eq!(
        gamesolver::solve_ranged_with(&nim, HashTable::new(), limits)
            .unwrap()
            .value(),
        nim_value
    );
    let table = ShardedTable::new();
    assert_eq!(gamesolver::par_solve(&game, &table).unwrap().value(), value);
    let table = ShardedTable::new();
    assert_eq!(
        gamesolver::par_solve_with(&game, &table, limits)
            .unwrap()
            .value(),
        value
    );
    let table = ShardedTable::new();
    assert_eq!(
        gamesolver::par_solve_within(&nim, &table, limits, DeclaredRange)
            .unwrap()
            .value(),
        nim_value
    );
}

#[test]
fn the_pruning_entry_points_of_0_1_still_answer() {
    let game = StoneGameII::new(vec![2, 7, 9, 4, 4]).unwrap();
    let value = Solver::new(&game).solve().unwrap().value();
    let options = || Pruning {
        driver: Driver::Auto,
        limits: Limits::default(),
        range: gamesolver::AnyValue,
    };
    assert_eq!(
        gamesolver::prune(&game, HashBoundTable::new())
            .unwrap()
            .value(),
        value
    );
    assert_eq!(
        gamesolver::prune_with(&game, HashBoundTable::new(), options())
            .unwrap()
            .value(),
        value
    );
    let table = ShardedBoundTable::new();
    assert_eq!(gamesolver::par_prune(&game, &table).unwrap().value(), value);
    let table = ShardedBoundTable::new();
    assert_eq!(
        gamesolver::par_prune_with(&game, &table, options())
            .unwrap()
            .value(),
        value
    );
}

#[test]
fn the_retrograde_entry_points_of_0_1_still_answer() {
    let game = CatAndMouse::new(vec![
        vec![2, 5],
        vec![3],
        vec![0, 4, 5],
        vec![1, 4, 5],
        vec![2, 3],
        vec![0, 2, 3],
    ])
    .unwrap();
    let solved = Solver::new(&game)
        .engine(Engine::Retrograde)
        .solve()
        .unwrap();
    let value = solved.value();
    let limits = Limits::default();
    let values = [
        gamesolver::retrograde(&game, limits)
            .unwrap()
            .outcome()
            .value(),
        gamesolver::retrograde_with(&game, HashIds::new(), limits)
            .unwrap()
            .outcome()
            .value(),
        gamesolver::retrograde_with(&game, DenseIds::for_game(&game), limits)
            .unwrap()
            .outcome()
            .value(),
        gamesolver::retrograde_indexed(&game, limits)
            .unwrap()
            .outcome()
            .value(),
        gamesolver::retrograde_with_predecessors(&game, HashIds::new(), limits)
            .unwrap()
            .outcome()
            .value(),
        gamesolver::par_retrograde(&game, limits)
            .unwrap()
            .outcome()
            .value(),
        gamesolver::par_retrograde_with(&game, HashIds::new(), limits)
            .unwrap()
            .outcome()
            .value(),
        gamesolver::par_retrograde_indexed(&game, limits)
            .unwrap()
            .outcome()
            .value(),
        gamesolver::par_retrograde_with_predecessors(&game, DenseIds::for_game(&game), limits)
            .unwrap()
            .outcome()
            .value(),
    ];
    assert!(
        values.iter().all(|&v| v == value),
        "{values:?} against {value}"
    );
}

#[test]
fn the_tier_entry_points_of_0_1_still_answer() {
    let game = DotsAndBoxes::new(2, 2).unwrap();
    let value = Solver::new(&game).solve().unwrap().value();
    let limits = Limits::default();
    let values = [
        gamesolver::tier_solve(&game).unwrap().value(),
        gamesolver::tier_solve_with(&game, limits, KeepTiers::All)
            .unwrap()
            .value(),
        gamesolver::par_tier_solve(&game).unwrap().value(),
        gamesolver::par_tier_solve_with(&game, limits, KeepTiers::Needed)
            .unwrap()
            .value(),
    ];
    assert!(
        values.iter().all(|&v| v == value),
        "{values:?} against {value}"
    );
}
