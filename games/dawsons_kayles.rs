//! Dawson's Kayles (the octal game 0.07): rows of pins; a move knocks down two pins side by
//! side in one row, which may split it in two; the player who cannot move loses. Impartial:
//! each row is a game of its own, and the position's value is the XOR of the rows' nimbers.
//!
//! The whole game is this file: the rules, and (with the `cli` feature) how the command line
//! and the analysis page read it.

use crate::error::InputError;
use crate::game::{Capabilities, Declares, Game, Impartial, Score, Step, Turn};

/// The longest row: 2²⁰ pins (the nimbers of rows up to n pins take about n²/2 steps).
pub const MAX_ROW_PINS: u32 = 1 << 20;

/// Rows of pins. A position is the rows' lengths, in the order they stand (a row split by a
/// move becomes two rows in its place; a row with no pin left is gone).
///
/// ```
/// use gamesolver::{games::DawsonsKayles, Solved, Solver};
///
/// // A row of 5 pins has nimber 0 (a loss for the player to move), and 7 has 1.
/// let game = DawsonsKayles::new(&[5])?;
/// assert_eq!(Solver::new(&game).solve()?.nimber(), Some(0));
/// let game = DawsonsKayles::new(&[5, 7])?;
/// let solved = Solver::new(&game).solve()?;
/// assert_eq!((solved.value(), solved.nimber()), (1, Some(1)));
/// # Ok::<(), gamesolver::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DawsonsKayles {
    rows: Vec<u32>,
}

/// A move: knock down pins `at` and `at + 1` (from 0) of row `row` (from 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pair {
    /// The row.
    pub row: u32,
    /// The first of the two pins, from 0 at the row's left.
    pub at: u32,
}

impl DawsonsKayles {
    /// Rows of the given lengths (each 1 to [`MAX_ROW_PINS`] pins; at least one row).
    pub fn new(rows: &[i64]) -> Result<Self, InputError> {
        let rows = super::sizes(
            "Dawson's Kayles",
            ("row", "rows"),
            rows,
            MAX_ROW_PINS,
            "a row has 1 to 1048576 pins",
        )?;
        Ok(DawsonsKayles { rows })
    }

    /// The rows the game starts with.
    pub fn start_state(&self) -> Vec<u32> {
        self.rows.clone()
    }
}

impl Game for DawsonsKayles {
    type State = Vec<u32>;
    type Move = Pair;

    fn start(&self) -> Vec<u32> {
        self.rows.clone()
    }

    /// Row by row, from each row's left.
    fn moves(&self, rows: &Vec<u32>) -> impl Iterator<Item = Pair> {
        rows.iter().enumerate().flat_map(|(row, &pins)| {
            (0..pins.saturating_sub(1)).map(move |at| Pair {
                row: row as u32,
                at,
            })
        })
    }

    fn play(&self, rows: &Vec<u32>, pair: &Pair) -> Step<Vec<u32>> {
        let row = pair.row as usize;
        let (left, right) = (pair.at, rows[row] - pair.at - 2);
        let mut next = Vec::with_capacity(rows.len() + 1);
        next.extend_from_slice(&rows[..row]);
        next.extend([left, right].into_iter().filter(|&pins| pins > 0));
        next.extend_from_slice(&rows[row + 1..]);
        Step {
            next,
            gain: 0,
            turn: Turn::Pass,
        }
    }

    /// No two pins side by side: the player to move has lost.
    fn payoff(&self, _: &Vec<u32>) -> Score {
        -1
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().impartial()
    }
}

/// Each row of at least two pins is a part: the row alone.
impl Impartial for DawsonsKayles {
    fn split(&self, rows: &Vec<u32>, parts: &mut Vec<Vec<u32>>) {
        parts.extend(
            rows.iter()
                .filter(|&&pins| pins >= 2)
                .map(|&pins| vec![pins]),
        );
    }
}

/// How the command line and the analysis page read Dawson's Kayles.
#[cfg(feature = "cli")]
mod cli {
    use super::{DawsonsKayles, Pair};
    use crate::InputError;
    use crate::cli::serde_json::{Value, json};
    use crate::cli::{Bundled, Entry, Fields, FromValues, Line, Presented};
    use crate::engines::Ply;

    /// Dawson's Kayles on the command line: `gamesolver dawsons-kayles 5 7` (rows of 5 and 7).
    pub const GAME: Bundled = Bundled::game::<DawsonsKayles>(
        "dawsons-kayles",
        "Dawson's Kayles: the VALUES are rows of pins; knock down two pins side by side; who \
         cannot move loses (the answer gives the position's nimber)",
    );

    impl Presented for DawsonsKayles {
        fn show(&self, rows: &Vec<u32>) -> String {
            if rows.is_empty() {
                return "No pin left.".into();
            }
            rows.iter()
                .enumerate()
                .map(|(row, &pins)| {
                    let drawn = if pins <= 60 {
                        "|".repeat(pins as usize)
                    } else {
                        format!("{pins} pins")
                    };
                    format!("row {}: {drawn}", row + 1)
                })
                .collect::<Vec<_>>()
                .join("\n")
        }

        /// `2:3-4`: pins 3 and 4 (from 1 at the left) of row 2.
        fn move_name(&self, _: &Vec<u32>, pair: &Pair) -> String {
            format!("{}:{}-{}", pair.row + 1, pair.at + 1, pair.at + 2)
        }

        fn move_hint(&self) -> Option<&'static str> {
            Some("a row and two pins side by side in it, as 2:3-4 (from 1)")
        }

        /// `--at`: the rows' lengths, as `5,3,7`.
        fn position(&self, text: &str) -> Result<Vec<u32>, InputError> {
            super::super::sizes_at(text, "row", "pins", super::MAX_ROW_PINS)
        }

        /// "Alice knocks down pins 2:3-4"; in JSON `{"player", "move"}`.
        fn entries(&self, line: &[Ply<Self>]) -> Line {
            line.iter()
                .map(|ply| {
                    let player = self.player_name(ply.player);
                    let name = self.move_name(&ply.state, &ply.mv);
                    Entry {
                        player,
                        text: format!("{player} knocks down pins {name}"),
                        fields: Fields::new().with("move", name),
                    }
                })
                .collect()
        }

        /// The rows as a grid, a pin `|`; a click on a pin knocks it down with the one to its
        /// right.
        fn view(&self, rows: &Vec<u32>) -> Value {
            let columns = rows.iter().copied().max().unwrap_or(0).clamp(1, 60) as usize;
            if rows.iter().any(|&pins| pins > 60) {
                return json!({"kind": "text", "text": self.show(rows)});
            }
            let mut cells = Vec::new();
            let mut move_at = Vec::new();
            for (row, &pins) in rows.iter().enumerate() {
                for at in 0..columns as u32 {
                    cells.push(if at < pins { "|" } else { "" });
                    move_at.push(
                        (at + 1 < pins).then(|| format!("{}:{}-{}", row + 1, at + 1, at + 2)),
                    );
                }
            }
            json!({
                "kind": "grid", "rows": rows.len().max(1), "columns": columns,
                "cells": if rows.is_empty() { vec![""; columns] } else { cells },
                "move_at": if rows.is_empty() { vec![None; columns] } else { move_at },
            })
        }
    }

    impl FromValues for DawsonsKayles {
        const EXAMPLE: &'static str = "5 7";
        const POSITION: Option<&'static str> = Some("'R1,R2,...': the rows' pins");
        fn from_values(values: &[i64]) -> Result<Self, InputError> {
            DawsonsKayles::new(values)
        }
    }
}

#[cfg(feature = "cli")]
pub use cli::GAME;
