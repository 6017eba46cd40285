//! Cram (Gardner, 1974): a board of empty cells; a move fills two empty cells side by side (a
//! domino, across or down); the player who cannot move loses. Impartial: the value is the
//! position's nimber, and a board falls apart into regions that no domino joins, each a game
//! of its own.
//!
//! The whole game is this file and its board arithmetic (`cram/board.rs`, on a 64-bit word
//! where the board fits one): the rules, and (with the `cli` feature) how the command line and
//! the analysis page read it.

use crate::error::InputError;
use crate::game::{Capabilities, Declares, Game, Impartial, Score, Step, Turn};

#[path = "cram/board.rs"]
mod board;

use board::Board;

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
    start: u128,
    /// The board's arithmetic on 64 bits, where it has at most 64 cells.
    narrow: Option<Board<u64>>,
    /// The board's arithmetic on 128 bits.
    wide: Board<u128>,
    /// The cells of the last column.
    last_column: u128,
    /// The columns by their distance from each middle column, and the rows from each middle
    /// row (`bands`).
    column_bands: Box<[Box<[u128]>]>,
    row_bands: Box<[Box<[u128]>]>,
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
        let wide = Board::new(rows, columns);
        let (first_column, first_row) = (wide.first_column(), wide.first_row());
        Ok(Cram {
            rows,
            columns,
            board,
            start: board,
            narrow: (rows * columns <= 64).then(|| Board::new(rows, columns)),
            wide,
            last_column: first_column << (columns - 1),
            column_bands: bands(columns, |column| first_column << column),
            row_bands: bands(rows, |row| first_row << (row * columns)),
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

    /// The representative of a region among its mirror images (and, where they fit the
    /// board, its transposes), moved to the top left corner: the smallest as a number.
    pub fn canonical_region(&self, region: u128) -> u128 {
        match &self.narrow {
            Some(board) => board.canonical(region as u64).into(),
            None => self.wide.canonical(region),
        }
    }

    /// The first and last rows and columns that hold a cell of `cells` (not empty).
    fn extent(&self, cells: u128) -> (i64, i64, i64, i64) {
        let columns = self.columns as i64;
        let top = i64::from(cells.trailing_zeros()) / columns;
        let bottom = i64::from(127 - cells.leading_zeros()) / columns;
        let (spread, _) = self.wide.spread(cells);
        let left = i64::from(spread.trailing_zeros());
        let last = i64::from(127 - spread.leading_zeros());
        (top, bottom, left, last)
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

/// Appends to `moves` a domino for each first cell of `cells` (`down`: dominoes down), by the
/// lines of `bands` in turn, each line's from the top left.
#[inline]
fn push_by_bands(moves: &mut Vec<Domino>, mut cells: u128, bands: &[u128], down: bool) {
    for &band in bands {
        if cells == 0 {
            return;
        }
        let mut line = cells & band;
        cells &= !band;
        while line != 0 {
            let cell = line.trailing_zeros();
            line &= line - 1;
            moves.push(Domino {
                cell: cell as u8,
                down,
            });
        }
    }
}

/// For each middle line (doubled, so that a middle between two lines stays whole: `0..=2 ·
/// (lines − 1)`), the cells of the lines by their distance from it: the lines at doubled
/// distance `d` from the doubled middle `m` are `(m − d) / 2` and `(m + d) / 2`.
fn bands(lines: usize, line: impl Fn(usize) -> u128) -> Box<[Box<[u128]>]> {
    (0..2 * lines - 1)
        .map(|middle| {
            (middle % 2..2 * lines)
                .step_by(2)
                .map(|distance| {
                    let at = |doubled: Option<usize>| {
                        doubled.map_or(0, |doubled| {
                            if doubled / 2 < lines {
                                line(doubled / 2)
                            } else {
                                0
                            }
                        })
                    };
                    at(middle.checked_sub(distance)) | at(Some(middle + distance))
                })
                .take_while(|&band| band != 0)
                .collect()
        })
        .collect()
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
        let mut moves = Vec::new();
        self.moves_into(empty, &mut moves);
        moves.into_iter()
    }

    /// The moves of [`moves`](Game::moves), in its order, straight into `moves`.
    fn moves_into(&self, empty: &u128, moves: &mut Vec<Domino>) {
        let empty = *empty;
        let right = empty & (empty >> 1) & !self.last_column;
        let below = empty & empty.checked_shr(self.columns as u32).unwrap_or(0);
        if right | below == 0 {
            return;
        }
        moves.reserve((right.count_ones() + below.count_ones()) as usize);
        let (top, bottom, left, last) = self.extent(empty);
        let middle_column = (left + last) as usize;
        push_by_bands(moves, below, &self.column_bands[middle_column], true);
        push_by_bands(
            moves,
            right,
            &self.row_bands[(top + bottom) as usize],
            false,
        );
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
/// cells no domino can reach, a centre's extra tufts and the cells whose every neighbour is a
/// centre, and with the links cut that a square closed at two opposite corners makes
/// needless (each a game of the same nimber: `cram/board.rs` proves them). Each region is
/// moved to the top left and turned to its representative among its mirror images.
impl Impartial for Cram {
    fn split(&self, empty: &u128, parts: &mut Vec<u128>) {
        match &self.narrow {
            Some(board) => board.split(*empty as u64, parts),
            None => self.wide.split(*empty, parts),
        }
    }

    /// A region that its half turn maps onto itself, where no domino is its own image, is
    /// lost for the player to move (nimber 0): the other answers each domino with its image
    /// (every even by even board, for one).
    fn known_nimber(&self, region: &u128) -> Option<crate::game::Nimber> {
        let mirrors = match &self.narrow {
            Some(board) => board.mirrors_itself(*region as u64),
            None => self.wide.mirrors_itself(*region),
        };
        mirrors.then_some(0)
    }

    /// A region's cells.
    fn part_key(&self, region: &u128) -> Option<u128> {
        Some(*region)
    }

    /// A region's count of cells.
    fn weight(&self, region: &u128) -> u64 {
        u64::from(region.count_ones())
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
