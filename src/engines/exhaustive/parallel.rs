//! The parallel engine: the sequential search on every thread of the current rayon pool,
//! sharing one concurrent memo table.
//!
//! Each worker runs the same explicit-stack negamax from the start (so depth is never limited
//! by a worker's small native stack), but tries moves in its own order: worker `k` reverses
//! the game's move order when `k` is odd and rotates it by `k / 2`. The workers therefore
//! descend into different parts of the game first, store what they solve in the shared table,
//! and soon find each other's values there instead of computing them again. Every stored value
//! is exact, so whichever worker finishes first holds the exact value of the start; it raises a
//! flag and the others stop.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::search::Search;
use super::{Options, Solution, refuse_over_budget};
use crate::engines::kernel::{RangeSource, RunGuard, Stats};
use crate::error::SolveError;
use crate::game::{Game, Score};
use crate::memo::{ConcurrentMemoTable, MemoTable, TableJob};

/// Games whose [`state_bound`](Game::state_bound) is below this many states are solved by one
/// search: starting the pool's workers would cost more than it saves (docs/performance.md). A game that declares no bound is first searched by one worker for
/// this many stores, and the others start only if it has not finished by then.
pub const SERIAL_CUTOFF: u64 = 20_000;

/// Solves `game` from its start under `options` on every thread of the current rayon pool,
/// sharing `table`.
///
/// Mirrors [`solve`](super::solve): the value is identical for every thread count. What may
/// differ: the statistics (which worker stored what, how many hits), and the table's contents
/// (workers store states a single search would not have needed). The optimal line and best
/// moves depend only on exact values, so they are the same as the sequential engine's. The
/// budget covers the shared table and the stacks of all the workers together; with a range
/// source that cuts, every worker stops searching a state once a move reaches the top of its
/// range. Run inside `pool.install(…)` to choose the pool and so the number of threads.
///
/// ```
/// use gamesolver::{games::{Nim, StoneGameII}, memo::{AtomicDenseTable, DenseTable, ShardedTable}};
/// use gamesolver::engines::exhaustive::{par_solve, solve, Options};
///
/// let game = StoneGameII::new((1..=300).map(|i| i * 37 % 101 + 1).collect()).unwrap();
/// let table = AtomicDenseTable::for_game(&game);
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let parallel = pool.install(|| par_solve(&game, &table, Options::new())).unwrap().value();
/// let sequential = solve(&game, DenseTable::for_game(&game), Options::new());
/// assert_eq!(parallel, sequential.unwrap().value());
///
/// let game = Nim::new(vec![1, 65_535]).unwrap();
/// let table = ShardedTable::new();
/// let solution = pool.install(|| par_solve(&game, &table, Options::new().ranged()));
/// assert_eq!(solution.unwrap().value(), 1); // 1 ^ 65535 ≠ 0: the first player wins
/// ```
pub fn par_solve<'g, 't, G, T, R>(
    game: &'g G,
    table: &'t T,
    options: Options<R>,
) -> Result<Solution<'g, G, &'t T, R>, SolveError>
where
    G: Game + Sync,
    G::State: Sync,
    T: ConcurrentMemoTable<G>,
    R: RangeSource<G>,
{
    let Options { limits, range } = options;
    crate::engines::chance::refuse_chance(game, "the exhaustive engine")?;
    let workers = rayon::current_num_threads();
    let small = game
        .state_bound()
        .is_some_and(|bound| bound < SERIAL_CUTOFF);
    refuse_over_budget(game, &table, limits)?;
    let clock = Instant::now();
    let start = game.start();
    // One search alone holds the table to itself (`exclusive`): with one worker, on a small
    // game, and first on a game that declares no bound, which may still be small: the workers
    // start only if it has not finished after `SERIAL_CUTOFF` stores (what it stored stays in
    // the table for them).
    let alone = workers == 1 || small;
    let mut trial = Stats::default();
    if alone || game.state_bound().is_none() {
        let guard = RunGuard {
            stores: (!alone).then_some(SERIAL_CUTOFF as usize),
            ..RunGuard::new(limits, None)
        };
        let job = Alone {
            game,
            start: &start,
            range,
            guard,
        };
        let (result, stats) = table.exclusive(job);
        trial = stats;
        match result {
            Ok(value) => {
                return Ok(Solution::solved(
                    game,
                    (table, range),
                    limits,
                    (start, value),
                    (trial, clock),
                ));
            }
            Err(SolveError::Cancelled) => {}
            Err(error) => return Err(error),
        }
    }
    let finished = AtomicBool::new(false);
    // One account for every worker's stack: the budget caps their total.
    let stacks = AtomicU64::new(0);
    let base = RunGuard::new(limits, None).sharing(&stacks);
    let outcomes: Vec<(Result<Score, SolveError>, Stats)> = rayon::broadcast(|context| {
        let mut search = Search::with_range(context.index(), range);
        let mut handle = table;
        let mut stats = Stats::default();
        let guard = RunGuard {
            cancel: Some(&finished),
            ..base
        };
        let result = search.value(game, &mut handle, &start, &mut stats, guard);
        if !matches!(result, Err(SolveError::Cancelled)) {
            // A value, or an error every worker would meet: the others can stop.
            finished.store(true, Ordering::Relaxed);
        }
        (result, stats)
    });
    let mut stats = trial;
    let mut value = None;
    let mut failure = None;
    for (result, worker) in outcomes {
        stats += worker;
        match result {
            Ok(found) => {
                debug_assert!(value.is_none_or(|v| v == found), "workers disagree");
                value = Some(found);
            }
            Err(SolveError::Cancelled) => {}
            Err(error) => failure = failure.or(Some(error)),
        }
    }
    let value = match (value, failure) {
        (Some(value), _) => value,
        (None, Some(error)) => return Err(error),
        (None, None) => unreachable!("the first worker to finish is never cancelled"),
    };
    Ok(Solution::solved(
        game,
        (table, range),
        limits,
        (start, value),
        (stats, clock),
    ))
}

/// One search from `start`, with the table to itself ([`ConcurrentMemoTable::exclusive`]).
struct Alone<'a, G: Game, R> {
    game: &'a G,
    start: &'a G::State,
    range: R,
    guard: RunGuard<'a>,
}

impl<G: Game, R: RangeSource<G>> TableJob<G> for Alone<'_, G, R> {
    type Output = (Result<Score, SolveError>, Stats);

    fn run<T: MemoTable<G>>(self, mut table: T) -> Self::Output {
        let mut stats = Stats::default();
        let mut search = Search::with_range(0, self.range);
        let value = search.value(self.game, &mut table, self.start, &mut stats, self.guard);
        (value, stats)
    }
}
