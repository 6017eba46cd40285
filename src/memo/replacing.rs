//! Bound tables of whole states that grow with the search up to a limit and then replace
//! entries: [`HashBoundTable`] (one search) and [`ShardedBoundTable`] (many at once).
//!
//! Entries live in a hashbrown map (foldhash), each with what keeping it is worth: the work its
//! search expanded, in bits, doubled, and one more if it is exact (the fixed tables' measure).
//! The map grows while its next size (with the old one, alive while it is rebuilt) fits the
//! limit ([`BoundTable::limit`], which the engine sets from the memory budget). Past that, a
//! store that would make it grow first empties it of its cheaper half: the entries worth least,
//! found by a count of the worths (a pass over the map every half a map's stores). The costly
//! entries near the roots of searches stay; a bound lost costs a search again, never a wrong
//! answer, and keys are whole states, so two states are never confused.

use std::hash::{BuildHasher, Hash};
use std::mem::size_of;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use hashbrown::DefaultHashBuilder;

use super::bounds::{BoundTable, ConcurrentBoundTable, Entry};
use super::hash::hashbrown_bytes;
use crate::game::Game;

/// The most a worth can be: 2 · 64 bits of work, and one for an exact entry.
const MOST_WORTH: usize = 129;

/// What keeping an entry that cost `work` states is worth: the bits of its work, doubled, and
/// one more if it is exact.
#[inline]
fn worth(entry: Entry, work: u64) -> u8 {
    (2 * (64 - work.leading_zeros()) + u32::from(entry.bound.is_exact())) as u8
}

/// An entry and its worth.
type Held = (Entry, u8);

/// One map of entries (a [`HashBoundTable`]'s, or a shard of a [`ShardedBoundTable`]'s), and
/// what it may grow to.
#[derive(Debug, Clone)]
struct Bounded<K, H> {
    map: hashbrown::HashMap<K, Held, H>,
    limit: u64,
}

impl<K: Eq + Hash + Clone, H: BuildHasher> Bounded<K, H> {
    fn with_hasher(hasher: H) -> Self {
        Bounded {
            map: hashbrown::HashMap::with_hasher(hasher),
            limit: u64::MAX,
        }
    }

    /// Heap bytes of the map with room for `capacity` entries.
    fn bytes_for(capacity: usize) -> u64 {
        hashbrown_bytes(capacity as u64, size_of::<(K, Held)>())
    }

    /// Heap bytes now.
    fn bytes(&self) -> u64 {
        Self::bytes_for(self.map.capacity())
    }

    /// Whether the map, full, may grow: its next size and its present one (alive while it is
    /// rebuilt) fit the limit.
    fn may_grow(&self) -> bool {
        let next = (2 * self.map.capacity()).max(4);
        self.bytes().saturating_add(Self::bytes_for(next)) <= self.limit
    }

    /// The heap bytes at the peak of `upcoming` more stores.
    fn peak_bytes(&self, upcoming: usize) -> u64 {
        let now = self.bytes();
        if self.map.len() + upcoming > self.map.capacity() && self.may_grow() {
            let next = (self.map.len() + upcoming).max(2 * self.map.capacity());
            now.saturating_add(Self::bytes_for(next))
        } else {
            now
        }
    }

    #[inline]
    fn get(&self, key: &K) -> Option<Entry> {
        self.map.get(key).map(|(entry, _)| *entry)
    }

    /// Stores `entry` for `key`, merged with what is known of it; where the map is full and may
    /// not grow, first forgets its cheaper half. Returns how many entries were added (1, or 0)
    /// and forgotten.
    #[inline(always)]
    fn store(&mut self, key: &K, entry: Entry, work: u64) -> (usize, usize) {
        if let Some((held, held_worth)) = self.map.get_mut(key) {
            *held = held.merged(entry);
            *held_worth = (*held_worth).max(worth(entry, work));
            return (0, 0);
        }
        let forgotten = if self.map.len() == self.map.capacity() {
            self.make_room()
        } else {
            0
        };
        self.map.insert(key.clone(), (entry, worth(entry, work)));
        (1, forgotten)
    }

    /// Before a store that would make the full map grow: forgets its cheaper half where it may
    /// not grow. Returns how many entries were forgotten.
    #[cold]
    #[inline(never)]
    fn make_room(&mut self) -> usize {
        if self.may_grow() {
            0
        } else {
            self.forget_cheaper_half()
        }
    }

    /// Forgets the entries worth least, about half of them: every entry worth less than the
    /// median, and of those worth the median as many as keep the half. Returns how many.
    #[cold]
    fn forget_cheaper_half(&mut self) -> usize {
        let before = self.map.len();
        let mut counts = [0usize; MOST_WORTH + 1];
        for (_, (_, worth)) in self.map.iter() {
            counts[usize::from(*worth)] += 1;
        }
        // The least worth `median` whose entries and those above are at most half the map
        // (or the highest worth, if it alone is more).
        let keep = before / 2;
        let (mut median, mut above) = (MOST_WORTH, 0);
        while median > 0 && above + counts[median] <= keep {
            above += counts[median];
            median -= 1;
        }
        let mut of_median = keep.saturating_sub(above);
        // Drained and put back, rather than retained: a retained map keeps tombstones, which
        // hide its size and make it grow where it could rebuild in place. The kept half, held
        // aside meanwhile, takes less than half the map's bytes: the map never grows past two
        // thirds of the limit, so the two stay within it.
        let kept: Vec<(K, Held)> = self
            .map
            .drain()
            .filter(|(_, (_, worth))| {
                let worth = usize::from(*worth);
                if worth > median {
                    true
                } else if worth == median && of_median > 0 {
                    of_median -= 1;
                    true
                } else {
                    false
                }
            })
            .collect();
        self.map.extend(kept);
        before - self.map.len()
    }
}

/// A bound table of whole states (hashbrown with foldhash): it grows with the search up to its
/// [limit](BoundTable::limit) (half the memory budget, set by the engine), then forgets the
/// entries that cost least, so that a search of any size runs within the budget; a bound
/// forgotten costs time, never a wrong answer.
///
/// ```
/// use gamesolver::{engines::pruning, games::StoneGameII, memo::HashBoundTable};
///
/// let game = StoneGameII::new(vec![2, 7, 9, 4, 4]).unwrap();
/// let solution = pruning::solve(&game, HashBoundTable::new(), pruning::Options::new()).unwrap();
/// assert_eq!(game.alice_stones(solution.value()), 10);
///
/// // A table held to a few kilobytes forgets entries, and the value is the same.
/// let game = StoneGameII::new((1..=40).collect()).unwrap();
/// let small = HashBoundTable::limited(16 << 10);
/// let tight = pruning::solve(&game, small, pruning::Options::new()).unwrap();
/// let roomy = pruning::solve(&game, HashBoundTable::new(), pruning::Options::new()).unwrap();
/// assert_eq!(tight.value(), roomy.value());
/// assert!(tight.table().bytes() <= 16 << 10);
/// ```
#[derive(Debug, Clone)]
pub struct HashBoundTable<K, H = DefaultHashBuilder> {
    bounded: Bounded<K, H>,
}

impl<K: Eq + Hash + Clone> HashBoundTable<K> {
    /// An empty table with the default fast hasher, and no limit until the engine sets one.
    pub fn new() -> Self {
        HashBoundTable {
            bounded: Bounded::with_hasher(DefaultHashBuilder::default()),
        }
    }

    /// An empty table that holds at most `bytes` at its peak (the engine lowers the limit to
    /// half the budget where that is less).
    pub fn limited(bytes: u64) -> Self {
        let mut table = Self::new();
        table.bounded.limit = bytes;
        table
    }
}

impl<K: Eq + Hash + Clone, H: BuildHasher> HashBoundTable<K, H> {
    /// The heap bytes the table holds now (at most its limit).
    pub fn bytes(&self) -> u64 {
        self.bounded.bytes()
    }
}

impl<K: Eq + Hash + Clone> Default for HashBoundTable<K> {
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
        self.bounded.get(state)
    }

    #[inline]
    fn store(&mut self, _game: &G, state: &K, entry: Entry, work: u64) {
        self.bounded.store(state, entry, work);
    }

    fn len(&self) -> usize {
        self.bounded.map.len()
    }

    fn fingerprint(&self, _game: &G, state: &K) -> Option<u64> {
        Some(self.bounded.map.hasher().hash_one(state))
    }

    fn same(&self, _game: &G, a: &K, b: &K) -> bool {
        a == b
    }

    fn peak_bytes(&self, upcoming: usize) -> u64 {
        self.bounded.peak_bytes(upcoming)
    }

    fn limit(&mut self, bytes: u64) {
        self.bounded.limit = self.bounded.limit.min(bytes);
    }
}

/// Shards of a [`ShardedBoundTable`]: a lookup or a store locks its shard, and with fewer
/// shards two threads queue on the locks (docs/performance.md, "Figures behind choices in the
/// code").
const BOUND_SHARDS: usize = 1024;

/// A bound table of whole states for the parallel pruning engine: [`HashBoundTable`]'s maps in
/// 1024 shards, each behind a lock that a lookup or a store holds only while it copies an entry
/// in or out. Each shard grows up to its share of the [limit](ConcurrentBoundTable::limit) (half
/// the memory budget, set by the engine), then forgets its cheaper half as
/// [`HashBoundTable`] does.
///
/// ```
/// use gamesolver::{engines::pruning, games::StoneGameII, memo::ShardedBoundTable};
///
/// let game = StoneGameII::new(vec![2, 7, 9, 4, 4]).unwrap();
/// let table = ShardedBoundTable::new();
/// let solution = pruning::par_solve(&game, &table, pruning::Options::new()).unwrap();
/// assert_eq!(game.alice_stones(solution.value()), 10);
/// ```
pub struct ShardedBoundTable<K, H = DefaultHashBuilder> {
    shards: Box<[Mutex<Bounded<K, H>>]>,
    hasher: H,
    /// Entries held, in all shards.
    len: AtomicUsize,
    /// Heap bytes held, in all shards.
    bytes: AtomicU64,
    /// The limit, as set (each shard holds its share).
    limit: AtomicU64,
}

impl<K: Eq + Hash + Clone> ShardedBoundTable<K> {
    /// An empty table with 1024 shards that holds at most `bytes` at its peak (the engine
    /// lowers the limit to half the budget where that is less).
    pub fn limited(bytes: u64) -> Self {
        let table = Self::new();
        table.limit.store(bytes, Ordering::Relaxed);
        for shard in table.shards.iter() {
            shard
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .limit = bytes / BOUND_SHARDS as u64;
        }
        table
    }

    /// An empty table with 1024 shards, and no limit until the engine sets one.
    pub fn new() -> Self {
        ShardedBoundTable {
            shards: (0..BOUND_SHARDS)
                .map(|_| Mutex::new(Bounded::with_hasher(DefaultHashBuilder::default())))
                .collect(),
            hasher: DefaultHashBuilder::default(),
            len: AtomicUsize::new(0),
            bytes: AtomicU64::new(0),
            limit: AtomicU64::new(u64::MAX),
        }
    }
}

impl<K: Eq + Hash + Clone> ShardedBoundTable<K> {
    /// The entries of `table`, each in its shard, with its worth, and `table`'s limit: a
    /// search on one thread handed on to many (the plan's race, then the parallel engine).
    pub(crate) fn from_hash(table: HashBoundTable<K>) -> Self {
        let limit = table.bounded.limit;
        let sharded = if limit == u64::MAX {
            Self::new()
        } else {
            Self::limited(limit)
        };
        let mut bytes = 0;
        let len = table.bounded.map.len();
        for (key, held) in table.bounded.map {
            let mut shard = sharded.shard(&key);
            let before = shard.bytes();
            shard.map.insert(key, held);
            bytes += shard.bytes() - before;
        }
        sharded.len.store(len, Ordering::Relaxed);
        sharded.bytes.store(bytes, Ordering::Relaxed);
        sharded
    }
}

impl<K: Eq + Hash + Clone> Default for ShardedBoundTable<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K, H> std::fmt::Debug for ShardedBoundTable<K, H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShardedBoundTable")
            .field("len", &self.len.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

impl<K, H: BuildHasher> ShardedBoundTable<K, H> {
    /// The shard of `state`, locked (also after a panic elsewhere while it was held: a store
    /// leaves a shard whole at every step that can panic, an allocation's).
    #[inline]
    fn shard(&self, state: &K) -> std::sync::MutexGuard<'_, Bounded<K, H>>
    where
        K: Hash,
    {
        let hash = self.hasher.hash_one(state);
        self.shards[(hash >> 54) as usize % self.shards.len()]
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl<G, K, H> ConcurrentBoundTable<G> for ShardedBoundTable<K, H>
where
    G: Game<State = K> + ?Sized,
    K: Eq + Hash + Clone + Send + Sync,
    H: BuildHasher + Send + Sync,
{
    #[inline]
    fn get(&self, _game: &G, state: &K) -> Option<Entry> {
        // The guard lives only for this statement: nothing else runs while it is held.
        self.shard(state).get(state)
    }

    #[inline]
    fn store(&self, _game: &G, state: &K, entry: Entry, work: u64) {
        let mut shard = self.shard(state);
        let before = shard.bytes();
        let (added, forgotten) = shard.store(state, entry, work);
        let after = shard.bytes();
        drop(shard);
        if after != before {
            // A shard's map only grows.
            self.bytes.fetch_add(after - before, Ordering::Relaxed);
        }
        if added > forgotten {
            self.len.fetch_add(added - forgotten, Ordering::Relaxed);
        } else if forgotten > added {
            self.len.fetch_sub(forgotten - added, Ordering::Relaxed);
        }
    }

    fn len(&self) -> usize {
        self.len.load(Ordering::Relaxed)
    }

    fn fingerprint(&self, _game: &G, state: &K) -> Option<u64> {
        Some(self.hasher.hash_one(state))
    }

    fn same(&self, _game: &G, a: &K, b: &K) -> bool {
        a == b
    }

    fn peak_bytes(&self, _upcoming: usize) -> u64 {
        // The shards' bytes, and one growth a thread: at most a shard's share of the limit.
        let held = self.bytes.load(Ordering::Relaxed);
        let share = self.limit.load(Ordering::Relaxed) / self.shards.len() as u64;
        let growing = (2 * held / self.shards.len() as u64).min(share);
        held.saturating_add(growing.saturating_mul(rayon::current_num_threads() as u64))
    }

    fn limit(&self, bytes: u64) {
        let bytes = self.limit.fetch_min(bytes, Ordering::Relaxed).min(bytes);
        let share = bytes / self.shards.len() as u64;
        for shard in self.shards.iter() {
            shard
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .limit = share;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memo::Bound;

    /// A game whose states are numbers, for the table alone.
    struct Numbers;

    impl Game for Numbers {
        type State = u64;
        type Move = u64;
        fn start(&self) -> u64 {
            0
        }
        fn moves(&self, _: &u64) -> impl Iterator<Item = u64> {
            std::iter::empty()
        }
        fn play(&self, state: &u64, _: &u64) -> crate::Step<u64> {
            crate::Step {
                next: *state,
                gain: 0,
                turn: crate::Turn::Pass,
            }
        }
        fn payoff(&self, _: &u64) -> crate::Score {
            0
        }
    }

    fn value(key: u64) -> i64 {
        (key % 1000) as i64 - 500
    }

    #[test]
    fn a_limited_table_stays_within_its_limit_keeps_the_costly_entries_and_answers_only_for_its_own_keys()
     {
        let mut table = HashBoundTable::new();
        BoundTable::<Numbers>::limit(&mut table, 256 << 10);
        // Every tenth entry cost a thousand times more than the rest.
        let work = |key: u64| {
            if key.is_multiple_of(10) {
                1 << 20
            } else {
                1 << 10
            }
        };
        for key in 0..100_000u64 {
            let entry = Entry::new(Bound::exactly(value(key)));
            table.store(&Numbers, &key, entry, work(key));
            assert!(BoundTable::<Numbers>::peak_bytes(&table, 0) <= 256 << 10);
        }
        let held = BoundTable::<Numbers>::len(&table);
        assert!(held > 1000 && held < 100_000, "{held}");
        let (mut found, mut costly) = (0, 0);
        for key in 0..200_000u64 {
            if let Some(entry) = table.get(&Numbers, &key) {
                assert!(key < 100_000);
                assert_eq!(entry.bound, Bound::exactly(value(key)));
                found += 1;
                costly += usize::from(key % 10 == 0);
            }
        }
        assert_eq!(found, held);
        // The costly entries survive the cheap ones: one in ten stored, but at each forgetting
        // the costly ones fill the half kept, so well over a third of the entries held.
        assert!(10 * costly >= 4 * held, "{costly} of {held}");
    }

    #[test]
    fn an_unlimited_table_keeps_every_entry_and_merges_bounds() {
        let mut table = HashBoundTable::new();
        for key in 0..50_000u64 {
            table.store(&Numbers, &key, Entry::new(Bound::at_least(-3)), 1);
            table.store(
                &Numbers,
                &key,
                Entry::new(Bound::at_most(4)).with_best(2),
                1,
            );
        }
        assert_eq!(BoundTable::<Numbers>::len(&table), 50_000);
        for key in 0..50_000u64 {
            let entry = table.get(&Numbers, &key).unwrap();
            assert_eq!((entry.bound, entry.best), (Bound::new(-3, 4), Some(2)));
        }
    }

    #[test]
    fn a_sharded_table_stays_within_its_limit_under_many_threads() {
        use rayon::prelude::*;
        let table = ShardedBoundTable::new();
        ConcurrentBoundTable::<Numbers>::limit(&table, 16 << 20);
        (0..600_000u64).into_par_iter().for_each(|key| {
            table.store(
                &Numbers,
                &key,
                Entry::new(Bound::exactly(value(key))),
                key % 5,
            );
        });
        let held = ConcurrentBoundTable::<Numbers>::len(&table);
        assert!(held > 10_000 && held < 600_000, "{held}");
        assert!(ConcurrentBoundTable::<Numbers>::peak_bytes(&table, 0) <= 16 << 20);
        let found = (0..600_000u64)
            .filter(|key| {
                table
                    .get(&Numbers, key)
                    .inspect(|entry| assert_eq!(entry.bound, Bound::exactly(value(*key))))
                    .is_some()
            })
            .count();
        assert_eq!(found, held);
    }
}
