//! The loopy tier solver on timely dataflow ([`solve`]): the same tiers and the same codes,
//! with each tier's states shared out among workers that may live in several processes (or
//! machines).
//!
//! Every worker holds the codes of the tiers a move can reach (all of them: they are two bytes
//! a state) and owns a contiguous range of each tier's ranks (`ceil(len / workers)` each, in
//! worker order). A tier is solved by value iteration, whose passes need no reverse of the
//! moves, only the tier's codes as they stand:
//!
//! 1. each worker looks at its own ranks once (their moves out of the tier, in the solved
//!    tiers it holds) and sends their codes and bounds to every other worker;
//! 2. pass by pass, each worker decides those of its undecided ranks whose remoteness is the
//!    pass's level, and sends the decisions to every other worker; timely's progress tracking
//!    says when every worker's decisions of the pass are in. Every worker then knows how many
//!    states the pass decided, and where to go next, alike;
//! 3. what is left is drawn.
//!
//! A message is tagged with its tier and pass and applied only at that pass: a worker ahead by
//! a pass cannot change what a worker behind reads. The codes are those of
//! [`par_solve`](super::par_solve) for every number of workers and processes.
//!
//! A solve that saves ([`solve_saving`]) has worker 0 write each tier to the tier file as it
//! completes (every worker holds every code of it by then), in the format the solve on one
//! machine writes. Resumed, worker 0 reads the file: before any tier it tells every worker how
//! many tiers the file holds (none, for a solve that does not resume), then sends each of those
//! tiers' codes. The others need no copy of the file and no option of their own, and all agree
//! on the tier the solve goes on from, since one worker decides it.

use std::sync::atomic::{AtomicU16, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::iteration::{decision, next_level};
use super::tier::{first_look, tally};
use super::{
    Classes, Code, LoopySolution, LoopyStats, Method, Options, Tiers, keep, save_tier, saved_tier,
};
use crate::engines::tiers::Clock;
pub use crate::engines::tiers::distributed::Config;
use crate::engines::tiers::mailbox::Mailbox;
use crate::engines::tiers::saving::{Saving, agree};
use crate::error::SolveError;
use crate::game::Tiered;

/// What a worker sends another: `(to, tier, pass, first rank, codes, bounds, ranks)`. A first
/// look's codes and bounds lie from the first rank on (no ranks listed); a pass's decisions
/// list their ranks, one code each.
type Sent = (u32, u32, u32, u32, Vec<u16>, Vec<u16>, Vec<u32>);

/// What one worker did, and (worker 0) every kept tier's codes.
type Done = (LoopyStats, Option<Tiers>, usize);

/// The pass a message of codes read from the tier file is tagged with.
const LOADED: u32 = u32::MAX;
/// Codes a message of a tier read from the file carries at most.
const PIECE: usize = 1 << 20;

/// The outcome of a distributed loopy tier solve in one process.
#[derive(Debug)]
pub struct LoopyDistributed {
    /// How many workers there are in all.
    pub workers: usize,
    /// This process's workers' counts, added up (`states`, `moves` and the outcomes are of the
    /// ranks each owns; `tiers` and `iterated` are every worker's alike).
    pub stats: LoopyStats,
    /// Wall-clock time of the solve in this process.
    pub elapsed: Duration,
    /// Worker 0's codes of the kept tiers, in the process that hosts it.
    tiers: Option<Tiers>,
}

impl LoopyDistributed {
    /// The solution of `game` (the game solved, with the classes it was solved with), in the
    /// process that hosts worker 0; `None` in the others.
    pub fn into_solution<G: Tiered, C: Classes<G>>(
        self,
        game: &G,
        classes: C,
    ) -> Option<LoopySolution<'_, G, C>> {
        Some(LoopySolution::from_tiers(
            game,
            classes,
            self.tiers?,
            self.stats,
        ))
    }
}

/// Solves a loopy tiered outcome game on timely dataflow, with the workers and processes
/// `config` describes (as [`tiers::distributed::solve`](crate::engines::tiers::distributed::solve)
/// takes them), valuing the states `classes` says. Every process runs the same call; the one
/// that hosts worker 0 gets the codes. `options.limits.memory_budget` is each process's: every
/// worker holds the kept tiers' codes and a code and a bound a rank of the tier being solved,
/// checked before any work.
///
/// ```
/// use std::sync::Arc;
/// use gamesolver::engines::tiers::{KeepTiers, loopy::{self, BySymmetry, distributed}};
/// use gamesolver::games::Quixo;
///
/// let game = Quixo::new(3).unwrap();
/// let options = loopy::Options::new().keep(KeepTiers::All);
/// let local = loopy::par_solve(&game, BySymmetry, options).unwrap();
/// let config = distributed::Config::process(3); // three workers in this process
/// let solved = distributed::solve(Arc::new(game.clone()), BySymmetry, config, options).unwrap();
/// let solution = solved.into_solution(&game, BySymmetry).unwrap();
/// assert_eq!(solution.tiers(), local.tiers());
/// assert_eq!(solution.remoteness(), Some(7));
/// ```
pub fn solve<G, C>(
    game: std::sync::Arc<G>,
    classes: C,
    config: Config,
    options: Options,
) -> Result<LoopyDistributed, SolveError>
where
    G: Tiered + Send + Sync + 'static,
    G::State: Send + PartialEq,
    C: Classes<G> + Clone + 'static,
{
    run(game, classes, config, options, None)
}

/// [`solve`], writing each tier to `save`'s tier file as it completes, or (with
/// `save.resume`) going on from the tiers the file holds: the process that hosts worker 0
/// writes and reads the file, in the format [`par_solve_saved`](super::par_solve_saved)
/// writes (so [`LoopyDatabase`](super::LoopyDatabase) and `--load` answer from it); the
/// other processes touch no file, whatever `save` they are given (or if they run [`solve`]).
/// A solve stopped at any moment resumes from its last complete tier and ends with the same
/// codes.
///
/// ```
/// use std::sync::Arc;
/// use gamesolver::engines::tiers::{KeepTiers, file::TierFile, loopy::{self, BySymmetry, Save, distributed}};
/// use gamesolver::games::Quixo;
///
/// let game = Quixo::new(3).unwrap();
/// let path = std::env::temp_dir().join(format!("quixo-timely-doc-{}.tiers", std::process::id()));
/// let save = Save::new(&path, "quixo 3");
/// let options = loopy::Options::new().keep(KeepTiers::All);
/// let config = || distributed::Config::process(2);
/// let solved = distributed::solve_saving(Arc::new(game.clone()), BySymmetry, config(), options, &save)
///     .unwrap();
/// assert_eq!(TierFile::open(&path).unwrap().tiers_held(), solved.stats.tiers);
/// // Resumed from a whole file: every tier read back, none solved.
/// let again = distributed::solve_saving(Arc::new(game.clone()), BySymmetry, config(), options,
///     &save.resumed()).unwrap();
/// assert_eq!((again.stats.resumed, again.stats.tiers), (solved.stats.tiers, 0));
/// assert_eq!(again.into_solution(&game, BySymmetry).unwrap().remoteness(), Some(7));
/// std::fs::remove_file(&path).unwrap();
/// ```
#[cfg(feature = "database")]
pub fn solve_saving<G, C>(
    game: std::sync::Arc<G>,
    classes: C,
    config: Config,
    options: Options,
    save: &super::Save,
) -> Result<LoopyDistributed, SolveError>
where
    G: Tiered + Send + Sync + 'static,
    G::State: Send + PartialEq,
    C: Classes<G> + Clone + 'static,
{
    // A file refused is said to every worker before it stops (no process waits in vain).
    let first = crate::engines::tiers::saving::hosts_worker_0(&config);
    let files = first.then(|| super::open_files(&*game, save));
    run(
        game,
        classes,
        config,
        options,
        Some(std::sync::Mutex::new(files)),
    )
}

fn run<G, C>(
    game: std::sync::Arc<G>,
    classes: C,
    config: Config,
    options: Options,
    saving: Option<Saving>,
) -> Result<LoopyDistributed, SolveError>
where
    G: Tiered + Send + Sync + 'static,
    G::State: Send + PartialEq,
    C: Classes<G> + Clone + 'static,
{
    crate::engines::chance::refuse_chance(&*game, "the loopy tier solver")?;
    let started = Instant::now();
    let threads = crate::engines::tiers::distributed::threads_per_process(&config);
    let start = game.start();
    let (from, count) = (game.tier(&start), game.tier_count());
    if from >= count {
        return Err(SolveError::InvalidGame(format!(
            "the start is in tier {from}, but the game has {count} tiers"
        )));
    }
    let per_worker = (from..count)
        .map(|tier| super::tier_bytes(&*game, tier, options.keep, Method::ValueIteration))
        .max()
        .unwrap_or(0)
        // What a tier's first look sends and receives (its codes and bounds, in messages).
        .saturating_add(
            2 * (from..count)
                .map(|tier| game.tier_len(tier))
                .max()
                .unwrap_or(0),
        );
    let needed = per_worker.saturating_mul(threads as u64);
    if needed > options.limits.memory_budget {
        return Err(SolveError::MemoryBudget {
            what: format!(
                "this process's {threads} workers' copies of the loopy tier solve's codes ({} \
                 tiers)",
                count - from
            ),
            needed,
            budget: options.limits.memory_budget,
        });
    }
    let saving = saving.map(std::sync::Arc::new);
    let guards = crate::engines::tiers::sockets::execute(config, move |worker| {
        on_worker(worker, &*game, &classes, options, saving.as_deref())
    })
    .map_err(SolveError::Distributed)?;
    let mut solved = LoopyDistributed {
        workers: 0,
        stats: LoopyStats::default(),
        elapsed: Duration::ZERO,
        tiers: None,
    };
    let mut failure = None;
    for result in guards.join() {
        match result {
            Ok(Ok((stats, tiers, workers))) => {
                let sum = &mut solved.stats;
                sum.tiers = stats.tiers;
                sum.iterated = stats.iterated;
                sum.resumed = stats.resumed;
                sum.states += stats.states;
                sum.wins += stats.wins;
                sum.losses += stats.losses;
                sum.draws += stats.draws;
                sum.moves += stats.moves;
                sum.moves_within += stats.moves_within;
                sum.peak_bytes += stats.peak_bytes;
                solved.workers = workers;
                solved.tiers = solved.tiers.take().or(tiers);
            }
            Ok(Err(error)) => failure = failure.or(Some(error)),
            Err(message) => failure = failure.or(Some(SolveError::Distributed(message))),
        }
    }
    if let Some(error) = failure {
        return Err(error);
    }
    solved.elapsed = started.elapsed();
    solved.stats.elapsed = solved.elapsed;
    Ok(solved)
}

/// A worker's mailbox of codes: what it sends, what it has received, and how it waits for the
/// others.
struct Channel {
    mail: Mailbox<Sent>,
}

impl Channel {
    fn new(worker: &mut timely::worker::Worker) -> Channel {
        Channel {
            mail: Mailbox::new(worker, |sent: &Sent| sent.0),
        }
    }

    /// Sends `sent` (its first field names the worker) to every worker but `me`.
    fn send_others(&mut self, me: usize, workers: usize, sent: Sent) {
        for other in (0..workers).filter(|&other| other != me) {
            let mut copy = sent.clone();
            copy.0 = other as u32;
            self.mail.send(copy);
        }
    }

    /// Waits, parked, until every worker's sends so far are in.
    fn settle(&mut self, worker: &mut timely::worker::Worker) {
        self.mail.settle(worker);
    }

    /// Sends tier `tier`'s `codes`, read from the tier file, to every worker but `me`, in
    /// pieces (one at least, so that an empty tier says it was read too).
    fn send_loaded(&mut self, me: usize, workers: usize, tier: usize, codes: &[u16]) {
        let mut first = 0;
        loop {
            let piece = &codes[first..(first + PIECE).min(codes.len())];
            let sent = (
                0,
                tier as u32,
                LOADED,
                first as u32,
                piece.to_vec(),
                Vec::new(),
                Vec::new(),
            );
            self.send_others(me, workers, sent);
            first += piece.len();
            if first >= codes.len() {
                break;
            }
        }
    }

    /// Tier `tier`'s codes as read from the tier file and sent, if they were.
    fn loaded(&self, tier: usize, len: usize) -> Option<Vec<u16>> {
        let mut codes = None;
        self.mail.inbox.borrow_mut().retain(|sent| {
            let (_, at, pass, first, ref piece, _, _) = *sent;
            if at as usize != tier || pass != LOADED {
                return true;
            }
            let codes = codes.get_or_insert_with(|| vec![0u16; len]);
            let first = first as usize;
            codes[first..first + piece.len()].copy_from_slice(piece);
            false
        });
        codes
    }

    /// Applies what arrived for pass `pass` of tier `tier` to the tier's codes and bounds;
    /// the states it decided (for a pass past the first look).
    fn apply(&self, tier: usize, pass: u32, codes: &mut [u16], bounds: &mut [u16]) -> u64 {
        let mut decided = 0;
        self.mail.inbox.borrow_mut().retain(|sent| {
            let (_, at, at_pass, first, ref sent_codes, ref sent_bounds, ref ranks) = *sent;
            if at as usize != tier || at_pass != pass {
                return true;
            }
            if ranks.is_empty() {
                let first = first as usize;
                codes[first..first + sent_codes.len()].copy_from_slice(sent_codes);
                bounds[first..first + sent_bounds.len()].copy_from_slice(sent_bounds);
            } else {
                for (&rank, &code) in ranks.iter().zip(sent_codes) {
                    codes[rank as usize] = code;
                }
                decided += ranks.len() as u64;
            }
            false
        });
        decided
    }
}

/// One worker's part of the solve.
fn on_worker<G, C>(
    worker: &mut timely::worker::Worker,
    game: &G,
    classes: &C,
    options: Options,
    saving: Option<&Saving>,
) -> Result<Done, SolveError>
where
    G: Tiered + Sync,
    G::State: Send + PartialEq,
    C: Classes<G>,
{
    let (me, workers) = (worker.index(), worker.peers());
    let start = game.start();
    let (from, count) = (game.tier(&start), game.tier_count());
    let clock = Clock {
        started: Instant::now(),
        limit: options.limits.time_limit,
        from,
        progress: options.limits.progress,
    };
    // The first look runs on rayon: one thread per worker, the workers being the threads.
    let pool = super::one_thread()?;
    let mut channel = Channel::new(worker);
    let reach = game.tier_reach().max(1);
    let mut tiers: Tiers = vec![None; count];
    let mut stats = LoopyStats::default();
    // 0. Worker 0 takes the tier file (it writes it, and reads the one it resumes) and tells
    // every worker how many tiers, from the last, it holds.
    let (mut files, told) = agree(worker, saving, (from, count))?;
    let held = told.unwrap_or(0);
    for tier in (from..count).rev() {
        clock.check(tier)?;
        let len = game.tier_len(tier);
        if len > u64::from(u32::MAX) {
            return Err(SolveError::Unsupported(format!(
                "tier {tier} has {len} ranks; the distributed loopy tier solver numbers a tier's \
                 ranks in 32 bits"
            )));
        }
        let slots = len as usize;
        if tier >= count - held {
            // Read back by worker 0 (the others hold no file) and sent to the others.
            let read = saved_tier(files.as_ref(), tier, len)?;
            if let Some(codes) = &read {
                channel.send_loaded(me, workers, tier, codes);
            }
            channel.settle(worker);
            let codes = read
                .or_else(|| channel.loaded(tier, slots))
                .ok_or_else(|| {
                    SolveError::Distributed(format!(
                        "worker {me} did not receive tier {tier} from the tier file"
                    ))
                })?;
            stats.resumed += 1;
            keep(&mut tiers, tier, codes, options.keep, reach);
            continue;
        }
        let block = len.div_ceil(workers as u64).max(1);
        let (low, high) = (
            (block * me as u64).min(len),
            (block * (me as u64 + 1)).min(len),
        );
        // 1. The first look at this worker's ranks, sent to the others.
        let own: Vec<(AtomicU16, AtomicU16)> = (low..high)
            .map(|_| (AtomicU16::new(0), AtomicU16::new(0)))
            .collect();
        let looked = pool.install(|| {
            first_look(
                game,
                classes,
                tier,
                &tiers,
                &clock,
                (false, low..high),
                |rank, code, bound, _| {
                    let (at_code, at_bound) = &own[(rank - low) as usize];
                    at_code.store(code, Relaxed);
                    at_bound.store(bound, Relaxed);
                },
            )
        })?;
        for chunk in looked {
            stats.states += chunk.states;
            stats.moves += chunk.moves;
            stats.moves_within += chunk.within_moves;
        }
        let (own_codes, own_bounds): (Vec<u16>, Vec<u16>) = own
            .into_iter()
            .map(|(code, bound)| (code.into_inner(), bound.into_inner()))
            .unzip();
        let mut codes = vec![0u16; slots];
        let mut bounds = vec![0u16; slots];
        codes[low as usize..high as usize].copy_from_slice(&own_codes);
        bounds[low as usize..high as usize].copy_from_slice(&own_bounds);
        let first = (
            0,
            tier as u32,
            0,
            low as u32,
            own_codes,
            own_bounds,
            Vec::new(),
        );
        channel.send_others(me, workers, first);
        channel.settle(worker);
        channel.apply(tier, 0, &mut codes, &mut bounds);
        // 2. Passes, level by level of remoteness, every worker deciding its own ranks.
        let mut level: u32 = 1;
        loop {
            clock.check(tier)?;
            super::within_codes(tier, level)?;
            let mut ranks = Vec::new();
            let mut decided_codes = Vec::new();
            let mut looked = 0;
            for rank in low..high {
                let slot = rank as usize;
                if codes[slot] != Code::UNDECIDED {
                    continue;
                }
                let code = decision(
                    game,
                    classes,
                    (tier, rank),
                    bounds[slot],
                    level,
                    &mut looked,
                    |at| codes[at],
                );
                if let Some(code) = code {
                    ranks.push(rank as u32);
                    decided_codes.push(code.0);
                }
            }
            stats.moves += looked;
            for (&rank, &code) in ranks.iter().zip(&decided_codes) {
                codes[rank as usize] = code;
            }
            let mut decided = ranks.len() as u64;
            let sent = (0, tier as u32, level, 0, decided_codes, Vec::new(), ranks);
            channel.send_others(me, workers, sent);
            channel.settle(worker);
            decided += channel.apply(tier, level, &mut codes, &mut bounds);
            if decided > 0 {
                level += 1;
                continue;
            }
            let undecided = codes
                .par_iter()
                .zip(bounds.par_iter())
                .filter_map(|(&code, &bound)| (code == Code::UNDECIDED).then_some(bound));
            match pool.install(|| next_level(level, undecided)) {
                Some(next) => level = next,
                None => break,
            }
        }
        // 3. What is left is drawn.
        for code in &mut codes {
            if *code == Code::UNDECIDED {
                *code = Code::DRAW.0;
            }
        }
        tally(&codes[low as usize..high as usize], &mut stats);
        stats.tiers += 1;
        stats.iterated += 1;
        // Worker 0 alone holds the file.
        save_tier(files.as_mut(), tier, &codes)?;
        keep(&mut tiers, tier, codes, options.keep, reach);
        let held: u64 = tiers
            .iter()
            .flatten()
            .map(|codes| 2 * codes.len() as u64)
            .sum();
        stats.peak_bytes = stats.peak_bytes.max(held + 2 * len);
    }
    Ok((stats, (me == 0).then_some(tiers), workers))
}
