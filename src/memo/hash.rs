//! A memo table on hashbrown's `HashMap`.

use std::hash::{BuildHasher, Hash};
use std::mem::size_of;

use hashbrown::DefaultHashBuilder;

use super::MemoTable;
use crate::game::{Game, Score};

/// A hash map from state to value, with a fast hasher (hashbrown's default, foldhash).
///
/// `K` is the game's state type and `H` the hasher; both are inferred where the table meets a
/// game.
///
/// ```
/// use gamesolver::{engines::exhaustive, memo::HashTable};
///
/// use gamesolver::games::StoneGameII;
///
/// let game = StoneGameII::new(vec![2, 7, 9, 4, 4]).unwrap();
/// let solution = exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new()).unwrap();
/// assert_eq!(game.alice_stones(solution.value()), 10);
/// assert!(solution.stats().stored > 0);
/// ```
#[derive(Debug, Clone)]
pub struct HashTable<K, H = DefaultHashBuilder> {
    map: hashbrown::HashMap<K, Score, H>,
}

impl<K> HashTable<K> {
    /// An empty table with the default fast hasher.
    pub fn new() -> Self {
        Self::with_hasher(DefaultHashBuilder::default())
    }
}

impl<K> Default for HashTable<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K, H> HashTable<K, H> {
    /// An empty table with the given hasher.
    pub fn with_hasher(hasher: H) -> Self {
        HashTable {
            map: hashbrown::HashMap::with_hasher(hasher),
        }
    }

    /// Heap bytes of a hashbrown table with room for `capacity` entries.
    pub(crate) fn table_bytes(capacity: u64) -> u64 {
        hashbrown_bytes(capacity, size_of::<(K, Score)>())
    }
}

/// Heap bytes of a hashbrown table with room for `capacity` entries of `entry` bytes each.
pub(crate) fn hashbrown_bytes(capacity: u64, entry: usize) -> u64 {
    if capacity == 0 {
        return 0;
    }
    // hashbrown keeps the load factor at most 7/8 and rounds buckets up to a power of two;
    // each bucket holds an entry and one control byte, plus one group of trailing controls.
    let buckets = (capacity.saturating_mul(8) / 7).max(4).next_power_of_two();
    buckets.saturating_mul(entry as u64 + 1).saturating_add(16)
}

/// Heap bytes of a growable hashbrown table of `len` entries in `capacity` slots, at its peak
/// while it takes `upcoming` more: while it grows it holds its old and its new buckets.
pub(crate) fn growing_bytes(len: usize, capacity: usize, upcoming: usize, entry: usize) -> u64 {
    let now = hashbrown_bytes(capacity as u64, entry);
    if len + upcoming <= capacity {
        now
    } else {
        let needed = ((len + upcoming) as u64).max((capacity as u64).saturating_mul(2));
        now.saturating_add(hashbrown_bytes(needed, entry))
    }
}

impl<G, K, H> MemoTable<G> for HashTable<K, H>
where
    G: Game<State = K> + ?Sized,
    K: Eq + Hash + Clone,
    H: BuildHasher,
{
    #[inline]
    fn get(&self, _game: &G, state: &K) -> Option<Score> {
        self.map.get(state).copied()
    }

    #[inline]
    fn insert(&mut self, _game: &G, state: K, value: Score) {
        self.map.insert(state, value);
    }

    fn len(&self) -> usize {
        self.map.len()
    }

    fn peak_bytes(&self, upcoming: usize) -> u64 {
        growing_bytes(
            self.map.len(),
            self.map.capacity(),
            upcoming,
            size_of::<(K, Score)>(),
        )
    }

    fn bytes_for(&self, states: u64) -> u64 {
        // The final table plus the half-size one it grew from, alive during the last rehash.
        let last = Self::table_bytes(states);
        last.saturating_add(last / 2)
    }

    fn fingerprint(&self, _game: &G, state: &K) -> Option<u64> {
        Some(self.map.hasher().hash_one(state))
    }

    fn same(&self, _game: &G, a: &K, b: &K) -> bool {
        a == b
    }
}
