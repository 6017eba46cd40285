//! Reading the input, choosing a solver, solving.

use std::io::Read;
use std::path::Path;

use gamesolver::games::{StoneGameII, StoneGameIITake, StoneGameVIII, StoneGameVIIITake};
use gamesolver::memo::{DenseTable, HashTable, MemoTable};
use gamesolver::{DenseIndex, Error, Game, Limits, Ply, Score, Stats, input, solve_with};

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
    pub stats: Stats,
    pub line: Line,
}

/// Reads the values, solves, and reports.
pub fn run(cli: &Cli) -> Result<Report, Failure> {
    let values = read_values(cli)?;
    let limits = cli
        .memory_limit
        .map_or_else(Limits::default, Limits::with_memory_budget);
    // Only the engine exists so far, so `auto` picks it.
    match cli.solver {
        SolverName::Auto | SolverName::Engine => {}
    }
    let n = values.len();
    match cli.game {
        GameName::StoneGameII => {
            let game = StoneGameII::new(values)?;
            let (value, line, table, stats) = engine_with_best_table(&game, limits)?;
            Ok(Report {
                game: cli.game,
                n,
                answer: game.alice_stones(value),
                value,
                total: Some(game.total()),
                solver: "engine",
                table,
                stats,
                line: Line::StoneGameII(game.describe(&line)),
            })
        }
        GameName::StoneGameVIII => {
            let game = StoneGameVIII::new(values)?;
            let stepwise = game.stepwise();
            let (value, line, table, stats) = engine_with_best_table(&stepwise, limits)?;
            Ok(Report {
                game: cli.game,
                n,
                answer: value,
                value,
                total: None,
                solver: "engine",
                table,
                stats,
                line: Line::StoneGameVIII(game.describe_stepwise(&line)),
            })
        }
    }
}

type EngineRun<G> = (Score, Vec<Ply<G>>, &'static str, Stats);

/// Solves with the dense table when it fits the budget, else with the hash table.
fn engine_with_best_table<G>(game: &G, limits: Limits) -> Result<EngineRun<G>, Error>
where
    G: DenseIndex,
    G::State: Eq + std::hash::Hash,
{
    if DenseTable::bytes_for_len(game.index_len()) <= limits.memory_budget {
        let table = DenseTable::try_for_game(game, limits.memory_budget)?;
        engine(game, table, limits, "dense")
    } else {
        engine(game, HashTable::new(), limits, "hash")
    }
}

fn engine<G: Game, T: MemoTable<G>>(
    game: &G,
    table: T,
    limits: Limits,
    name: &'static str,
) -> Result<EngineRun<G>, Error> {
    let mut solution = solve_with(game, table, limits)?;
    let line = solution.line()?;
    Ok((solution.value(), line, name, *solution.stats()))
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
