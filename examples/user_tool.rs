//! A user's games in the whole command line: two games gamesolver does not bundle, run with
//! everything the bundled games have (solve, `analyze`, `play`, `check`, `--json`, progress,
//! the memory budget and time limit) by implementing [`Presented`] and [`FromValues`] and
//! calling [`main_with`](gamesolver::cli::main_with).
//!
//! **The Divisor Game** (LeetCode 1025). A number N is on the board. On a turn a player
//! chooses a divisor x of N with 0 < x < N and replaces N with N − x; a player who cannot
//! move (N = 1) loses. Alice moves first. It declares a dense index (the number on the
//! board) that orders it (every move lowers it), so it is solved by the sweep, an array DP,
//! and can be saved and loaded (`--save`, `--load`).
//!
//! **Flip Game II** (LeetCode 294). A row of `+` and `-` (given as 1 and 0); on a turn a player
//! flips two neighbouring `+` into `--`; a player who cannot move loses. Its states are the
//! 2⁶⁴ rows, so it declares no index: it is solved on hash tables, through `Solver`.
//!
//! ```text
//! cargo run --example user_tool -- divisor-game 12
//! cargo run --example user_tool -- analyze divisor-game 12 --at 9
//! cargo run --example user_tool -- play divisor-game 12
//! cargo run --example user_tool -- flip-game 1 1 1 1 0 1 1 1
//! cargo run --example user_tool -- check flip-game 1 1 1 1 1 1 1 1 1 1
//! ```
//!
//! tests/user_tool.rs runs this binary and this file's tests.

use gamesolver::InputError;
use std::process::ExitCode;

use gamesolver::cli::{Bundled, FromValues, Presented};
use gamesolver::{
    Capabilities, Declares, DenseIndex, Game, Player, Score, Step, Turn, game::StateAt,
};

/// The Divisor Game from N.
#[derive(Debug)]
pub struct DivisorGame {
    /// The number at the start.
    pub start: u32,
}

/// The largest N the command line takes: the states are 1..=N, and listing a state's
/// divisors takes √N steps, so N = 10⁶ is about a second.
const MOST: i64 = 1_000_000;

impl Game for DivisorGame {
    /// The number on the board.
    type State = u32;
    /// The divisor chosen.
    type Move = u32;

    fn start(&self) -> u32 {
        self.start
    }

    fn moves(&self, n: &u32) -> impl Iterator<Item = u32> {
        // The divisors below N, smallest first: d ≤ √N rising, then their partners N / d
        // (d falling from √N to 2: N itself, 1's partner, is no move; nor d itself when N = 1).
        let (n, root) = (*n, n.isqrt());
        let small = (1..=root).filter(move |&d| n.is_multiple_of(d) && d < n);
        let large = (2..=root)
            .rev()
            .filter(move |&d| n.is_multiple_of(d) && n / d != d)
            .map(move |d| n / d);
        small.chain(large)
    }

    fn play(&self, n: &u32, x: &u32) -> Step<u32> {
        Step {
            next: n - x,
            gain: 0,
            turn: Turn::Pass,
        }
    }

    /// A player who cannot move loses.
    fn payoff(&self, _n: &u32) -> Score {
        -1
    }

    /// Won or lost with no points on the way; every state is a number from 1 to N, and every
    /// move makes it smaller: the index orders the game (the solver sweeps it as an array DP).
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().ordered_index().outcome_game()
    }
}

impl DenseIndex for DivisorGame {
    fn index_len(&self) -> usize {
        self.start as usize + 1
    }

    fn index(&self, n: &u32) -> usize {
        *n as usize
    }
}

/// The state at each index: the number itself (none at 0, which no game reaches).
impl StateAt for DivisorGame {
    fn state_at(&self, index: usize) -> Option<u32> {
        u32::try_from(index)
            .ok()
            .filter(|n| (1..=self.start).contains(n))
    }
}

/// How the command line shows it: a number, and a move is the divisor chosen.
impl Presented for DivisorGame {
    fn show(&self, n: &u32) -> String {
        format!("N = {n}")
    }

    // The state is N alone: whose turn it is comes from play, for a drawing that says so.
    fn show_for(&self, n: &u32, to_move: Player) -> String {
        format!("N = {n}, {} to choose", self.player_name(to_move))
    }

    fn move_name(&self, _n: &u32, x: &u32) -> String {
        x.to_string()
    }

    fn position(&self, position: &str) -> Result<u32, InputError> {
        match position.trim().parse::<u32>() {
            Ok(n) if (1..=self.start).contains(&n) => Ok(n),
            _ => Err(InputError::InvalidState(format!(
                "a position is the number on the board, from 1 to {}",
                self.start
            ))),
        }
    }

    fn legend(&self) -> Option<&'static str> {
        Some("each move is the divisor subtracted")
    }
}

/// Built from one integer, N.
impl FromValues for DivisorGame {
    const EXAMPLE: &'static str = "12";
    const POSITION: Option<&'static str> = Some("'N': the number on the board");

    fn from_values(values: &[i64]) -> Result<Self, InputError> {
        match *values {
            [n @ 1..=MOST] => Ok(DivisorGame { start: n as u32 }),
            _ => Err(InputError::InvalidGame(format!(
                "the divisor game takes one number N, from 1 to {MOST}"
            ))),
        }
    }
}

/// Flip Game II on a row of at most 64 cells.
#[derive(Debug)]
pub struct FlipGame {
    /// The row's length.
    pub cells: u32,
    /// The row at the start: bit i set if cell i holds `+`.
    pub start: u64,
}

impl Game for FlipGame {
    /// The row: bit i set if cell i holds `+`.
    type State = u64;
    /// The left cell of the two flipped (from 0).
    type Move = u32;

    fn start(&self) -> u64 {
        self.start
    }

    fn moves(&self, row: &u64) -> impl Iterator<Item = u32> {
        // Cells i and i + 1 both `+`: bit i of `row & row >> 1`, lowest first.
        let mut pairs = row & (row >> 1);
        std::iter::from_fn(move || {
            let cell = (pairs != 0).then(|| pairs.trailing_zeros())?;
            pairs &= pairs - 1;
            Some(cell)
        })
    }

    fn play(&self, row: &u64, cell: &u32) -> Step<u64> {
        Step {
            next: row & !(0b11 << cell),
            gain: 0,
            turn: Turn::Pass,
        }
    }

    /// A player who cannot move loses.
    fn payoff(&self, _row: &u64) -> Score {
        -1
    }

    /// Won or lost: the solver cuts at the first winning move.
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().outcome_game()
    }
}

impl FlipGame {
    /// The row in `+` and `-`.
    fn text(&self, row: u64) -> String {
        (0..self.cells)
            .map(|cell| if row >> cell & 1 == 1 { '+' } else { '-' })
            .collect()
    }
}

/// How the command line shows it: the row, and a move is the position of its left cell.
impl Presented for FlipGame {
    fn show(&self, row: &u64) -> String {
        format!("{}\n{}", self.text(*row), ruler(self.cells))
    }

    fn move_name(&self, _row: &u64, cell: &u32) -> String {
        (cell + 1).to_string()
    }

    /// The row as cells for the analysis page (`serve`): a click on a cell flips it and the
    /// next, where both hold `+`.
    fn view(&self, row: &u64) -> gamesolver::cli::serde_json::Value {
        let cells: Vec<String> = self.text(*row).chars().map(String::from).collect();
        let pairs = row & (row >> 1);
        let move_at: Vec<Option<String>> = (0..self.cells)
            .map(|cell| (pairs >> cell & 1 == 1).then(|| (cell + 1).to_string()))
            .collect();
        gamesolver::cli::serde_json::json!({
            "kind": "grid", "rows": 1, "columns": self.cells, "cells": cells, "move_at": move_at
        })
    }

    fn position(&self, position: &str) -> Result<u64, InputError> {
        let cells: Vec<char> = position.trim().chars().collect();
        if cells.len() != self.cells as usize || cells.iter().any(|c| !matches!(c, '+' | '-')) {
            return Err(InputError::InvalidState(format!(
                "a position is the row as {} characters, each '+' or '-'",
                self.cells
            )));
        }
        Ok(cells
            .iter()
            .enumerate()
            .filter(|(_, c)| **c == '+')
            .fold(0, |row, (cell, _)| row | 1 << cell))
    }

    fn legend(&self) -> Option<&'static str> {
        Some("each move is the position of the left one of the two cells flipped, from 1")
    }
}

/// The positions under a row, every fifth marked.
fn ruler(cells: u32) -> String {
    (1..=cells)
        .map(|cell| if cell % 5 == 0 { '|' } else { '.' })
        .collect()
}

/// Built from the row, 1 for `+` and 0 for `-`.
impl FromValues for FlipGame {
    const EXAMPLE: &'static str = "1 1 1 1 0 1 1 1";
    const POSITION: Option<&'static str> = Some("'++-+': the row");

    fn from_values(values: &[i64]) -> Result<Self, InputError> {
        if values.is_empty() || values.len() > 64 || values.iter().any(|v| !matches!(v, 0 | 1)) {
            return Err(InputError::InvalidGame(
                "flip game takes the row as 1 (+) and 0 (-), from 1 to 64 cells".into(),
            ));
        }
        let start = values
            .iter()
            .enumerate()
            .filter(|(_, v)| **v == 1)
            .fold(0, |row, (cell, _)| row | 1 << cell);
        Ok(FlipGame {
            cells: values.len() as u32,
            start,
        })
    }
}

/// The command line's entries for the games.
const DIVISOR_GAME: Bundled = Bundled::game::<DivisorGame>(
    "divisor-game",
    "LeetCode 1025: subtract a proper divisor; who cannot move loses",
);
const FLIP_GAME: Bundled = Bundled::game::<FlipGame>(
    "flip-game",
    "LeetCode 294: flip two neighbouring + into --; who cannot move loses",
);

fn main() -> ExitCode {
    gamesolver::cli::main_with(&[&DIVISOR_GAME, &FLIP_GAME])
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use gamesolver::check::{CheckOptions, check_dense};
    use gamesolver::{Solved, Solver};

    /// The literal rules by brute force: whether the player to move at `n` wins.
    fn wins(n: u32, memo: &mut Vec<Option<bool>>) -> bool {
        if let Some(known) = memo[n as usize] {
            return known;
        }
        let won = (1..n)
            .filter(|&x| n.is_multiple_of(x))
            .any(|x| !wins(n - x, memo));
        memo[n as usize] = Some(won);
        won
    }

    #[test]
    fn solves_as_the_rules_and_the_closed_form_say() {
        let mut memo = vec![None; 401];
        for n in 1..=400 {
            let game = DivisorGame { start: n };
            let value = Solver::new(&game).solve().unwrap().value();
            let won = wins(n, &mut memo);
            assert_eq!(value, if won { 1 } else { -1 }, "N = {n}");
            // LeetCode's closed form: the first player wins exactly when N is even.
            assert_eq!(won, n % 2 == 0, "N = {n}");
        }
    }

    #[test]
    fn lists_the_proper_divisors_once() {
        let game = DivisorGame { start: 36 };
        assert!(game.moves(&36).eq([1, 2, 3, 4, 6, 9, 12, 18]));
        assert!(game.moves(&49).eq([1, 7]));
        assert!(game.moves(&2).eq([1]));
        assert_eq!(game.moves(&1).count(), 0);
        for n in 1..500 {
            let plain = (1..n).filter(|d| n % d == 0);
            assert!(game.moves(&n).eq(plain), "N = {n}");
        }
    }

    #[test]
    fn passes_the_conformance_checker() {
        let report = check_dense(&DivisorGame { start: 200 }, &CheckOptions::default());
        assert!(report.is_ok(), "{report}");
    }

    /// Flip Game II by Sprague–Grundy theory, independent of the engine: a run of k `+` is a
    /// heap whose Grundy number is the mex of g(a) ^ g(b) over a + b = k − 2; the first
    /// player wins exactly when the runs' numbers XOR to non-zero.
    pub fn flip_first_wins(row: &[i64]) -> bool {
        let mut grundy = vec![0u32; 65];
        for k in 2..=64 {
            let seen: Vec<u32> = (0..=k - 2).map(|a| grundy[a] ^ grundy[k - 2 - a]).collect();
            grundy[k] = (0..).find(|g| !seen.contains(g)).unwrap();
        }
        let runs = row.split(|cell| *cell == 0).map(<[i64]>::len);
        runs.fold(0, |x, run| x ^ grundy[run]) != 0
    }

    #[test]
    fn flip_game_agrees_with_sprague_grundy() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..60 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = 1 + (seed % 24) as usize;
            let row: Vec<i64> = (0..len)
                .map(|i| ((seed >> (i + 20)) & 1) as i64 | i64::from(i % 3 != 2))
                .collect();
            let game = FlipGame::from_values(&row).unwrap();
            let value = Solver::new(&game).solve().unwrap().value();
            assert_eq!(value == 1, flip_first_wins(&row), "{row:?}");
        }
        let report = gamesolver::check::check(
            &FlipGame::from_values(&[1; 10]).unwrap(),
            &CheckOptions::default(),
        );
        assert!(report.is_ok(), "{report}");
    }

    #[test]
    fn refuses_values_that_make_no_game() {
        for values in [&[][..], &[0], &[MOST + 1], &[3, 4], &[-5]] {
            assert!(
                matches!(
                    DivisorGame::from_values(values),
                    Err(InputError::InvalidGame(_))
                ),
                "{values:?}"
            );
        }
        assert_eq!(DivisorGame::from_values(&[12]).unwrap().start, 12);
        for values in [&[][..], &[2], &[1, -1], &[1; 65]] {
            assert!(FlipGame::from_values(values).is_err(), "{values:?}");
        }
    }
}
