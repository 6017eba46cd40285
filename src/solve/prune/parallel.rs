//! The pruning engine on every thread of the current rayon pool: one worker drives the
//! windows, the others take moves of the states it shares ([`team`](super::team)), all over
//! one table.

use std::sync::Mutex;

use super::team::pause;
use super::*;

/// How many states a parallel query expands on the calling thread alone before it wakes the
/// other workers (a few microseconds of search: a query that needs no more wakes nobody).
const TRIAL: usize = 16;

/// [`prune`] on every thread of the current rayon pool, sharing `table`.
///
/// The value is the same for every thread count; the statistics, and which entries the table
/// holds afterwards, differ. Later queries on the result search on the calling thread.
///
/// ```
/// use gamesolver::{memo::{HashBoundTable, ShardedBoundTable}};
/// use gamesolver::engines::{par_prune, prune};
/// use gamesolver::games::StoneGameIII;
///
/// let game = StoneGameIII::new(vec![1, 2, 3, -9, 7, 4, -1]).unwrap();
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let table = ShardedBoundTable::new();
/// let parallel = pool.install(|| par_prune(&game, &table)).unwrap().value();
/// assert_eq!(parallel, prune(&game, HashBoundTable::new()).unwrap().value());
/// ```
pub fn par_prune<'g, 't, G, T>(game: &'g G, table: &'t T) -> Result<Pruned<'g, G, &'t T>, Error>
where
    G: Game + Sync,
    G::State: Hash + Send + Sync,
    T: ConcurrentBoundTable<G>,
{
    par_prune_with(game, table, Pruning::new())
}

/// [`par_prune`] under `options`.
pub fn par_prune_with<'g, 't, G, T, R>(
    game: &'g G,
    table: &'t T,
    options: Pruning<R>,
) -> Result<Pruned<'g, G, &'t T, R>, Error>
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
    H: std::ops::Deref<Target = T> + BoundTable<G>,
    T: ConcurrentBoundTable<G>,
    R: RangeSource<G>,
{
    /// The exact value of `state`, found by every thread of the current rayon pool at once
    /// (one thread: the same as [`value_of`](Pruner::value_of)). One worker searches the
    /// driver's windows; whenever another has nothing to do, the searching worker shares one of
    /// its open states whose first move is searched (its other moves are then taken by
    /// whichever worker is free, as in YBWC), and a move's value at or above the window's top
    /// stops the rest of that state's moves. docs/performance.md gives the gains.
    ///
    /// ```
    /// use gamesolver::{Pruner, Pruning, memo::AtomicBoundTable, games::ConnectFour};
    ///
    /// let game = ConnectFour::new(7, 6).unwrap();
    /// let table = AtomicBoundTable::for_game(&game, 16 << 20).unwrap();
    /// let mut pruner = Pruner::new(&game, &table, Pruning::new().ranged()).unwrap();
    /// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let position = game.position("2252576253462244111563365343671351441").unwrap();
    /// assert_eq!(pool.install(|| pruner.par_value_of(&position)).unwrap(), -1);
    /// ```
    pub fn par_value_of(&mut self, state: &G::State) -> Result<Score, Error> {
        if rayon::current_num_threads() == 1 {
            return self.value_of(state);
        }
        let clock = Instant::now();
        let (game, table, options) = (self.game, &*self.table, &self.options);
        let team = Arc::new(Team::default());
        let stacks = AtomicU64::new(0);
        // One clock for the trial and the search after it: the time limit counts from here.
        let base = RunGuard::new(options.limits, None);
        // A trial on this thread alone first: most positions of a batch are done in
        // microseconds, sooner than another worker wakes. Whatever the trial proved stays in
        // the table for the workers.
        let mut handle = table;
        let trial = RunGuard {
            stores: Some(TRIAL),
            ..base
        };
        let mut alone = Stats::default();
        let tried = drive(
            &mut self.search,
            game,
            &mut handle,
            options,
            state,
            &mut alone,
            trial,
        );
        self.stats += alone;
        if !matches!(tried, Err(Error::Cancelled)) {
            self.stats.elapsed += clock.elapsed();
            return tried;
        }
        let narrowing = match start_narrowing(game, &table, options, state, &mut self.stats)? {
            Ok(value) => return Ok(value),
            Err(narrowing) => narrowing,
        };
        let guard = RunGuard {
            cancel: Some(&team.over),
            ..base
        }
        .sharing(&stacks);
        let helped = Mutex::new(Stats::default());
        let (result, mut stats) = rayon::scope(|scope| {
            // Every other worker of the pool is woken to help; this worker's own copy of the
            // job runs when the query is over, and returns at once.
            let driver = rayon::current_thread_index();
            let (team, helped) = (&team, &helped);
            scope.spawn_broadcast(move |_, context| {
                if Some(context.index()) != driver {
                    let stats = help_until_over(team, game, table, &options.range, guard);
                    *helped.lock().unwrap_or_else(|poison| poison.into_inner()) += stats;
                }
            });
            let mut search = Search::on_team(Arc::clone(team));
            let mut handle = table;
            let mut stats = Stats::default();
            let mut narrowing = narrowing;
            let mut result = Ok(narrowing.low);
            // The driver: the windows one after another, as on one thread.
            while let Some(window) = narrowing.next() {
                let found = search.window(
                    game,
                    &mut handle,
                    &options.range,
                    state,
                    window.0,
                    window.1,
                    &mut stats,
                    guard,
                );
                match found {
                    Ok(found) => {
                        narrowing.take(window, found);
                        result = Ok(narrowing.low);
                    }
                    Err(error) => {
                        result = Err(error);
                        break;
                    }
                }
            }
            team.end();
            (result, stats)
        });
        stats += helped
            .into_inner()
            .unwrap_or_else(|poison| poison.into_inner());
        self.stats += stats;
        self.stats.elapsed += clock.elapsed();
        // A helper's error (the memory budget, the time limit) is the query's, even where the
        // driver's search ended first or was stopped by it.
        match team.error() {
            Some(error) => Err(error),
            None => result,
        }
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
    /// use gamesolver::{Pruner, Pruning, memo::AtomicBoundTable, games::ConnectFour};
    ///
    /// let game = ConnectFour::new(7, 6).unwrap();
    /// let table = AtomicBoundTable::for_game(&game, 16 << 20).unwrap();
    /// let mut pruner = Pruner::new(&game, &table, Pruning::new().ranged()).unwrap();
    /// let lines = ["2252576253462244111563365343671351441", "7422341735647741166133573473242566"];
    /// let positions: Vec<_> = lines.iter().map(|line| game.position(line).unwrap()).collect();
    /// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// assert_eq!(pool.install(|| pruner.par_values_of(&positions)).unwrap(), vec![-1, 1]);
    /// ```
    pub fn par_values_of(&mut self, states: &[G::State]) -> Result<Vec<Score>, Error> {
        self.par_results_of(states).into_iter().collect()
    }

    /// [`par_values_of`](Pruner::par_values_of) with each state's own result, in the order
    /// of `states`: a state whose search failed (the memory budget, the time limit) has its
    /// error, and the others their values, so a caller can say which state it was.
    ///
    /// ```
    /// use gamesolver::{Pruner, Pruning, memo::AtomicBoundTable, games::ConnectFour};
    ///
    /// let game = ConnectFour::new(4, 4).unwrap();
    /// let table = AtomicBoundTable::for_game(&game, 1 << 20).unwrap();
    /// let mut pruner = Pruner::new(&game, &table, Pruning::new().ranged()).unwrap();
    /// let positions = [game.position("").unwrap(), game.position("1").unwrap()];
    /// let results = pruner.par_results_of(&positions);
    /// assert_eq!(results.len(), 2);
    /// assert_eq!(*results[0].as_ref().unwrap(), 0); // 4×4 is a draw
    /// ```
    pub fn par_results_of(&mut self, states: &[G::State]) -> Vec<Result<Score, Error>> {
        use rayon::prelude::*;
        let clock = Instant::now();
        let (game, table, options) = (self.game, &*self.table, &self.options);
        let stacks = AtomicU64::new(0);
        let guard = RunGuard::new(options.limits, None).sharing(&stacks);
        let solved: Vec<(Result<Score, Error>, Stats)> = states
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

/// A helper of a parallel query: takes moves that the other workers share, until the query is
/// over; what its searches did. An error ends the query (the driver returns it).
fn help_until_over<G, T, R>(
    team: &Arc<Team<G>>,
    game: &G,
    table: &T,
    range: &R,
    guard: RunGuard<'_>,
) -> Stats
where
    G: Game,
    G::State: Hash,
    T: ConcurrentBoundTable<G>,
    R: RangeSource<G>,
{
    let mut search = Search::on_team(Arc::clone(team));
    let mut handle = table;
    let mut stats = Stats::default();
    let mut idle = Some(team.waiting());
    let mut seen = None;
    let mut spins = 0u32;
    while !team.is_over() {
        let published = team.publications();
        if seen != Some(published) {
            seen = Some(published);
            if let Some(task) = team.take(None) {
                idle = None;
                if let Err(error) = search.help(task, game, &mut handle, range, &mut stats, guard) {
                    team.fail(error);
                }
                idle = idle.or_else(|| Some(team.waiting()));
                seen = None;
                continue;
            }
        }
        pause(&mut spins);
    }
    drop(idle);
    stats
}
