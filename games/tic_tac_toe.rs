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
    fn moves(&self, board: &Board, moves: &mut Vec<u8>) {
        if !board.is_over() {
            let empty = !(board.x | board.o) & 0x1FF;
            moves.extend((0..9u8).filter(|cell| empty & (1 << cell) != 0));
        }
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
