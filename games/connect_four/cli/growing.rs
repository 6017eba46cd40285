//! A Connect Four batch (`--batch`) on a bound table that grows with the search, as one
//! position's search does ([`pruning::growing`], the library's): a batch starts smaller, on
//! [`FIRST_BYTES`], as its positions are mostly quick, and its table grows within a hard
//! position's search and between positions, up to the batch's own size.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::engines::pruning::Session;
use crate::engines::pruning::growing::GROWTH;
use crate::games::{Bitboard, ConnectFour};
use crate::memo::{AtomicBoundTable, BoundTable, FixedBoundTable, HashBoundTable};
use crate::{
    Game, Score, SolveError,
    engines::{DeclaredRange, pruning::Pruner},
};

/// A batch's first table: 2²⁰ words, which a search fills in about a second.
const FIRST_BYTES: u64 = 8 << 20;

/// How long a batch searches on its first table before it moves to a larger one (about as long
/// as it takes to fill it); [`GROWTH`] times as long on each table that many times as large.
const FIRST_STAGE: Duration = Duration::from_secs(1);

/// A batch's table sizes: [`FIRST_BYTES`] until the batch has searched for [`FIRST_STAGE`],
/// then [`GROWTH`] times as large for [`GROWTH`] times as long, up to the batch's own size, as
/// one position's stages do but counted across the batch's positions ([`batch_value`]). A
/// batch of easy positions then never pays for the pages of a 64 MiB table, and a hard
/// position grows the table within its own search.
#[derive(Debug, Clone, Copy)]
pub(super) struct Between {
    /// The table's size now.
    bytes: u64,
    /// The batch's largest table.
    largest: u64,
    /// How long the table of this size is used.
    time: Duration,
    /// When the table of this size was made.
    since: Instant,
}

impl Between {
    /// The sizes for a batch whose table is at most `largest` bytes.
    pub(super) fn new(largest: u64) -> Between {
        Between::starting(largest, FIRST_BYTES, FIRST_STAGE)
    }

    /// The sizes for a batch whose first table has `bytes` for `time`, the last `largest`.
    fn starting(largest: u64, bytes: u64, time: Duration) -> Between {
        Between {
            bytes: bytes.min(largest),
            largest,
            time,
            since: Instant::now(),
        }
    }

    /// The sizes of a batch whose table never grows (one that grows by itself, as a hash table
    /// does).
    pub(super) fn fixed() -> Between {
        Between::starting(0, 0, Duration::ZERO)
    }

    /// The size of the table now.
    pub(super) fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The time left on this table before it grows; `None` once it is the largest.
    fn left(&self) -> Option<Duration> {
        (self.bytes < self.largest).then(|| self.time.saturating_sub(self.since.elapsed()))
    }

    /// The size the table should grow to now, if its time is up.
    fn grow(&mut self) -> Option<u64> {
        if self.left() != Some(Duration::ZERO) {
            return None;
        }
        self.bytes = self.bytes.saturating_mul(GROWTH.into()).min(self.largest);
        self.time = self.time.saturating_mul(GROWTH);
        self.since = Instant::now();
        Some(self.bytes)
    }
}

/// A batch's bound table, which a larger one holding its entries can replace.
pub(super) trait Grows<B: Bitboard>: BoundTable<ConnectFour<B>> + Sized {
    /// A table of `bytes` with this one's entries; `None` for a table that grows by itself
    /// (it stays).
    fn grown(&self, bytes: u64) -> Result<Option<Self>, SolveError>;
}

impl<B: Bitboard> Grows<B> for FixedBoundTable {
    fn grown(&self, bytes: u64) -> Result<Option<Self>, SolveError> {
        self.resized(bytes).map(Some)
    }
}

/// The table of a batch solved one position at a time on several threads: the pruner holds
/// it, the workers share it.
impl<B: Bitboard> Grows<B> for Arc<AtomicBoundTable> {
    fn grown(&self, bytes: u64) -> Result<Option<Self>, SolveError> {
        self.resized(bytes).map(|table| Some(Arc::new(table)))
    }
}

/// A table keyed by the whole position holds any key and grows by itself: it stays.
impl<B: Bitboard> Grows<B> for HashBoundTable<<ConnectFour<B> as Game>::State> {
    fn grown(&self, _bytes: u64) -> Result<Option<Self>, SolveError> {
        Ok(None)
    }
}

/// A batch whose keys no fixed table holds (a board of more than about 83 cells and markers):
/// each position on a table of its own keyed by the whole position, so that the batch's memory
/// is one position's, not every position's together.
pub(super) struct Fresh<'g, B: Bitboard> {
    pub(super) pruner:
        Pruner<'g, ConnectFour<B>, HashBoundTable<<ConnectFour<B> as Game>::State>, DeclaredRange>,
}

impl<'g, B: Bitboard> BatchSolver<'g, B> for Fresh<'g, B> {
    type Table = HashBoundTable<<ConnectFour<B> as Game>::State>;

    fn pruner(&mut self) -> &mut Pruner<'g, ConnectFour<B>, Self::Table, DeclaredRange> {
        &mut self.pruner
    }

    fn value(&mut self, position: &<ConnectFour<B> as Game>::State) -> Result<Score, SolveError> {
        *self.pruner.table_mut() = HashBoundTable::new();
        self.pruner.value_of(position)
    }
}

/// What a batch solves its positions with: a pruner on one thread, or every thread of a pool
/// at once (a session of the pruner's, or a pool entered per position).
pub(super) trait BatchSolver<'g, B: Bitboard> {
    /// The batch's table.
    type Table: Grows<B>;

    /// The pruner (its table, its limits, and questions asked on this thread).
    fn pruner(&mut self) -> &mut Pruner<'g, ConnectFour<B>, Self::Table, DeclaredRange>;

    /// The value of `position` under the pruner's limits.
    fn value(&mut self, position: &<ConnectFour<B> as Game>::State) -> Result<Score, SolveError>;
}

impl<'g, B: Bitboard, T: Grows<B>> BatchSolver<'g, B>
    for Pruner<'g, ConnectFour<B>, T, DeclaredRange>
{
    type Table = T;

    fn pruner(&mut self) -> &mut Pruner<'g, ConnectFour<B>, T, DeclaredRange> {
        self
    }

    fn value(&mut self, position: &<ConnectFour<B> as Game>::State) -> Result<Score, SolveError> {
        self.value_of(position)
    }
}

impl<'g, B: Bitboard> BatchSolver<'g, B>
    for Session<'_, 'g, ConnectFour<B>, Arc<AtomicBoundTable>, DeclaredRange>
{
    type Table = Arc<AtomicBoundTable>;

    fn pruner(&mut self) -> &mut Pruner<'g, ConnectFour<B>, Self::Table, DeclaredRange> {
        Session::pruner(self)
    }

    fn value(&mut self, position: &<ConnectFour<B> as Game>::State) -> Result<Score, SolveError> {
        self.value_of(position)
    }
}

/// A pruner whose every query enters `pool` (for a caller that is not one of its threads).
pub(super) struct OnPool<'p, 'g, B: Bitboard> {
    pub(super) pruner: &'p mut Pruner<'g, ConnectFour<B>, Arc<AtomicBoundTable>, DeclaredRange>,
    pub(super) pool: &'p rayon::ThreadPool,
}

impl<'g, B: Bitboard> BatchSolver<'g, B> for OnPool<'_, 'g, B> {
    type Table = Arc<AtomicBoundTable>;

    fn pruner(&mut self) -> &mut Pruner<'g, ConnectFour<B>, Self::Table, DeclaredRange> {
        self.pruner
    }

    fn value(&mut self, position: &<ConnectFour<B> as Game>::State) -> Result<Score, SolveError> {
        let pruner = &mut *self.pruner;
        self.pool.install(|| pruner.par_value_of(position))
    }
}

/// The value of one position of a batch, found by `solver`, on the pruner's table, which
/// grows as `sizes` says: a search that outruns its table's time stops, the entries move to
/// the larger table, and it goes on there. `limit` is the user's time limit for the position,
/// reported as given.
pub(super) fn batch_value<'g, B: Bitboard, S: BatchSolver<'g, B>>(
    solver: &mut S,
    position: &<ConnectFour<B> as Game>::State,
    sizes: &mut Between,
    limit: Option<Duration>,
) -> Result<Score, SolveError> {
    let started = Instant::now();
    loop {
        if let Some(bytes) = sizes.grow() {
            match solver.pruner().table().grown(bytes) {
                Ok(Some(larger)) => *solver.pruner().table_mut() = larger,
                Ok(None) => {}
                // Refused by the allocator: the batch goes on with the table it has.
                Err(_) => sizes.largest = sizes.bytes,
            }
        }
        let left = limit.map(|limit| limit.saturating_sub(started.elapsed()));
        let stage = sizes
            .left()
            .filter(|stage| left.is_none_or(|left| *stage < left));
        solver.pruner().limits_mut().time_limit = stage.or(left);
        match solver.value(position) {
            Err(SolveError::TimeLimit { .. }) if stage.is_some() => {}
            Err(SolveError::TimeLimit { progress, .. }) => {
                return Err(SolveError::TimeLimit {
                    limit: limit.unwrap_or_default(),
                    progress,
                });
            }
            result => return result,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::pruning;

    use crate::games::Position;

    const MIB: u64 = 1 << 20;

    #[test]
    fn a_batch_whose_table_grows_within_and_between_positions_finds_the_same_values() {
        // From 1 KiB with a millisecond a table: the table grows inside positions (the empty
        // board takes far longer than a millisecond on 1 KiB) and between them, up to 1 MiB;
        // every value is a fixed table's.
        let game = ConnectFour::new(5, 5).unwrap();
        let options = pruning::Options::new().ranged();
        let mut sizes = Between::starting(MIB, 1 << 10, Duration::from_millis(1));
        let table = FixedBoundTable::for_game(&game, sizes.bytes()).unwrap();
        let mut pruner = Pruner::new(&game, table, options).unwrap();
        let fixed = FixedBoundTable::for_game(&game, 64 * MIB).unwrap();
        let mut reference = Pruner::new(&game, fixed, options).unwrap();
        for moves in ["", "3", "33", "2332", "1515", "55", "12345", "3"] {
            let position = game.position(moves).unwrap();
            let value = batch_value(&mut pruner, &position, &mut sizes, None).unwrap();
            assert_eq!(value, reference.value_of(&position).unwrap(), "{moves}");
        }
        let bytes = pruner.table().bytes();
        assert!(
            bytes > 1 << 10 && bytes <= MIB,
            "the batch's table grew: {bytes}"
        );
        // The user's limit is reported as given, whatever the stage's was.
        let mut sizes = Between::starting(MIB, 1 << 10, Duration::from_millis(1));
        let table = FixedBoundTable::for_game(&game, sizes.bytes()).unwrap();
        let mut pruner = Pruner::new(&game, table, options).unwrap();
        let limit = Some(Duration::from_millis(3));
        match batch_value(&mut pruner, &game.start(), &mut sizes, limit) {
            Err(SolveError::TimeLimit { limit, .. }) => assert_eq!(limit, Duration::from_millis(3)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_batch_on_two_threads_grows_its_shared_table_and_finds_the_same_values() {
        // As above, on a pool of two: through a session (the batch's thread is one of the
        // pool's) and entering the pool per position (it is not).
        let game = ConnectFour::new(5, 5).unwrap();
        let options = pruning::Options::new().ranged();
        let fixed = FixedBoundTable::for_game(&game, 64 * MIB).unwrap();
        let mut reference = Pruner::new(&game, fixed, options).unwrap();
        let lines = ["", "3", "33", "2332", "1515", "55", "12345", "3"];
        let expected: Vec<Score> = lines
            .iter()
            .map(|moves| reference.value_of(&game.position(moves).unwrap()).unwrap())
            .collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        for entering in [false, true] {
            let mut sizes = Between::starting(MIB, 1 << 10, Duration::from_millis(1));
            let table = Arc::new(AtomicBoundTable::for_game(&game, sizes.bytes()).unwrap());
            let mut pruner = Pruner::new(&game, table, options).unwrap();
            let mut values = Vec::new();
            let mut solve = |solver: &mut dyn FnMut(&Position) -> Result<Score, SolveError>| {
                for moves in lines {
                    values.push(solver(&game.position(moves).unwrap()).unwrap());
                }
            };
            if entering {
                let mut solver = OnPool {
                    pruner: &mut pruner,
                    pool: &pool,
                };
                solve(&mut |position| batch_value(&mut solver, position, &mut sizes, None));
            } else {
                pool.install(|| {
                    pruner.par_session(|session| {
                        solve(&mut |position| batch_value(session, position, &mut sizes, None))
                    })
                });
            }
            assert_eq!(
                values, expected,
                "entering the pool per position: {entering}"
            );
            let bytes = pruner.table().bytes();
            assert!(bytes > 1 << 10 && bytes <= MIB, "the table grew: {bytes}");
        }
    }
}
