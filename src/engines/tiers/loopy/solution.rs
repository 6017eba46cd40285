//! What a loopy tier solve found: codes in memory ([`LoopySolution`]), and the questions every
//! way of reading them answers alike (each move's outcome, the line of play).

use std::hash::Hash;

use super::{Classes, Code, LoopyStats, Tiers};
use crate::engines::kernel::Ply;
use crate::engines::retrograde::Outcome;
use crate::error::SolveError;
use crate::game::{Game, Player, Tiered, Turn};

/// A state's outcome and remoteness, `None` where it is not held.
pub(super) type Found = Option<(Outcome, Option<u32>)>;

/// Each move of `state` with the outcome and remoteness `lookup` gives the position it leads
/// to; `None` if `lookup` holds no outcome for one of them.
#[allow(clippy::type_complexity)]
pub(super) fn moves_by<G: Game>(
    game: &G,
    state: &G::State,
    mut lookup: impl FnMut(&G::State) -> Result<Found, SolveError>,
) -> Result<Option<Vec<(G::Move, Turn, Outcome, Option<u32>)>>, SolveError> {
    let mut moves = Vec::new();
    for mv in game.moves(state) {
        let step = game.play(state, &mv);
        let Some((outcome, remoteness)) = lookup(&step.next)? else {
            return Ok(None);
        };
        moves.push((mv, step.turn, outcome, remoteness));
    }
    Ok(Some(moves))
}

/// The line from `start` where the winner wins fastest and the loser loses slowest, by
/// `lookup`'s outcomes (from a drawn start: moves that keep the draw, until a position
/// repeats); empty where `lookup` does not hold a position on it.
pub(super) fn line_by<G: Game>(
    game: &G,
    start: &G::State,
    mut lookup: impl FnMut(&G::State) -> Result<Found, SolveError>,
) -> Result<Vec<Ply<G>>, SolveError>
where
    G::State: Eq + Hash,
{
    let mut line = Vec::new();
    let mut seen = hashbrown::HashSet::new();
    let mut state = start.clone();
    let mut player = Player::First;
    loop {
        // A position on the line that `lookup` does not hold: no line at all, rather than
        // one cut short that would read as the game's end.
        let Some((outcome, remoteness)) = lookup(&state)? else {
            return Ok(Vec::new());
        };
        if !seen.insert(state.clone()) {
            break;
        }
        let Some(moves) = moves_by(game, &state, &mut lookup)? else {
            return Ok(Vec::new());
        };
        let keeps = |(_, turn, child, child_remoteness): &(G::Move, Turn, Outcome, Option<u32>)| {
            let mine = if *turn == Turn::Pass {
                child.flipped()
            } else {
                *child
            };
            mine == outcome
                && match (remoteness, child_remoteness) {
                    (Some(r), Some(c)) => *c + 1 == r,
                    _ => true,
                }
        };
        let Some((mv, ..)) = moves.into_iter().find(keeps) else {
            break;
        };
        let step = game.play(&state, &mv);
        line.push(Ply {
            player,
            state,
            mv,
            gain: step.gain,
            turn: step.turn,
            value: outcome.value(),
        });
        player = player.after(step.turn);
        state = step.next;
    }
    Ok(line)
}

/// A solved loopy tiered game: the start's outcome and remoteness, and every kept state's.
///
/// ```
/// use gamesolver::engines::tiers::{KeepTiers, loopy::{self, BySymmetry}};
/// use gamesolver::engines::retrograde::Outcome;
/// use gamesolver::games::Quixo;
///
/// let game = Quixo::new(3).unwrap();
/// let solved = loopy::solve(&game, BySymmetry, loopy::Options::new().keep(KeepTiers::All)).unwrap();
/// assert_eq!((solved.outcome(), solved.remoteness()), (Outcome::Win, Some(7)));
/// let line = solved.line();
/// assert_eq!(line.len(), 7); // X's fastest win against O's slowest loss
/// ```
#[derive(Debug)]
pub struct LoopySolution<'g, G: Tiered, C> {
    game: &'g G,
    classes: C,
    start: G::State,
    tiers: Tiers,
    stats: LoopyStats,
}

impl<'g, G: Tiered, C: Classes<G>> LoopySolution<'g, G, C> {
    /// The solution a solve from `start` found.
    pub(super) fn solved(
        game: &'g G,
        classes: C,
        start: G::State,
        tiers: Tiers,
        stats: LoopyStats,
    ) -> Self {
        LoopySolution {
            game,
            classes,
            start,
            tiers,
            stats,
        }
    }

    /// A solution over `tiers` already solved (read back from a saved solve).
    pub fn from_tiers(game: &'g G, classes: C, tiers: Tiers, stats: LoopyStats) -> Self {
        LoopySolution {
            start: game.start(),
            game,
            classes,
            tiers,
            stats,
        }
    }

    /// The start's outcome for the side to move.
    pub fn outcome(&self) -> Outcome {
        self.outcome_of(&self.start)
            .map_or(Outcome::Draw, |found| found.0)
    }

    /// The start's remoteness (moves to the end with the winner's fastest and the loser's
    /// slowest play); `None` for a draw.
    pub fn remoteness(&self) -> Option<u32> {
        self.outcome_of(&self.start).and_then(|found| found.1)
    }

    /// The outcome and remoteness of `state`, if its tier is kept and the rank holds a state.
    pub fn outcome_of(&self, state: &G::State) -> Option<(Outcome, Option<u32>)> {
        self.code_of(state).decode()
    }

    /// The code stored for `state` ([`Code::NONE`] if its tier is not kept).
    pub fn code_of(&self, state: &G::State) -> Code {
        let state = self.classes.stand_in(self.game, state.clone());
        let tier = self.game.tier(&state);
        let rank = self.game.rank(&state);
        self.tiers
            .get(tier)
            .and_then(Option::as_ref)
            .and_then(|codes| codes.get(usize::try_from(rank).ok()?))
            .map_or(Code::NONE, |&code| Code(code))
    }

    /// Each move of `state` with the outcome and remoteness of the position it leads to, for the
    /// side to move there; `None` if a child's tier is not kept.
    #[allow(clippy::type_complexity)]
    pub fn move_outcomes(
        &self,
        state: &G::State,
    ) -> Option<Vec<(G::Move, Turn, Outcome, Option<u32>)>> {
        moves_by(self.game, state, |child| Ok(self.outcome_of(child)))
            .ok()
            .flatten()
    }

    /// The line from the start where the winner wins fastest and the loser loses slowest (from
    /// a drawn start: moves that keep the draw, until a position repeats); empty where tiers the
    /// line passes through were not kept. Each ply's value is the mover's outcome (+1, 0, −1).
    pub fn line(&self) -> Vec<Ply<G>>
    where
        G::State: Eq + Hash,
    {
        line_by(self.game, &self.start, |state| Ok(self.outcome_of(state))).unwrap_or_default()
    }

    /// The start the solve began from.
    pub fn start(&self) -> &G::State {
        &self.start
    }

    /// What the solve did.
    pub fn stats(&self) -> LoopyStats {
        self.stats
    }

    /// The kept tiers' codes, indexed by tier and then by rank.
    pub fn tiers(&self) -> &Tiers {
        &self.tiers
    }

    /// The game.
    pub fn game(&self) -> &'g G {
        self.game
    }
}
