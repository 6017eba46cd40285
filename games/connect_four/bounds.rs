//! What Connect Four knows of a position's value without search: its [`ValueRange`], from
//! how soon either side can win, whether either can still make four, and the second player's
//! claimeven.

use super::{Bitboard, ConnectFour, Position, at_height};
use crate::ValueRange;
use crate::game::Score;

impl<B: Bitboard> ConnectFour<B> {
    /// The cells at which a four of `set` starts along `shift` (the four: that cell and the next
    /// three along it), for the four directions' shifts `1`, `H + 1`, `H` and `H + 2`.
    #[inline]
    fn fours_along(&self, set: B, shift: u32) -> B {
        let pairs = set & set.down(shift);
        pairs & pairs.down(2 * shift)
    }

    /// Whether `set` holds four in a row in any direction.
    #[inline]
    fn any_four(&self, set: B) -> bool {
        at_height(self.height, |h| {
            [1, h + 1, h, h + 2]
                .into_iter()
                .any(|shift| self.fours_along(set, shift) != B::ZERO)
        })
    }

    /// An upper bound on the value of `position` for the side to move (the first player, with
    /// an even number of stones on a board of even height) from the second player's claimeven:
    /// answering every stone on an odd row (counted from 1 at the bottom) with one on top of it,
    /// and a stone on an even row (the lowest empty cell of a column holding an odd number of
    /// stones; such columns come in pairs) with the lowest cell of another such column, the
    /// second player gets every empty cell of an even row that cannot be played now. If the
    /// first player has no four in what is left, it cannot win (at most 0); if the second has
    /// a four in what it gets, the first loses, at the latest when the four's highest empty
    /// cell, on row `t`, is filled with every other column full: `(H − t + 2) / 2` for the
    /// second player. `None` when the strategy says nothing (an odd height or number of stones,
    /// or a four the first player might still make).
    ///
    /// ```
    /// use gamesolver::{ValueRange, games::ConnectFour};
    ///
    /// let game = ConnectFour::new(7, 6).unwrap();
    /// // On the empty board the first player's odd rows hold fours: nothing to say.
    /// assert_eq!(game.claimeven_bound(&game.position("").unwrap()), None);
    /// // Here what claimeven gives the second player holds a four, and what is left to the
    /// // first none: the first loses, by 2 at least (the exact value is -3).
    /// let position = game.position("211522553652434562").unwrap();
    /// assert_eq!(game.claimeven_bound(&position), Some(-2));
    /// assert!(game.value_range(&position).1 <= -2);
    /// ```
    pub fn claimeven_bound(&self, position: &Position<B>) -> Option<Score> {
        let h = self.height;
        if !h.is_multiple_of(2) || !position.stones.is_multiple_of(2) {
            return None;
        }
        let empty = self.board & !position.mask;
        let later_evens = empty & self.even_rows & !self.playable(position.mask);
        let theirs = (position.current ^ position.mask) | later_evens;
        if self.any_four(self.board & !theirs) {
            return None;
        }
        // The row (from 1) of a four's highest empty cell decides how late the game can end.
        let magnitude = |row: u32| Score::from((h - row + 2) / 2);
        let across = self.fours_along(theirs, h + 1);
        // A four across has its cells on one row: the lowest such row ends the game first.
        let mut worst = (0..h)
            .find(|&row| across & (self.bottom << row) != B::ZERO)
            .map(|row| magnitude(row + 1));
        let mut slanted_cells = B::ZERO;
        for shift in [1, h, h + 2] {
            let starts = self.fours_along(theirs, shift);
            for step in 0..4 {
                slanted_cells |= starts.up(step * shift);
            }
        }
        slanted_cells &= empty;
        // Any other four is complete by the time its highest empty cell is: the highest of
        // them all bounds every one of them.
        if let Some(row) = (0..h)
            .rev()
            .find(|&row| slanted_cells & (self.bottom << row) != B::ZERO)
        {
            worst = worst.max(Some(magnitude(row + 1)));
        }
        Some(worst.map_or(0, |magnitude| -magnitude))
    }
}

impl<B: Bitboard> ValueRange for ConnectFour<B> {
    /// The side to move cannot win with its next stone (else the value is known), and, having a
    /// move that does not lose at once, cannot lose before the opponent's second stone. A side
    /// that cannot make four whatever it gets of the empty cells cannot win. And on a board of
    /// even height, with an even number of stones, the second player's *claimeven* bounds the
    /// first ([`claimeven_bound`](ConnectFour::claimeven_bound)).
    #[inline]
    fn value_range(&self, position: &Position<B>) -> (Score, Score) {
        let stones = Score::from(position.stones);
        let mut low = -(self.cells() - 2 - stones) / 2;
        let mut high = (self.cells() - 1 - stones) / 2;
        let empty = self.board & !position.mask;
        let theirs = position.current ^ position.mask;
        if !self.any_four(position.current | empty) {
            high = high.min(0);
        }
        if !self.any_four(theirs | empty) {
            low = low.max(0);
        }
        if let Some(bound) = self.claimeven_bound(position) {
            high = high.min(bound);
        }
        (low, high)
    }
}
