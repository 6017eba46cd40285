//! What a move does to a search: the child's window shifted and flipped by the move's gain
//! and turn, the move's value from the child's result, bounds carried across a move, and chains
//! of forced moves folded into one step.

use crate::engines::kernel::{Stats, valid};
use crate::error::SolveError;
use crate::game::{Game, Score, Step, Turn};
use crate::memo::Bound;

/// `value` clamped to the range every score lies in.
#[inline]
fn clamp(value: i128) -> Score {
    value.clamp(-i128::from(Score::MAX), i128::from(Score::MAX)) as Score
}

/// The window in which to search the child of a move with `gain` and `turn`.
#[inline]
pub(super) fn child_window(alpha: Score, beta: Score, gain: Score, turn: Turn) -> (Score, Score) {
    match (turn, gain) {
        (Turn::Pass, 0) => (-beta, -alpha),
        (Turn::Keep, 0) => (alpha, beta),
        (Turn::Pass, _) => (
            clamp(i128::from(gain) - i128::from(beta)),
            clamp(i128::from(gain) - i128::from(alpha)),
        ),
        (Turn::Keep, _) => (
            clamp(i128::from(alpha) - i128::from(gain)),
            clamp(i128::from(beta) - i128::from(gain)),
        ),
    }
}

/// A move's value for its mover, from its child's search result.
///
/// In range, `gain ± child` is the answer (a bound of the same kind the child's result is).
/// Out of range, it depends on what the child's result says: an exact value, or a bound that
/// puts the move's value itself out of range, is an overflow; a bound that only fails to say
/// anything within range is clamped (it is still a true bound).
#[inline]
pub(super) fn move_value(
    gain: Score,
    turn: Turn,
    child: Score,
    window: (Score, Score),
    exact: bool,
) -> Result<Score, SolveError> {
    if gain == 0 && turn == Turn::Pass && child != Score::MIN {
        // The usual move: the child's value negated, always in range.
        return Ok(-child);
    }
    let sum = match turn {
        Turn::Pass => i128::from(gain) - i128::from(child),
        Turn::Keep => i128::from(gain) + i128::from(child),
    };
    if (-i128::from(Score::MAX)..=i128::from(Score::MAX)).contains(&sum) {
        return Ok(sum as Score);
    }
    // The child's result is an upper bound (fail-low), a lower bound (fail-high) or exact.
    let child_upper = !exact && child <= window.0;
    let child_lower = !exact && child >= window.1;
    let (upper, lower) = match turn {
        Turn::Pass => (child_lower, child_upper),
        Turn::Keep => (child_upper, child_lower),
    };
    match (sum > 0, upper, lower) {
        (true, true, _) => Ok(Score::MAX),
        (false, _, true) => Ok(-Score::MAX),
        _ => Err(SolveError::ScoreOverflow),
    }
}

/// The step from a state to the end of the chain of forced moves that starts at `step`'s
/// state: the moves of the chain folded into `step` (gains added, turns composed), and the
/// end's value if the game knows it.
#[inline]
pub(super) fn follow_forced<G: Game>(
    game: &G,
    mut step: Step<G::State>,
    stats: &mut Stats,
) -> Result<(Step<G::State>, Option<Score>), SolveError> {
    let known = follow_forced_in_place(game, &mut step, stats)?;
    Ok((step, known))
}

/// [`follow_forced`] on a step where it lies: `step` becomes the step to the chain's end (left
/// as it is where no move is forced); the end's value if the game knows it.
#[inline]
pub(super) fn follow_forced_in_place<G: Game>(
    game: &G,
    step: &mut Step<G::State>,
    stats: &mut Stats,
) -> Result<Option<Score>, SolveError> {
    loop {
        if let Some(known) = game.known_value(&step.next) {
            stats.known += 1;
            return valid(known).map(Some);
        }
        let Some(forced) = game.forced_move(&step.next) else {
            return Ok(None);
        };
        let next = game.play(&step.next, &forced);
        // The move's value is g + σ·v(s′) and v(s′) = g′ + σ′·v(s″): g + σ·g′ + σσ′·v(s″).
        let gain = match step.turn {
            Turn::Pass => i128::from(step.gain) - i128::from(next.gain),
            Turn::Keep => i128::from(step.gain) + i128::from(next.gain),
        };
        if gain.unsigned_abs() > Score::MAX as u128 {
            // Gains that add up past the score range: the chain stops (the state is searched
            // as any other), since its end's value may bring the sum back.
            return Ok(None);
        }
        stats.forced += 1;
        *step = Step {
            next: next.next,
            gain: gain as Score,
            turn: if step.turn == next.turn {
                Turn::Keep
            } else {
                Turn::Pass
            },
        };
    }
}

/// The bounds on a move's value for its mover from `child`, the bounds on the value of the state
/// the move's `step` leads to.
#[inline]
pub(super) fn move_bounds<S>(step: &Step<S>, child: Bound) -> (Score, Score) {
    if step.gain == 0 && step.turn == Turn::Pass {
        // The usual move, without 128-bit arithmetic: negating saturates at the range's ends
        // as the clamp below does.
        return (child.upper.saturating_neg(), child.lower.saturating_neg());
    }
    let (gain, low, high) = (
        i128::from(step.gain),
        i128::from(child.lower),
        i128::from(child.upper),
    );
    match step.turn {
        Turn::Pass => (clamp(gain - high), clamp(gain - low)),
        Turn::Keep => (clamp(gain + low), clamp(gain + high)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_shift_and_flip_with_gains_and_clamp_at_the_ends() {
        assert_eq!(child_window(-3, 5, 0, Turn::Pass), (-5, 3));
        assert_eq!(child_window(-3, 5, 2, Turn::Pass), (-3, 5));
        assert_eq!(child_window(-3, 5, 2, Turn::Keep), (-5, 3));
        let max = Score::MAX;
        assert_eq!(child_window(-max, max, max, Turn::Pass), (0, max));
        assert_eq!(child_window(-max, max, -max, Turn::Keep), (0, max));
    }

    #[test]
    fn out_of_range_move_values_are_overflows_only_when_they_must_be() {
        let max = Score::MAX;
        // An exact child: the move's value really overflows.
        assert_eq!(
            move_value(max, Turn::Pass, -1, (-5, 5), true),
            Err(SolveError::ScoreOverflow)
        );
        // Child fail-high (a lower bound ≥ 5): the move is at most max − 5... in range.
        assert_eq!(move_value(max, Turn::Pass, 5, (-5, 5), false), Ok(max - 5));
        // Child fail-low at −5 (value ≤ −5): the move is at least max + 5: a true overflow.
        assert_eq!(
            move_value(max, Turn::Pass, -5, (-5, 5), false),
            Err(SolveError::ScoreOverflow)
        );
        // Child fail-high at 5 with a turn kept and a gain of max: the move is at least
        // max + 5 — overflow; with a fail-low the move is at most max + (−5)... in range.
        assert_eq!(
            move_value(max, Turn::Keep, 5, (-5, 5), false),
            Err(SolveError::ScoreOverflow)
        );
        // Child fail-low at max (value ≤ max): the move (gain −max, turn kept) is at most 0.
        assert_eq!(move_value(-max, Turn::Keep, max, (max, max), false), Ok(0));
        // A bound that only says "at most more than max" is clamped.
        assert_eq!(move_value(10, Turn::Keep, max, (max, max), false), Ok(max));
    }
}
