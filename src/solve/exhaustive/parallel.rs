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
use super::{Solution, refuse_over_budget};
use crate::engines::kernel::{AnyValue, Limits, RangeSource, RunGuard, Stats};
use crate::error::Error;
use crate::game::{Game, Score};
use crate::memo::{ConcurrentMemoTable, MemoTable, TableJob};

/// Games whose [`state_bound`](Game::state_bound) is below this many states are solved by one
/// search: starting the pool's workers would cost more than it saves (docs/performance.md). A game that declares no bound is first searched by one worker for
/// this many stores, and the others start only if it has not finished by then.
pub const SERIAL_CUTOFF: u64 = 20_000;

/// Solves `game` from its start on every thread of the current rayon pool, sharing `table`,
/// with the default [`Limits`].
///
/// Mirrors [`solve`](crate::engines::solve): the value is identical for every thread count. What may
/// differ: the statistics (which worker stored what, how many hits), and the table's contents
/// (workers store states a single search would not have needed). The optimal line and best
/// moves depend only on exact values, so they are the same as the sequential engine's.
/// Run inside `pool.install(…)` to choose the pool and so the number of threads.
///
/// ```
/// use gamesolver::{memo::AtomicDenseTable, games::StoneGameII};
/// use gamesolver::engines::{par_solve};
///
/// let game = StoneGameII::new((1..=300).map(|i| i * 37 % 101 + 1).collect()).unwrap();
/// let table = AtomicDenseTable::for_game(&game);
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let parallel = pool.install(|| par_solve(&game, &table)).unwrap().value();
/// let sequential = gamesolver::engines::solve(&game, gamesolver::memo::DenseTable::for_game(&game));
/// assert_eq!(parallel, sequential.unwrap().value());
/// ```
pub fn par_solve<'g, 't, G, T>(game: &'g G, table: &'t T) -> Result<Solution<'g, G, &'t T>, Error>
where
    G: Game + Sync,
    G::State: Sync,
    T: ConcurrentMemoTable<G>,
{
    par_solve_with(game, table, Limits::default())
}

/// [`par_solve`] under explicit [`Limits`]: the budget covers the shared table and the stacks
/// of all the workers together, checked as in [`solve_with`](crate::engines::solve_with).
///
/// ```
/// use gamesolver::{Error, Limits, memo::ShardedTable, games::StoneGameII};
/// use gamesolver::engines::{par_solve_with};
///
/// let game = StoneGameII::new(vec![5; 3000]).unwrap();
/// let table = ShardedTable::new();
/// let refused = par_solve_with(&game, &table, Limits::with_memory_budget(1 << 20));
/// assert!(matches!(refused, Err(Error::MemoryBudget { .. })));
/// ```
pub fn par_solve_with<'g, 't, G, T>(
    game: &'g G,
    table: &'t T,
    limits: Limits,
) -> Result<Solution<'g, G, &'t T>, Error>
where
    G: Game + Sync,
    G::State: Sync,
    T: ConcurrentMemoTable<G>,
{
    par_solve_within(game, table, limits, AnyValue)
}

/// [`par_solve_with`] cutting on the ranges `range` gives, as
/// [`solve_within`](crate::engines::solve_within) does: every worker stops searching a state once a
/// move reaches the top of its range.
///
/// ```
/// use gamesolver::{DeclaredRange, Limits, memo::ShardedTable, games::Nim};
/// use gamesolver::engines::{par_solve_within};
///
/// let game = Nim::new(vec![1, 65_535]).unwrap();
/// let table = ShardedTable::new();
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let solution = pool.install(|| par_solve_within(&game, &table, Limits::default(), DeclaredRange));
/// assert_eq!(solution.unwrap().value(), 1); // 1 ^ 65535 ≠ 0: the first player wins
/// ```
pub fn par_solve_within<'g, 't, G, T, R>(
    game: &'g G,
    table: &'t T,
    limits: Limits,
    range: R,
) -> Result<Solution<'g, G, &'t T, R>, Error>
where
    G: Game + Sync,
    G::State: Sync,
    T: ConcurrentMemoTable<G>,
    R: RangeSource<G>,
{
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
            Err(Error::Cancelled) => {}
            Err(error) => return Err(error),
        }
    }
    let finished = AtomicBool::new(false);
    // One account for every worker's stack: the budget caps their total.
    let stacks = AtomicU64::new(0);
    let base = RunGuard::new(limits, None).sharing(&stacks);
    let outcomes: Vec<(Result<Score, Error>, Stats)> = rayon::broadcast(|context| {
        let mut search = Search::with_range(context.index(), range);
        let mut handle = table;
        let mut stats = Stats::default();
        let guard = RunGuard {
            cancel: Some(&finished),
            ..base
        };
        let result = search.value(game, &mut handle, &start, &mut stats, guard);
        if !matches!(result, Err(Error::Cancelled)) {
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
            Err(Error::Cancelled) => {}
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
    type Output = (Result<Score, Error>, Stats);

    fn run<T: MemoTable<G>>(self, mut table: T) -> Self::Output {
        let mut stats = Stats::default();
        let mut search = Search::with_range(0, self.range);
        let value = search.value(self.game, &mut table, self.start, &mut stats, self.guard);
        (value, stats)
    }
}
