//! The exhaustive engine: exact memoized negamax over any [`Game`], and the [`Solution`] it
//! returns.
//!
//! [`solve`] searches depth-first on an explicit stack (no native recursion, so games 10⁶ moves
//! deep are fine), storing each expanded state's value in a [`MemoTable`]. [`par_solve`]
//! mirrors it on every thread of the current rayon pool, sharing a
//! [`ConcurrentMemoTable`](crate::memo::ConcurrentMemoTable). Both take one [`Options`]: the
//! [`Limits`] and where value ranges come from.

mod parallel;
mod search;
mod solution;
mod sweep;

use std::time::Instant;

pub use parallel::{SERIAL_CUTOFF, par_solve};
pub use solution::Solution;
pub(crate) use sweep::sweep;

use super::kernel::{AnyValue, DeclaredRange, Limits, RangeSource, RunGuard, Stats};
use crate::error::SolveError;
use crate::game::Game;
use crate::memo::MemoTable;
use search::Search;

/// The exhaustive engine's options: the limits, and where the value ranges it cuts on come
/// from ([`AnyValue`]: no cut).
///
/// ```
/// use gamesolver::Limits;
/// use gamesolver::engines::{exhaustive::Options, DeclaredRange};
///
/// let options = Options::new().limits(Limits::with_memory_budget(1 << 30)).ranged();
/// assert_eq!(options.limits.memory_budget, 1 << 30);
/// assert!(matches!(options.range, DeclaredRange));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Options<R = AnyValue> {
    /// The memory budget, time limit and progress.
    pub limits: Limits,
    /// Where value ranges come from.
    pub range: R,
}

impl Options<AnyValue> {
    /// The default limits, no cut.
    pub fn new() -> Self {
        Options {
            limits: Limits::default(),
            range: AnyValue,
        }
    }
}

impl Default for Options<AnyValue> {
    fn default() -> Self {
        Options::new()
    }
}

impl<R> Options<R> {
    /// Uses `limits`.
    pub fn limits(self, limits: Limits) -> Self {
        Options { limits, ..self }
    }

    /// Cuts on the game's [`ValueRange`](crate::ValueRange): a state whose best move so far
    /// reaches the top of its range has that value, so its other moves are not searched.
    /// Win/lose games (a range of `(-1, 1)`) then stop at the first winning move.
    pub fn ranged(self) -> Options<DeclaredRange> {
        self.range(DeclaredRange)
    }

    /// Cuts on the ranges `range` gives (for code generic over games with and without a
    /// range, or [`OutcomeRange`](super::OutcomeRange) for an outcome game).
    pub fn range<S>(self, range: S) -> Options<S> {
        Options {
            limits: self.limits,
            range,
        }
    }
}

/// Solves `game` from its start under `options`, storing values in `table`.
///
/// Before searching, if the game declares a [`state_bound`](Game::state_bound), a solve whose
/// table would need more than the memory budget is refused; while searching, the table and the
/// stack are checked against the budget every 1024 stored states and whenever the stack grows.
///
/// With a range source that cuts ([`Options::ranged`]), every value stored is still exact,
/// but the states below the skipped moves are not stored: [`Solution`] answers questions
/// about them ([`move_values`](Solution::move_values), [`line`](Solution::line)) by extending
/// the search, exactly, without the cut.
///
/// ```
/// use gamesolver::{games::{ConnectFour, StoneGameVIII}, memo::HashTable, SolveError, Limits};
/// use gamesolver::engines::exhaustive::{solve, Options};
///
/// let game = StoneGameVIII::new(vec![-1, 2, -3, 4, -5]).unwrap();
/// let stepwise = game.stepwise();
/// let solution = solve(&stepwise, HashTable::new(), Options::new()).unwrap();
/// assert_eq!(solution.value(), 5);
///
/// // A declared range cuts: fewer states stored, the same value.
/// let game = ConnectFour::new(4, 4).unwrap();
/// let ranged = solve(&game, HashTable::new(), Options::new().ranged()).unwrap();
/// let full = solve(&game, HashTable::new(), Options::new()).unwrap();
/// assert_eq!(ranged.value(), full.value());
/// assert!(ranged.stats().stored < full.stats().stored);
///
/// // A solve whose table cannot fit the budget is refused before it starts.
/// let game = gamesolver::games::StoneGameII::new(vec![5; 3000]).unwrap();
/// let options = Options::new().limits(Limits::with_memory_budget(1 << 20));
/// let refused = solve(&game, HashTable::new(), options);
/// assert!(matches!(refused, Err(SolveError::MemoryBudget { .. })));
/// ```
pub fn solve<G, T, R>(
    game: &G,
    table: T,
    options: Options<R>,
) -> Result<Solution<'_, G, T, R>, SolveError>
where
    G: Game,
    T: MemoTable<G>,
    R: RangeSource<G>,
{
    let Options { limits, range } = options;
    crate::engines::chance::refuse_chance(game, "the exhaustive engine")?;
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
) -> Result<(), SolveError> {
    if let Some(bound) = game.state_bound() {
        let needed = table.bytes_for(bound);
        if needed > limits.memory_budget {
            return Err(SolveError::MemoryBudget {
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
) -> Result<crate::Score, SolveError>
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

/// The exact value of `state` by a search that cuts on `range`, into `table`, under `guard`
/// (a trial's store cap included), with what it did: the plan's probe of a game.
pub(crate) fn probe<G, T, R>(
    game: &G,
    table: &mut T,
    state: &G::State,
    range: R,
    guard: RunGuard<'_>,
) -> (Result<crate::Score, SolveError>, Stats)
where
    G: Game,
    T: MemoTable<G>,
    R: RangeSource<G>,
{
    let mut stats = Stats::default();
    let value = Search::with_range(0, range).value(game, table, state, &mut stats, guard);
    (value, stats)
}

/// Runs `search` on `game` from `state`, accumulating into `stats`.
fn timed<G, T, R>(
    search: &mut Search<G, R>,
    game: &G,
    table: &mut T,
    state: &G::State,
    stats: &mut Stats,
    limits: Limits,
) -> Result<crate::Score, SolveError>
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
