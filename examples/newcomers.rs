//! The suite of games written from docs/adding-a-game.md alone (benches/newcomers/), in the
//! whole command line, as a newcomer's own tool would have them:
//!
//! ```text
//! cargo run --release --example newcomers -- kalah 6 3 --solver auto
//! cargo run --release --example newcomers -- domineering 6 6 --explain
//! ```
//!
//! benches/newcomers.sh times every game and size through it, `--solver auto` beside every
//! engine (docs/performance.md, "A newcomer's games").

#[path = "../benches/newcomers/mod.rs"]
mod newcomers;

use std::process::ExitCode;

use gamesolver::InputError;
use gamesolver::cli::{Bundled, FromValues, Presented};

use newcomers::dots::Dots;
use newcomers::hex::{Hex, Stones};
use newcomers::kalah::{Kalah, Pits};
use newcomers::mnk::{Board, Mnk};
use newcomers::othello::{Discs, Othello, Place};
use newcomers::slide::{Men, Slide, Slip};
use newcomers::takeaway::TakeAway;
use newcomers::user_games::{CanIWin, IndexedDomineering};

/// The integers of `values` if they are `N` in the ranges given, else an error naming them.
fn within<const N: usize>(
    values: &[i64],
    ranges: [(i64, i64); N],
    what: &str,
) -> Result<[u32; N], InputError> {
    let fits = values.len() == N
        && values
            .iter()
            .zip(ranges)
            .all(|(v, (low, high))| (low..=high).contains(v));
    if !fits {
        return Err(InputError::InvalidGame(what.into()));
    }
    Ok(std::array::from_fn(|i| values[i] as u32))
}

/// A board of bits drawn row by row: `mine` as `x`, `theirs` as `o`.
fn grid(columns: u32, rows: u32, mine: u128, theirs: u128) -> String {
    (0..rows)
        .map(|row| {
            (0..columns)
                .map(|column| {
                    let bit = row * columns + column;
                    match (mine >> bit & 1, theirs >> bit & 1) {
                        (1, _) => 'x',
                        (_, 1) => 'o',
                        _ => '.',
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

impl Presented for Kalah {
    fn show(&self, pits: &Pits) -> String {
        let row = |range: std::ops::Range<usize>| {
            pits.0[range]
                .iter()
                .map(|seeds| seeds.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!(
            "theirs {}\nmine   {}",
            row(self.pits..2 * self.pits),
            row(0..self.pits)
        )
    }

    fn move_name(&self, _pits: &Pits, pit: &u8) -> String {
        (pit + 1).to_string()
    }
}

impl FromValues for Kalah {
    const EXAMPLE: &'static str = "6 3";

    fn from_values(values: &[i64]) -> Result<Self, InputError> {
        let what = "kalah takes PITS (1 to 8) and SEEDS (1 to 6), and 1 for captures of an \
                    empty pit";
        if let Ok([pits, seeds]) = within(values, [(1, 8), (1, 6)], what) {
            return Ok(Kalah::new(pits as usize, seeds as u8));
        }
        let [pits, seeds, empty] = within(values, [(1, 8), (1, 6), (0, 1)], what)?;
        Ok(Kalah {
            empty_capture: empty == 1,
            ..Kalah::new(pits as usize, seeds as u8)
        })
    }
}

impl Presented for IndexedDomineering {
    fn show(&self, board: &u64) -> String {
        let taken = u128::from(board & !(1 << 63));
        grid(self.0.columns, self.0.rows, taken, 0)
    }

    fn move_name(&self, _board: &u64, first: &u8) -> String {
        first.to_string()
    }
}

impl FromValues for IndexedDomineering {
    const EXAMPLE: &'static str = "5 5";

    fn from_values(values: &[i64]) -> Result<Self, InputError> {
        let [rows, columns] = within(
            values,
            [(1, 8), (1, 8)],
            "domineering takes ROWS and COLUMNS (1 to 8, at most 62 cells)",
        )?;
        if rows * columns > 62 {
            return Err(InputError::InvalidGame(
                "domineering takes at most 62 cells".into(),
            ));
        }
        Ok(IndexedDomineering(newcomers::user_games::Domineering::new(
            rows, columns,
        )))
    }
}

impl Presented for Othello {
    fn show(&self, discs: &Discs) -> String {
        grid(
            self.columns,
            self.rows,
            u128::from(discs.mine),
            u128::from(discs.theirs),
        )
    }

    fn move_name(&self, _discs: &Discs, place: &Place) -> String {
        match place {
            Place::At(cell) => cell.to_string(),
            Place::Pass => "pass".into(),
        }
    }
}

impl FromValues for Othello {
    const EXAMPLE: &'static str = "4 4";

    fn from_values(values: &[i64]) -> Result<Self, InputError> {
        let [rows, columns] = within(
            values,
            [(2, 8), (2, 8)],
            "othello takes ROWS and COLUMNS, each even, from 2 to 8",
        )?;
        if rows % 2 == 1 || columns % 2 == 1 {
            return Err(InputError::InvalidGame(
                "othello's rows and columns are even".into(),
            ));
        }
        Ok(Othello::new(rows, columns))
    }
}

impl Presented for Hex {
    fn show(&self, stones: &Stones) -> String {
        grid(self.n, self.n, stones.mine, stones.theirs)
    }

    fn move_name(&self, _stones: &Stones, cell: &u8) -> String {
        let (row, column) = (u32::from(*cell) / self.n, u32::from(*cell) % self.n);
        format!("{}{}", char::from(b'a' + column as u8), row + 1)
    }
}

impl FromValues for Hex {
    const EXAMPLE: &'static str = "4";

    fn from_values(values: &[i64]) -> Result<Self, InputError> {
        let [n] = within(values, [(1, 11)], "hex takes the board's side N, 1 to 11")?;
        Ok(Hex::new(n))
    }
}

impl Presented for Mnk {
    fn show(&self, board: &Board) -> String {
        grid(
            self.m,
            self.n,
            u128::from(board.mine),
            u128::from(board.theirs),
        )
    }

    fn move_name(&self, _board: &Board, cell: &u8) -> String {
        cell.to_string()
    }
}

impl FromValues for Mnk {
    const EXAMPLE: &'static str = "3 3 3";

    fn from_values(values: &[i64]) -> Result<Self, InputError> {
        let [m, n, k] = within(
            values,
            [(1, 8), (1, 8), (1, 8)],
            "mnk takes M, N and K (1 to 8; K at most the longer side)",
        )?;
        if k > m.max(n) {
            return Err(InputError::InvalidGame(
                "mnk's K is at most the longer side".into(),
            ));
        }
        Ok(Mnk::new(m, n, k))
    }
}

impl Presented for Dots {
    fn show(&self, drawn: &u32) -> String {
        format!("lines drawn: {drawn:#b}")
    }

    fn move_name(&self, _drawn: &u32, edge: &u8) -> String {
        edge.to_string()
    }
}

impl FromValues for Dots {
    const EXAMPLE: &'static str = "2 2";

    fn from_values(values: &[i64]) -> Result<Self, InputError> {
        let [rows, columns] = within(
            values,
            [(1, 5), (1, 5)],
            "dots takes ROWS and COLUMNS of boxes (at most 32 lines)",
        )?;
        if (rows + 1) * columns + rows * (columns + 1) > 32 {
            return Err(InputError::InvalidGame(
                "dots takes at most 32 lines".into(),
            ));
        }
        Ok(Dots::new(rows, columns))
    }
}

impl Presented for Slide {
    fn show(&self, men: &Men) -> String {
        grid(self.n, self.n, u128::from(men.mine), u128::from(men.theirs))
    }

    fn move_name(&self, _men: &Men, slip: &Slip) -> String {
        match slip.from {
            Some(from) => format!("{from}-{}", slip.to),
            None => slip.to.to_string(),
        }
    }
}

impl FromValues for Slide {
    const EXAMPLE: &'static str = "3";

    fn from_values(values: &[i64]) -> Result<Self, InputError> {
        let [n] = within(values, [(3, 5)], "slide takes the board's side N, 3 to 5")?;
        Ok(Slide::new(n))
    }
}

impl Presented for TakeAway {
    fn show(&self, left: &u32) -> String {
        format!("{left} counters left")
    }

    fn move_name(&self, _left: &u32, take: &u32) -> String {
        take.to_string()
    }
}

impl FromValues for TakeAway {
    const EXAMPLE: &'static str = "1000";

    fn from_values(values: &[i64]) -> Result<Self, InputError> {
        let [counters] = within(
            values,
            [(0, 100_000_000)],
            "take-away takes the counters, 0 to 10^8",
        )?;
        Ok(TakeAway { counters })
    }
}

impl Presented for CanIWin {
    fn show(&self, state: &u64) -> String {
        format!("numbers used: {:#b}", state & 0x7fff_ffff)
    }

    fn move_name(&self, _state: &u64, number: &u32) -> String {
        number.to_string()
    }
}

impl FromValues for CanIWin {
    const EXAMPLE: &'static str = "15 100";

    fn from_values(values: &[i64]) -> Result<Self, InputError> {
        let [numbers, target] = within(
            values,
            [(1, 20), (0, 300)],
            "can-i-win takes the largest number (1 to 20) and the target (0 to 300)",
        )?;
        Ok(CanIWin { numbers, target })
    }
}

const GAMES: [&Bundled; 9] = [
    &Bundled::game::<Kalah>(
        "kalah",
        "Kalah: PITS a side, SEEDS in each; the first player's store minus the second's",
    ),
    &Bundled::game::<IndexedDomineering>(
        "domineering",
        "Domineering on ROWS x COLUMNS, Vertical first; who cannot place a domino loses",
    ),
    &Bundled::game::<Othello>("othello", "Othello on ROWS x COLUMNS: the disc difference"),
    &Bundled::game::<Hex>("hex", "Hex on N x N: Black, first, joins top and bottom"),
    &Bundled::game::<Mnk>("mnk", "K in a row on M x N; a full board is a draw"),
    &Bundled::game::<Dots>(
        "dots",
        "Dots and Boxes on ROWS x COLUMNS boxes: the first player's boxes minus the second's",
    ),
    &Bundled::game::<Slide>(
        "slide",
        "N men a side placed then slid on N x N; N in a row wins (play may cycle)",
    ),
    &Bundled::game::<TakeAway>(
        "take-away",
        "Take 1, 3 or 4 counters; who takes the last wins",
    ),
    &Bundled::game::<CanIWin>(
        "can-i-win",
        "LeetCode 464: pick unused numbers to NUMBERS; who brings the total to TARGET wins",
    ),
];

fn main() -> ExitCode {
    gamesolver::cli::main_with(&GAMES)
}
