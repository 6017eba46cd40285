//! The order in which an open state's moves are searched: by gain, then the table's move.

use super::{Looked, Search};
use crate::game::{Game, Turn};

impl<G: Game> Search<G> {
    /// Orders the top frame's moves by what they gain at once, most first, and among equal
    /// gains the moves that keep the turn first (a capture, an extra turn: the moves that most
    /// often decide a score game), the game's order kept among equals. Nothing moves in a game
    /// whose moves gain nothing.
    pub(super) fn greediest_first(&mut self) {
        let top = self.frames.len() - 1;
        let start = self.frames[top].next_move;
        let end = self.moves.len();
        let key = |slot: &Option<Looked<G::State>>| {
            slot.as_ref().map_or((0, false), |(step, _, _)| {
                (step.gain, step.turn == Turn::Keep)
            })
        };
        let steps = &self.steps[start..end];
        if steps.len() < 2 || steps.iter().all(|slot| key(slot) == key(&steps[0])) {
            return;
        }
        let mut by = std::mem::take(&mut self.permutation);
        by.clear();
        by.extend(0..steps.len());
        by.sort_by_key(|&at| std::cmp::Reverse(key(&steps[at])));
        // Applied by swaps: position `at` takes what was at `by[at]`, found where earlier
        // swaps moved it.
        for at in 0..by.len() {
            let mut from = by[at];
            while from < at {
                from = by[from];
            }
            if from != at {
                self.swap_moves(start + at, start + from);
            }
        }
        self.permutation = by;
    }

    /// Moves the top frame's move whose index in the game's order is `best` (the table's best
    /// move of the state: the one that was best, or cut the search off, when it was last
    /// searched) ahead of its other moves, if the look at the children kept it. The others keep
    /// their order. A state searched again (the driver's next window, an iteration of the
    /// parallel engine) then tries first the move most likely to decide it.
    pub(super) fn search_first(&mut self, best: u32) {
        let top = self.frames.len() - 1;
        let start = self.frames[top].next_move;
        let end = self.moves.len();
        if let Some(found) = self.order[start..end]
            .iter()
            .position(|&index| index == best)
        {
            for at in (start..start + found).rev() {
                self.swap_moves(at, at + 1);
            }
        }
    }

    /// Swaps the moves at `a` and `b` of the open states' buffers (each move with its index in
    /// the game's order and its step).
    #[inline]
    fn swap_moves(&mut self, a: usize, b: usize) {
        self.moves.swap(a, b);
        self.order.swap(a, b);
        self.steps.swap(a, b);
    }
}
