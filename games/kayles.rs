//! Kayles (Dudeney, 1908): a row of pins with gaps; a move knocks down one pin, or two pins
//! side by side; the player who cannot move (no pin left) loses. A win/loss game: the value is
//! +1 if the player to move wins, −1 if they lose.
//!
//! The whole game is this file: the rules, and (with the `cli` feature) how the command line
//! and the analysis page read it. It is registered by one line in `src/cli/games/mod.rs`.

use crate::error::InputError;
use crate::game::{Capabilities, Declares, Game, Impartial, Score, Step, Symmetry, Turn};

/// The most cells a row may have: a position is one 64-bit word, a bit per cell.
pub const MAX_KAYLES_CELLS: usize = 64;

/// A row of Kayles: rows of pins (their lengths, as given) separated by one empty cell. A
/// position is the standing pins as bits (bit `i` for cell `i`, from the left).
///
/// ```
/// use gamesolver::{games::Kayles, Solved, Solver};
///
/// // One row of 3 pins: the first player knocks down the middle one and mirrors.
/// let game = Kayles::new(&[3]).unwrap();
/// assert_eq!(Solver::new(&game).solve().unwrap().value(), 1);
/// // Rows of 1 and 1: whoever moves takes one, the other the last: the first player loses.
/// let game = Kayles::new(&[1, 1]).unwrap();
/// assert_eq!(Solver::new(&game).solve().unwrap().value(), -1);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kayles {
    cells: usize,
    start: u64,
}

/// A move: knock down `count` pins (1 or 2) from cell `first`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Knock {
    /// The leftmost pin knocked down, from 0.
    pub first: u8,
    /// How many: 1, or 2 side by side.
    pub count: u8,
}

impl Kayles {
    /// Rows of pins of the given lengths (each at least 1), one empty cell between rows; at most
    /// [`MAX_KAYLES_CELLS`] cells in all.
    pub fn new(rows: &[i64]) -> Result<Self, InputError> {
        super::check_count("Kayles", "row", "rows", rows.len(), 1)?;
        let mut start = 0u64;
        let mut cells = 0usize;
        for (index, &pins) in rows.iter().enumerate() {
            let fits = |pins: usize| cells + usize::from(index > 0) + pins <= MAX_KAYLES_CELLS;
            let pins = usize::try_from(pins).ok().filter(|&pins| pins >= 1).ok_or(
                InputError::OutOfRange {
                    unit: "row",
                    position: index + 1,
                    value: pins,
                    rule: "a row has at least 1 pin",
                },
            )?;
            if !fits(pins) {
                return Err(InputError::InvalidGame(format!(
                    "these rows need more than {MAX_KAYLES_CELLS} cells (each row's pins and one \
                     empty cell between rows): row {} does not fit",
                    index + 1
                )));
            }
            cells += usize::from(index > 0);
            for cell in cells..cells + pins {
                start |= 1 << cell;
            }
            cells += pins;
        }
        Ok(Kayles { cells, start })
    }

    /// How many cells the row has (pins and gaps).
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// The row as text: `|` a standing pin, `.` an empty cell.
    pub fn text(&self, pins: u64) -> String {
        (0..self.cells)
            .map(|cell| if pins >> cell & 1 == 1 { '|' } else { '.' })
            .collect()
    }
}

impl Game for Kayles {
    type State = u64;
    type Move = Knock;

    fn start(&self) -> u64 {
        self.start
    }

    /// Pin by pin from the left: each pin alone, then with its right neighbour if it stands.
    fn moves(&self, pins: &u64) -> impl Iterator<Item = Knock> {
        let (mut left, pairs, mut pair) = (*pins, pins & (pins >> 1), None);
        std::iter::from_fn(move || {
            if let Some(first) = pair.take() {
                return Some(Knock { first, count: 2 });
            }
            let first = (left != 0).then(|| left.trailing_zeros() as u8)?;
            left &= left - 1;
            pair = (pairs >> first & 1 == 1).then_some(first);
            Some(Knock { first, count: 1 })
        })
    }

    fn play(&self, pins: &u64, knock: &Knock) -> Step<u64> {
        let knocked = ((1u64 << knock.count) - 1) << knock.first;
        Step {
            next: pins & !knocked,
            gain: 0,
            turn: Turn::Pass,
        }
    }

    /// No pin left: the player to move has lost.
    fn payoff(&self, _: &u64) -> Score {
        -1
    }

    /// Impartial (its value is a nimber), each run of pins a part; for the engines that
    /// search the whole row, rows with the same runs of pins, in any order, are stored once.
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().impartial().symmetry()
    }
}

/// Each run of pins is a part: the run alone, from the left of the row.
impl Impartial for Kayles {
    fn split(&self, pins: &u64, parts: &mut Vec<u64>) {
        let mut rest = *pins;
        while rest != 0 {
            let start = rest.trailing_zeros();
            let length = (rest >> start).trailing_ones();
            let run = if length >= 64 {
                !0
            } else {
                (1u64 << length) - 1
            };
            parts.push(run);
            rest &= !(run << start);
        }
    }

    /// A run's pins.
    fn part_key(&self, run: &u64) -> Option<u128> {
        Some(u128::from(*run))
    }
}

/// A row is the sum of its runs of pins, each a game of its own: only how long the runs are
/// matters, not their order or the gaps between them. The representative packs the runs from
/// the left, longest first, one empty cell apart (it fits: the row had at least that gap).
impl Symmetry for Kayles {
    fn canonical(&self, pins: &u64) -> u64 {
        let mut runs = [0u8; MAX_KAYLES_CELLS / 2 + 1];
        let (mut count, mut rest) = (0, *pins);
        while rest != 0 {
            let start = rest.trailing_zeros();
            let length = (rest >> start).trailing_ones();
            runs[count] = length as u8;
            count += 1;
            // Clear the run (a run of 64 pins is the whole word).
            rest &= if start + length >= 64 {
                0
            } else {
                !0u64 << (start + length)
            };
        }
        let runs = &mut runs[..count];
        runs.sort_unstable_by(|a, b| b.cmp(a));
        let mut packed = 0u64;
        let mut at = 0u32;
        for &length in runs.iter() {
            let length = u32::from(length);
            let ones = if length >= 64 {
                !0
            } else {
                (1u64 << length) - 1
            };
            packed |= ones << at;
            at += length + 1;
        }
        packed
    }
}

/// How the command line and the page read Kayles.
#[cfg(feature = "cli")]
mod cli {
    use super::{Kayles, Knock};
    use crate::InputError;
    use crate::cli::serde_json::{Value, json};
    use crate::cli::{Bundled, Entry, Fields, FromValues, Line, Presented};
    use crate::engines::Ply;

    /// Kayles on the command line: `gamesolver kayles 3 4` (rows of 3 and 4 pins).
    pub const GAME: Bundled = Bundled::game::<Kayles>(
        "kayles",
        "Kayles: the VALUES are rows of pins; knock down one pin or two side by side; who \
         cannot move loses",
    );

    impl Presented for Kayles {
        fn show(&self, pins: &u64) -> String {
            let ruler: String = (1..=self.cells)
                .map(|cell| char::from(b'0' + (cell % 10) as u8))
                .collect();
            format!("{}\n{ruler}", self.text(*pins))
        }

        /// `3` knocks down the pin in cell 3 (from 1), `3-4` the pins in cells 3 and 4.
        fn move_name(&self, _: &u64, knock: &Knock) -> String {
            let first = usize::from(knock.first) + 1;
            if knock.count == 1 {
                first.to_string()
            } else {
                format!("{first}-{}", first + 1)
            }
        }

        fn move_hint(&self) -> Option<&'static str> {
            Some("the cell of a pin (3), or of two side by side (3-4), from 1 at the left")
        }

        /// "Alice knocks down pins 3-4"; in JSON `{"player", "move", "pins"}`.
        fn entries(&self, line: &[Ply<Self>]) -> Line {
            line.iter()
                .map(|ply| {
                    let player = self.player_name(ply.player);
                    let name = self.move_name(&ply.state, &ply.mv);
                    let pins = if ply.mv.count == 1 { "pin" } else { "pins" };
                    Entry {
                        player,
                        text: format!("{player} knocks down {pins} {name}"),
                        fields: Fields::new().with("move", name).with("pins", ply.mv.count),
                    }
                })
                .collect()
        }

        /// One row of cells; a click on a pin knocks it down (two pins: from the list).
        fn view(&self, pins: &u64) -> Value {
            let cells: Vec<String> = self.text(*pins).chars().map(String::from).collect();
            let move_at: Vec<Option<String>> = (0..self.cells)
                .map(|cell| (pins >> cell & 1 == 1).then(|| (cell + 1).to_string()))
                .collect();
            json!({
                "kind": "grid", "rows": 1, "columns": self.cells, "cells": cells,
                "move_at": move_at,
            })
        }
    }

    impl FromValues for Kayles {
        const EXAMPLE: &'static str = "3 4";
        fn from_values(values: &[i64]) -> Result<Self, InputError> {
            Kayles::new(values)
        }
    }
}

#[cfg(feature = "cli")]
pub use cli::GAME;
