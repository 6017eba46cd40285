//! Tables that many searches share at once.

use super::{MemoTable, SlotValues};
use crate::game::{Game, Score};

/// A memo table that many threads read and write at once (`&self` insert, `Sync`), for
/// [`par_solve`](crate::engines::exhaustive::par_solve).
///
/// Values go in and come out by copy: no guard or reference into the table ever outlives a
/// call, so a search can never hold a lock while it recurses (the way DashMap deadlocks, when a
/// shard lock is held across a re-entrant insert). Two threads may store the same state at
/// the same moment; since values are exact, they store the same value, and either write may
/// win.
///
/// Every concurrent table also serves the sequential engine: `&table` is a [`MemoTable`]
/// through one blanket implementation, so `solve(&game, &table)` works.
pub trait ConcurrentMemoTable<G: Game + ?Sized>: Sync {
    /// The stored value of `state`, if any.
    fn get(&self, game: &G, state: &G::State) -> Option<Score>;

    /// Stores `value` as the value of `state`. `value` is never `Score::MIN`.
    fn insert(&self, game: &G, state: G::State, value: Score);

    /// How many states are stored (may take time proportional to the table; a snapshot while
    /// other threads insert).
    fn len(&self) -> usize;

    /// Whether no state is stored.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The heap bytes this table will hold at its peak while it takes `upcoming` more inserts.
    fn peak_bytes(&self, upcoming: usize) -> u64;

    /// The heap bytes this table would need at its peak to hold `states` states.
    fn bytes_for(&self, states: u64) -> u64;

    /// A number equal for any two states this table stores as one (for finding a state twice
    /// on a search's path: a cycle); `None` if the table cannot tell (the engines then do not
    /// look for cycles). The default is `None`.
    fn fingerprint(&self, game: &G, state: &G::State) -> Option<u64> {
        let _ = (game, state);
        None
    }

    /// Whether the table stores `a` and `b` as one state (checked when their fingerprints
    /// agree). The default is `false`.
    fn same(&self, game: &G, a: &G::State, b: &G::State) -> bool {
        let _ = (game, a, b);
        false
    }

    /// The values this table holds in the order of the game's dense index, one per slot
    /// (`None` for an empty one), where it is keyed by that index ([`DenseTable`](super::DenseTable),
    /// [`AtomicDenseTable`](super::AtomicDenseTable)); `None` for a table keyed otherwise
    /// (the default). [`Solved::values_by_index`](crate::Solved::values_by_index) reads it.
    fn values_by_index(&self) -> Option<SlotValues<'_>> {
        None
    }

    /// Runs `job` with this table as a sequential [`MemoTable`] for the calling thread alone:
    /// [`par_solve`](crate::engines::exhaustive::par_solve) searches through it when one thread searches (one
    /// worker, a small game, or the trial search before the workers start).
    ///
    /// The default hands the job `&self`, each access synchronised as usual. A table may
    /// instead lock itself once for the whole job: [`ShardedTable`](super::ShardedTable) takes
    /// every shard's writer lock, and the job's stores then take none (a lock per store costs a
    /// one-thread search what it cannot gain back; docs/performance.md). Other threads that store into the table meanwhile wait
    /// for the job, and the job must reach the table only through what it is handed.
    fn exclusive<J: TableJob<G>>(&self, job: J) -> J::Output
    where
        Self: Sized,
    {
        job.run(self)
    }
}

/// Work that needs a memo table, whichever type
/// [`exclusive`](ConcurrentMemoTable::exclusive) hands it.
///
/// ```
/// use gamesolver::{
///     games::Nim, memo::{ConcurrentMemoTable, MemoTable, ShardedTable, TableJob}, Game,
/// };
///
/// /// Stores the start's value, 1, and reads it back.
/// struct StoreStart<'a>(&'a Nim);
///
/// impl TableJob<Nim> for StoreStart<'_> {
///     type Output = Option<gamesolver::Score>;
///     fn run<T: MemoTable<Nim>>(self, mut table: T) -> Self::Output {
///         let start = self.0.start();
///         table.insert(self.0, start.clone(), 1);
///         table.get(self.0, &start)
///     }
/// }
///
/// let game = Nim::new(vec![3, 4, 5]).unwrap();
/// let table = ShardedTable::new();
/// assert_eq!(table.exclusive(StoreStart(&game)), Some(1));
/// // Stored for everyone once the job is done.
/// assert_eq!(ConcurrentMemoTable::get(&table, &game, &game.start()), Some(1));
/// assert_eq!(ConcurrentMemoTable::<Nim>::len(&table), 1);
/// ```
pub trait TableJob<G: Game + ?Sized> {
    /// What the job returns.
    type Output;

    /// Does the job with `table`.
    fn run<T: MemoTable<G>>(self, table: T) -> Self::Output;
}

/// The bridge: a shared reference to a concurrent table is a sequential table.
///
/// (A blanket implementation for the owned type would overlap the sequential tables' own
/// implementations, which Rust's coherence rules reject; through `&T` there is no overlap, and
/// a shared reference is how a concurrent table is used anyway.)
impl<G: Game + ?Sized, T: ConcurrentMemoTable<G>> MemoTable<G> for &T {
    // Always inlined: a lookup that is a call of its own keeps the search from starting the
    // next move's probe while this one waits on memory (docs/performance.md).
    #[inline(always)]
    fn get(&self, game: &G, state: &G::State) -> Option<Score> {
        ConcurrentMemoTable::get(*self, game, state)
    }

    #[inline]
    fn insert(&mut self, game: &G, state: G::State, value: Score) {
        ConcurrentMemoTable::insert(*self, game, state, value)
    }

    fn len(&self) -> usize {
        ConcurrentMemoTable::len(*self)
    }

    fn peak_bytes(&self, upcoming: usize) -> u64 {
        ConcurrentMemoTable::peak_bytes(*self, upcoming)
    }

    fn bytes_for(&self, states: u64) -> u64 {
        ConcurrentMemoTable::bytes_for(*self, states)
    }

    fn fingerprint(&self, game: &G, state: &G::State) -> Option<u64> {
        ConcurrentMemoTable::fingerprint(*self, game, state)
    }

    fn same(&self, game: &G, a: &G::State, b: &G::State) -> bool {
        ConcurrentMemoTable::same(*self, game, a, b)
    }

    fn values_by_index(&self) -> Option<SlotValues<'_>> {
        ConcurrentMemoTable::values_by_index(*self)
    }
}

/// The same bridge for a concurrent table that the holder owns with others: a solution that
/// keeps the table a parallel solve filled ([`Solver`](crate::Solver) returns one) holds it
/// through an `Arc`.
///
/// ```
/// use std::sync::Arc;
/// use gamesolver::{engines::exhaustive, games::Nim, memo::{MemoTable, ShardedTable}};
///
/// let game = Nim::new(vec![3, 4, 5]).unwrap();
/// let table = Arc::new(ShardedTable::new());
/// assert_eq!(exhaustive::solve(&game, Arc::clone(&table), exhaustive::Options::new()).unwrap().value(), 1);
/// assert!(!MemoTable::<Nim>::is_empty(&table));
/// ```
impl<G: Game + ?Sized, T: ConcurrentMemoTable<G>> MemoTable<G> for std::sync::Arc<T> {
    #[inline(always)]
    fn get(&self, game: &G, state: &G::State) -> Option<Score> {
        ConcurrentMemoTable::get(&**self, game, state)
    }

    #[inline]
    fn insert(&mut self, game: &G, state: G::State, value: Score) {
        ConcurrentMemoTable::insert(&**self, game, state, value)
    }

    fn len(&self) -> usize {
        ConcurrentMemoTable::len(&**self)
    }

    fn peak_bytes(&self, upcoming: usize) -> u64 {
        ConcurrentMemoTable::peak_bytes(&**self, upcoming)
    }

    fn bytes_for(&self, states: u64) -> u64 {
        ConcurrentMemoTable::bytes_for(&**self, states)
    }

    fn fingerprint(&self, game: &G, state: &G::State) -> Option<u64> {
        ConcurrentMemoTable::fingerprint(&**self, game, state)
    }

    fn same(&self, game: &G, a: &G::State, b: &G::State) -> bool {
        ConcurrentMemoTable::same(&**self, game, a, b)
    }

    fn values_by_index(&self) -> Option<SlotValues<'_>> {
        ConcurrentMemoTable::values_by_index(&**self)
    }
}
