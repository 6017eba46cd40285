//! A move with its value, a ply of the optimal line, and how an engine values every move of a
//! state once it can value any state (shared by the exhaustive and the pruning engines).

use super::combine;
use crate::error::SolveError;
use crate::game::{Game, Player, Score, Step, Turn};

/// A move with its step and its value for the mover: a [`Score`], exact, or for a game with
/// chance ([`Chance`](crate::game::Chance)) a [`chance::Value`](crate::engines::chance::Value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveValue<G: Game + ?Sized, V = Score> {
    /// The move (at a chance state: the outcome).
    pub mv: G::Move,
    /// What the move does.
    pub step: Step<G::State>,
    /// The move's value for its mover: `gain ± value(next)` (at a chance state, for the
    /// player whose turn it is there, had this outcome come up).
    pub value: V,
}

/// One move of the optimal line of play (at a chance state: the outcome the line assumes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ply<G: Game + ?Sized, V = Score> {
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
    pub value: V,
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
pub(crate) fn best_of<G: Game, V: PartialOrd + Clone>(
    values: Vec<MoveValue<G, V>>,
) -> Vec<G::Move> {
    let Some(best) = values
        .iter()
        .map(|m| m.value.clone())
        .reduce(|best, value| if value > best { value } else { best })
    else {
        return Vec::new();
    };
    values
        .into_iter()
        .filter(|m| m.value == best)
        .map(|m| m.mv)
        .collect()
}
