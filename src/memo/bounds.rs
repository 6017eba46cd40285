//! Bound tables: what the pruning engine remembers about the states it has searched.
//!
//! An alpha-beta search with a narrow window often learns only that a state's value is at least
//! (or at most) some number. A bound table keeps those facts as a closed interval per state,
//! under an exact key, with the move that was best (or cut the search off) when the state was
//! searched: an entry may be forgotten (a fixed-capacity table replaces the entries whose
//! search cost least), but never confused with another state's.

use crate::game::{Game, Score};

/// What is known of a state's value: `lower ≤ value ≤ upper`.
///
/// `-Score::MAX` as `lower` (or `Score::MAX` as `upper`) says nothing on that side.
///
/// ```
/// use gamesolver::memo::Bound;
/// let known = Bound::new(-3, 5).intersect(Bound::at_least(1));
/// assert_eq!(known, Bound::new(1, 5));
/// assert!(Bound::exactly(4).is_exact());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bound {
    /// The value is at least this.
    pub lower: Score,
    /// The value is at most this.
    pub upper: Score,
}

impl Bound {
    /// Nothing known: `-Score::MAX ..= Score::MAX`.
    pub const ANY: Bound = Bound {
        lower: -Score::MAX,
        upper: Score::MAX,
    };

    /// `lower ..= upper`.
    pub fn new(lower: Score, upper: Score) -> Self {
        Bound { lower, upper }
    }

    /// Exactly `value`.
    pub fn exactly(value: Score) -> Self {
        Bound::new(value, value)
    }

    /// At least `value`.
    pub fn at_least(value: Score) -> Self {
        Bound::new(value, Score::MAX)
    }

    /// At most `value`.
    pub fn at_most(value: Score) -> Self {
        Bound::new(-Score::MAX, value)
    }

    /// Whether the value is known exactly.
    pub fn is_exact(self) -> bool {
        self.lower == self.upper
    }

    /// Both facts at once. (Two true bounds of one state always overlap.)
    pub fn intersect(self, other: Bound) -> Bound {
        Bound::new(self.lower.max(other.lower), self.upper.min(other.upper))
    }
}

/// What a bound table holds for a state: what is known of its value, and the move that was
/// best when the state was searched (or that cut the search off), as its index in the order of
/// the game's [`moves`](crate::Game::moves). The engine tries that move first when it searches
/// the state again; the index is a hint only (a table that keeps symmetric states as one may
/// hand back another state's), never trusted for a value.
///
/// ```
/// use gamesolver::memo::{Bound, Entry};
/// let entry = Entry::new(Bound::at_least(2)).with_best(3);
/// assert_eq!((entry.bound.lower, entry.best), (2, Some(3)));
/// // Two entries of one state: both bounds hold, and the newer move is kept.
/// let merged = entry.merged(Entry::new(Bound::at_most(5)));
/// assert_eq!((merged.bound, merged.best), (Bound::new(2, 5), Some(3)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Entry {
    /// What is known of the value.
    pub bound: Bound,
    /// The index of the best move found (or of the move that cut the search off), if known.
    pub best: Option<u16>,
}

impl Entry {
    /// An entry of `bound` with no move.
    pub fn new(bound: Bound) -> Self {
        Entry { bound, best: None }
    }

    /// The same entry with the move at `index` as its best.
    pub fn with_best(self, index: u16) -> Self {
        Entry {
            best: Some(index),
            ..self
        }
    }

    /// What two entries of one state say together: both bounds, and the move of `newer` (else
    /// of `self`).
    pub fn merged(self, newer: Entry) -> Self {
        Entry {
            bound: self.bound.intersect(newer.bound),
            best: newer.best.or(self.best),
        }
    }
}

/// A table of bounds on states' values, for the sequential pruning engine.
///
/// The game is passed to every call so that a table can ask it for a state's
/// [compact key](crate::CompactKey) (or its [canonical form](crate::Symmetry)).
pub trait BoundTable<G: Game + ?Sized> {
    /// What the table knows of `state`, if anything.
    fn get(&self, game: &G, state: &G::State) -> Option<Entry>;

    /// Records `entry` for `state` (added to what is known of it), whose search expanded
    /// `work` states: a fixed-capacity table keeps the entries that cost most and replaces
    /// the others.
    fn store(&mut self, game: &G, state: &G::State, entry: Entry, work: u64);

    /// How many entries are held now (O(1)).
    fn len(&self) -> usize;

    /// Whether no entry is held.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The heap bytes this table will hold at its peak while it takes `upcoming` more stores
    /// (a fixed-capacity table: its size, always).
    fn peak_bytes(&self, upcoming: usize) -> u64;

    /// Holds the table to at most `bytes` at its peak: a table that grows with the search
    /// ([`HashBoundTable`](super::HashBoundTable)) stops growing there and replaces entries
    /// instead (a lower limit it already has stays). The engines call it with half the memory
    /// budget before they search; a fixed table, whose size is set when it is made, ignores it
    /// (the default).
    fn limit(&mut self, bytes: u64) {
        let _ = bytes;
    }

    /// A number equal for any two states this table keeps as one (for finding a state twice
    /// on a search's path: a cycle); `None` if the table cannot tell (the engine then does not
    /// look for cycles). The default is `None`.
    fn fingerprint(&self, game: &G, state: &G::State) -> Option<u64> {
        let _ = (game, state);
        None
    }

    /// Whether the table keeps `a` and `b` as one state (checked when their fingerprints
    /// agree). The default is `false`.
    fn same(&self, game: &G, a: &G::State, b: &G::State) -> bool {
        let _ = (game, a, b);
        false
    }

    /// Whether [`prefetch`](Self::prefetch) does anything. When it does, the engine asks for
    /// a child's entry once it has followed the child's forced replies and the game does not
    /// know its value, and reads the entries after looking at every child: a table whose
    /// lookups are cache misses (a large fixed table) hides part of them that way.
    const PREFETCH: bool = false;

    /// Asks the memory system for `state`'s entry, which will be looked up soon. A hint only.
    #[inline]
    fn prefetch(&self, game: &G, state: &G::State) {
        let _ = (game, state);
    }
}

/// A bound table that many searches share at once (`&self` store, `Sync`), for
/// [`par_solve`](crate::engines::pruning::par_solve).
///
/// As with [`ConcurrentMemoTable`](super::ConcurrentMemoTable), entries go in and out by copy,
/// and a read racing a write sees either the old entry, the new one, or nothing: never a torn
/// mixture read as a hit.
pub trait ConcurrentBoundTable<G: Game + ?Sized>: Sync {
    /// What the table knows of `state`, if anything.
    fn get(&self, game: &G, state: &G::State) -> Option<Entry>;

    /// Records `entry` for `state`, whose search expanded `work` states (as
    /// [`BoundTable::store`]).
    fn store(&self, game: &G, state: &G::State, entry: Entry, work: u64);

    /// How many entries are held now (O(1); a snapshot while others store).
    fn len(&self) -> usize;

    /// Whether no entry is held.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The heap bytes this table will hold at its peak while it takes `upcoming` more stores.
    fn peak_bytes(&self, upcoming: usize) -> u64;

    /// Holds the table to at most `bytes` at its peak ([`BoundTable::limit`]); the default
    /// ignores it.
    fn limit(&self, bytes: u64) {
        let _ = bytes;
    }

    /// A number equal for any two states this table keeps as one (for finding a state twice
    /// on a search's path: a cycle); `None` if the table cannot tell (the engine then does not
    /// look for cycles). The default is `None`.
    fn fingerprint(&self, game: &G, state: &G::State) -> Option<u64> {
        let _ = (game, state);
        None
    }

    /// Whether the table keeps `a` and `b` as one state (checked when their fingerprints
    /// agree). The default is `false`.
    fn same(&self, game: &G, a: &G::State, b: &G::State) -> bool {
        let _ = (game, a, b);
        false
    }

    /// Whether [`prefetch`](Self::prefetch) does anything. When it does, the engine asks for
    /// a child's entry once it has followed the child's forced replies and the game does not
    /// know its value, and reads the entries after looking at every child: a table whose
    /// lookups are cache misses (a large fixed table) hides part of them that way.
    const PREFETCH: bool = false;

    /// Asks the memory system for `state`'s entry, which will be looked up soon. A hint only.
    #[inline]
    fn prefetch(&self, game: &G, state: &G::State) {
        let _ = (game, state);
    }
}

/// The bridge: a shared reference to a concurrent bound table is a sequential one.
impl<G: Game + ?Sized, T: ConcurrentBoundTable<G>> BoundTable<G> for &T {
    #[inline]
    fn get(&self, game: &G, state: &G::State) -> Option<Entry> {
        ConcurrentBoundTable::get(*self, game, state)
    }

    #[inline]
    fn store(&mut self, game: &G, state: &G::State, entry: Entry, work: u64) {
        ConcurrentBoundTable::store(*self, game, state, entry, work)
    }

    fn len(&self) -> usize {
        ConcurrentBoundTable::len(*self)
    }

    fn fingerprint(&self, game: &G, state: &G::State) -> Option<u64> {
        ConcurrentBoundTable::fingerprint(*self, game, state)
    }

    fn same(&self, game: &G, a: &G::State, b: &G::State) -> bool {
        ConcurrentBoundTable::same(*self, game, a, b)
    }

    fn peak_bytes(&self, upcoming: usize) -> u64 {
        ConcurrentBoundTable::peak_bytes(*self, upcoming)
    }

    fn limit(&mut self, bytes: u64) {
        ConcurrentBoundTable::limit(*self, bytes)
    }

    const PREFETCH: bool = T::PREFETCH;

    #[inline]
    fn prefetch(&self, game: &G, state: &G::State) {
        ConcurrentBoundTable::prefetch(*self, game, state)
    }
}

/// The same bridge for a concurrent bound table held through an `Arc` (what
/// [`Solver`](crate::Solver)'s parallel pruning keeps in its result).
impl<G: Game + ?Sized, T: ConcurrentBoundTable<G>> BoundTable<G> for std::sync::Arc<T> {
    #[inline]
    fn get(&self, game: &G, state: &G::State) -> Option<Entry> {
        ConcurrentBoundTable::get(&**self, game, state)
    }

    #[inline]
    fn store(&mut self, game: &G, state: &G::State, entry: Entry, work: u64) {
        ConcurrentBoundTable::store(&**self, game, state, entry, work)
    }

    fn len(&self) -> usize {
        ConcurrentBoundTable::len(&**self)
    }

    fn fingerprint(&self, game: &G, state: &G::State) -> Option<u64> {
        ConcurrentBoundTable::fingerprint(&**self, game, state)
    }

    fn same(&self, game: &G, a: &G::State, b: &G::State) -> bool {
        ConcurrentBoundTable::same(&**self, game, a, b)
    }

    fn peak_bytes(&self, upcoming: usize) -> u64 {
        ConcurrentBoundTable::peak_bytes(&**self, upcoming)
    }

    fn limit(&mut self, bytes: u64) {
        ConcurrentBoundTable::limit(&**self, bytes)
    }

    const PREFETCH: bool = T::PREFETCH;

    #[inline]
    fn prefetch(&self, game: &G, state: &G::State) {
        ConcurrentBoundTable::prefetch(&**self, game, state)
    }
}
