//! Memo tables: where an engine keeps the values of the states it has solved.
//!
//! The sequential engine is generic over [`MemoTable`], the parallel one over
//! [`ConcurrentMemoTable`]; a shared reference to a concurrent table is a sequential one. Values go in and
//! come out by copy, so no guard or borrow of the table ever lives across the search. Keys are
//! exact: a table never reports a value for a state it was not given, since a false hit would
//! be a wrong answer.
//!
//! | table | kind | needs | cost of a lookup |
//! |---|---|---|---|
//! | [`HashTable`] | sequential | `State: Eq + Hash` | a hash and a probe (foldhash, not SipHash) |
//! | [`DenseTable`] | sequential | the game implements [`DenseIndex`](crate::DenseIndex) | one array access |
//! | [`NoTable`] | sequential | nothing | stores nothing: plain, exponential negamax for oracles |
//! | [`ShardedTable`] | concurrent | `State: Eq + Hash + Send + Sync` | a hash and a probe, no lock (a store locks its shard to claim a slot) |
//! | [`AtomicDenseTable`] | concurrent | the game implements [`DenseIndex`](crate::DenseIndex) | one atomic load |
//!
//! The pruning engine ([`prune`](crate::engines::pruning::solve)) keeps [`Bound`]s instead of exact values, in a
//! [`BoundTable`] (sequential) or a [`ConcurrentBoundTable`]:
//!
//! | table | kind | needs | memory |
//! |---|---|---|---|
//! | [`HashBoundTable`] | sequential | `State: Eq + Hash` | grows with the search up to half the budget, then old entries are replaced |
//! | [`FixedBoundTable`] | sequential | the game implements [`CompactKey`](crate::CompactKey) | fixed when made; old entries are replaced |
//! | [`ShardedBoundTable`] | concurrent | `State: Eq + Hash + Send + Sync` | as [`HashBoundTable`], in 1024 locked shards |
//! | [`AtomicBoundTable`] | concurrent | the game implements [`CompactKey`](crate::CompactKey) | fixed when made; one atomic word per entry |
//!
//! [`Canonical`] wraps any of these tables (and the memo tables) to store symmetric states once,
//! for games that implement [`Symmetry`](crate::Symmetry).

mod atomic_dense;
mod bounds;
mod canonical;
mod concurrent;
pub(crate) mod dense;
mod fixed_bounds;
mod hash;
mod replacing;
mod sharded;
pub(crate) mod zeroed;

pub use atomic_dense::AtomicDenseTable;
pub use bounds::{Bound, BoundTable, ConcurrentBoundTable, Entry};
pub use canonical::Canonical;
pub use concurrent::{ConcurrentMemoTable, TableJob};
pub use dense::DenseTable;
pub use fixed_bounds::{AtomicBoundTable, FixedBoundTable};
pub use hash::HashTable;
pub(crate) use hash::hashbrown_bytes;
pub use replacing::{HashBoundTable, ShardedBoundTable};
pub use sharded::{DEFAULT_SHARDS, ShardedTable};

use crate::game::{Game, Score};

/// The hasher the crate's hash tables use (foldhash, through hashbrown): fast, and not meant to
/// resist inputs chosen to collide. For a table or map of your own that should hash as fast as
/// the engine's:
///
/// ```
/// use std::collections::HashMap;
/// use gamesolver::memo::FastHashBuilder;
///
/// let mut seen: HashMap<u64, i64, FastHashBuilder> = HashMap::with_hasher(FastHashBuilder::default());
/// seen.insert(7, -1);
/// assert_eq!(seen.get(&7), Some(&-1));
/// ```
pub type FastHashBuilder = hashbrown::DefaultHashBuilder;

/// A table's or a solve's values in the order of a game's dense index, one per slot (`None`
/// for a slot without one): what [`MemoTable::values_by_index`] and
/// [`Solved::values_by_index`](crate::Solved::values_by_index) give, and what
/// `gamesolver … --save` writes.
pub type SlotValues<'a> = Box<dyn ExactSizeIterator<Item = Option<Score>> + 'a>;

/// A table of solved states' values, for the sequential engine.
///
/// The game is passed to every call so that a table can ask it for a state's index
/// ([`DenseTable`]) without holding a borrow of it.
pub trait MemoTable<G: Game + ?Sized> {
    /// The stored value of `state`, if any.
    fn get(&self, game: &G, state: &G::State) -> Option<Score>;

    /// Stores `value` as the value of `state`. `value` is never `Score::MIN`.
    fn insert(&mut self, game: &G, state: G::State, value: Score);

    /// How many states are stored.
    fn len(&self) -> usize;

    /// Whether no state is stored.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The heap bytes this table will hold at its peak while it takes `upcoming` more inserts
    /// (a hash table that must grow holds its old and its new buckets at once).
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
    /// (`None` for an empty one), where it is keyed by that index ([`DenseTable`],
    /// [`AtomicDenseTable`]); `None` for a table keyed otherwise
    /// (the default). [`Solved::values_by_index`](crate::Solved::values_by_index) reads it.
    fn values_by_index(&self) -> Option<SlotValues<'_>> {
        None
    }
}

/// A table that stores nothing: the engine then runs a plain negamax that revisits every
/// transposition. Exponential; meant for tiny games and for oracle tests.
///
/// ```
/// use gamesolver::memo::{MemoTable, NoTable};
/// use gamesolver::games::StoneGameII;
///
/// let game = StoneGameII::new(vec![2, 7, 9, 4, 4]).unwrap();
/// let mut table = NoTable;
/// table.insert(&game, game.start_state(), 5);
/// assert_eq!(table.get(&game, &game.start_state()), None);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoTable;

impl<G: Game + ?Sized> MemoTable<G> for NoTable {
    fn get(&self, _game: &G, _state: &G::State) -> Option<Score> {
        None
    }

    fn insert(&mut self, _game: &G, _state: G::State, _value: Score) {}

    fn len(&self) -> usize {
        0
    }

    fn peak_bytes(&self, _upcoming: usize) -> u64 {
        0
    }

    fn bytes_for(&self, _states: u64) -> u64 {
        0
    }
}

/// A count shared by many threads, kept in stripes on separate cache lines so that threads
/// adding to it rarely touch the same line; reading it sums the stripes (O(1): 16 loads).
#[derive(Debug, Default)]
pub(crate) struct StripedCount {
    stripes: [Stripe; 16],
}

#[derive(Debug, Default)]
#[repr(align(128))]
struct Stripe(std::sync::atomic::AtomicUsize);

impl StripedCount {
    /// Adds one, on the stripe that `hint` (a slot or a hash) picks.
    #[inline]
    pub(crate) fn add_one(&self, hint: usize) {
        self.stripes[hint % 16]
            .0
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// The count (exact once the adding threads are done; never more than the true count).
    pub(crate) fn get(&self) -> usize {
        self.stripes
            .iter()
            .map(|stripe| stripe.0.load(std::sync::atomic::Ordering::Relaxed))
            .sum()
    }
}

/// Hints the processor to bring `item`'s cache line closer, for a lookup soon; does nothing off
/// x86_64. For a solver of a game's own that knows which entry it reads next (Stone Game II's
/// specialised one prefetches the next columns of its windows).
///
/// ```
/// let values = vec![7u64; 1 << 16];
/// gamesolver::memo::prefetch(&values[40_000]); // a hint: nothing to observe but time
/// assert_eq!(values[40_000], 7);
/// ```
#[inline(always)]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` is an SSE instruction, and SSE is part of the x86_64 baseline, so
    // every x86_64 processor has it (the `unsafe` is only the target-feature requirement). A
    // prefetch is a hint: it never faults and has no effect the program can observe besides
    // timing, and here its address comes from a live reference anyway. Exercised by every
    // test of Stone Game II's specialised solver and of the fixed bound tables.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}
