//! The pruning engine: exact alpha-beta over any [`Game`], with a table of bounds.
//!
//! The exhaustive engine ([`exhaustive`](crate::engines::exhaustive)) stores the exact value
//! of every state it reaches; that is right when all of them are wanted, and hopeless for games like Connect Four
//! (4.5·10¹² positions). This engine answers one state at a time, visiting only what it must to
//! prove the value: a fail-soft negamax alpha-beta on an explicit stack (no depth limit), with a
//! [`BoundTable`] of what it learned, the game's [`ValueRange`](crate::ValueRange) where it has one, and a *driver*
//! that finds the exact value from narrow searches.
//!
//! - [`solve`] solves the start under one [`Options`] and returns a [`Pruned`] that answers
//!   more questions: any state's value, every move's value ([`Pruner::analyze`]), the best
//!   moves and an optimal line (found by searching along it).
//! - [`par_solve`] mirrors it on every thread of the current rayon pool,
//!   sharing a [`ConcurrentBoundTable`]: one worker searches each window and, while another is
//!   idle, shares the moves of a state whose first move is searched (split points, as in
//!   YBWC). [`Pruner::par_session`] keeps the workers ready across many queries;
//!   [`Pruner::par_values_of`] solves many states side by side instead.
//! - [`Pruner`] is the engine itself, for many positions with one table (as the Connect Four
//!   `--batch` does).

pub mod growing;
mod helpers;
mod line;
mod parallel;
mod search;
mod split_points;

pub use parallel::{Session, par_solve};

use std::hash::Hash;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::Instant;

use super::kernel::{
    AnyValue, DeclaredRange, Limits, MoveValue, Ply, RangeSource, RunGuard, Stats, best_of, valid,
    valued_moves,
};
use crate::error::SolveError;
use crate::game::{Game, Player, Score};
use crate::memo::{Bound, BoundTable, ConcurrentBoundTable};
use search::Search;
use split_points::Team;

/// How the engine turns window searches into an exact value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Driver {
    /// The default: [`OutsideIn`](Driver::OutsideIn) when the game declares value ranges
    /// ([`Options::ranged`]), [`FullWindow`](Driver::FullWindow) when it does not: with a
    /// narrow range null windows search far fewer states than the full window; without one,
    /// they must halve the whole `i64` range.
    #[default]
    Auto,
    /// One search with the widest window. Best without a value range.
    FullWindow,
    /// Null-window searches that halve the interval of possible values, trying values nearer
    /// the ends first when the midpoint is on the far side of 0 (as Pons' Connect Four solver
    /// does). Best with a narrow value range.
    Bisection,
    /// MTD(f): null-window searches that step from a guess (0) towards the value, each one
    /// starting at the last result.
    Mtdf,
    /// Bisection's probes near the ends of the interval first, then, once one has raised the
    /// bottom and one lowered the top with 0 still inside, MTD(f) from 0. A probe near an end
    /// is cheap (in Connect Four: a quick win, or no quick loss); one near 0 is not, and a
    /// value near 0 needs its neighbours probed anyway: MTD(f) probes nothing else there.
    OutsideIn,
}

/// The pruning engine's options: the driver, the limits, and whether to use the game's
/// [`ValueRange`](crate::ValueRange).
///
/// ```
/// use gamesolver::{engines::pruning::{self, Driver}, Limits};
///
/// let options = pruning::Options::new().ranged().driver(Driver::Mtdf).limits(Limits::unlimited());
/// assert_eq!(options.driver, Driver::Mtdf);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Options<R = AnyValue> {
    /// How exact values are found.
    pub driver: Driver,
    /// The memory budget (the table's peak plus the search stack).
    pub limits: Limits,
    /// Where value ranges come from.
    pub range: R,
}

impl Options<AnyValue> {
    /// The default driver and limits, without value ranges.
    pub fn new() -> Self {
        Options {
            driver: Driver::default(),
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
    /// Uses the game's [`ValueRange`](crate::ValueRange) (the engine then prunes on it).
    pub fn ranged(self) -> Options<DeclaredRange> {
        Options {
            driver: self.driver,
            limits: self.limits,
            range: DeclaredRange,
        }
    }

    /// Uses `driver`.
    pub fn driver(self, driver: Driver) -> Self {
        Options { driver, ..self }
    }

    /// Uses `limits`.
    pub fn limits(self, limits: Limits) -> Self {
        Options { limits, ..self }
    }
}

/// The pruning engine with its table: answers questions about any state of the game.
///
/// Every answer is exact. Queries take `&mut self`: each searches, and what it learns stays in
/// the table for the next.
pub struct Pruner<'g, G: Game, T, R = AnyValue> {
    game: &'g G,
    table: T,
    options: Options<R>,
    search: Search<G>,
    stats: Stats,
    scratch: Vec<G::Move>,
}

impl<'g, G: Game, T: BoundTable<G>, R: RangeSource<G>> Pruner<'g, G, T, R> {
    /// The engine on `game` with `table`; refused if the table alone is over the budget. A
    /// table that grows with the search is [limited](BoundTable::limit) to half the budget.
    ///
    /// ```
    /// use gamesolver::{
    ///     engines::pruning::{self, Pruner}, games::ConnectFour, memo::FixedBoundTable,
    /// };
    ///
    /// let game = ConnectFour::new(7, 6).unwrap();
    /// let table = FixedBoundTable::for_game(&game, 16 << 20).unwrap();
    /// let mut pruner = Pruner::new(&game, table, pruning::Options::new().ranged()).unwrap();
    /// // A line of Pons' benchmark set Test_L3_R1, with its published score.
    /// let position = game.position("7422341735647741166133573473242566").unwrap();
    /// assert_eq!(pruner.value_of(&position).unwrap(), 1);
    /// ```
    pub fn new(game: &'g G, table: T, options: Options<R>) -> Result<Self, SolveError> {
        crate::engines::chance::refuse_chance(game, "the pruning engine")?;
        // A table that grows does so up to half the budget, then replaces entries: the rest
        // is the search's stack and the answers' room.
        let mut table = table;
        table.limit(options.limits.memory_budget / 2);
        let needed = table.peak_bytes(0);
        if needed > options.limits.memory_budget {
            return Err(SolveError::MemoryBudget {
                what: "the bound table".into(),
                needed,
                budget: options.limits.memory_budget,
            });
        }
        Ok(Pruner {
            game,
            table,
            options,
            search: Search::default(),
            stats: Stats::default(),
            scratch: Vec::new(),
        })
    }

    /// The game.
    pub fn game(&self) -> &'g G {
        self.game
    }

    /// What the searches so far did. `stored` is the table's entry count; `expanded` counts
    /// states whose moves were searched, `hits` the states the table answered without search.
    pub fn stats(&self) -> Stats {
        Stats {
            stored: self.table.len(),
            ..self.stats
        }
    }

    /// The bound table.
    pub fn table(&self) -> &T {
        &self.table
    }

    /// Gives the table back.
    pub fn into_table(self) -> T {
        self.table
    }

    /// The bound table, to replace it between queries (a larger one holding its entries).
    pub fn table_mut(&mut self) -> &mut T {
        &mut self.table
    }

    /// The limits of the queries to come (a batch sets each stage's time limit).
    pub fn limits_mut(&mut self) -> &mut Limits {
        &mut self.options.limits
    }

    /// The solution of `start`, whose value for its side to move is `value` (found by this
    /// pruner, or by another on the same table).
    pub(crate) fn into_solved(self, start: G::State, value: Score) -> Pruned<'g, G, T, R> {
        Pruned {
            pruner: self,
            start,
            value,
        }
    }

    fn guard(&self) -> RunGuard<'static> {
        RunGuard::new(self.options.limits, None)
    }

    /// The exact value of `state` for its side to move.
    pub fn value_of(&mut self, state: &G::State) -> Result<Score, SolveError> {
        let clock = Instant::now();
        let guard = self.guard();
        let result = drive(
            &mut self.search,
            self.game,
            &mut self.table,
            &self.options,
            state,
            &mut self.stats,
            guard,
        );
        self.stats.elapsed += clock.elapsed();
        result
    }

    /// Every move of `state` with its exact value for the mover, in the game's move order.
    ///
    /// ```
    /// use gamesolver::{
    ///     engines::pruning::{self, Pruner}, games::ConnectFour, memo::HashBoundTable, Game,
    /// };
    ///
    /// let game = ConnectFour::new(4, 4).unwrap();
    /// let mut pruner = Pruner::new(&game, HashBoundTable::new(), pruning::Options::new().ranged()).unwrap();
    /// let values: Vec<_> = pruner.analyze(&game.start()).unwrap().iter().map(|m| m.value).collect();
    /// assert_eq!(values.iter().max(), Some(&0)); // 4×4 is a draw
    /// ```
    pub fn analyze(&mut self, state: &G::State) -> Result<Vec<MoveValue<G>>, SolveError> {
        valued_moves(self.game, state, |next| self.value_of(next))
    }

    /// The moves of `state` that reach its value, in the game's move order.
    pub fn best_moves(&mut self, state: &G::State) -> Result<Vec<G::Move>, SolveError> {
        self.analyze(state).map(best_of)
    }
}

/// What a driver knows of a value between its window searches, and which window it searches
/// next.
#[derive(Debug, Clone, Copy)]
struct Narrowing {
    driver: Driver,
    low: Score,
    high: Score,
    /// MTD(f)'s guess: the last result.
    guess: Score,
    /// Outside-in: whether a probe has raised the bottom, and one lowered the top; whether it
    /// has turned to MTD(f).
    raised: bool,
    lowered: bool,
    stepping: bool,
}

impl Narrowing {
    /// The interval `low..=high` searched with `driver`; `Auto` becomes outside-in when the
    /// ranges are declared (`declared`), else the full window.
    fn new(driver: Driver, declared: bool, low: Score, high: Score) -> Self {
        let driver = match driver {
            Driver::Auto if declared => Driver::OutsideIn,
            Driver::Auto => Driver::FullWindow,
            driver => driver,
        };
        Narrowing {
            driver,
            low,
            high,
            guess: 0.clamp(low, high),
            raised: false,
            lowered: false,
            stepping: false,
        }
    }

    /// The next window to search; `None` once the value (`low`) is known.
    fn next(&self) -> Option<(Score, Score)> {
        let (low, high) = (self.low, self.high);
        if low >= high {
            return None;
        }
        Some(match self.driver {
            // `Auto` never reaches here: `Narrowing::new` resolves it.
            Driver::FullWindow | Driver::Auto => (-Score::MAX, Score::MAX),
            Driver::Bisection => {
                let middle = probe_point(low, high);
                (middle, middle + 1)
            }
            Driver::OutsideIn if !self.stepping => {
                let middle = probe_point(low, high);
                (middle, middle + 1)
            }
            Driver::Mtdf | Driver::OutsideIn => {
                let beta = if self.guess == low {
                    low + 1
                } else {
                    self.guess
                };
                (beta - 1, beta)
            }
        })
    }

    /// Takes what a fail-soft search in `window` found; whether it narrowed anything.
    fn take(&mut self, window: (Score, Score), result: Score) -> bool {
        let before = (self.low, self.high);
        if result <= window.0 {
            self.high = self.high.min(result);
        } else if result >= window.1 {
            self.low = self.low.max(result);
        } else {
            (self.low, self.high) = (result, result);
        }
        self.guess = result.clamp(self.low, self.high.max(self.low));
        self.raised |= self.low > before.0;
        self.lowered |= self.high < before.1;
        // Outside-in turns to MTD(f), guessing 0, once the value is bracketed around 0.
        if self.driver == Driver::OutsideIn
            && !self.stepping
            && self.raised
            && self.lowered
            && self.low < 0
            && self.high >= 0
        {
            self.stepping = true;
            self.guess = 0;
        }
        (self.low, self.high) != before
    }
}

/// Where bisection probes `low..=high` (`low < high`): the midpoint, moved halfway to the end
/// on the far side of 0 (Pons' rule: a probe far from the value is cheap to answer).
fn probe_point(low: Score, high: Score) -> Score {
    let middle = (low as i128 + (high as i128 - low as i128) / 2) as Score;
    if middle <= 0 && low / 2 < middle {
        low / 2
    } else if middle >= 0 && high / 2 > middle {
        high / 2
    } else {
        middle
    }
}

/// What the game and the table know of `state`'s value before any search: a known value, or
/// the driver's starting interval.
fn start_narrowing<G: Game, T: BoundTable<G>, R: RangeSource<G>>(
    game: &G,
    table: &T,
    options: &Options<R>,
    state: &G::State,
    stats: &mut Stats,
) -> Result<Result<Score, Narrowing>, SolveError> {
    if let Some(value) = game.known_value(state) {
        stats.known += 1;
        return valid(value).map(Ok);
    }
    let (low, high) = options.range.range(game, state);
    let mut known = Bound::new(low.max(-Score::MAX), high);
    if let Some(stored) = table.get(game, state) {
        known = known.intersect(stored.bound);
    }
    Ok(Err(Narrowing::new(
        options.driver,
        R::DECLARES,
        known.lower,
        known.upper,
    )))
}

/// The exact value of `state` by a search of its own into `table`, under `guard` (a trial's
/// store cap included), with what it did: the plan's probe of a game.
pub(crate) fn probe<G: Game, T: BoundTable<G>, R: RangeSource<G>>(
    game: &G,
    table: &mut T,
    options: &Options<R>,
    state: &G::State,
    guard: RunGuard<'_>,
) -> (Result<Score, SolveError>, Stats) {
    let mut stats = Stats::default();
    let value = drive(
        &mut Search::default(),
        game,
        table,
        options,
        state,
        &mut stats,
        guard,
    );
    (value, stats)
}

/// Finds the exact value of `state` with the options' driver.
fn drive<G: Game, T: BoundTable<G>, R: RangeSource<G>>(
    search: &mut Search<G>,
    game: &G,
    table: &mut T,
    options: &Options<R>,
    state: &G::State,
    stats: &mut Stats,
    guard: RunGuard<'_>,
) -> Result<Score, SolveError> {
    match start_narrowing(game, table, options, state, stats)? {
        Ok(value) => Ok(value),
        Err(narrowing) => narrow(search, game, table, options, state, narrowing, stats, guard),
    }
}

/// The exact value of `state`, from what `narrowing` knows of it: the driver's windows one
/// after another (on one thread, or driven by one worker of a parallel query).
#[allow(clippy::too_many_arguments)]
fn narrow<G: Game, T: BoundTable<G>, R: RangeSource<G>>(
    search: &mut Search<G>,
    game: &G,
    table: &mut T,
    options: &Options<R>,
    state: &G::State,
    mut narrowing: Narrowing,
    stats: &mut Stats,
    guard: RunGuard<'_>,
) -> Result<Score, SolveError> {
    while let Some(window) = narrowing.next() {
        let result = search.window(
            game,
            table,
            &options.range,
            state,
            window.0,
            window.1,
            stats,
            guard,
        )?;
        narrowing.take(window, result);
    }
    Ok(narrowing.low)
}

/// A game solved from its start by the pruning engine: its value, and the engine to ask more.
pub struct Pruned<'g, G: Game, T, R = AnyValue> {
    pruner: Pruner<'g, G, T, R>,
    start: G::State,
    value: Score,
}

impl<'g, G: Game, T, R> Pruned<'g, G, T, R> {
    /// The same result, its statistics counting `earlier` work too (a trial whose table the
    /// solve went on from).
    pub(crate) fn counting(mut self, earlier: Stats) -> Self {
        self.pruner.stats += earlier;
        self
    }

    /// The same result over `table`, which must hold what the solve's table holds (the owner
    /// of a table the solve borrowed).
    pub(crate) fn with_table<U>(self, table: U) -> Pruned<'g, G, U, R> {
        let Pruner {
            game,
            options,
            search,
            stats,
            scratch,
            ..
        } = self.pruner;
        Pruned {
            pruner: Pruner {
                game,
                table,
                options,
                search,
                stats,
                scratch,
            },
            start: self.start,
            value: self.value,
        }
    }
}

impl<'g, G: Game, T: BoundTable<G>, R: RangeSource<G>> Pruned<'g, G, T, R> {
    /// The value of the start for the first player.
    pub fn value(&self) -> Score {
        self.value
    }

    /// The start state.
    pub fn start(&self) -> &G::State {
        &self.start
    }

    /// What the solve and the queries since did.
    pub fn stats(&self) -> Stats {
        self.pruner.stats()
    }

    /// The exact value of any state for its side to move.
    pub fn value_of(&mut self, state: &G::State) -> Result<Score, SolveError> {
        self.pruner.value_of(state)
    }

    /// Every move of `state` with its exact value ([`Pruner::analyze`]).
    pub fn analyze(&mut self, state: &G::State) -> Result<Vec<MoveValue<G>>, SolveError> {
        self.pruner.analyze(state)
    }

    /// The moves of `state` that reach its value.
    pub fn best_moves(&mut self, state: &G::State) -> Result<Vec<G::Move>, SolveError> {
        self.pruner.best_moves(state)
    }

    /// An optimal line of play from the start to the end of the game.
    ///
    /// ```
    /// use gamesolver::{engines::pruning, games::StoneGameII, memo::HashBoundTable};
    ///
    /// let game = StoneGameII::new(vec![2, 7, 9, 4, 4]).unwrap();
    /// let mut solution = pruning::solve(&game, HashBoundTable::new(), pruning::Options::new()).unwrap();
    /// let takes: Vec<_> = solution.line().unwrap().iter().map(|ply| ply.mv).collect();
    /// assert_eq!(takes, vec![1, 2, 2]);
    /// ```
    pub fn line(&mut self) -> Result<Vec<Ply<G>>, SolveError> {
        let start = self.start.clone();
        self.pruner
            .line_valued(&start, Player::First, Some(self.value))
    }

    /// The engine, for any other question.
    pub fn pruner(&mut self) -> &mut Pruner<'g, G, T, R> {
        &mut self.pruner
    }

    /// The bound table.
    pub fn table(&self) -> &T {
        self.pruner.table()
    }

    /// Gives the table back.
    pub fn into_table(self) -> T {
        self.pruner.into_table()
    }
}

/// Solves `game` from its start with the pruning engine under `options`.
///
/// ```
/// use gamesolver::{
///     games::{ConnectFour, StoneGameVII}, memo::{FixedBoundTable, HashBoundTable, HashTable},
/// };
/// use gamesolver::engines::{exhaustive, pruning::{Driver, Options, solve}};
///
/// let game = StoneGameVII::new(vec![5, 3, 1, 4, 2]).unwrap();
/// let pruned = solve(&game, HashBoundTable::new(), Options::new()).unwrap().value();
/// assert_eq!(pruned, 6);
/// let exhaustive = exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new());
/// assert_eq!(pruned, exhaustive.unwrap().value());
///
/// let game = ConnectFour::new(6, 4).unwrap();
/// let table = FixedBoundTable::for_game(&game, 8 << 20).unwrap();
/// let options = Options::new().ranged().driver(Driver::Bisection);
/// assert_eq!(solve(&game, table, options).unwrap().value(), -1); // Tromp: 6×4 is lost
/// ```
pub fn solve<G, T, R>(
    game: &G,
    table: T,
    options: Options<R>,
) -> Result<Pruned<'_, G, T, R>, SolveError>
where
    G: Game,
    T: BoundTable<G>,
    R: RangeSource<G>,
{
    let mut pruner = Pruner::new(game, table, options)?;
    let start = game.start();
    let value = pruner.value_of(&start)?;
    Ok(Pruned {
        pruner,
        start,
        value,
    })
}
