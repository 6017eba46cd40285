//! A memo table in one flat array, for games that implement [`DenseIndex`].

use std::mem::size_of;

use super::MemoTable;
use crate::error::{Bytes, Error};
use crate::game::{DenseIndex, Score};

/// The marker of an empty slot: never a value (see [`Score`]).
const EMPTY: Score = Score::MIN;

/// Values in a `Vec` indexed by [`DenseIndex::index`]: one memory access per lookup.
///
/// The whole index space is allocated up front, 8 bytes a slot; use
/// [`DenseTable::try_for_game`] to refuse, rather than attempt, an allocation over a budget.
///
/// ```
/// use gamesolver::{engines::exhaustive, memo::DenseTable};
///
/// use gamesolver::games::StoneGameII;
///
/// let game = StoneGameII::new(vec![1, 2, 3, 4, 5, 100]).unwrap();
/// let solution = exhaustive::solve(&game, DenseTable::for_game(&game), exhaustive::Options::new()).unwrap();
/// assert_eq!(game.alice_stones(solution.value()), 104);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DenseTable {
    values: Vec<Score>,
    stored: usize,
}

impl DenseTable {
    /// A table covering `game`'s whole index space.
    ///
    /// Allocation failure aborts, as for any `Vec`; prefer [`DenseTable::try_for_game`] when the
    /// size comes from user input.
    pub fn for_game<G: DenseIndex + ?Sized>(game: &G) -> Self {
        DenseTable {
            values: vec![EMPTY; game.index_len()],
            stored: 0,
        }
    }

    /// A table covering `game`'s whole index space, or an error if it would take more than
    /// `budget` bytes or the allocation fails.
    ///
    /// ```
    /// use gamesolver::{memo::DenseTable, Error};
    /// use gamesolver::games::StoneGameII;
    ///
    /// let game = StoneGameII::new(vec![1; 1000]).unwrap();
    /// assert!(DenseTable::try_for_game(&game, 1 << 30).is_ok());
    /// assert!(matches!(DenseTable::try_for_game(&game, 1000), Err(Error::MemoryBudget { .. })));
    /// ```
    pub fn try_for_game<G: DenseIndex + ?Sized>(game: &G, budget: u64) -> Result<Self, Error> {
        let values = empty_slots(game.index_len(), budget, "a dense memo table", || EMPTY)?;
        Ok(DenseTable { values, stored: 0 })
    }

    /// The bytes a dense table of `len` slots takes.
    ///
    /// ```
    /// assert_eq!(gamesolver::memo::DenseTable::bytes_for_len(1000), 8000);
    /// ```
    pub fn bytes_for_len(len: usize) -> u64 {
        (len as u64).saturating_mul(size_of::<Score>() as u64)
    }

    /// The number of slots.
    pub fn slots(&self) -> usize {
        self.values.len()
    }

    /// The value in slot `index`: `None` if it is empty or outside the table (no panic: the
    /// sweep turns either into the error that names the move).
    #[inline(always)]
    pub(crate) fn value_at(&self, index: usize) -> Option<Score> {
        self.values
            .get(index)
            .copied()
            .filter(|&value| value != EMPTY)
    }

    /// The slots below `end` (all of them if `end` is past the table), empty ones included.
    #[inline(always)]
    pub(crate) fn slots_below(&self, end: usize) -> &[Score] {
        &self.values[..end.min(self.values.len())]
    }

    /// Stores `value` (never `Score::MIN`) in slot `index`, as [`MemoTable::insert`] does for
    /// the state at that index; panics if `index` is outside the table.
    #[inline]
    pub(crate) fn insert_at(&mut self, index: usize, value: Score) {
        debug_assert_ne!(value, EMPTY, "Score::MIN is never a value");
        let slot = self.slot(index);
        if self.values[slot] == EMPTY {
            self.stored += 1;
        }
        self.values[slot] = value;
    }

    #[inline]
    fn slot(&self, index: usize) -> usize {
        assert!(
            index < self.values.len(),
            "DenseIndex::index returned {index}, outside 0..{} (index_len): the game's DenseIndex \
             implementation is wrong ({})",
            self.values.len(),
            Bytes(Self::bytes_for_len(self.values.len()))
        );
        index
    }
}

/// `len` empty slots of 8 bytes, or `Error::MemoryBudget` (naming `what`) if they would take more
/// than `budget` bytes or the allocation fails.
pub(super) fn empty_slots<T>(
    len: usize,
    budget: u64,
    what: &str,
    empty: impl Fn() -> T,
) -> Result<Vec<T>, Error> {
    let needed = DenseTable::bytes_for_len(len);
    let refuse = || Error::MemoryBudget {
        what: format!("{what} of {len} slots"),
        needed,
        budget,
    };
    if needed > budget {
        return Err(refuse());
    }
    let mut values = Vec::new();
    values
        .try_reserve_exact(len)
        .map_err(|_| Error::Allocation {
            what: format!("{what} of {len} slots"),
            bytes: needed,
        })?;
    values.extend((0..len).map(|_| empty()));
    Ok(values)
}

impl DenseTable {
    /// Every slot in index order: the value stored there, or `None` (for saving a table).
    ///
    /// ```
    /// use gamesolver::{engines::exhaustive, games::Nim, memo::DenseTable};
    ///
    /// let game = Nim::new(vec![1, 2]).unwrap();
    /// let solution = exhaustive::solve(&game, DenseTable::for_game(&game), exhaustive::Options::new()).unwrap();
    /// let slots: Vec<_> = solution.table().slot_values().collect();
    /// assert_eq!(slots.len(), 6);                        // (1 + 1) × (2 + 1) positions
    /// assert_eq!(slots[5], Some(1));                     // the start, 1 ^ 2 ≠ 0: won
    /// ```
    pub fn slot_values(&self) -> impl ExactSizeIterator<Item = Option<Score>> + '_ {
        self.values
            .iter()
            .map(|&value| (value != EMPTY).then_some(value))
    }

    /// Stores `value` in slot `index` (for loading a saved table). An index outside the table
    /// or a value of `Score::MIN` (never a value) is refused.
    ///
    /// ```
    /// use gamesolver::{games::Nim, memo::{DenseTable, MemoTable}};
    ///
    /// let game = Nim::new(vec![1, 2]).unwrap();
    /// let mut table = DenseTable::for_game(&game);
    /// table.set_slot(5, 1).unwrap();
    /// assert_eq!(MemoTable::<Nim>::len(&table), 1);
    /// assert!(table.set_slot(6, 1).is_err());
    /// assert!(table.set_slot(0, i64::MIN).is_err());
    /// ```
    pub fn set_slot(&mut self, index: usize, value: Score) -> Result<(), Error> {
        if value == EMPTY {
            return Err(Error::InvalidState(format!(
                "slot {index}: {value} is not a value (Score::MIN never is)"
            )));
        }
        let slots = self.values.len();
        let slot = self.values.get_mut(index).ok_or_else(|| {
            Error::InvalidState(format!("slot {index} is outside the table's {slots} slots"))
        })?;
        if *slot == EMPTY {
            self.stored += 1;
        }
        *slot = value;
        Ok(())
    }
}

impl<G: DenseIndex + ?Sized> MemoTable<G> for DenseTable {
    #[inline]
    fn get(&self, game: &G, state: &G::State) -> Option<Score> {
        let value = self.values[self.slot(game.index(state))];
        (value != EMPTY).then_some(value)
    }

    #[inline]
    fn insert(&mut self, game: &G, state: G::State, value: Score) {
        self.insert_at(game.index(&state), value);
    }

    fn len(&self) -> usize {
        self.stored
    }

    fn peak_bytes(&self, _upcoming: usize) -> u64 {
        Self::bytes_for_len(self.values.len())
    }

    fn bytes_for(&self, _states: u64) -> u64 {
        Self::bytes_for_len(self.values.len())
    }

    fn fingerprint(&self, game: &G, state: &G::State) -> Option<u64> {
        Some(game.index(state) as u64)
    }

    fn same(&self, game: &G, a: &G::State, b: &G::State) -> bool {
        game.index(a) == game.index(b)
    }
}
