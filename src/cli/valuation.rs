//! A position's valuation for `analyze`: its value, its remoteness where the game has
//! outcomes, and its moves best first in the game's words, from whichever engine values them.

use std::hash::Hash;

use crate::engines::{exhaustive, nimbers};
use crate::game::declaration::{OnImpartial, visit_impartial};
use crate::game::{Impartial, Nimber};
use crate::memo::MemoTable;
use crate::{
    Error, Game, Limits, Score, Solved, Turn,
    engines::{MoveValue, Ply, RangeJob, RangeSource, with_declared_range},
};

use super::model::Valued;
use super::present::{Presented, outcome_game};

/// A position's value for the player to move, its remoteness where the game has outcomes, and
/// its moves, best first.
pub(super) struct Valuation {
    pub(super) value: Score,
    pub(super) remoteness: Option<Option<u32>>,
    pub(super) moves: Vec<Valued>,
    /// An impartial game's nimber at the position.
    pub(super) nimber: Option<Nimber>,
}

/// The valuation of `state` by its nimbers, for a game that declares itself impartial (`None`
/// for another game): each move's value and the nimber it leaves, and the remoteness where
/// measuring it stays within [`SWIFT_MOVES`](crate::engines::SWIFT_MOVES) moves.
pub(super) fn by_nimbers<G>(
    game: &G,
    state: &G::State,
    limits: Limits,
) -> Option<Result<Valuation, Error>>
where
    G: Presented,
    G::State: Eq + Hash,
{
    visit_impartial(
        &game.capabilities(),
        ByNimbers {
            game,
            state,
            limits,
        },
    )
}

/// [`by_nimbers`]' visitor.
struct ByNimbers<'a, G: Game> {
    game: &'a G,
    state: &'a G::State,
    limits: Limits,
}

impl<G: Presented> OnImpartial<G> for ByNimbers<'_, G>
where
    G::State: Eq + Hash,
{
    type Output = Option<Result<Valuation, Error>>;

    fn declared(self) -> Self::Output
    where
        G: Impartial,
    {
        Some(nimber_valuation(self.game, self.state, self.limits))
    }

    fn undeclared(self) -> Self::Output {
        None
    }
}

/// [`by_nimbers`]' work.
fn nimber_valuation<G>(game: &G, state: &G::State, limits: Limits) -> Result<Valuation, Error>
where
    G: Presented + Impartial,
    G::State: Eq + Hash,
{
    let options = nimbers::Options::new().limits(limits);
    let mut solved = nimbers::solve_at(game, state.clone(), options)?;
    let value = solved.value();
    let remoteness = solved.remoteness(state)?;
    let mut moves = Vec::new();
    let mut left = hashbrown::HashMap::new();
    for mv in solved.move_values(state)? {
        let nimber = solved.nimber_of(&mv.step.next)?.unwrap_or_default();
        left.insert(game.move_name(state, &mv.mv), nimber);
        let after = match remoteness {
            Some(_) => solved.remoteness(&mv.step.next)?.map(|moves| moves + 1),
            None => None,
        };
        moves.push((mv, remoteness.map(|_| after)));
    }
    let mut valuation = described_with(game, state, (value, remoteness.map(Some)), moves);
    for mv in &mut valuation.moves {
        if let Some(&nimber) = left.get(&mv.name) {
            mv.words = format!("{}, leaving *{nimber}", mv.words);
            mv.fields = std::mem::take(&mut mv.fields).with("nimber", nimber);
        }
    }
    valuation.nimber = solved.nimber();
    Ok(valuation)
}

/// The value of `state` and of each of its moves, best first, in the game's words, cutting
/// where the game declares it may; in an outcome game, with remoteness.
pub(super) fn valued<G, T>(
    game: &G,
    table: T,
    state: &G::State,
    limits: Limits,
) -> Result<Valuation, Error>
where
    G: Presented,
    G::State: Eq + Hash,
    T: MemoTable<G>,
{
    with_declared_range(
        game,
        Valuing {
            game,
            table,
            state,
            limits,
        },
    )
}

/// [`valued`]'s work, with the range source the game declares.
struct Valuing<'a, G: Game, T> {
    game: &'a G,
    table: T,
    state: &'a G::State,
    limits: Limits,
}

impl<G: Presented, T: MemoTable<G>> RangeJob<G> for Valuing<'_, G, T>
where
    G::State: Eq + Hash,
{
    type Output = Result<Valuation, Error>;

    fn run<R: RangeSource<G> + 'static>(self, range: R) -> Self::Output {
        let mut solution = exhaustive::solve(
            self.game,
            self.table,
            exhaustive::Options::new().limits(self.limits).range(range),
        )?;
        let value = solution.value_of(self.state)?;
        let moves = solution.move_values(self.state)?;
        if !outcome_game(self.game) {
            return Ok(described(self.game, self.state, (value, None), moves));
        }
        // An outcome game: how long each result takes, the winner hurrying and the loser
        // stalling (a draw has none).
        let lasting = |value: Score, moves: u32| (value != 0).then_some(moves);
        let remoteness = lasting(value, solution.remoteness(self.state)?);
        let moves = moves
            .into_iter()
            .map(|mv| {
                let after = solution.remoteness(&mv.step.next)?.saturating_add(1);
                let remoteness = lasting(mv.value, after);
                Ok((mv, Some(remoteness)))
            })
            .collect::<Result<Vec<_>, Error>>()?;
        Ok(described_with(
            self.game,
            self.state,
            (value, Some(remoteness)),
            moves,
        ))
    }
}

/// The value of `state` and each of its moves, best first, in the game's words.
pub(super) fn described<G: Presented>(
    game: &G,
    state: &G::State,
    value: (Score, Option<Option<u32>>),
    moves: Vec<MoveValue<G>>,
) -> Valuation {
    let moves = moves.into_iter().map(|mv| (mv, None)).collect();
    described_with(game, state, value, moves)
}

/// [`described`], with each move's remoteness where the game has outcomes: best first, the
/// fastest wins first and the slowest losses before the faster ones; a best move keeps the
/// value and its remoteness.
fn described_with<G: Presented>(
    game: &G,
    state: &G::State,
    (value, remoteness): (Score, Option<Option<u32>>),
    mut moves: Vec<(MoveValue<G>, Option<Option<u32>>)>,
) -> Valuation {
    // Best first; the sort is stable, so equal moves keep the game's order.
    moves.sort_by_key(|(mv, remote)| {
        let hurry = match remote.flatten() {
            Some(moves) if mv.value > 0 => i64::from(moves),
            Some(moves) => -i64::from(moves),
            None => 0,
        };
        (std::cmp::Reverse(mv.value), hurry)
    });
    let (plies, remotes): (Vec<Ply<G>>, Vec<Option<Option<u32>>>) = moves
        .into_iter()
        .map(|(mv, remote)| {
            let ply = Ply {
                player: game.mover(state),
                state: state.clone(),
                mv: mv.mv,
                gain: mv.step.gain,
                turn: mv.step.turn,
                value: mv.value,
            };
            (ply, remote)
        })
        .unzip();
    let words = game.entries(&plies);
    let moves = plies
        .iter()
        .zip(remotes)
        .zip(words.entries())
        .map(|((ply, remote), entry)| {
            // An entry starts with its player; here the mover is simply "the player to move".
            let text = entry.text.strip_prefix(entry.player).unwrap_or(&entry.text);
            Valued {
                value: ply.value,
                remoteness: remote,
                best: ply.value == value && remote == remoteness,
                words: text.trim_start().to_string(),
                name: game.move_name(state, &ply.mv),
                gain: ply.gain,
                keeps_turn: ply.turn == Turn::Keep,
                // The move's own `gain` is written beside its fields.
                fields: entry.fields.without("gain"),
            }
        })
        .collect();
    Valuation {
        value,
        remoteness,
        moves,
        nimber: None,
    }
}

/// The valuation of `state` by a solved game's answers (the loopy tier solver's, in memory or
/// from a tier file): each move with the outcome and remoteness of the position it leads to.
pub(super) fn by_answer<G, S>(
    game: &G,
    solved: &mut S,
    state: &G::State,
) -> Result<Valuation, Error>
where
    G: Presented,
    S: Solved<G> + ?Sized,
{
    let value = solved.value_of(state)?;
    // Remoteness is an outcome game's: a game of points has none.
    let outcomes = solved.outcome().is_some();
    let remoteness = match outcomes {
        true => Some(solved.remoteness(state)?),
        false => None,
    };
    let mut moves = Vec::new();
    for mv in solved.move_values(state)? {
        let after = match outcomes {
            true => Some(solved.remoteness(&mv.step.next)?.map(|moves| moves + 1)),
            false => None,
        };
        moves.push((mv, after));
    }
    Ok(described_with(game, state, (value, remoteness), moves))
}
