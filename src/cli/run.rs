//! Reading the input, choosing a solver, solving (or checking).

use std::hash::Hash;
use std::io::Read;
use std::path::Path;
use std::time::Duration;

use gamesolver::check::{CheckOptions, CheckReport, check_dense};
use gamesolver::error::Bytes;
use gamesolver::memo::{
    AtomicDenseTable, BoundTable, ConcurrentMemoTable, DenseTable, HashBoundTable, HashTable,
    MemoTable, ShardedBoundTable, ShardedTable,
};
use gamesolver::{
    DenseIds, DenseIndex, Error, Game, KeepTiers, Limits, MoveValue, Outcome, Ply, Pruned, Pruning,
    RangeSource, Retrograde, SERIAL_CUTOFF, Score, Solution, StateIds, Stats, Tiered, input,
    par_prune_with, par_solve_within, par_tier_solve_with, prune_with, retrograde_with,
    solve_within, tier_solve_with,
};

use super::args::{Cli, SolverName, strip_protection};
use super::games::{Done, GameName, Reads, Task, connect_four};
use super::present::{Answer, Line, Presented};

/// Why the program stops without an answer.
#[derive(Debug)]
pub enum Failure {
    /// The command line is wrong (exit code 2).
    Usage(String),
    /// The input or the solve was rejected (exit code 1).
    Rejected(Error),
    /// A line of a batch input stopped the batch (exit code 1).
    AtLine(usize, Error),
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        Failure::Rejected(error)
    }
}

/// Everything the output shows.
pub struct Report {
    pub game: GameName,
    pub n: usize,
    pub answer: Answer,
    /// First player's points minus second's.
    pub value: Score,
    pub headline: String,
    pub solver: &'static str,
    pub table: &'static str,
    pub threads: usize,
    pub stats: Stats,
    pub line: Line,
    /// Lines printed after the headline (a board, move scores), in words.
    pub notes: Vec<String>,
    /// Connect Four's fields in JSON, after the common ones.
    pub json: Option<connect_four::PositionJson>,
    /// For games with outcomes (win, loss, draw): the start's outcome for the first player and
    /// its remoteness (`None` for a draw).
    pub outcome: Option<(gamesolver::Outcome, Option<u32>)>,
    /// For a process of a distributed solve that does not host worker 0: what it did (for
    /// stderr). Such a process prints nothing on stdout: the first process prints the answer.
    pub helper: Option<String>,
    /// The solver did not keep what the line needs (a note says why): the empty line does not
    /// mean that the game is over.
    pub withheld: bool,
}

/// What an engine run produced.
pub(super) struct EngineRun<G: Game> {
    pub(super) value: Score,
    pub(super) line: Vec<Ply<G>>,
    pub(super) solver: &'static str,
    pub(super) table: &'static str,
    pub(super) threads: usize,
    pub(super) stats: Stats,
    /// Every move of the start with its value, when asked for.
    pub(super) analysis: Option<Vec<MoveValue<G>>>,
    /// The bytes the solution still holds (its table and its line).
    pub(super) held: u64,
    /// Whether the line is the swift one (an outcome game's: the winner as fast as it can, the
    /// loser as slowly), so that its length is the remoteness.
    pub(super) swift: bool,
}

/// Reads the values, solves, and reports.
///
/// `auto` picks the game's specialised solver where it has one (exact, and faster than the
/// engine at every size: docs/performance.md). Otherwise it runs the engine, in parallel when
/// more than one thread is available and the game's state bound reaches `SERIAL_CUTOFF`.
pub fn run(cli: &Cli) -> Result<Report, Failure> {
    refuse_misplaced_options(cli)?;
    if let Some(message) = inapplicable_solver_options(cli) {
        super::report::warn(cli.json, &message);
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
    if cli.save.is_some() || cli.load.is_some() {
        return saved_report(cli, values, limits);
    }
    let tiered = matches!(cli.solver, SolverName::Tier | SolverName::Distributed);
    if tiered && engine.tiers.is_none() {
        return Err(no_tiers(cli.game, "the engine"));
    }
    match (engine.fast, engine.tiers) {
        (Some(fast), _) if matches!(cli.solver, SolverName::Fast | SolverName::Auto) => {
            fast(cli, values, limits)
        }
        (_, Some(tiers)) if tiered || cli.solver == SolverName::Auto => tiers(cli, values, limits),
        _ => with_engine_game(cli.game, values, Task::Solve(Solve { cli, n, limits }))
            .map(Done::report),
    }
}

/// Builds the game `name` from `values` and hands it to `task`: the one place a bundled game
/// is built for the engine (solve, `--save`/`--load`, `analyze`). A game with its own path
/// (Connect Four) is refused with a usage error naming what it takes instead.
pub(super) fn with_engine_game(
    name: GameName,
    values: Vec<i64>,
    task: Task<'_>,
) -> Result<Done, Failure> {
    match name.engine() {
        Some(engine) => (engine.with)(values, task),
        None => Err(Failure::Usage(format!(
            "{} is solved by its own path: give its position as its VALUE",
            name.id()
        ))),
    }
}

/// The solve: the engine chosen by `--solver`.
pub struct Solve<'a> {
    cli: &'a Cli,
    n: usize,
    limits: Limits,
}

impl Solve<'_> {
    /// Solves `game`.
    pub fn with<G>(self, game: &G) -> Result<Report, Failure>
    where
        G: Presented + DenseIndex + Sync,
        G::State: Eq + Hash + Send + Sync,
        G::Move: Send,
    {
        engine_report(self.cli, game, self.n, self.limits)
    }
}

/// The solve with `--save` / `--load`.
pub struct Saved<'a> {
    cli: &'a Cli,
    params: &'a [i64],
    limits: Limits,
}

impl Saved<'_> {
    /// Whether the table comes from `--load`.
    pub fn loads(&self) -> bool {
        self.cli.load.is_some()
    }

    /// Solves `game` from or into the saved table.
    pub fn with<G>(self, game: &G) -> Result<Report, Failure>
    where
        G: Presented + DenseIndex + Sync,
        G::State: Eq + Hash + Send + Sync,
        G::Move: Send,
    {
        with_saved(self.cli, game, self.params, self.limits)
    }
}

/// `--save` / `--load`: the engine with a dense table, saved after the solve or loaded
/// instead of it.
fn saved_report(cli: &Cli, values: Vec<i64>, limits: Limits) -> Result<Report, Failure> {
    if !matches!(cli.solver, SolverName::Auto | SolverName::Engine) {
        super::report::warn(
            cli.json,
            "--save and --load use the engine with a dense table: --solver has no effect",
        );
    }
    let n = values.len();
    // The values are written to, or compared with, the file: kept beside the game.
    let limits = held(limits, game_bytes(n), || {
        format!("a copy of the game's {n} values for the saved file")
    })?;
    let params = values.clone();
    let task = Task::Saved(Saved {
        cli,
        params: &params,
        limits,
    });
    with_engine_game(cli.game, values, task).map(Done::report)
}

/// Solves `game` on a dense table (loaded from `--load`, or empty), saves it to `--save`
/// after the line is known, and presents the result.
fn with_saved<G>(cli: &Cli, game: &G, params: &[i64], limits: Limits) -> Result<Report, Failure>
where
    G: Presented + DenseIndex,
    G::State: Eq + Hash,
{
    let (table, name) = match &cli.load {
        Some(path) => (
            super::saved::load(path, cli.game, params, game, limits.memory_budget)?,
            "loaded",
        ),
        None => (
            DenseTable::try_for_game(game, limits.memory_budget)?,
            "dense",
        ),
    };
    let solution = solve_within(game, table, limits, G::Range::default())?;
    let run = finish_then(solution, ("engine", name, 1), |table| match &cli.save {
        Some(path) => super::saved::save(path, cli.game, params, table),
        None => Ok(()),
    })?;
    Ok(presented(cli, game, params.len(), run, limits)?)
}

/// The game's values (from the arguments or `--input`), and the limits left to the solver once
/// they and the game built from them are held.
pub(super) fn values_and_limits(cli: &Cli) -> Result<(Vec<i64>, Limits), Failure> {
    refuse_misplaced_options(cli)?;
    let values = read_values(cli, limits(cli).memory_budget)?;
    let n = values.len();
    // The values live on in the game, beside its running sums: what is left of the budget is
    // the solver's.
    let limits = held(limits(cli), game_bytes(n), || {
        format!("the game's {n} values and their running sums")
    })?;
    Ok((values, limits))
}

/// The bytes a game built from `n` values holds: the values and a running sum per value
/// (Stone Game II's suffix sums, Stone Game VIII's prefix sums), and a little more.
fn game_bytes(n: usize) -> u64 {
    (n as u64).saturating_mul(16).saturating_add(256)
}

/// A refusal in terms of the whole budget: the solver that refused was given what was left
/// after the input, the threads and the line took their share, so that share is added back
/// to both what is needed and the budget.
pub fn whole_budget(failure: Failure) -> Failure {
    let whole = |error: Error| match error {
        Error::MemoryBudget {
            what,
            needed,
            budget,
        } => {
            let total = run_budget();
            let taken = total.saturating_sub(budget);
            Error::MemoryBudget {
                what,
                needed: needed.saturating_add(taken),
                budget: budget.saturating_add(taken),
            }
        }
        other => other,
    };
    match failure {
        Failure::Rejected(error) => Failure::Rejected(whole(error)),
        Failure::AtLine(line, error) => Failure::AtLine(line, whole(error)),
        usage => usage,
    }
}

/// What the program holds beyond its budget, at most (README): the binary, its main stack,
/// the allocator's arenas and the output's buffer.
pub const MEMORY_CONSTANT: u64 = 64 << 20;

/// The whole memory budget of this run (set by [`limits`]).
static RUN_BUDGET: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The whole memory budget of this run (0 until the limits are read).
pub fn run_budget() -> u64 {
    RUN_BUDGET.load(std::sync::atomic::Ordering::Relaxed)
}

/// `limits` with `bytes` of its budget taken by something that stays for the whole run
/// (refused if they do not fit).
pub(super) fn held(
    limits: Limits,
    bytes: u64,
    what: impl FnOnce() -> String,
) -> Result<Limits, Error> {
    match limits.memory_budget.checked_sub(bytes) {
        Some(left) => Ok(Limits {
            memory_budget: left,
            ..limits
        }),
        None => Err(Error::MemoryBudget {
            what: what(),
            needed: bytes,
            budget: limits.memory_budget,
        }),
    }
}

/// The Connect Four options are refused for the other games, and the values' options for
/// Connect Four, rather than silently ignored.
fn refuse_misplaced_options(cli: &Cli) -> Result<(), Failure> {
    let cluster = [
        (cli.workers.is_some(), "--workers"),
        (cli.processes.is_some(), "--processes"),
        (cli.process.is_some(), "--process"),
        (cli.hostfile.is_some(), "--hostfile"),
    ];
    if cli.solver != SolverName::Distributed
        && let Some((_, option)) = cluster.iter().find(|(given, _)| *given)
    {
        return Err(Failure::Usage(format!(
            "{option} applies only to --solver distributed (the tier solver on timely dataflow)"
        )));
    }
    let board = cli.game.own().is_some_and(|own| own.board);
    let misplaced = if board {
        if cli.input.is_some() {
            Some("--input (use --batch FILE for many positions)")
        } else if cli.save.is_some() || cli.load.is_some() {
            Some("--save and --load (its table is of bounds, not values)")
        } else {
            None
        }
    } else if cli.width.is_some() || cli.height.is_some() {
        Some("--width and --height")
    } else if cli.analyze {
        Some("--analyze")
    } else if cli.batch.is_some() {
        Some("--batch")
    } else {
        None
    };
    match misplaced {
        Some(option) if board => Err(Failure::Usage(format!(
            "{option} does not apply to {}",
            cli.game.id()
        ))),
        Some(option) => Err(Failure::Usage(format!(
            "{option} applies only to {}, not to {}",
            super::games::board_names(),
            cli.game.id()
        ))),
        None => Ok(()),
    }
}

/// What the solver options ask that the chosen solver cannot do, if anything: a warning, and
/// the run goes on with what it can do. (Options that belong to another game are errors:
/// [`refuse_misplaced_options`]. These are about how to solve, not what: the answer is the
/// same, so the run is not refused.)
fn inapplicable_solver_options(cli: &Cli) -> Option<String> {
    let specialised = cli
        .game
        .engine()
        .is_some_and(|engine| engine.fast.is_some());
    let one_thread = match cli.solver {
        SolverName::Engine => Some("--solver engine runs on one thread"),
        SolverName::Fast | SolverName::Auto if specialised => {
            Some("the specialised solver runs on one thread")
        }
        _ => None,
    };
    match (cli.threads, one_thread) {
        (Some(threads), Some(why)) if threads > 1 => {
            return Some(format!(
                "--threads {threads} has no effect: {why} (the parallel engine is --solver \
                 parallel)"
            ));
        }
        _ => {}
    }
    if cli.solver == SolverName::Fast && !specialised {
        let instead = cli.game.own().map_or("the engine", |own| own.solver);
        return Some(format!(
            "{} has no specialised solver (only {} do): {instead} solves it",
            cli.game.id(),
            super::games::specialised_names()
        ));
    }
    None
}

/// A conformance check's outcome, in the terms the output needs.
pub struct CheckSummary {
    pub game: GameName,
    pub states: usize,
    pub playouts: usize,
    pub values_compared: usize,
    /// What the values were compared with.
    pub reference: &'static str,
    pub violations: Vec<String>,
}

/// Reads the values, builds the game, and runs the conformance checker on it (Stone Game VIII:
/// on both of its models).
pub fn run_check(cli: &Cli) -> Result<CheckSummary, Failure> {
    refuse_misplaced_options(cli)?;
    if cli.batch.is_some() || cli.analyze || cli.save.is_some() || cli.load.is_some() {
        return Err(Failure::Usage(
            "check takes none of --batch, --analyze, --save and --load".into(),
        ));
    }
    let options = |limits| CheckOptions {
        limits,
        ..CheckOptions::default()
    };
    let mut summary = CheckSummary {
        game: cli.game,
        states: 0,
        playouts: 0,
        values_compared: 0,
        reference: "an unmemoized negamax",
        violations: Vec::new(),
    };
    match cli.game.engine() {
        Some(engine) => {
            let values = read_values(cli, limits(cli).memory_budget)?;
            let n = values.len();
            let limits = held(limits(cli), game_bytes(n), || {
                format!("the game's {n} values and their running sums")
            })?;
            (engine.check)(values, &options(limits), &mut summary)?;
        }
        None => {
            let own = cli
                .game
                .own()
                .expect("a game the engines do not solve has its own path");
            (own.check)(cli, &options(limits(cli)), &mut summary)?;
        }
    }
    Ok(summary)
}

impl CheckSummary {
    /// Checks `game` (with its dense index) and adds the findings.
    pub fn add_dense<G>(&mut self, game: &G, options: &CheckOptions) -> Result<(), Failure>
    where
        G: DenseIndex,
        G::State: Eq + Hash + std::fmt::Debug,
        G::Move: PartialEq + std::fmt::Debug,
    {
        self.add_report(&check_dense(game, options))
    }

    /// Adds a report's findings; a check stopped by its limits is an error (one `error:`
    /// line).
    pub fn add_report<G: Game>(&mut self, report: &CheckReport<G>) -> Result<(), Failure>
    where
        G::State: std::fmt::Debug,
        G::Move: std::fmt::Debug,
    {
        if let Some(error) = &report.stopped {
            return Err(error.clone().into());
        }
        self.states += report.states;
        self.playouts += report.playouts;
        self.values_compared += report.values_compared;
        self.violations
            .extend(report.violations.iter().map(ToString::to_string));
        Ok(())
    }
}

pub(super) fn limits(cli: &Cli) -> Limits {
    let mut limits = cli
        .memory_limit
        .map_or_else(Limits::default, Limits::with_memory_budget);
    // A budget above a cap the system enforces would end in a crash, not a refusal.
    if let Some(cap) = Limits::system_memory_limit() {
        let usable = cap.saturating_sub(MEMORY_CONSTANT);
        limits.memory_budget = limits.memory_budget.min(usable);
    }
    RUN_BUDGET.store(limits.memory_budget, std::sync::atomic::Ordering::Relaxed);
    if super::progress::wanted() {
        limits = limits.progress(&super::progress::PROGRESS);
    }
    match cli.time_limit {
        Some(limit) => limits.time_limit(limit),
        None => limits,
    }
}

/// Solves `game` with the engine chosen by `--solver` and presents the result.
fn engine_report<G>(cli: &Cli, game: &G, n: usize, limits: Limits) -> Result<Report, Failure>
where
    G: Presented + DenseIndex + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    let threads = threads_or_cores(cli);
    foresee(cli, game)?;
    if G::OUTCOMES
        && cli.solver == SolverName::Auto
        && game.index_len() as u64 <= RETROGRADE_STATES
        && !edges_past_share(game)
    {
        // Within a share of the budget: a game with many moves a state (Nim with a large heap)
        // is refused there quickly, and the engine, whose cut-offs suit it, solves it instead.
        let share = Limits {
            memory_budget: limits.memory_budget.min(RETROGRADE_BYTES),
            ..limits
        };
        match outcome_report(cli, game, n, share) {
            Err(Failure::Rejected(Error::MemoryBudget { .. })) => {}
            done => return done,
        }
    }
    let mut limits = limits;
    if cli.solver == SolverName::AlphaBeta {
        let threads = cli.threads.map_or(1, usize::from);
        let pool = pool_if_parallel(threads, &mut limits)?;
        let options = Pruning::new().limits(limits);
        let run = if let Some(pool) = pool {
            let table = ShardedBoundTable::new();
            pool.install(|| {
                pruned(
                    par_prune_with(game, &table, options)?,
                    "sharded",
                    threads,
                    false,
                )
            })?
        } else {
            pruned(
                prune_with(game, HashBoundTable::new(), options)?,
                "hash",
                1,
                false,
            )?
        };
        return Ok(presented(cli, game, n, run, limits)?);
    }
    let parallel = match cli.solver {
        SolverName::AlphaBeta | SolverName::Tier | SolverName::Distributed => {
            unreachable!("handled above")
        }
        SolverName::Parallel => true,
        SolverName::Engine => false,
        SolverName::Auto | SolverName::Fast => {
            threads > 1
                && game
                    .state_bound()
                    .is_some_and(|bound| bound >= SERIAL_CUTOFF)
        }
    };
    let run = if parallel {
        let pool = pool(threads, &mut limits)?;
        pool.install(|| engine(game, true, limits))?
    } else {
        engine(game, false, limits)?
    };
    Ok(presented(cli, game, n, run, limits)?)
}

/// `--threads`, or every core.
pub(super) fn threads_or_cores(cli: &Cli) -> usize {
    cli.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        usize::from,
    )
}

/// `--solver tier` for a game that is not layered into tiers.
pub(super) fn no_tiers(game: GameName, instead: &str) -> Failure {
    Failure::Usage(format!(
        "{} is not layered into tiers: the tier solver does not apply ({instead} solves it; \
         the tier solver solves {})",
        game.id(),
        super::games::tier_names()
    ))
}

/// A game layered into tiers, by the tier solver on `--threads` threads (default: every
/// core): every tier kept when they fit the budget (for the optimal line), else only the tiers
/// still needed (the value alone, and a note that says why there is no line).
pub(crate) fn tier_report<G>(
    cli: &Cli,
    game: &G,
    n: usize,
    limits: Limits,
) -> Result<Report, Failure>
where
    G: Presented + Tiered + Sync,
    G::State: Send,
{
    let threads = threads_or_cores(cli);
    let mut limits = limits;
    let pool = pool_if_parallel(threads, &mut limits)?;
    let solve = |keep| match &pool {
        Some(pool) => pool.install(|| par_tier_solve_with(game, limits, keep)),
        None => tier_solve_with(game, limits, keep),
    };
    let (solution, everything) = match solve(KeepTiers::All) {
        Err(Error::MemoryBudget { needed, .. }) => (solve(KeepTiers::Needed)?, Some(needed)),
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
    let value = solution.value();
    Ok(Report {
        game: cli.game,
        n,
        answer: game.answer(value),
        value,
        headline: game.headline(value),
        solver: "tier",
        table: match done.value_bytes {
            1 => "8-bit tiers",
            2 => "16-bit tiers",
            4 => "32-bit tiers",
            _ => "64-bit tiers",
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
    })
}

/// A game layered into tiers, by the tier solver on timely dataflow, with the workers and
/// processes of `--workers`, `--processes`, `--process` and `--hostfile`. The process that hosts worker 0 reports the value
/// (there is no line: each worker holds only its share of the tiers); the others report what
/// they did on stderr.
#[cfg(feature = "distributed")]
pub(crate) fn distributed_report<G>(
    cli: &Cli,
    game: G,
    n: usize,
    limits: Limits,
) -> Result<Report, Failure>
where
    G: Presented + Tiered + Send + Sync + 'static,
{
    let config = super::cluster::config(cli)?;
    let game = std::sync::Arc::new(game);
    // timely prints "awaiting connections" on stdout while it connects the processes: stdout
    // is the report's alone, so its chatter goes to stderr.
    let solved = super::cluster::stdout_to_stderr(|| {
        gamesolver::distributed_tier_solve(std::sync::Arc::clone(&game), config, limits)
    })?;
    let states: u64 = solved.local.iter().map(|worker| worker.states).sum();
    let moves: u64 = solved.local.iter().map(|worker| worker.moves).sum();
    let sent: u64 = solved
        .local
        .iter()
        .map(|worker| worker.remote_bytes())
        .sum();
    let workers: Vec<String> = solved.local.iter().map(|w| w.worker.to_string()).collect();
    let did = format!(
        "this process's workers ({} of {}) valued {states} states and {moves} moves, and sent \
         {} to other workers",
        workers.join(", "),
        solved.workers,
        Bytes(sent)
    );
    let Some(value) = solved.value else {
        return Ok(Report {
            helper: Some(format!(
                "{did}, in {:.3} s; the process with worker 0 prints the answer",
                solved.elapsed.as_secs_f64()
            )),
            ..distributed_shell(cli, &*game, n, 0)
        });
    };
    let mut report = distributed_shell(cli, &*game, n, value);
    report.threads = solved.workers;
    report.stats = Stats {
        stored: states as usize,
        expanded: moves,
        max_depth: solved.tiers,
        elapsed: solved.elapsed,
        ..Stats::default()
    };
    report.notes.push(format!(
        "Solved by {} timely workers, each holding its share of the tiers: no line of play. Of \
         them, {did}.",
        solved.workers
    ));
    Ok(report)
}

/// A distributed solve's report before its figures.
#[cfg(feature = "distributed")]
fn distributed_shell<G: Presented>(cli: &Cli, game: &G, n: usize, value: Score) -> Report {
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
    }
}

/// `--solver distributed` in a build without the `distributed` feature.
#[cfg(not(feature = "distributed"))]
pub(crate) fn distributed_report<G>(_: &Cli, _: G, _: usize, _: Limits) -> Result<Report, Failure> {
    Err(Failure::Usage(
        "--solver distributed needs a build with the distributed feature: cargo run --release \
         --features distributed -- ..."
            .into(),
    ))
}

/// The most indices (of the game's dense index) for which `auto` solves an outcome game by
/// retrograde analysis rather than the engine: it stores every state, with its moves, but gives
/// the remoteness and the line in which the winner wins as fast, and the loser loses as slowly,
/// as it can. Past it (or past [`RETROGRADE_BYTES`]) the engine and its cut-offs solve it.
pub const RETROGRADE_STATES: u64 = 1 << 20;

/// The most memory `auto` lets retrograde analysis of an outcome game take before it leaves the
/// game to the engine.
pub const RETROGRADE_BYTES: u64 = 256 << 20;

/// Whether retrograde analysis of `game` would be refused at [`RETROGRADE_BYTES`] anyway, by
/// a look at the start's moves alone: if every state had as many moves as the start, and each
/// took no more than four bytes, would they pass the share? (A game like Nim 1,65535, with as
/// many moves at each state as it has heaps' worth of positions, would be tried and refused
/// where the engine solves it at once.) A guess that chooses only the solver, never a value.
fn edges_past_share<G: Game + DenseIndex>(game: &G) -> bool {
    let mut moves = Vec::new();
    game.moves(&game.start(), &mut moves);
    (moves.len() as u64)
        .saturating_mul(game.index_len() as u64)
        .saturating_mul(4)
        > RETROGRADE_BYTES
}

/// An outcome game (Nim, tic-tac-toe) by retrograde analysis: its outcome, remoteness and the
/// line that wins as fast, and loses as slowly, as it can.
fn outcome_report<G>(cli: &Cli, game: &G, n: usize, limits: Limits) -> Result<Report, Failure>
where
    G: Presented + DenseIndex,
    G::State: Eq + Hash,
{
    let ids = DenseIds::try_for_game(game, limits.memory_budget)?;
    let solved = retrograde_with(game, ids, limits)?;
    let value = solved.outcome().value();
    let headline = lasting(game.headline(value), solved.remoteness());
    retrograde_report(
        cli,
        (game, n),
        &solved,
        1,
        limits,
        (game.answer(value), headline),
    )
}

/// An outcome game's headline, with how long the game lasts when it is won or lost.
fn lasting(headline: String, remoteness: Option<u32>) -> String {
    match remoteness {
        Some(moves) => format!(
            "{headline} The game lasts {moves} move{} (the winner as fast as it can, the loser \
             as slowly).",
            if moves == 1 { "" } else { "s" }
        ),
        None => headline,
    }
}

/// The report of a retrograde solve on `threads` threads: the outcome and remoteness, the line
/// in the game's words (a drawn line that goes round is said to), and the statistics; refused
/// if the line in words would not fit the budget beside the solution.
pub(super) fn retrograde_report<G: Presented, I: StateIds<G>>(
    cli: &Cli,
    (game, n): (&G, usize),
    solved: &Retrograde<'_, G, I>,
    threads: usize,
    limits: Limits,
    (answer, headline): (Answer, String),
) -> Result<Report, Failure> {
    let (outcome, remoteness) = (solved.outcome(), solved.remoteness());
    let line = solved.line();
    let done = solved.stats();
    held(
        limits,
        done.bytes
            .saturating_add((line.len() as u64).saturating_mul(G::ENTRY_BYTES)),
        || {
            format!(
                "the solution and its optimal line of {} moves in words",
                line.len()
            )
        },
    )?;
    let mut notes: Vec<String> = game.legend().map(str::to_string).into_iter().collect();
    let goes_round = line.last().is_some_and(|ply| {
        let mut moves = Vec::new();
        game.moves(&game.play(&ply.state, &ply.mv).next, &mut moves);
        !moves.is_empty()
    });
    if outcome == Outcome::Draw && goes_round {
        notes.push(
            "Neither side can force a win: the line below ends where it returns to one of its \
             positions, and best play goes round forever."
                .to_string(),
        );
    }
    Ok(Report {
        game: cli.game,
        n,
        answer,
        value: outcome.value(),
        headline,
        solver: "retrograde",
        table: "arrays",
        threads,
        stats: Stats {
            stored: done.states,
            expanded: done.moves as u64,
            max_depth: done.levels as usize,
            elapsed: done.elapsed,
            ..Stats::default()
        },
        line: game.entries(&line),
        notes,
        json: None,
        outcome: Some((outcome, remoteness)),
        helper: None,
        withheld: false,
    })
}

/// Moves per second the exhaustive engine values on large games (Stone Game II on the reference
/// machine, docs/performance.md).
const ENGINE_MOVES_PER_SECOND: f64 = 2.0e8;

/// Says before a long engine solve starts how long it will take, where the game knows its work:
/// past the time limit, it is refused at once; over a minute, a warning on stderr says so.
fn foresee<G: Presented>(cli: &Cli, game: &G) -> Result<(), Error> {
    if !matches!(cli.solver, SolverName::Engine | SolverName::Parallel) {
        return Ok(());
    }
    let Some((work, faster)) = game.engine_work() else {
        return Ok(());
    };
    let seconds = work as f64 / ENGINE_MOVES_PER_SECOND;
    let estimate = Duration::from_secs_f64(seconds.min(1e12));
    match cli.time_limit {
        Some(limit) if estimate > limit => Err(Error::TooSlow {
            estimate,
            limit,
            advice: format!("use {faster}"),
        }),
        None if seconds >= 60.0 => {
            let message = format!(
                "the engine will take about {} on this input ({work} moves to value); {faster} \
                 gives the same answer much sooner",
                Error::duration_in_words(estimate)
            );
            super::report::warn(cli.json, &message);
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The native stack of each worker thread. The engines keep their own stacks on the heap, so
/// a worker needs little; a small stack keeps many threads within a process memory cap.
pub const WORKER_STACK: usize = 1 << 20;

/// A pool of `threads` threads when there are more than one (see [`pool`]); `None` for one.
pub(super) fn pool_if_parallel(
    threads: usize,
    limits: &mut Limits,
) -> Result<Option<rayon::ThreadPool>, Error> {
    (threads > 1).then(|| pool(threads, limits)).transpose()
}

/// A rayon pool of `threads` threads, their stacks (and the guard and signal stacks beside
/// them) taken from the budget in `limits`.
pub(super) fn pool(threads: usize, limits: &mut Limits) -> Result<rayon::ThreadPool, Error> {
    let stacks = threads as u64 * (WORKER_STACK as u64 + (64 << 10));
    *limits = held(*limits, stacks, || {
        format!(
            "the stacks of {threads} threads ({} each)",
            Bytes(WORKER_STACK as u64)
        )
    })?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(WORKER_STACK)
        .build()
        .map_err(|error| Error::ThreadStart {
            threads,
            message: error.to_string(),
        })
}

/// The report of an engine run, in the game's own terms; refused if the line in words would
/// not fit the budget beside what the solution holds.
pub(super) fn presented<G: Presented>(
    cli: &Cli,
    game: &G,
    n: usize,
    run: EngineRun<G>,
    limits: Limits,
) -> Result<Report, Error> {
    let plies = run.line.len();
    held(
        limits,
        run.held
            .saturating_add((plies as u64).saturating_mul(G::ENTRY_BYTES)),
        || format!("the solution and its optimal line of {plies} moves in words"),
    )?;
    // An outcome game's line is the swift one (`finish_then`): its length is the remoteness.
    let outcome = (G::OUTCOMES && run.swift).then(|| {
        let outcome = match run.value.signum() {
            1 => Outcome::Win,
            -1 => Outcome::Loss,
            _ => Outcome::Draw,
        };
        (outcome, (outcome != Outcome::Draw).then_some(plies as u32))
    });
    let headline = game.headline(run.value);
    Ok(Report {
        game: cli.game,
        n,
        answer: game.answer(run.value),
        value: run.value,
        headline: lasting(headline, outcome.and_then(|(_, remoteness)| remoteness)),
        solver: run.solver,
        table: run.table,
        threads: run.threads,
        stats: run.stats,
        line: game.entries(&run.line),
        notes: game.legend().map(str::to_string).into_iter().collect(),
        json: None,
        outcome,
        helper: None,
        withheld: false,
    })
}

/// The value, optimal line, statistics (and, if asked, every move's value at the start) of a
/// game solved by the pruning engine.
pub(super) fn pruned<G: Game, T: BoundTable<G>, R: RangeSource<G>>(
    mut solution: Pruned<'_, G, T, R>,
    table: &'static str,
    threads: usize,
    analyze: bool,
) -> Result<EngineRun<G>, Error> {
    let line = solution.line()?;
    let held = solution.table().peak_bytes(0) + line_bytes(&line);
    let analysis = if analyze {
        let start = solution.start().clone();
        Some(solution.analyze(&start)?)
    } else {
        None
    };
    Ok(EngineRun {
        value: solution.value(),
        line,
        solver: "alphabeta",
        table,
        threads,
        held,
        stats: solution.stats(),
        analysis,
        swift: false,
    })
}

/// Solves with the engine, sequential or parallel, on the best table that fits the budget:
/// dense when its whole index space fits, else hashed (refused up front if even that would
/// not fit). It cuts on the game's value ranges where it declares them.
fn engine<G>(game: &G, parallel: bool, limits: Limits) -> Result<EngineRun<G>, Error>
where
    G: Presented + DenseIndex + Sync,
    G::State: Eq + Hash + Send + Sync,
{
    let dense_fits = DenseTable::bytes_for_len(game.index_len()) <= limits.memory_budget;
    let budget = limits.memory_budget;
    let range = G::Range::default();
    match (parallel, dense_fits) {
        (false, true) => sequential(
            game,
            DenseTable::try_for_game(game, budget)?,
            "dense",
            range,
            limits,
        ),
        (false, false) => sequential(game, HashTable::new(), "hash", range, limits),
        (true, true) => {
            let table = AtomicDenseTable::try_for_game(game, budget)?;
            concurrent(game, &table, "atomic-dense", range, limits)
        }
        (true, false) => concurrent(game, &ShardedTable::new(), "sharded", range, limits),
    }
}

/// The sequential engine on `table` (named for the report), cutting on `range`.
pub(super) fn sequential<G, T, R>(
    game: &G,
    table: T,
    name: &'static str,
    range: R,
    limits: Limits,
) -> Result<EngineRun<G>, Error>
where
    G: Presented,
    G::State: Eq + Hash,
    T: MemoTable<G>,
    R: RangeSource<G>,
{
    finish(solve_within(game, table, limits, range)?, "engine", name, 1)
}

/// The parallel engine on `table` (named for the report), cutting on `range`.
pub(super) fn concurrent<G, T, R>(
    game: &G,
    table: &T,
    name: &'static str,
    range: R,
    limits: Limits,
) -> Result<EngineRun<G>, Error>
where
    G: Presented + Sync,
    G::State: Eq + Hash + Sync,
    T: ConcurrentMemoTable<G>,
    R: RangeSource<G>,
{
    let threads = rayon::current_num_threads();
    finish(
        par_solve_within(game, table, limits, range)?,
        "parallel",
        name,
        threads,
    )
}

/// The value, optimal line and statistics of a solved game.
fn finish<G, T, R>(
    solution: Solution<'_, G, T, R>,
    solver: &'static str,
    table: &'static str,
    threads: usize,
) -> Result<EngineRun<G>, Error>
where
    G: Presented,
    G::State: Eq + Hash,
    T: MemoTable<G>,
    R: RangeSource<G>,
{
    finish_then(solution, (solver, table, threads), |_| Ok(()))
}

/// [`finish`], then `then` on the table (which the line may have extended).
fn finish_then<G, T, R>(
    mut solution: Solution<'_, G, T, R>,
    (solver, table, threads): (&'static str, &'static str, usize),
    then: impl FnOnce(&T) -> Result<(), Error>,
) -> Result<EngineRun<G>, Error>
where
    G: Presented,
    G::State: Eq + Hash,
    T: MemoTable<G>,
    R: RangeSource<G>,
{
    // An outcome game's line wins as fast, and loses as slowly, as it can, where that costs
    // little; else the first optimal move at each state.
    let swift = match G::OUTCOMES {
        true => solution.swift_line_within(SWIFT_MOVES)?,
        false => None,
    };
    let (line, swift) = match swift {
        Some(line) => (line, true),
        None => (solution.line()?, false),
    };
    then(solution.table())?;
    Ok(EngineRun {
        value: solution.value(),
        held: solution.table().peak_bytes(0) + line_bytes(&line),
        line,
        solver,
        table,
        threads,
        stats: solution.stats(),
        analysis: None,
        swift,
    })
}

/// The most moves the swift line of an outcome game may value (`Solution::swift_line_within`)
/// before the command line keeps the first optimal move at each state instead, and reports no
/// remoteness.
pub const SWIFT_MOVES: usize = 1 << 15;

/// The bytes a line's buffer holds.
fn line_bytes<T>(line: &Vec<T>) -> u64 {
    (line.capacity() * size_of::<T>()) as u64
}

/// The values from the arguments or from `--input`, never both, within `budget` bytes.
/// Tic-tac-toe takes none.
fn read_values(cli: &Cli, budget: u64) -> Result<Vec<i64>, Failure> {
    let example = match cli.game.engine().map(|engine| &engine.reads) {
        Some(Reads::Integers { example }) => *example,
        _ if cli.values.is_empty() && cli.input.is_none() => return Ok(Vec::new()),
        _ => {
            return Err(Failure::Usage(format!(
                "{} takes no values: it is solved from its start",
                cli.game.id()
            )));
        }
    };
    match &cli.input {
        Some(_) if !cli.values.is_empty() => Err(Failure::Usage(
            "give the values either as arguments or with --input, not both".into(),
        )),
        Some(path) => {
            let text = read_input(path, budget)?;
            Ok(input::parse_text_within(&text, budget)?)
        }
        None if cli.values.is_empty() => Err(Failure::Usage(format!(
            "no values given: pass the integers as arguments (gamesolver {} {example}) or \
             with --input FILE ('-' for standard input)",
            cli.game.id(),
        ))),
        None => {
            let values: Vec<&str> = cli.values.iter().map(|v| strip_protection(v)).collect();
            Ok(input::parse_arguments(&values)?)
        }
    }
}

/// The bytes of a file, or of standard input for `-`: refused once they pass `budget` (the
/// buffer's old and new allocations, both live while it grows, are counted).
pub(super) fn read_input(path: &Path, budget: u64) -> Result<Vec<u8>, Error> {
    let shown = path.display().to_string();
    let named = if shown == "-" {
        "standard input".to_string()
    } else {
        shown.clone()
    };
    let io_error = |error: std::io::Error| Error::Io {
        path: named.clone(),
        message: error.to_string(),
    };
    let mut source: Box<dyn Read> = if shown == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(path).map_err(io_error)?)
    };
    let mut bytes: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let read = match source.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(read) => read,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(io_error(error)),
        };
        if bytes.capacity() - bytes.len() < read {
            let grown = bytes.capacity().saturating_mul(2).max(bytes.len() + read);
            let needed = (bytes.capacity() as u64)
                .saturating_add(grown as u64)
                .saturating_add(chunk.len() as u64);
            if needed > budget {
                return Err(Error::MemoryBudget {
                    what: format!("the input ({named}: more than {} bytes)", bytes.len()),
                    needed,
                    budget,
                });
            }
            bytes
                .try_reserve_exact(grown - bytes.len())
                .map_err(|_| Error::Allocation {
                    what: format!("the input ({named})"),
                    bytes: grown as u64,
                })?;
        }
        bytes.extend_from_slice(&chunk[..read]);
    }
}
