//! The specialised solvers against the engine and the brute-force oracles: same answers, same
//! optimal lines, on random inputs including extreme values.

mod common;

use common::*;
use gamesolver::Limits;
use gamesolver::SolveError;
use gamesolver::engines::exhaustive;
use gamesolver::games::{StoneGameII, StoneGameVIII, solve_stone_game_ii, solve_stone_game_viii};
use gamesolver::memo::DenseTable;
use proptest::prelude::*;

/// Checks the O(n²) solver against the engine: answer and line.
fn stone_game_ii_agrees(piles: &[i64]) -> i64 {
    let game = StoneGameII::new(piles.to_vec()).unwrap();
    let fast = solve_stone_game_ii(&game, Limits::default()).unwrap();
    let mut engine = exhaustive::solve(
        &game,
        DenseTable::for_game(&game),
        exhaustive::Options::new(),
    )
    .unwrap();
    assert_eq!(
        fast.alice_stones(),
        game.alice_stones(engine.value()),
        "{piles:?}"
    );
    assert_eq!(fast.value(), engine.value());
    assert_eq!(
        fast.line(),
        game.describe(&engine.line().unwrap()),
        "{piles:?}"
    );
    fast.alice_stones()
}

/// Checks the O(n) solver against the engine's stepwise model: answer and line.
fn stone_game_viii_agrees(stones: &[i64]) -> i64 {
    let game = StoneGameVIII::new(stones.to_vec()).unwrap();
    let fast = solve_stone_game_viii(&game);
    let stepwise = game.stepwise();
    let mut engine = exhaustive::solve(
        &stepwise,
        DenseTable::for_game(&stepwise),
        exhaustive::Options::new(),
    )
    .unwrap();
    assert_eq!(fast.value(), engine.value(), "{stones:?}");
    assert_eq!(
        fast.line(),
        game.describe_stepwise(&engine.line().unwrap()),
        "{stones:?}"
    );
    fast.value()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn stone_game_ii_fast_matches_brute_force(piles in prop::collection::vec(1i64..=40, 1..=11)) {
        prop_assert_eq!(stone_game_ii_agrees(&piles), stone_game_ii_brute_force(&piles));
    }

    #[test]
    fn stone_game_ii_fast_matches_the_engine(piles in prop::collection::vec(1i64..=10_000, 1..=60)) {
        prop_assert_eq!(stone_game_ii_agrees(&piles), stone_game_ii_dp(&piles));
    }

    #[test]
    fn stone_game_ii_fast_on_few_distinct_piles(piles in prop::collection::vec(1i64..=3, 1..=60)) {
        // Many ties: the line must still pick the engine's move.
        stone_game_ii_agrees(&piles);
    }

    #[test]
    fn stone_game_ii_fast_with_extreme_piles(piles in prop::collection::vec(1i64..=(1 << 58), 1..=30)) {
        // Totals beyond i32 force the wide table; beyond i64 the game refuses the input.
        if StoneGameII::new(piles.clone()).is_ok() {
            stone_game_ii_agrees(&piles);
        }
    }

    #[test]
    fn stone_game_viii_fast_matches_brute_force(stones in prop::collection::vec(-30i64..=30, 2..=8)) {
        prop_assert_eq!(stone_game_viii_agrees(&stones), stone_game_viii_brute_force(&stones));
    }

    #[test]
    fn stone_game_viii_fast_matches_the_engine(stones in prop::collection::vec(-10_000i64..=10_000, 2..=300)) {
        prop_assert_eq!(stone_game_viii_agrees(&stones), stone_game_viii_closed_form(&stones));
    }

    #[test]
    fn stone_game_viii_fast_with_extreme_values(stones in prop::collection::vec(-(1i64 << 58)..=(1 << 58), 2..=12)) {
        if StoneGameVIII::new(stones.clone()).is_ok() {
            stone_game_viii_agrees(&stones);
        }
    }
}

#[test]
fn stone_game_ii_fast_on_larger_inputs() {
    for (n, seed) in [(150, 1), (300, 2), (701, 3), (1000, 4)] {
        let piles = random_values(n, seed, 1, 10_000);
        assert_eq!(
            stone_game_ii_agrees(&piles),
            stone_game_ii_dp(&piles),
            "n={n}"
        );
    }
    // Monotone piles fill the column windows to their bound.
    let rising: Vec<i64> = (1..=400).collect();
    let falling: Vec<i64> = (1..=400).rev().collect();
    stone_game_ii_agrees(&rising);
    stone_game_ii_agrees(&falling);
}

#[test]
fn stone_game_ii_fast_small_edge_cases() {
    for piles in [
        vec![5],
        vec![5, 1],
        vec![1, 5],
        vec![1, 1, 1],
        vec![3, 9, 1],
    ] {
        assert_eq!(
            stone_game_ii_agrees(&piles),
            stone_game_ii_brute_force(&piles),
            "{piles:?}"
        );
    }
}

#[test]
fn stone_game_ii_fast_respects_the_budget() {
    let game = StoneGameII::new(vec![1; 20_000]).unwrap();
    let refused = solve_stone_game_ii(&game, Limits::with_memory_budget(64 << 20));
    assert!(
        matches!(refused, Err(SolveError::MemoryBudget { .. })),
        "{refused:?}"
    );
}

#[test]
fn stone_game_viii_fast_on_a_million_stones() {
    let stones = random_values(1_000_000, 11, -10_000, 10_000);
    let game = StoneGameVIII::new(stones.clone()).unwrap();
    let fast = solve_stone_game_viii(&game);
    assert_eq!(fast.value(), stone_game_viii_closed_form(&stones));
    assert_eq!(stone_game_viii_margin(&fast.line()), fast.value());
}
