//! Bound tables: what the pruning engine remembers about the states it has searched.
//!
//! An alpha-beta search with a narrow window often learns only that a state's value is at least
//! (or at most) some number. A bound table keeps those facts as a closed interval per state,
//! under an exact key, with the move that was best (or cut the search off) when the state was
//! searched: an entry may be forgotten (a fixed-capacity table replaces the entries whose
//! search cost least), but never confused with another state's.

use std::hash::{BuildHasher, Hash};
use std::mem::size_of;

use dashmap::DashMap;
use hashbrown::DefaultHashBuilder;

use super::hash::{growing_bytes, hashbrown_bytes};
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

    const PREFETCH: bool = T::PREFETCH;

    #[inline]
    fn prefetch(&self, game: &G, state: &G::State) {
        ConcurrentBoundTable::prefetch(&**self, game, state)
    }
}

/// A growable hash map from state to entry (hashbrown with foldhash). It forgets nothing, so
/// it grows with the search; the engine checks it against the memory budget as it grows.
///
/// ```
/// use gamesolver::{engines::pruning, games::StoneGameII, memo::HashBoundTable};
///
/// let game = StoneGameII::new(vec![2, 7, 9, 4, 4]).unwrap();
/// let solution = pruning::solve(&game, HashBoundTable::new(), pruning::Options::new()).unwrap();
/// assert_eq!(game.alice_stones(solution.value()), 10);
/// ```
#[derive(Debug, Clone)]
pub struct HashBoundTable<K, H = DefaultHashBuilder> {
    map: hashbrown::HashMap<K, Entry, H>,
}

impl<K> HashBoundTable<K> {
    /// An empty table with the default fast hasher.
    pub fn new() -> Self {
        HashBoundTable {
            map: hashbrown::HashMap::with_hasher(DefaultHashBuilder::default()),
        }
    }
}

impl<K> Default for HashBoundTable<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G, K, H> BoundTable<G> for HashBoundTable<K, H>
where
    G: Game<State = K> + ?Sized,
    K: Eq + Hash + Clone,
    H: BuildHasher,
{
    #[inline]
    fn get(&self, _game: &G, state: &K) -> Option<Entry> {
        self.map.get(state).copied()
    }

    #[inline]
    fn store(&mut self, _game: &G, state: &K, entry: Entry, _work: u64) {
        match self.map.get_mut(state) {
            Some(known) => *known = known.merged(entry),
            None => {
                self.map.insert(state.clone(), entry);
            }
        }
    }

    fn len(&self) -> usize {
        self.map.len()
    }

    fn fingerprint(&self, _game: &G, state: &K) -> Option<u64> {
        Some(self.map.hasher().hash_one(state))
    }

    fn same(&self, _game: &G, a: &K, b: &K) -> bool {
        a == b
    }

    fn peak_bytes(&self, upcoming: usize) -> u64 {
        growing_bytes(
            self.map.len(),
            self.map.capacity(),
            upcoming,
            size_of::<(K, Entry)>(),
        )
    }
}

/// A DashMap from state to entry, for the parallel pruning engine on games without a compact
/// key. Every call copies the entry out and drops the shard guard before returning.
///
/// ```
/// use gamesolver::{engines::pruning, games::StoneGameII, memo::ShardedBoundTable};
///
/// let game = StoneGameII::new(vec![2, 7, 9, 4, 4]).unwrap();
/// let table = ShardedBoundTable::new();
/// let solution = pruning::par_solve(&game, &table, pruning::Options::new()).unwrap();
/// assert_eq!(game.alice_stones(solution.value()), 10);
/// ```
pub struct ShardedBoundTable<K: Eq + Hash, H = DefaultHashBuilder> {
    map: DashMap<K, Entry, H>,
}

/// `ShardedBoundTable`'s shard count: DashMap's lookups lock a shard, and with fewer shards
/// two threads queue on the locks (docs/performance.md, "DashMap shard count").
const BOUND_SHARDS: usize = 1024;

impl<K: Eq + Hash> ShardedBoundTable<K> {
    /// An empty table with 1024 shards.
    pub fn new() -> Self {
        ShardedBoundTable {
            map: DashMap::with_hasher_and_shard_amount(DefaultHashBuilder::default(), BOUND_SHARDS),
        }
    }
}

impl<K: Eq + Hash> Default for ShardedBoundTable<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: Eq + Hash, H: BuildHasher + Clone> std::fmt::Debug for ShardedBoundTable<K, H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShardedBoundTable").finish_non_exhaustive()
    }
}

impl<G, K, H> ConcurrentBoundTable<G> for ShardedBoundTable<K, H>
where
    G: Game<State = K> + ?Sized,
    K: Eq + Hash + Clone + Send + Sync,
    H: BuildHasher + Clone + Send + Sync,
{
    #[inline]
    fn get(&self, _game: &G, state: &K) -> Option<Entry> {
        self.map.get(state).map(|entry| *entry)
    }

    #[inline]
    fn store(&self, _game: &G, state: &K, entry: Entry, _work: u64) {
        // The entry guard lives only for this statement; nothing else runs while it is held.
        self.map
            .entry(state.clone())
            .and_modify(|known| *known = known.merged(entry))
            .or_insert(entry);
    }

    fn len(&self) -> usize {
        self.map.len()
    }

    fn fingerprint(&self, _game: &G, state: &K) -> Option<u64> {
        Some(self.map.hasher().hash_one(state))
    }

    fn same(&self, _game: &G, a: &K, b: &K) -> bool {
        a == b
    }

    fn peak_bytes(&self, upcoming: usize) -> u64 {
        let entries = self.map.capacity().max(self.map.len() + upcoming) as u64;
        // Shards grow one at a time: at most one holds its old and new buckets at once.
        let all = hashbrown_bytes(entries, size_of::<(K, Entry)>());
        all.saturating_add(all.saturating_mul(2) / BOUND_SHARDS as u64)
    }
}
