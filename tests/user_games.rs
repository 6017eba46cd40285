//! Games written against the public API only: every engine and table gives the value of the
//! memoized recursion a user writes by hand (tests/common/user_games.rs), with and without the
//! declared value ranges, on one thread and several.

mod common;

#[path = "common/user_games.rs"]
mod user_games;

use gamesolver::engines::exhaustive;
use gamesolver::memo::{HashTable, ShardedTable};
use gamesolver::{Score, ValueRange};
use std::hash::Hash;
use user_games::{CanIWin, EndsGame, PlainFour};

/// The value of `game` by every engine and table, all equal to `expected`; the ranged solve
/// also yields the same line of play as the full one, move by move valued alike.
fn agrees<G>(game: &G, expected: Score)
where
    G: ValueRange + Sync,
    G::State: Eq + Hash + Send + Sync + std::fmt::Debug,
    G::Move: PartialEq + std::fmt::Debug,
{
    let report = gamesolver::check::check_ranged(game, &gamesolver::check::CheckOptions::default());
    assert!(report.is_ok(), "{report:?}");
    let mut full = exhaustive::solve(game, HashTable::new(), exhaustive::Options::new()).unwrap();
    assert_eq!(full.value(), expected);
    let mut ranged =
        exhaustive::solve(game, HashTable::new(), exhaustive::Options::new().ranged()).unwrap();
    assert_eq!(ranged.value(), expected);
    assert!(ranged.stats().stored <= full.stats().stored);
    // Queries on the ranged solution extend its search, exactly.
    let values =
        |line: &[gamesolver::engines::Ply<G>]| line.iter().map(|p| p.value).collect::<Vec<_>>();
    assert_eq!(
        values(&ranged.line().unwrap()),
        values(&full.line().unwrap())
    );
    let start = game.start();
    let best = |moves: Vec<gamesolver::engines::MoveValue<G>>| {
        moves.into_iter().map(|m| m.value).collect::<Vec<_>>()
    };
    assert_eq!(
        best(ranged.move_values(&start).unwrap()),
        best(full.move_values(&start).unwrap())
    );
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let table = ShardedTable::new();
        let value = pool.install(|| {
            exhaustive::par_solve(game, &table, exhaustive::Options::new()).map(|s| s.value())
        });
        assert_eq!(value.unwrap(), expected, "{threads} threads");
    }
}

#[test]
fn can_i_win_matches_the_hand_written_search() {
    for numbers in 1..=10 {
        for target in [
            0,
            1,
            5,
            numbers,
            2 * numbers,
            3 * numbers + 1,
            numbers * (numbers + 1) / 2,
            200,
        ] {
            let game = CanIWin { numbers, target };
            agrees(&game, game.by_hand());
        }
    }
    // LeetCode's examples: 10 numbers to 11 is lost, to 0 and to 1 won.
    assert_eq!(
        CanIWin {
            numbers: 10,
            target: 11
        }
        .by_hand(),
        -1
    );
    assert_eq!(
        CanIWin {
            numbers: 10,
            target: 1
        }
        .by_hand(),
        1
    );
}

#[test]
fn predict_the_winner_matches_the_hand_written_search() {
    for seed in 0..40 {
        let n = 1 + seed as usize % 14;
        let numbers = common::random_values(n, seed, -100, 100);
        let game = EndsGame::new(numbers);
        agrees(&game, game.by_hand());
    }
    // LeetCode's examples: [1, 5, 2] is lost by 2 (so: false), [1, 5, 233, 7] won by 222.
    assert_eq!(EndsGame::new(vec![1, 5, 2]).by_hand(), -2);
    assert_eq!(EndsGame::new(vec![1, 5, 233, 7]).by_hand(), 222);
}

#[test]
fn plain_connect_four_matches_the_hand_written_search() {
    for (width, height) in [(1, 4), (4, 1), (3, 3), (4, 3), (4, 4), (5, 3)] {
        let game = PlainFour { width, height };
        agrees(&game, game.by_hand());
    }
}
