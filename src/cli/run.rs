//! Reading the input, choosing a solver, solving.

use std::hash::Hash;
use std::io::Read;
use std::path::Path;
use std::time::Instant;

use gamesolver::games::{
    StoneGameII, StoneGameIITake, StoneGameVIII, StoneGameVIIITake, solve_stone_game_ii,
    solve_stone_game_viii,
};
use gamesolver::memo::{
    AtomicDenseTable, ConcurrentMemoTable, DenseTable, HashTable, MemoTable, ShardedTable,
};
use gamesolver::{
    DenseIndex, Error, Game, Limits, Ply, Score, Stats, input, par_solve_with, solve_with,
};

use super::args::{Cli, GameName, SolverName, strip_protection};

/// Why the program stops without an answer.
#[derive(Debug)]
pub enum Failure {
    /// The command line is wrong (exit code 2).
    Usage(String),
    /// The input or the solve was rejected (exit code 1).
    Rejected(Error),
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        Failure::Rejected(error)
    }
}

/// The optimal line in the game's own terms.
pub enum Line {
    /// Stone Game II takes.
    StoneGameII(Vec<StoneGameIITake>),
    /// Stone Game VIII takes.
    StoneGameVIII(Vec<StoneGameVIIITake>),
}

/// Everything the output shows.
pub struct Report {
    pub game: GameName,
    pub n: usize,
    pub answer: i64,
    /// First player's points minus second's.
    pub value: Score,
    /// For Stone Game II, the total of the piles (Bob gets `total − answer`).
    pub total: Option<i64>,
    pub solver: &'static str,
    pub table: &'static str,
    pub threads: usize,
    pub stats: Stats,
    pub line: Line,
}

/// What an engine run produced.
struct EngineRun<G: Game> {
    value: Score,
    line: Vec<Ply<G>>,
    solver: &'static str,
    table: &'static str,
    threads: usize,
    stats: Stats,
}

/// Reads the values, solves, and reports.
///
/// `auto` picks each game's specialised solver: it is exact and faster than the engine at every
/// size (docs/performance.md). A game without one would fall back to the engine, in parallel
/// when more than one thread is available and the game's state bound reaches
/// [`SERIAL_CUTOFF`](gamesolver::SERIAL_CUTOFF).
pub fn run(cli: &Cli) -> Result<Report, Failure> {
    let values = read_values(cli)?;
    let limits = cli
        .memory_limit
        .map_or_else(Limits::default, Limits::with_memory_budget);
    let n = values.len();
    let specialised = matches!(cli.solver, SolverName::Fast | SolverName::Auto);
    match cli.game {
        GameName::StoneGameII if specialised => {
            let game = StoneGameII::new(values)?;
            let clock = Instant::now();
            let solution = solve_stone_game_ii(&game, limits)?;
            let line = Line::StoneGameII(solution.line());
            let stats = Stats {
                stored: solution.states(),
                elapsed: clock.elapsed(),
                ..Stats::default()
            };
            let answer = (
                solution.alice_stones(),
                solution.value(),
                Some(game.total()),
            );
            Ok(specialised_report(cli, n, answer, "diagonal", stats, line))
        }
        GameName::StoneGameVIII if specialised => {
            let game = StoneGameVIII::new(values)?;
            let clock = Instant::now();
            let solution = solve_stone_game_viii(&game);
            let line = Line::StoneGameVIII(solution.line());
            let stats = Stats {
                elapsed: clock.elapsed(),
                ..Stats::default()
            };
            let answer = (solution.value(), solution.value(), None);
            Ok(specialised_report(cli, n, answer, "none", stats, line))
        }
        GameName::StoneGameII => {
            let game = StoneGameII::new(values)?;
            let run = on_pool(cli, |parallel| engine(&game, parallel, limits))?;
            Ok(report(
                cli,
                n,
                game.alice_stones(run.value),
                Some(game.total()),
                &run,
                |line| Line::StoneGameII(game.describe(line)),
            ))
        }
        GameName::StoneGameVIII => {
            let game = StoneGameVIII::new(values)?;
            // The stepwise model: O(n) states, but a chain (each state waits on the next),
            // which no number of threads shortens.
            let stepwise = game.stepwise();
            let run = on_pool(cli, |parallel| engine(&stepwise, parallel, limits))?;
            Ok(report(cli, n, run.value, None, &run, |line| {
                Line::StoneGameVIII(game.describe_stepwise(line))
            }))
        }
    }
}

/// Runs an engine solve: on a pool of `--threads` threads for `--solver parallel`, else on
/// this thread.
fn on_pool<G>(
    cli: &Cli,
    solve: impl FnOnce(bool) -> Result<EngineRun<G>, Error> + Send,
) -> Result<EngineRun<G>, Failure>
where
    G: Game,
    G::State: Send,
    G::Move: Send,
{
    if cli.solver != SolverName::Parallel {
        return Ok(solve(false)?);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cli.threads.map_or(0, usize::from))
        .build()
        .map_err(|error| Failure::Usage(format!("cannot start the threads: {error}")))?;
    Ok(pool.install(|| solve(true))?)
}

/// A report from a specialised solver; `answer` is (answer, value, total).
fn specialised_report(
    cli: &Cli,
    n: usize,
    (answer, value, total): (i64, Score, Option<i64>),
    table: &'static str,
    stats: Stats,
    line: Line,
) -> Report {
    Report {
        game: cli.game,
        n,
        answer,
        value,
        total,
        solver: "fast",
        table,
        threads: 1,
        stats,
        line,
    }
}

fn report<G: Game>(
    cli: &Cli,
    n: usize,
    answer: i64,
    total: Option<i64>,
    run: &EngineRun<G>,
    describe: impl FnOnce(&[Ply<G>]) -> Line,
) -> Report {
    Report {
        game: cli.game,
        n,
        answer,
        value: run.value,
        total,
        solver: run.solver,
        table: run.table,
        threads: run.threads,
        stats: run.stats,
        line: describe(&run.line),
    }
}

/// Solves with the engine, sequential or parallel, on the best table that fits the budget:
/// dense when its whole index space fits, else hashed (refused up front if even that would
/// not fit).
fn engine<G>(game: &G, parallel: bool, limits: Limits) -> Result<EngineRun<G>, Error>
where
    G: DenseIndex + Sync,
    G::State: Eq + Hash + Send + Sync,
{
    let dense_fits = DenseTable::bytes_for_len(game.index_len()) <= limits.memory_budget;
    match (parallel, dense_fits) {
        (false, true) => sequential(
            game,
            DenseTable::try_for_game(game, limits.memory_budget)?,
            "dense",
            limits,
        ),
        (false, false) => sequential(game, HashTable::new(), "hash", limits),
        (true, true) => concurrent(
            game,
            &AtomicDenseTable::try_for_game(game, limits.memory_budget)?,
            "atomic-dense",
            limits,
        ),
        (true, false) => concurrent(game, &ShardedTable::new(), "sharded", limits),
    }
}

fn sequential<G: Game, T: MemoTable<G>>(
    game: &G,
    table: T,
    name: &'static str,
    limits: Limits,
) -> Result<EngineRun<G>, Error> {
    let mut solution = solve_with(game, table, limits)?;
    let line = solution.line()?;
    Ok(EngineRun {
        value: solution.value(),
        line,
        solver: "engine",
        table: name,
        threads: 1,
        stats: solution.stats(),
    })
}

fn concurrent<G, T>(
    game: &G,
    table: &T,
    name: &'static str,
    limits: Limits,
) -> Result<EngineRun<G>, Error>
where
    G: Game + Sync,
    G::State: Sync,
    T: ConcurrentMemoTable<G>,
{
    let mut solution = par_solve_with(game, table, limits)?;
    let line = solution.line()?;
    Ok(EngineRun {
        value: solution.value(),
        line,
        solver: "parallel",
        table: name,
        threads: rayon::current_num_threads(),
        stats: solution.stats(),
    })
}

/// The values from the arguments or from `--input`, never both.
fn read_values(cli: &Cli) -> Result<Vec<i64>, Failure> {
    match &cli.input {
        Some(_) if !cli.values.is_empty() => Err(Failure::Usage(
            "give the values either as arguments or with --input, not both".into(),
        )),
        Some(path) => Ok(input::parse_text(&read_input(path)?)?),
        None if cli.values.is_empty() => Err(Failure::Usage(format!(
            "no values given: pass the integers as arguments (gamesolver {} 2,7,9,4,4) or with \
             --input FILE ('-' for standard input)",
            cli.game.id()
        ))),
        None => {
            let values: Vec<&str> = cli.values.iter().map(|v| strip_protection(v)).collect();
            Ok(input::parse_arguments(&values)?)
        }
    }
}

/// The bytes of a file, or of standard input for `-`.
fn read_input(path: &Path) -> Result<Vec<u8>, Error> {
    let shown = path.display().to_string();
    let io_error = |error: std::io::Error| Error::Io {
        path: if shown == "-" {
            "standard input".into()
        } else {
            shown.clone()
        },
        message: error.to_string(),
    };
    if shown == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .map_err(io_error)?;
        Ok(bytes)
    } else {
        std::fs::read(path).map_err(io_error)
    }
}
