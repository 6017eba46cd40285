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
//! | [`ShardedTable`] | concurrent | `State: Eq + Hash + Send + Sync` | a hash, a shard lock, a probe |
//! | [`AtomicDenseTable`] | concurrent | the game implements [`DenseIndex`](crate::DenseIndex) | one atomic load |

mod atomic_dense;
mod concurrent;
mod dense;
mod hash;
mod sharded;

pub use atomic_dense::AtomicDenseTable;
pub use concurrent::ConcurrentMemoTable;
pub use dense::DenseTable;
pub use hash::HashTable;
pub use sharded::{DEFAULT_SHARDS, ShardedTable};

use crate::game::{Game, Score};

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
