//! Games as a user writes them against the public API only, declarations included (a value
//! range; Stone Game IV also a dense index and that it is an outcome game), each with the
//! memoized recursion a user would write by hand over the same hash map and hasher: the
//! yardstick for the engine's overhead (tests/user_games.rs checks values, benches/user_games.rs
//! measures).

#![allow(dead_code)]

use hashbrown::HashMap;

use gamesolver::memo::FastHashBuilder;
use gamesolver::{
    Capabilities, Declares, DenseIndex, Game, Score, Step, Turn, ValueRange, game::StateAt,
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
    fn moves(&self, state: &u64, moves: &mut Vec<u32>) {
        if state & OVER == 0 {
            moves.extend((1..=self.numbers).filter(|pick| state & (1 << (pick - 1)) == 0));
        }
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
    fn moves(&self, &(first, end): &(u16, u16), moves: &mut Vec<bool>) {
        if first < end {
            moves.push(true);
        }
        if first + 1 < end {
            moves.push(false);
        }
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
    fn moves(&self, board: &Board, moves: &mut Vec<u32>) {
        if !board.over {
            moves.extend((0..self.width).filter(|&column| self.playable(board, column)));
        }
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
    fn moves(&self, left: &u32, moves: &mut Vec<u32>) {
        moves.extend((1..).take_while(|root| root * root <= *left));
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
    fn for_each_step(&self, left: &u32, _: &mut Vec<u32>, mut each: impl FnMut(Step<u32>) -> bool) {
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
