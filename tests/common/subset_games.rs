//! Games with a subset index (`Capabilities::subset_index`) for the tier solver's tests: a
//! row of tokens with holes in its index and faults to inject, and Dots and Boxes with its index
//! declared dense only (solved by tiers), to compare with its subset index.

#![allow(dead_code)]

use gamesolver::games::DotsAndBoxes;
use gamesolver::{
    Capabilities, Declares, DenseIndex, Game, Score, Step, Tiered, Turn, game::StateAt,
};

/// Tokens in a row, each with points: a move takes one token, or a token and the one to its
/// right, and gains their points; taking a token whose points are a multiple of 3 keeps the
/// turn. The state and its index are the bitmask of the tokens left, so every move leads to a
/// proper subset. With `holes`, no state holds both token 1 and the last token (their masks
/// are holes in the index); the start lacks token 1. Fault injection: taking the last token
/// puts token 0 back (`raise`), to a smaller index that is not a subset; `state_at` gives no
/// state at a mask that moves reach (`forget`).
#[derive(Debug, Clone, Default)]
pub struct Tokens {
    pub points: Vec<Score>,
    pub holes: bool,
    pub raise: bool,
    pub forget: Option<u32>,
}

impl Tokens {
    pub fn count(&self) -> u32 {
        self.points.len() as u32
    }
    pub fn last(&self) -> u32 {
        1 << (self.count() - 1)
    }
    pub fn is_state(&self, mask: u32) -> bool {
        mask < 1 << self.count() && !(self.holes && mask & 2 != 0 && mask & self.last() != 0)
    }
}

impl Game for Tokens {
    type State = u32;
    /// The first token taken, and whether its right neighbour goes too.
    type Move = (u32, bool);
    fn start(&self) -> u32 {
        let all = (1 << self.count()) - 1;
        if self.holes { all & !2 } else { all }
    }
    fn moves(&self, &mask: &u32) -> impl Iterator<Item = (u32, bool)> {
        (0..self.count())
            .filter(move |token| mask & 1 << token != 0)
            .flat_map(move |token| {
                let pair = (mask & 2 << token != 0).then_some((token, true));
                std::iter::once((token, false)).chain(pair)
            })
    }
    fn play(&self, &mask: &u32, &(token, pair): &(u32, bool)) -> Step<u32> {
        let taken = if pair { 3 << token } else { 1 << token };
        let mut next = mask & !taken;
        if self.raise && taken & self.last() != 0 {
            next |= 1;
        }
        let gain = (token..=token + u32::from(pair))
            .map(|token| self.points[token as usize])
            .sum();
        let turn = if self.points[token as usize] % 3 == 0 {
            Turn::Keep
        } else {
            Turn::Pass
        };
        Step { next, gain, turn }
    }
    fn payoff(&self, _: &u32) -> Score {
        0
    }
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().subset_index().tiers()
    }
}

impl DenseIndex for Tokens {
    fn index_len(&self) -> usize {
        1 << self.count()
    }
    fn index(&self, &mask: &u32) -> usize {
        mask as usize
    }
}

impl StateAt for Tokens {
    fn state_at(&self, index: usize) -> Option<u32> {
        let mask = u32::try_from(index).ok()?;
        (self.is_state(mask) && self.forget != Some(mask)).then_some(mask)
    }
}

/// Tier: tokens taken since the start (with holes, no state holds more tokens than the
/// start); rank: the mask (every mask of another count is a hole of the tier).
impl Tiered for Tokens {
    fn tier_count(&self) -> usize {
        self.start().count_ones() as usize + 1
    }
    fn tier(&self, mask: &u32) -> usize {
        (self.start().count_ones() - mask.count_ones()) as usize
    }
    fn tier_len(&self, _: usize) -> u64 {
        1 << self.count()
    }
    fn rank(&self, &mask: &u32) -> u64 {
        u64::from(mask)
    }
    fn unrank(&self, tier: usize, rank: u64) -> Option<u32> {
        let mask = u32::try_from(rank).ok()?;
        (self.is_state(mask) && self.tier(&mask) == tier).then_some(mask)
    }
    fn tier_reach(&self) -> usize {
        2
    }
    fn value_bound(&self) -> Score {
        self.points.iter().map(|points| points.abs()).sum()
    }
}

/// A game with its index declared dense only, not as a subset index: the tier solver values
/// its layout tier by tier.
#[derive(Debug, Clone)]
pub struct ByTiers(pub DotsAndBoxes);

impl Game for ByTiers {
    type State = u64;
    type Move = <DotsAndBoxes as Game>::Move;
    fn start(&self) -> u64 {
        self.0.start()
    }
    fn moves(&self, state: &u64) -> impl Iterator<Item = Self::Move> {
        self.0.moves(state)
    }
    fn play(&self, state: &u64, mv: &Self::Move) -> Step<u64> {
        self.0.play(state, mv)
    }
    fn payoff(&self, state: &u64) -> Score {
        self.0.payoff(state)
    }
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().dense_index().tiers()
    }
}

impl DenseIndex for ByTiers {
    fn index_len(&self) -> usize {
        self.0.index_len()
    }
    fn index(&self, state: &u64) -> usize {
        self.0.index(state)
    }
}

impl Tiered for ByTiers {
    fn tier_count(&self) -> usize {
        self.0.tier_count()
    }
    fn tier(&self, state: &u64) -> usize {
        self.0.tier(state)
    }
    fn tier_len(&self, tier: usize) -> u64 {
        self.0.tier_len(tier)
    }
    fn rank(&self, state: &u64) -> u64 {
        self.0.rank(state)
    }
    fn unrank(&self, tier: usize, rank: u64) -> Option<u64> {
        self.0.unrank(tier, rank)
    }
    fn unrank_next(&self, tier: usize, rank: u64, previous: &u64) -> Option<u64> {
        self.0.unrank_next(tier, rank, previous)
    }
    fn tier_reach(&self) -> usize {
        self.0.tier_reach()
    }
    fn value_bound(&self) -> Score {
        self.0.value_bound()
    }
}
