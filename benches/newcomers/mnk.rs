//! k in a row on an `m × n` board (an m,n,k-game: tic-tac-toe is 3,3,3), written as a newcomer
//! writes it: both sides' stones and whether the last stone made a line in the state, the
//! lines through the last stone counted cell by cell; declared an outcome game. (The tuned
//! version with every declaration the pruning engine reads is tests/common/k_in_a_row.rs.)
//!
//! The rules: the players place a stone of theirs on any empty cell in turn; the first to have
//! `k` in a row (across, down or diagonal) wins; a full board with no such line is a draw.

use gamesolver::{Capabilities, Declares, Game, Score, Step, Turn};

/// The m,n,k-game.
#[derive(Debug, Clone, Copy)]
pub struct Mnk {
    /// Columns.
    pub m: u32,
    /// Rows.
    pub n: u32,
    /// Stones in a row that win.
    pub k: u32,
}

/// A position: the stones of the side to move and of the other side (bit `row * m + column`),
/// and whether the other side's last stone made a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// The side to move's stones.
    pub mine: u64,
    /// The other side's.
    pub theirs: u64,
    /// Whether the other side has `k` in a row.
    pub lost: bool,
}

impl Mnk {
    /// The m,n,k-game (at most 64 cells).
    pub fn new(m: u32, n: u32, k: u32) -> Self {
        assert!(m * n <= 64 && k >= 1 && k <= m.max(n));
        Mnk { m, n, k }
    }

    /// Whether the stone on `cell` makes `k` in a row with `stones`.
    fn makes_line(&self, stones: u64, cell: u32) -> bool {
        let (row, column) = ((cell / self.m) as i32, (cell % self.m) as i32);
        let has = |r: i32, c: i32| {
            r >= 0
                && c >= 0
                && r < self.n as i32
                && c < self.m as i32
                && stones >> (r as u32 * self.m + c as u32) & 1 != 0
        };
        [(0, 1), (1, 0), (1, 1), (1, -1)]
            .into_iter()
            .any(|(dr, dc)| {
                let count = |sign: i32| {
                    (1..)
                        .take_while(|&i| has(row + sign * i * dr, column + sign * i * dc))
                        .count() as u32
                };
                1 + count(1) + count(-1) >= self.k
            })
    }
}

impl Game for Mnk {
    type State = Board;
    /// The cell (`row * m + column`).
    type Move = u8;

    fn start(&self) -> Board {
        Board {
            mine: 0,
            theirs: 0,
            lost: false,
        }
    }

    fn moves(&self, board: &Board) -> impl Iterator<Item = u8> {
        let board = *board;
        let taken = board.mine | board.theirs;
        (0..(self.m * self.n) as u8).filter(move |&cell| !board.lost && taken >> cell & 1 == 0)
    }

    fn play(&self, board: &Board, cell: &u8) -> Step<Board> {
        let mine = board.mine | 1 << cell;
        Step {
            next: Board {
                mine: board.theirs,
                theirs: mine,
                lost: self.makes_line(mine, u32::from(*cell)),
            },
            gain: 0,
            turn: Turn::Pass,
        }
    }

    /// Lost if the other side made a line, else a full board: a draw.
    fn payoff(&self, board: &Board) -> Score {
        if board.lost { -1 } else { 0 }
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().outcome_game()
    }
}

/// The literal rules on a grid, every line of `k` cells checked after each stone, by plain
/// minimax with no memo: 1 if the first player wins, 0 a draw, −1 a loss.
pub fn by_hand(m: usize, n: usize, k: usize) -> Score {
    fn line(grid: &[Vec<u8>], who: u8, k: usize) -> bool {
        let (rows, columns) = (grid.len() as i32, grid[0].len() as i32);
        for r in 0..rows {
            for c in 0..columns {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    if (0..k as i32).all(|i| {
                        let (y, x) = (r + i * dr, c + i * dc);
                        y >= 0
                            && x >= 0
                            && y < rows
                            && x < columns
                            && grid[y as usize][x as usize] == who
                    }) {
                        return true;
                    }
                }
            }
        }
        false
    }
    fn value(grid: &mut Vec<Vec<u8>>, me: u8, k: usize) -> Score {
        let mut best: Option<Score> = None;
        for r in 0..grid.len() {
            for c in 0..grid[0].len() {
                if grid[r][c] != 0 {
                    continue;
                }
                grid[r][c] = me;
                let outcome = if line(grid, me, k) {
                    1
                } else {
                    -value(grid, 3 - me, k)
                };
                grid[r][c] = 0;
                best = Some(best.map_or(outcome, |b: Score| b.max(outcome)));
            }
        }
        best.unwrap_or(0)
    }
    value(&mut vec![vec![0; m]; n], 1, k)
}
