//! A lock-free dense memo table for games that implement [`DenseIndex`].

use std::sync::atomic::{AtomicI64, Ordering};

use super::dense::{empty_slots, score_bytes};
use super::{ConcurrentMemoTable, StripedCount};
use crate::error::SolveError;
use crate::game::{DenseIndex, Score};

/// The marker of an empty slot: never a value (see [`Score`]).
const EMPTY: Score = Score::MIN;

/// One `AtomicI64` per index of [`DenseIndex`]: lock-free, one memory access per lookup.
///
/// # Why races are harmless
///
/// Every access is a single atomic load or swap of one slot, so no reader ever sees a torn
/// value: it sees either [`EMPTY`](Score::MIN) — a miss, after which it computes the value
/// itself — or a whole value that some search stored. Values are exact, so two searches that
/// race to store a state store the same value, and it does not matter which write lands last.
/// No slot publishes any other data, so `Relaxed` ordering is enough. No `unsafe` is involved.
///
/// ```
/// use gamesolver::{engines::exhaustive, games::StoneGameII, memo::AtomicDenseTable};
///
/// let game = StoneGameII::new(vec![1, 2, 3, 4, 5, 100]).unwrap();
/// let table = AtomicDenseTable::for_game(&game);
/// let solution = exhaustive::par_solve(&game, &table, exhaustive::Options::new()).unwrap();
/// assert_eq!(game.alice_stones(solution.value()), 104);
/// ```
#[derive(Debug)]
pub struct AtomicDenseTable {
    values: Vec<AtomicI64>,
    /// How many slots are filled: counted as they fill, so `len` never scans.
    stored: StripedCount,
}

impl AtomicDenseTable {
    /// A table covering `game`'s whole index space (allocation failure aborts, as for `Vec`).
    pub fn for_game<G: DenseIndex + ?Sized>(game: &G) -> Self {
        AtomicDenseTable {
            values: (0..game.index_len())
                .map(|_| AtomicI64::new(EMPTY))
                .collect(),
            stored: StripedCount::default(),
        }
    }

    /// A table covering `game`'s whole index space, or an error if it would take more than
    /// `budget` bytes or the allocation fails.
    ///
    /// ```
    /// use gamesolver::{games::StoneGameII, memo::AtomicDenseTable, SolveError};
    ///
    /// let game = StoneGameII::new(vec![1; 1000]).unwrap();
    /// assert!(matches!(AtomicDenseTable::try_for_game(&game, 1000), Err(SolveError::MemoryBudget { .. })));
    /// ```
    pub fn try_for_game<G: DenseIndex + ?Sized>(game: &G, budget: u64) -> Result<Self, SolveError> {
        let what = "an atomic dense memo table";
        let len = game.index_len();
        let values = empty_slots(len, budget, (what, score_bytes(len)), || {
            AtomicI64::new(EMPTY)
        })?;
        Ok(AtomicDenseTable {
            values,
            stored: StripedCount::default(),
        })
    }

    #[inline]
    fn slot(&self, index: usize) -> &AtomicI64 {
        match self.values.get(index) {
            Some(slot) => slot,
            None => panic!(
                "DenseIndex::index returned {index}, outside 0..{} (index_len): the game's \
                 DenseIndex implementation is wrong",
                self.values.len()
            ),
        }
    }
}

impl<G: DenseIndex + ?Sized> ConcurrentMemoTable<G> for AtomicDenseTable {
    #[inline]
    fn get(&self, game: &G, state: &G::State) -> Option<Score> {
        let value = self.slot(game.index(state)).load(Ordering::Relaxed);
        (value != EMPTY).then_some(value)
    }

    #[inline]
    fn insert(&self, game: &G, state: G::State, value: Score) {
        debug_assert_ne!(value, EMPTY, "Score::MIN is never a value");
        let index = game.index(&state);
        let slot = self.slot(index);
        // Two workers may store the same state (with the same value): only the one that fills
        // the slot counts it, on its own stripe of the count.
        if slot.load(Ordering::Relaxed) == EMPTY && slot.swap(value, Ordering::Relaxed) == EMPTY {
            self.stored
                .add_one(rayon::current_thread_index().unwrap_or(index));
        } else {
            slot.store(value, Ordering::Relaxed);
        }
    }

    /// The filled slots, counted as they fill (striped, so threads rarely share a cache line):
    /// O(1), never a scan.
    fn len(&self) -> usize {
        self.stored.get()
    }

    fn peak_bytes(&self, _upcoming: usize) -> u64 {
        score_bytes(self.values.len())
    }

    fn bytes_for(&self, _states: u64) -> u64 {
        score_bytes(self.values.len())
    }

    fn fingerprint(&self, game: &G, state: &G::State) -> Option<u64> {
        Some(game.index(state) as u64)
    }

    fn same(&self, game: &G, a: &G::State, b: &G::State) -> bool {
        game.index(a) == game.index(b)
    }

    /// Every slot, in index order (read once the workers are done: a solve's table).
    fn values_by_index(&self) -> Option<super::SlotValues<'_>> {
        Some(Box::new(self.values.iter().map(|slot| {
            let value = slot.load(Ordering::Relaxed);
            (value != EMPTY).then_some(value)
        })))
    }
}
