//! `gamesolver analyze`: the value of every legal move at a position, best first.

use std::hash::Hash;
use std::io::{self, Write};

use crate::game::Nimber;
use crate::memo::{DenseTable, HashTable};
use crate::{DenseIndex, Error, Score, Tiered};
use serde::Serialize;

use super::args::{AnalyzeArgs, strip_protection};
use super::budget;
use super::model::{ChanceMoves, Failure, Fields, Moves, Tally};
use super::present::{Presented, after_moves, outcome_game, scene};
use super::registry::{self, Analyze, Task};
use super::report::Number;
use super::saved;
use super::solve;
use super::tier_file;
use super::valuation::{Valuation, by_answer, by_nimbers, described, valued};

/// An outcome and its remoteness in words: "win in 3", "loss in 4", "draw".
fn outcome_words(value: Score, remoteness: Option<u32>) -> String {
    match (value.signum(), remoteness) {
        (1, Some(moves)) => format!("win in {moves}"),
        (-1, Some(moves)) => format!("loss in {moves}"),
        (1, None) => "win".into(),
        (-1, None) => "loss".into(),
        _ => "draw".into(),
    }
}

/// Reads the game and the position, solves, and values every move there.
pub fn run(args: &AnalyzeArgs) -> Result<Moves, Failure> {
    let cli = &args.game;
    if let Some(own) = cli.game.own() {
        return (own.analyze)(args);
    }
    let (values, limits) = budget::values_and_limits(cli)?;
    if cli.save.is_some() {
        return Err(Failure::Usage(
            "analyze answers from a saved table (--load) but does not save one: solve with \
             --save first"
                .into(),
        ));
    }
    // Kept to compare with a saved table's values.
    let params = if cli.load.is_some() {
        values.clone()
    } else {
        Vec::new()
    };
    let at = (
        cli.at.as_deref().map(|text| strip_protection(text).trim()),
        params.as_slice(),
    );
    let after = args.after_names();
    let task = Task::Analyze(Analyze {
        cli,
        at,
        after: &after,
        limits,
    });
    registry::with_engine_game(cli.game, values, task).map(|done| done.moves())
}

impl Analyze<'_> {
    /// Values every move of `game` at the position: the engine on a dense table where it fits
    /// the budget (or the one `--load` reads), else on a hash table.
    pub fn with<G>(self, game: &G) -> Result<Moves, Failure>
    where
        G: Presented + DenseIndex + Sync,
        G::State: Eq + Hash + Send + Sync,
        G::Move: Send,
    {
        let (cli, limits) = (self.cli, self.limits);
        let state = self.state(game)?;
        if cli.load.is_none()
            && let Some(valued) = by_nimbers(game, &state.0, limits)
        {
            return self.moves(game, &state, valued?);
        }
        let valued = if let Some(path) = &cli.load {
            let table = saved::load(path, cli.game, self.at.1, game, limits.memory_budget)?;
            valued(game, table, &state.0, limits)?
        } else if DenseTable::bytes_for_len(game.index_len()) <= limits.memory_budget {
            let table = DenseTable::try_for_game(game, limits.memory_budget)?;
            valued(game, table, &state.0, limits)?
        } else {
            valued(game, HashTable::new(), &state.0, limits)?
        };
        self.moves(game, &state, valued)
    }

    /// Values every move of `game`, which declares no dense index, at the position: the
    /// engine on a hash table.
    pub fn hashed<G>(self, game: &G) -> Result<Moves, Failure>
    where
        G: Presented + Sync,
        G::State: Eq + Hash + Send + Sync,
        G::Move: Send,
    {
        if tier_file::loopy_tiered(game) {
            let state = self.state(game)?;
            let mut answer = tier_file::loopy_answer(self.cli, game, self.at.1, self.limits)?;
            let valued = by_answer(game, &mut answer, &state.0)?;
            return self.moves(game, &state, valued);
        }
        if self.cli.load.is_some() {
            return Err(saved::needs_dense_index(self.cli.game));
        }
        let state = self.state(game)?;
        if let Some(valued) = by_nimbers(game, &state.0, self.limits) {
            return self.moves(game, &state, valued?);
        }
        let valued = valued(game, HashTable::new(), &state.0, self.limits)?;
        self.moves(game, &state, valued)
    }

    /// The position analysed: `--at`'s, or the start, after `--after`'s moves; with who moves
    /// there and the points each player gained on the way.
    fn state<G: Presented>(&self, game: &G) -> Result<(G::State, Tally), Error> {
        let state = match self.at.0 {
            Some(position) => game.position(position)?,
            None => game.start(),
        };
        after_moves(game, state, self.after)
    }

    /// The analysis of `state`, of value `value`, whose moves are `moves`.
    fn moves<G: Presented>(
        &self,
        game: &G,
        (state, tally): &(G::State, Tally),
        valued: Valuation,
    ) -> Result<Moves, Failure> {
        Ok(Moves {
            game: self.cli.game,
            position: self.at.0.map(str::to_string),
            value: valued.value,
            remoteness: valued.remoteness,
            outcomes: outcome_game(game),
            board: game.board(state),
            view: game.view_for(state, tally.to_move),
            scene: Some(Box::new(scene(game, *tally, valued.value, &valued.moves)?)),
            moves: valued.moves,
            chance: None,
            nimber: valued.nimber,
        })
    }

    /// Values every move of a game layered into tiers at the position: by the engine where its
    /// dense table fits the budget (or from `--load`), else by the tier solver keeping every
    /// tier, which values any position (Dots and Boxes on 3×4 boxes: 2 GiB of tiers, where the
    /// engine's table would need about 100 GiB).
    pub fn with_tiers<G>(self, game: &G) -> Result<Moves, Failure>
    where
        G: Presented + DenseIndex + Tiered + Sync,
        G::State: Eq + Hash + Send + Sync,
        G::Move: Send,
    {
        if self.cli.load.is_some() && tier_file::by_tier_file(self.cli) {
            let state = self.state(game)?;
            let mut answer = tier_file::tier_file_answer(self.cli, game, self.at.1, self.limits)?;
            let valued = by_answer(game, &mut answer, &state.0)?;
            return self.moves(game, &state, valued);
        }
        let budget = self.limits.memory_budget;
        if self.cli.load.is_some() || DenseTable::bytes_for_len(game.index_len()) <= budget {
            return self.with(game);
        }
        let state = self.state(game)?;
        let solution = solve::every_tier(self.cli, game, self.limits)?;
        let (value, moves) = match (solution.value_of(&state.0), solution.move_values(&state.0)) {
            (Some(value), Some(moves)) => (value, moves),
            _ => return Err(solve::tiers_not_kept().into()),
        };
        let valued = described(game, &state.0, (value, None), moves);
        self.moves(game, &state, valued)
    }
}

/// Writes the analysis in words.
pub fn text(analysis: &Moves, out: &mut impl Write) -> io::Result<()> {
    let at = analysis
        .position
        .as_ref()
        .map_or("the start".to_string(), |text| format!("position {text}"));
    if let Some(chance) = &analysis.chance {
        return chance_text(analysis, chance, &at, out);
    }
    if let Some(remoteness) = analysis.remoteness {
        writeln!(
            out,
            "{} at {at}: for the player to move, a {} with best play.",
            analysis.game.id(),
            outcome_words(analysis.value, remoteness)
        )?;
    } else {
        let outcomes = if analysis.outcomes {
            "; +1/-1 for a win/loss"
        } else {
            ""
        };
        writeln!(
            out,
            "{} at {at}: the player to move secures {} (their points minus the opponent's from \
             here on{outcomes}).",
            analysis.game.id(),
            analysis.value
        )?;
    }
    if let Some(nimber) = analysis.nimber {
        let meaning = if nimber == 0 {
            "lost for the player to move: every move leaves a nimber other than 0"
        } else {
            "won for the player to move: a winning move leaves *0"
        };
        writeln!(out, "Its nimber is {nimber}, {meaning}.")?;
    }
    if let Some(board) = &analysis.board {
        for row in board.lines() {
            writeln!(out, "  {row}")?;
        }
    }
    let scene = analysis
        .scene
        .as_ref()
        .filter(|scene| scene.tally.played > 0);
    if let Some(scene) = scene {
        let [first, second] = scene.players;
        let mover = scene.players[usize::from(!scene.tally.to_move.is_first())];
        if analysis.outcomes {
            writeln!(out, "After the moves played, {mover} is to move.")?;
        } else {
            let [a, b] = scene.tally.points;
            writeln!(
                out,
                "After the moves played: {first} {a}, {second} {b}, and {mover} to move."
            )?;
        }
    }
    if analysis.moves.is_empty() {
        let result = scene.map_or(String::new(), |scene| format!(": {}", scene.result));
        return writeln!(out, "No move can be played here: the game is over{result}.");
    }
    if let Some(scene) = scene {
        writeln!(out, "With perfect play from here, {}.", scene.result)?;
    }
    writeln!(
        out,
        "Every move, best first (its value for the player to move):"
    )?;
    for mv in &analysis.moves {
        let best = if mv.best { "  (best)" } else { "" };
        let value = match mv.remoteness {
            Some(remoteness) => format!("{:>12}", outcome_words(mv.value, remoteness)),
            None => format!("{:>6}", mv.value),
        };
        writeln!(out, "  {value}  {}{best}", mv.words)?;
    }
    Ok(())
}

/// [`text`] for a game with chance: winning chances (or expectations), and at a roll each
/// outcome's probability.
fn chance_text(
    analysis: &Moves,
    chance: &ChanceMoves,
    at: &str,
    out: &mut impl Write,
) -> io::Result<()> {
    let what = if analysis.outcomes {
        "winning chance"
    } else {
        "expected points minus the opponent's from here on"
    };
    writeln!(
        out,
        "{} at {at}: for the player to move, a {what} of {} with best play.",
        analysis.game.id(),
        chance.value.words()
    )?;
    if let Some(board) = &analysis.board {
        for row in board.lines() {
            writeln!(out, "  {row}")?;
        }
    }
    if analysis.moves.is_empty() {
        return writeln!(out, "No move can be played here: the game is over.");
    }
    if chance.rolling {
        writeln!(
            out,
            "A roll decides: each outcome, its probability and its {what} for the player whose \
             roll it is:"
        )?;
    } else {
        writeln!(
            out,
            "Every move, best first (its {what} for the player to move):"
        )?;
    }
    for (mv, (value, probability)) in analysis.moves.iter().zip(&chance.moves) {
        let best = if mv.best { "  (best)" } else { "" };
        let probability = probability
            .as_ref()
            .map_or_else(String::new, |probability| format!("{probability:>7}  "));
        writeln!(
            out,
            "  {probability}{:>24}  {}{best}",
            value.words(),
            mv.words
        )?;
    }
    Ok(())
}

/// The analysis as JSON.
#[derive(Serialize)]
struct JsonMoves<'a> {
    game: &'static str,
    position: &'a Option<String>,
    value: Number,
    /// A game with chance: the value as an exact fraction, where it is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    exact: Option<&'a str>,
    /// A game with chance: the proved bound on the value's error, where it is iterated.
    #[serde(skip_serializing_if = "Option::is_none")]
    error_bound: Option<f64>,
    /// A game with chance: whether a roll decides the position (its moves are the outcomes).
    #[serde(skip_serializing_if = "Option::is_none")]
    rolling: Option<bool>,
    /// A game with chance: the first player's value at the position (winning chance or
    /// expectation).
    #[serde(skip_serializing_if = "Option::is_none")]
    first_value: Option<f64>,
    /// A game with chance: the players' names (first, second).
    #[serde(skip_serializing_if = "Option::is_none")]
    players: Option<[&'static str; 2]>,
    /// A game with chance: `"first"` or `"second"`, who moves or rolls.
    #[serde(skip_serializing_if = "Option::is_none")]
    to_move: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    remoteness: Option<Option<u32>>,
    /// An impartial game: the position's nimber.
    #[serde(skip_serializing_if = "Option::is_none")]
    nimber: Option<Nimber>,
    /// Whether values are outcomes (+1, 0, -1), not points.
    outcomes: bool,
    view: &'a serde_json::Value,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    scene: Option<JsonScene<'a>>,
    moves: Vec<JsonMove<'a>>,
}

/// Where the moves played have brought the game, in JSON.
#[derive(Serialize)]
struct JsonScene<'a> {
    /// The first player's name, then the second's.
    players: [&'static str; 2],
    /// `"first"` or `"second"`.
    to_move: &'static str,
    /// The points each player has gained over the moves played (first, second).
    points: [Score; 2],
    /// The first player's points minus the second's at the end, with perfect play from here.
    final_margin: Score,
    /// That result in the game's words.
    result: &'a str,
}

/// A move in JSON: its value, whether it is best, and its fields in the game's terms.
#[derive(Serialize)]
struct JsonMove<'a> {
    value: Number,
    /// A game with chance: the move's value as an exact fraction, where it is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    exact: Option<&'a str>,
    /// A game with chance: the proved bound on the value's error, where it is iterated.
    #[serde(skip_serializing_if = "Option::is_none")]
    error_bound: Option<f64>,
    /// A game with chance, at a roll: the outcome's probability (`"1/6"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    probability: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    remoteness: Option<Option<u32>>,
    best: bool,
    name: &'a str,
    /// The move in words, without the player.
    words: &'a str,
    /// The points the mover gains with it.
    gain: Score,
    keeps_turn: bool,
    /// The first player's points minus the second's at the end if it is played and both play
    /// perfectly after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    final_margin: Option<Score>,
    #[serde(flatten)]
    fields: &'a Fields,
}

/// Writes the analysis as one JSON object and a newline.
pub fn json(analysis: &Moves, out: &mut impl Write) -> io::Result<()> {
    let chance = analysis.chance.as_deref();
    let object = JsonMoves {
        game: analysis.game.id(),
        position: &analysis.position,
        value: Number::of(analysis.value, chance.map(|chance| &chance.value)),
        exact: chance.and_then(|chance| chance.value.exact.as_deref()),
        error_bound: chance.and_then(|chance| chance.value.error_bound),
        rolling: chance.map(|chance| chance.rolling),
        first_value: chance.map(|chance| chance.first.value),
        players: chance.map(|chance| chance.players),
        to_move: chance.map(|chance| {
            if chance.to_move.is_first() {
                "first"
            } else {
                "second"
            }
        }),
        remoteness: analysis.remoteness,
        nimber: analysis.nimber,
        outcomes: analysis.outcomes,
        view: &analysis.view,
        scene: analysis.scene.as_ref().map(|scene| JsonScene {
            players: scene.players,
            to_move: if scene.tally.to_move.is_first() {
                "first"
            } else {
                "second"
            },
            points: scene.tally.points,
            final_margin: scene.final_margin,
            result: &scene.result,
        }),
        moves: analysis
            .moves
            .iter()
            .enumerate()
            .map(|(at, mv)| {
                let valued = chance.map(|chance| &chance.moves[at]);
                JsonMove {
                    value: Number::of(mv.value, valued.map(|(value, _)| value)),
                    exact: valued.and_then(|(value, _)| value.exact.as_deref()),
                    error_bound: valued.and_then(|(value, _)| value.error_bound),
                    probability: valued.and_then(|(_, probability)| probability.as_deref()),
                    remoteness: mv.remoteness,
                    best: mv.best,
                    name: &mv.name,
                    words: &mv.words,
                    gain: mv.gain,
                    keeps_turn: mv.keeps_turn,
                    final_margin: analysis
                        .scene
                        .as_ref()
                        .and_then(|scene| scene.finals.get(at).copied()),
                    fields: &mv.fields,
                }
            })
            .collect(),
    };
    serde_json::to_writer(&mut *out, &object)?;
    writeln!(out)
}
