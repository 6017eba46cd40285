//! A concurrent memo table on DashMap.

use std::hash::{BuildHasher, Hash};

use dashmap::{DashMap, RwLockWriteGuard, SharedValue};
use hashbrown::DefaultHashBuilder;
use hashbrown_shards::raw::RawTable;

use super::hash::HashTable;
use super::{ConcurrentMemoTable, MemoTable, StripedCount, TableJob};
use crate::game::{Game, Score};

/// The default shard count. Measured on Stone Game II, n = 1000, 2 threads: 2 shards made the
/// parallel engine slower than one thread; 64 → 199 ms, 256 → 172 ms, 1024 → 151 ms,
/// 4096 → 146 ms (docs/performance.md). Empty shards cost a lock and a few words each.
pub const DEFAULT_SHARDS: usize = 1024;

/// A DashMap from state to value with a fast hasher (foldhash) and a tuned shard count.
///
/// DashMap locks one shard per call; every call here copies the value out and lets the guard
/// drop before returning, so no lock is held while a search goes on.
///
/// ```
/// use gamesolver::{par_solve, memo::ShardedTable, games::StoneGameII};
///
/// let game = StoneGameII::new(vec![2, 7, 9, 4, 4]).unwrap();
/// let table = ShardedTable::new();
/// let solution = par_solve(&game, &table).unwrap();
/// assert_eq!(game.alice_stones(solution.value()), 10);
/// ```
pub struct ShardedTable<K: Eq + Hash, H = DefaultHashBuilder> {
    map: DashMap<K, Score, H>,
    shards: usize,
    /// How many states are stored: counted as they come, so that `len` and `peak_bytes`
    /// never visit the shards (a visit locks each of them).
    stored: StripedCount,
}

impl<K: Eq + Hash> ShardedTable<K> {
    /// An empty table with [`DEFAULT_SHARDS`] shards and the default fast hasher.
    pub fn new() -> Self {
        Self::with_shards(DEFAULT_SHARDS)
    }

    /// An empty table with `shards` shards (rounded up to a power of two, at least 2).
    ///
    /// ```
    /// use gamesolver::memo::ShardedTable;
    /// assert_eq!(ShardedTable::<u32>::with_shards(100).shards(), 128);
    /// ```
    pub fn with_shards(shards: usize) -> Self {
        Self::with_hasher_and_shards(DefaultHashBuilder::default(), shards)
    }
}

impl<K: Eq + Hash> Default for ShardedTable<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: Eq + Hash, H: BuildHasher + Clone> ShardedTable<K, H> {
    /// An empty table with the given hasher and shard count (rounded up to a power of two,
    /// at least 2).
    pub fn with_hasher_and_shards(hasher: H, shards: usize) -> Self {
        let shards = shards.max(2).next_power_of_two();
        ShardedTable {
            map: DashMap::with_hasher_and_shard_amount(hasher, shards),
            shards,
            stored: StripedCount::default(),
        }
    }
}

impl<K: Eq + Hash, H: BuildHasher + Clone> std::fmt::Debug for ShardedTable<K, H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShardedTable")
            .field("states", &self.map.len())
            .field("shards", &self.shards)
            .finish()
    }
}

impl<K: Eq + Hash, H> ShardedTable<K, H> {
    /// The number of shards.
    pub fn shards(&self) -> usize {
        self.shards
    }
}

impl<G, K, H> ConcurrentMemoTable<G> for ShardedTable<K, H>
where
    G: Game<State = K> + ?Sized,
    K: Eq + Hash + Clone + Send + Sync,
    H: BuildHasher + Clone + Send + Sync,
{
    #[inline]
    fn get(&self, _game: &G, state: &K) -> Option<Score> {
        // The guard is a temporary of this expression: copied out, then dropped at once.
        self.map.get(state).map(|value| *value)
    }

    #[inline]
    fn insert(&self, _game: &G, state: K, value: Score) {
        if self.map.insert(state, value).is_none() {
            self.stored
                .add_one(rayon::current_thread_index().unwrap_or(0));
        }
    }

    fn len(&self) -> usize {
        self.stored.get()
    }

    fn peak_bytes(&self, upcoming: usize) -> u64 {
        ConcurrentMemoTable::<G>::bytes_for(self, (self.stored.get() + upcoming) as u64)
    }

    fn bytes_for(&self, states: u64) -> u64 {
        // Shards grow one at a time; at most one holds its old and new buckets at once. The
        // buckets for this many entries are what the shards hold in all, about (each rounds
        // up to a power of two on its own).
        let all = HashTable::<K>::table_bytes(states);
        all.saturating_add(all.saturating_mul(2) / self.shards as u64)
    }

    fn fingerprint(&self, _game: &G, state: &K) -> Option<u64> {
        Some(self.map.hasher().hash_one(state))
    }

    fn same(&self, _game: &G, a: &K, b: &K) -> bool {
        a == b
    }

    /// Locks every shard for writing, in order, for the whole job: the job reads and writes
    /// the shards' tables with no lock per access. (Every other path takes one shard's lock at
    /// a time, so taking them all in order cannot deadlock with it.)
    fn exclusive<J: TableJob<G>>(&self, job: J) -> J::Output {
        let shards = self
            .map
            .shards()
            .iter()
            .map(|shard| shard.write())
            .collect();
        job.run(Locked {
            table: self,
            shards,
            added: 0,
        })
    }
}

/// A [`ShardedTable`] with every shard locked by one thread: a sequential table over the
/// shards' own hash tables, found and hashed as DashMap finds and hashes them.
struct Locked<'a, K: Eq + Hash, H> {
    table: &'a ShardedTable<K, H>,
    shards: Vec<LockedShard<'a, K>>,
    /// States added through this view, counted here (not in the table's shared count, an
    /// atomic addition per store) and added to the table's count when the view is dropped.
    added: usize,
}

impl<K: Eq + Hash, H> Drop for Locked<'_, K, H> {
    fn drop(&mut self) {
        self.table.stored.add(self.added);
    }
}

/// One of DashMap's shards, locked for writing: its hashbrown table of entries.
type LockedShard<'a, K> = RwLockWriteGuard<'a, RawTable<(K, SharedValue<Score>)>>;

impl<K: Eq + Hash, H: BuildHasher + Clone> Locked<'_, K, H> {
    /// The hash of `state` and the shard that holds it.
    #[inline]
    fn place(&self, state: &K) -> (u64, usize) {
        let hash = self.table.map.hasher().hash_one(state);
        (hash, self.table.map.determine_shard(hash as usize))
    }
}

impl<G, K, H> MemoTable<G> for Locked<'_, K, H>
where
    G: Game<State = K> + ?Sized,
    K: Eq + Hash + Clone + Send + Sync,
    H: BuildHasher + Clone + Send + Sync,
{
    #[inline]
    fn get(&self, _game: &G, state: &K) -> Option<Score> {
        let (hash, shard) = self.place(state);
        let (_, value) = self.shards[shard].get(hash, |(key, _)| key == state)?;
        Some(*value.get())
    }

    #[inline]
    fn insert(&mut self, _game: &G, state: K, value: Score) {
        let (hash, shard) = self.place(&state);
        let table = &mut self.shards[shard];
        if let Some((_, old)) = table.get_mut(hash, |(key, _)| *key == state) {
            *old.get_mut() = value;
            return;
        }
        let hasher = self.table.map.hasher();
        table.insert(hash, (state, SharedValue::new(value)), |(key, _)| {
            hasher.hash_one(key)
        });
        self.added += 1;
    }

    fn len(&self) -> usize {
        self.table.stored.get() + self.added
    }

    fn peak_bytes(&self, upcoming: usize) -> u64 {
        ConcurrentMemoTable::<G>::peak_bytes(self.table, self.added + upcoming)
    }

    fn bytes_for(&self, states: u64) -> u64 {
        ConcurrentMemoTable::<G>::bytes_for(self.table, states)
    }

    fn fingerprint(&self, game: &G, state: &K) -> Option<u64> {
        ConcurrentMemoTable::fingerprint(self.table, game, state)
    }

    fn same(&self, _game: &G, a: &K, b: &K) -> bool {
        a == b
    }
}
