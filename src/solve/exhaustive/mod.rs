//! The exhaustive engine: exact memoized negamax over any [`Game`], and the [`Solution`] it
//! returns.
//!
//! [`solve`] searches depth-first on an explicit stack (no native recursion, so games 10⁶ moves
//! deep are fine), storing each expanded state's value in a [`MemoTable`]. [`solve_with`] does
//! the same under explicit [`Limits`]. [`par_solve`] and
//! [`par_solve_with`] mirror them on every thread of the current rayon
//! pool, sharing a [`ConcurrentMemoTable`](crate::memo::ConcurrentMemoTable).

mod parallel;
mod search;
mod solution;
mod sweep;

use std::time::Instant;

pub use parallel::{SERIAL_CUTOFF, par_solve, par_solve_with, par_solve_within};
pub use solution::Solution;
pub(crate) use sweep::sweep;

use super::kernel::{AnyValue, DeclaredRange, Limits, RangeSource, RunGuard, Stats};
use crate::error::Error;
use crate::game::Game;
use crate::memo::MemoTable;
use search::Search;

/// Solves `game` from its start with the default [`Limits`], storing values in `table`.
///
/// ```
/// use gamesolver::{memo::HashTable, games::StoneGameVIII};
/// use gamesolver::engines::{solve};
///
/// let game = StoneGameVIII::new(vec![-1, 2, -3, 4, -5]).unwrap();
/// let stepwise = game.stepwise();
/// let solution = solve(&stepwise, HashTable::new()).unwrap();
/// assert_eq!(solution.value(), 5);
/// ```
pub fn solve<G, T>(game: &G, table: T) -> Result<Solution<'_, G, T>, Error>
where
    G: Game,
    T: MemoTable<G>,
{
    solve_with(game, table, Limits::default())
}

/// Solves `game` from its start under `limits`, storing values in `table`.
///
/// Before searching, if the game declares a [`state_bound`](Game::state_bound), a solve whose
/// table would need more than the memory budget is refused; while searching, the table and the
/// stack are checked against the budget every 1024 stored states and whenever the stack grows.
///
/// ```
/// use gamesolver::{Error, Limits, memo::HashTable, games::StoneGameII};
/// use gamesolver::engines::{solve_with};
///
/// let game = StoneGameII::new(vec![5; 3000]).unwrap();
/// let refused = solve_with(&game, HashTable::new(), Limits::with_memory_budget(1 << 20));
/// assert!(matches!(refused, Err(Error::MemoryBudget { .. })));
/// ```
pub fn solve_with<G, T>(game: &G, table: T, limits: Limits) -> Result<Solution<'_, G, T>, Error>
where
    G: Game,
    T: MemoTable<G>,
{
    solve_within(game, table, limits, AnyValue)
}

/// [`solve_with`] for a game that declares the range of values still possible at each state
/// ([`ValueRange`](crate::ValueRange)): a state whose best move so far reaches the top of its
/// range has that value, so its other moves are not searched. Win/lose games (a range of
/// `(-1, 1)`) then stop at the first winning move, as a hand-written search would.
///
/// Every value stored is still exact, but the states below the skipped moves are not stored:
/// [`Solution`] answers questions about them ([`move_values`](Solution::move_values),
/// [`line`](Solution::line)) by extending the search, exactly, without the cut.
///
/// ```
/// use gamesolver::{Limits, memo::HashTable, games::ConnectFour};
/// use gamesolver::engines::{solve_ranged_with, solve};
///
/// let game = ConnectFour::new(4, 4).unwrap();
/// let ranged = solve_ranged_with(&game, HashTable::new(), Limits::default()).unwrap();
/// let full = solve(&game, HashTable::new()).unwrap();
/// assert_eq!(ranged.value(), full.value());
/// assert!(ranged.stats().stored < full.stats().stored);
/// ```
pub fn solve_ranged_with<G, T>(
    game: &G,
    table: T,
    limits: Limits,
) -> Result<Solution<'_, G, T, DeclaredRange>, Error>
where
    G: crate::ValueRange,
    T: MemoTable<G>,
{
    solve_within(game, table, limits, DeclaredRange)
}

/// [`solve_with`] cutting on the ranges `range` gives: [`AnyValue`] cuts nothing (exactly
/// [`solve_with`]), [`DeclaredRange`] cuts on the game's [`ValueRange`](crate::ValueRange)
/// (exactly [`solve_ranged_with`]). For code generic over games with and without a range.
///
/// ```
/// use gamesolver::{AnyValue, DeclaredRange, Limits, memo::DenseTable, games::Nim};
/// use gamesolver::engines::{solve_within};
///
/// let game = Nim::new(vec![3, 4, 5]).unwrap();
/// let plain = solve_within(&game, DenseTable::for_game(&game), Limits::default(), AnyValue);
/// let cut = solve_within(&game, DenseTable::for_game(&game), Limits::default(), DeclaredRange);
/// let (plain, cut) = (plain.unwrap(), cut.unwrap());
/// assert_eq!((plain.value(), cut.value()), (1, 1));
/// assert!(cut.stats().expanded < plain.stats().expanded);
/// ```
pub fn solve_within<G, T, R>(
    game: &G,
    table: T,
    limits: Limits,
    range: R,
) -> Result<Solution<'_, G, T, R>, Error>
where
    G: Game,
    T: MemoTable<G>,
    R: RangeSource<G>,
{
    refuse_over_budget(game, &table, limits)?;
    let mut table = table;
    let start = game.start();
    let clock = Instant::now();
    let mut stats = Stats::default();
    let mut search = Search::with_range(0, range);
    let guard = RunGuard::new(limits, None);
    let value = search.value(game, &mut table, &start, &mut stats, guard)?;
    Ok(Solution::solved(
        game,
        (table, range),
        limits,
        (start, value),
        (stats, clock),
    ))
}

/// Refuses, before any search, a solve whose table could not hold the game's declared bound on
/// states within the budget.
fn refuse_over_budget<G: Game, T: MemoTable<G>>(
    game: &G,
    table: &T,
    limits: Limits,
) -> Result<(), Error> {
    if let Some(bound) = game.state_bound() {
        let needed = table.bytes_for(bound);
        if needed > limits.memory_budget {
            return Err(Error::MemoryBudget {
                what: format!("a memo table for up to {bound} states"),
                needed,
                budget: limits.memory_budget,
            });
        }
    }
    Ok(())
}

/// The engine's exact value of any `state` (not only the start), memoized in `table`.
pub(crate) fn value_at<G, T>(
    game: &G,
    table: &mut T,
    state: &G::State,
    limits: Limits,
) -> Result<crate::Score, Error>
where
    G: Game,
    T: MemoTable<G>,
{
    timed(
        &mut Search::default(),
        game,
        table,
        state,
        &mut Stats::default(),
        limits,
    )
}

/// Runs `search` on `game` from `state`, accumulating into `stats`.
fn timed<G, T, R>(
    search: &mut Search<G, R>,
    game: &G,
    table: &mut T,
    state: &G::State,
    stats: &mut Stats,
    limits: Limits,
) -> Result<crate::Score, Error>
where
    G: Game,
    T: MemoTable<G>,
    R: RangeSource<G>,
{
    let clock = Instant::now();
    let guard = RunGuard::new(limits, None);
    let result = search.value(game, table, state, stats, guard);
    stats.elapsed += clock.elapsed();
    result
}
