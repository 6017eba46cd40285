//! LeetCode 877 "Stone Game" and LeetCode 1690 "Stone Game VII": piles in a row, and each turn
//! takes one from either end. They share the state, an interval `[left, right)` of the piles
//! still there, and differ in what a move scores.

use crate::error::Error;
use crate::game::{DenseIndex, Game, Score, Step, Turn};

/// Which end of the row a move takes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum End {
    /// The first pile left.
    Left,
    /// The last pile left.
    Right,
}

/// The piles still in the row: `piles[left..right]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Interval {
    /// The first pile left (from 0).
    pub left: u32,
    /// One past the last pile left.
    pub right: u32,
}

/// Validated piles with their prefix sums, shared by both games.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Row {
    piles: Vec<i64>,
    /// `prefix[i]` = `piles[0] + … + piles[i − 1]`.
    prefix: Vec<i64>,
}

impl Row {
    /// At least one pile, each positive, and `factor × total` within `i64` (every score the
    /// game can reach is at most that).
    fn new(game: &'static str, piles: Vec<i64>, factor: u64) -> Result<Self, Error> {
        if piles.is_empty() {
            return Err(Error::TooFew {
                game,
                unit: "pile",
                needed: 1,
                got: 0,
            });
        }
        let max = (u32::MAX - 1) as usize;
        if piles.len() > max {
            return Err(Error::TooMany {
                game,
                unit: "piles",
                max,
                got: piles.len(),
            });
        }
        if let Some(position) = piles.iter().position(|&pile| pile <= 0) {
            return Err(Error::OutOfRange {
                unit: "pile",
                position: position + 1,
                value: piles[position],
                rule: "piles must be positive integers",
            });
        }
        let mut prefix = Vec::with_capacity(piles.len() + 1);
        prefix.push(0i64);
        for (index, &pile) in piles.iter().enumerate() {
            let sum = prefix[index]
                .checked_add(pile)
                .filter(|sum| {
                    i64::try_from(factor)
                        .ok()
                        .and_then(|f| sum.checked_mul(f))
                        .is_some()
                })
                .ok_or(Error::TotalOverflow {
                    what: "the bound on the scores",
                    unit: "pile",
                    position: index + 1,
                })?;
            prefix.push(sum);
        }
        Ok(Row { piles, prefix })
    }

    fn sum(&self, left: u32, right: u32) -> i64 {
        self.prefix[right as usize] - self.prefix[left as usize]
    }

    fn moves(interval: &Interval, moves: &mut Vec<End>) {
        match interval.right - interval.left {
            0 => {}
            1 => moves.push(End::Left),
            _ => moves.extend([End::Left, End::Right]),
        }
    }

    fn next(interval: &Interval, end: End) -> Interval {
        match end {
            End::Left => Interval {
                left: interval.left + 1,
                right: interval.right,
            },
            End::Right => Interval {
                left: interval.left,
                right: interval.right - 1,
            },
        }
    }

    fn start(&self) -> Interval {
        Interval {
            left: 0,
            right: self.piles.len() as u32,
        }
    }

    fn index_len(&self) -> usize {
        (self.piles.len() + 1) * (self.piles.len() + 1)
    }

    fn index(&self, interval: &Interval) -> usize {
        interval.left as usize * (self.piles.len() + 1) + interval.right as usize
    }
}

/// LeetCode 877: take the first or last pile and score its stones. The answer is who wins
/// (LeetCode's piles are even in number with an odd total, where Alice always wins; any
/// positive piles are accepted here, so Bob can win and ties are possible).
///
/// ```
/// use gamesolver::{solve, memo::HashTable, games::StoneGame};
///
/// let game = StoneGame::new(vec![5, 3, 4, 5]).unwrap();
/// assert_eq!(solve(&game, HashTable::new()).unwrap().value(), 1); // Alice 9, Bob 8
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoneGame {
    row: Row,
}

impl StoneGame {
    /// Checks the piles: at least one, each positive, the total within `i64`.
    pub fn new(piles: Vec<i64>) -> Result<Self, Error> {
        Ok(StoneGame {
            row: Row::new("Stone Game", piles, 1)?,
        })
    }

    /// The piles.
    pub fn piles(&self) -> &[i64] {
        &self.row.piles
    }
}

impl Game for StoneGame {
    type State = Interval;
    type Move = End;
    fn start(&self) -> Interval {
        self.row.start()
    }
    fn moves(&self, interval: &Interval, moves: &mut Vec<End>) {
        Row::moves(interval, moves)
    }
    fn play(&self, interval: &Interval, end: &End) -> Step<Interval> {
        let taken = match end {
            End::Left => interval.left,
            End::Right => interval.right - 1,
        };
        Step {
            next: Row::next(interval, *end),
            gain: self.row.piles[taken as usize],
            turn: Turn::Pass,
        }
    }
    fn payoff(&self, _: &Interval) -> Score {
        0
    }
    fn state_bound(&self) -> Option<u64> {
        let n = self.row.piles.len() as u64;
        Some(n * (n + 1) / 2)
    }
}

impl DenseIndex for StoneGame {
    fn index_len(&self) -> usize {
        self.row.index_len()
    }
    fn index(&self, interval: &Interval) -> usize {
        self.row.index(interval)
    }
}

/// LeetCode 1690: remove the first or last stone and score the sum of the stones that remain.
/// The answer is Alice's score minus Bob's.
///
/// ```
/// use gamesolver::{solve, memo::HashTable, games::StoneGameVII};
///
/// let game = StoneGameVII::new(vec![5, 3, 1, 4, 2]).unwrap();
/// assert_eq!(solve(&game, HashTable::new()).unwrap().value(), 6);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoneGameVII {
    row: Row,
}

impl StoneGameVII {
    /// Checks the stones: at least one, each positive, and `n × total` within `i64` (a bound
    /// on every score).
    pub fn new(stones: Vec<i64>) -> Result<Self, Error> {
        let factor = stones.len() as u64;
        Ok(StoneGameVII {
            row: Row::new("Stone Game VII", stones, factor.max(1))?,
        })
    }

    /// The stones.
    pub fn stones(&self) -> &[i64] {
        &self.row.piles
    }
}

impl Game for StoneGameVII {
    type State = Interval;
    type Move = End;
    fn start(&self) -> Interval {
        self.row.start()
    }
    fn moves(&self, interval: &Interval, moves: &mut Vec<End>) {
        Row::moves(interval, moves)
    }
    fn play(&self, interval: &Interval, end: &End) -> Step<Interval> {
        let next = Row::next(interval, *end);
        Step {
            next,
            gain: self.row.sum(next.left, next.right),
            turn: Turn::Pass,
        }
    }
    fn payoff(&self, _: &Interval) -> Score {
        0
    }
    fn state_bound(&self) -> Option<u64> {
        let n = self.row.piles.len() as u64;
        Some(n * (n + 1) / 2)
    }
}

impl DenseIndex for StoneGameVII {
    fn index_len(&self) -> usize {
        self.row.index_len()
    }
    fn index(&self, interval: &Interval) -> usize {
        self.row.index(interval)
    }
}
