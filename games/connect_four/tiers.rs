//! Connect Four in tiers: a position's rank among those with as many stones, for the tier
//! solver on small boards.

use super::{Bitboard, ConnectFour, Position};
use crate::game::{Score, Tiered};
use crate::games::ranks::{colex_rank, colex_unrank};

/// Tier `n`: the positions with `n` stones, the game over or not (those no game reaches, with
/// fours for both sides, say, are valued too, and never read). A position's rank is its column
/// heights (ranked among the ways to hold `n` stones in the columns) times the colourings of
/// `n` stones, plus which of its stones, in column order from the bottom, are the first
/// player's (a colex rank among the sets of `ceil(n / 2)` of `n`). For small boards: a tier of
/// 7×6 is far beyond any memory, and boards past 64 bits ([`ConnectFour::wide`]) have no tiers.
impl Tiered for ConnectFour {
    fn tier_count(&self) -> usize {
        (self.width * self.height) as usize + 1
    }
    fn tier(&self, position: &Position) -> usize {
        usize::from(position.stones)
    }
    fn tier_len(&self, tier: usize) -> u64 {
        self.compositions(self.width, tier)
            .saturating_mul(Self::colourings(tier))
    }
    fn rank(&self, position: &Position) -> u64 {
        let stones = usize::from(position.stones);
        let first = if stones.is_multiple_of(2) {
            position.current
        } else {
            position.mask ^ position.current
        };
        let (mut heights, mut left, mut colours, mut placed) = (0u64, stones, 0u64, 0);
        for column in 0..self.width {
            let cells = self.column_cells(column);
            let height = (position.mask & cells).count_ones() as usize;
            for below in 0..height {
                heights = heights
                    .saturating_add(self.compositions(self.width - 1 - column, left - below));
            }
            left -= height;
            let low = column * (self.height + 1);
            for row in 0..height as u32 {
                if first & u64::bit(low + row) != u64::ZERO {
                    colours |= 1 << placed;
                }
                placed += 1;
            }
        }
        heights
            .saturating_mul(Self::colourings(stones))
            .saturating_add(colex_rank(colours))
    }
    fn unrank(&self, tier: usize, rank: u64) -> Option<Position> {
        if rank >= self.tier_len(tier) {
            return None;
        }
        let colourings = Self::colourings(tier);
        let (mut heights, colouring) = (rank / colourings, rank % colourings);
        let colours = colex_unrank(tier.div_ceil(2), colouring, tier)?;
        let (mut mask, mut first, mut left, mut placed) = (u64::ZERO, u64::ZERO, tier, 0);
        for column in 0..self.width {
            let rest = self.width - 1 - column;
            let mut height = 0;
            while heights >= self.compositions(rest, left - height) {
                heights -= self.compositions(rest, left - height);
                height += 1;
                if height > left || height > self.height as usize {
                    return None; // past the last arrangement: only for saturated tiers
                }
            }
            let low = column * (self.height + 1);
            for row in 0..height as u32 {
                mask |= u64::bit(low + row);
                if colours & (1 << placed) != 0 {
                    first |= u64::bit(low + row);
                }
                placed += 1;
            }
            left -= height;
        }
        let current = if tier.is_multiple_of(2) {
            first
        } else {
            mask ^ first
        };
        Some(Position {
            current,
            mask,
            mirrored_current: self.flip(current),
            mirrored_mask: self.flip(mask),
            mine: self.winning_cells(current, mask),
            theirs: u64::MAX,
            stones: tier as u8,
            won: self.has_four(mask ^ current),
        })
    }
    fn tier_reach(&self) -> usize {
        1
    }
    fn value_bound(&self) -> Score {
        (self.cells() + 1) / 2
    }
}
