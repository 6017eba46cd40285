//! One Connect Four position on a bound table that grows with the search: sized from the
//! memory budget, without making a position of a millisecond pay for gigabytes.
//!
//! A fixed bound table costs what its pages cost when first written, and a search writes all
//! over it: a 4 GiB table costs seconds before a quick position is done, while a search much
//! longer than its table can hold overwrites what it needs again. So one position's search
//! starts on [`POSITION_BYTES`] (which holds the empty 7×6 board's search, its costly entries
//! kept, where the processor's cache is not known; [`position_bytes`] sizes it to the cache);
//! each time it runs past its stage's time it stops, its entries move to a table
//! [`GROWTH`] times as large, and it searches again from there, losing only the window it was
//! in (whose proofs are in the table it takes along). A batch starts smaller, on
//! [`FIRST_BYTES`], as its positions are mostly quick. The last table is the largest power of
//! two within half the budget (the rest is the search's and the line's); its stage has no time
//! of its own.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::engines::pruning::{self, Session};
use crate::games::{Bitboard, ConnectFour};
use crate::memo::{AtomicBoundTable, BoundTable, FixedBoundTable, HashBoundTable};
use crate::{
    Game, Limits, Score, SolveError,
    engines::{
        DeclaredRange, Stats,
        pruning::{Pruned, Pruner},
    },
};

/// A batch's first table: 2²⁰ words, which a search fills in about a second.
const FIRST_BYTES: u64 = 8 << 20;

/// How long a batch searches on its first table before it moves to a larger one (about as long
/// as it takes to fill it); [`GROWTH`] times as long on each table that many times as large.
const FIRST_STAGE: Duration = Duration::from_secs(1);

/// One position's first table where the processor's last-level cache is not known, and the
/// largest it starts on: 2²³ words (c4's faster table on the empty 7×6 board has the same
/// 64 MiB), on which it searches for [`POSITION_STAGE`] before it grows.
const POSITION_BYTES: u64 = 64 << 20;

/// The smallest first table of one position: 2²⁰ words.
const POSITION_LEAST: u64 = 8 << 20;

/// One position's first table for a last-level cache of `cache` bytes: the largest power of two
/// within half the cache, from [`POSITION_LEAST`] to [`POSITION_BYTES`]; [`POSITION_BYTES`] where
/// the cache is not known. Nearly every probe of a table much larger than the cache waits on
/// memory; the empty 7×6 board's search fits a table of half a server's cache with few entries
/// lost, and runs faster on it than on a larger one (docs/performance.md).
pub(super) fn position_bytes(cache: Option<u64>) -> u64 {
    match cache {
        Some(bytes) if bytes >= 2 => {
            let half = bytes / 2;
            (1u64 << (63 - half.leading_zeros())).clamp(POSITION_LEAST, POSITION_BYTES)
        }
        _ => POSITION_BYTES,
    }
}

/// The size of the processor's largest cache (the highest level), as Linux describes it under
/// /sys/devices/system/cpu/cpu0/cache; `None` elsewhere or if it cannot be read.
fn last_level_cache() -> Option<u64> {
    let caches = std::fs::read_dir("/sys/devices/system/cpu/cpu0/cache").ok()?;
    caches
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let level: u32 = std::fs::read_to_string(path.join("level"))
                .ok()?
                .trim()
                .parse()
                .ok()?;
            let size = cache_size(&std::fs::read_to_string(path.join("size")).ok()?)?;
            Some((level, size))
        })
        .max()
        .map(|(_, size)| size)
}

/// A cache size as Linux writes it (`32768K`, `16M`, `512`), in bytes.
fn cache_size(text: &str) -> Option<u64> {
    let text = text.trim();
    let (digits, unit) = match text.strip_suffix(['K', 'M', 'G']) {
        Some(digits) => (digits, &text[digits.len()..]),
        None => (text, ""),
    };
    let shift = match unit {
        "K" => 10,
        "M" => 20,
        "G" => 30,
        _ => 0,
    };
    digits.parse::<u64>().ok()?.checked_mul(1 << shift)
}

/// How long one position searches on its first table.
const POSITION_STAGE: Duration = Duration::from_secs(64);

/// How much larger each table is than the one before, and each stage's time than the last.
const GROWTH: u32 = 8;

/// The stages' tables and times for one solve.
#[derive(Debug, Clone, Copy)]
pub(super) struct Stages {
    /// The table of the stage being run.
    bytes: u64,
    /// The last table's size.
    largest: u64,
    /// This stage's time (none once the table is the largest).
    time: Duration,
    /// When the solve started (the user's time limit counts from here).
    clock: Instant,
    /// The user's limits.
    limits: Limits,
}

impl Stages {
    /// The stages for a solve under `limits`.
    pub(super) fn new(limits: Limits) -> Stages {
        Stages::starting(limits, position_bytes(last_level_cache()), POSITION_STAGE)
    }

    /// The first table's bytes.
    pub(super) fn first_bytes(&self) -> u64 {
        self.bytes
    }

    /// The stages for a solve under `limits` whose first table has `bytes` and runs for `time`.
    fn starting(limits: Limits, bytes: u64, time: Duration) -> Stages {
        let half = (limits.memory_budget / 2).max(1);
        let largest = 1u64 << (63 - half.leading_zeros());
        Stages {
            bytes: bytes.min(largest),
            largest,
            time,
            clock: Instant::now(),
            limits,
        }
    }

    /// The limits of the stage to run next, and whether running out of time in it is the
    /// user's time limit (the last word) rather than the stage's: give both to
    /// [`after`](Self::after) with the stage's result.
    fn next(&self) -> (Limits, bool) {
        let left = self
            .limits
            .time_limit
            .map(|limit| limit.saturating_sub(self.clock.elapsed()));
        let last = self.bytes >= self.largest;
        match left {
            Some(left) if last || left <= self.time => (
                Limits {
                    time_limit: Some(left),
                    ..self.limits
                },
                true,
            ),
            _ if last => (self.limits, true),
            _ => (
                Limits {
                    time_limit: Some(self.time),
                    ..self.limits
                },
                false,
            ),
        }
    }

    /// What a stage's `result` means: its value, or `None` when the stage's own time ran out
    /// (the next stage's table is then [`bytes`](Self::bytes)), or the error (running out of
    /// the user's time reported with the user's limit). `last` is [`next`](Self::next)'s.
    fn after(
        &mut self,
        result: Result<Score, SolveError>,
        last: bool,
    ) -> Result<Option<Score>, SolveError> {
        match result {
            Ok(score) => Ok(Some(score)),
            Err(SolveError::TimeLimit { .. }) if !last => {
                self.bytes = self.bytes.saturating_mul(GROWTH.into()).min(self.largest);
                self.time = self.time.saturating_mul(GROWTH);
                Ok(None)
            }
            Err(SolveError::TimeLimit { progress, .. }) => Err(SolveError::TimeLimit {
                limit: self.limits.time_limit.unwrap_or_default(),
                progress,
            }),
            Err(error) => Err(error),
        }
    }

    /// The table of the stage to run next.
    fn bytes(&self) -> u64 {
        self.bytes
    }
}

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

/// A solution on a fixed bound table.
type Solution<'g, B> = Pruned<'g, ConnectFour<B>, FixedBoundTable, DeclaredRange>;

/// Solves `game`'s start on one thread on a growing [`FixedBoundTable`]: the solution (on the
/// last table, with the user's limits for the queries that follow) and what every stage did.
pub(super) fn solve<B: Bitboard>(
    game: &ConnectFour<B>,
    options: pruning::Options<DeclaredRange>,
    mut stages: Stages,
) -> Result<(Solution<'_, B>, Stats), SolveError> {
    let start = game.start();
    let mut table = FixedBoundTable::for_game(game, stages.bytes())?;
    let mut spent = Stats::default();
    loop {
        let (limits, last) = stages.next();
        let mut pruner = Pruner::new(game, table, options.limits(limits))?;
        let value = stages.after(pruner.value_of(&start), last)?;
        spent = then(spent, pruner.stats());
        let held = pruner.into_table();
        match value {
            // A fresh pruner, under the user's limits: its statistics are the queries' that
            // follow, not the solve's.
            Some(value) => {
                let pruner = Pruner::new(game, held, options)?;
                return Ok((pruner.into_solved(start, value), spent));
            }
            None => table = held.resized(stages.bytes())?,
        }
    }
}

/// What [`solve`] does, on every thread of `pool` sharing a growing [`AtomicBoundTable`]: the
/// value, the last table (the caller makes the solution on it) and what every stage did.
pub(super) fn par_solve<B: Bitboard>(
    game: &ConnectFour<B>,
    options: pruning::Options<DeclaredRange>,
    pool: &rayon::ThreadPool,
    mut stages: Stages,
) -> Result<(Score, AtomicBoundTable, Stats), SolveError> {
    let start = game.start();
    let mut table = AtomicBoundTable::for_game(game, stages.bytes())?;
    let mut spent = Stats::default();
    loop {
        let (limits, last) = stages.next();
        let mut pruner = Pruner::new(game, &table, options.limits(limits))?;
        let value = stages.after(pool.install(|| pruner.par_value_of(&start)), last)?;
        spent = then(spent, pruner.stats());
        match value {
            Some(value) => return Ok((value, table, spent)),
            None => table = table.resized(stages.bytes())?,
        }
    }
}

/// The work of `before` and then `after` (stages, or a solve and the queries on its solution):
/// counts and times add up, since they ran one after the other; the entries stored are the
/// last table's.
pub(super) fn then(before: Stats, after: Stats) -> Stats {
    let mut total = before;
    total += after;
    total.elapsed = before.elapsed + after.elapsed;
    total.stored = after.stored;
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::games::Position;

    const MIB: u64 = 1 << 20;

    #[test]
    fn the_first_table_is_half_the_cache_within_its_bounds() {
        assert_eq!(cache_size("32768K\n"), Some(32 * MIB));
        assert_eq!(cache_size("16M"), Some(16 * MIB));
        assert_eq!(cache_size("512"), Some(512));
        assert_eq!(cache_size("lots"), None);
        assert_eq!(cache_size("99999999999999999999G"), None);
        assert_eq!(position_bytes(Some(32 * MIB)), 16 * MIB);
        // A power of two within half the cache: 36 MiB gives 16.
        assert_eq!(position_bytes(Some(36 * MIB)), 16 * MIB);
        assert_eq!(position_bytes(Some(4 * MIB)), 8 * MIB);
        assert_eq!(position_bytes(Some(1 << 30)), 64 * MIB);
        assert_eq!(position_bytes(None), 64 * MIB);
        assert_eq!(position_bytes(Some(0)), 64 * MIB);
        // Whatever this machine says, the first table is a power of two within the bounds.
        let here = position_bytes(last_level_cache());
        assert!(here.is_power_of_two() && (8 * MIB..=64 * MIB).contains(&here));
    }

    #[test]
    fn the_tables_grow_eightfold_to_half_the_budget_and_the_last_has_no_time_of_its_own() {
        let limits = Limits::with_memory_budget(12 << 30);
        let mut stages = Stages::starting(limits, POSITION_BYTES, POSITION_STAGE);
        let mut seen = Vec::new();
        loop {
            let (limits, last) = stages.next();
            seen.push((stages.bytes() / MIB, limits.time_limit.map(|t| t.as_secs())));
            if last {
                break;
            }
            let out_of_time = SolveError::TimeLimit {
                limit: Duration::ZERO,
                progress: String::new(),
            };
            let out_of_time = stages.after(Err(out_of_time), last);
            assert!(matches!(out_of_time, Ok(None)));
        }
        assert_eq!(seen, vec![(64, Some(64)), (512, Some(512)), (4096, None)]);
        // A small budget: one stage, the largest table already.
        let small = Stages::new(Limits::with_memory_budget(6 * MIB));
        assert_eq!((small.bytes(), small.next().1), (2 * MIB, true));
    }

    #[test]
    fn the_users_time_limit_is_the_last_word_and_is_reported_as_given() {
        let limits = Limits::with_memory_budget(1 << 30).time_limit(Duration::from_millis(300));
        let mut stages = Stages::new(limits);
        let (stage, last) = stages.next();
        assert!(last, "300 ms left is less than the first stage's minute");
        assert!(stage.time_limit.unwrap() <= Duration::from_millis(300));
        let out_of_time = SolveError::TimeLimit {
            limit: Duration::from_millis(299),
            progress: "far".into(),
        };
        let error = stages.after(Err(out_of_time), last).unwrap_err();
        assert_eq!(
            error,
            SolveError::TimeLimit {
                limit: Duration::from_millis(300),
                progress: "far".into()
            }
        );
    }

    #[test]
    fn a_solve_that_outgrows_its_tables_finds_the_same_values_and_optimal_lines() {
        // Tables from 1 KiB with stages of a millisecond: these positions cross several.
        let game = ConnectFour::new(5, 5).unwrap();
        let options = pruning::Options::new().ranged();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        for moves in ["", "3", "33", "2332", "1515", "55"] {
            let position = game.position(moves).unwrap();
            let game = game.clone().starting_at(position);
            let fixed = FixedBoundTable::for_game(&game, 64 * MIB).unwrap();
            let mut expected = pruning::solve(&game, fixed, options).unwrap();
            let tiny = || Stages::starting(options.limits, 1 << 10, Duration::from_millis(1));
            let (mut grown, spent) = solve(&game, options, tiny()).unwrap();
            assert_eq!(grown.value(), expected.value(), "{moves}");
            // The line may take other moves among equally good ones (it follows what the
            // tables hold): every one of its moves keeps its state's value, and it ends the
            // game.
            let line = grown.line().unwrap();
            let mut state = *grown.start();
            for ply in &line {
                assert_eq!(ply.state, state, "{moves}");
                assert_eq!(ply.value, expected.value_of(&state).unwrap(), "{moves}");
                state = game.play(&state, &ply.mv).next;
                assert_eq!(-expected.value_of(&state).unwrap(), ply.value, "{moves}");
            }
            assert!(
                Game::known_value(&game, &state).is_some(),
                "{moves}: the game is over"
            );
            assert!(spent.expanded > 0);
            if moves.is_empty() {
                assert!(
                    grown.table().bytes() > 1 << 10,
                    "the empty board outgrows 1 KiB"
                );
            }
            let (value, table, _) = par_solve(&game, options, &pool, tiny()).unwrap();
            assert_eq!(value, expected.value(), "{moves}, 2 threads");
            if moves.is_empty() {
                assert!(table.bytes() > 1 << 10, "the empty board outgrows 1 KiB");
            }
        }
    }

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
