//! The pruning engine on every thread of the current rayon pool: one worker drives the
//! windows, the others take moves of the states it shares ([`split_points`](super::split_points)), all over
//! one table.

use std::ops::Deref;

use super::helpers::{Crew, Query, serve};
use super::*;

/// How many states a parallel query expands on the calling thread alone before it wakes the
/// other workers (a few microseconds of search: a query that needs no more wakes nobody).
const TRIAL: usize = 16;

/// [`solve`](super::solve) on every thread of the current rayon pool, sharing `table`.
///
/// The value is the same for every thread count; the statistics, and which entries the table
/// holds afterwards, differ. Later queries on the result search on the calling thread.
///
/// ```
/// use gamesolver::memo::{HashBoundTable, ShardedBoundTable};
/// use gamesolver::engines::pruning::{Options, par_solve, solve};
/// use gamesolver::games::StoneGameIII;
///
/// let game = StoneGameIII::new(vec![1, 2, 3, -9, 7, 4, -1]).unwrap();
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let table = ShardedBoundTable::new();
/// let parallel = pool.install(|| par_solve(&game, &table, Options::new())).unwrap().value();
/// assert_eq!(parallel, solve(&game, HashBoundTable::new(), Options::new()).unwrap().value());
/// ```
pub fn par_solve<'g, 't, G, T, R>(
    game: &'g G,
    table: &'t T,
    options: Options<R>,
) -> Result<Pruned<'g, G, &'t T, R>, SolveError>
where
    G: Game + Sync,
    G::State: Hash + Send + Sync,
    T: ConcurrentBoundTable<G>,
    R: RangeSource<G>,
{
    let mut pruner = Pruner::new(game, table, options)?;
    let start = game.start();
    let value = pruner.par_value_of(&start)?;
    Ok(Pruned {
        pruner,
        start,
        value,
    })
}

/// The parallel queries, on a pruner whose table is a [`ConcurrentBoundTable`] held by
/// reference (`&AtomicBoundTable`) or through an `Arc`.
impl<'g, G, H, T, R> Pruner<'g, G, H, R>
where
    G: Game + Sync,
    G::State: Hash + Send + Sync,
    H: Deref<Target = T> + BoundTable<G> + Clone + Send + Sync,
    T: ConcurrentBoundTable<G>,
    R: RangeSource<G>,
{
    /// The exact value of `state`, found by every thread of the current rayon pool at once
    /// (one thread: the same as [`value_of`](Pruner::value_of)). One worker searches the
    /// driver's windows; whenever another has nothing to do, the searching worker shares one of
    /// its open states whose first move is searched (its other moves are then taken by
    /// whichever worker is free, as in YBWC), and a move's value at or above the window's top
    /// stops the rest of that state's moves. A query over within a few states wakes no other
    /// worker. For many positions one after another, [`par_session`](Pruner::par_session)
    /// keeps the other workers ready between them. docs/performance.md gives the gains.
    ///
    /// ```
    /// use gamesolver::{
    ///     engines::pruning::{self, Pruner}, games::ConnectFour, memo::AtomicBoundTable,
    /// };
    ///
    /// let game = ConnectFour::new(7, 6).unwrap();
    /// let table = AtomicBoundTable::for_game(&game, 16 << 20).unwrap();
    /// let mut pruner = Pruner::new(&game, &table, pruning::Options::new().ranged()).unwrap();
    /// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let position = game.position("2252576253462244111563365343671351441").unwrap();
    /// assert_eq!(pool.install(|| pruner.par_value_of(&position)).unwrap(), -1);
    /// ```
    pub fn par_value_of(&mut self, state: &G::State) -> Result<Score, SolveError> {
        if rayon::current_num_threads() == 1 {
            return self.value_of(state);
        }
        // A trial on this thread alone first: most positions of a batch are done in
        // microseconds, sooner than another worker wakes. Whatever the trial proved stays in
        // the table for the workers.
        let clock = Instant::now();
        let mut handle = &*self.table;
        let trial = RunGuard {
            stores: Some(TRIAL),
            ..RunGuard::new(self.options.limits, None)
        };
        let mut alone = Stats::default();
        let tried = drive(
            &mut self.search,
            self.game,
            &mut handle,
            &self.options,
            state,
            &mut alone,
            trial,
        );
        self.stats += alone;
        self.stats.elapsed += clock.elapsed();
        match tried {
            Err(SolveError::Cancelled) => self.par_session(|session| session.value_of(state)),
            done => done,
        }
    }

    /// Runs `work` with the other workers of the current rayon pool standing by: each
    /// [`Session::value_of`] is searched by all of them, as
    /// [`par_value_of`](Pruner::par_value_of) does, and between two queries they wait
    /// spinning (for a couple of milliseconds, then parked) instead of being put to sleep by
    /// rayon, which can take them longer to wake than a position of a batch takes to solve.
    /// Queries of a session are answered one at a time; for many independent positions side
    /// by side see [`par_values_of`](Pruner::par_values_of).
    ///
    /// ```
    /// use gamesolver::{
    ///     engines::pruning::{self, Pruner}, games::ConnectFour, memo::AtomicBoundTable,
    /// };
    ///
    /// let game = ConnectFour::new(7, 6).unwrap();
    /// let table = AtomicBoundTable::for_game(&game, 16 << 20).unwrap();
    /// let mut pruner = Pruner::new(&game, &table, pruning::Options::new().ranged()).unwrap();
    /// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let lines = ["2252576253462244111563365343671351441", "7422341735647741166133573473242566"];
    /// let values = pool.install(|| {
    ///     pruner.par_session(|session| {
    ///         let mut values = Vec::new();
    ///         for line in lines {
    ///             values.push(session.value_of(&game.position(line).unwrap()).unwrap());
    ///         }
    ///         values
    ///     })
    /// });
    /// assert_eq!(values, vec![-1, 1]);
    /// ```
    pub fn par_session<Out>(
        &mut self,
        work: impl FnOnce(&mut Session<'_, 'g, G, H, R>) -> Out,
    ) -> Out {
        let crew = Crew::default();
        let helpers = rayon::current_num_threads() > 1;
        let game = self.game;
        let out = rayon::in_place_scope(|scope| {
            // Dismissed however `work` ends (a panic too): the scope waits for the helpers.
            let _dismiss = Dismiss(&crew);
            if helpers {
                let driver = rayon::current_thread_index();
                let crew = &crew;
                scope.spawn_broadcast(move |_, context| {
                    if Some(context.index()) != driver {
                        serve(crew, game);
                    }
                });
            }
            work(&mut Session {
                pruner: self,
                crew: &crew,
                helpers,
            })
        });
        self.stats += crew.stats();
        out
    }

    /// The exact values of many states, solved side by side on the threads of the current
    /// rayon pool: each worker solves whole states with its own search, all sharing the table.
    /// The values come in the order of `states`; the first error (the memory budget, say) is
    /// returned instead.
    ///
    /// Positions that each take a fraction of a millisecond parallelise far better this way
    /// than one at a time with [`par_value_of`](Pruner::par_value_of) (docs/performance.md).
    ///
    /// ```
    /// use gamesolver::{
    ///     engines::pruning::{self, Pruner}, games::ConnectFour, memo::AtomicBoundTable,
    /// };
    ///
    /// let game = ConnectFour::new(7, 6).unwrap();
    /// let table = AtomicBoundTable::for_game(&game, 16 << 20).unwrap();
    /// let mut pruner = Pruner::new(&game, &table, pruning::Options::new().ranged()).unwrap();
    /// let lines = ["2252576253462244111563365343671351441", "7422341735647741166133573473242566"];
    /// let positions: Vec<_> = lines.iter().map(|line| game.position(line).unwrap()).collect();
    /// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// assert_eq!(pool.install(|| pruner.par_values_of(&positions)).unwrap(), vec![-1, 1]);
    /// ```
    pub fn par_values_of(&mut self, states: &[G::State]) -> Result<Vec<Score>, SolveError> {
        self.par_results_of(states).into_iter().collect()
    }

    /// [`par_values_of`](Pruner::par_values_of) with each state's own result, in the order
    /// of `states`: a state whose search failed (the memory budget, the time limit) has its
    /// error, and the others their values, so a caller can say which state it was.
    ///
    /// ```
    /// use gamesolver::{
    ///     engines::pruning::{self, Pruner}, games::ConnectFour, memo::AtomicBoundTable,
    /// };
    ///
    /// let game = ConnectFour::new(4, 4).unwrap();
    /// let table = AtomicBoundTable::for_game(&game, 1 << 20).unwrap();
    /// let mut pruner = Pruner::new(&game, &table, pruning::Options::new().ranged()).unwrap();
    /// let positions = [game.position("").unwrap(), game.position("1").unwrap()];
    /// let results = pruner.par_results_of(&positions);
    /// assert_eq!(results.len(), 2);
    /// assert_eq!(*results[0].as_ref().unwrap(), 0); // 4×4 is a draw
    /// ```
    pub fn par_results_of(&mut self, states: &[G::State]) -> Vec<Result<Score, SolveError>> {
        use rayon::prelude::*;
        let clock = Instant::now();
        let (game, table, options) = (self.game, &*self.table, &self.options);
        let stacks = AtomicU64::new(0);
        let guard = RunGuard::new(options.limits, None).sharing(&stacks);
        let solved: Vec<(Result<Score, SolveError>, Stats)> = states
            .par_iter()
            .map_init(
                || (Search::default(), table),
                |(search, handle), state| {
                    let mut stats = Stats::default();
                    let value = drive(search, game, handle, options, state, &mut stats, guard);
                    (value, stats)
                },
            )
            .collect();
        let mut values = Vec::with_capacity(states.len());
        for (value, stats) in solved {
            self.stats += stats;
            values.push(value);
        }
        self.stats.elapsed += clock.elapsed();
        values
    }
}

/// Dismisses a crew when dropped.
struct Dismiss<'c, G: Game, H, R>(&'c Crew<G, H, R>);

impl<G: Game, H, R> Drop for Dismiss<'_, G, H, R> {
    fn drop(&mut self) {
        self.0.dismiss();
    }
}

/// A pruner whose queries the other workers of the pool help with, between which they stand
/// by ([`Pruner::par_session`]).
pub struct Session<'s, 'g, G: Game, H, R> {
    pruner: &'s mut Pruner<'g, G, H, R>,
    crew: &'s Crew<G, H, R>,
    /// Whether there are other workers (none on a pool of one thread).
    helpers: bool,
}

impl<'g, G, H, T, R> Session<'_, 'g, G, H, R>
where
    G: Game + Sync,
    G::State: Hash + Send + Sync,
    H: Deref<Target = T> + BoundTable<G> + Clone + Send + Sync,
    T: ConcurrentBoundTable<G>,
    R: RangeSource<G>,
{
    /// The exact value of `state`, found by every worker of the session (as
    /// [`Pruner::par_value_of`]). Under the pruner's limits as they are now (a caller may change
    /// them between queries).
    pub fn value_of(&mut self, state: &G::State) -> Result<Score, SolveError> {
        if !self.helpers {
            return self.pruner.value_of(state);
        }
        let pruner = &mut *self.pruner;
        let clock = Instant::now();
        let (game, options) = (pruner.game, &pruner.options);
        let table = &*pruner.table;
        let narrowing = match start_narrowing(game, &table, options, state, &mut pruner.stats)? {
            Ok(value) => return Ok(value),
            Err(narrowing) => narrowing,
        };
        let team = Arc::new(Team::default());
        let base = RunGuard::new(options.limits, None);
        self.crew.post(Query {
            team: Arc::clone(&team),
            table: pruner.table.clone(),
            range: options.range,
            guard: base,
        });
        let guard = RunGuard {
            cancel: Some(&team.over),
            ..base
        }
        .sharing(&team.stacks);
        let mut search = Search::on_team(Arc::clone(&team));
        let mut handle = table;
        let mut stats = Stats::default();
        let result = narrow(
            &mut search,
            game,
            &mut handle,
            options,
            state,
            narrowing,
            &mut stats,
            guard,
        );
        team.end();
        self.crew.clear();
        pruner.stats += stats;
        pruner.stats.elapsed += clock.elapsed();
        // A helper's error (the memory budget, the time limit) is the query's, even where the
        // driver's search ended first or was stopped by it.
        match team.error() {
            Some(error) => Err(error),
            None => result,
        }
    }

    /// The pruner, for any other question (on this thread alone) or to change its limits or
    /// table between queries.
    pub fn pruner(&mut self) -> &mut Pruner<'g, G, H, R> {
        self.pruner
    }
}
