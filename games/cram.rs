//! Cram (Gardner, 1974): a board of empty cells; a move fills two empty cells side by side (a
//! domino, across or down); the player who cannot move loses. Impartial: the value is the
//! position's nimber, and a board falls apart into regions that no domino joins, each a game
//! of its own.
//!
//! The whole game is this file: the rules, and (with the `cli` feature) how the command line
//! and the analysis page read it.

use crate::error::InputError;
use crate::game::{Capabilities, Declares, Game, Impartial, Score, Step, Turn};

/// The most cells a Cram board may have: a position is one 128-bit word, a bit per cell.
pub const MAX_CRAM_CELLS: usize = 128;

/// A Cram board of `rows × columns` cells. A position is its empty cells as bits (bit
/// `row · columns + column`).
///
/// ```
/// use gamesolver::{games::Cram, Solved, Solver};
///
/// // 3×4: the first player wins (nimber 1); 3×3 is lost for the first player (nimber 0).
/// let game = Cram::new(3, 4)?;
/// let solved = Solver::new(&game).solve()?;
/// assert_eq!((solved.value(), solved.nimber()), (1, Some(1)));
/// assert_eq!(Solver::new(&Cram::new(3, 3)?).solve()?.value(), -1);
/// // Even by even boards are lost for the first player: the second mirrors through the centre.
/// assert_eq!(Solver::new(&Cram::new(4, 4)?).solve()?.nimber(), Some(0));
/// # Ok::<(), gamesolver::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cram {
    rows: usize,
    columns: usize,
    /// Every cell of the board.
    board: u128,
    /// The cells not in the last column (a domino across starts there).
    across: u128,
    /// The cells of the first column.
    first: u128,
    /// The cells of the first row.
    row_mask: u128,
    start: u128,
}

/// A move: a domino on `cell` and the cell to its right (`down`: the cell below).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Domino {
    /// The domino's first cell (top or left), `row · columns + column`.
    pub cell: u8,
    /// Whether it lies down the board (else across).
    pub down: bool,
}

impl Cram {
    /// An empty board of `rows × columns` cells (each at least 1, at most
    /// [`MAX_CRAM_CELLS`] cells).
    pub fn new(rows: i64, columns: i64) -> Result<Self, InputError> {
        let size = |value: i64, position: usize, unit: &'static str| {
            usize::try_from(value)
                .ok()
                .filter(|&size| (1..=MAX_CRAM_CELLS).contains(&size))
                .ok_or(InputError::OutOfRange {
                    unit,
                    position,
                    value,
                    rule: "a board has 1 to 128 rows and columns",
                })
        };
        let (rows, columns) = (size(rows, 1, "rows")?, size(columns, 2, "columns")?);
        if rows * columns > MAX_CRAM_CELLS {
            return Err(InputError::InvalidGame(format!(
                "a Cram board of {rows}×{columns} has {} cells; at most {MAX_CRAM_CELLS} fit",
                rows * columns
            )));
        }
        let board = if rows * columns == 128 {
            u128::MAX
        } else {
            (1u128 << (rows * columns)) - 1
        };
        let mut across = board;
        for row in 0..rows {
            across &= !(1u128 << (row * columns + columns - 1));
        }
        // A cell is in the first column when the cell before it ends a row.
        let first = (((board & !across) << 1) | 1) & board;
        let row_mask = if columns == 128 {
            u128::MAX
        } else {
            (1u128 << columns) - 1
        };
        Ok(Cram {
            rows,
            columns,
            board,
            across,
            first,
            row_mask,
            start: board,
        })
    }

    /// The same board from another position: `filled` cells taken (bits as in the state).
    pub fn with_filled(self, filled: u128) -> Result<Self, InputError> {
        if filled & !self.board != 0 {
            return Err(InputError::InvalidState(format!(
                "a filled cell lies off the {}×{} board",
                self.rows, self.columns
            )));
        }
        Ok(Cram {
            start: self.board & !filled,
            ..self
        })
    }

    /// The board's rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The board's columns.
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// The cells that a domino could still cover with a neighbour: the empty cells with an
    /// empty cell beside them (across or down).
    fn live(&self, empty: u128) -> u128 {
        let right = empty & (empty >> 1) & self.across;
        let below = empty & (empty >> self.columns);
        (right | (right << 1) | below | (below << self.columns)) & empty
    }

    /// The region of `cells` that holds `seed`'s cells: grown across and down until it holds
    /// every cell of `cells` joined to them.
    fn region(&self, cells: u128, seed: u128) -> u128 {
        let mut region = seed;
        loop {
            let grown = (region
                | ((region << 1) & !self.first)
                | ((region >> 1) & self.across)
                | (region << self.columns)
                | (region >> self.columns))
                & cells;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    /// The representative of a region among its mirror images (and, where they fit the
    /// board, its transposes), moved to the top left corner: the smallest as a number.
    pub fn canonical_region(&self, region: u128) -> u128 {
        if region == 0 {
            return 0;
        }
        let columns = self.columns;
        let top = region.trailing_zeros() as usize / columns;
        let (mut height, mut left, mut right) = (0, u32::MAX, 0);
        let mut rest = region >> (top * columns);
        while rest != 0 {
            let row = rest & self.row_mask;
            if row != 0 {
                left = left.min(row.trailing_zeros());
                right = right.max(127 - row.leading_zeros());
            }
            height += 1;
            rest = if columns == 128 { 0 } else { rest >> columns };
        }
        let width = (right - left + 1) as usize;
        // Its rows from the board's top left: a region moved left and up whole (no cell of one
        // row crosses into another: each lies at or right of the region's left edge).
        let plain = region >> (top * columns + left as usize);
        let mut best = self.smallest_image(plain, height, width);
        if width <= self.rows && height <= columns {
            let mut turned = 0u128;
            for at in 0..height {
                let mut row = self.row(plain, at);
                while row != 0 {
                    let column = row.trailing_zeros() as usize;
                    row &= row - 1;
                    turned |= 1 << (column * columns + at);
                }
            }
            best = best.min(self.smallest_image(turned, width, height));
        }
        best
    }

    /// Row `at` of a shape placed at the board's top left.
    fn row(&self, shape: u128, at: usize) -> u128 {
        shape.checked_shr((at * self.columns) as u32).unwrap_or(0) & self.row_mask
    }

    /// The smallest of the four images of `shape` (placed at the board's top left, `height`
    /// rows of `width` cells), flipped across, down, or both.
    fn smallest_image(&self, shape: u128, height: usize, width: usize) -> u128 {
        let flip = |row: u128| row.reverse_bits() >> (128 - width);
        let (mut across, mut down, mut both) = (0u128, 0u128, 0u128);
        for at in 0..height {
            let row = self.row(shape, at);
            let (here, there) = (at * self.columns, (height - 1 - at) * self.columns);
            across |= flip(row) << here;
            down |= row << there;
            both |= flip(row) << there;
        }
        shape.min(across).min(down).min(both)
    }

    /// The board as text, row by row: `.` an empty cell, `#` a filled one.
    pub fn text(&self, empty: u128) -> String {
        (0..self.rows)
            .map(|row| {
                (0..self.columns)
                    .map(|column| {
                        if empty >> (row * self.columns + column) & 1 == 1 {
                            '.'
                        } else {
                            '#'
                        }
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl Game for Cram {
    type State = u128;
    type Move = Domino;

    fn start(&self) -> u128 {
        self.start
    }

    /// Cell by cell from the top left: the domino across from each cell, then the one down.
    fn moves(&self, empty: &u128) -> impl Iterator<Item = Domino> {
        let right = empty & (empty >> 1) & self.across;
        let below = empty & (empty >> self.columns);
        let mut starts = right | below;
        let mut pending: Option<u8> = None;
        std::iter::from_fn(move || {
            if let Some(cell) = pending.take() {
                return Some(Domino { cell, down: true });
            }
            if starts == 0 {
                return None;
            }
            let cell = starts.trailing_zeros() as u8;
            starts &= starts - 1;
            let (across, down) = (right >> cell & 1 == 1, below >> cell & 1 == 1);
            if across {
                pending = down.then_some(cell);
                Some(Domino { cell, down: false })
            } else {
                Some(Domino { cell, down: true })
            }
        })
    }

    fn play(&self, empty: &u128, domino: &Domino) -> Step<u128> {
        let second = if domino.down { self.columns } else { 1 };
        let cells = (1u128 << domino.cell) | (1u128 << (usize::from(domino.cell) + second));
        Step {
            next: empty & !cells,
            gain: 0,
            turn: Turn::Pass,
        }
    }

    /// No domino fits: the player to move has lost.
    fn payoff(&self, _: &u128) -> Score {
        -1
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().impartial()
    }
}

/// A board is the sum of its regions: the empty cells joined across and down, without the
/// cells no domino can reach. Each region is moved to the top left and turned to its
/// representative among its mirror images.
impl Impartial for Cram {
    fn split(&self, empty: &u128, parts: &mut Vec<u128>) {
        let mut live = self.live(*empty);
        while live != 0 {
            let region = self.region(live, live & live.wrapping_neg());
            live &= !region;
            parts.push(self.canonical_region(region));
        }
    }

    /// A region that its half turn maps onto itself, where no domino is its own image, is
    /// lost for the player to move (nimber 0): the other answers each domino with its image
    /// (every even by even board, for one).
    fn known_nimber(&self, region: &u128) -> Option<crate::game::Nimber> {
        self.mirrors_itself(*region).then_some(0)
    }
}

impl Cram {
    /// Whether `region` (at the board's top left, as [`split`](Impartial::split) gives its
    /// parts) is its own half turn, with no cell and no domino its own image.
    fn mirrors_itself(&self, region: u128) -> bool {
        let (mut height, mut width) = (0, 0);
        let mut rest = region;
        while rest != 0 {
            let row = rest & self.row_mask;
            width = width.max(128 - row.leading_zeros() as usize);
            height += 1;
            rest = rest.checked_shr(self.columns as u32).unwrap_or(0);
        }
        if height == 0 {
            return false;
        }
        let mut turned = 0u128;
        for at in 0..height {
            let row = self.row(region, at);
            turned |= (row.reverse_bits() >> (128 - width)) << ((height - 1 - at) * self.columns);
        }
        if turned != region {
            return false;
        }
        // The middle: a cell that is its own image (both sides odd), or two cells side by side
        // that are each other's (one side odd, the other even).
        let cell = |row: usize, column: usize| region >> (row * self.columns + column) & 1 == 1;
        match (height % 2, width % 2) {
            (1, 1) => !cell(height / 2, width / 2),
            (1, 0) => !(cell(height / 2, width / 2 - 1) && cell(height / 2, width / 2)),
            (0, 1) => !(cell(height / 2 - 1, width / 2) && cell(height / 2, width / 2)),
            _ => true,
        }
    }
}

/// How the command line and the analysis page read Cram.
#[cfg(feature = "cli")]
mod cli {
    use super::{Cram, Domino};
    use crate::InputError;
    use crate::cli::serde_json::{Value, json};
    use crate::cli::{Bundled, Entry, Fields, FromValues, Line, Presented};
    use crate::engines::Ply;

    /// Cram on the command line: `gamesolver cram 4 5` (4 rows, 5 columns).
    pub const GAME: Bundled = Bundled::game::<Cram>(
        "cram",
        "Cram: the VALUES are the board's ROWS and COLUMNS; a move fills two empty cells side \
         by side; who cannot move loses (the answer gives the board's nimber)",
    );

    impl Cram {
        /// A cell's name: its column as a letter (`a` at the left), its row as a number (1 at
        /// the top).
        fn cell_name(&self, cell: usize) -> String {
            let (row, column) = (cell / self.columns, cell % self.columns);
            let letters = if column < 26 {
                char::from(b'a' + column as u8).to_string()
            } else {
                format!(
                    "{}{}",
                    char::from(b'a' + (column / 26 - 1) as u8),
                    char::from(b'a' + (column % 26) as u8)
                )
            };
            format!("{letters}{}", row + 1)
        }
    }

    impl Presented for Cram {
        fn show(&self, empty: &u128) -> String {
            // The columns' letters (the last letter, past z).
            let letters: String = (0..self.columns)
                .map(|column| {
                    let name = self.cell_name(column);
                    name.trim_end_matches(|c: char| c.is_ascii_digit())
                        .chars()
                        .last()
                        .unwrap_or(' ')
                })
                .collect();
            let rows: Vec<String> = self
                .text(*empty)
                .lines()
                .enumerate()
                .map(|(row, cells)| format!("{:>2} {cells}", row + 1))
                .collect();
            format!("   {letters}\n{}", rows.join("\n"))
        }

        /// `b3-c3`: the domino on cells b3 and c3 (columns a, b, … from the left, rows from 1
        /// at the top).
        fn move_name(&self, _: &u128, domino: &Domino) -> String {
            let first = usize::from(domino.cell);
            let second = first + if domino.down { self.columns } else { 1 };
            format!("{}-{}", self.cell_name(first), self.cell_name(second))
        }

        fn move_hint(&self) -> Option<&'static str> {
            Some(
                "two empty cells side by side, as b3-c3 (columns a, b, … from the left, rows 1, 2, … from the top)",
            )
        }

        /// `--at`: the board row by row, rows joined by `/`, `.` an empty cell and `#` a
        /// filled one (`..#./....`).
        fn position(&self, text: &str) -> Result<u128, InputError> {
            let rows: Vec<&str> = text.trim().split('/').collect();
            let refuse = |problem: String| {
                InputError::InvalidState(format!(
                    "{text:?} is no {}×{} Cram board ({problem}): give the rows joined by /, each \
                     of {} cells, . empty and # filled, as {}",
                    self.rows,
                    self.columns,
                    self.columns,
                    vec![".".repeat(self.columns); self.rows].join("/")
                ))
            };
            if rows.len() != self.rows {
                return Err(refuse(format!("{} rows", rows.len())));
            }
            let mut empty = 0u128;
            for (row, cells) in rows.iter().enumerate() {
                if cells.chars().count() != self.columns {
                    return Err(refuse(format!(
                        "row {} has {} cells",
                        row + 1,
                        cells.chars().count()
                    )));
                }
                for (column, cell) in cells.chars().enumerate() {
                    match cell {
                        '.' => empty |= 1 << (row * self.columns + column),
                        '#' => {}
                        other => return Err(refuse(format!("{other:?} is neither . nor #"))),
                    }
                }
            }
            Ok(empty)
        }

        /// "Alice places a domino on b3-c3"; in JSON `{"player", "move"}`.
        fn entries(&self, line: &[Ply<Self>]) -> Line {
            line.iter()
                .map(|ply| {
                    let player = self.player_name(ply.player);
                    let name = self.move_name(&ply.state, &ply.mv);
                    Entry {
                        player,
                        text: format!("{player} places a domino on {name}"),
                        fields: Fields::new().with("move", name),
                    }
                })
                .collect()
        }

        /// The board as a grid: `""` an empty cell, `"#"` a filled one (the page lists the
        /// moves: a domino takes two cells).
        fn view(&self, empty: &u128) -> Value {
            let cells: Vec<&str> = (0..self.rows * self.columns)
                .map(|cell| if empty >> cell & 1 == 1 { "" } else { "#" })
                .collect();
            let move_at: Vec<Option<String>> = vec![None; self.rows * self.columns];
            json!({
                "kind": "grid", "rows": self.rows, "columns": self.columns, "cells": cells,
                "move_at": move_at,
            })
        }
    }

    impl FromValues for Cram {
        const EXAMPLE: &'static str = "4 5";
        const POSITION: Option<&'static str> =
            Some("'ROW/ROW/...': the board row by row, . an empty cell, # a filled one");
        fn from_values(values: &[i64]) -> Result<Self, InputError> {
            match values {
                &[rows, columns] => Cram::new(rows, columns),
                _ => Err(InputError::InvalidGame(format!(
                    "Cram takes two values, the board's rows and columns (as 4 5), not {}",
                    values.len()
                ))),
            }
        }
    }
}

#[cfg(feature = "cli")]
pub use cli::GAME;
