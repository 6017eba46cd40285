//! Every engine × table × model against the independent oracles, on random instances.

mod common;

use common::*;
use gamesolver::engines::exhaustive;
use gamesolver::games::{StoneGameII, StoneGameVIII};
use gamesolver::memo::{DenseTable, HashTable, MemoTable, NoTable};
use gamesolver::{DenseIndex, Game, Player, Score, Turn, engines::exhaustive::Solution};
use proptest::prelude::*;

/// The first player's points minus the second's along the line; must equal the value.
fn line_margin<G: Game, T: MemoTable<G>>(solution: &mut Solution<'_, G, T>) -> Score {
    let line = solution.line().unwrap();
    let mut player = Player::First;
    let mut margin = 0;
    for ply in &line {
        assert_eq!(
            ply.player, player,
            "the line's players follow the turn rule"
        );
        margin += if ply.player.is_first() {
            ply.gain
        } else {
            -ply.gain
        };
        player = player.after(ply.turn);
    }
    margin
}

/// The value with every table, checking the line and the best moves on the way.
fn values_with_every_table<G>(game: &G, with_no_table: bool) -> Vec<Score>
where
    G: DenseIndex,
    G::State: Eq + std::hash::Hash,
{
    fn checked<G: Game, T: MemoTable<G>>(mut solution: Solution<'_, G, T>) -> Score {
        let value = solution.value();
        assert_eq!(
            line_margin(&mut solution),
            value,
            "the optimal line realises the value"
        );
        let start = solution.start().clone();
        let moves = solution.move_values(&start).unwrap();
        assert_eq!(moves.iter().map(|m| m.value).max(), Some(value));
        let best = solution.best_moves(&start).unwrap();
        assert_eq!(
            best.len(),
            moves.iter().filter(|m| m.value == value).count()
        );
        value
    }
    let mut values = vec![
        checked(exhaustive::solve(game, HashTable::new(), exhaustive::Options::new()).unwrap()),
        checked(
            exhaustive::solve(game, DenseTable::for_game(game), exhaustive::Options::new())
                .unwrap(),
        ),
    ];
    if with_no_table {
        values.push(checked(
            exhaustive::solve(game, NoTable, exhaustive::Options::new()).unwrap(),
        ));
    }
    values
}

fn piles(max_len: usize, max_pile: i64) -> impl Strategy<Value = Vec<i64>> {
    prop::collection::vec(1..=max_pile, 1..=max_len)
}

fn stones(max_len: usize, range: std::ops::RangeInclusive<i64>) -> impl Strategy<Value = Vec<i64>> {
    prop::collection::vec(range, 2..=max_len)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn stone_game_ii_matches_brute_force(piles in piles(11, 50)) {
        let game = StoneGameII::new(piles.clone()).unwrap();
        let expected = stone_game_ii_brute_force(&piles);
        for value in values_with_every_table(&game, piles.len() <= 9) {
            prop_assert_eq!(game.alice_stones(value), expected);
        }
    }

    #[test]
    fn stone_game_ii_matches_the_dp(piles in piles(60, 10_000)) {
        let game = StoneGameII::new(piles.clone()).unwrap();
        let expected = stone_game_ii_dp(&piles);
        for value in values_with_every_table(&game, false) {
            prop_assert_eq!(game.alice_stones(value), expected);
        }
    }

    #[test]
    fn stone_game_viii_matches_brute_force(stones in stones(8, -20..=20)) {
        let game = StoneGameVIII::new(stones.clone()).unwrap();
        let expected = stone_game_viii_brute_force(&stones);
        for value in values_with_every_table(&game.literal(), true) {
            prop_assert_eq!(value, expected);
        }
        for value in values_with_every_table(&game.stepwise(), true) {
            prop_assert_eq!(value, expected);
        }
    }

    #[test]
    fn stone_game_viii_models_agree_with_the_closed_form(
        stones in stones(150, -100_000..=100_000)
    ) {
        let game = StoneGameVIII::new(stones.clone()).unwrap();
        let expected = stone_game_viii_closed_form(&stones);
        for value in values_with_every_table(&game.literal(), false) {
            prop_assert_eq!(value, expected);
        }
        for value in values_with_every_table(&game.stepwise(), false) {
            prop_assert_eq!(value, expected);
        }
    }

    #[test]
    fn stone_game_viii_extreme_values(
        stones in stones(12, -(1i64 << 58)..=(1i64 << 58))
    ) {
        // Large values: either the game refuses them up front (scores could overflow), or every
        // model answers exactly; an i128 closed form is the oracle.
        let Ok(game) = StoneGameVIII::new(stones.clone()) else { return Ok(()); };
        let prefix: Vec<i128> = stones.iter().scan(0i128, |s, &v| { *s += i128::from(v); Some(*s) }).collect();
        let mut f = prefix[stones.len() - 1];
        for i in (1..stones.len() - 1).rev() { f = f.max(prefix[i] - f); }
        for value in values_with_every_table(&game.stepwise(), false) {
            prop_assert_eq!(i128::from(value), f);
        }
    }

    #[test]
    fn stone_game_ii_extreme_piles(piles in prop::collection::vec(1i64..=(1i64 << 59), 1..=10)) {
        let Ok(game) = StoneGameII::new(piles.clone()) else { return Ok(()); };
        let expected = stone_game_ii_dp(&piles);
        for value in values_with_every_table(&game, false) {
            prop_assert_eq!(game.alice_stones(value), expected);
        }
    }
}

#[test]
fn problem_statement_examples_with_every_table() {
    for (piles, answer) in [(vec![2, 7, 9, 4, 4], 10), (vec![1, 2, 3, 4, 5, 100], 104)] {
        let game = StoneGameII::new(piles).unwrap();
        for value in values_with_every_table(&game, true) {
            assert_eq!(game.alice_stones(value), answer);
        }
    }
    for (stones, answer) in [
        (vec![-1, 2, -3, 4, -5], 5),
        (vec![7, -6, 5, 10, 5, -2, -6], 13),
        (vec![-10, -12], -22),
    ] {
        let game = StoneGameVIII::new(stones).unwrap();
        for value in values_with_every_table(&game.literal(), true) {
            assert_eq!(value, answer);
        }
        for value in values_with_every_table(&game.stepwise(), true) {
            assert_eq!(value, answer);
        }
    }
}

#[test]
fn extra_turns_are_followed_by_the_line() {
    let game = StoneGameVIII::new(vec![-1, 2, -3, 4, -5]).unwrap();
    let stepwise = game.stepwise();
    let mut solution = exhaustive::solve(
        &stepwise,
        DenseTable::for_game(&stepwise),
        exhaustive::Options::new(),
    )
    .unwrap();
    let line = solution.line().unwrap();
    // Alice extends twice (keeping the turn), stops at stone 3; Bob stops at stone 4.
    let turns: Vec<_> = line.iter().map(|ply| (ply.player, ply.turn)).collect();
    assert_eq!(
        turns,
        vec![
            (Player::First, Turn::Keep),
            (Player::First, Turn::Keep),
            (Player::First, Turn::Pass),
            (Player::Second, Turn::Pass),
        ]
    );
}
