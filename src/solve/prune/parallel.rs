//! The pruning engine on every thread of the current rayon pool: the workers share the driver's
//! window and ABDADA-style busy marks in one table.

use super::*;

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

impl<'g, 't, G, T, R> Pruner<'g, G, &'t T, R>
where
    G: Game + Sync,
    G::State: Hash + Send + Sync,
    T: ConcurrentBoundTable<G>,
    R: RangeSource<G>,
{
    /// The exact value of `state`, found by every thread of the current rayon pool at once
    /// (one thread: the same as [`value_of`](Pruner::value_of)). The workers search each
    /// window of the driver together; a worker puts off a move whose child another worker is
    /// searching. This pays on positions that take seconds or minutes, hardly on positions of a
    /// millisecond (docs/performance.md).
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
        let workers = rayon::current_num_threads();
        if workers == 1 {
            return self.value_of(state);
        }
        let clock = Instant::now();
        let (game, table, options) = (self.game, self.table, &self.options);
        let narrowing = match start_narrowing(game, &table, options, state, &mut self.stats)? {
            Ok(value) => return Ok(value),
            Err(narrowing) => narrowing,
        };
        // The workers search the driver's window together, splitting its tree: a helper
        // defers any move whose child another worker is searching (the busy marks) and comes
        // back to it after its other moves, by when the table usually holds the answer. The
        // first to finish narrows the shared interval; a worker whose window no longer tells
        // anything is cancelled and takes the next one.
        let shared = Mutex::new(Shared {
            narrowing,
            busy: vec![None; workers],
            outcome: None,
        });
        let marks = Arc::clone(self.marks.get_or_insert_with(|| {
            let hasher = hashbrown::DefaultHashBuilder::default();
            Arc::new(BusyMarks::new(
                BUSY_BITS,
                Box::new(move |state: &G::State| hasher.hash_one(state) as usize),
            ))
        }));
        let stacks = AtomicU64::new(0);
        let base = RunGuard::new(options.limits, None).sharing(&stacks);
        let outcomes: Vec<(Result<Score, Error>, Stats)> = rayon::broadcast(|context| {
            let me = context.index();
            let mut search = Search::sharing(me, Arc::clone(&marks));
            let mut handle = table;
            let mut stats = Stats::default();
            let result = loop {
                let (window, cancel) = {
                    let mut shared = lock(&shared);
                    if let Some(outcome) = &shared.outcome {
                        break outcome.clone();
                    }
                    match shared.narrowing.next() {
                        Some(window) => {
                            let cancel = Arc::new(AtomicBool::new(false));
                            shared.busy[me] = Some((window, Arc::clone(&cancel)));
                            (window, cancel)
                        }
                        None => {
                            let value = Ok(shared.narrowing.low);
                            shared.finish(value.clone());
                            break value;
                        }
                    }
                };
                let guard = RunGuard {
                    cancel: Some(&cancel),
                    ..base
                };
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
                let mut shared = lock(&shared);
                shared.busy[me] = None;
                match found {
                    Err(Error::Cancelled) => {}
                    Ok(result) => {
                        if shared.narrowing.take(window, result) {
                            shared.cancel_stale();
                        }
                    }
                    Err(error) => {
                        shared.finish(Err(error.clone()));
                        break Err(error);
                    }
                }
            };
            (result, stats)
        });
        debug_assert!(marks.is_clear(), "a worker left a state marked busy");
        let mut value = None;
        let mut failure = None;
        for (result, worker) in outcomes {
            self.stats += worker;
            match result {
                Ok(found) => {
                    debug_assert!(value.is_none_or(|v| v == found), "workers disagree");
                    value = Some(found);
                }
                Err(error) => failure = failure.or(Some(error)),
            }
        }
        self.stats.elapsed += clock.elapsed();
        match (value, failure) {
            (Some(value), _) => Ok(value),
            (None, Some(error)) => Err(error),
            (None, None) => unreachable!("every worker ends with the shared outcome"),
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
        let (game, table, options) = (self.game, self.table, &self.options);
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

/// The state the parallel workers share: the interval, each worker's window under search with
/// its cancel flag, and the outcome once there is one.
struct Shared {
    narrowing: Narrowing,
    busy: Vec<Option<Busy>>,
    outcome: Option<Result<Score, Error>>,
}

/// A window under search, and the flag that cancels that search.
type Busy = ((Score, Score), Arc<AtomicBool>);

impl Shared {
    /// Records the outcome and stops every search under way.
    fn finish(&mut self, outcome: Result<Score, Error>) {
        self.outcome = Some(outcome);
        for (_, cancel) in self.busy.iter().flatten() {
            cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Stops the searches whose windows the interval has made pointless.
    fn cancel_stale(&mut self) {
        for (window, cancel) in self.busy.iter().flatten() {
            if !self.narrowing.informative(*window) {
                cancel.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// The shared state, even if a worker panicked while holding it (its panic is re-raised by
/// rayon; the state is still consistent, as every update is a plain assignment).
fn lock(shared: &Mutex<Shared>) -> std::sync::MutexGuard<'_, Shared> {
    shared
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
