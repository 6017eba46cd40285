//! One position searched on a bound table that grows with the search: sized from the memory
//! budget, without making a position of a millisecond pay for gigabytes. For a game with a
//! [`CompactKey`] (Connect Four's command line solves each position so).
//!
//! A fixed bound table costs what its pages cost when first written, and a search writes all
//! over it: a 4 GiB table costs seconds before a quick position is done, while a search much
//! longer than its table can hold overwrites what it needs again. So one position's search
//! starts on a table of half the processor's last-level cache (from 8 to 64 MiB; 64 MiB where
//! the cache is not known); each time it runs past its stage's time it stops, its entries move
//! to a table [`GROWTH`] times as large, and it searches again from there, losing only the
//! window it was in (whose proofs are in the table it takes along). The last table is the
//! largest power of two within half the budget (the rest is the search's and the line's); its
//! stage has no time of its own.
//!
//! ```
//! use gamesolver::{engines::pruning::{self, growing}, games::ConnectFour, Limits};
//!
//! let game = ConnectFour::new(5, 4)?;
//! let limits = Limits::with_memory_budget(1 << 30);
//! let options = pruning::Options::new().ranged().limits(limits);
//! let solved = growing::solve(&game, options, growing::Stages::new(limits))?;
//! assert_eq!(solved.value(), 0); // 5×4 is a draw
//! # Ok::<(), gamesolver::Error>(())
//! ```

use std::hash::Hash;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{Options, Pruned, Pruner};
use crate::Limits;
use crate::engines::kernel::{RangeSource, Stats};
use crate::error::SolveError;
use crate::game::{CompactKey, Score};
use crate::memo::{AtomicBoundTable, BoundTable, FixedBoundTable};

/// One position's first table where the processor's last-level cache is not known, and the
/// largest it starts on: 2²³ words (c4's faster table on Connect Four's empty 7×6 board has
/// the same 64 MiB), on which it searches for [`POSITION_STAGE`] before it grows.
pub(crate) const POSITION_BYTES: u64 = 64 << 20;

/// The smallest first table of one position: 2²⁰ words.
const POSITION_LEAST: u64 = 8 << 20;

/// One position's first table for a last-level cache of `cache` bytes: the largest power of two
/// within half the cache, from [`POSITION_LEAST`] to [`POSITION_BYTES`]; [`POSITION_BYTES`] where
/// the cache is not known. Nearly every probe of a table much larger than the cache waits on
/// memory; Connect Four's empty 7×6 board's search fits a table of half a server's cache with few
/// entries lost, and runs faster on it than on a larger one (docs/performance.md).
pub(crate) fn position_bytes(cache: Option<u64>) -> u64 {
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
pub(crate) fn last_level_cache() -> Option<u64> {
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
pub(crate) const POSITION_STAGE: Duration = Duration::from_secs(64);

/// How much larger each table is than the one before, and each stage's time than the last.
pub const GROWTH: u32 = 8;

/// The stages' tables and times for one solve: the first table (sized to the processor's
/// cache), each [`GROWTH`] times as large as the one before and searched [`GROWTH`] times as
/// long, the last the largest power of two within half the memory budget, with no time of its
/// own.
///
/// ```
/// use gamesolver::{Limits, engines::pruning::growing::Stages};
///
/// let stages = Stages::new(Limits::with_memory_budget(1 << 30));
/// assert!(stages.first_bytes().is_power_of_two());
/// assert!(stages.first_bytes() <= 64 << 20);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Stages {
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
    pub fn new(limits: Limits) -> Stages {
        Stages::starting(limits, position_bytes(last_level_cache()), POSITION_STAGE)
    }

    /// The first table's bytes.
    pub fn first_bytes(&self) -> u64 {
        self.bytes
    }

    /// Whether the first table's words hold keys of `key_bits` bits (a game whose keys they do
    /// not hold is searched on a hash table of whole states instead).
    pub fn holds_keys(&self, key_bits: u32) -> bool {
        FixedBoundTable::holds_keys(key_bits, self.bytes)
    }

    /// The stages for a solve under `limits` whose first table has `bytes` and runs for `time`.
    pub(crate) fn starting(limits: Limits, bytes: u64, time: Duration) -> Stages {
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

/// Solves `game`'s start on one thread on a growing [`FixedBoundTable`]: the solution on the
/// last table, with the user's limits for the queries that follow, whose statistics begin
/// with what every stage did.
pub fn solve<G, R>(
    game: &G,
    options: Options<R>,
    mut stages: Stages,
) -> Result<Pruned<'_, G, FixedBoundTable, R>, SolveError>
where
    G: CompactKey,
    R: RangeSource<G>,
{
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
            Some(value) => return solved(game, held, options, (start, value), spent),
            None => table = held.resized(stages.bytes())?,
        }
    }
}

/// What [`solve`] does, on every thread of the rayon pool it is called in, sharing a growing
/// [`AtomicBoundTable`]: the solution on the last table (which it holds through an `Arc`).
pub fn par_solve<G, R>(
    game: &G,
    options: Options<R>,
    mut stages: Stages,
) -> Result<Pruned<'_, G, Arc<AtomicBoundTable>, R>, SolveError>
where
    G: CompactKey + Sync,
    G::State: Hash + Send + Sync,
    R: RangeSource<G>,
{
    let start = game.start();
    let mut table = AtomicBoundTable::for_game(game, stages.bytes())?;
    let mut spent = Stats::default();
    loop {
        let (limits, last) = stages.next();
        let mut pruner = Pruner::new(game, &table, options.limits(limits))?;
        let value = stages.after(pruner.par_value_of(&start), last)?;
        spent = then(spent, pruner.stats());
        match value {
            Some(value) => return solved(game, Arc::new(table), options, (start, value), spent),
            None => table = table.resized(stages.bytes())?,
        }
    }
}

/// The solution of `start` (of value `value`) on `table`: a fresh pruner under the user's
/// `options`, whose statistics begin with what the stages `spent`.
fn solved<G, T, R>(
    game: &G,
    table: T,
    options: Options<R>,
    (start, value): (G::State, Score),
    spent: Stats,
) -> Result<Pruned<'_, G, T, R>, SolveError>
where
    G: CompactKey,
    T: BoundTable<G>,
    R: RangeSource<G>,
{
    let mut pruner = Pruner::new(game, table, options)?;
    pruner.stats = spent;
    Ok(pruner.into_solved(start, value))
}

/// The work of `before` and then `after` (stages, or a solve and the queries on its solution):
/// counts and times add up, since they ran one after the other; the entries stored are the
/// last table's.
fn then(before: Stats, after: Stats) -> Stats {
    let mut total = before;
    total += after;
    total.elapsed = before.elapsed + after.elapsed;
    total.stored = after.stored;
    total
}
#[cfg(test)]
mod tests {
    use super::*;

    use crate::Game;
    use crate::engines::pruning;
    use crate::games::ConnectFour;

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
            let mut grown = solve(&game, options, tiny()).unwrap();
            // Before any query: the statistics are the stages'.
            let spent = grown.stats();
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
            let shared = pool.install(|| par_solve(&game, options, tiny())).unwrap();
            assert_eq!(shared.value(), expected.value(), "{moves}, 2 threads");
            assert!(shared.stats().expanded > 0);
            if moves.is_empty() {
                assert!(
                    shared.table().bytes() > 1 << 10,
                    "the empty board outgrows 1 KiB"
                );
            }
        }
    }
}
