//! What an engine run gives the report (value, line, statistics, every move's value), for the
//! paths that run an engine on a table of their own (`--save`, Connect Four) and for
//! retrograde analysis's own games (Cat and Mouse).

use std::hash::Hash;

use crate::engines::exhaustive;
use crate::memo::{BoundTable, ConcurrentMemoTable, MemoTable};
use crate::{
    Error, Game, Limits, Score, SolveError,
    engines::{
        MoveValue, Ply, RangeSource, SWIFT_MOVES, Stats,
        exhaustive::Solution,
        pruning::Pruned,
        retrograde::{Outcome, Retrograde, StateIds},
    },
};

use super::args::Cli;
use super::budget::held;
use super::model::{Answer, Failure, Report};
use super::present::{Presented, outcome_game};

/// What an engine run produced.
pub struct EngineRun<G: Game> {
    /// The start's value for its side to move.
    pub value: Score,
    pub(crate) line: Vec<Ply<G>>,
    pub(crate) solver: &'static str,
    pub(crate) table: &'static str,
    pub(crate) threads: usize,
    pub(crate) stats: Stats,
    /// Every move of the start with its value, when asked for.
    pub analysis: Option<Vec<MoveValue<G>>>,
    /// The bytes the solution still holds (its table and its line).
    pub(crate) held: u64,
    /// Whether the line is the swift one (an outcome game's: the winner as fast as it can, the
    /// loser as slowly), so that its length is the remoteness.
    pub(crate) swift: bool,
    /// An impartial game's nimber at the start, from the nimber engine.
    pub(crate) nimber: Option<crate::game::Nimber>,
}

/// An outcome game's headline, with how long the game lasts when it is won or lost.
pub(super) fn lasting(headline: String, remoteness: Option<u32>) -> String {
    match remoteness {
        Some(moves) => format!(
            "{headline} The game lasts {moves} move{} (the winner as fast as it can, the loser \
             as slowly).",
            if moves == 1 { "" } else { "s" }
        ),
        None => headline,
    }
}

/// An outcome game's report whose line stopped short of the remoteness (a tier solve kept
/// only the tiers still needed): the start's remoteness in the headline, no line, and a note
/// that says why.
pub(super) fn withhold_line<G: Presented>(report: &mut Report, game: &G, remoteness: Option<u32>) {
    let outcome = Outcome::of_value(report.value);
    report.outcome = Some((outcome, remoteness));
    report.headline = lasting(game.headline(report.value), remoteness);
    report.line = game.entries(&[]);
    report.withheld = true;
    report.notes.push(
        "No line of play: the solve kept only the tiers it still needed, within the memory \
         budget (--save FILE keeps them on disk); the outcome and remoteness are exact."
            .to_string(),
    );
}

/// An impartial game's nimber, in words.
pub(super) fn nimber_words(nimber: crate::game::Nimber) -> String {
    format!(
        "Nimber: {nimber} (the position is worth *{nimber}: {}).",
        if nimber == 0 {
            "a loss for the player to move, who cannot leave a position of nimber 0"
        } else {
            "a win for the player to move, who moves to a position of nimber 0"
        }
    )
}

/// The report of a retrograde solve on `threads` threads: the outcome and remoteness, the line
/// in the game's words (a drawn line that goes round is said to), and the statistics; refused
/// if the line in words would not fit the budget beside the solution.
pub fn retrograde_report<G: Presented, I: StateIds<G>>(
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
        game.moves_into(&game.play(&ply.state, &ply.mv).next, &mut moves);
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
        chance: None,
        why: None,
        explained: false,
    })
}

/// The report of an engine run, in the game's own terms; refused if the line in words would
/// not fit the budget beside what the solution holds.
pub fn presented<G: Presented>(
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
    let outcome = (outcome_game(game) && run.swift).then(|| {
        let outcome = Outcome::of_value(run.value);
        (outcome, (outcome != Outcome::Draw).then_some(plies as u32))
    });
    let headline = game.headline(run.value);
    let mut notes: Vec<String> = game.legend().map(str::to_string).into_iter().collect();
    if let Some(nimber) = run.nimber {
        notes.insert(0, nimber_words(nimber));
    }
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
        notes,
        json: run
            .nimber
            .map(|nimber| super::model::Fields::new().with("nimber", nimber)),
        outcome,
        helper: None,
        withheld: false,
        chance: None,
        why: None,
        explained: false,
    })
}

/// The value, optimal line, statistics (and, if asked, every move's value at the start) of a
/// game solved by the pruning engine.
pub fn pruned<G: Game, T: BoundTable<G>, R: RangeSource<G>>(
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
        nimber: None,
    })
}

/// The sequential engine on `table` (named for the report), cutting on `range`.
pub fn sequential<G, T, R>(
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
    finish(
        exhaustive::solve(
            game,
            table,
            exhaustive::Options::new().limits(limits).range(range),
        )?,
        "engine",
        name,
        1,
    )
}

/// The parallel engine on `table` (named for the report), cutting on `range`.
pub fn concurrent<G, T, R>(
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
        exhaustive::par_solve(
            game,
            table,
            exhaustive::Options::new().limits(limits).range(range),
        )?,
        "parallel",
        name,
        threads,
    )
}

/// The value, optimal line and statistics of a solved game.
pub(super) fn finish<G, T, R>(
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
pub(super) fn finish_then<G, T, R, E: From<SolveError>>(
    mut solution: Solution<'_, G, T, R>,
    (solver, table, threads): (&'static str, &'static str, usize),
    then: impl FnOnce(&T) -> Result<(), E>,
) -> Result<EngineRun<G>, E>
where
    G: Presented,
    G::State: Eq + Hash,
    T: MemoTable<G>,
    R: RangeSource<G>,
{
    // An outcome game's line wins as fast, and loses as slowly, as it can, where that costs
    // little; else the first optimal move at each state.
    let swift = match outcome_game(solution.game()) {
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
        nimber: None,
    })
}

/// The bytes a line's buffer holds.
pub(super) fn line_bytes<T>(line: &Vec<T>) -> u64 {
    (line.capacity() * size_of::<T>()) as u64
}
