//! Kalah with `pits` pits a side and `seeds` seeds in each at the start, written as a newcomer
//! writes it from docs/adding-a-game.md: the pits in the state, the seeds a move puts in the
//! mover's store as its gain, an extra turn when the last seed lands in the store, and a value
//! range of the seeds still on the board.
//!
//! The rules (Irving, Donkers and Uiterwijk, "Solving Kalah", 2000): a move takes every seed
//! of one of the mover's pits and sows them one by one counter-clockwise into the next pits,
//! the mover's store included and the opponent's store skipped. A last seed in the mover's
//! store gives another turn. A last seed in an empty pit of the mover's captures it and the
//! seeds of the pit opposite (only when that pit holds seeds, unless `empty_capture`). When the
//! side to move has no seed in its pits the game ends and the other side's seeds go to its own
//! store. The value is the first player's store minus the second's.

use gamesolver::{Capabilities, Declares, Game, Score, Step, Turn, ValueRange};

/// The most pits a side.
pub const MOST_PITS: usize = 8;

/// The rules of one Kalah.
#[derive(Debug, Clone, Copy)]
pub struct Kalah {
    /// Pits a side.
    pub pits: usize,
    /// Seeds in each pit at the start.
    pub seeds: u8,
    /// Whether a last seed in an empty pit captures even when the pit opposite is empty.
    pub empty_capture: bool,
}

/// A position: the pits of the side to move (0..pits), then the other side's (pits..2·pits),
/// each row in sowing order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pits(pub [u8; 2 * MOST_PITS]);

impl Kalah {
    /// Kalah(pits, seeds) with captures only of a non-empty opposite pit.
    pub fn new(pits: usize, seeds: u8) -> Self {
        assert!((1..=MOST_PITS).contains(&pits) && seeds >= 1);
        Kalah {
            pits,
            seeds,
            empty_capture: false,
        }
    }

    fn seeds_on_board(&self, pits: &Pits) -> Score {
        pits.0[..2 * self.pits]
            .iter()
            .map(|&s| Score::from(s))
            .sum()
    }

    /// The position as the other side sees it.
    fn turned(&self, pits: &Pits) -> Pits {
        let mut turned = Pits([0; 2 * MOST_PITS]);
        turned.0[..self.pits].copy_from_slice(&pits.0[self.pits..2 * self.pits]);
        turned.0[self.pits..2 * self.pits].copy_from_slice(&pits.0[..self.pits]);
        turned
    }
}

impl Game for Kalah {
    type State = Pits;
    /// The pit the mover empties (0 is the pit furthest from the mover's store).
    type Move = u8;

    fn start(&self) -> Pits {
        let mut pits = Pits([0; 2 * MOST_PITS]);
        pits.0[..2 * self.pits].fill(self.seeds);
        pits
    }

    fn moves(&self, pits: &Pits) -> impl Iterator<Item = u8> {
        let pits = *pits;
        // No move once either side is empty: the game is over.
        let over = pits.0[..self.pits].iter().all(|&s| s == 0)
            || pits.0[self.pits..2 * self.pits].iter().all(|&s| s == 0);
        // The pits nearest the store first: they are the ones whose seeds reach it (an
        // extra turn), the guide's "likely winners first".
        (0..self.pits as u8)
            .rev()
            .filter(move |&pit| !over && pits.0[pit as usize] > 0)
    }

    fn play(&self, pits: &Pits, pit: &u8) -> Step<Pits> {
        let n = self.pits;
        // Positions around the board from the mover's side: 0..n the mover's pits, n the
        // mover's store, n+1..2n+1 the other's pits.
        let mut board = *pits;
        let mut hand = board.0[*pit as usize];
        board.0[*pit as usize] = 0;
        let mut at = *pit as usize;
        let mut gain: Score = 0;
        let mut last_in_store = false;
        while hand > 0 {
            at = (at + 1) % (2 * n + 1);
            hand -= 1;
            if at == n {
                gain += 1;
                last_in_store = hand == 0;
            } else {
                let index = if at < n { at } else { at - 1 };
                board.0[index] += 1;
                if hand == 0 && at < n && board.0[index] == 1 {
                    let opposite = 2 * n - 1 - index;
                    if board.0[opposite] > 0 || self.empty_capture {
                        gain += 1 + Score::from(board.0[opposite]);
                        board.0[index] = 0;
                        board.0[opposite] = 0;
                    }
                }
            }
        }
        if last_in_store {
            Step {
                next: board,
                gain,
                turn: Turn::Keep,
            }
        } else {
            Step {
                next: self.turned(&board),
                gain,
                turn: Turn::Pass,
            }
        }
    }

    /// The game is over: each side's seeds go to its own store.
    fn payoff(&self, pits: &Pits) -> Score {
        let mine: Score = pits.0[..self.pits].iter().map(|&s| Score::from(s)).sum();
        mine - (self.seeds_on_board(pits) - mine)
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().value_range()
    }
}

/// The seeds on the board are all the points still to share.
impl ValueRange for Kalah {
    fn value_range(&self, pits: &Pits) -> (Score, Score) {
        let left = self.seeds_on_board(pits);
        (-left, left)
    }
}

/// The literal rules on a board of 2·pits + 2 holes with both stores, searched by plain
/// minimax with no memo: the oracle (the first player's store minus the second's, from the
/// start).
pub fn by_hand(pits: usize, seeds: u8, empty_capture: bool) -> Score {
    // Holes 0..pits South's pits, pits South's store, pits+1..2pits+1 North's pits,
    // 2pits+1 North's store.
    fn value(board: &mut Vec<i32>, pits: usize, south: bool, empty: bool) -> i32 {
        let holes = 2 * pits + 2;
        let (own, store, other_store) = if south {
            (0..pits, pits, holes - 1)
        } else {
            (pits + 1..2 * pits + 1, holes - 1, pits)
        };
        let south_empty = board[..pits].iter().all(|&s| s == 0);
        let north_empty = board[pits + 1..2 * pits + 1].iter().all(|&s| s == 0);
        if south_empty || north_empty {
            let south_total = board[pits] + board[..pits].iter().sum::<i32>();
            let north_total = board[holes - 1] + board[pits + 1..2 * pits + 1].iter().sum::<i32>();
            return south_total - north_total;
        }
        let mut outcomes = Vec::new();
        for pit in own.clone() {
            if board[pit] == 0 {
                continue;
            }
            let saved = board.clone();
            let mut hand = board[pit];
            board[pit] = 0;
            let mut at = pit;
            while hand > 0 {
                at = (at + 1) % holes;
                if at == other_store {
                    continue;
                }
                board[at] += 1;
                hand -= 1;
            }
            let again = at == store;
            if !again && own.contains(&at) && board[at] == 1 {
                let opposite = 2 * pits - at;
                if board[opposite] > 0 || empty {
                    board[store] += board[opposite] + 1;
                    board[at] = 0;
                    board[opposite] = 0;
                }
            }
            let next_south = if again { south } else { !south };
            outcomes.push(value(board, pits, next_south, empty));
            *board = saved;
        }
        if south {
            outcomes.into_iter().max().unwrap()
        } else {
            outcomes.into_iter().min().unwrap()
        }
    }
    let mut board = vec![seeds as i32; 2 * pits + 2];
    board[pits] = 0;
    board[2 * pits + 1] = 0;
    value(&mut board, pits, true, empty_capture).into()
}
