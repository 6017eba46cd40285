//! The tier solver's dense layout: when the game also declares a [`DenseIndex`] and one value
//! per index fits the memory budget, every tier's values live in one array indexed by the
//! game's index, not in one array per tier indexed by rank. A move's value is then one load at
//! the next state's index, with no rank computed: a hand-written sweep over bitmasks
//! (benches/cpp/dots_and_boxes.c `--tight`) runs the same way. The tiers are still solved from
//! the last back, their ranks walked with [`unrank_next`](Tiered::unrank_next) in the same
//! chunks on the same threads, so the values are the ranked layout's for every thread count.
//!
//! A slot holds its value with the sign bit flipped (`value ^ MIN`), so that the all-zero slot
//! of a freshly zeroed array is the one pattern no value has (`MIN` of the slot's width, past
//! every value bound): a move to a state not valued yet (in an earlier tier, or at an index no
//! rank gave) is an error, as a move to a tier not held is in the ranked layout. A move within
//! the tier to a state valued earlier in the same tier is not caught this way;
//! [`check_tiers`](crate::check::check_tiers) finds it. The slots are atomics (relaxed loads
//! and stores, plain moves on common hardware) because the threads of one tier write to
//! indices that interleave; each state's slot is written once, and the tiers its moves read
//! were finished before its tier began.

use std::sync::atomic::{AtomicI8, AtomicI16, AtomicI32, AtomicI64, Ordering::Relaxed};

use super::{Clock, Counts, Sweep, TierStats, beyond_bound};
use crate::engines::kernel::{Limits, combine};
use crate::error::Error;
use crate::game::{DenseIndex, Game, OnIndex, Score, Tiered};
use crate::memo::zeroed::{Words, ZeroWord};

/// A slot of the dense layout: an atomic integer holding a value with its sign bit flipped.
pub(crate) trait Slot: ZeroWord + Send + Sync + Sized + 'static {
    /// The value held, or `None` if the slot was never written.
    fn value(&self) -> Option<Score>;
    /// Writes `value`; `false` (and nothing written) if it does not fit the slot's width.
    fn set(&self, value: Score) -> bool;
    /// The integer the slot holds as it holds it (0: never written), to copy to another array.
    #[cfg(feature = "distributed")]
    fn raw(&self) -> Self::Raw;
    /// Writes what [`raw`](Slot::raw) read from another array's slot.
    #[cfg(feature = "distributed")]
    fn set_raw(&self, raw: Self::Raw);
    /// The slot's integer type.
    type Raw: Copy + Default + Send + Sync + 'static;
}

macro_rules! slots {
    ($($atomic:ty => $int:ty),*) => {$(
        impl Slot for $atomic {
            #[inline(always)]
            fn value(&self) -> Option<Score> {
                let value = self.load(Relaxed) ^ <$int>::MIN;
                (value != <$int>::MIN).then_some(Score::from(value))
            }
            #[inline(always)]
            fn set(&self, value: Score) -> bool {
                match <$int>::try_from(value) {
                    Ok(value) if value != <$int>::MIN => {
                        self.store(value ^ <$int>::MIN, Relaxed);
                        true
                    }
                    _ => false,
                }
            }
            #[cfg(feature = "distributed")]
            #[inline(always)]
            fn raw(&self) -> $int {
                self.load(Relaxed)
            }
            #[cfg(feature = "distributed")]
            #[inline(always)]
            fn set_raw(&self, raw: $int) {
                self.store(raw, Relaxed);
            }
            type Raw = $int;
        }
    )*};
}
slots!(AtomicI8 => i8, AtomicI16 => i16, AtomicI32 => i32, AtomicI64 => i64);

/// The values of a dense solve, in the width it chose.
#[derive(Debug)]
pub(super) enum Values {
    I8(Words<AtomicI8>),
    I16(Words<AtomicI16>),
    I32(Words<AtomicI32>),
    I64(Words<AtomicI64>),
}

impl Values {
    /// The value at `index`, if it was written.
    pub(super) fn at(&self, index: usize) -> Option<Score> {
        match self {
            Values::I8(slots) => slots.get(index)?.value(),
            Values::I16(slots) => slots.get(index)?.value(),
            Values::I32(slots) => slots.get(index)?.value(),
            Values::I64(slots) => slots.get(index)?.value(),
        }
    }
}

/// A game's [`DenseIndex::index`], kept by a solution whose values are laid out by it.
pub(super) type IndexOf<G> = fn(&G, &<G as Game>::State) -> usize;

/// The dense solve, if the game declares a dense index that fits (the visitor's answer):
/// `None` if it declares none, if its values pass the budget, or if the index has more than
/// twice as many places as the tiers to solve have ranks (a start deep in the game, say).
pub(super) struct Layout<'a, G: Tiered, S> {
    pub(super) game: &'a G,
    pub(super) from: usize,
    pub(super) limits: Limits,
    pub(super) width: u64,
    pub(super) sweep: &'a S,
    pub(super) clock: &'a Clock,
}

/// What a dense solve gives: its values, its counts and the index they are laid out by.
pub(super) type Solved<G> = (Values, TierStats, IndexOf<G>);

impl<G: Tiered, S: Sweep<G>> OnIndex<G> for Layout<'_, G, S> {
    type Output = Option<Result<Solved<G>, Error>>;

    fn declared(self) -> Self::Output
    where
        G: DenseIndex,
    {
        let len = self.game.index_len();
        if !fits(self.game, self.from, self.width, self.limits.memory_budget) {
            return None;
        }
        let solved = match self.width {
            1 => self
                .solve::<AtomicI8>(len)
                .map(|(v, stats)| (Values::I8(v), stats)),
            2 => self
                .solve::<AtomicI16>(len)
                .map(|(v, stats)| (Values::I16(v), stats)),
            4 => self
                .solve::<AtomicI32>(len)
                .map(|(v, stats)| (Values::I32(v), stats)),
            _ => self
                .solve::<AtomicI64>(len)
                .map(|(v, stats)| (Values::I64(v), stats)),
        };
        Some(solved.map(|(values, stats)| (values, stats, <G as DenseIndex>::index as IndexOf<G>)))
    }

    fn undeclared(self) -> Self::Output {
        None
    }
}

/// Whether a solve of `game` from tier `from`, `width` bytes a value, is laid out densely
/// under `budget`: a value per index fits it, and the index has at most twice as many places
/// as the tiers to solve have ranks.
pub(super) fn fits<G: Tiered + DenseIndex>(game: &G, from: usize, width: u64, budget: u64) -> bool {
    let len = game.index_len() as u64;
    let ranks = (from..game.tier_count())
        .map(|tier| game.tier_len(tier))
        .fold(0u64, u64::saturating_add);
    len.saturating_mul(width) <= budget && len <= ranks.saturating_mul(2)
}

/// Whether a tier solve from the start is laid out densely under a budget (the visitor's
/// answer; `false` for a game without a dense index).
#[cfg(feature = "cli")]
pub(super) struct Fits<'a, G> {
    pub(super) game: &'a G,
    pub(super) width: u64,
    pub(super) budget: u64,
}

#[cfg(feature = "cli")]
impl<G: Tiered> OnIndex<G> for Fits<'_, G> {
    type Output = bool;

    fn declared(self) -> bool
    where
        G: DenseIndex,
    {
        let from = self.game.tier(&self.game.start());
        from < self.game.tier_count() && fits(self.game, from, self.width, self.budget)
    }

    fn undeclared(self) -> bool {
        false
    }
}

impl<G: Tiered, S: Sweep<G>> Layout<'_, G, S> {
    /// Values every tier from the last down to `from` into one array of `len` slots.
    fn solve<A: Slot>(&self, len: usize) -> Result<(Words<A>, TierStats), Error>
    where
        G: DenseIndex,
    {
        let (game, count) = (self.game, self.game.tier_count());
        let values = Words::<A>::zeroed(len, "the tier solver's values by dense index")?;
        let held = len as u64 * self.width;
        let mut stats = TierStats {
            value_bytes: self.width as usize,
            peak_bytes: held,
            dense: true,
            ..TierStats::default()
        };
        for tier in (self.from..count).rev() {
            let counts = self.sweep.dense(game, tier, &values, self.clock)?;
            stats.tiers += 1;
            stats.states += counts.states;
            stats.holes += counts.holes;
            stats.moves += counts.moves;
            if let Some(progress) = self.limits.progress {
                let total = (count - self.from) as u64;
                progress.record_tiers((count - tier) as u64, total, held);
            }
        }
        Ok((values, stats))
    }
}

/// Values ranks `first..first + len` of `tier` into `values`, each from its next states'
/// values there.
pub(super) fn solve_chunk<G: Tiered + DenseIndex, A: Slot>(
    game: &G,
    tier: usize,
    (first, len): (u64, u64),
    values: &[A],
    moves: &mut Vec<G::Move>,
) -> Result<Counts, Error> {
    let mut counts = Counts::default();
    super::walk(game, tier, (first, len), &mut counts, |rank, state| {
        let (mut best, mut looked) = (Score::MIN, 0u64);
        let mut fault: Option<Result<usize, Error>> = None;
        game.for_each_step(state, moves, |step| {
            looked += 1;
            let index = game.index(&step.next);
            let Some(child) = values.get(index).and_then(A::value) else {
                fault = Some(Ok(index));
                return false;
            };
            match combine(step.gain, step.turn, child) {
                Ok(value) => {
                    best = best.max(value);
                    true
                }
                Err(error) => {
                    fault = Some(Err(error));
                    false
                }
            }
        });
        match fault {
            Some(Ok(index)) => return Err(unvalued(game, tier, rank, index)),
            Some(Err(error)) => return Err(error),
            None => {}
        }
        let value = if looked == 0 {
            game.payoff(state)
        } else {
            best
        };
        let index = game.index(state);
        let Some(slot) = values.get(index) else {
            return Err(Error::InvalidGame(format!(
                "rank {rank} of tier {tier} has dense index {index}, not below index_len = {}",
                values.len()
            )));
        };
        if !slot.set(value) {
            return Err(beyond_bound(game, tier, rank, value));
        }
        Ok(looked)
    })?;
    Ok(counts)
}

/// The error for a move to a state not valued yet.
#[cold]
fn unvalued<G: Tiered + DenseIndex>(game: &G, tier: usize, rank: u64, index: usize) -> Error {
    Error::InvalidGame(format!(
        "a move from tier {tier} (rank {rank}) leads to dense index {index}, which holds no \
         value yet: moves must lead to a later tier, and every state of a later tier must be \
         given by unrank at some rank, with an index below index_len = {} (check_tiers finds \
         such faults)",
        game.index_len()
    ))
}

#[cfg(all(test, feature = "cli"))]
mod tests {
    use crate::engines::tiers::{KeepTiers, solves_densely, tier_solve_with};
    use crate::games::{ConnectFour, DotsAndBoxes};
    use crate::{Limits, Tiered};

    /// Says what the solve under the same budget does.
    fn agrees<G: Tiered>(game: &G, budget: u64) -> bool {
        let dense = solves_densely(game, budget);
        let limits = Limits::with_memory_budget(budget);
        let solved = tier_solve_with(game, limits, KeepTiers::Needed).unwrap();
        assert_eq!(solved.stats().dense, dense, "budget {budget}");
        dense
    }

    #[test]
    fn the_forecast_knows_which_layout_a_solve_takes() {
        let game = DotsAndBoxes::new(2, 2).unwrap(); // 4096 boards, a byte each
        assert!(agrees(&game, 4096));
        assert!(!agrees(&game, 4095));
        // A game without a dense index (Connect Four declares none) is solved by rank.
        let board = ConnectFour::new(4, 4).unwrap();
        assert!(!agrees(&board, u64::MAX));
    }
}
