//! Hex as a user writes it first, for the proof search's tests and bench: an N×N rhombus (N up
//! to 11), Black moving first and joining the top and bottom rows, White the left and right
//! columns. Cell (r, c) touches (r, c − 1), (r, c + 1), (r − 1, c), (r − 1, c + 1), (r + 1, c)
//! and (r + 1, c − 1). No swap rule. A full board always has a winner, so the game ends only
//! when a side connects: the side to move has then lost.

#![allow(dead_code)]

use std::collections::HashMap;

use gamesolver::{Capabilities, Declares, Game, Score, Step, Turn};

/// The board's size.
#[derive(Debug, Clone, Copy)]
pub struct Hex {
    pub size: u32,
}

/// The stones of each side (bit `row * size + column`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Stones {
    pub black: u128,
    pub white: u128,
}

impl Stones {
    /// Whether Black moves (the sides have as many stones).
    pub fn black_to_move(&self) -> bool {
        self.black.count_ones() == self.white.count_ones()
    }
}

impl Hex {
    pub fn new(size: u32) -> Hex {
        assert!((1..=11).contains(&size));
        Hex { size }
    }

    /// The position after `cells` (each `(row, column)`), played in turn from Black.
    pub fn position(&self, cells: &[(u32, u32)]) -> Stones {
        let mut stones = Stones::default();
        for (at, &(row, column)) in cells.iter().enumerate() {
            let bit = 1u128 << (row * self.size + column);
            if at % 2 == 0 {
                stones.black |= bit;
            } else {
                stones.white |= bit;
            }
        }
        stones
    }

    /// The neighbours of `cell` on the board.
    fn neighbours(&self, cell: u32) -> impl Iterator<Item = u32> + '_ {
        let n = self.size as i64;
        let (row, column) = ((cell / self.size) as i64, (cell % self.size) as i64);
        [(0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, -1)]
            .into_iter()
            .map(move |(dr, dc)| (row + dr, column + dc))
            .filter(move |&(r, c)| (0..n).contains(&r) && (0..n).contains(&c))
            .map(move |(r, c)| (r * n + c) as u32)
    }

    /// Whether `stones` join Black's edges (top and bottom rows) or, for White, the left and
    /// right columns: a flood from the first edge.
    pub fn joins(&self, stones: u128, black: bool) -> bool {
        let n = self.size;
        let on_first = |cell: u32| {
            if black {
                cell / n == 0
            } else {
                cell.is_multiple_of(n)
            }
        };
        let on_last = |cell: u32| {
            if black {
                cell / n == n - 1
            } else {
                cell % n == n - 1
            }
        };
        let mut seen = 0u128;
        let mut todo: Vec<u32> = (0..n * n)
            .filter(|&cell| stones >> cell & 1 == 1 && on_first(cell))
            .collect();
        for &cell in &todo {
            seen |= 1 << cell;
        }
        while let Some(cell) = todo.pop() {
            if on_last(cell) {
                return true;
            }
            for next in self.neighbours(cell) {
                if stones >> next & 1 == 1 && seen >> next & 1 == 0 {
                    seen |= 1 << next;
                    todo.push(next);
                }
            }
        }
        false
    }

    /// Whether the side that moved last has joined its edges.
    pub fn over(&self, stones: &Stones) -> bool {
        if stones.black_to_move() {
            self.joins(stones.white, false)
        } else {
            self.joins(stones.black, true)
        }
    }

    /// The value for the side to move by plain memoized negamax over the rules above.
    pub fn brute_force(&self, stones: &Stones) -> Score {
        fn value(hex: &Hex, stones: Stones, memo: &mut HashMap<Stones, Score>) -> Score {
            if hex.over(&stones) {
                return -1;
            }
            if let Some(&known) = memo.get(&stones) {
                return known;
            }
            let taken = stones.black | stones.white;
            let mut best = -1;
            for cell in 0..hex.size * hex.size {
                if taken >> cell & 1 == 0 {
                    let mut next = stones;
                    if stones.black_to_move() {
                        next.black |= 1 << cell;
                    } else {
                        next.white |= 1 << cell;
                    }
                    best = best.max(-value(hex, next, memo));
                    if best == 1 {
                        break;
                    }
                }
            }
            memo.insert(stones, best);
            best
        }
        value(self, *stones, &mut HashMap::new())
    }
}

impl Game for Hex {
    type State = Stones;
    type Move = u8;
    fn start(&self) -> Stones {
        Stones::default()
    }
    fn moves(&self, stones: &Stones) -> impl Iterator<Item = u8> {
        let cells = if self.over(stones) {
            0
        } else {
            self.size * self.size
        };
        let taken = stones.black | stones.white;
        (0..cells)
            .filter(move |&cell| taken >> cell & 1 == 0)
            .map(|cell| cell as u8)
    }
    fn play(&self, stones: &Stones, cell: &u8) -> Step<Stones> {
        let mut next = *stones;
        if stones.black_to_move() {
            next.black |= 1 << cell;
        } else {
            next.white |= 1 << cell;
        }
        Step {
            next,
            gain: 0,
            turn: Turn::Pass,
        }
    }
    /// The game is over: the side that just moved has joined its edges.
    fn payoff(&self, _: &Stones) -> Score {
        -1
    }
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().outcome_game()
    }
}
