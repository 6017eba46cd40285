//! A take-away game: `counters` counters, a move takes 1, 3 or 4 of them, and whoever takes the
//! last one wins. Written as a newcomer writes it: the counters left as the state and as its
//! dense index, declared an outcome game.

use gamesolver::{Capabilities, Declares, DenseIndex, Game, Score, Step, Turn};

/// The take-away game from `counters`.
#[derive(Debug, Clone, Copy)]
pub struct TakeAway {
    /// Counters at the start.
    pub counters: u32,
}

/// What a move may take.
pub const TAKES: [u32; 3] = [1, 3, 4];

impl Game for TakeAway {
    /// Counters left.
    type State = u32;
    /// Counters taken.
    type Move = u32;

    fn start(&self) -> u32 {
        self.counters
    }

    fn moves(&self, left: &u32) -> impl Iterator<Item = u32> {
        let left = *left;
        TAKES.into_iter().filter(move |&take| take <= left)
    }

    fn play(&self, left: &u32, take: &u32) -> Step<u32> {
        Step {
            next: left - take,
            gain: 0,
            turn: Turn::Pass,
        }
    }

    /// No counter left: the other side took the last one.
    fn payoff(&self, _left: &u32) -> Score {
        -1
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().dense_index().outcome_game()
    }
}

impl DenseIndex for TakeAway {
    fn index_len(&self) -> usize {
        self.counters as usize + 1
    }

    fn index(&self, left: &u32) -> usize {
        *left as usize
    }
}

/// The closed form (the periodic losing positions of the subtraction game {1, 3, 4}): the side
/// to move loses exactly when the counters are 0 or 2 modulo 7.
pub fn by_hand(counters: u32) -> Score {
    if matches!(counters % 7, 0 | 2) { -1 } else { 1 }
}
