//! The tier solver on timely dataflow: the same tiers, split among workers that may live in
//! several processes (or machines).
//!
//! A game that declares a [`DenseIndex`](crate::DenseIndex) whose values fit the budget is
//! solved with every value in every process, one copy shared by the process's workers
//! (`replicated.rs`: [`WorkerStats::replicated`]; [`Distributed::into_solution`] then reads
//! the line and every value); the rest of this text is the solve by requests, for games whose
//! values do not fit one machine.
//!
//! Each worker owns a contiguous range of every tier's ranks (`ceil(len / workers)` each, in
//! worker order) and keeps only its share of the tiers a move can reach. To value its states of
//! tier `t`, a worker walks them in rounds of [`BATCH`] states; for every next state another
//! worker owns, it sends one request `(tier, rank, requester, id)` per round (moves of the
//! round that reach the same state share it) through timely's exchange to that owner, which
//! answers `(requester, id, value)` with the value in the tier's own width (one byte for Dots
//! and Boxes; a next state it owns itself it reads from its own share); once timely's progress
//! tracking says every answer of the round has arrived, the worker takes each state's best
//! move. A second timestamp per round is a barrier: no worker asks about a tier before every
//! owner has valued all of it. Every worker runs the same number of rounds per tier (set by the
//! largest share), so they stay in step. The values are those of
//! [`tiers::solve`](crate::engines::tiers::solve) for every number of workers and processes.

use std::any::Any;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::dense::{IndexOf, Values};
use super::replicated::Process;
use super::saving::Saving;
use super::solution::Store;
pub use super::workers::WorkerStats;
use super::{TierSolution, TierStats, width_of};
use crate::engines::kernel::Limits;
use crate::error::SolveError;
use crate::game::{Score, Tiered};

use timely::CommunicationConfig;
pub use timely::Config;

/// States a worker values per round (its requests and answers are buffered a round at a time).
pub const BATCH: u64 = 1 << 16;

mod requests;
mod saving;

use requests::{On, solve_by_bound};

/// A request for a value: `(tier, rank, requester, id)`, the id of the requester's round.
type Request = (u32, u64, u32, u32);
/// An answer: `(requester, id, value)`, the value as the tiers store it.
type Reply<V> = (u32, u32, V);

/// Bytes of a request on the wire (timely's bincode encoding of the tuple).
pub const REQUEST_BYTES: u64 = 4 + 8 + 4 + 4;
/// Bytes of an answer on the wire besides its value (which takes the tiers' width: 1 to 8).
pub const REPLY_HEADER_BYTES: u64 = 4 + 4;

/// The outcome of a distributed tier solve in one process.
#[derive(Debug)]
pub struct Distributed {
    /// The start's value, in the process that hosts worker 0; `None` in the others.
    pub value: Option<Score>,
    /// How many workers there are in all.
    pub workers: usize,
    /// Tiers solved.
    pub tiers: usize,
    /// The figures of this process's workers.
    pub local: Vec<WorkerStats>,
    /// Wall-clock time of the solve in this process.
    pub elapsed: Duration,
    /// Every value, by the game's dense index, and that index (an `IndexOf<G>`), where this
    /// process held every value.
    kept: Option<(Values, Box<dyn Any + Send>)>,
}

impl Distributed {
    /// The solution of `game` (the game solved) from the values this process holds, where it
    /// holds every value: the game declared a [`DenseIndex`](crate::DenseIndex) whose values
    /// fit the budget (each worker's [`WorkerStats::replicated`]). Its line, values of states
    /// and move values are those of [`tiers::solve`](crate::engines::tiers::solve); its counts
    /// are this process's workers'. `None` for a solve by requests, or for another game type.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use gamesolver::{engines::{tiers::distributed, tiers}, games::DotsAndBoxes, Limits};
    ///
    /// let game = DotsAndBoxes::new(2, 2).unwrap();
    /// let local = tiers::solve(&game, tiers::Options::new()).unwrap();
    /// let config = distributed::Config::process(2);
    /// let solved = distributed::solve(Arc::new(game.clone()), config, Limits::default()).unwrap();
    /// let solution = solved.into_solution(&game).unwrap();
    /// assert_eq!(solution.value(), local.value());
    /// assert_eq!(solution.line().unwrap(), local.line().unwrap());
    /// ```
    pub fn into_solution<G: Tiered + 'static>(self, game: &G) -> Option<TierSolution<'_, G>> {
        let (values, index) = self.kept?;
        let index: IndexOf<G> = *index.downcast::<IndexOf<G>>().ok()?;
        let start = game.start();
        let value = values.at(index(game, &start))?;
        let stats = TierStats {
            tiers: self.tiers,
            resumed: 0,
            states: self.local.iter().map(|worker| worker.states).sum(),
            holes: 0,
            moves: self.local.iter().map(|worker| worker.moves).sum(),
            value_bytes: width_of(game.value_bound()) as usize,
            peak_bytes: self.local.iter().map(|w| w.peak_bytes).max().unwrap_or(0),
            elapsed: self.elapsed,
            dense: true,
        };
        Some(TierSolution {
            game,
            start,
            value,
            store: Store::Dense(values),
            index: Some(index),
            stats,
        })
    }
}

/// Solves a [`Tiered`] game from its start on timely dataflow, with the workers and processes
/// `config` describes (`Config::thread()`, `Config::process(n)`, or `Config::from_args` with
/// timely's `-w`, `-n`, `-p`, `-h`). Every process runs the same call; the one that hosts
/// worker 0 gets the value. `limits.memory_budget` is each process's: every value, one copy
/// per process, where the game's dense index fits it; else the process's workers' shares of
/// the tiers (the tiers a move can reach, divided among the workers), checked before any work.
///
/// ```
/// use std::sync::Arc;
/// use gamesolver::{engines::{tiers::distributed, tiers}, games::DotsAndBoxes, Limits};
///
/// let game = DotsAndBoxes::new(2, 2).unwrap();
/// let local = tiers::solve(&game, tiers::Options::new()).unwrap().value();
/// let config = distributed::Config::process(3); // three workers in this process
/// let solved = distributed::solve(Arc::new(game), config, Limits::default()).unwrap();
/// assert_eq!(solved.value, Some(local));
/// assert_eq!(solved.local.len(), 3);
/// ```
pub fn solve<G>(game: Arc<G>, config: Config, limits: Limits) -> Result<Distributed, SolveError>
where
    G: Tiered + Send + Sync + 'static,
{
    run(game, config, limits, None)
}

/// [`solve`] by requests (whatever the game's dense index), writing each tier to `save`'s tier
/// file as it completes, or (with `save.resume`) going on from the tiers the file holds. The
/// process that hosts worker 0 writes and reads the file, byte for byte the file
/// [`par_solve_saved`](super::par_solve_saved) writes on one machine: the workers send it
/// their shares of each tier once the tier is solved (it holds one tier whole at a time), and
/// resumed, it sends each worker its share of each tier the file holds. It tells the others
/// before anything else, so they need no file and no option of their own: they may call
/// [`solve`], and touch no file whatever `save` they are given. A solve stopped at any moment
/// resumes from its last complete tier and ends with the same values.
///
/// ```
/// use std::sync::Arc;
/// use gamesolver::engines::tiers::{self, distributed, file::Save};
/// use gamesolver::{games::DotsAndBoxes, Limits};
///
/// let game = DotsAndBoxes::new(2, 2).unwrap();
/// let dir = std::env::temp_dir();
/// let (one, two) = (dir.join(format!("dots-one-{}.tiers", std::process::id())),
///     dir.join(format!("dots-two-{}.tiers", std::process::id())));
/// tiers::par_solve_saved(&game, tiers::Options::new(), &Save::new(&one, "dots-and-boxes 2 2")).unwrap();
/// let save = Save::new(&two, "dots-and-boxes 2 2");
/// let config = || distributed::Config::process(2);
/// let solved = distributed::solve_saving(Arc::new(game.clone()), config(), Limits::default(), &save).unwrap();
/// assert_eq!(solved.value, Some(2));
/// assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
/// let again = distributed::solve_saving(Arc::new(game), config(), Limits::default(), &save.resumed()).unwrap();
/// assert_eq!((again.value, again.local[0].resumed, again.local[0].states), (Some(2), 13, 0));
/// std::fs::remove_file(&one).unwrap();
/// std::fs::remove_file(&two).unwrap();
/// ```
#[cfg(feature = "database")]
pub fn solve_saving<G>(
    game: Arc<G>,
    config: Config,
    limits: Limits,
    save: &super::file::Save,
) -> Result<Distributed, SolveError>
where
    G: Tiered + Send + Sync + 'static,
{
    crate::engines::chance::refuse_chance(&*game, "the tier solver")?;
    // A file refused is said to every worker before it stops (no process waits in vain).
    let files = super::saving::hosts_worker_0(&config).then(|| super::saving::open(&*game, save));
    run(game, config, limits, Some(std::sync::Mutex::new(files)))
}

fn run<G>(
    game: Arc<G>,
    config: Config,
    limits: Limits,
    saving: Option<Saving>,
) -> Result<Distributed, SolveError>
where
    G: Tiered + Send + Sync + 'static,
{
    let started = Instant::now();
    let threads = threads_per_process(&config);
    // A round per tier, or per level of blocks of an index of at most 2^64 places.
    let rounds = game.tier_count().max(66);
    let process = Arc::new(Process::new(threads, rounds));
    let shared = Arc::clone(&process);
    let saving = saving.map(Arc::new);
    let guards = super::sockets::execute(config, move |worker| {
        // Worker 0 writes the tier file (and reads the one it resumes).
        let range = (game.tier(&game.start()), game.tier_count());
        let (files, told) = super::saving::agree(worker, saving.as_deref(), range)?;
        let on = On {
            game: &*game,
            limits,
            threads,
            told,
            files,
        };
        let bound = game.value_bound().max(0);
        // A saving solve goes by requests: its values by rank, tier by tier.
        if told.is_some() {
            return solve_by_bound(worker, on, bound);
        }
        let replicated = super::replicated::Replicated {
            worker: &mut *worker,
            game: &game,
            process: &shared,
            limits,
        };
        if let Some(done) = crate::game::declaration::visit_index(&game.capabilities(), replicated)
        {
            return done;
        }
        solve_by_bound(worker, on, bound)
    })
    .map_err(SolveError::Distributed)?;
    let mut solved = Distributed {
        value: None,
        workers: 0,
        tiers: 0,
        local: Vec::new(),
        elapsed: Duration::ZERO,
        kept: None,
    };
    let mut failure = None;
    for result in guards.join() {
        match result {
            Ok(Ok(done)) => {
                solved.value = solved.value.or(done.value);
                solved.workers = done.workers;
                solved.tiers = done.tiers;
                solved.local.push(done.stats);
            }
            // A worker's own error before another's report that it failed (worker 0's "sent
            // no values", a share not received).
            Ok(Err(error)) => {
                failure = match failure {
                    Some(SolveError::Distributed(_))
                        if !matches!(error, SolveError::Distributed(_)) =>
                    {
                        Some(error)
                    }
                    None => Some(error),
                    kept => kept,
                }
            }
            Err(message) => failure = failure.or(Some(SolveError::Distributed(message))),
        }
    }
    if let Some(error) = failure {
        return Err(error);
    }
    if solved.value.is_none() && solved.local.iter().any(|worker| worker.worker == 0) {
        return Err(SolveError::InvalidGame(
            "the start's dense index holds no value once every tier is solved".into(),
        ));
    }
    solved.elapsed = started.elapsed();
    solved.kept = process.kept();
    Ok(solved)
}

/// The workers of each process that `config` describes.
pub(crate) fn threads_per_process(config: &Config) -> usize {
    match &config.communication {
        CommunicationConfig::Thread => 1,
        CommunicationConfig::Process(threads) | CommunicationConfig::ProcessBinary(threads) => {
            *threads
        }
        CommunicationConfig::Cluster { threads, .. } => *threads,
    }
}
