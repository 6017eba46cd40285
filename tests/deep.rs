//! A 10⁶-moves-deep Stone Game VIII solve through the engine, on a small native stack.

mod common;

use common::{random_values, stone_game_viii_closed_form, stone_game_viii_margin};
use gamesolver::engines::exhaustive;
use gamesolver::games::StoneGameVIII;
use gamesolver::memo::{DenseTable, HashTable};

#[test]
fn million_deep_stone_game_viii_on_a_small_stack() {
    let stones = random_values(1_000_000, 7, -10_000, 10_000);
    let expected = stone_game_viii_closed_form(&stones);
    // 512 KiB of native stack: any recursion per move would overflow it many times over.
    let solved = std::thread::Builder::new()
        .stack_size(512 << 10)
        .spawn(move || {
            let game = StoneGameVIII::new(stones).unwrap();
            let stepwise = game.stepwise();
            let mut dense = exhaustive::solve(
                &stepwise,
                DenseTable::for_game(&stepwise),
                exhaustive::Options::new(),
            )
            .unwrap();
            assert!(dense.stats().max_depth >= 999_999, "{:?}", dense.stats());
            let line = game.describe_stepwise(&dense.line().unwrap());
            assert_eq!(stone_game_viii_margin(&line), dense.value());
            let hashed =
                exhaustive::solve(&stepwise, HashTable::new(), exhaustive::Options::new()).unwrap();
            (dense.value(), hashed.value())
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(solved, (expected, expected));
}
