//! A memo table in one flat array, for games that implement [`DenseIndex`].

use std::mem::size_of;

use super::MemoTable;
use crate::error::{Bytes, SolveError};
use crate::game::{DenseIndex, Score};

/// The marker of an empty slot: never a value (see [`Score`]).
const EMPTY: Score = Score::MIN;

/// The marker of an empty slot while the slots are bytes.
const EMPTY_BYTE: i8 = i8::MIN;

/// Values in a flat array indexed by [`DenseIndex::index`]: one memory access per lookup.
///
/// The whole index space is allocated up front. A slot takes one byte while every value stored
/// fits in one (−127..=127: outcome games, small scores), so that the table takes an eighth of
/// the memory and of the cache; the first value that does not fit widens every slot to 8 bytes
/// (at that moment both arrays are held: 9 bytes a slot, what [`DenseTable::bytes_for_len`]
/// counts). Use [`DenseTable::try_for_game`] to refuse, rather than attempt, an allocation over
/// a budget.
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
#[derive(Debug, Clone)]
pub struct DenseTable {
    cells: Cells,
    stored: usize,
}

/// A dense table's slots: bytes while every value fits in one, then scores.
#[derive(Debug, Clone)]
pub(crate) enum Cells {
    /// One byte a slot; [`EMPTY_BYTE`] is an empty slot.
    Bytes(Vec<i8>),
    /// A score a slot; [`EMPTY`] is an empty slot.
    Scores(Vec<Score>),
}

/// A slot's type: a byte or a score, with its empty marker.
pub(crate) trait Cell: Copy + PartialEq {
    /// The marker of an empty slot.
    const EMPTY: Self;
    /// The value a non-empty slot holds.
    fn score(self) -> Score;
}

impl Cell for i8 {
    const EMPTY: i8 = EMPTY_BYTE;
    #[inline(always)]
    fn score(self) -> Score {
        Score::from(self)
    }
}

impl Cell for Score {
    const EMPTY: Score = EMPTY;
    #[inline(always)]
    fn score(self) -> Score {
        self
    }
}

/// Two tables are equal when they hold the same value in every slot, whatever their width.
impl PartialEq for DenseTable {
    fn eq(&self, other: &Self) -> bool {
        self.stored == other.stored && self.slot_values().eq(other.slot_values())
    }
}

impl Eq for DenseTable {}

impl DenseTable {
    /// A table covering `game`'s whole index space.
    ///
    /// Allocation failure aborts, as for any `Vec`; prefer [`DenseTable::try_for_game`] when the
    /// size comes from user input.
    pub fn for_game<G: DenseIndex + ?Sized>(game: &G) -> Self {
        DenseTable {
            cells: Cells::Bytes(vec![EMPTY_BYTE; game.index_len()]),
            stored: 0,
        }
    }

    /// A table covering `game`'s whole index space, or an error if it would take more than
    /// `budget` bytes or the allocation fails.
    ///
    /// ```
    /// use gamesolver::{memo::DenseTable, SolveError};
    /// use gamesolver::games::StoneGameII;
    ///
    /// let game = StoneGameII::new(vec![1; 1000]).unwrap();
    /// assert!(DenseTable::try_for_game(&game, 1 << 30).is_ok());
    /// assert!(matches!(DenseTable::try_for_game(&game, 1000), Err(SolveError::MemoryBudget { .. })));
    /// ```
    pub fn try_for_game<G: DenseIndex + ?Sized>(game: &G, budget: u64) -> Result<Self, SolveError> {
        let len = game.index_len();
        let what = ("a dense memo table", Self::bytes_for_len(len));
        let values = empty_slots(len, budget, what, || EMPTY_BYTE)?;
        Ok(DenseTable {
            cells: Cells::Bytes(values),
            stored: 0,
        })
    }

    /// The most bytes a dense table of `len` slots takes: a byte a slot, and 8 more once a
    /// value needs them (both arrays are held while the slots widen).
    ///
    /// ```
    /// assert_eq!(gamesolver::memo::DenseTable::bytes_for_len(1000), 9000);
    /// ```
    pub fn bytes_for_len(len: usize) -> u64 {
        (len as u64).saturating_add(score_bytes(len))
    }

    /// The bytes the table holds now: a byte a slot, or 8 once widened.
    ///
    /// ```
    /// use gamesolver::{games::Nim, memo::{DenseTable, MemoTable}};
    ///
    /// let game = Nim::new(vec![3, 4]).unwrap();              // 20 slots
    /// let mut table = DenseTable::for_game(&game);
    /// assert_eq!(table.bytes(), 20);
    /// table.set_slot(0, -1).unwrap();
    /// assert_eq!(table.bytes(), 20);
    /// table.set_slot(1, 1000).unwrap();                      // does not fit in a byte
    /// assert_eq!(table.bytes(), 160);
    /// assert_eq!(table.slot_values().take(2).collect::<Vec<_>>(), [Some(-1), Some(1000)]);
    /// ```
    pub fn bytes(&self) -> u64 {
        match &self.cells {
            Cells::Bytes(cells) => cells.len() as u64,
            Cells::Scores(cells) => score_bytes(cells.len()),
        }
    }

    /// The number of slots.
    pub fn slots(&self) -> usize {
        match &self.cells {
            Cells::Bytes(cells) => cells.len(),
            Cells::Scores(cells) => cells.len(),
        }
    }

    /// The slots, in their present width.
    #[inline(always)]
    pub(crate) fn cells(&self) -> &Cells {
        &self.cells
    }

    /// The value in slot `index`: `None` if it is empty or outside the table (no panic: the
    /// sweep turns either into the error that names the move).
    #[inline(always)]
    pub(crate) fn value_at(&self, index: usize) -> Option<Score> {
        match &self.cells {
            Cells::Bytes(cells) => read(cells, index),
            Cells::Scores(cells) => read(cells, index),
        }
        .flatten()
    }

    /// Stores `value` (never `Score::MIN`) in slot `index`, as [`MemoTable::insert`] does for
    /// the state at that index; panics if `index` is outside the table.
    #[inline]
    pub(crate) fn insert_at(&mut self, index: usize, value: Score) {
        debug_assert_ne!(value, EMPTY, "Score::MIN is never a value");
        let slot = self.slot(index);
        let was_empty = match &mut self.cells {
            Cells::Scores(cells) => std::mem::replace(&mut cells[slot], value) == EMPTY,
            Cells::Bytes(cells) => match i8::try_from(value) {
                Ok(byte) if byte != EMPTY_BYTE => {
                    std::mem::replace(&mut cells[slot], byte) == EMPTY_BYTE
                }
                _ => {
                    let was_empty = cells[slot] == EMPTY_BYTE;
                    self.widen()[slot] = value;
                    was_empty
                }
            },
        };
        self.stored += usize::from(was_empty);
    }

    /// Every slot as a score from now on (a value did not fit in a byte); the wide slots.
    #[cold]
    #[inline(never)]
    fn widen(&mut self) -> &mut Vec<Score> {
        if let Cells::Bytes(cells) = &self.cells {
            let scores = cells
                .iter()
                .map(|&cell| {
                    if cell == EMPTY_BYTE {
                        EMPTY
                    } else {
                        cell.score()
                    }
                })
                .collect();
            self.cells = Cells::Scores(scores);
        }
        match &mut self.cells {
            Cells::Scores(cells) => cells,
            Cells::Bytes(_) => unreachable!("the slots were widened above"),
        }
    }

    #[inline]
    fn slot(&self, index: usize) -> usize {
        if index >= self.slots() {
            self.outside(index);
        }
        index
    }

    /// The panic for an index outside the table: the game's `DenseIndex` is wrong.
    #[cold]
    #[inline(never)]
    fn outside(&self, index: usize) -> ! {
        let slots = self.slots();
        panic!(
            "DenseIndex::index returned {index}, outside 0..{slots} (index_len): the game's \
             DenseIndex implementation is wrong ({})",
            Bytes(Self::bytes_for_len(slots))
        )
    }
}

/// The bytes of `len` slots of 8 bytes.
pub(super) fn score_bytes(len: usize) -> u64 {
    (len as u64).saturating_mul(size_of::<Score>() as u64)
}

/// What `cells[index]` holds: `None` outside the table, `Some(None)` for an empty slot.
#[inline(always)]
fn read<C: Cell>(cells: &[C], index: usize) -> Option<Option<Score>> {
    let cell = *cells.get(index)?;
    Some((cell != C::EMPTY).then(|| cell.score()))
}

/// `len` empty slots, or `SolveError::MemoryBudget` (naming `what`) if the table would take more than
/// `budget` bytes (`needed`) or the allocation fails.
pub(super) fn empty_slots<T>(
    len: usize,
    budget: u64,
    (what, needed): (&str, u64),
    empty: impl Fn() -> T,
) -> Result<Vec<T>, SolveError> {
    let refuse = || SolveError::MemoryBudget {
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
        .map_err(|_| SolveError::Allocation {
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
        let slots = self.slots();
        (0..slots).map(|index| self.value_at(index))
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
    pub fn set_slot(&mut self, index: usize, value: Score) -> Result<(), SolveError> {
        if value == EMPTY {
            return Err(SolveError::InvalidState(format!(
                "slot {index}: {value} is not a value (Score::MIN never is)"
            )));
        }
        let slots = self.slots();
        if index >= slots {
            return Err(SolveError::InvalidState(format!(
                "slot {index} is outside the table's {slots} slots"
            )));
        }
        self.insert_at(index, value);
        Ok(())
    }
}

impl<G: DenseIndex + ?Sized> MemoTable<G> for DenseTable {
    #[inline]
    fn get(&self, game: &G, state: &G::State) -> Option<Score> {
        // One match and one bounds check a probe (the engines' hot loop).
        let index = game.index(state);
        let read = match &self.cells {
            Cells::Bytes(cells) => read(cells, index),
            Cells::Scores(cells) => read(cells, index),
        };
        read.unwrap_or_else(|| self.outside(index))
    }

    #[inline]
    fn insert(&mut self, game: &G, state: G::State, value: Score) {
        self.insert_at(game.index(&state), value);
    }

    fn len(&self) -> usize {
        self.stored
    }

    /// The table's bytes now, and while it holds bytes, the 8 a slot that widening would add.
    fn peak_bytes(&self, _upcoming: usize) -> u64 {
        match &self.cells {
            Cells::Bytes(cells) => Self::bytes_for_len(cells.len()),
            Cells::Scores(_) => self.bytes(),
        }
    }

    fn bytes_for(&self, _states: u64) -> u64 {
        MemoTable::<G>::peak_bytes(self, 0)
    }

    fn fingerprint(&self, game: &G, state: &G::State) -> Option<u64> {
        Some(game.index(state) as u64)
    }

    fn same(&self, game: &G, a: &G::State, b: &G::State) -> bool {
        game.index(a) == game.index(b)
    }

    /// Every slot, in index order ([`DenseTable::slot_values`]).
    fn values_by_index(&self) -> Option<super::SlotValues<'_>> {
        Some(Box::new(self.slot_values()))
    }
}
