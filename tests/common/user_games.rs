//! Games as a user writes them against the public API only, declarations included (a value
//! range; Stone Game IV also a dense index and that it is an outcome game), each with the
//! memoized recursion a user would write by hand over the same hash map and hasher: the
//! yardstick for the engine's overhead (tests/user_games.rs checks values, benches/user_games.rs
//! measures).

#![allow(dead_code)]

use hashbrown::HashMap;

use gamesolver::memo::FastHashBuilder;
use gamesolver::{
    Capabilities, Declares, DenseIndex, Game, Score, Step, Symmetry, Turn, ValueRange,
    game::StateAt,
};

type Memo<K> = HashMap<K, Score, FastHashBuilder>;

/// LeetCode 464 "Can I Win": players alternately pick an unused number from 1 to `numbers`,
/// adding it to a running total; whoever brings the total to `target` or more wins. State: the
/// bitmask of numbers used (bit 31: the game is over), and the running total from bit 32 (a
/// function of the bitmask, carried so that a move costs what the hand-written step costs).
/// Value: 1 won, −1 lost, 0 nobody can reach the target.
#[derive(Debug, Clone, Copy)]
pub struct CanIWin {
    pub numbers: u32,
    pub target: u32,
}

const OVER: u64 = 1 << 31;
const USED: u64 = (1 << 31) - 1;

impl CanIWin {
    /// The memoized recursion a user writes by hand: stops at the first winning pick.
    pub fn by_hand(&self) -> Score {
        fn value(game: &CanIWin, used: u32, total: u32, memo: &mut Memo<u32>) -> Score {
            if let Some(&known) = memo.get(&used) {
                return known;
            }
            let mut best = None;
            for pick in 1..=game.numbers {
                if used & (1 << (pick - 1)) != 0 {
                    continue;
                }
                let value = if total + pick >= game.target {
                    1
                } else {
                    -value(game, used | (1 << (pick - 1)), total + pick, memo)
                };
                best = Some(best.map_or(value, |best: Score| best.max(value)));
                if value == 1 {
                    break;
                }
            }
            let best = best.unwrap_or(0);
            memo.insert(used, best);
            best
        }
        value(self, 0, 0, &mut Memo::default())
    }
}

impl Game for CanIWin {
    type State = u64;
    type Move = u32;
    fn start(&self) -> u64 {
        0
    }
    fn moves(&self, state: &u64) -> impl Iterator<Item = u32> {
        let numbers = if state & OVER == 0 { self.numbers } else { 0 };
        (1..=numbers).filter(move |pick| state & (1 << (pick - 1)) == 0)
    }
    fn play(&self, state: &u64, pick: &u32) -> Step<u64> {
        let total = (state >> 32) + u64::from(*pick);
        let used = state & USED | 1 << (pick - 1);
        let wins = total >= u64::from(self.target);
        Step {
            next: used | total << 32 | if wins { OVER } else { 0 },
            gain: Score::from(wins),
            turn: Turn::Pass,
        }
    }
    fn payoff(&self, _: &u64) -> Score {
        0
    }
    /// A game that is over is worth nothing more to the side to move (its winner was paid by
    /// the winning pick): known without a look at the table.
    fn known_value(&self, state: &u64) -> Option<Score> {
        (state & OVER != 0).then_some(0)
    }
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().value_range()
    }
}

impl ValueRange for CanIWin {
    fn value_range(&self, _: &u64) -> (Score, Score) {
        (-1, 1)
    }
}

/// LeetCode 486 "Predict the Winner": take the first or the last number; each scores what it
/// takes. State `(first, last)` of what is left (no dense index). Value: first player's score
/// minus second's.
#[derive(Debug, Clone)]
pub struct EndsGame {
    numbers: Vec<Score>,
    /// `absolute[k]`: the sum of the first `k` numbers' absolute values.
    absolute: Vec<Score>,
}

impl EndsGame {
    pub fn new(numbers: Vec<Score>) -> Self {
        let mut absolute = vec![0];
        for number in &numbers {
            absolute.push(absolute.last().unwrap() + number.abs());
        }
        EndsGame { numbers, absolute }
    }

    /// The memoized recursion by hand.
    pub fn by_hand(&self) -> Score {
        fn value(numbers: &[Score], first: u16, last: u16, memo: &mut Memo<(u16, u16)>) -> Score {
            if first > last {
                return 0;
            }
            if let Some(&known) = memo.get(&(first, last)) {
                return known;
            }
            let left = numbers[first as usize] - value(numbers, first + 1, last, memo);
            let right = if last > first {
                numbers[last as usize] - value(numbers, first, last - 1, memo)
            } else {
                left
            };
            let best = left.max(right);
            memo.insert((first, last), best);
            best
        }
        value(
            &self.numbers,
            0,
            self.numbers.len() as u16 - 1,
            &mut Memo::default(),
        )
    }
}

impl Game for EndsGame {
    /// `(first, last + 1)`: what is left is `first..last + 1`.
    type State = (u16, u16);
    /// `true`: the first number; `false`: the last.
    type Move = bool;
    fn start(&self) -> (u16, u16) {
        (0, self.numbers.len() as u16)
    }
    fn moves(&self, &(first, end): &(u16, u16)) -> impl Iterator<Item = bool> {
        let front = (first < end).then_some(true);
        let back = (first + 1 < end).then_some(false);
        front.into_iter().chain(back)
    }
    fn play(&self, &(first, end): &(u16, u16), &front: &bool) -> Step<(u16, u16)> {
        let (next, taken) = if front {
            ((first + 1, end), first)
        } else {
            ((first, end - 1), end - 1)
        };
        Step {
            next,
            gain: self.numbers[taken as usize],
            turn: Turn::Pass,
        }
    }
    fn payoff(&self, _: &(u16, u16)) -> Score {
        0
    }
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().value_range()
    }
}

/// Connect Four as a user writes it first: two bitboards, no threat tracking, no known values;
/// a full board is a draw. Value: 1 if the side to move wins, −1 if it loses, 0 for a draw.
#[derive(Debug, Clone, Copy)]
pub struct PlainFour {
    pub width: u32,
    pub height: u32,
}

/// Stones of the side to move, and of both sides; `over` when the last move made four.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    mine: u64,
    all: u64,
    over: bool,
}

impl PlainFour {
    fn column_bits(&self, column: u32) -> u64 {
        ((1u64 << self.height) - 1) << (column * (self.height + 1))
    }

    fn fours(&self, stones: u64) -> bool {
        let h = self.height;
        [1, h, h + 1, h + 2].into_iter().any(|shift| {
            let pairs = stones & (stones >> shift);
            pairs & (pairs >> (2 * shift)) != 0
        })
    }

    fn empty(&self) -> Board {
        Board {
            mine: 0,
            all: 0,
            over: false,
        }
    }

    fn drop(&self, board: &Board, column: u32) -> Board {
        let bottom = 1u64 << (column * (self.height + 1));
        let all = board.all | (board.all + bottom) & self.column_bits(column);
        let placed = all ^ board.all;
        let mover = board.mine | placed;
        Board {
            mine: board.all ^ board.mine,
            all,
            over: self.fours(mover),
        }
    }

    fn playable(&self, board: &Board, column: u32) -> bool {
        let top = 1u64 << (column * (self.height + 1) + self.height - 1);
        board.all & top == 0
    }

    /// The memoized recursion by hand: stops at the first winning drop.
    pub fn by_hand(&self) -> Score {
        fn value(game: &PlainFour, board: Board, memo: &mut Memo<Board>) -> Score {
            if board.over {
                return -1;
            }
            if let Some(&known) = memo.get(&board) {
                return known;
            }
            let mut best = None;
            for column in 0..game.width {
                if !game.playable(&board, column) {
                    continue;
                }
                let value = -value(game, game.drop(&board, column), memo);
                best = Some(best.map_or(value, |best: Score| best.max(value)));
                if value == 1 {
                    break;
                }
            }
            let best = best.unwrap_or(0);
            memo.insert(board, best);
            best
        }
        value(self, self.empty(), &mut Memo::default())
    }
}

impl Game for PlainFour {
    type State = Board;
    type Move = u32;
    fn start(&self) -> Board {
        self.empty()
    }
    fn moves(&self, board: &Board) -> impl Iterator<Item = u32> {
        let width = if board.over { 0 } else { self.width };
        (0..width).filter(move |&column| self.playable(board, column))
    }
    fn play(&self, board: &Board, column: &u32) -> Step<Board> {
        Step {
            next: self.drop(board, *column),
            gain: 0,
            turn: Turn::Pass,
        }
    }
    fn payoff(&self, board: &Board) -> Score {
        if board.over { -1 } else { 0 }
    }
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().value_range()
    }
}

impl ValueRange for PlainFour {
    fn value_range(&self, _: &Board) -> (Score, Score) {
        (-1, 1)
    }
}

impl ValueRange for EndsGame {
    /// Every number left could go either way: the value is within ± their absolute sum (a loose
    /// range, so it rarely cuts; computed in O(1) from running sums).
    fn value_range(&self, &(first, end): &(u16, u16)) -> (Score, Score) {
        let sum = self.absolute[end as usize] - self.absolute[first as usize];
        (-sum, sum)
    }
}

/// LeetCode 1510 "Stone Game IV": take a non-zero square number of stones; whoever cannot move
/// (no stone left) loses. State: the stones left. An outcome game with a dense index, whose
/// moves come in batches (lazy moves).
#[derive(Debug, Clone, Copy)]
pub struct SquareTakeaway {
    pub stones: u32,
}

impl SquareTakeaway {
    /// The array DP a user writes by hand: a count is won if some square leaves a lost one.
    pub fn by_hand(&self) -> Score {
        let n = self.stones as usize;
        let mut won = vec![false; n + 1];
        for left in 1..=n {
            won[left] = (1..)
                .take_while(|root| root * root <= left)
                .any(|root| !won[left - root * root]);
        }
        if won[n] { 1 } else { -1 }
    }
}

/// Square roots per batch of moves (8: measured against 16, 32 and 64 with the sweep).
const BATCH: u32 = 8;

impl Game for SquareTakeaway {
    type State = u32;
    /// The square root of the stones taken.
    type Move = u32;
    fn start(&self) -> u32 {
        self.stones
    }
    fn moves(&self, left: &u32) -> impl Iterator<Item = u32> {
        (1..).take_while(move |root| root * root <= *left)
    }
    /// Lazy moves: eight roots a batch (1..=8, 9..=16, …), so that a state whose winning move
    /// is a small square never lists the others.
    fn moves_batch(&self, left: &u32, batch: usize, moves: &mut Vec<u32>) -> bool {
        let first = BATCH * batch as u32 + 1;
        moves.extend((first..first + BATCH).take_while(|root| root * root <= *left));
        (first + BATCH) * (first + BATCH) <= *left
    }
    fn play(&self, left: &u32, root: &u32) -> Step<u32> {
        Step {
            next: left - root * root,
            gain: 0,
            turn: Turn::Pass,
        }
    }
    /// The children without a list of moves: each square in turn, until told to stop (what
    /// the sweep steps through).
    fn for_each_step(&self, left: &u32, mut each: impl FnMut(Step<u32>) -> bool) {
        let mut root = 1;
        while root * root <= *left {
            let next = left - root * root;
            if !each(Step {
                next,
                gain: 0,
                turn: Turn::Pass,
            }) {
                return;
            }
            root += 1;
        }
    }
    /// No stone left: the side to move cannot move and loses.
    fn payoff(&self, _: &u32) -> Score {
        -1
    }
    /// Every move leaves fewer stones: the index (the stones left) orders the game.
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().ordered_index().outcome_game()
    }
}

impl DenseIndex for SquareTakeaway {
    fn index_len(&self) -> usize {
        self.stones as usize + 1
    }
    fn index(&self, left: &u32) -> usize {
        *left as usize
    }
}

impl StateAt for SquareTakeaway {
    fn state_at(&self, index: usize) -> Option<u32> {
        u32::try_from(index).ok()
    }
}

/// Domineering on a `rows × columns` board (at most 64 cells): the first player (Vertical)
/// places a domino on two free cells one above the other, the second (Horizontal) on two free
/// cells side by side; whoever cannot place one loses. State: the occupied cells (bit
/// `row * columns + column`) and who is to move (bit 63). `blocked` cells start occupied, so
/// that random instances are random boards. An outcome game with no declaration but that: the
/// newcomer's first version.
#[derive(Debug, Clone, Copy)]
pub struct Domineering {
    pub rows: u32,
    pub columns: u32,
    pub blocked: u64,
}

/// Bit 63 of a Domineering state: Horizontal is to move.
const HORIZONTAL: u64 = 1 << 63;

impl Domineering {
    /// The empty board.
    pub fn new(rows: u32, columns: u32) -> Self {
        assert!(rows * columns <= 62);
        Domineering {
            rows,
            columns,
            blocked: 0,
        }
    }

    fn cell(&self, row: u32, column: u32) -> u64 {
        1 << (row * self.columns + column)
    }

    /// The board turned over by `flip` (bit 0: top to bottom, bit 1: left to right); who is to
    /// move is kept.
    pub fn flipped(&self, state: u64, flip: u32) -> u64 {
        let mut image = state & HORIZONTAL;
        for row in 0..self.rows {
            for column in 0..self.columns {
                if state & self.cell(row, column) != 0 {
                    let row = if flip & 1 != 0 {
                        self.rows - 1 - row
                    } else {
                        row
                    };
                    let column = if flip & 2 != 0 {
                        self.columns - 1 - column
                    } else {
                        column
                    };
                    image |= self.cell(row, column);
                }
            }
        }
        image
    }

    /// The literal rules on a grid of booleans, searched with a memo of whole grids: the
    /// oracle (1: the side to move wins, −1: it loses).
    pub fn by_hand(&self) -> Score {
        fn value(
            grid: &mut Vec<Vec<bool>>,
            vertical: bool,
            memo: &mut std::collections::HashMap<(Vec<Vec<bool>>, bool), Score>,
        ) -> Score {
            if let Some(&known) = memo.get(&(grid.clone(), vertical)) {
                return known;
            }
            let (rows, columns) = (grid.len(), grid[0].len());
            let mut best = -1;
            for row in 0..rows {
                for column in 0..columns {
                    let (other_row, other_column) = if vertical {
                        (row + 1, column)
                    } else {
                        (row, column + 1)
                    };
                    if other_row >= rows
                        || other_column >= columns
                        || grid[row][column]
                        || grid[other_row][other_column]
                    {
                        continue;
                    }
                    grid[row][column] = true;
                    grid[other_row][other_column] = true;
                    best = best.max(-value(grid, !vertical, memo));
                    grid[row][column] = false;
                    grid[other_row][other_column] = false;
                }
            }
            memo.insert((grid.clone(), vertical), best);
            best
        }
        let mut grid: Vec<Vec<bool>> = (0..self.rows)
            .map(|row| {
                (0..self.columns)
                    .map(|column| self.blocked & self.cell(row, column) != 0)
                    .collect()
            })
            .collect();
        value(&mut grid, true, &mut Default::default())
    }
}

impl Game for Domineering {
    type State = u64;
    /// The domino's first cell (top or left).
    type Move = u8;
    fn start(&self) -> u64 {
        self.blocked
    }
    fn moves(&self, state: &u64) -> impl Iterator<Item = u8> {
        let (state, horizontal) = (*state, state & HORIZONTAL != 0);
        (0..self.rows)
            .flat_map(move |row| (0..self.columns).map(move |column| (row, column)))
            .filter(move |&(row, column)| {
                let other = match horizontal {
                    false if row + 1 < self.rows => self.cell(row + 1, column),
                    true if column + 1 < self.columns => self.cell(row, column + 1),
                    _ => return false,
                };
                state & (self.cell(row, column) | other) == 0
            })
            .map(move |(row, column)| (row * self.columns + column) as u8)
    }
    fn play(&self, state: &u64, first: &u8) -> Step<u64> {
        let cell = 1u64 << first;
        let other = match state & HORIZONTAL != 0 {
            false => cell << self.columns,
            true => cell << 1,
        };
        Step {
            next: (state | cell | other) ^ HORIZONTAL,
            gain: 0,
            turn: Turn::Pass,
        }
    }
    /// No domino fits: the side to move loses.
    fn payoff(&self, _: &u64) -> Score {
        -1
    }
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().outcome_game()
    }
}

/// Domineering as the guide's step 5 has the newcomer declare it: a dense index (the occupied
/// cells and who is to move: 2^(cells + 1) slots, most of them boards no play reaches).
#[derive(Debug, Clone, Copy)]
pub struct IndexedDomineering(pub Domineering);

/// Domineering with its symmetry declared: a board and its mirror images (top to bottom, left
/// to right, and both) have one value, since each keeps a vertical domino vertical.
#[derive(Debug, Clone, Copy)]
pub struct SymmetricDomineering(pub Domineering);

macro_rules! domineering_as {
    ($name:ident, $declared:expr) => {
        impl Game for $name {
            type State = u64;
            type Move = u8;
            fn start(&self) -> u64 {
                self.0.start()
            }
            fn moves(&self, state: &u64) -> impl Iterator<Item = u8> {
                self.0.moves(state)
            }
            fn play(&self, state: &u64, first: &u8) -> Step<u64> {
                self.0.play(state, first)
            }
            fn payoff(&self, state: &u64) -> Score {
                self.0.payoff(state)
            }
            fn capabilities(&self) -> impl Declares<Self> {
                $declared
            }
        }
    };
}

domineering_as!(
    IndexedDomineering,
    Capabilities::none().dense_index().outcome_game()
);
domineering_as!(
    SymmetricDomineering,
    Capabilities::none().symmetry().outcome_game()
);

impl DenseIndex for IndexedDomineering {
    fn index_len(&self) -> usize {
        2 << (self.0.rows * self.0.columns)
    }
    fn index(&self, state: &u64) -> usize {
        let cells = state & !HORIZONTAL;
        (cells << 1 | state >> 63) as usize
    }
}

impl Symmetry for SymmetricDomineering {
    /// The least of the board's four images.
    fn canonical(&self, state: &u64) -> u64 {
        (1..4).fold(*state, |least, flip| {
            least.min(self.0.flipped(*state, flip))
        })
    }
}
