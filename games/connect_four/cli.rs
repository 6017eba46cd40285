//! Connect Four on the command line: one position (its score, what the score means, the board,
//! an optimal line and, with `--analyze`, every column's score), or `--batch`: one position per
//! line in, `POSITION SCORE` per line out, the format of Pascal Pons' benchmark files.

use crate::InputError;
use crate::engines::pruning;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::Arc;
use std::time::Duration;

use crate::games::{Bitboard, ConnectFour, Drop, Position};
use crate::memo::{
    AtomicBoundTable, BoundTable, FixedBoundTable, HashBoundTable, HashTable, ShardedBoundTable,
    ShardedTable,
};
use crate::{CompactKey, Game, Player, engines::Ply};
use crate::{
    Error, Limits, Score,
    engines::{DeclaredRange, MoveValue, pruning::Pruner},
};
use serde::Serialize;

use crate::cli::args::{Cli, PlayArgs, SolverName, strip_protection};
use crate::cli::budget::{limits, pool, pool_if_parallel, pool_with_this_thread};
use crate::cli::engines::{EngineRun, concurrent, presented, pruned, sequential};
use crate::cli::model::{Answer, CliError, Entry, Failure, Fields, Line, Report};
use crate::cli::play;
use crate::cli::present::Presented;
use crate::cli::registry::{Bundled, Own, Solves};
use crate::cli::serde_json;
use crate::engines::pruning::growing::{self as grown, Stages};
use growing::{BatchSolver, Between, Fresh, OnPool};

mod analysis;
mod board;
mod growing;

use board::{Board, game, narrow};

/// Connect Four on the command line.
pub const GAME: Bundled = Bundled::new(
    "connect-four",
    "Connect Four: the VALUE is a position, the columns played from the empty board (as \
            4453); none for the empty board. Score in Pascal Pons' convention",
    Solves::Own(Own {
        solve: report,
        check: board::check,
        play,
        analyze: analysis::analyze,
        example: "4453162524174",
        batch: Some(batch),
        solver: "the pruning engine",
        board: true,
        tiers: true,
    }),
);

/// The bound table's size for a batch and for play unless the memory budget is smaller: 2²³
/// slots of 8 bytes (Pons' table: about 2²⁴ slots of 5 bytes, 80 MiB). A batch on one thread
/// starts smaller and grows to it ([`growing::Between`]); one position's solve starts smaller
/// and grows with the search, up to half the budget ([`growing`]).
const TABLE_BYTES: u64 = 64 << 20;

/// The bound table's size within the budget (half of it at most: the rest is the search's).
fn table_bytes(limits: Limits) -> u64 {
    TABLE_BYTES.min(limits.memory_budget / 2)
}

/// The position given on the command line (none: the empty board).
fn position_text(cli: &Cli) -> Result<String, Failure> {
    match cli.values.as_slice() {
        [] => Ok(String::new()),
        [position] => Ok(strip_protection(position).trim().to_string()),
        _ => Err(Failure::Usage(format!(
            "connect-four takes one position (the columns played, as 4453), got {} values",
            cli.values.len()
        ))),
    }
}

/// Threads for the pruning engine: one unless `--threads` says more.
fn pruning_threads(cli: &Cli) -> usize {
    cli.threads.map_or(1, usize::from)
}

/// Plays from the position given (the empty board by default) against a person: each answer
/// and each `?` is the pruning engine's analysis of the position, on one bound table kept for
/// the whole game (so later positions are mostly answered from it).
fn play(args: &PlayArgs) -> Result<(), Failure> {
    if narrow(&args.game) {
        play_on::<u64>(args)
    } else {
        play_on::<u128>(args)
    }
}

/// [`play`] on words of type `B`.
fn play_on<B: Bitboard>(args: &PlayArgs) -> Result<(), Failure>
where
    ConnectFour<B>: Board,
{
    let cli = &args.game;
    if cli.at.is_some() {
        return Err(Failure::Usage(
            "connect-four's position is its VALUE (the columns played, as 4453), not --at".into(),
        ));
    }
    if cli.analyze || cli.batch.is_some() {
        return Err(Failure::Usage(
            "play takes one position: not --analyze or --batch".into(),
        ));
    }
    let rules = game::<B>(cli)?;
    let position = read(cli, &rules, &position_text(cli)?)?;
    let game = rules.starting_at(position);
    let limits = limits(cli);
    let options = pruning::Options::new().ranged().limits(limits);
    if !FixedBoundTable::holds_keys(game.key_bits(), table_bytes(limits)) {
        // Keys past what the fixed table's words hold: a table keyed by the whole position.
        let mut pruner = Pruner::new(&game, HashBoundTable::new(), options)?;
        return play::converse(&game, &mut pruner, "connect-four", args.side);
    }
    let table = FixedBoundTable::for_game(&game, table_bytes(limits))?;
    let mut pruner = Pruner::new(&game, table, options)?;
    play::converse(&game, &mut pruner, "connect-four", args.side)
}

/// Solves one position and reports it (`main` sends `--batch` to [`batch`] instead).
pub fn report(cli: &Cli) -> Result<Report, Failure> {
    if narrow(cli) {
        report_on::<u64>(cli)
    } else {
        report_on::<u128>(cli)
    }
}

/// [`report`] on words of type `B`.
fn report_on<B: Bitboard>(cli: &Cli) -> Result<Report, Failure>
where
    ConnectFour<B>: Board,
{
    let rules = game::<B>(cli)?;
    let text = position_text(cli)?;
    let position = read(cli, &rules, &text)?;
    let game = rules.starting_at(position);
    let mut limits = limits(cli);
    let exhaustive = matches!(cli.solver, SolverName::Engine | SolverName::Parallel);
    if exhaustive && cli.analyze {
        return Err(Failure::Usage(
            "--analyze runs the pruning engine: use --solver alphabeta (or auto)".into(),
        ));
    }
    let stones = position.stones();
    let (mut report, analysis) = match cli.solver {
        SolverName::Proof => {
            return Err(Failure::Usage(
                "connect-four runs its own pruning engine (--solver alphabeta or auto); proof \
                 search is offered through the library (engines::proof) for this game"
                    .into(),
            ));
        }
        SolverName::Tier => (Board::tiers(cli, &game, stones, limits)?, None),
        SolverName::Distributed => (Board::distributed(cli, game.clone(), stones, limits)?, None),
        SolverName::Engine
        | SolverName::Parallel
        | SolverName::Auto
        | SolverName::Fast
        | SolverName::AlphaBeta => {
            let run = match cli.solver {
                SolverName::Engine => {
                    sequential(&game, HashTable::new(), "hash", DeclaredRange, limits)?
                }
                SolverName::Parallel => {
                    let threads = crate::cli::solve::threads_or_cores(cli);
                    let pool = pool(threads, &mut limits)?;
                    pool.install(|| {
                        concurrent(
                            &game,
                            &ShardedTable::new(),
                            "sharded",
                            DeclaredRange,
                            limits,
                        )
                    })?
                }
                _ => alphabeta(&game, pruning_threads(cli), limits, cli.analyze)?,
            };
            let analysis = run.analysis.as_deref().map(|moves| by_column(&game, moves));
            (presented(cli, &game, stones, run, limits)?, analysis)
        }
    };
    let value = report.value;
    let shown = if text.is_empty() {
        "the empty board"
    } else {
        &text
    };
    report.headline = format!(
        "Connect Four {}x{}, {}{shown} ({} stones, the {} player to move): score {value}: {}.",
        game.width(),
        game.height(),
        if text.is_empty() { "" } else { "position " },
        position.stones(),
        if position.stones().is_multiple_of(2) {
            "first"
        } else {
            "second"
        },
        game.meaning(position.stones(), value)
    );
    let solver_notes = std::mem::take(&mut report.notes);
    report.notes = game
        .render(&position)
        .lines()
        .map(|row| format!("  {row}"))
        .chain(solver_notes)
        .collect();
    let mut fields = Fields::new()
        .with("position", text.clone())
        .with("width", game.width())
        .with("height", game.height())
        .with("meaning", game.meaning(position.stones(), value));
    if let Some(scores) = analysis {
        let words: Vec<String> = scores
            .iter()
            .enumerate()
            .map(|(column, score)| match score {
                Some(score) => format!("{}: {score}", column + 1),
                None => format!("{}: full", column + 1),
            })
            .collect();
        report
            .notes
            .push(format!("Score of each column: {}", words.join(", ")));
        let scores = scores.iter().enumerate();
        let columns: Vec<serde_json::Value> = scores
            .map(|(column, &score)| serde_json::json!({ "column": column + 1, "score": score }))
            .collect();
        fields = fields.with("analysis", columns);
    }
    report.json = Some(fields);
    Ok(report)
}

/// One line of `--batch --json`.
#[derive(Serialize)]
struct BatchJson<'a> {
    position: &'a str,
    score: Score,
    #[serde(skip_serializing_if = "Option::is_none")]
    analysis: &'a Option<Vec<Option<Score>>>,
}

/// Every column's score at the start (`None` for a full column), from the moves' values.
fn by_column<B: Bitboard>(
    game: &ConnectFour<B>,
    moves: &[MoveValue<ConnectFour<B>>],
) -> Vec<Option<Score>> {
    let mut scores = vec![None; game.width()];
    for mv in moves {
        scores[usize::from(mv.mv.column)] = Some(mv.value);
    }
    scores
}

/// The pruning engine on a bound table that grows with the search up to half the budget
/// ([`growing`]): sequential, or on `threads` threads sharing an atomic one.
fn alphabeta<B: Bitboard>(
    game: &ConnectFour<B>,
    threads: usize,
    mut limits: Limits,
    analyze: bool,
) -> Result<EngineRun<ConnectFour<B>>, Failure> {
    let pool = pool_if_parallel(threads, &mut limits)?;
    let options = pruning::Options::new().ranged().limits(limits);
    let stages = Stages::new(limits);
    if !stages.holds_keys(game.key_bits()) {
        // Keys too long for the fixed table's words (a board of more than about 83 cells and
        // markers, as 10×8): a bound table keyed by the whole position, which holds any key,
        // growing with the search within the budget.
        return Ok(match pool {
            Some(pool) => {
                let table = ShardedBoundTable::new();
                pool.install(|| {
                    pruned(
                        pruning::par_solve(game, &table, options)?,
                        "sharded",
                        threads,
                        analyze,
                    )
                })?
            }
            None => pruned(
                pruning::solve(game, HashBoundTable::new(), options)?,
                "hash",
                1,
                analyze,
            )?,
        });
    }
    Ok(match pool {
        Some(pool) => pool.install(|| {
            let solution = grown::par_solve(game, options, stages)?;
            pruned(solution, "fixed-atomic", threads, analyze)
        })?,
        None => pruned(grown::solve(game, options, stages)?, "fixed", 1, analyze)?,
    })
}

/// Solves every position of the `--batch` input, writing `POSITION SCORE` (with `--analyze`:
/// `POSITION` and one score per column, `-` for a full one) per line, or one JSON object per
/// line with `--json`. A line that is not a legal position gets an `error: line N: …` on
/// standard error and nothing on standard output; the others go on. Returns whether every
/// line was solved. One table serves all the positions, as in Pons' solver.
pub fn batch(cli: &Cli, out: &mut dyn Write) -> Result<bool, Failure> {
    if narrow(cli) {
        batch_on::<u64>(cli, out)
    } else {
        batch_on::<u128>(cli, out)
    }
}

/// [`batch`] on words of type `B`.
fn batch_on<B: Bitboard>(cli: &Cli, out: &mut dyn Write) -> Result<bool, Failure>
where
    ConnectFour<B>: Board,
{
    let path = cli.batch.as_ref().expect("called for --batch");
    if !cli.values.is_empty() {
        return Err(Failure::Usage(
            "give one position as an argument, or many with --batch, not both".into(),
        ));
    }
    if !matches!(
        cli.solver,
        SolverName::Auto | SolverName::Fast | SolverName::AlphaBeta
    ) {
        return Err(Failure::Usage(
            "--batch runs the pruning engine: use --solver alphabeta (or auto)".into(),
        ));
    }
    let game = game::<B>(cli)?;
    let shown = path.display().to_string();
    let open_error = |error: io::Error| CliError::read(shown.clone(), error);
    let input: Box<dyn BufRead> = if shown == "-" {
        Box::new(io::stdin().lock())
    } else {
        Box::new(BufReader::new(File::open(path).map_err(open_error)?))
    };
    let mut limits = limits(cli);
    let threads = pruning_threads(cli);
    let pool = if cli.one_at_a_time && threads > 1 {
        Some(pool_with_this_thread(threads, &mut limits)?)
    } else {
        pool_if_parallel(threads, &mut limits)?
    };
    let options = pruning::Options::new().ranged().limits(limits);
    let bytes = table_bytes(limits);
    if !FixedBoundTable::holds_keys(game.key_bits(), bytes) {
        // Keys too long for the fixed table's words: each position on one thread, on a table
        // keyed by the whole position.
        let pruner = Pruner::new(&game, HashBoundTable::new(), options)?;
        let mut solver = Fresh { pruner };
        let mut sizes = Between::fixed();
        return each_line(
            cli,
            &game,
            &mut solver,
            input,
            out,
            &mut sizes,
            limits.time_limit,
        );
    }
    match pool {
        Some(pool) if cli.one_at_a_time => {
            // The table starts small and grows as the batch runs on, as on one thread.
            let mut sizes = Between::new(bytes);
            let table = Arc::new(AtomicBoundTable::for_game(&game, sizes.bytes())?);
            let mut pruner = Pruner::new(&game, table, options)?;
            let limit = limits.time_limit;
            if pool.current_thread_index().is_some() {
                // This thread is one of the pool's: a session keeps the others ready between
                // positions.
                pruner.par_session(|session| {
                    each_line(cli, &game, session, input, out, &mut sizes, limit)
                })
            } else {
                let mut solver = OnPool {
                    pruner: &mut pruner,
                    pool: &pool,
                };
                each_line(cli, &game, &mut solver, input, out, &mut sizes, limit)
            }
        }
        Some(pool) => {
            let table = AtomicBoundTable::for_game(&game, bytes)?;
            side_by_side(cli, &game, &pool, &table, options, input, out)
        }
        None => {
            // The table starts small and grows as the batch runs on.
            let mut sizes = Between::new(bytes);
            let table = FixedBoundTable::for_game(&game, sizes.bytes())?;
            let mut pruner = Pruner::new(&game, table, options)?;
            each_line(
                cli,
                &game,
                &mut pruner,
                input,
                out,
                &mut sizes,
                limits.time_limit,
            )
        }
    }
}

/// Solves the batch's positions side by side on `pool`'s threads: each worker solves whole
/// positions with its own search, all sharing `table`. (Splitting one position's search pays
/// much less on positions this quick: docs/performance.md.)
fn side_by_side<B: Bitboard>(
    cli: &Cli,
    game: &ConnectFour<B>,
    pool: &rayon::ThreadPool,
    table: &AtomicBoundTable,
    options: pruning::Options<DeclaredRange>,
    input: Box<dyn BufRead>,
    out: &mut dyn Write,
) -> Result<bool, Failure> {
    let mut pruner = Pruner::new(game, table, options)?;
    let mut lines = bounded_lines(input).enumerate().peekable();
    let mut all_solved = true;
    while lines.peek().is_some() {
        let mut chunk = Vec::with_capacity(CHUNK);
        for (index, line) in lines.by_ref().take(CHUNK) {
            chunk.push((index + 1, parse_line(cli, game, &line?)));
        }
        let positions: Vec<Position<B>> = chunk
            .iter()
            .filter_map(|(_, parsed)| parsed.as_ref().ok().map(|(_, position)| *position))
            .collect();
        // Each position's own result, so that an error names the line it stopped at.
        let scores = pool.install(|| pruner.par_results_of(&positions));
        let mut scores = scores.into_iter();
        for (number, parsed) in chunk {
            let result = match parsed {
                Err(problem) => Err(problem),
                Ok((token, position)) => {
                    let score = scores.next().expect("one result per position");
                    let score = score.map_err(|error| Failure::AtLine(number, error.into()))?;
                    let answer = answer_line(cli, game, &mut pruner, &token, &position, score);
                    Ok(answer.map_err(|error| Failure::AtLine(number, error))?)
                }
            };
            all_solved &= result.is_ok();
            if !emit(out, number, result)? {
                return Ok(all_solved);
            }
        }
    }
    Ok(all_solved)
}

/// Solves the batch's positions one after another with `solver`, on its table, which grows as
/// `sizes` says, each within the user's `limit`; writes each answer before the next line is
/// read.
fn each_line<'g, B: Bitboard, S: BatchSolver<'g, B>>(
    cli: &Cli,
    game: &ConnectFour<B>,
    solver: &mut S,
    input: Box<dyn BufRead>,
    out: &mut dyn Write,
    sizes: &mut Between,
    limit: Option<Duration>,
) -> Result<bool, Failure> {
    let mut all_solved = true;
    for (index, line) in bounded_lines(input).enumerate() {
        let number = index + 1;
        let line = line?;
        let result = solve_line(cli, game, solver, &line, sizes, limit)
            .map_err(|error| Failure::AtLine(number, error))?;
        all_solved &= result.is_ok();
        if !emit(out, number, result)? {
            break;
        }
    }
    Ok(all_solved)
}

/// How many lines a parallel batch hands out at once (their results wait to be printed in
/// order, so this bounds the memory they take).
const CHUNK: usize = 4096;

/// The longest line a batch reads: a position is at most 128 moves, so anything this long is
/// not one, and reading it whole could take any amount of memory.
const MAX_LINE: usize = 1 << 16;

/// The lines of `input` without their `\n`, each at most [`MAX_LINE`] bytes: a longer one
/// stops the batch with an error that names it.
fn bounded_lines(mut input: Box<dyn BufRead>) -> impl Iterator<Item = Result<Vec<u8>, Failure>> {
    let mut number = 0;
    std::iter::from_fn(move || {
        number += 1;
        let mut line = Vec::new();
        match Read::take(&mut input, MAX_LINE as u64 + 1).read_until(b'\n', &mut line) {
            Ok(0) => None,
            Err(error) => Some(Err(CliError::read("the batch input", error).into())),
            Ok(_) if line.last() == Some(&b'\n') => {
                line.pop();
                Some(Ok(line))
            }
            Ok(_) if line.len() > MAX_LINE => Some(Err(Failure::AtLine(
                number,
                InputError::InvalidGame(format!(
                    "the line is longer than {MAX_LINE} bytes: not a position"
                ))
                .into(),
            ))),
            Ok(_) => Some(Ok(line)),
        }
    })
}

/// The position that `moves` give, in the notation the command line chose.
fn read<B: Bitboard>(
    cli: &Cli,
    game: &ConnectFour<B>,
    moves: &str,
) -> Result<Position<B>, InputError> {
    if cli.columns_from_zero {
        game.position_from_zero(moves)
    } else {
        game.position(moves)
    }
}

/// A line's position: its first word, as columns played.
fn parse_line<B: Bitboard>(
    cli: &Cli,
    game: &ConnectFour<B>,
    line: &[u8],
) -> Result<(String, Position<B>), String> {
    match std::str::from_utf8(line) {
        Err(_) => Err("not text (UTF-8)".to_string()),
        Ok(text) => match text.split_whitespace().next() {
            None => Err("an empty line: expected a position (the columns played)".into()),
            Some(token) => read(cli, game, token)
                .map(|position| (token.to_string(), position))
                .map_err(|error| error.to_string()),
        },
    }
}

/// Writes a line's output (or its error on standard error); false once standard output is
/// closed (nothing more to do).
fn emit(
    out: &mut dyn Write,
    number: usize,
    result: Result<String, String>,
) -> Result<bool, Failure> {
    match result {
        Err(problem) => {
            eprintln!("error: line {number}: {problem}");
            Ok(true)
        }
        Ok(text) => match writeln!(out, "{text}") {
            Ok(()) => Ok(true),
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(false),
            Err(error) => Err(CliError::write("standard output", error).into()),
        },
    }
}

/// Solves one line of a batch: `Ok(Ok(output))`, `Ok(Err(why the line is not a position))`,
/// or `Err` for an error that stops the batch (the memory budget, say).
fn solve_line<'g, B: Bitboard, S: BatchSolver<'g, B>>(
    cli: &Cli,
    game: &ConnectFour<B>,
    solver: &mut S,
    line: &[u8],
    sizes: &mut Between,
    limit: Option<Duration>,
) -> Result<Result<String, String>, Error> {
    let (token, position) = match parse_line(cli, game, line) {
        Ok(found) => found,
        Err(problem) => return Ok(Err(problem)),
    };
    let score = growing::batch_value(solver, &position, sizes, limit)?;
    answer_line(cli, game, solver.pruner(), &token, &position, score).map(Ok)
}

/// A solved line's output: `POSITION SCORE`, with `--analyze` one score per column instead (`-`
/// for a full column), or with `--json` one object.
fn answer_line<B: Bitboard, T: BoundTable<ConnectFour<B>>>(
    cli: &Cli,
    game: &ConnectFour<B>,
    pruner: &mut Pruner<'_, ConnectFour<B>, T, DeclaredRange>,
    token: &str,
    position: &Position<B>,
    score: Score,
) -> Result<String, Error> {
    let analysis = if cli.analyze {
        Some(by_column(game, &pruner.analyze(position)?))
    } else {
        None
    };
    Ok(match (&analysis, cli.json) {
        (None, false) => format!("{token} {score}"),
        (Some(scores), false) => {
            let scores: Vec<String> = scores
                .iter()
                .map(|score| score.map_or("-".to_string(), |score| score.to_string()))
                .collect();
            format!("{token} {}", scores.join(" "))
        }
        (analysis, true) => {
            let object = BatchJson {
                position: token,
                score,
                analysis,
            };
            serde_json::to_string(&object)
                .map_err(|error| InputError::InvalidState(error.to_string()))?
        }
    })
}

impl<B: Bitboard> Presented for ConnectFour<B> {
    /// The marks of the board: X for the player who moved first on the empty board.
    /// (`Player::First` is whoever moves at the start position.)
    fn player_name(&self, player: Player) -> &'static str {
        if player.is_first() == self.start().stones().is_multiple_of(2) {
            "X"
        } else {
            "O"
        }
    }
    fn final_result(&self, margin: Score) -> String {
        match margin.signum() {
            1 => format!("{} wins", self.player_name(Player::First)),
            -1 => format!("{} wins", self.player_name(Player::Second)),
            _ => "a draw".to_string(),
        }
    }
    fn show(&self, position: &Position<B>) -> String {
        let board = self.render(position);
        if self.width() > 9 {
            return board.trim_end().to_string();
        }
        let columns: String = (1..=self.width())
            .map(|column| column.to_string())
            .collect();
        format!("{board}{columns}")
    }
    fn move_name(&self, _: &Position<B>, drop: &Drop<B>) -> String {
        (drop.column + 1).to_string()
    }
    fn move_hint(&self) -> Option<&'static str> {
        Some("the column, from 1 at the left")
    }
    fn answer(&self, value: Score) -> Answer {
        Answer::Number(value)
    }
    fn headline(&self, value: Score) -> String {
        let stones = self.start().stones();
        format!(
            "Connect Four {}x{} from a position of {stones} stones: score {value}: {}.",
            self.width(),
            self.height(),
            self.meaning(stones, value)
        )
    }
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        // `Player::First` is whoever moves at the start position.
        let first_moves = self.start().stones().is_multiple_of(2);
        line.iter()
            .map(|ply| {
                let player = if ply.player.is_first() == first_moves {
                    "first"
                } else {
                    "second"
                };
                let column = ply.mv.column + 1;
                let wins = if self.play(&ply.state, &ply.mv).next.is_won() {
                    ", making four in a row"
                } else {
                    ""
                };
                Entry {
                    player,
                    text: format!("{player} player drops a stone in column {column}{wins}"),
                    fields: Fields::new().with("column", column),
                }
            })
            .collect()
    }
}
