//! Cycle detection for engines that assume an acyclic game: checked when the search path
//! doubles past [`CYCLE_DEPTH`], so an acyclic game pays nothing per node.

use crate::error::SolveError;
use crate::game::Game;

/// From this depth on, each time the stack's capacity grows (its depth doubles), the search
/// looks for a state twice on its path: a cycle makes the path grow without end, so it is found
/// by the next doubling after the path has gone round once, at a cost of one pass over the
/// path per doubling (nothing per node).
pub(crate) const CYCLE_DEPTH: usize = 1024;

/// The most states of a cycle an [`SolveError::Cycle`] shows.
const SHOWN_STATES: usize = 8;

/// [`SolveError::Cycle`] if the top of `path` (a search's open states, root first) is on it
/// already, found through a table's `fingerprint` and `same`; nothing if the table cannot tell.
///
/// A search caught in a cycle goes round it for ever, opening the same states in the same order
/// (their earlier moves are stored by then), so once its path has gone round once, its top
/// state is also one cycle length below: looking only at the top finds the cycle at the next
/// look after that, at the cost of one fingerprint per open state (no map, no allocation).
/// The error gives the cycle's own length (from the top's nearest earlier place on the path,
/// however many times the search went round before the look), the depth at which the line
/// first reached that state, and the cycle's first states.
#[cold]
pub(crate) fn cycle_on<'s, G: Game + ?Sized>(
    game: &G,
    mut path: impl DoubleEndedIterator<Item = &'s G::State> + ExactSizeIterator + Clone,
    fingerprint: impl Fn(&G::State) -> Option<u64>,
    same: impl Fn(&G::State, &G::State) -> bool,
) -> Result<(), SolveError>
where
    G::State: 's,
{
    let Some(top) = path.next_back() else {
        return Ok(());
    };
    let Some(key) = fingerprint(top) else {
        return Ok(());
    };
    let is_top = |state: &G::State| fingerprint(state) == Some(key) && same(state, top);
    let Some(nearer) = path.clone().rev().position(is_top) else {
        return Ok(());
    };
    let length = nearer + 1;
    let depth = path.clone().position(is_top).unwrap_or(path.len() - length);
    // The cycle from the state it returns to, round to that state again (the first few).
    let below = path.len();
    let shown: Option<Vec<String>> = path
        .skip(below - length)
        .chain(std::iter::once(top))
        .take(SHOWN_STATES + 1)
        .map(|state| game.state_text(state))
        .collect();
    let state = shown.map(|states| {
        let more = if length > SHOWN_STATES {
            " → …"
        } else {
            ""
        };
        format!("{}{more}", states.join(" → "))
    });
    Err(SolveError::Cycle {
        depth,
        length,
        state,
    })
}
