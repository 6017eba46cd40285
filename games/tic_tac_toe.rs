//! Tic-tac-toe on the 3×3 board: X moves first; three in a row wins. Value +1 if the player
//! to move wins, −1 if they lose, 0 for a draw. The value of the empty board is 0.

use crate::game::{Capabilities, Declares, DenseIndex, Game, Score, Step, Turn};

/// The eight lines, as 9-bit masks (cell `row * 3 + column`).
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// A board: X's cells and O's cells as 9-bit masks. X is to move when both have as many marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Board {
    /// Cells marked X.
    pub x: u16,
    /// Cells marked O.
    pub o: u16,
}

impl Board {
    fn x_to_move(self) -> bool {
        self.x.count_ones() == self.o.count_ones()
    }

    /// Whether `marks` (a 9-bit mask, cell `row * 3 + column`) hold three in a row.
    ///
    /// ```
    /// use gamesolver::games::Board;
    /// assert!(Board::has_line(0b100_010_001)); // a diagonal
    /// assert!(!Board::has_line(0b000_000_011));
    /// ```
    pub fn has_line(marks: u16) -> bool {
        LINES.iter().copied().any(|line| marks & line == line)
    }

    /// Whether the game is over: a line, or a full board.
    pub fn is_over(self) -> bool {
        Self::has_line(self.x) || Self::has_line(self.o) || (self.x | self.o) == 0x1FF
    }
}

/// Tic-tac-toe from the empty board.
///
/// ```
/// use gamesolver::{engines::exhaustive, games::TicTacToe, memo::HashTable};
///
/// assert_eq!(exhaustive::solve(&TicTacToe, HashTable::new(), exhaustive::Options::new()).unwrap().value(), 0); // a draw
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TicTacToe;

impl Game for TicTacToe {
    type State = Board;
    /// The cell to mark, `row * 3 + column`.
    type Move = u8;
    fn start(&self) -> Board {
        Board::default()
    }
    fn moves(&self, board: &Board) -> impl Iterator<Item = u8> {
        let empty = if board.is_over() {
            0
        } else {
            !(board.x | board.o) & 0x1FF
        };
        (0..9u8).filter(move |cell| empty & (1 << cell) != 0)
    }
    fn play(&self, board: &Board, cell: &u8) -> Step<Board> {
        let mut next = *board;
        if board.x_to_move() {
            next.x |= 1 << cell;
        } else {
            next.o |= 1 << cell;
        }
        Step {
            next,
            gain: 0,
            turn: Turn::Pass,
        }
    }
    /// The game is over: if it ended on a line, the player who just moved made it, so the
    /// player to move has lost.
    fn payoff(&self, board: &Board) -> Score {
        if Board::has_line(board.x) || Board::has_line(board.o) {
            -1
        } else {
            0
        }
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().dense_index().outcome_game()
    }
}

impl DenseIndex for TicTacToe {
    fn index_len(&self) -> usize {
        1 << 18
    }
    fn index(&self, board: &Board) -> usize {
        (usize::from(board.x) << 9) | usize::from(board.o)
    }
}

#[cfg(feature = "cli")]
pub(super) mod cli {
    //! Tic-tac-toe from the empty board.

    use crate::InputError;
    use crate::games::{Board, TicTacToe};
    use crate::{Player, Score, engines::Ply};

    use crate::cli::serde_json;

    use crate::cli::model::{Answer, Entry, Fields, Line};
    use crate::cli::present::{Presented, winner};
    use crate::cli::{Bundled, FromValues};

    /// Tic-tac-toe on the command line.
    pub const GAME: Bundled = Bundled::game::<TicTacToe>(
        "tic-tac-toe",
        "Tic-tac-toe from the empty board (no VALUES)",
    )
    .without_values();

    impl FromValues for TicTacToe {
        const EXAMPLE: &'static str = "";
        const POSITION: Option<&'static str> =
            Some("the board, row by row: X, O or . for each of the 9 cells (as 'X.O/.X./...')");
        fn from_values(values: &[i64]) -> Result<Self, InputError> {
            match values {
                [] => Ok(TicTacToe),
                _ => Err(InputError::InvalidGame(
                    "tic-tac-toe takes no VALUES".into(),
                )),
            }
        }
    }

    /// The mark a player makes.
    fn mark(player: Player) -> &'static str {
        if player == Player::First { "X" } else { "O" }
    }

    impl Presented for TicTacToe {
        fn player_name(&self, player: Player) -> &'static str {
            mark(player)
        }
        fn mover(&self, board: &Board) -> Player {
            if board.x_to_move() {
                Player::First
            } else {
                Player::Second
            }
        }
        fn position(&self, position: &str) -> Result<Board, InputError> {
            let problem = |what: String| {
                InputError::InvalidState(format!(
                    "{what}: a tic-tac-toe position is the board row by row, X, O or . (or -) for \
                 each of the 9 cells, as 'X.O/.X./...'"
                ))
            };
            let cells: Vec<char> = position
                .chars()
                .filter(|c| !c.is_whitespace() && *c != '/' && *c != '|')
                .collect();
            if cells.len() != 9 {
                return Err(problem(format!("{} cells given", cells.len())));
            }
            let mut board = Board::default();
            for (cell, mark) in cells.into_iter().enumerate() {
                match mark.to_ascii_uppercase() {
                    'X' => board.x |= 1 << cell,
                    'O' => board.o |= 1 << cell,
                    '.' | '-' | '_' => {}
                    other => return Err(problem(format!("{other:?} is not X, O or ."))),
                }
            }
            let (x, o) = (board.x.count_ones(), board.o.count_ones());
            if x != o && x != o + 1 {
                return Err(problem(format!(
                    "{x} X and {o} O cannot happen (X moves first, so X has as many marks as O or \
                 one more)"
                )));
            }
            if Board::has_line(board.x) && Board::has_line(board.o) {
                return Err(problem("both X and O have three in a row".into()));
            }
            Ok(board)
        }
        fn show(&self, board: &Board) -> String {
            let mut lines = vec!["    1 2 3".to_string()];
            for row in 0..3 {
                let cells: Vec<&str> = (0..3)
                    .map(|column| {
                        let cell = 1 << (row * 3 + column);
                        if board.x & cell != 0 {
                            "X"
                        } else if board.o & cell != 0 {
                            "O"
                        } else {
                            "."
                        }
                    })
                    .collect();
                lines.push(format!("{}   {}", row + 1, cells.join(" ")));
            }
            lines.join("\n")
        }
        fn view(&self, board: &Board) -> serde_json::Value {
            let cells: Vec<&str> = (0..9)
                .map(|cell| match (board.x >> cell & 1, board.o >> cell & 1) {
                    (1, _) => "X",
                    (_, 1) => "O",
                    _ => "",
                })
                .collect();
            serde_json::json!({"kind": "grid", "rows": 3, "columns": 3, "cells": cells})
        }
        fn move_name(&self, _: &Board, cell: &u8) -> String {
            format!("{},{}", cell / 3 + 1, cell % 3 + 1)
        }
        fn move_hint(&self) -> Option<&'static str> {
            Some("ROW,COLUMN, from 1: 2,2 is the centre")
        }
        fn answer(&self, value: Score) -> Answer {
            winner(value, "X", "O", "Draw")
        }
        fn headline(&self, value: Score) -> String {
            let result = match value.signum() {
                1 => "X wins",
                -1 => "O wins",
                _ => "a draw",
            };
            format!("Tic-tac-toe from the empty board: {result} with both playing optimally.")
        }
        fn entries(&self, line: &[Ply<Self>]) -> Line {
            line.iter()
                .map(|ply| {
                    let player = mark(ply.player);
                    let (row, column) = (ply.mv / 3 + 1, ply.mv % 3 + 1);
                    Entry {
                        player,
                        text: format!("{player} marks row {row}, column {column}"),
                        fields: Fields::new().with("row", row).with("column", column),
                    }
                })
                .collect()
        }
    }
}
