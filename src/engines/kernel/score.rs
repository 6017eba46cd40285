//! Score arithmetic shared by every engine: a move's value for its mover, checked for overflow.

use crate::error::SolveError;
use crate::game::{Score, Turn};

/// `v` if it is a valid score (not `Score::MIN`).
#[inline]
pub(crate) fn valid(value: Score) -> Result<Score, SolveError> {
    if value == Score::MIN {
        Err(SolveError::ScoreOverflow)
    } else {
        Ok(value)
    }
}

/// A child's value as seen by the mover: negated if the turn passes. A valid child (never
/// `Score::MIN`) negates exactly; an invalid one wraps, but callers have already flagged it as
/// an overflow, so its result is never used.
#[inline]
pub(crate) fn signed(turn: Turn, child: Score) -> Score {
    match turn {
        Turn::Pass => child.wrapping_neg(),
        Turn::Keep => child,
    }
}

/// The value of a move's child, from the move's value for its mover (the inverse of
/// [`combine`]): `±(value − gain)`, checked.
#[inline]
pub(crate) fn child_value(gain: Score, turn: Turn, value: Score) -> Result<Score, SolveError> {
    match value.checked_sub(gain) {
        Some(rest) => valid(rest).map(|rest| signed(turn, rest)),
        None => Err(SolveError::ScoreOverflow),
    }
}

/// The value of a move for its mover: `gain ± child`, checked.
#[inline]
pub(crate) fn combine(gain: Score, turn: Turn, child: Score) -> Result<Score, SolveError> {
    // Matched, not `ok_or(SolveError::…)`: an `SolveError` built and dropped on every call cost a drop
    // check per node.
    match gain.checked_add(signed(turn, child)) {
        Some(value) => valid(value),
        None => Err(SolveError::ScoreOverflow),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_childs_value_comes_back_from_its_moves_value() {
        let max = Score::MAX;
        for gain in [-7, 0, 3, max, -max] {
            for turn in [Turn::Pass, Turn::Keep] {
                for child in [-5, 0, 2, max, -max] {
                    if let Ok(value) = combine(gain, turn, child) {
                        assert_eq!(child_value(gain, turn, value), Ok(child));
                    }
                }
            }
        }
        // A move's value whose child would leave the score range is an overflow.
        assert_eq!(
            child_value(-1, Turn::Keep, max),
            Err(SolveError::ScoreOverflow)
        );
        assert_eq!(
            child_value(1, Turn::Pass, -max),
            Err(SolveError::ScoreOverflow)
        );
    }
}
