//! k in a row on an M×N board (an m,n,k-game: tic-tac-toe is 3,3,3, Go-Moku 15,15,5): Black,
//! who moves first, and White place a stone of theirs on any empty cell in turn; the first to
//! have K in a row across, down or diagonally wins; a full board without one is a draw. Value
//! +1, 0 or −1 for the side to move. Cells are named as in Hex: a column letter from `a`, a row
//! number from 1 at the top.

use crate::InputError;
use crate::game::{Capabilities, Declares, Game, Score, Step, Symmetry, Turn};

/// The most cells an m,n,k-game's board may have (16×16; Go-Moku's 15×15 is 225).
pub const MAX_MNK_CELLS: u32 = 256;

/// A set of cells, one bit each (`row * columns + column`).
type Cells = [u64; 4];

/// Whether `cells` holds `cell`.
fn has(cells: &Cells, cell: u32) -> bool {
    cells[(cell / 64) as usize] >> (cell % 64) & 1 != 0
}

/// `cells` with `cell` added.
fn with(mut cells: Cells, cell: u32) -> Cells {
    cells[(cell / 64) as usize] |= 1 << (cell % 64);
    cells
}

/// How many cells `cells` holds.
fn count(cells: &Cells) -> u32 {
    cells.iter().map(|word| word.count_ones()).sum()
}

/// The cells of `cells`, lowest first.
fn each(cells: &Cells) -> impl Iterator<Item = u32> + '_ {
    (0..4u32).flat_map(move |word| {
        let mut bits = cells[word as usize];
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let bit = bits.trailing_zeros();
                bits &= bits - 1;
                word * 64 + bit
            })
        })
    })
}

/// The m,n,k-game: `columns × rows` cells, `k` in a row wins.
///
/// ```
/// use gamesolver::{games::Mnk, Solved, Solver};
///
/// assert_eq!(Solver::new(&Mnk::new(3, 3, 3)?).solve()?.value(), 0); // tic-tac-toe: a draw
/// assert_eq!(Solver::new(&Mnk::new(4, 3, 3)?).solve()?.value(), 1); // the first player wins
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mnk {
    columns: u32,
    rows: u32,
    k: u32,
    /// The cells in the order moves are listed: nearest the centre first.
    order: Vec<u16>,
    /// Each symmetry of the board other than the identity, as the cell each cell goes to.
    images: Vec<Vec<u16>>,
    /// Where the game starts: the empty board, or the position of [`Mnk::starting_at`].
    opening: MnkBoard,
}

/// A position of an m,n,k-game: each side's stones, and whether the side that just moved made
/// a line (then the game is over).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct MnkBoard {
    black: Cells,
    white: Cells,
    won: bool,
}

impl MnkBoard {
    /// Whether the cell `cell` (`row * columns + column`) holds a black stone.
    pub fn black_at(&self, cell: u32) -> bool {
        has(&self.black, cell)
    }
    /// Whether it holds a white stone.
    pub fn white_at(&self, cell: u32) -> bool {
        has(&self.white, cell)
    }
    /// Whether Black is to move (both have as many stones).
    pub fn black_to_move(&self) -> bool {
        count(&self.black) == count(&self.white)
    }
    /// Whether the side that just moved has `k` in a row: the game is over.
    pub fn is_won(&self) -> bool {
        self.won
    }
}

impl Mnk {
    /// The m,n,k-game on `columns × rows` cells (each from 1, at most 26, and at most
    /// [`MAX_MNK_CELLS`] in all) with `k` in a row winning (`1..=max(columns, rows)`).
    pub fn new(columns: u32, rows: u32, k: u32) -> Result<Mnk, InputError> {
        let problem = |why: String| InputError::InvalidGame(format!("mnk: {why}"));
        if !(1..=26).contains(&columns) || !(1..=26).contains(&rows) {
            return Err(problem(format!(
                "the board is M columns by N rows, each from 1 to 26, not {columns} by {rows}"
            )));
        }
        if columns * rows > MAX_MNK_CELLS {
            return Err(problem(format!(
                "a board of {columns} by {rows} has {} cells, past the {MAX_MNK_CELLS} this \
                 game holds",
                columns * rows
            )));
        }
        if !(1..=columns.max(rows)).contains(&k) {
            return Err(problem(format!(
                "K, the stones in a row that win, is from 1 to {}, the board's longer side, not \
                 {k}",
                columns.max(rows)
            )));
        }
        let cells = columns * rows;
        // Twice the distance from the centre, the longer way.
        let distance = |cell: u32| {
            let (x, y) = ((cell % columns) as i32 * 2, (cell / columns) as i32 * 2);
            let (dx, dy) = (x - columns as i32 + 1, y - rows as i32 + 1);
            (dx.abs().max(dy.abs()), dx.abs() + dy.abs())
        };
        let mut order: Vec<u16> = (0..cells as u16).collect();
        order.sort_by_key(|&cell| (distance(u32::from(cell)), cell));
        // The mirror images (across, down, both), and on a square board the four maps that
        // swap the axes; each as where (x, y) goes, with `w` and `h` the last column and row.
        let (w, h) = (columns as i32 - 1, rows as i32 - 1);
        let symmetries = if columns == rows { 7 } else { 3 };
        let image = |symmetry: u32, x: i32, y: i32| match symmetry {
            0 => (w - x, y),
            1 => (x, h - y),
            2 => (w - x, h - y),
            3 => (y, x),
            4 => (w - y, x),
            5 => (y, h - x),
            _ => (w - y, h - x),
        };
        let images = (0..symmetries)
            .map(|symmetry| {
                (0..cells)
                    .map(|cell| {
                        let (x, y) =
                            image(symmetry, (cell % columns) as i32, (cell / columns) as i32);
                        (y as u32 * columns + x as u32) as u16
                    })
                    .collect()
            })
            .collect();
        Ok(Mnk {
            columns,
            rows,
            k,
            order,
            images,
            opening: MnkBoard::default(),
        })
    }

    /// Columns, rows and the stones in a row that win.
    pub fn size(&self) -> (u32, u32, u32) {
        (self.columns, self.rows, self.k)
    }

    /// Whether the stone on `cell` makes `k` in a row with `stones`.
    fn makes_line(&self, stones: &Cells, cell: u32) -> bool {
        let (column, row) = ((cell % self.columns) as i32, (cell / self.columns) as i32);
        let (columns, rows) = (self.columns as i32, self.rows as i32);
        let stone = |x: i32, y: i32| {
            x >= 0 && y >= 0 && x < columns && y < rows && has(stones, (y * columns + x) as u32)
        };
        [(1, 0), (0, 1), (1, 1), (1, -1)]
            .into_iter()
            .any(|(dx, dy)| {
                let run = |sign: i32| {
                    (1..)
                        .take_while(|&i| stone(column + sign * i * dx, row + sign * i * dy))
                        .count() as u32
                };
                1 + run(1) + run(-1) >= self.k
            })
    }

    /// The cell named `name`: a column letter from `a`, a row number from 1 (`c2`).
    pub fn cell(&self, name: &str) -> Result<u16, InputError> {
        super::hex::cell_of(name, self.columns, self.rows, "mnk").map(u16::from)
    }

    /// The name of `cell` (`row * columns + column`).
    pub fn cell_name(&self, cell: u16) -> String {
        super::hex::name_of(u32::from(cell), self.columns)
    }

    /// The same game started at `board` (the position of [`after_cells`](Mnk::after_cells),
    /// say): its [`start`](Game::start), which every engine solves from, is `board`.
    pub fn starting_at(self, board: MnkBoard) -> Mnk {
        Mnk {
            opening: board,
            ..self
        }
    }

    /// The position after the cells named in `moves` (in the order played, separated by
    /// commas or spaces: `"b2,a1"`) are played from the start; a cell off the board,
    /// taken, or played after the game was won is refused by name.
    pub fn after_cells(&self, moves: &str) -> Result<MnkBoard, InputError> {
        super::hex::after_named(self, moves, |name| self.cell(name), MnkBoard::is_won)
    }
}

impl Game for Mnk {
    type State = MnkBoard;
    /// The cell to take, `row * columns + column`.
    type Move = u16;

    fn start(&self) -> MnkBoard {
        self.opening
    }

    fn moves(&self, board: &MnkBoard) -> impl Iterator<Item = u16> {
        let taken: Cells = match board.won {
            true => [u64::MAX; 4],
            false => std::array::from_fn(|word| board.black[word] | board.white[word]),
        };
        self.order
            .iter()
            .copied()
            .filter(move |&cell| !has(&taken, cell.into()))
    }

    fn play(&self, board: &MnkBoard, cell: &u16) -> Step<MnkBoard> {
        let cell = u32::from(*cell);
        let next = if board.black_to_move() {
            let black = with(board.black, cell);
            MnkBoard {
                black,
                white: board.white,
                won: self.makes_line(&black, cell),
            }
        } else {
            let white = with(board.white, cell);
            MnkBoard {
                black: board.black,
                white,
                won: self.makes_line(&white, cell),
            }
        };
        Step {
            next,
            gain: 0,
            turn: Turn::Pass,
        }
    }

    /// Lost if the side that just moved made a line, else a full board: a draw.
    fn payoff(&self, board: &MnkBoard) -> Score {
        -Score::from(board.won)
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().outcome_game().symmetry()
    }
}

impl Symmetry for Mnk {
    /// The mirror images of the board (and its rotations, where it is square) keep every
    /// line: of a position and its images, the smallest.
    fn canonical(&self, board: &MnkBoard) -> MnkBoard {
        let mut best = *board;
        for image in &self.images {
            let map = |cells: &Cells| {
                each(cells).fold([0; 4], |mapped, cell| {
                    with(mapped, image[cell as usize].into())
                })
            };
            let turned = MnkBoard {
                black: map(&board.black),
                white: map(&board.white),
                won: board.won,
            };
            best = best.min(turned);
        }
        best
    }
}

#[cfg(feature = "cli")]
pub(super) mod cli;

#[cfg(test)]
mod tests;
