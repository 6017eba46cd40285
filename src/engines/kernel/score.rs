//! Score arithmetic shared by every engine: a move's value for its mover, checked for overflow.

use crate::error::Error;
use crate::game::{Score, Turn};

/// `v` if it is a valid score (not `Score::MIN`).
#[inline]
pub(crate) fn valid(value: Score) -> Result<Score, Error> {
    if value == Score::MIN {
        Err(Error::ScoreOverflow)
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

/// The value of a move for its mover: `gain ± child`, checked.
#[inline]
pub(crate) fn combine(gain: Score, turn: Turn, child: Score) -> Result<Score, Error> {
    // Matched, not `ok_or(Error::…)`: an `Error` built and dropped on every call cost a drop
    // check per node.
    match gain.checked_add(signed(turn, child)) {
        Some(value) => valid(value),
        None => Err(Error::ScoreOverflow),
    }
}
