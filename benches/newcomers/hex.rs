//! Hex on an `n × n` board (n ≤ 11), written as a newcomer writes it: both sides' stones and
//! whether the last move won in the state, the winner found by a flood fill after each move;
//! declared an outcome game.
//!
//! The rules: Black (first) and White place a stone of theirs on any empty cell in turn; the
//! cells are hexagons, each touching the cells left and right of it, the two above it (same
//! column and the next) and the two below it (same column and the one before). Black wins by
//! joining the top and bottom rows with a chain of black stones, White the left and right
//! columns. A full board always has a winner.

use gamesolver::{Capabilities, Declares, Game, Score, Step, Turn};

/// Hex's rules on one board.
#[derive(Debug, Clone, Copy)]
pub struct Hex {
    /// The board's side.
    pub n: u32,
}

/// A position: the stones of the side to move and of the other side (bit `row * n + column`),
/// and whether the other side's last stone won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stones {
    /// The side to move's stones.
    pub mine: u128,
    /// The other side's.
    pub theirs: u128,
    /// Whether the other side has joined its edges.
    pub lost: bool,
}

impl Hex {
    /// The board `n × n`.
    pub fn new(n: u32) -> Self {
        assert!((1..=11).contains(&n));
        Hex { n }
    }

    /// The cells touching `cell`.
    fn neighbours(&self, cell: u32) -> impl Iterator<Item = u32> {
        let n = self.n as i32;
        let (row, column) = ((cell / self.n) as i32, (cell % self.n) as i32);
        [(0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, -1)]
            .into_iter()
            .map(move |(dr, dc)| (row + dr, column + dc))
            .filter(move |&(r, c)| r >= 0 && c >= 0 && r < n && c < n)
            .map(move |(r, c)| (r * n + c) as u32)
    }

    /// Whether `stones` join the first and last rows (`by_rows`) or columns.
    fn joins(&self, stones: u128, by_rows: bool) -> bool {
        let n = self.n;
        let on_start = |cell: u32| {
            if by_rows {
                cell < n
            } else {
                cell.is_multiple_of(n)
            }
        };
        let on_end = |cell: u32| {
            if by_rows {
                cell / n == n - 1
            } else {
                cell % n == n - 1
            }
        };
        let mut seen = 0u128;
        let mut stack: Vec<u32> = (0..n * n)
            .filter(|&cell| on_start(cell) && stones >> cell & 1 != 0)
            .collect();
        for &cell in &stack {
            seen |= 1 << cell;
        }
        while let Some(cell) = stack.pop() {
            if on_end(cell) {
                return true;
            }
            for next in self.neighbours(cell) {
                if stones >> next & 1 != 0 && seen >> next & 1 == 0 {
                    seen |= 1 << next;
                    stack.push(next);
                }
            }
        }
        false
    }
}

impl Game for Hex {
    type State = Stones;
    /// The cell (`row * n + column`).
    type Move = u8;

    fn start(&self) -> Stones {
        Stones {
            mine: 0,
            theirs: 0,
            lost: false,
        }
    }

    fn moves(&self, stones: &Stones) -> impl Iterator<Item = u8> {
        let stones = *stones;
        let taken = stones.mine | stones.theirs;
        (0..(self.n * self.n) as u8).filter(move |&cell| !stones.lost && taken >> cell & 1 == 0)
    }

    fn play(&self, stones: &Stones, cell: &u8) -> Step<Stones> {
        let mine = stones.mine | 1 << cell;
        // Black has placed as many stones as White when it is Black's turn.
        let black = stones.mine.count_ones() == stones.theirs.count_ones();
        Step {
            next: Stones {
                mine: stones.theirs,
                theirs: mine,
                lost: self.joins(mine, black),
            },
            gain: 0,
            turn: Turn::Pass,
        }
    }

    /// The side to move has lost (the board is never full without a winner).
    fn payoff(&self, _stones: &Stones) -> Score {
        -1
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().outcome_game()
    }
}

/// The literal rules on a grid of `'.'`, `'B'` and `'W'`, by plain minimax with no memo: 1 if
/// Black, who moves first, wins from the empty board, else −1.
pub fn by_hand(n: usize) -> Score {
    fn joined(grid: &[Vec<char>], who: char) -> bool {
        let n = grid.len();
        let mut seen = vec![vec![false; n]; n];
        let mut stack = Vec::new();
        for i in 0..n {
            let (r, c) = if who == 'B' { (0, i) } else { (i, 0) };
            if grid[r][c] == who {
                seen[r][c] = true;
                stack.push((r, c));
            }
        }
        while let Some((r, c)) = stack.pop() {
            if (who == 'B' && r == n - 1) || (who == 'W' && c == n - 1) {
                return true;
            }
            for (dr, dc) in [(0i32, -1i32), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, -1)] {
                let (nr, nc) = (r as i32 + dr, c as i32 + dc);
                if nr < 0 || nc < 0 || nr >= n as i32 || nc >= n as i32 {
                    continue;
                }
                let (nr, nc) = (nr as usize, nc as usize);
                if grid[nr][nc] == who && !seen[nr][nc] {
                    seen[nr][nc] = true;
                    stack.push((nr, nc));
                }
            }
        }
        false
    }
    fn black_wins(grid: &mut Vec<Vec<char>>, me: char) -> bool {
        let n = grid.len();
        let other = if me == 'B' { 'W' } else { 'B' };
        let mut outcomes = Vec::new();
        for r in 0..n {
            for c in 0..n {
                if grid[r][c] != '.' {
                    continue;
                }
                grid[r][c] = me;
                let outcome = if joined(grid, me) {
                    me == 'B'
                } else {
                    black_wins(grid, other)
                };
                grid[r][c] = '.';
                outcomes.push(outcome);
            }
        }
        if me == 'B' {
            outcomes.contains(&true)
        } else {
            outcomes.iter().all(|&won| won)
        }
    }
    let mut grid = vec![vec!['.'; n]; n];
    if black_wins(&mut grid, 'B') { 1 } else { -1 }
}
