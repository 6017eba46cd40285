//! A user's game in the whole command line: a game gamesolver does not bundle, run with
//! everything the bundled games have (solve, `analyze`, `play`, `check`, `--json`,
//! `--save`/`--load`, progress, the memory budget and time limit) by implementing
//! [`Presented`] and [`FromValues`] and calling [`main_with`](gamesolver::cli::main_with).
//!
//! **The Divisor Game** (LeetCode 1025). A number N is on the board. On a turn a player
//! chooses a divisor x of N with 0 < x < N and replaces N with N − x; a player who cannot
//! move (N = 1) loses. Alice moves first.
//!
//! ```text
//! cargo run --example divisor_game -- divisor-game 12
//! cargo run --example divisor_game -- analyze divisor-game 12 --at 9
//! cargo run --example divisor_game -- play divisor-game 12
//! cargo run --example divisor_game -- check divisor-game 300
//! ```
//!
//! tests/user_tool.rs runs this binary; `cargo test` also runs the tests below.

use std::process::ExitCode;

use gamesolver::cli::{Bundled, FromValues, Presented};
use gamesolver::{Capabilities, Declares, DenseIndex, Error, Game, Score, Step, Turn};

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

    fn moves(&self, n: &u32, moves: &mut Vec<u32>) {
        // The divisors below N, smallest first: pairs (d, N / d) for d ≤ √N.
        let n = *n;
        let at = moves.len();
        let mut d = 1;
        while d * d <= n {
            if n.is_multiple_of(d) {
                let other = n / d;
                // N itself is no move: it is 1's partner, and d itself when N = 1.
                if d < n {
                    moves.push(d);
                }
                if other != d && other != n {
                    moves.push(other);
                }
            }
            d += 1;
        }
        // Append only: the buffer may hold other states' moves before `at`.
        moves[at..].sort_unstable();
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

    /// Won, lost or drawn with no points on the way, and every state a number from 0 to N.
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().dense_index().outcome_game()
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

/// How the command line shows it: a number, and a move is the divisor chosen.
impl Presented for DivisorGame {
    fn show(&self, n: &u32) -> String {
        format!("N = {n}")
    }

    fn move_name(&self, _n: &u32, x: &u32) -> String {
        x.to_string()
    }

    fn position(&self, position: &str) -> Result<u32, Error> {
        match position.trim().parse::<u32>() {
            Ok(n) if (1..=self.start).contains(&n) => Ok(n),
            _ => Err(Error::InvalidState(format!(
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

    fn from_values(values: &[i64]) -> Result<Self, Error> {
        match *values {
            [n @ 1..=MOST] => Ok(DivisorGame { start: n as u32 }),
            _ => Err(Error::InvalidGame(format!(
                "the divisor game takes one number N, from 1 to {MOST}"
            ))),
        }
    }
}

/// The command line's entry for the game.
const DIVISOR_GAME: Bundled = Bundled::game::<DivisorGame>(
    "divisor-game",
    "LeetCode 1025: subtract a proper divisor; who cannot move loses",
);

fn main() -> ExitCode {
    gamesolver::cli::main_with(&[&DIVISOR_GAME])
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamesolver::Solver;
    use gamesolver::check::{CheckOptions, check_dense};

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
        let mut moves = vec![99]; // moves are appended to what the buffer holds
        game.moves(&36, &mut moves);
        assert_eq!(moves, [99, 1, 2, 3, 4, 6, 9, 12, 18]);
        moves.clear();
        game.moves(&1, &mut moves);
        assert!(moves.is_empty());
    }

    #[test]
    fn passes_the_conformance_checker() {
        let report = check_dense(&DivisorGame { start: 200 }, &CheckOptions::default());
        assert!(report.is_ok(), "{report}");
    }

    #[test]
    fn refuses_values_that_make_no_game() {
        for values in [&[][..], &[0], &[MOST + 1], &[3, 4], &[-5]] {
            assert!(
                matches!(DivisorGame::from_values(values), Err(Error::InvalidGame(_))),
                "{values:?}"
            );
        }
        assert_eq!(DivisorGame::from_values(&[12]).unwrap().start, 12);
    }
}
