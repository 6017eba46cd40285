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

use super::{Chunks, Clock, Counts, TierStats};
use crate::engines::kernel::{Limits, combine};
use crate::error::SolveError;
use crate::game::{DenseIndex, Game, Score, StateAt, Tiered, declaration::OnIndex};
use crate::memo::zeroed::{Words, ZeroWord};

/// A slot of the dense layout: an atomic integer holding a value with its sign bit flipped.
pub(crate) trait Slot: ZeroWord + Send + Sync + Sized + 'static {
    /// The value held, or `None` if the slot was never written.
    fn value(&self) -> Option<Score>;
    /// The value held by a slot known to be written (one never written reads as `MIN` of the
    /// slot's width, a value no slot holds).
    fn written(&self) -> Score;
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
    /// `words` as the values of a dense solve.
    #[cfg(feature = "distributed")]
    fn values(words: Words<Self>) -> Values;
    /// The slots of `values`, if they are of this width.
    #[cfg(feature = "distributed")]
    fn words(values: &Values) -> Option<&Words<Self>>;
}

macro_rules! slots {
    ($($atomic:ty => $int:ty, $width:ident, |$raw:ident| $decode:expr;)*) => {$(
        impl Slot for $atomic {
            #[inline(always)]
            fn value(&self) -> Option<Score> {
                let $raw = self.load(Relaxed);
                ($raw != 0).then(|| $decode)
            }
            #[inline(always)]
            fn written(&self) -> Score {
                let $raw = self.load(Relaxed);
                $decode
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
            #[cfg(feature = "distributed")]
            fn values(words: Words<Self>) -> Values {
                Values::$width(words)
            }
            #[cfg(feature = "distributed")]
            fn words(values: &Values) -> Option<&Words<Self>> {
                match values {
                    Values::$width(words) => Some(words),
                    _ => None,
                }
            }
        }
    )*};
}
// A value is `raw ^ MIN`, widened. Below 64 bits that is `raw` read unsigned less `|MIN|`: one
// load that zero-extends, and a subtraction the move's sum absorbs.
slots! {
    AtomicI8 => i8, I8, |raw| Score::from(raw as u8) + Score::from(i8::MIN);
    AtomicI16 => i16, I16, |raw| Score::from(raw as u16) + Score::from(i16::MIN);
    AtomicI32 => i32, I32, |raw| Score::from(raw as u32) + Score::from(i32::MIN);
    AtomicI64 => i64, I64, |raw| raw ^ i64::MIN;
}

/// The values of a dense solve, in the width it chose.
#[derive(Debug)]
pub(crate) enum Values {
    I8(Words<AtomicI8>),
    I16(Words<AtomicI16>),
    I32(Words<AtomicI32>),
    I64(Words<AtomicI64>),
}

impl Values {
    /// The value at `index`, if it was written.
    /// How many slots there are (the game's `index_len`).
    pub(crate) fn len(&self) -> usize {
        match self {
            Values::I8(slots) => slots.len(),
            Values::I16(slots) => slots.len(),
            Values::I32(slots) => slots.len(),
            Values::I64(slots) => slots.len(),
        }
    }

    pub(crate) fn at(&self, index: usize) -> Option<Score> {
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

impl<G: Tiered, S: Chunks<G>> OnIndex<G> for Layout<'_, G, S> {
    type Output = Option<Result<Solved<G>, SolveError>>;

    fn declared(self) -> Self::Output
    where
        G: DenseIndex,
    {
        self.solve_in(ByTiers)
    }

    /// From the first tier on one thread, index by index from 0 up: the order of a
    /// hand-written sweep over bitmasks, which reads a move's value where a neighbouring state
    /// just read it (by tiers, each tier's pass reads the whole array again). From a later
    /// tier, or on more threads, by tiers.
    fn ordered(self) -> Self::Output
    where
        G: StateAt,
    {
        self.by_index(false)
    }

    /// As an ordered index, and on more threads from the first tier, by blocks of the index
    /// level by level (the `by_index` module).
    fn subsets(self) -> Self::Output
    where
        G: StateAt,
    {
        self.by_index(true)
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

impl<G: Tiered + DenseIndex, S: Chunks<G>> Layout<'_, G, S> {
    /// From the first tier by index (`subsets`: the index is a subset index), from a later
    /// one by tiers: every index `state_at` gives is valued by index, which only the first
    /// tier's states all are.
    fn by_index(self, subsets: bool) -> Option<Result<Solved<G>, SolveError>>
    where
        G: StateAt,
    {
        if self.from == 0 {
            self.solve_in(ByIndex { subsets })
        } else {
            self.solve_in(ByTiers)
        }
    }

    /// The dense solve in `order`, in the width chosen, if it fits.
    fn solve_in<O: Order<G>>(self, order: O) -> Option<Result<Solved<G>, SolveError>> {
        let len = self.game.index_len();
        if !fits(self.game, self.from, self.width, self.limits.memory_budget) {
            return None;
        }
        let solved = match self.width {
            1 => self
                .solve::<AtomicI8, O>(len, &order)
                .map(|(v, stats)| (Values::I8(v), stats)),
            2 => self
                .solve::<AtomicI16, O>(len, &order)
                .map(|(v, stats)| (Values::I16(v), stats)),
            4 => self
                .solve::<AtomicI32, O>(len, &order)
                .map(|(v, stats)| (Values::I32(v), stats)),
            _ => self
                .solve::<AtomicI64, O>(len, &order)
                .map(|(v, stats)| (Values::I64(v), stats)),
        };
        Some(solved.map(|(values, stats)| (values, stats, <G as DenseIndex>::index as IndexOf<G>)))
    }

    /// Values every tier from the last down to `from` into one array of `len` slots, in
    /// `order`.
    fn solve<A: Slot, O: Order<G>>(
        &self,
        len: usize,
        order: &O,
    ) -> Result<(Words<A>, TierStats), SolveError> {
        let values = Words::<A>::zeroed(len, "the tier solver's values by dense index")?;
        let mut stats = TierStats {
            value_bytes: self.width as usize,
            peak_bytes: self.held(),
            dense: true,
            ..TierStats::default()
        };
        order.value_all(self, &values, &mut stats)?;
        Ok((values, stats))
    }

    /// The bytes of the values.
    fn held(&self) -> u64 {
        self.game.index_len() as u64 * self.width
    }

    /// Records `done` of `of` steps (tiers or chunks of indices) in the progress, if any.
    fn record(&self, done: u64, of: u64) {
        if let Some(progress) = self.limits.progress {
            progress.record_tiers(done, of, self.held());
        }
    }
}

/// The order a dense solve values the states in.
trait Order<G: Tiered + DenseIndex> {
    /// Values every state of the tiers `layout` solves into `values`; `stats` gets the counts.
    fn value_all<A: Slot, S: Chunks<G>>(
        &self,
        layout: &Layout<'_, G, S>,
        values: &[A],
        stats: &mut TierStats,
    ) -> Result<(), SolveError>;
}

/// Tier by tier from the last back, each tier's ranks in chunks on the sweep's threads.
struct ByTiers;

impl<G: Tiered + DenseIndex> Order<G> for ByTiers {
    fn value_all<A: Slot, S: Chunks<G>>(
        &self,
        layout: &Layout<'_, G, S>,
        values: &[A],
        stats: &mut TierStats,
    ) -> Result<(), SolveError> {
        let (game, count) = (layout.game, layout.game.tier_count());
        for tier in (layout.from..count).rev() {
            let counts = layout.sweep.dense(game, tier, values, layout.clock)?;
            stats.tiers += 1;
            stats.states += counts.states;
            stats.holes += counts.holes;
            stats.moves += counts.moves;
            layout.record((count - tier) as u64, (count - layout.from) as u64);
        }
        Ok(())
    }
}

/// Index by index from 0 up on one thread, for a game whose index orders it (every move leads
/// to a smaller index): each state's moves are valued before it ([`by_index`](super::by_index));
/// on more threads, a subset index by blocks level by level, an index only ordered by tiers.
/// Every index [`state_at`](StateAt::state_at) gives is valued, so this order is taken from
/// the first tier only (where every state is one to value); an index with no state counts as
/// a hole.
struct ByIndex {
    /// Whether the index is a [subset](crate::Capabilities::subset_index) index.
    subsets: bool,
}

impl<G: Tiered + StateAt> Order<G> for ByIndex {
    fn value_all<A: Slot, S: Chunks<G>>(
        &self,
        layout: &Layout<'_, G, S>,
        values: &[A],
        stats: &mut TierStats,
    ) -> Result<(), SolveError> {
        let (progress, held) = (layout.limits.progress, layout.held());
        let record = move |done, of| {
            if let Some(progress) = progress {
                progress.record_blocks(done, of, held);
            }
        };
        let Some(counts) =
            layout
                .sweep
                .by_index(layout.game, values, self.subsets, layout.clock, &record)
        else {
            return ByTiers.value_all(layout, values, stats);
        };
        let counts = counts?;
        stats.states = counts.states;
        stats.holes = counts.holes;
        stats.moves = counts.moves;
        stats.tiers = layout.game.tier_count() - layout.from;
        Ok(())
    }
}

/// Values ranks `first..first + len` of `tier` into `values`, each from its next states'
/// values there.
pub(super) fn solve_chunk<G: Tiered + DenseIndex, A: Slot>(
    game: &G,
    tier: usize,
    (first, len): (u64, u64),
    values: &[A],
) -> Result<Counts, SolveError> {
    let mut counts = Counts::default();
    super::walk(game, tier, (first, len), &mut counts, |rank, state| {
        let read = |child| values.get(child).and_then(A::value);
        let (value, looked) = valued(game, state, read).map_err(|fault| {
            fault.error(game, &format!("rank {rank} of tier {tier}"), Valuing::Tiers)
        })?;
        store(game, state, value, values).map_err(|fault| {
            fault.error(game, &format!("rank {rank} of tier {tier}"), Valuing::Tiers)
        })?;
        Ok(looked)
    })?;
    Ok(counts)
}

/// The value of `state` from its moves' values, each read at its next state's index with
/// `read` (`None`: not valued), or its payoff if it has no moves; and how many moves it has.
#[inline(always)]
pub(super) fn valued<G: Tiered + DenseIndex>(
    game: &G,
    state: &G::State,
    read: impl Fn(usize) -> Option<Score>,
) -> Result<(Score, u64), Fault> {
    // No move yet: no move's value is `Score::MIN` (`combine` refuses it).
    let (mut best, mut looked) = (Score::MIN, 0u64);
    // What stopped the moves early, kept small (an `SolveError` in the closure's state would be
    // written back to memory at every move).
    let mut fault = None;
    game.for_each_step(state, |step| {
        looked += 1;
        let index = game.index(&step.next);
        let Some(child) = read(index) else {
            fault = Some(Fault::Unvalued(index));
            return false;
        };
        match combine(step.gain, step.turn, child) {
            Ok(value) => {
                best = best.max(value);
                true
            }
            Err(_) => {
                fault = Some(Fault::Overflow);
                false
            }
        }
    });
    match fault {
        Some(fault) => Err(fault),
        None if best == Score::MIN => Ok((game.payoff(state), looked)),
        None => Ok((best, looked)),
    }
}

/// Writes `value` to `state`'s slot in `values`; the slot's index.
#[inline(always)]
pub(super) fn store<G: Tiered + DenseIndex, A: Slot>(
    game: &G,
    state: &G::State,
    value: Score,
    values: &[A],
) -> Result<usize, Fault> {
    let index = game.index(state);
    let Some(slot) = values.get(index) else {
        return Err(Fault::Outside(index));
    };
    if slot.set(value) {
        Ok(index)
    } else {
        Err(Fault::Beyond(value))
    }
}

/// What kept a state from being valued.
#[derive(Clone, Copy)]
pub(super) enum Fault {
    /// A move leads to this dense index, which holds no value yet.
    Unvalued(usize),
    /// A move leads to this dense index, which is not a subset of the state's (for a
    /// [subset](crate::Capabilities::subset_index) index).
    NotSubset(usize),
    /// A move's value overflowed.
    Overflow,
    /// The state's own index, not below `index_len`.
    Outside(usize),
    /// The state's value, beyond the game's value bound.
    Beyond(Score),
}

/// The order the states were valued in, for an error's explanation.
#[derive(Clone, Copy)]
pub(super) enum Valuing {
    /// Tier by tier.
    Tiers,
    /// Index by index, for an [ordered](crate::Capabilities::ordered_index) index.
    Index,
    /// By blocks of a [subset](crate::Capabilities::subset_index) index.
    Subsets,
}

impl Fault {
    /// The error, for the state described by `at`, the states valued as `valuing` says.
    #[cold]
    pub(super) fn error<G: Tiered + DenseIndex>(
        self,
        game: &G,
        at: &str,
        valuing: Valuing,
    ) -> SolveError {
        let len = game.index_len();
        match self {
            Fault::Unvalued(index) => SolveError::InvalidGame(match valuing {
                Valuing::Index => format!(
                    "a move from {at} leads to dense index {index}, which holds no value yet: \
                     the game declares an ordered index (Capabilities::ordered_index), so \
                     every move must lead to a smaller index, and state_at must give every \
                     state a move reaches, below index_len = {len}"
                ),
                Valuing::Subsets => format!(
                    "a move from {at} leads to dense index {index}, which holds no value yet: \
                     the game declares a subset index (Capabilities::subset_index), so every \
                     move must lead to an index whose bits are a proper subset of the state's, \
                     and state_at must give every state a move reaches, below index_len = \
                     {len}"
                ),
                Valuing::Tiers => format!(
                    "a move from {at} leads to dense index {index}, which holds no value yet: \
                     moves must lead to a later tier, and every state of a later tier must be \
                     given by unrank at some rank, with an index below index_len = {len} \
                     (check_tiers finds such faults)"
                ),
            }),
            Fault::NotSubset(index) => SolveError::InvalidGame(format!(
                "a move from {at} leads to dense index {index}, whose bits are not a subset of \
                 the state's: the game declares a subset index (Capabilities::subset_index), so \
                 every move must lead to an index whose bits are a proper subset of the state's"
            )),
            Fault::Overflow => SolveError::ScoreOverflow,
            Fault::Outside(index) => SolveError::InvalidGame(format!(
                "{at} has dense index {index}, not below index_len = {len}"
            )),
            Fault::Beyond(value) => SolveError::InvalidGame(format!(
                "{at} has value {value}, beyond the game's value_bound() = {}",
                game.value_bound()
            )),
        }
    }
}

#[cfg(all(test, feature = "cli"))]
mod tests {
    use crate::engines::tiers::{self, solves_densely};
    use crate::games::{ConnectFour, DotsAndBoxes};
    use crate::{Limits, Tiered};

    /// Says what the solve under the same budget does.
    fn agrees<G: Tiered>(game: &G, budget: u64) -> bool {
        let dense = solves_densely(game, budget);
        let limits = Limits::with_memory_budget(budget);
        let solved = tiers::solve(game, tiers::Options::new().limits(limits)).unwrap();
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
