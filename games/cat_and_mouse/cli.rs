//! What the two Cat and Mouse games share on the command line: reading their JSON (one VALUE
//! argument or `--input`), solving by retrograde analysis (in parallel with `--solver
//! parallel`), and the report: LeetCode's answer, the outcome in words, the remoteness and the
//! optimal line.

use crate::InputError;
use crate::SolveError;
use crate::engines::retrograde;
use crate::games::Chase;
use crate::{
    Game, Turn,
    engines::{
        MoveValue, Ply,
        retrograde::{Indexed, Outcome, Retrograde},
    },
    game::{Predecessors, StateAt},
};
use serde::de::DeserializeOwned;

pub(in crate::games) mod cat_and_mouse;
pub(in crate::games) mod cat_and_mouse_ii;

use crate::cli::args::{AnalyzeArgs, Cli, PlayArgs, Side, SolverName, strip_protection};
use crate::cli::budget;
use crate::cli::engines;
use crate::cli::model::{Answer, Failure, Moves, Report, Valued};
use crate::cli::play::{self, Oracle};
use crate::cli::present::{Presented, after_moves, scene};
use crate::cli::serde_json;
use crate::cli::solve;

/// The game's JSON, from its one VALUE argument (several are joined with spaces, as a shell
/// splits unquoted JSON) or from `--input`, never both; malformed JSON is refused with where
/// it goes wrong.
pub fn json<T: DeserializeOwned>(cli: &Cli, what: &str, example: &str) -> Result<T, Failure> {
    let budget = budget::limits(cli).memory_budget;
    let bytes = match (&cli.input, cli.values.as_slice()) {
        (Some(_), [_, ..]) => {
            return Err(Failure::Usage(format!(
                "give the {what} either as an argument or with --input, not both"
            )));
        }
        (Some(path), []) => budget::read_input(path, budget)?,
        (None, []) => {
            return Err(Failure::Usage(format!(
                "no {what} given: pass it as one argument (gamesolver {} '{example}') or with \
                 --input FILE ('-' for standard input)",
                cli.game.id()
            )));
        }
        (None, values) => {
            let words: Vec<&str> = values.iter().map(|value| strip_protection(value)).collect();
            words.join(" ").into_bytes()
        }
    };
    serde_json::from_slice(&bytes).map_err(|error| {
        Failure::Rejected(
            InputError::InvalidGame(format!(
                "the {what} is not valid JSON of the expected shape (as '{example}'): {error}"
            ))
            .into(),
        )
    })
}

/// Solves `game` by retrograde analysis as `--solver` says and reports it; `describe` gives
/// the answer and the headline from the start's outcome and remoteness.
pub fn report<G>(
    cli: &Cli,
    game: &G,
    n: usize,
    describe: impl Fn(Outcome, Option<u32>) -> (Answer, String),
) -> Result<Report, Failure>
where
    G: Presented<State = Chase> + StateAt + Predecessors + Sync,
{
    if cli.save.is_some() || cli.load.is_some() {
        return Err(Failure::Usage(format!(
            "--save and --load do not apply to {} (its table is the retrograde solver's)",
            cli.game.id()
        )));
    }
    let mut limits = budget::limits(cli);
    let (solved, threads) = match cli.solver {
        SolverName::Tier | SolverName::Distributed => {
            return Err(solve::no_tiers(cli.game, "retrograde analysis"));
        }
        SolverName::AlphaBeta | SolverName::Proof => {
            return Err(Failure::Usage(format!(
                "{}'s play can cycle: the pruning engine and proof search do not apply (it is \
                 solved by retrograde analysis: --solver auto, engine or parallel)",
                cli.game.id()
            )));
        }
        SolverName::Parallel => {
            let threads = solve::threads_or_cores(cli);
            let pool = budget::pool(threads, &mut limits)?;
            (
                pool.install(|| {
                    retrograde::par_solve_indexed(game, retrograde::Options::new().limits(limits))
                })?,
                threads,
            )
        }
        SolverName::Auto | SolverName::Fast | SolverName::Engine => (
            retrograde::solve_indexed(game, retrograde::Options::new().limits(limits))?,
            1,
        ),
    };
    let described = describe(solved.outcome(), solved.remoteness());
    engines::retrograde_report(cli, (game, n), &solved, threads, limits, described)
}

/// "in N moves", for a remoteness.
pub fn in_moves(remoteness: Option<u32>) -> String {
    match remoteness {
        Some(1) => "in 1 move".to_string(),
        Some(moves) => format!("in {moves} moves"),
        None => String::new(),
    }
}

/// Plays `game` against the person, the retrograde solution answering.
pub fn play<G>(args: &PlayArgs, game: &G) -> Result<(), Failure>
where
    G: Presented<State = Chase> + StateAt + Predecessors,
{
    if args.game.at.is_some() {
        return Err(Failure::Usage(format!(
            "play {} starts from the game's start: --at does not apply",
            args.game.game.id()
        )));
    }
    let limits = budget::limits(&args.game);
    let solved = retrograde::solve_indexed(game, retrograde::Options::new().limits(limits))?;
    let side: Side = args.side;
    play::converse(game, &mut Outcomes(solved), args.game.game.id(), side)
}

/// A retrograde solution as `play`'s oracle: each move valued +1, 0 or −1 for its mover.
struct Outcomes<'g, G: Game>(Retrograde<'g, G, Indexed>);

impl<G> Oracle<G> for Outcomes<'_, G>
where
    G: StateAt<State = Chase>,
{
    fn move_values(&mut self, state: &Chase) -> Result<Vec<MoveValue<G>>, SolveError> {
        let game = self.0.game();
        let moves = self.0.move_outcomes(state).ok_or_else(|| {
            SolveError::InvalidState("the position cannot be reached from the start".into())
        })?;
        Ok(moves
            .into_iter()
            .map(|(mv, outcome, _)| MoveValue {
                step: game.play(state, &mv),
                mv,
                value: outcome.value(),
            })
            .collect())
    }
}

/// `analyze`: every move of the position given (`--at`, in the game's terms) or of the start,
/// with its outcome and remoteness, best first (the fastest wins, then draws, then the slowest
/// losses).
pub fn analyze<G>(args: &AnalyzeArgs, game: &G) -> Result<Moves, Failure>
where
    G: Presented<State = Chase> + StateAt + Predecessors,
{
    let cli = &args.game;
    let position = cli
        .at
        .as_deref()
        .map(|text| strip_protection(text).trim().to_string());
    let state = match &position {
        Some(text) => game.position(text)?,
        None => game.start(),
    };
    let (state, tally) = after_moves(game, state, &args.after_names())?;
    let solved =
        retrograde::solve_indexed(game, retrograde::Options::new().limits(budget::limits(cli)))?;
    let (outcome, remoteness) = solved.outcome_of(&state).ok_or_else(|| {
        Failure::Rejected(InputError::InvalidState("no such position in this game".into()).into())
    })?;
    let mut moves = solved.move_outcomes(&state).unwrap_or_default();
    let rank = |(_, outcome, after): &(G::Move, Outcome, Option<u32>)| match *outcome {
        Outcome::Win => (0, i64::from(after.unwrap_or(0))),
        Outcome::Draw => (1, 0),
        Outcome::Loss => (2, -i64::from(after.unwrap_or(0))),
    };
    moves.sort_by_key(rank);
    let plies: Vec<Ply<G>> = moves
        .iter()
        .map(|(mv, seen, _)| Ply {
            player: tally.to_move,
            state,
            mv: mv.clone(),
            gain: 0,
            turn: Turn::Pass,
            value: seen.value(),
        })
        .collect();
    let line = game.entries(&plies);
    let valued = moves
        .iter()
        .zip(line.entries())
        .map(|(&(ref mv, seen, after), entry)| {
            let text = entry.text.strip_prefix(entry.player).unwrap_or(&entry.text);
            let total = after.map(|moves| moves + 1);
            Valued {
                value: seen.value(),
                remoteness: Some(total),
                best: seen == outcome && (outcome == Outcome::Draw || total == remoteness),
                words: text.trim_start().to_string(),
                name: game.move_name(&state, mv),
                gain: 0,
                keeps_turn: false,
                fields: entry.fields.clone(),
            }
        })
        .collect();
    let mut moves = Moves::outcomes(
        cli.game,
        position,
        (outcome.value(), remoteness),
        game.view_for(&state, tally.to_move),
        valued,
    );
    moves.scene = Some(Box::new(scene(game, tally, moves.value, &moves.moves)?));
    Ok(moves)
}
