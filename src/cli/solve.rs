//! `gamesolver GAME VALUES`: choosing the solver for the game and the options, and solving.

use crate::SolveError;
use std::hash::Hash;

use crate::Solved;
use crate::engines::nimbers::Journal;
use crate::engines::tiers;
use crate::error::Bytes;
use crate::{
    DenseIndex, Engine, Error, Limits, Solver, Tiered,
    engines::{
        SWIFT_MOVES, Stats,
        tiers::{KeepTiers, TierSolution},
    },
};

use super::args::{Cli, SolverName};
use super::budget::{held, pool_if_parallel, stacks_held, values_and_limits};
pub use super::choice::threads_or_cores;
use super::choice::{names, solver_choice};
use super::engines::{EngineRun, presented};
use super::forecast::{foresee, foresee_tiers};
use super::model::{Failure, GameName, Report};
use super::options::{inapplicable_solver_options, refuse_misplaced_options};
use super::present::{Presented, outcome_game};
use super::registry::{Done, Saved, Solve, Task, with_engine_game};
use super::saved::saved_report;

/// Reads the values, solves, and reports.
///
/// `auto` picks the game's specialised solver where it has one (exact, and faster than the
/// engine at every size: docs/performance.md). Otherwise it runs the engine, in parallel when
/// more than one thread is available and the game's state bound reaches `SERIAL_CUTOFF`.
pub(crate) fn run(cli: &Cli) -> Result<Report, Failure> {
    refuse_misplaced_options(cli)?;
    if let Some(message) = inapplicable_solver_options(cli) {
        super::report::warn(cli.json, &message);
    }
    let starts_elsewhere = cli.at.is_some()
        && cli.game.engine().is_some_and(|engine| {
            engine.fast.is_none() && engine.tiers.is_none() && engine.at.is_some()
        });
    if cli.at.is_some() && (!starts_elsewhere || cli.save.is_some() || cli.load.is_some()) {
        return Err(Failure::Usage(format!(
            "a solve of {} does not start at --at (with --save or --load, none does): \
             `gamesolver analyze {} --at POSITION` values the moves of a position",
            cli.game.id(),
            cli.game.id()
        )));
    }
    let Some(engine) = cli.game.engine() else {
        let own = cli
            .game
            .own()
            .expect("a game the engines do not solve has its own path");
        return (own.solve)(cli);
    };
    let (values, limits) = values_and_limits(cli)?;
    let n = values.len();
    let tiered = matches!(cli.solver, SolverName::Tier | SolverName::Distributed);
    if cli.explain
        && let Some(report) = super::choice::declared(cli, n, engine, tiered)
    {
        return Ok(report);
    }
    let tier_save = engine.tiers.is_some()
        && (tiered || (cli.solver == SolverName::Auto && engine.fast.is_none()));
    let on_timely = cli.solver == SolverName::Distributed;
    if cli.load.is_some() || (cli.save.is_some() && (!tier_save || !on_timely)) {
        return saved_report(cli, values, limits);
    }
    if tiered && engine.tiers.is_none() {
        return Err(no_tiers(cli.game, "the engine"));
    }
    match (engine.fast, engine.tiers) {
        (Some(fast), _) if matches!(cli.solver, SolverName::Fast | SolverName::Auto) => {
            fast(cli, values, limits)
        }
        (_, Some(tiers)) if tiered || cli.solver == SolverName::Auto => tiers(cli, values, limits),
        (_, tiers) => with_engine_game(cli.game, values, Task::Solve(Solve { cli, n, limits }))
            .map(Done::report)
            .map_err(|failure| match failure {
                // A layered game the engine cannot hold: the tier solver may.
                Failure::Rejected(error @ Error::Solve(SolveError::MemoryBudget { .. }))
                    if tiers.is_some() =>
                {
                    Failure::Advised(
                        error,
                        "--solver tier solves this game tier by tier, in far less memory",
                    )
                }
                failure => failure,
            }),
    }
}

impl Solve<'_> {
    /// Solves `game`.
    pub(crate) fn with<G>(self, game: &G) -> Result<Report, Failure>
    where
        G: Presented + DenseIndex + Sync,
        G::State: Eq + Hash + Send + Sync,
        G::Move: Send,
    {
        engine_report(self.cli, game, self.n, self.limits)
    }
}

impl Solve<'_> {
    /// Solves `game`, which declares no dense index (a user's game), through the library's
    /// [`Solver`](crate::Solver), on hash tables.
    pub(crate) fn hashed<G>(self, game: &G) -> Result<Report, Failure>
    where
        G: Presented + Sync,
        G::State: Eq + Hash + Send + Sync,
        G::Move: Send,
    {
        foresee(self.cli, game)?;
        via_solver(self.cli, game, self.n, self.limits, None, None)
    }
}

impl Saved<'_> {
    /// Solves `game` from or into the saved table.
    pub(crate) fn with<G>(self, game: &G) -> Result<Report, Failure>
    where
        G: Presented + DenseIndex + Sync,
        G::State: Eq + Hash + Send + Sync,
        G::Move: Send,
    {
        if self.cli.load.is_none()
            && let Some(report) = saved_as_solved(self.cli, game, self.params, self.limits)?
        {
            return Ok(report);
        }
        if !matches!(self.cli.solver, SolverName::Auto | SolverName::Engine) {
            super::report::warn(
                self.cli.json,
                match self.cli.load {
                    Some(_) => "--load answers from the saved table: --solver has no effect",
                    None => {
                        "--save uses the engine with a dense table where --solver's engine holds \
                         no value by the dense index"
                    }
                },
            );
        }
        super::saved::with_saved(self.cli, game, self.params, self.limits)
    }
}

/// `--save` with the engine of the plain solve, where its plan holds every value by the dense
/// index (the exhaustive engine and the sweep on a dense table, retrograde analysis numbering
/// states by the index): the same report as the plain solve, and its values written. `None`
/// where the plan holds them otherwise (the pruning engine, hash tables, a symmetry): the
/// exhaustive engine on a dense table saves instead.
pub(super) fn saved_as_solved<G>(
    cli: &Cli,
    game: &G,
    params: &[i64],
    limits: Limits,
) -> Result<Option<Report>, Failure>
where
    G: Presented + DenseIndex + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    let (engine, threads) = solver_choice(cli);
    let solver = Solver::new(game).threads(threads).limits(limits);
    let plan = match engine {
        Some(engine) => solver.engine(engine).plan()?,
        None => solver.plan()?,
    };
    let by_index = matches!(
        plan.engine,
        Engine::Exhaustive | Engine::Sweep | Engine::Retrograde
    );
    if !(by_index && plan.dense && !plan.symmetry) {
        return Ok(None);
    }
    foresee(cli, game)?;
    via_solver(cli, game, params.len(), limits, Some(params), None).map(Some)
}

/// Solves `game` through the library's [`Solver`](crate::Solver) with the engine and threads
/// of [`solver_choice`], and presents it; with `saving` (the game's values as given), writes
/// `--save` from the values the solve holds by the dense index, once the line is known; with
/// `journal`, the nimber engine saves its parts' nimbers there as it goes.
pub(super) fn via_solver<G>(
    cli: &Cli,
    game: &G,
    n: usize,
    limits: Limits,
    saving: Option<&[i64]>,
    journal: Option<&Journal>,
) -> Result<Report, Failure>
where
    G: Presented + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    let (engine, threads) = solver_choice(cli);
    // The worker threads' stacks come out of the budget, as for the bundled games (the
    // solver starts its own pool of them).
    let limits = match threads {
        1 => limits,
        _ => stacks_held(threads, limits)?,
    };
    let mut solver = Solver::new(game).threads(threads).limits(limits);
    if cli.explain {
        let plan = match engine {
            Some(engine) => solver.engine(engine).plan()?,
            None => solver.plan()?,
        };
        return Ok(super::choice::planned(cli, n, &plan));
    }
    if let Some(journal) = journal {
        solver = solver.save_nimbers(journal);
    }
    let solved = match engine {
        Some(engine) => solver.engine(engine).solve()?,
        None => solver.solve()?,
    };
    if let (Some(path), Some(params)) = (&cli.save, saving) {
        let Some(values) = solved.values_by_index() else {
            return Err(Failure::Usage(format!(
                "--save keeps one value per index of the game's dense index, and the {} engine \
                 that ran holds none by it",
                names(&solved.plan()).0
            )));
        };
        super::saved::save(path, cli.game, params, values)?;
    }
    answered(cli, game, n, limits, solved, None)
}

/// The report of `solved` (with `stats` for the solve's figures where the answer comes from a
/// file the solve wrote).
pub(super) fn answered<G>(
    cli: &Cli,
    game: &G,
    n: usize,
    limits: Limits,
    mut solved: crate::Answer<'_, G>,
    stats: Option<Stats>,
) -> Result<Report, Failure>
where
    G: Presented,
{
    let (line, swift) = match outcome_game(game) {
        true => match solved.swift_line_within(SWIFT_MOVES)? {
            Some(line) => (line, true),
            None => (solved.line()?, false),
        },
        false => (solved.line()?, false),
    };
    // A loopy tier solve that kept only the tiers it still needed holds the start's outcome
    // and remoteness but not the line: the short line is no measure of the remoteness.
    let start = solved.start().clone();
    let remoteness = match outcome_game(game) {
        true => solved.remoteness(&start)?,
        false => None,
    };
    let short = swift
        && match remoteness {
            Some(moves) => moves as usize != line.len(),
            // A draw's line runs until a position repeats: none at all, from a start with moves,
            // is one not kept.
            None => line.is_empty() && game.moves(&start).next().is_some(),
        };
    let plan = solved.plan();
    let (solver, table) = names(&plan);
    // An answer from a tier file alone (`--load`) solved nothing.
    let table = match (solver, &stats, cli.load.is_some()) {
        ("loopy-tier" | "tier", None, true) => "file",
        _ => table,
    };
    let threads = plan.threads;
    let run = EngineRun {
        value: solved.value(),
        line,
        solver,
        table,
        threads,
        stats: stats.unwrap_or_else(|| solved.stats()),
        analysis: None,
        // The solve kept within the budget; what is left to fit is the line in words.
        held: 0,
        swift,
        nimber: solved.nimber(),
    };
    let mut report = presented(cli, game, n, run, limits)?;
    report.why = Some(plan.reason());
    if let Some(size) = solved.proof_size() {
        // Proof search: the size of the proofs it read off, in JSON and in words.
        let fields = report.json.take().unwrap_or_default();
        report.json = Some(fields.with("proof_size", size));
        report.notes.push(format!(
            "The proof of this value holds {size} questions, each answered by the moves (the \
             library's check::check_proof replays it against the rules)."
        ));
    }
    if short {
        super::engines::withhold_line(&mut report, game, remoteness);
    }
    Ok(report)
}

/// Solves `game` with the engine `--solver` names (`auto`: [`Solver::plan`]'s choice) and
/// presents the result.
pub(super) fn engine_report<G>(
    cli: &Cli,
    game: &G,
    n: usize,
    limits: Limits,
) -> Result<Report, Failure>
where
    G: Presented + DenseIndex + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    foresee(cli, game)?;
    via_solver(cli, game, n, limits, None, None)
}

/// The tier solution of `game` keeping every tier (so that it values any position), on
/// `--threads` threads: what `analyze` and `play` use where the engine's table would not fit.
pub(super) fn every_tier<'g, G>(
    cli: &Cli,
    game: &'g G,
    limits: Limits,
) -> Result<TierSolution<'g, G>, SolveError>
where
    G: Tiered + Sync,
    G::State: Send,
{
    let mut limits = limits;
    let pool = pool_if_parallel(threads_or_cores(cli), &mut limits)?;
    tiers_on(pool.as_ref(), game, limits, KeepTiers::All)
}

/// The tier solution of `game`, keeping `keep`, on `pool` (or this thread).
fn tiers_on<'g, G>(
    pool: Option<&rayon::ThreadPool>,
    game: &'g G,
    limits: Limits,
    keep: KeepTiers,
) -> Result<TierSolution<'g, G>, SolveError>
where
    G: Tiered + Sync,
    G::State: Send,
{
    match pool {
        Some(pool) => {
            pool.install(|| tiers::par_solve(game, tiers::Options::new().limits(limits).keep(keep)))
        }
        None => tiers::solve(game, tiers::Options::new().limits(limits).keep(keep)),
    }
}

/// A tier solution that was asked for a position whose tiers it did not keep.
pub(super) fn tiers_not_kept() -> SolveError {
    SolveError::InvalidState(
        "the tier solution kept no values for this position's moves (every tier is kept for \
         analyze and play)"
            .into(),
    )
}

/// `--solver tier` for a game that is not layered into tiers.
pub fn no_tiers(game: GameName, instead: &str) -> Failure {
    Failure::Usage(format!(
        "{} is not layered into tiers: the tier solver does not apply ({instead} solves it; \
         the tier solver solves {})",
        game.id(),
        super::registry::tier_names()
    ))
}

/// A game layered into tiers, by the tier solver on `--threads` threads (default: every
/// core): every tier kept when they fit the budget (for the optimal line), else only the tiers
/// still needed (the value alone, and a note that says why there is no line).
pub fn tier_report<G>(
    cli: &Cli,
    game: &G,
    (n, params): (usize, &[i64]),
    limits: Limits,
) -> Result<Report, Failure>
where
    G: Presented + Tiered + Sync,
    G::State: Send,
{
    let threads = threads_or_cores(cli);
    foresee_tiers(cli, game, threads, limits.memory_budget)?;
    let mut limits = limits;
    let pool = pool_if_parallel(threads, &mut limits)?;
    let solve = |keep| tiers_on(pool.as_ref(), game, limits, keep);
    let (solution, everything) = match solve(KeepTiers::All) {
        // `--save` needs every value: no solve of the tiers still needed alone.
        Err(SolveError::MemoryBudget { needed, .. }) if cli.save.is_some() => {
            return Err(unsaved(cli, Some(needed)));
        }
        Err(SolveError::MemoryBudget { needed, .. }) => (solve(KeepTiers::Needed)?, Some(needed)),
        solved => (solved?, None),
    };
    let line = solution.line().unwrap_or_default();
    let done = solution.stats();
    let plies = line.len() as u64;
    held(
        limits,
        done.peak_bytes
            .saturating_add(plies.saturating_mul(G::ENTRY_BYTES)),
        || format!("the tier solution and its optimal line of {plies} moves in words"),
    )?;
    let mut notes: Vec<String> = game.legend().map(str::to_string).into_iter().collect();
    let withheld = everything.is_some();
    if let Some(needed) = everything {
        notes.push(format!(
            "No line of play: it needs every tier's values at once ({}), past the memory budget \
             ({}); the value is exact.",
            Bytes(needed),
            Bytes(limits.memory_budget)
        ));
    }
    save_tiers(cli, params, &solution)?;
    let value = solution.value();
    Ok(Report {
        game: cli.game,
        n,
        answer: game.answer(value),
        value,
        headline: game.headline(value),
        solver: "tier",
        table: match (done.value_bytes, done.dense) {
            (1, false) => "8-bit tiers",
            (2, false) => "16-bit tiers",
            (4, false) => "32-bit tiers",
            (_, false) => "64-bit tiers",
            (1, true) => "8-bit tiers by dense index",
            (2, true) => "16-bit tiers by dense index",
            (4, true) => "32-bit tiers by dense index",
            (_, true) => "64-bit tiers by dense index",
        },
        threads,
        stats: Stats {
            stored: done.states as usize,
            expanded: done.moves,
            max_depth: done.tiers,
            elapsed: done.elapsed,
            ..Stats::default()
        },
        line: game.entries(&line),
        notes,
        json: None,
        outcome: None,
        helper: None,
        withheld,
        chance: None,
        why: None,
        explained: false,
    })
}

/// Writes `--save` from a tier solve that kept every tier: one value per index of the game's
/// dense index, in the saved-solution format, under `params`; values kept by rank are refused.
fn save_tiers<G: Tiered>(
    cli: &Cli,
    params: &[i64],
    solution: &crate::engines::tiers::TierSolution<'_, G>,
) -> Result<(), Failure> {
    match (&cli.save, solution.slot_values()) {
        (Some(path), Some(slots)) => Ok(super::saved::save(path, cli.game, params, slots)?),
        (Some(_), None) => Err(unsaved(cli, None)),
        (None, _) => Ok(()),
    }
}

/// The refusal of `--save` by a tier solve that could not keep every value by the dense index:
/// every tier would need `needed` bytes past the budget, or (`None`) the values are kept by
/// rank. Nothing is written.
fn unsaved(cli: &Cli, needed: Option<u64>) -> Failure {
    Failure::Usage(format!(
        "--save keeps one value per index of the game's dense index, and this tier solve \
         cannot keep {}; nothing was written to {}",
        match needed {
            Some(needed) => format!(
                "every tier's values at once ({}, past --memory-limit)",
                Bytes(needed)
            ),
            None => "its values by the dense index (it does not fit --memory-limit)".into(),
        },
        cli.save
            .as_deref()
            .unwrap_or(std::path::Path::new(""))
            .display()
    ))
}

/// A game layered into tiers, by the tier solver on timely dataflow, with the workers and
/// processes of `--workers`, `--processes`, `--process` and `--hostfile`. The process that
/// hosts worker 0 reports the value, and the optimal line where every process held every value
/// (a dense index that fits the budget) or where it wrote the tier file of `--save` (under
/// `params`, the values the game was made of; by requests, going on from the file's tiers with
/// `--resume`); the others report what they did on stderr. `n` is the report's.
#[cfg(feature = "distributed")]
pub fn distributed_report<G>(
    cli: &Cli,
    game: G,
    (n, params): (usize, &[i64]),
    limits: Limits,
) -> Result<Report, Failure>
where
    G: Presented + Tiered + Send + Sync + 'static,
{
    use crate::engines::tiers::{TierDatabase, distributed};
    let config = super::cluster::config(cli)?;
    let game = std::sync::Arc::new(game);
    let save = cli.tier_save(params);
    // timely prints some failures on stdout: stdout is the report's alone, so its chatter
    // goes to stderr.
    let shared = std::sync::Arc::clone(&game);
    let solved = super::cluster::stdout_to_stderr(|| match &save {
        Some(save) => distributed::solve_saving(shared, config, limits, save),
        None => distributed::solve(shared, config, limits),
    })?;
    let states: u64 = solved.local.iter().map(|worker| worker.states).sum();
    let moves: u64 = solved.local.iter().map(|worker| worker.moves).sum();
    let per_tier = sent_per_tier(&solved.local);
    let sent: u64 = per_tier.iter().map(|(_, bytes)| bytes).sum();
    let workers: Vec<String> = solved.local.iter().map(|w| w.worker.to_string()).collect();
    let (every, by_blocks) = solved
        .local
        .first()
        .map_or((false, false), |w| (w.replicated, w.by_blocks));
    // Every value in every process: a process's workers send only to other processes; by
    // requests, each worker asks and answers the others, in this process too.
    let to = if every { "processes" } else { "workers" };
    let did = format!(
        "this process's workers ({} of {}) valued {states} states and {moves} moves, and sent \
         {} to other {to} ({})",
        workers.join(", "),
        solved.workers,
        Bytes(sent),
        rounds_sent(&per_tier, by_blocks)
    );
    let (workers, tiers, elapsed) = (solved.workers, solved.tiers, solved.elapsed);
    let resumed = solved.local.first().map_or(0, |worker| worker.resumed);
    let did = match resumed {
        0 => did,
        _ => format!("{did} ({resumed} tiers read back from the tier file)"),
    };
    let Some(value) = solved.value else {
        return Ok(Report {
            helper: Some(format!(
                "{did}, in {:.3} s; the process with worker 0 prints the answer",
                elapsed.as_secs_f64()
            )),
            ..distributed_shell(cli, &*game, n, 0)
        });
    };
    let mut report = distributed_shell(cli, &*game, n, value);
    report.threads = workers;
    report.stats = Stats {
        stored: states as usize,
        expanded: moves,
        max_depth: tiers,
        elapsed,
        ..Stats::default()
    };
    if let Some(save) = &save {
        // The line read back from the tier file, as the solve on one machine does.
        let line = TierDatabase::open(&*game, &save.path, &save.game)?.line()?;
        report.line = game.entries(&line);
        report.withheld = false;
        report.notes.push(format!(
            "Solved by {workers} timely workers, each holding its share of the tiers, the \
             process with worker 0 writing each tier to the tier file {} as it completed \
             (analyze --load and play --load answer from it). Of them, {did}.",
            save.path.display()
        ));
        return Ok(report);
    }
    let solution = solved.into_solution(&*game);
    match &solution {
        Some(solution) => {
            let line = solution.line().unwrap_or_default();
            let plies = line.len() as u64;
            held(
                limits,
                solution
                    .stats()
                    .peak_bytes
                    .saturating_add(plies.saturating_mul(G::ENTRY_BYTES)),
                || format!("the tier solution and its optimal line of {plies} moves in words"),
            )?;
            report.line = game.entries(&line);
            report.withheld = false;
            report.notes.push(format!(
                "Solved by {workers} timely workers, every process holding every value. Of \
                 them, {did}."
            ));
        }
        None => report.notes.push(format!(
            "Solved by {workers} timely workers, each holding its share of the tiers{}: no line \
             of play. Of them, {did}.",
            if every {
                ""
            } else {
                " (not every value fits one process's budget)"
            }
        )),
    }
    Ok(report)
}

/// The bytes this process's workers sent to other processes, per tier (per level of blocks,
/// for a solve by blocks), in the order solved.
#[cfg(feature = "distributed")]
fn sent_per_tier(local: &[crate::engines::tiers::distributed::WorkerStats]) -> Vec<(usize, u64)> {
    let mut per_tier: Vec<(usize, u64)> = Vec::new();
    for worker in local {
        for (place, &(tier, bytes)) in worker.bytes_per_tier.iter().enumerate() {
            match per_tier.get_mut(place) {
                Some(entry) => entry.1 += bytes,
                None => per_tier.push((tier, bytes)),
            }
        }
    }
    per_tier
}

/// Bytes per tier in words: `tier 30: 1.0 MiB, tier 29: …`, the tiers that sent nothing left
/// out.
#[cfg(feature = "distributed")]
fn rounds_sent(per_tier: &[(usize, u64)], by_blocks: bool) -> String {
    let round = if by_blocks { "level" } else { "tier" };
    let sent: Vec<String> = per_tier
        .iter()
        .filter(|(_, bytes)| *bytes > 0)
        .map(|(tier, bytes)| format!("{round} {tier}: {}", Bytes(*bytes)))
        .collect();
    if sent.is_empty() {
        "nothing to send".to_string()
    } else {
        sent.join(", ")
    }
}

/// A distributed solve's report before its figures.
#[cfg(feature = "distributed")]
pub(super) fn distributed_shell<G: Presented>(
    cli: &Cli,
    game: &G,
    n: usize,
    value: crate::Score,
) -> Report {
    Report {
        game: cli.game,
        n,
        answer: game.answer(value),
        value,
        headline: game.headline(value),
        solver: "distributed",
        table: "timely",
        threads: 1,
        stats: Stats::default(),
        line: game.entries(&[]),
        notes: game.legend().map(str::to_string).into_iter().collect(),
        json: None,
        outcome: None,
        helper: None,
        withheld: true,
        chance: None,
        why: None,
        explained: false,
    }
}

/// `--solver distributed` in a build without the `distributed` feature.
#[cfg(not(feature = "distributed"))]
pub fn distributed_report<G>(
    _: &Cli,
    _: G,
    _: (usize, &[i64]),
    _: Limits,
) -> Result<Report, Failure> {
    Err(Failure::Usage(
        "--solver distributed needs a build with the distributed feature: cargo run --release \
         --features distributed -- ..."
            .into(),
    ))
}
