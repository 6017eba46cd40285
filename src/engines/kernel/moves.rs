//! A move with its value, a ply of the optimal line, and how an engine values every move of a
//! state once it can value any state (shared by the exhaustive and the pruning engines).

use super::combine;
use crate::error::SolveError;
use crate::game::{Game, Player, Score, Step, Turn};

/// A move with its step and its exact value for the mover.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveValue<G: Game + ?Sized> {
    /// The move.
    pub mv: G::Move,
    /// What the move does.
    pub step: Step<G::State>,
    /// The move's value for its mover: `gain ± value(next)`.
    pub value: Score,
}

/// One move of the optimal line of play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ply<G: Game + ?Sized> {
    /// Who moves.
    pub player: Player,
    /// The state before the move.
    pub state: G::State,
    /// The move played.
    pub mv: G::Move,
    /// The points the mover gains with it.
    pub gain: Score,
    /// Whether the turn passes after it.
    pub turn: Turn,
    /// The value of `state` for the mover (what the mover can still secure from here on).
    pub value: Score,
}

/// Every move of `state` with its exact value for the mover, in the game's move order, given
/// the exact value of any state (shared by the exhaustive and the pruning engines).
pub(crate) fn valued_moves<G: Game>(
    game: &G,
    state: &G::State,
    mut value_of: impl FnMut(&G::State) -> Result<Score, SolveError>,
) -> Result<Vec<MoveValue<G>>, SolveError> {
    let mut moves = Vec::new();
    game.moves_into(state, &mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let step = game.play(state, &mv);
            let value = combine(step.gain, step.turn, value_of(&step.next)?)?;
            Ok(MoveValue { mv, step, value })
        })
        .collect()
}

/// The moves among `values` that reach the best value, in order (none if there is no move).
pub(crate) fn best_of<G: Game>(values: Vec<MoveValue<G>>) -> Vec<G::Move> {
    let Some(best) = values.iter().map(|m| m.value).max() else {
        return Vec::new();
    };
    values
        .into_iter()
        .filter(|m| m.value == best)
        .map(|m| m.mv)
        .collect()
}
