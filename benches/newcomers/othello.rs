//! Othello (Reversi) on a `rows × columns` board (at most 64 cells, both at least 2 and even
//! where the four centre discs need it), written as a newcomer writes it: the two bit boards
//! and who is to move in the state, a pass as a move when the side to move has no flip but the
//! other has, and the final disc difference as the payoff; a value range of the cells.
//!
//! The rules: the four centre cells start with two discs each, crossed (the first player, Black,
//! on the cells of the second diagonal). A move places a disc of the mover's on an empty cell
//! that brackets, in at least one of the eight directions, an unbroken line of the opponent's
//! discs ending in one of the mover's; every bracketed disc turns. A side with no such move
//! passes; when neither has one the game ends, and the value is the mover's discs minus the
//! opponent's (empty cells go to no one).

use gamesolver::{Capabilities, Declares, Game, Score, Step, Turn, ValueRange};

/// Othello's rules on one board.
#[derive(Debug, Clone, Copy)]
pub struct Othello {
    /// Rows.
    pub rows: u32,
    /// Columns.
    pub columns: u32,
}

/// A position: the discs of the side to move and of the other side, bit `row * columns +
/// column`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Discs {
    /// The side to move's discs.
    pub mine: u64,
    /// The other side's discs.
    pub theirs: u64,
}

/// A move: a cell, or a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A disc on this cell.
    At(u8),
    /// No flip is possible: the turn passes.
    Pass,
}

const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

impl Othello {
    /// The board `rows × columns`.
    pub fn new(rows: u32, columns: u32) -> Self {
        assert!(rows >= 2 && columns >= 2 && rows * columns <= 64);
        Othello { rows, columns }
    }

    fn cells(&self) -> u32 {
        self.rows * self.columns
    }

    /// The discs `cell` turns when the mover places there (0: not a legal move).
    fn flips(&self, discs: &Discs, cell: u32) -> u64 {
        if (discs.mine | discs.theirs) >> cell & 1 != 0 {
            return 0;
        }
        let (row, column) = ((cell / self.columns) as i32, (cell % self.columns) as i32);
        let mut flipped = 0;
        for (dr, dc) in DIRECTIONS {
            let mut line = 0u64;
            let (mut r, mut c) = (row + dr, column + dc);
            while r >= 0 && c >= 0 && r < self.rows as i32 && c < self.columns as i32 {
                let bit = 1u64 << (r as u32 * self.columns + c as u32);
                if discs.theirs & bit != 0 {
                    line |= bit;
                } else {
                    if discs.mine & bit != 0 {
                        flipped |= line;
                    }
                    break;
                }
                r += dr;
                c += dc;
            }
        }
        flipped
    }

    fn has_flip(&self, discs: &Discs) -> bool {
        (0..self.cells()).any(|cell| self.flips(discs, cell) != 0)
    }
}

impl Game for Othello {
    type State = Discs;
    type Move = Place;

    fn start(&self) -> Discs {
        let (r, c) = (self.rows / 2 - 1, self.columns / 2 - 1);
        let at = |row: u32, column: u32| 1u64 << (row * self.columns + column);
        Discs {
            mine: at(r, c + 1) | at(r + 1, c),
            theirs: at(r, c) | at(r + 1, c + 1),
        }
    }

    fn moves(&self, discs: &Discs) -> impl Iterator<Item = Place> {
        let discs = *discs;
        let placed = (0..self.cells())
            .filter(move |&cell| self.flips(&discs, cell) != 0)
            .map(|cell| Place::At(cell as u8));
        // A pass only when the mover has no flip and the other side has one; the game is over
        // when neither has.
        let turned = Discs {
            mine: discs.theirs,
            theirs: discs.mine,
        };
        let pass = (!self.has_flip(&discs) && self.has_flip(&turned)).then_some(Place::Pass);
        placed.chain(pass)
    }

    fn play(&self, discs: &Discs, place: &Place) -> Step<Discs> {
        let next = match *place {
            Place::Pass => Discs {
                mine: discs.theirs,
                theirs: discs.mine,
            },
            Place::At(cell) => {
                let flipped = self.flips(discs, u32::from(cell));
                Discs {
                    mine: discs.theirs & !flipped,
                    theirs: discs.mine | flipped | 1 << cell,
                }
            }
        };
        Step {
            next,
            gain: 0,
            turn: Turn::Pass,
        }
    }

    fn payoff(&self, discs: &Discs) -> Score {
        Score::from(discs.mine.count_ones()) - Score::from(discs.theirs.count_ones())
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().value_range()
    }
}

/// The disc difference never passes the board's cells.
impl ValueRange for Othello {
    fn value_range(&self, _discs: &Discs) -> (Score, Score) {
        let cells = Score::from(self.cells());
        (-cells, cells)
    }
}

/// The literal rules on a grid of `'.'`, `'B'` and `'W'`, by plain minimax with no memo: Black's
/// discs minus White's with perfect play from the start, Black to move.
pub fn by_hand(rows: usize, columns: usize) -> Score {
    type Grid = Vec<Vec<char>>;
    fn turned(grid: &Grid, row: usize, column: usize, me: char) -> Vec<(usize, usize)> {
        let other = if me == 'B' { 'W' } else { 'B' };
        let mut all = Vec::new();
        if grid[row][column] != '.' {
            return all;
        }
        for dr in -1i32..=1 {
            for dc in -1i32..=1 {
                if (dr, dc) == (0, 0) {
                    continue;
                }
                let mut line = Vec::new();
                let (mut r, mut c) = (row as i32 + dr, column as i32 + dc);
                while r >= 0 && c >= 0 && (r as usize) < grid.len() && (c as usize) < grid[0].len()
                {
                    let here = grid[r as usize][c as usize];
                    if here == other {
                        line.push((r as usize, c as usize));
                    } else {
                        if here == me {
                            all.extend(line.iter().copied());
                        }
                        break;
                    }
                    r += dr;
                    c += dc;
                }
            }
        }
        all
    }
    /// A legal move: its row, its column, and the discs it turns.
    type Legal = (usize, usize, Vec<(usize, usize)>);
    fn legal(grid: &Grid, me: char) -> Vec<Legal> {
        let mut moves = Vec::new();
        for row in 0..grid.len() {
            for column in 0..grid[0].len() {
                let flips = turned(grid, row, column, me);
                if !flips.is_empty() {
                    moves.push((row, column, flips));
                }
            }
        }
        moves
    }
    fn black_minus_white(grid: &mut Grid, me: char) -> Score {
        let other = if me == 'B' { 'W' } else { 'B' };
        let moves = legal(grid, me);
        if moves.is_empty() {
            if legal(grid, other).is_empty() {
                let count = |who| grid.iter().flatten().filter(|&&c| c == who).count() as Score;
                return count('B') - count('W');
            }
            return black_minus_white(grid, other);
        }
        let mut results = Vec::new();
        for (row, column, flips) in moves {
            grid[row][column] = me;
            for &(r, c) in &flips {
                grid[r][c] = me;
            }
            results.push(black_minus_white(grid, other));
            grid[row][column] = '.';
            for &(r, c) in &flips {
                grid[r][c] = other;
            }
        }
        if me == 'B' {
            results.into_iter().max().unwrap()
        } else {
            results.into_iter().min().unwrap()
        }
    }
    let mut grid = vec![vec!['.'; columns]; rows];
    let (r, c) = (rows / 2 - 1, columns / 2 - 1);
    grid[r][c] = 'W';
    grid[r + 1][c + 1] = 'W';
    grid[r][c + 1] = 'B';
    grid[r + 1][c] = 'B';
    black_minus_white(&mut grid, 'B')
}
