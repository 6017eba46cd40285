//! Hex on an N×N board (1 to 11): Black, who moves first, and White place a stone of theirs on
//! any empty cell in turn; Black wins by joining the top and bottom rows with a chain of black
//! stones, White by joining the left and right columns. A full board always has a winner, so
//! the value is +1 or −1 for the side to move, and the first player wins on every empty board
//! (Nash's strategy-stealing argument). No swap rule.
//!
//! Cells are named as benzene names them: a letter for the column (`a` on the left) and a
//! number for the row (`1` at the top). Each cell touches the cells left and right of it, the
//! two above it (its column and the next) and the two below it (its column and the one before).

use crate::InputError;
use crate::game::{Capabilities, Declares, Game, Score, Step, Symmetry, Turn};

/// The largest board side Hex takes (11×11, the size of the classic board: 121 cells).
pub const MAX_HEX_SIDE: u32 = 11;

/// Hex on one board, Black (first) joining top and bottom.
///
/// ```
/// use gamesolver::{games::Hex, Solved, Solver};
///
/// let hex = Hex::new(3)?;
/// let mut solved = Solver::new(&hex).solve()?;
/// assert_eq!(solved.value(), 1); // the first player wins
/// // After Black's a1 (a corner), White, to move, wins; after b2 (the centre), Black does.
/// assert_eq!(solved.value_of(&hex.after_cells("a1")?)?, 1);
/// assert_eq!(solved.value_of(&hex.after_cells("b2")?)?, -1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hex {
    side: u32,
    /// Every cell of the board.
    all: u128,
    /// The first and last rows, and the first and last columns.
    top: u128,
    bottom: u128,
    left: u128,
    right: u128,
    /// The cells in the order moves are listed: nearest the centre first.
    order: Vec<u8>,
}

/// A Hex position: each side's stones (bit `row * side + column`), and whether the side that
/// just moved joined its edges (then the game is over).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct HexBoard {
    black: u128,
    white: u128,
    won: bool,
}

impl HexBoard {
    /// Black's stones, one bit per cell (`row * side + column`).
    pub fn black(&self) -> u128 {
        self.black
    }
    /// White's stones.
    pub fn white(&self) -> u128 {
        self.white
    }
    /// Whether Black is to move (both have as many stones).
    pub fn black_to_move(&self) -> bool {
        self.black.count_ones() == self.white.count_ones()
    }
    /// Whether the side that just moved has joined its edges: the game is over.
    pub fn is_won(&self) -> bool {
        self.won
    }
}

impl Hex {
    /// Hex on a `side × side` board, `1..=`[`MAX_HEX_SIDE`].
    pub fn new(side: u32) -> Result<Hex, InputError> {
        if !(1..=MAX_HEX_SIDE).contains(&side) {
            return Err(InputError::InvalidGame(format!(
                "hex takes a board side from 1 to {MAX_HEX_SIDE}, not {side}"
            )));
        }
        let cells = side * side;
        let all = if cells == 128 {
            u128::MAX
        } else {
            (1u128 << cells) - 1
        };
        let row = (1u128 << side) - 1;
        let column = (0..side).fold(0u128, |mask, r| mask | 1 << (r * side));
        // Twice the distance from the centre in the hex metric (cube coordinates), so that
        // even boards' four middle cells tie.
        let distance = |cell: u32| {
            let (r, c) = ((cell / side) as i32 * 2, (cell % side) as i32 * 2);
            let centre = side as i32 - 1;
            let (dr, dc) = (r - centre, c - centre);
            (dr.abs() + dc.abs() + (dr + dc).abs()) / 2
        };
        let mut order: Vec<u8> = (0..cells as u8).collect();
        order.sort_by_key(|&cell| (distance(u32::from(cell)), cell));
        Ok(Hex {
            side,
            all,
            top: row,
            bottom: row << (side * (side - 1)),
            left: column,
            right: column << (side - 1),
            order,
        })
    }

    /// The board's side.
    pub fn side(&self) -> u32 {
        self.side
    }

    /// The cells next to any of `cells`.
    fn spread(&self, cells: u128) -> u128 {
        let n = self.side;
        let not_left = self.all & !self.left;
        let not_right = self.all & !self.right;
        (((cells << 1) & not_left)
            | ((cells >> 1) & not_right)
            | (cells << n)
            | (cells >> n)
            | ((cells >> (n - 1)) & not_left)
            | ((cells << (n - 1)) & not_right))
            & self.all
    }

    /// Whether `stones` join the top and bottom rows (`black`) or the left and right columns.
    pub fn joins(&self, stones: u128, black: bool) -> bool {
        let (start, end) = if black {
            (self.top, self.bottom)
        } else {
            (self.left, self.right)
        };
        stones & end != 0 && self.flood(stones & start, stones) & end != 0
    }

    /// `seed` grown through `stones` to every stone joined to it.
    fn flood(&self, mut seed: u128, stones: u128) -> u128 {
        loop {
            let grown = seed | (self.spread(seed) & stones);
            if grown == seed {
                return seed;
            }
            seed = grown;
        }
    }

    /// How many stones `stones` still need on the `empty` cells to join the top and bottom
    /// rows (`black`) or the left and right columns: the cheapest path from edge to edge, a
    /// stone costing 0 and an empty cell 1 (`None`: no path, the other side has joined its
    /// edges). Hex's estimate for proof search ([`Game::proof_numbers`]).
    pub fn distance(&self, stones: u128, empty: u128, black: bool) -> Option<u32> {
        let (start, end) = if black {
            (self.top, self.bottom)
        } else {
            (self.left, self.right)
        };
        // The cells reached at a cost of at most `cost`, as cost grows by one.
        let mut reached = self.flood(start & stones, stones);
        for cost in 0.. {
            if reached & end != 0 {
                return Some(cost);
            }
            let next = self.flood(reached | ((self.spread(reached) | start) & empty), stones);
            if next == reached {
                return None;
            }
            reached = next;
        }
        None
    }

    /// The cell named `name` (benzene's: column letter, row number, as `c2`).
    pub fn cell(&self, name: &str) -> Result<u8, InputError> {
        cell_of(name, self.side, self.side, "hex")
    }

    /// The name of `cell` (`row * side + column`): its column's letter and its row from 1.
    pub fn cell_name(&self, cell: u8) -> String {
        name_of(u32::from(cell), self.side)
    }

    /// The position after the cells named in `moves` (benzene's names, in the order played,
    /// separated by commas or spaces: `"a1,b3"`) are played from the empty board; a cell off
    /// the board, taken, or played after the game was won is refused by name.
    pub fn after_cells(&self, moves: &str) -> Result<HexBoard, InputError> {
        after_named(self, moves, |name| self.cell(name), HexBoard::is_won)
    }
}

/// The position after the moves named in `moves` (separated by commas or white space, in the
/// order played) from `game`'s start, each read by `cell`: a move that is not among the
/// position's moves is refused by name, as coming after the game was won (`won`) or as a cell
/// already taken (Hex's and k in a row's `--at`).
pub(super) fn after_named<G: Game<Move = M>, M: PartialEq>(
    game: &G,
    moves: &str,
    cell: impl Fn(&str) -> Result<M, InputError>,
    won: impl Fn(&G::State) -> bool,
) -> Result<G::State, InputError> {
    let mut board = game.start();
    let names = moves
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|name| !name.is_empty());
    for (count, name) in names.enumerate() {
        let cell = cell(name)?;
        if !game.moves(&board).any(|legal| legal == cell) {
            let why = if won(&board) {
                "comes after the game was won"
            } else {
                "is a cell already taken"
            };
            return Err(InputError::InvalidState(format!(
                "move {} of the moves, {name}, {why}",
                count + 1
            )));
        }
        board = game.play(&board, &cell).next;
    }
    Ok(board)
}

/// The cell `name` names on a board of `columns × rows`: a column letter from `a`, then a row
/// number from 1.
pub(super) fn cell_of(name: &str, columns: u32, rows: u32, game: &str) -> Result<u8, InputError> {
    let problem = || {
        InputError::InvalidState(format!(
            "'{name}' is not a cell of this {game} board: a cell is a column letter from a to {} \
             and a row number from 1 to {rows}, as 'b3'",
            char::from(b'a' + (columns - 1) as u8)
        ))
    };
    let mut chars = name.chars();
    let letter = chars.next().ok_or_else(problem)?.to_ascii_lowercase();
    let column = u32::from(letter).wrapping_sub(u32::from('a'));
    let row: u32 = chars.as_str().parse().map_err(|_| problem())?;
    if column >= columns || !(1..=rows).contains(&row) {
        return Err(problem());
    }
    u8::try_from((row - 1) * columns + column).map_err(|_| problem())
}

/// The name of `cell` on a board `columns` wide.
pub(super) fn name_of(cell: u32, columns: u32) -> String {
    let (row, column) = (cell / columns, cell % columns);
    format!("{}{}", char::from(b'a' + column as u8), row + 1)
}

impl Game for Hex {
    type State = HexBoard;
    /// The cell to take, `row * side + column`.
    type Move = u8;

    fn start(&self) -> HexBoard {
        HexBoard::default()
    }

    fn moves(&self, board: &HexBoard) -> impl Iterator<Item = u8> {
        let empty = if board.won {
            0
        } else {
            self.all & !(board.black | board.white)
        };
        self.order
            .iter()
            .copied()
            .filter(move |&cell| empty >> cell & 1 != 0)
    }

    fn play(&self, board: &HexBoard, cell: &u8) -> Step<HexBoard> {
        let stone = 1u128 << cell;
        let next = if board.black_to_move() {
            let black = board.black | stone;
            HexBoard {
                black,
                white: board.white,
                won: self.joins(black, true),
            }
        } else {
            let white = board.white | stone;
            HexBoard {
                black: board.black,
                white,
                won: self.joins(white, false),
            }
        };
        Step {
            next,
            gain: 0,
            turn: Turn::Pass,
        }
    }

    /// The game is over only when the side that just moved has joined its edges (a full
    /// board always holds a chain): the side to move has lost.
    fn payoff(&self, _board: &HexBoard) -> Score {
        -1
    }

    /// How many stones each side still needs ([`Hex::distance`]): the fewer the side to move
    /// needs, the cheaper its win looks to prove; the fewer the other side needs, the cheaper
    /// to disprove. (A draw never happens, so every question asks for a win.)
    fn proof_numbers(&self, board: &HexBoard, _at_least: Score) -> Option<(u64, u64)> {
        let empty = self.all & !(board.black | board.white);
        let black = board.black_to_move();
        let (mine, theirs) = if black {
            (board.black, board.white)
        } else {
            (board.white, board.black)
        };
        let need = |stones, black| {
            self.distance(stones, empty, black)
                .map_or(1 << 20, u64::from)
        };
        Some((need(mine, black), need(theirs, !black)))
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().outcome_game().symmetry()
    }
}

impl Symmetry for Hex {
    /// The board turned half a turn (cell `i` to cell `side² − 1 − i`) keeps each side's
    /// edges: of a position and its turned image, the smaller.
    fn canonical(&self, board: &HexBoard) -> HexBoard {
        let turn = |stones: u128| stones.reverse_bits() >> (128 - self.side * self.side);
        let turned = HexBoard {
            black: turn(board.black),
            white: turn(board.white),
            won: board.won,
        };
        turned.min(*board)
    }
}

#[cfg(feature = "cli")]
pub(super) mod cli;

#[cfg(test)]
mod tests;
