//! A shard's tables and their slots: tags matched eight at a time, write-once slots, and the
//! sizes of the levels a shard grows through.

use super::*;

/// One of a shard's tables: a tag byte per slot, eight to a word, and the slots.
///
/// A slot's tag is 0 while it is free, and 7 bits of its state's hash with the top bit set
/// once it is claimed (under the shard's lock, before the state is written; until its value
/// is stored, with release, the slot reads as absent). A probe
/// loads a group's word and matches all eight tags at once (as hashbrown matches its control
/// bytes): it looks into a slot only when its tag matches, and a miss seldom touches a slot
/// or takes more than one group. A state goes into the first group, in its probe order, that
/// has a free slot; nothing is ever removed, so a probe that meets a group with a free slot
/// can stop there.
pub(super) struct Level<K> {
    pub(super) tags: Box<[AtomicU64]>,
    pub(super) slots: Box<[Slot<K>]>,
}

/// The tag of a state whose hash is `hash`: bits that neither pick the shard (the top ones)
/// nor the group (the low ones), with the top bit set, so never 0.
#[inline]
fn tag(hash: u64) -> u64 {
    (hash >> 40) & 0x7f | 0x80
}

/// Each byte's lowest bit.
const LOW_BITS: u64 = 0x0101_0101_0101_0101;
/// Each byte's highest bit.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The bytes of `word` equal to `tag` (a full tag: top bit set), as their top bits.
#[inline]
fn matching(word: u64, tag: u64) -> u64 {
    // Bytes equal to the tag become 0. Only full bytes can match, and full bytes keep their
    // top bit clear here, so adding 0x7f to the low seven bits carries into the top bit
    // exactly when a byte is not 0 (no carry crosses bytes).
    let x = word ^ (tag * LOW_BITS);
    !(((x & !HIGH_BITS) + !HIGH_BITS) | x) & HIGH_BITS
}

/// The free slots of a group's `word`, as their top bits (a full tag has its top bit set).
#[inline]
fn free(word: u64) -> u64 {
    !word & HIGH_BITS
}

/// Who probes a table, and so how.
#[derive(Clone, Copy)]
pub(super) enum Probe {
    /// Any thread: acquire loads; a slot claimed but not yet written is passed over.
    Read,
    /// The holder of the shard's writer lock: a claimed slot is waited for.
    Write,
}

/// The slot of the byte whose top bit is the lowest set in `bits`, in group `group`.
#[inline]
fn slot_of(group: usize, bits: u64) -> usize {
    group * 8 + (bits.trailing_zeros() / 8) as usize
}

impl<K> Level<K> {
    /// An empty table of `size` slots (a power of two, at least 8); `None` if there is no
    /// memory for it.
    pub(super) fn new(size: usize) -> Option<Self> {
        let mut tags = Vec::new();
        tags.try_reserve_exact(size / 8).ok()?;
        tags.resize_with(size / 8, || AtomicU64::new(0));
        let mut slots = Vec::new();
        slots.try_reserve_exact(size).ok()?;
        slots.resize_with(size, Slot::empty);
        Some(Level {
            tags: tags.into_boxed_slice(),
            slots: slots.into_boxed_slice(),
        })
    }

    /// How many slots.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.slots.len()
    }

    /// Probes for `key` (hash `hash`) group by group: `Ok(slot)` where it is, or `Err(slot)`,
    /// the free slot where it would go. Readers (`Probe::Read`) load tags with acquire and
    /// pass over a slot claimed but not yet written. The holder of the shard's writer lock
    /// (`Probe::Write`), which wrote every tag, waits for such a slot to be written and looks
    /// at it: so one state is never claimed twice.
    #[inline(always)]
    pub(super) fn probe(&self, hash: u64, key: &K, by: Probe) -> Result<usize, usize>
    where
        K: Eq,
    {
        let wanted = tag(hash);
        let mask = self.tags.len() - 1;
        let mut group = hash as usize & mask;
        // Triangular steps (1, 2, 3, ...) visit every group of a power-of-two table, and a
        // table always has a free slot (it grows before it fills), so the loop ends.
        let mut step = 0;
        loop {
            let word = match by {
                Probe::Read => self.tags[group].load(Ordering::Acquire),
                Probe::Write => self.tags[group].load(Ordering::Relaxed),
            };
            let mut hits = matching(word, wanted);
            while hits != 0 {
                let at = slot_of(group, hits);
                let entry = match (by, self.slots[at].entry()) {
                    (Probe::Write, None) => Some(settled(&self.slots[at])),
                    (_, entry) => entry,
                };
                if entry.is_some_and(|(stored, _)| stored == key) {
                    return Ok(at);
                }
                hits &= hits - 1;
            }
            let open = free(word);
            if open != 0 {
                return Err(slot_of(group, open));
            }
            step += 1;
            group = (group + step) & mask;
        }
    }

    /// The value stored for `key` (whose hash is `hash`). Acquire loads only.
    #[inline(always)]
    pub(super) fn find(&self, hash: u64, key: &K) -> Option<Score>
    where
        K: Eq,
    {
        let at = self.probe(hash, key, Probe::Read).ok()?;
        self.slots[at].entry().map(|(_, value)| value)
    }

    /// Marks the free slot `at` taken by a state of hash `hash`: readers now see its tag, and
    /// take the slot as absent until its value is stored. The caller holds the writer lock of
    /// the shard this table belongs to (so it is the only one to write the tag's word), or
    /// has not shared the table.
    #[inline]
    pub(super) fn claim(&self, at: usize, hash: u64) {
        let word = &self.tags[at / 8];
        let tags = word.load(Ordering::Relaxed) | tag(hash) << (8 * (at % 8));
        word.store(tags, Ordering::Release);
    }

    /// Copies every state of this table into `fresh`, a table not yet shared, hashing each
    /// with `rehash`; returns how many. The caller holds the shard's writer lock.
    pub(super) fn copy_into(&self, fresh: &Level<K>, rehash: impl Fn(&K) -> u64) -> usize
    where
        K: Eq + Clone,
    {
        let mut copied = 0;
        for (group, word) in self.tags.iter().enumerate() {
            let mut taken = word.load(Ordering::Acquire) & HIGH_BITS;
            while taken != 0 {
                let at = slot_of(group, taken);
                taken &= taken - 1;
                // A slot claimed before the caller took the lock is being written by its
                // claimant, which takes no lock to finish: wait for it.
                let (key, value) = settled(&self.slots[at]);
                let hash = rehash(key);
                // `fresh` holds each state once already.
                if let Err(free) = fresh.probe(hash, key, Probe::Write) {
                    fresh.slots[free].fill(key.clone(), value);
                    fresh.claim(free, hash);
                    copied += 1;
                }
            }
        }
        copied
    }

    /// Heap bytes of a table of `slots` slots.
    pub(super) fn bytes(slots: u64) -> u64 {
        slots.saturating_mul(size_of::<Slot<K>>() as u64 + 1)
    }
}

/// A slot: a state, written once, and its value. The value is `Score::MIN` (never a stored
/// value) until the slot is filled; it is what readers load first, with acquire, and it
/// publishes the state.
pub(super) struct Slot<K> {
    pub(super) key: UnsafeCell<MaybeUninit<K>>,
    pub(super) value: AtomicI64,
}

// SAFETY: a `Slot` is shared between threads as `&Slot`; the only access to `key` through a
// shared reference is:
// - one write, by the one thread that claimed the slot under the shard's writer lock (the
//   lock hands each slot out once), while the value is still `Score::MIN`, before the value
//   is stored with release (`fill`);
// - reads (`key`), only after a non-`MIN` value was loaded with acquire, which
//   synchronises with that release store: the write happens before every read, and the
//   key is never written again while the slot is shared (only dropped, through `&mut`).
// So threads share `&K` (needs `K: Sync`) and a key written on one thread may be dropped on
// another (needs `K: Send`).
unsafe impl<K: Send + Sync> Sync for Slot<K> {}

impl<K> Slot<K> {
    pub(super) fn empty() -> Self {
        Slot {
            key: UnsafeCell::new(MaybeUninit::uninit()),
            value: AtomicI64::new(Score::MIN),
        }
    }

    /// The slot's state and value, if it is filled.
    #[inline]
    pub(super) fn entry(&self) -> Option<(&K, Score)> {
        let value = self.value.load(Ordering::Acquire);
        if value == Score::MIN {
            return None;
        }
        // SAFETY: a value other than `MIN`, loaded with acquire, was stored with release
        // after the key was written (`fill`), and the key is never written again while
        // `&self` lives.
        Some((unsafe { (*self.key.get()).assume_init_ref() }, value))
    }

    /// Fills an empty slot with `key` and `value`. The caller claimed the slot under the
    /// writer lock of the shard that owns it (a slot is claimed once), or owns the table
    /// outright.
    #[inline]
    pub(super) fn fill(&self, key: K, value: Score) {
        debug_assert!(value != Score::MIN && self.value.load(Ordering::Relaxed) == Score::MIN);
        // SAFETY: the slot is empty, so no reader reads its key (they read it only after a
        // non-`MIN` value), and the caller is its only writer (it claimed the slot under the
        // shard's lock, which hands each slot out once; or the table is not yet shared). The
        // release store below publishes the write.
        unsafe { (*self.key.get()).write(key) };
        self.value.store(value, Ordering::Release);
    }
}

impl<K> Drop for Slot<K> {
    fn drop(&mut self) {
        if std::mem::needs_drop::<K>() && *self.value.get_mut() != Score::MIN {
            // SAFETY: a filled slot holds an initialised key, dropped here once (`&mut`).
            unsafe { self.key.get_mut().assume_init_drop() }
        }
    }
}

/// The number of states a table of `slots` slots takes before it grows.
#[inline]
pub(super) fn most(slots: usize) -> usize {
    slots / MAX_LOAD_DEN * MAX_LOAD_NUM
}

/// Slots in all the tables of a shard whose newest is `level`.
fn slots_through(level: usize) -> u64 {
    ((FIRST_SLOTS as u64) << (level + 1)) - FIRST_SLOTS as u64
}

/// The smallest level whose table holds `states` states.
pub(super) fn level_for(states: u64) -> usize {
    let slots = states
        .div_ceil(MAX_LOAD_NUM as u64)
        .saturating_mul(MAX_LOAD_DEN as u64)
        .max(FIRST_SLOTS as u64);
    let shift = 64 - (slots - 1).leading_zeros();
    (shift.saturating_sub(FIRST_SHIFT) as usize).min(LEVELS - 1)
}

/// Heap bytes of a shard's tables up to and including `level`.
pub(super) fn table_bytes<K>(level: usize) -> u64 {
    Level::<K>::bytes(slots_through(level))
}
