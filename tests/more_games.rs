//! The other bundled games against independent oracles: the textbook DPs, the XOR rule, and
//! brute-force players of the literal rules.

mod common;

use std::collections::HashSet;

use common::{dots_and_boxes_oracle, random_values, tic_tac_toe_wins};
use gamesolver::{
    check::{CheckOptions, check_dense},
    engines::exhaustive,
};

use gamesolver::games::{DotsAndBoxes, Nim, StoneGame, StoneGameIII, StoneGameVII, TicTacToe};
use gamesolver::memo::{AtomicDenseTable, DenseTable, HashTable, MemoTable};
use gamesolver::{
    DenseIndex, Limits,
    engines::{AnyValue, DeclaredRange, MoveValue, Ply, RangeSource, exhaustive::Solution},
};
use proptest::prelude::*;

/// The engine's value with the hash and the dense table (which must agree).
fn value<G>(game: &G) -> i64
where
    G: DenseIndex,
    G::State: Eq + std::hash::Hash,
{
    let hashed = exhaustive::solve(game, HashTable::new(), exhaustive::Options::new())
        .unwrap()
        .value();
    let dense = exhaustive::solve(game, DenseTable::for_game(game), exhaustive::Options::new())
        .unwrap()
        .value();
    assert_eq!(hashed, dense);
    dense
}

/// Textbook interval DP for LeetCode 877 (first player's margin).
fn stone_game_dp(piles: &[i64]) -> i64 {
    let n = piles.len();
    let mut dp = vec![vec![0i64; n + 1]; n + 1];
    for len in 1..=n {
        for i in 0..=n - len {
            let j = i + len;
            dp[i][j] = (piles[i] - dp[i + 1][j]).max(piles[j - 1] - dp[i][j - 1]);
        }
    }
    dp[0][n]
}

/// The literal rules of 877 by brute force: the real row shrinks from either end.
fn stone_game_brute_force(row: &[i64]) -> i64 {
    match row {
        [] => 0,
        [only] => *only,
        [first, .., last] => (first - stone_game_brute_force(&row[1..]))
            .max(last - stone_game_brute_force(&row[..row.len() - 1])),
    }
}

/// Textbook interval DP for LeetCode 1690.
fn stone_game_vii_dp(stones: &[i64]) -> i64 {
    let n = stones.len();
    let prefix: Vec<i64> = std::iter::once(0)
        .chain(stones.iter().scan(0, |sum, &stone| {
            *sum += stone;
            Some(*sum)
        }))
        .collect();
    let mut dp = vec![vec![0i64; n + 1]; n + 1];
    for len in 2..=n {
        for i in 0..=n - len {
            let j = i + len;
            let take_first = prefix[j] - prefix[i + 1] - dp[i + 1][j];
            let take_last = prefix[j - 1] - prefix[i] - dp[i][j - 1];
            dp[i][j] = take_first.max(take_last);
        }
    }
    dp[0][n]
}

/// Textbook DP for LeetCode 1406 (Alice − Bob).
fn stone_game_iii_dp(values: &[i64]) -> i64 {
    let n = values.len();
    let mut dp = vec![0i64; n + 4];
    for i in (0..n).rev() {
        let mut taken = 0;
        let mut best = i64::MIN;
        for k in 0..3.min(n - i) {
            taken += values[i + k];
            best = best.max(taken - dp[i + k + 1]);
        }
        dp[i] = best;
    }
    dp[0]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn stone_game_matches_its_dp(piles in prop::collection::vec(1i64..=500, 1..=40)) {
        prop_assert_eq!(value(&StoneGame::new(piles.clone()).unwrap()), stone_game_dp(&piles));
    }

    #[test]
    fn stone_game_matches_brute_force(piles in prop::collection::vec(1i64..=50, 1..=12)) {
        prop_assert_eq!(value(&StoneGame::new(piles.clone()).unwrap()), stone_game_brute_force(&piles));
    }

    #[test]
    fn stone_game_vii_matches_its_dp(stones in prop::collection::vec(1i64..=1000, 1..=40)) {
        prop_assert_eq!(value(&StoneGameVII::new(stones.clone()).unwrap()), stone_game_vii_dp(&stones));
    }

    #[test]
    fn stone_game_iii_matches_its_dp(values in prop::collection::vec(-1000i64..=1000, 1..=60)) {
        prop_assert_eq!(value(&StoneGameIII::new(values.clone()).unwrap()), stone_game_iii_dp(&values));
    }

    #[test]
    fn nim_follows_the_xor_rule(heaps in prop::collection::vec(0i64..=7, 1..=5)) {
        let game = Nim::new(heaps.clone()).unwrap();
        let xor = heaps.iter().fold(0, |acc, &heap| acc ^ heap);
        let mut solution = exhaustive::solve(&game, DenseTable::for_game(&game), exhaustive::Options::new()).unwrap();
        prop_assert_eq!(solution.value(), if xor != 0 { 1 } else { -1 });
        if xor != 0 {
            // The winning move leaves heaps whose XOR is 0.
            let start = *solution.start();
            let (k, take) = solution.best_moves(&start).unwrap()[0];
            let mut after = heaps.clone();
            after[k as usize] -= i64::from(take);
            prop_assert_eq!(after.iter().fold(0, |acc, &heap| acc ^ heap), 0);
        }
    }

    /// Cutting at Nim's declared range (-1..=1) changes no answer: the value, the line, the
    /// values of the start's moves and of any position, sequential and on two threads.
    #[test]
    fn nim_cut_offs_change_no_answer(
        heaps in prop::collection::vec(0i64..=6, 1..=4),
        asked in 0u64..1 << 20,
    ) {
        let game = Nim::new(heaps.clone()).unwrap();
        let limits = Limits::default();
        let mut plain = exhaustive::solve(&game, DenseTable::for_game(&game), exhaustive::Options::new().limits(limits).range(AnyValue)).unwrap();
        let mut cut = exhaustive::solve(&game, DenseTable::for_game(&game), exhaustive::Options::new().limits(limits).range(DeclaredRange)).unwrap();
        let table = AtomicDenseTable::for_game(&game);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let mut shared = pool
            .install(|| exhaustive::par_solve(&game, &table, exhaustive::Options::new().limits(limits).range(DeclaredRange)))
            .unwrap();
        let start = *plain.start();
        let position = asked % game.index_len() as u64;
        let expected = (plain.value(), plain.line().unwrap(), plain.move_values(&start).unwrap());
        let asked_value = plain.value_of(&position).unwrap();
        prop_assert!(cut.stats().expanded <= plain.stats().expanded);
        for other in [&mut cut as &mut dyn Answers, &mut shared] {
            prop_assert_eq!(&other.answers(start), &expected);
            prop_assert_eq!(other.value_at(position), asked_value);
        }
    }
}

/// What a solution says, whatever its table and cuts.
trait Answers {
    fn answers(&mut self, start: u64) -> (i64, Vec<Ply<Nim>>, Vec<MoveValue<Nim>>);
    fn value_at(&mut self, position: u64) -> i64;
}

impl<T: MemoTable<Nim>, R: RangeSource<Nim>> Answers for Solution<'_, Nim, T, R> {
    fn answers(&mut self, start: u64) -> (i64, Vec<Ply<Nim>>, Vec<MoveValue<Nim>>) {
        (
            self.value(),
            self.line().unwrap(),
            self.move_values(&start).unwrap(),
        )
    }
    fn value_at(&mut self, position: u64) -> i64 {
        self.value_of(&position).unwrap()
    }
}

#[test]
fn leetcode_examples() {
    assert_eq!(value(&StoneGame::new(vec![5, 3, 4, 5]).unwrap()), 1);
    assert!(value(&StoneGame::new(vec![3, 7, 2, 3]).unwrap()) > 0);
    assert_eq!(value(&StoneGameVII::new(vec![5, 3, 1, 4, 2]).unwrap()), 6);
    assert_eq!(
        value(&StoneGameVII::new(vec![7, 90, 5, 1, 100, 10, 10, 2]).unwrap()),
        122
    );
    assert!(value(&StoneGameIII::new(vec![1, 2, 3, 7]).unwrap()) < 0); // Bob
    assert!(value(&StoneGameIII::new(vec![1, 2, 3, -9]).unwrap()) > 0); // Alice
    assert_eq!(value(&StoneGameIII::new(vec![1, 2, 3, 6]).unwrap()), 0); // Tie
}

/// Every position reachable from the empty board, by the literal rules (independent of the
/// crate's encoding): play stops at three in a row or a full board.
fn tic_tac_toe_positions() -> usize {
    let mut seen = HashSet::new();
    let mut todo = vec![[0u8; 9]];
    while let Some(board) = todo.pop() {
        if !seen.insert(board) {
            continue;
        }
        let marks = board.iter().filter(|&&cell| cell != 0).count();
        if tic_tac_toe_wins(&board, 1) || tic_tac_toe_wins(&board, 2) || marks == 9 {
            continue;
        }
        let mark = if marks % 2 == 0 { 1 } else { 2 };
        for cell in 0..9 {
            if board[cell] == 0 {
                let mut next = board;
                next[cell] = mark;
                todo.push(next);
            }
        }
    }
    seen.len()
}

#[test]
fn tic_tac_toe_is_a_draw_over_5478_positions() {
    assert_eq!(tic_tac_toe_positions(), 5478);
    assert_eq!(value(&TicTacToe), 0);
    let report = check_dense(&TicTacToe, &CheckOptions::default());
    assert!(report.is_ok(), "{report}");
    assert_eq!(report.states, 5478);
}

#[test]
fn dots_and_boxes_matches_the_literal_rules() {
    for (rows, columns) in [(1, 1), (1, 2), (2, 1), (1, 3), (2, 2)] {
        let game = DotsAndBoxes::new(rows, columns).unwrap();
        assert_eq!(
            value(&game),
            dots_and_boxes_oracle(rows as usize, columns as usize),
            "{rows}x{columns}"
        );
        let report = check_dense(
            &game,
            &CheckOptions {
                max_states: 5_000,
                ..CheckOptions::default()
            },
        );
        assert!(report.is_ok(), "{rows}x{columns}: {report}");
    }
}

#[test]
fn dots_and_boxes_two_by_three_in_parallel_and_sequentially() {
    let game = DotsAndBoxes::new(2, 3).unwrap();
    let sequential = exhaustive::solve(
        &game,
        DenseTable::for_game(&game),
        exhaustive::Options::new(),
    )
    .unwrap()
    .value();
    let table = AtomicDenseTable::for_game(&game);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let parallel = pool.install(|| {
        exhaustive::par_solve(&game, &table, exhaustive::Options::new())
            .unwrap()
            .value()
    });
    assert_eq!(sequential, parallel);
    assert!(sequential.abs() <= 6);
}

#[test]
fn every_new_game_passes_the_checker() {
    let options = CheckOptions::default();
    let piles = random_values(10, 7, 1, 100);
    assert!(check_dense(&StoneGame::new(piles.clone()).unwrap(), &options).is_ok());
    assert!(check_dense(&StoneGameVII::new(piles.clone()).unwrap(), &options).is_ok());
    let values = random_values(12, 8, -100, 100);
    assert!(check_dense(&StoneGameIII::new(values).unwrap(), &options).is_ok());
    let report = check_dense(&Nim::new(vec![2, 3, 4]).unwrap(), &options);
    assert!(report.is_ok(), "{report}");
}

#[test]
fn bad_inputs_are_rejected() {
    assert!(StoneGame::new(vec![]).is_err());
    assert!(StoneGame::new(vec![1, 0]).is_err());
    assert!(StoneGameVII::new(vec![i64::MAX / 2, i64::MAX / 2]).is_err());
    assert!(StoneGameIII::new(vec![i64::MIN]).is_err());
    assert!(Nim::new(vec![-1]).is_err());
    assert!(Nim::new(vec![1 << 30, 1 << 30]).is_err());
    assert!(DotsAndBoxes::new(0, 2).is_err());
    assert!(DotsAndBoxes::new(5, 6).is_err()); // 71 edges, past MAX_EDGES
}
