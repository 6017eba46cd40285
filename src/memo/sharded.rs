//! A concurrent memo table whose reads take no lock: open addressing over write-once slots,
//! in shards that grow on their own.
//!
//! - A reader finds a state with acquire loads only: no read-modify-write, so a probe never
//!   waits for the core's earlier stores, and two cores reading one shard pass no lock's cache
//!   line between them.
//! - A writer takes its shard's lock to claim a free slot (its tag), releases it, and then
//!   writes the state and publishes it by storing its value with release. A slot is claimed
//!   once and never moves.
//! - A shard grows, under its lock, by copying its states into a table twice the size (waiting
//!   for claimed slots still being written) and then publishing it. The old table stays
//!   allocated, unchanged, until the whole table is dropped, since a reader may still be
//!   probing it. That needs no reclamation scheme (no epochs, no hazard pointers), at the
//!   price of the old tables' memory: less than the newest ones, which
//!   [`bytes_for`](ConcurrentMemoTable::bytes_for) and
//!   [`peak_bytes`](ConcurrentMemoTable::peak_bytes) count.

use std::cell::UnsafeCell;
use std::hash::{BuildHasher, Hash};
use std::mem::MaybeUninit;
use std::mem::size_of;
use std::sync::atomic::{AtomicI64, AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use hashbrown::DefaultHashBuilder;

use super::{ConcurrentMemoTable, MemoTable, TableJob};
use crate::game::{Game, Score};
use level::{Level, Probe, Slot, level_for, most, table_bytes};

mod level;

/// The default shard count. Shards separate writers (each takes its shard's lock) and make a
/// growth copy one shard's entries, not the table's; readers take no lock, so more shards
/// buy little and cost the walk over them in `len` and `peak_bytes` (docs/performance.md).
pub const DEFAULT_SHARDS: usize = 64;

/// Slots in a shard's first table; each table after it is twice the one before.
const FIRST_SLOTS: usize = 64;

/// `FIRST_SLOTS`'s logarithm.
const FIRST_SHIFT: u32 = FIRST_SLOTS.trailing_zeros();

/// Tables a shard can grow through: the last holds 2³⁵ slots.
const LEVELS: usize = 30;

/// A shard grows when a store would fill more than `MAX_LOAD_NUM / MAX_LOAD_DEN` of its slots
/// (as the probes go by groups of eight, a miss then still seldom reads a second group).
const MAX_LOAD_NUM: usize = 3;
const MAX_LOAD_DEN: usize = 4;

/// A concurrent map from state to value with lock-free reads, a fast hasher (foldhash), and
/// shards that grow on their own.
///
/// - A read hashes the state and probes the newest table of its shard with acquire loads: no
///   lock, no read-modify-write.
/// - A store takes its shard's lock to claim a free slot (a writer waits only for another
///   writer of the same shard), and writes the state and then its value once the lock is
///   released. Storing a state again replaces its value in place.
/// - Memory: a slot is the state, the value (16 bytes in all for a `u64` state) and a tag
///   byte; a shard's newest table is at most 3/4 full. With the tables the shard grew
///   from, which stay allocated, that is about 2.7 slots per state just before a shard grows
///   and 5.3 just after (a [`HashTable`](super::HashTable) holds 1.1 to 2.3 buckets per state,
///   and 3.4 while it grows).
///
/// Every call copies the value out and holds no lock once it returns, so no lock is held
/// while a search goes on.
///
/// ```
/// use gamesolver::{engines::exhaustive, games::StoneGameII, memo::ShardedTable};
///
/// let game = StoneGameII::new(vec![2, 7, 9, 4, 4]).unwrap();
/// let table = ShardedTable::new();
/// let solution = exhaustive::par_solve(&game, &table, exhaustive::Options::new()).unwrap();
/// assert_eq!(game.alice_stones(solution.value()), 10);
/// ```
pub struct ShardedTable<K, H = DefaultHashBuilder> {
    /// Each shard's newest level, a byte per shard side by side: every access reads one, so
    /// they stay in the nearest cache (written only when a shard grows).
    newest: Box<[AtomicU8]>,
    /// Each shard's tables: table `i` has `FIRST_SLOTS << i` slots; the first is made by the
    /// shard's first store.
    levels: Box<[[OnceLock<Level<K>>; LEVELS]]>,
    /// Each shard's writers' side, on cache lines of its own (a store to a shard takes the
    /// line from the other cores, and it holds nothing that readers load).
    writers: Box<[Writer]>,
    hasher: H,
    /// How far to shift a hash right to find its shard (its top bits pick the shard; its low
    /// bits the group).
    shift: u32,
    /// Heap bytes of every shard's tables (added to when a shard grows).
    held: AtomicU64,
}

/// A shard's writers' lock and count.
#[repr(align(128))]
struct Writer {
    /// Held to store into the shard, and while it grows.
    lock: Mutex<()>,
    /// How many states the shard holds: written under `lock` (a plain load and store, no
    /// read-modify-write), read by anyone.
    stored: AtomicUsize,
}

/// One shard of a table: its tables, its newest level, its writers' side.
struct Shard<'t, K> {
    levels: &'t [OnceLock<Level<K>>; LEVELS],
    newest: &'t AtomicU8,
    writer: &'t Writer,
}

// By hand: a derive would ask for `K: Copy`.
impl<K> Clone for Shard<'_, K> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K> Copy for Shard<'_, K> {}

impl<'t, K> Shard<'t, K> {
    /// The table readers use now (none before the first store).
    #[inline]
    fn newest(self) -> Option<&'t Level<K>> {
        let level = self.newest.load(Ordering::Acquire);
        self.levels[level as usize].get()
    }

    /// Locks the shard for storing. A panic while the lock was held (in a state's `clone` or
    /// `eq`) leaves every slot either whole or unpublished, so the lock's poison is ignored.
    fn lock(self) -> MutexGuard<'t, ()> {
        self.writer
            .lock
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Stores `value` for `key` (whose hash is `hash`; `rehash` hashes the states a growth
    /// moves); returns the heap bytes the shard grew by. `held` is this shard's `write` lock,
    /// so no other thread claims a slot here meanwhile. A new state's slot is claimed under
    /// the lock and written after it is released, if `held` owns it: a release waits for the
    /// stores before it, and a fresh slot is seldom in the cache.
    fn insert_locked(
        self,
        held: Held<'_, 't>,
        (hash, key): (u64, K),
        value: Score,
        rehash: impl Fn(&K) -> u64,
    ) -> u64
    where
        K: Eq + Clone,
    {
        let stored = self.writer.stored.load(Ordering::Relaxed);
        // A new state in a full table (or the shard's first) grows the shard first.
        let (table, stored, grown) = match self.newest() {
            Some(table) if stored < most(table.len()) => (table, stored, 0),
            Some(table) if table.probe(hash, &key, Probe::Write).is_ok() => (table, stored, 0),
            _ => {
                let grown = self.grow(rehash);
                let Some(table) = self.newest() else {
                    return grown;
                };
                (table, self.writer.stored.load(Ordering::Relaxed), grown)
            }
        };
        match table.probe(hash, &key, Probe::Write) {
            Ok(at) => table.slots[at].value.store(value, Ordering::Release),
            // One slot always stays free, so that every probe ends: if the table could not
            // grow (no memory) and is that full, the state goes unstored (a memo table may
            // always miss; the engines meet the budget error first).
            Err(at) if stored + 1 < table.len() => {
                table.claim(at, hash);
                self.writer.stored.store(stored + 1, Ordering::Relaxed);
                drop(held);
                table.slots[at].fill(key, value);
            }
            Err(_) => {}
        }
        grown
    }

    /// Makes the shard's next table, twice the newest, copies every stored state into it and
    /// publishes it to readers; returns the bytes it took (0 if there is no memory for it, or
    /// no level left). The caller holds the `write` lock.
    #[inline(never)]
    fn grow(self, rehash: impl Fn(&K) -> u64) -> u64
    where
        K: Eq + Clone,
    {
        let old = self.newest();
        let level = match old {
            None => 0,
            Some(_) => self.newest.load(Ordering::Relaxed) as usize + 1,
        };
        if level >= LEVELS {
            return 0;
        }
        let Some(fresh) = Level::new(FIRST_SLOTS << level) else {
            return 0;
        };
        let copied = old.map_or(0, |old| old.copy_into(&fresh, &rehash));
        let bytes = Level::<K>::bytes(fresh.len() as u64);
        // Set, then published with release: a reader that loads the new level's index sees
        // the table whole. (`set` fails only if the level were set already, which the lock
        // rules out.)
        if self.levels[level].set(fresh).is_err() {
            return 0;
        }
        self.newest.store(level as u8, Ordering::Release);
        self.writer.stored.store(copied, Ordering::Relaxed);
        bytes
    }
}

/// A shard's writer lock, as [`Shard::insert_locked`] is handed it: borrowed from a view that
/// holds every lock for a whole job, or owned for one store (and released before the new
/// state's slot is written).
enum Held<'g, 't> {
    Borrowed { _guard: &'g MutexGuard<'t, ()> },
    Owned { _guard: MutexGuard<'t, ()> },
}

/// The state and value of a claimed slot, once its claimant has written them (a claimant
/// runs no code of the game's between its claim and its write, so it always writes).
#[cold]
#[inline(never)]
fn settled<K>(slot: &Slot<K>) -> (&K, Score) {
    let mut spins = 0u32;
    loop {
        if let Some(entry) = slot.entry() {
            return entry;
        }
        spins += 1;
        if spins < 64 {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
}

impl<K> ShardedTable<K> {
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

impl<K> Default for ShardedTable<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K, H> ShardedTable<K, H> {
    /// An empty table with the given hasher and shard count (rounded up to a power of two,
    /// at least 2, at most 4096).
    pub fn with_hasher_and_shards(hasher: H, shards: usize) -> Self {
        let shards = shards.clamp(2, 1 << 12).next_power_of_two();
        ShardedTable {
            newest: (0..shards).map(|_| AtomicU8::new(0)).collect(),
            levels: (0..shards)
                .map(|_| std::array::from_fn(|_| OnceLock::new()))
                .collect(),
            writers: (0..shards)
                .map(|_| Writer {
                    lock: Mutex::new(()),
                    stored: AtomicUsize::new(0),
                })
                .collect(),
            hasher,
            shift: 64 - shards.trailing_zeros(),
            held: AtomicU64::new(0),
        }
    }

    /// The number of shards.
    pub fn shards(&self) -> usize {
        self.writers.len()
    }

    /// Shard number `index`.
    #[inline]
    fn shard_at(&self, index: usize) -> Shard<'_, K> {
        Shard {
            levels: &self.levels[index],
            newest: &self.newest[index],
            writer: &self.writers[index],
        }
    }

    /// The shard of `hash`.
    #[inline]
    fn shard(&self, hash: u64) -> Shard<'_, K> {
        self.shard_at((hash >> self.shift) as usize)
    }

    /// How many states are stored (a sum over the shards).
    fn stored(&self) -> usize {
        self.writers
            .iter()
            .map(|writer| writer.stored.load(Ordering::Relaxed))
            .sum()
    }

    /// Heap bytes of the shards themselves, whatever they hold.
    fn fixed_bytes(&self) -> u64 {
        let shard = size_of::<[OnceLock<Level<K>>; LEVELS]>() + size_of::<Writer>() + 1;
        (self.shards() * shard) as u64
    }
}

impl<K: Eq + Hash + Clone, H: BuildHasher> ShardedTable<K, H> {
    /// Stores through the shard of `hash`, whose lock is `held`.
    #[inline]
    fn insert_held(&self, held: Held<'_, '_>, hash: u64, state: K, value: Score) {
        let grown = self
            .shard(hash)
            .insert_locked(held, (hash, state), value, |key| self.hasher.hash_one(key));
        if grown > 0 {
            self.held.fetch_add(grown, Ordering::Relaxed);
        }
    }
}

impl<K, H> std::fmt::Debug for ShardedTable<K, H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShardedTable")
            .field("states", &self.stored())
            .field("shards", &self.shards())
            .finish()
    }
}

impl<G, K, H> ConcurrentMemoTable<G> for ShardedTable<K, H>
where
    G: Game<State = K> + ?Sized,
    K: Eq + Hash + Clone + Send + Sync,
    H: BuildHasher + Send + Sync,
{
    #[inline(always)]
    fn get(&self, _game: &G, state: &K) -> Option<Score> {
        let hash = self.hasher.hash_one(state);
        self.shard(hash).newest()?.find(hash, state)
    }

    #[inline]
    fn insert(&self, _game: &G, state: K, value: Score) {
        let hash = self.hasher.hash_one(&state);
        let held = Held::Owned {
            _guard: self.shard(hash).lock(),
        };
        self.insert_held(held, hash, state, value);
    }

    fn len(&self) -> usize {
        self.stored()
    }

    /// What the shards hold now, or what they would hold with `upcoming` more states if that
    /// is more ([`bytes_for`](ConcurrentMemoTable::bytes_for), which allows for shards that
    /// get more than their share). O(shards): a sum of the shards' counts.
    fn peak_bytes(&self, upcoming: usize) -> u64 {
        let now = self
            .held
            .load(Ordering::Relaxed)
            .saturating_add(self.fixed_bytes());
        let ahead = ConcurrentMemoTable::<G>::bytes_for(self, (self.stored() + upcoming) as u64);
        now.max(ahead)
    }

    fn bytes_for(&self, states: u64) -> u64 {
        let share = generous_share(states, self.shards() as u64);
        let shard = if share == 0 {
            0
        } else {
            table_bytes::<K>(level_for(share))
        };
        shard
            .saturating_mul(self.shards() as u64)
            .saturating_add(self.fixed_bytes())
    }

    fn fingerprint(&self, _game: &G, state: &K) -> Option<u64> {
        Some(self.hasher.hash_one(state))
    }

    fn same(&self, _game: &G, a: &K, b: &K) -> bool {
        a == b
    }

    /// Takes every shard's writer lock, in order, for the whole job: the job's stores then
    /// take no lock (its reads never do). Other threads may go on reading meanwhile; their
    /// stores wait for the job. (Every other path takes one shard's lock at a time, so taking
    /// them all in order cannot deadlock with it.)
    fn exclusive<J: TableJob<G>>(&self, job: J) -> J::Output {
        let held = (0..self.shards())
            .map(|index| self.shard_at(index).lock())
            .collect();
        job.run(Locked { table: self, held })
    }
}

/// How many of `states` states a shard can expect at most when a hash spreads them over
/// `shards` shards: the mean plus four standard deviations and a little (a binomial tail).
fn generous_share(states: u64, shards: u64) -> u64 {
    if states == 0 {
        return 0;
    }
    let mean = states.div_ceil(shards);
    let spread = 4 * (mean as f64).sqrt().ceil() as u64 + 4;
    (mean + spread).min(states)
}

/// A [`ShardedTable`] with every shard's writer lock held by one thread: stores take no lock.
struct Locked<'a, K, H> {
    table: &'a ShardedTable<K, H>,
    held: Vec<MutexGuard<'a, ()>>,
}

impl<G, K, H> MemoTable<G> for Locked<'_, K, H>
where
    G: Game<State = K> + ?Sized,
    K: Eq + Hash + Clone + Send + Sync,
    H: BuildHasher + Send + Sync,
{
    #[inline(always)]
    fn get(&self, game: &G, state: &K) -> Option<Score> {
        ConcurrentMemoTable::get(self.table, game, state)
    }

    #[inline]
    fn insert(&mut self, _game: &G, state: K, value: Score) {
        let hash = self.table.hasher.hash_one(&state);
        let held = Held::Borrowed {
            _guard: &self.held[(hash >> self.table.shift) as usize],
        };
        self.table.insert_held(held, hash, state, value);
    }

    fn len(&self) -> usize {
        self.table.stored()
    }

    fn peak_bytes(&self, upcoming: usize) -> u64 {
        ConcurrentMemoTable::<G>::peak_bytes(self.table, upcoming)
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
