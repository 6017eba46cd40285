//! The commands for a game with chance ([`Chance`](crate::game::Chance)): solved by
//! expectation ([`Solver::solve_chance`](crate::Solver::solve_chance)), its values winning
//! chances (an outcome game) or expected margins, exact fractions where the engine gives them;
//! `analyze` values every move, and at a roll every outcome with its probability; `play` rolls
//! the dice and says what came up; `--save` and `--load` keep the values by the game's dense
//! index.

mod play;
mod saved;

use std::fmt::Debug;
use std::hash::Hash;

use crate::engines::Ply;
use crate::engines::chance::{ChanceSolution, Value};
use crate::game::declaration::{IndexSlot, OnIndex};
use crate::game::{Chance, Declares, DenseIndex};
use crate::{Engine, Limits, Player, Solved, Solver, Turn};

use super::args::{Cli, SolverName, strip_protection};
use super::model::{Answer, ChanceMoves, ChanceNumber, Entry, Failure, Fields, Line, Moves, Real};
use super::model::{Report, Tally, Valued};
use super::present::{Presented, after_moves, outcome_game};
use super::registry::{Analyze, Done, Play, Saved, Solve, Task};

impl Task<'_> {
    /// Does the task with `game`, a game with chance.
    pub fn with_chance<G>(self, game: &G) -> Result<Done, Failure>
    where
        G: Presented + Chance + Sync,
        G::State: Eq + Hash + Send + Sync + Debug,
        G::Move: Send + PartialEq + Debug,
    {
        match self {
            Task::Solve(Solve { cli, n, limits }) => {
                solve(cli, game, n, limits).map(|report| Done::Report(Box::new(report)))
            }
            Task::Saved(Saved {
                cli,
                params,
                limits,
            }) => visit_index(
                game,
                Saving {
                    cli,
                    game,
                    params,
                    limits,
                },
            ),
            Task::Analyze(analyze) => analyzed(analyze, game).map(Done::Moves),
            Task::Play(Play {
                args,
                params,
                limits,
            }) => play::play(args, game, params, limits).map(|()| Done::Played),
        }
    }
}

/// Runs `visitor` on `game`'s index slot.
fn visit_index<G: Presented, V: OnIndex<G>>(game: &G, visitor: V) -> V::Output {
    fn visit<G: crate::Game, D: Declares<G>, V: OnIndex<G>>(_: &D, visitor: V) -> V::Output {
        <D::Index as IndexSlot<G>>::visit(visitor)
    }
    visit(&game.capabilities(), visitor)
}

/// `--save` or `--load` with a game with chance: by its dense index, where it declares one.
struct Saving<'a, G> {
    cli: &'a Cli,
    game: &'a G,
    params: &'a [i64],
    limits: Limits,
}

impl<G> OnIndex<G> for Saving<'_, G>
where
    G: Presented + Chance + Sync,
    G::State: Eq + Hash + Send + Sync + Debug,
    G::Move: Send + Debug,
{
    type Output = Result<Done, Failure>;

    fn declared(self) -> Self::Output
    where
        G: DenseIndex,
    {
        saved::solved_or_loaded(self.cli, self.game, self.params, self.limits)
            .map(|report| Done::Report(Box::new(report)))
    }

    fn undeclared(self) -> Self::Output {
        Err(super::saved::needs_dense_index(self.cli.game))
    }
}

/// The engine `--solver` names for a game with chance, and its threads: `auto` and `parallel`
/// the expectimax engine on `--threads` (default: every core) where the game cannot cycle,
/// `engine` on one; any other is refused.
fn chance_solver<'g, G: Presented>(cli: &Cli, game: &'g G) -> Result<Solver<'g, G>, Failure> {
    let cores = super::solve::threads_or_cores(cli);
    let threads = match cli.solver {
        SolverName::Auto | SolverName::Parallel => cores,
        SolverName::Engine => 1,
        other => {
            return Err(Failure::Usage(format!(
                "{} is a game with chance, solved by expectation: --solver auto, engine or \
                 parallel, not {}",
                cli.game.id(),
                format!("{other:?}").to_lowercase()
            )));
        }
    };
    Ok(Solver::new(game).threads(threads))
}

/// The value shown for the game's value `value`: the winning chance in an outcome game, the
/// expectation otherwise.
fn shown<G: Presented>(game: &G, value: &Value) -> Value {
    if outcome_game(game) {
        value.win_chance()
    } else {
        value.clone()
    }
}

/// The value for `player` of a value `value` for `mover`.
fn for_player<G: Presented>(game: &G, value: &Value, mover: Player, player: Player) -> Value {
    if mover == player {
        return shown(game, value);
    }
    let negated = crate::engines::chance::combine(0, Turn::Pass, value);
    shown(game, &negated)
}

/// Solves `game` by expectation and reports.
pub(super) fn solve<G>(cli: &Cli, game: &G, n: usize, limits: Limits) -> Result<Report, Failure>
where
    G: Presented + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    let mut solved = chance_solver(cli, game)?.limits(limits).solve_chance()?;
    report(cli, game, n, &mut solved)
}

/// The report of a solved game with chance.
pub(super) fn report<G: Presented>(
    cli: &Cli,
    game: &G,
    n: usize,
    solved: &mut ChanceSolution<'_, G>,
) -> Result<Report, Failure> {
    let value = shown(game, &solved.value());
    let line = solved.line()?;
    let entries = entries(game, solved, &line);
    let solver = match solved.engine() {
        Engine::ValueIteration => "value-iteration",
        _ => "expectimax",
    };
    let number = ChanceNumber::of(&value);
    Ok(Report {
        game: cli.game,
        n,
        answer: Answer::Real(Real(number.value)),
        value: 0,
        headline: headline(game, &number),
        solver,
        table: solved.table(),
        threads: solved.threads(),
        stats: solved.stats(),
        line: entries,
        notes: vec![
            "The line is one game under optimal play: each roll's outcome is drawn by its \
             probability (the same draws every run)."
                .into(),
        ],
        json: None,
        outcome: None,
        helper: None,
        withheld: false,
        chance: Some(number),
        why: None,
        explained: false,
    })
}

/// One sentence with the result: the first player's winning chance, or expected margin.
fn headline<G: Presented>(game: &G, value: &ChanceNumber) -> String {
    let first = game.player_name(Player::First);
    if outcome_game(game) {
        format!(
            "With perfect play, {first} wins with probability {}.",
            value.words()
        )
    } else {
        format!(
            "With perfect play, {first} expects to score {} more than {}.",
            value.words(),
            game.player_name(Player::Second)
        )
    }
}

/// A line of a game with chance in words: each move as "PLAYER plays MOVE", each roll as
/// "PLAYER rolls OUTCOME"; in JSON `{"player", "move"}` with `"roll": true` and its
/// `"probability"` at a roll.
fn entries<G: Presented>(game: &G, solved: &ChanceSolution<'_, G>, line: &[Ply<G, Value>]) -> Line {
    line.iter()
        .map(|ply| {
            let player = game.player_name(ply.player);
            let name = game.move_name(&ply.state, &ply.mv);
            let mut fields = Fields::new().with("move", name.clone());
            let text = if solved.is_chance(&ply.state) {
                let probability = solved.probability(&ply.state, &ply.mv);
                fields = fields
                    .with("roll", true)
                    .with("probability", probability.to_string());
                format!("{player} rolls {name} (probability {probability})")
            } else {
                format!("{player} plays {name}")
            };
            if ply.gain != 0 {
                fields = fields.with("gain", ply.gain);
            }
            let text = if ply.turn == Turn::Keep && !solved.is_chance(&ply.state) {
                format!("{text}, and moves again")
            } else {
                text
            };
            Entry {
                player,
                text,
                fields,
            }
        })
        .collect()
}

/// `analyze` of a game with chance: solved by expectation, then the position's moves (or at
/// a roll its outcomes) with their values.
fn analyzed<G>(analyze: Analyze<'_>, game: &G) -> Result<Moves, Failure>
where
    G: Presented + Chance + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send + PartialEq,
{
    let cli = analyze.cli;
    if cli.load.is_some() {
        let loaded = saved::loaded_solution(cli, game, analyze.at.1, analyze.limits)?;
        return describe(&analyze, game, loaded);
    }
    let solved = chance_solver(cli, game)?
        .limits(analyze.limits)
        .solve_chance()?;
    describe(&analyze, game, solved)
}

/// The analysis of `analyze`'s position with `solved`.
fn describe<G>(
    analyze: &Analyze<'_>,
    game: &G,
    mut solved: ChanceSolution<'_, G>,
) -> Result<Moves, Failure>
where
    G: Presented + Chance,
    G::Move: PartialEq,
{
    let start = match analyze.at.0 {
        Some(position) => game.position(strip_protection(position).trim())?,
        None => game.start(),
    };
    let (state, tally): (G::State, Tally) = after_moves(game, start, analyze.after)?;
    let value = solved.value_of(&state)?;
    let rolling = game.is_chance(&state);
    let mut moves = solved.move_values(&state)?;
    if !rolling {
        // Best first; the sort is stable, so equal moves keep the game's order.
        moves.sort_by(|a, b| {
            b.value
                .partial_cmp(&a.value)
                .unwrap_or(std::cmp::Ordering::Equal)
        });
    }
    let best = solved.best_moves(&state)?;
    let mut valued = Vec::with_capacity(moves.len());
    let mut numbers = Vec::with_capacity(moves.len());
    for mv in moves {
        let name = game.move_name(&state, &mv.mv);
        let probability = rolling.then(|| game.probability(&state, &mv.mv).to_string());
        let words = if rolling {
            format!("rolls {name}")
        } else {
            format!("plays {name}")
        };
        valued.push(Valued {
            value: 0,
            remoteness: None,
            best: !rolling && best.contains(&mv.mv),
            words,
            name,
            gain: mv.step.gain,
            keeps_turn: mv.step.turn == Turn::Keep,
            fields: Fields::new(),
        });
        numbers.push((ChanceNumber::of(&shown(game, &mv.value)), probability));
    }
    let first = for_player(game, &value, tally.to_move, Player::First);
    Ok(Moves {
        game: analyze.cli.game,
        position: analyze.at.0.map(str::to_string),
        value: 0,
        remoteness: None,
        outcomes: outcome_game(game),
        board: game.board(&state),
        view: game.view_for(&state, tally.to_move),
        moves: valued,
        scene: None,
        chance: Some(Box::new(ChanceMoves {
            value: ChanceNumber::of(&shown(game, &value)),
            rolling,
            moves: numbers,
            first: ChanceNumber::of(&first),
            players: [
                game.player_name(Player::First),
                game.player_name(Player::Second),
            ],
            to_move: tally.to_move,
        })),
        nimber: None,
    })
}
