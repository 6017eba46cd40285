//! A game written outside the library, against its public API only: the worked example of
//! docs/adding-a-game.md.
//!
//! **Countdown.** A row of counters. On a turn a player takes 1, 2 or 3 counters and scores
//! one point per counter taken; whoever takes the last counter scores 5 more. Taking exactly
//! 2 counters earns an extra turn. Both players play to maximise their own score minus the
//! opponent's.
//!
//! Run it with `cargo run --example countdown -- 20`; `cargo test` runs its tests.

use gamesolver::check::{CheckOptions, check_dense};
use gamesolver::{
    Capabilities, Declares, DenseIndex, Game, Player, Score, Solved, Solver, Step, Turn,
};

/// The rules value: everything fixed for one game lives here.
#[derive(Debug)]
pub struct Countdown {
    /// Counters at the start.
    pub counters: u32,
}

/// The bonus for taking the last counter.
const LAST_COUNTER_BONUS: Score = 5;

impl Game for Countdown {
    /// Counters left: the whole changing part of a position.
    type State = u32;
    /// Counters taken.
    type Move = u32;

    fn start(&self) -> u32 {
        self.counters
    }

    fn moves(&self, left: &u32) -> impl Iterator<Item = u32> {
        // As they come: an engine takes only the moves it needs.
        (1..=3).filter(move |take| take <= left)
    }

    fn play(&self, left: &u32, take: &u32) -> Step<u32> {
        let next = left - take;
        let bonus = if next == 0 { LAST_COUNTER_BONUS } else { 0 };
        Step {
            next,
            gain: Score::from(*take) + bonus,
            // Taking exactly two counters keeps the turn.
            turn: if *take == 2 { Turn::Keep } else { Turn::Pass },
        }
    }

    fn payoff(&self, _left: &u32) -> Score {
        0 // no counters, no points
    }

    /// What `Solver` may use: the dense index below (values in a flat array).
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().dense_index()
    }
}

/// Every state is a number of counters, so states map onto `0..=counters`: the dense table
/// can be used.
impl DenseIndex for Countdown {
    fn index_len(&self) -> usize {
        self.counters as usize + 1
    }

    fn index(&self, left: &u32) -> usize {
        *left as usize
    }
}

fn main() {
    let counters = match std::env::args().nth(1).map(|arg| arg.parse::<u32>()) {
        None => 20,
        Some(Ok(counters)) => counters,
        Some(Err(_)) => {
            eprintln!("error: the argument must be a number of counters (0 to 4294967295)");
            std::process::exit(2);
        }
    };
    match report(counters) {
        Ok(text) => print!("{text}"),
        Err(error) => {
            eprintln!("error: {error}");
            std::process::exit(1);
        }
    }
}

/// Checks the game, solves it, and describes the optimal line.
fn report(counters: u32) -> Result<String, gamesolver::Error> {
    use std::fmt::Write;
    let game = Countdown { counters };
    let mut text = String::new();

    // 1. Check the implementation before trusting its answers.
    let check = check_dense(&game, &CheckOptions::default());
    writeln!(text, "conformance: {check}").unwrap();

    // 2. Solve, and show the optimal line.
    let mut solution = Solver::new(&game).solve()?;
    let value = solution.value();
    writeln!(
        text,
        "{counters} counters: the first player ends {value} points ahead"
    )
    .unwrap();
    for ply in solution.line()? {
        let who = if ply.player == Player::First {
            "First"
        } else {
            "Second"
        };
        let again = if ply.turn == Turn::Keep {
            ", and moves again"
        } else {
            ""
        };
        let (take, left, gain) = (ply.mv, ply.state, ply.gain);
        writeln!(
            text,
            "  {who} takes {take} of {left} ({gain} points){again}"
        )
        .unwrap();
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The literal rules, played out by brute force with explicit scores for both players.
    fn brute_force(left: u32, first_to_move: bool, first: Score, second: Score) -> Score {
        if left == 0 {
            return first - second;
        }
        let outcomes = (1..=3.min(left)).map(|take| {
            let gain = Score::from(take) + if take == left { LAST_COUNTER_BONUS } else { 0 };
            let (first, second) = if first_to_move {
                (first + gain, second)
            } else {
                (first, second + gain)
            };
            let next_first = if take == 2 {
                first_to_move
            } else {
                !first_to_move
            };
            brute_force(left - take, next_first, first, second)
        });
        if first_to_move {
            outcomes.max().unwrap()
        } else {
            outcomes.min().unwrap()
        }
    }

    #[test]
    fn solves_as_the_literal_rules_say() {
        for counters in 0..=16 {
            let game = Countdown { counters };
            let value = Solver::new(&game).solve().unwrap().value();
            assert_eq!(
                value,
                brute_force(counters, true, 0, 0),
                "{counters} counters"
            );
        }
    }

    #[test]
    fn passes_the_conformance_checker() {
        let report = check_dense(&Countdown { counters: 30 }, &CheckOptions::default());
        assert!(report.is_ok(), "{report}");
        assert_eq!(report.states, 31);
    }

    #[test]
    fn reports_the_line() {
        let text = report(7).unwrap();
        assert!(text.contains("no violation"), "{text}");
        assert!(
            text.contains("7 counters: the first player ends 12 points ahead"),
            "{text}"
        );
        assert!(text.contains("First takes 1 of 1 (6 points)"), "{text}");
    }
}
