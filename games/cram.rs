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
    /// A row's cells (bits `0..columns`, up to the count of rows) set down the first column
    /// instead: `transposed[row]` has bit `column · columns` for each bit `column` of `row`.
    transposed: Box<[u128]>,
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
        let mut transposed = vec![0u128; 1 << rows.min(columns)];
        for row in 1..transposed.len() {
            let column = row.trailing_zeros() as usize;
            transposed[row] = transposed[row & (row - 1)] | 1 << (column * columns);
        }
        Ok(Cram {
            rows,
            columns,
            board,
            across,
            first,
            row_mask,
            start: board,
            transposed: transposed.into_boxed_slice(),
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

    /// `cells` less the *extra tufts*: a tuft is a cell with one neighbour in `cells` (its
    /// centre), and of the tufts of one centre all but one are dropped. The nimber stays: a
    /// domino on a tuft covers its centre and leaves the centre's other tufts alone, so
    /// covering one tuft or another leaves the same game, and a move that covers neither
    /// leaves the tufts tufts of the same centre.
    fn without_extra_tufts(&self, cells: u128) -> u128 {
        let columns = self.columns;
        let right = cells & (cells >> 1) & self.across;
        let left = cells & ((cells & self.across) << 1);
        let below = cells & (cells >> columns);
        let above = cells & (cells << columns);
        let two = (right & (left | below | above)) | (left & (below | above)) | (below & above);
        let tufts = (right | left | below | above) & !two;
        if tufts == 0 {
            return cells;
        }
        // The centres met so far; a tuft whose centre was met is dropped.
        let mut met = (tufts & below) << columns;
        let mut dropped = 0;
        let centres = (tufts & right) << 1;
        dropped |= (centres & met) >> 1;
        met |= centres;
        let centres = (tufts & above) >> columns;
        dropped |= (centres & met) << columns;
        met |= centres;
        let centres = (tufts & left) >> 1;
        dropped |= (centres & met) << 1;
        cells & !dropped
    }

    /// The region of `cells` that holds `seed`'s cells: grown across and down until it holds
    /// every cell of `cells` joined to them.
    fn region(&self, cells: u128, seed: u128) -> u128 {
        // The cells that lead to the cell on their right.
        let runs = cells & self.across;
        let mut region = seed;
        loop {
            // Rightwards along whole runs at once: adding a run's cells in the region to the
            // run carries up from the lowest of them to the run's end, clearing what it passes
            // and setting the cell past the end (the run's last cell, where it is one).
            let carried = runs.wrapping_add(region & runs);
            let grown = (region
                | (runs & !carried)
                | (carried & !runs)
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
        let shape = region >> (top * columns);
        // One pass over the rows: the columns they use, how many, and the rows bottom up.
        let (mut spread, mut height, mut down) = (0, 0, 0u128);
        let mut rest = shape;
        while rest != 0 {
            let row = rest & self.row_mask;
            spread |= row;
            down = (down << columns) | row;
            height += 1;
            rest = rest.checked_shr(columns as u32).unwrap_or(0);
        }
        let left = spread.trailing_zeros() as usize;
        let width = 128 - spread.leading_zeros() as usize - left;
        // Its rows from the board's top left: a region moved left and up whole (no cell of one
        // row crosses into another: each lies at or right of the region's left edge).
        let (shape, down) = (shape >> left, down >> left);
        let across = self.half_turn(down, height, width);
        let mut best = shape
            .min(down)
            .min(across)
            .min(self.half_turn(shape, height, width));
        if width <= self.rows && height <= columns {
            // Transposed, and transposed after the flip across (the transpose flipped down).
            let (mut turned, mut turned_down) = (0u128, 0u128);
            for at in 0..height {
                turned |= self.transposed[self.row(shape, at) as usize] << at;
                turned_down |= self.transposed[self.row(across, at) as usize] << at;
            }
            best = best
                .min(turned)
                .min(turned_down)
                .min(self.half_turn(turned, width, height))
                .min(self.half_turn(turned_down, width, height));
        }
        best
    }

    /// The columns that `shape` (its top row at the board's top) holds a cell in, as the bits
    /// of one row, and its count of rows.
    fn spread(&self, shape: u128) -> (u128, usize) {
        let (mut spread, mut height) = (0, 0);
        let mut rest = shape;
        while rest != 0 {
            spread |= rest & self.row_mask;
            height += 1;
            rest = rest.checked_shr(self.columns as u32).unwrap_or(0);
        }
        (spread, height)
    }

    /// The first and last rows and columns that hold a cell of `cells` (not empty).
    fn extent(&self, cells: u128) -> (i64, i64, i64, i64) {
        let columns = self.columns as i64;
        let top = i64::from(cells.trailing_zeros()) / columns;
        let bottom = i64::from(127 - cells.leading_zeros()) / columns;
        let (spread, _) = self.spread(cells);
        let left = i64::from(spread.trailing_zeros());
        let last = i64::from(127 - spread.leading_zeros());
        (top, bottom, left, last)
    }

    /// Row `at` of a shape placed at the board's top left.
    fn row(&self, shape: u128, at: usize) -> u128 {
        shape.checked_shr((at * self.columns) as u32).unwrap_or(0) & self.row_mask
    }

    /// `shape` (placed at the board's top left, `height` rows of `width` cells) turned half
    /// round: reversing all 128 bits turns it about the word's middle, and the shift brings
    /// it back to the top left.
    fn half_turn(&self, shape: u128, height: usize, width: usize) -> u128 {
        shape.reverse_bits() >> (128 - ((height - 1) * self.columns + width))
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

    /// From the middle of the empty cells outwards (the moves that cut a region in two first):
    /// the dominoes down, by their distance from the middle column, then the dominoes across,
    /// by their distance from the middle row; ties from the top left.
    fn moves(&self, empty: &u128) -> impl Iterator<Item = Domino> {
        let right = empty & (empty >> 1) & self.across;
        let below = empty & (empty >> self.columns);
        let count = (right.count_ones() + below.count_ones()) as usize;
        let mut moves = Vec::with_capacity(count);
        if count > 0 {
            let (top, bottom, left, last) = self.extent(*empty);
            // Twice the middle row and column, so that a middle between two stays whole.
            let (middle_row, middle_column) = (top + bottom, left + last);
            let columns = self.columns as i64;
            // Each move as a key that sorts: across or down, distance, cell (at most two moves
            // a cell, 128 cells).
            let mut keys = [0u32; 2 * MAX_CRAM_CELLS];
            let mut at = 0;
            for (mut cells, across) in [(below, 0u32), (right, 1)] {
                while cells != 0 {
                    let cell = cells.trailing_zeros() as i64;
                    cells &= cells - 1;
                    let distance = if across == 1 {
                        (2 * (cell / columns) - middle_row).unsigned_abs()
                    } else {
                        (2 * (cell % columns) - middle_column).unsigned_abs()
                    };
                    keys[at] = across << 24 | (distance as u32) << 8 | cell as u32;
                    at += 1;
                }
            }
            let keys = &mut keys[..at];
            keys.sort_unstable();
            moves.extend(keys.iter().map(|&key| Domino {
                cell: key as u8,
                down: key >> 24 == 0,
            }));
        }
        moves.into_iter()
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
/// cells no domino can reach and without a cell's extra tufts (a region of the same nimber,
/// see `without_extra_tufts`). Each region is moved to the top left and turned to its
/// representative among its mirror images.
impl Impartial for Cram {
    fn split(&self, empty: &u128, parts: &mut Vec<u128>) {
        let mut live = self.without_extra_tufts(self.live(*empty));
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

    /// A region's count of cells.
    fn weight(&self, region: &u128) -> u64 {
        u64::from(region.count_ones())
    }
}

impl Cram {
    /// Whether `region` (at the board's top left, as [`split`](Impartial::split) gives its
    /// parts) is its own half turn, with no cell and no domino its own image.
    fn mirrors_itself(&self, region: u128) -> bool {
        // Its cells pair off with their images: an odd count cannot.
        if region == 0 || region.count_ones() % 2 == 1 {
            return false;
        }
        let (spread, height) = self.spread(region);
        let width = 128 - spread.leading_zeros() as usize;
        if self.half_turn(region, height, width) != region {
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
