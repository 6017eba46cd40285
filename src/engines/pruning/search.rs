//! The alpha-beta search loop, on an explicit stack (games may be 10⁶ moves deep).
//!
//! Fail-soft negamax with a bound table. A search of `state` in the window `(alpha, beta)`
//! returns `r` with: `r ≤ alpha` ⇒ value ≤ r; `r ≥ beta` ⇒ value ≥ r; otherwise value = r.
//! Every window and every result lies in `-Score::MAX ..= Score::MAX`: since no value leaves
//! that range, a window clamped to it loses nothing (a result at an end of the range is exact).
//!
//! Per-move gains and extra turns shift and flip the window: a child reached by a move of gain
//! `g` that passes the turn is searched in `(g − beta, g − alpha)`; one that keeps the turn in
//! `(alpha − g, beta − g)`.

use std::sync::Arc;

mod sharing;

use super::split_points::{Next, SplitPoint, Team};
use crate::engines::kernel::{
    CHECK_EVERY, CYCLE_DEPTH, KEPT_FRAMES, RangeSource, RunGuard, Stats, buffer_bytes, cycle_on,
    valid,
};
use crate::error::Error;
use crate::game::{Game, Score, Turn};
use crate::memo::{Bound, BoundTable};

/// How many stores pass between two checks of cancellation (a parallel helper stops soon
/// after its split point is cut off: a window search can take well under a millisecond).
const CANCEL_EVERY: usize = 16;

/// The fewest states a frame's search must have expanded before its other moves are handed
/// to idle workers (a split costs a few hundred nanoseconds, a state about a hundred).
const SPLIT_WORK: u64 = 16;

/// One open state.
struct Frame<G: Game> {
    state: G::State,
    /// Where this state's moves begin in the shared buffer (they run to its end while this
    /// frame is on top).
    moves_start: usize,
    next_move: usize,
    /// The window as entered (narrowed to the known range): `best ≤ alpha0` means fail-low.
    alpha0: Score,
    alpha: Score,
    beta: Score,
    /// What was known of the value before the search: the game's range and the table's bound.
    low: Score,
    high: Score,
    /// The best move value so far; `Score::MIN` until one is valued.
    best: Score,
    /// The move being searched above this frame: its gain, turn rule and the child's window.
    gain: Score,
    turn: Turn,
    child_alpha: Score,
    child_beta: Score,
    /// The search's count of expanded states when this frame was opened (how much work its
    /// moves have taken so far decides whether to share the others).
    opened_at: u64,
}

/// The reusable buffers of a pruning search.
pub(crate) struct Search<G: Game> {
    frames: Vec<Frame<G>>,
    moves: Vec<G::Move>,
    /// Where a state's moves are generated before they join `moves`: always empty when a game
    /// is handed it, so a game that clears the buffer cannot disturb the open states' moves.
    fresh: Vec<G::Move>,
    stores: usize,
    /// The workers of a parallel query this search is one of.
    team: Option<Arc<Team<G>>>,
    /// The split point whose move this search values (a helper's search): it stops when that
    /// split point stops.
    under: Option<Arc<SplitPoint<G>>>,
    /// The open frames published as split points, by frame index, shallowest first (kept
    /// apart from the frames so that a frame stays plain data).
    splits: Vec<(usize, Arc<SplitPoint<G>>)>,
    /// The search that a worker waiting for its helpers runs meanwhile, at their split points.
    nested: Option<Box<Search<G>>>,
    /// The count of expanded states when this search last looked for a state to share.
    offered_at: u64,
    /// The stack bytes this search last reported to a shared account ([`RunGuard::stacks`]).
    reported: u64,
    /// The buffers' capacities at the last memory check.
    checked: (usize, usize),
}

impl<G: Game> Default for Search<G> {
    fn default() -> Self {
        Search {
            frames: Vec::new(),
            moves: Vec::new(),
            fresh: Vec::new(),
            stores: 0,
            team: None,
            under: None,
            splits: Vec::new(),
            nested: None,
            offered_at: u64::MAX,
            reported: 0,
            checked: (0, 0),
        }
    }
}

/// `value` clamped to the range every score lies in.
#[inline]
fn clamp(value: i128) -> Score {
    value.clamp(-i128::from(Score::MAX), i128::from(Score::MAX)) as Score
}

/// The window in which to search the child of a move with `gain` and `turn`.
#[inline]
fn child_window(alpha: Score, beta: Score, gain: Score, turn: Turn) -> (Score, Score) {
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
fn move_value(
    gain: Score,
    turn: Turn,
    child: Score,
    window: (Score, Score),
    exact: bool,
) -> Result<Score, Error> {
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
        _ => Err(Error::ScoreOverflow),
    }
}

/// What the table and the game already say of a state's value, if that answers the window.
enum Entry {
    /// The answer, with whether it is the exact value (not only a bound that decides).
    Done(Score, bool),
    /// A frame was pushed.
    Opened,
}

impl<G: Game> Search<G> {
    /// Empties the stack, withdrawing the split points it had published.
    fn clear(&mut self) {
        if !self.splits.is_empty() {
            self.withdraw_from(0);
        }
        self.frames.clear();
        self.moves.clear();
    }

    /// Searches `state` in the window `(alpha, beta)` (`alpha < beta`), fail-soft.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn window<T: BoundTable<G>, R: RangeSource<G>>(
        &mut self,
        game: &G,
        table: &mut T,
        range: &R,
        state: &G::State,
        alpha: Score,
        beta: Score,
        stats: &mut Stats,
        guard: RunGuard<'_>,
    ) -> Result<Score, Error> {
        self.value(game, table, range, state, (alpha, beta), stats, guard)
            .map(|(value, _)| value)
    }

    /// [`window`](Self::window), and whether the result is the exact value (known, or
    /// decided by the table's exact entry) rather than only a bound that answers the window.
    #[allow(clippy::too_many_arguments)]
    fn value<T: BoundTable<G>, R: RangeSource<G>>(
        &mut self,
        game: &G,
        table: &mut T,
        range: &R,
        state: &G::State,
        (alpha, beta): (Score, Score),
        stats: &mut Stats,
        guard: RunGuard<'_>,
    ) -> Result<(Score, bool), Error> {
        debug_assert!(alpha < beta);
        if let Some(value) = game.known_value(state) {
            stats.known += 1;
            return valid(value).map(|value| (value, true));
        }
        let result = match self.enter(game, table, range, state.clone(), alpha, beta, stats) {
            Ok(Entry::Done(value, exact)) => Ok((value, exact)),
            Ok(Entry::Opened) => self
                .run(game, table, range, stats, guard)
                .map(|value| (value, false)),
            Err(error) => Err(error),
        };
        self.clear();
        // A deep search's stack is not kept between searches (see the exhaustive engine).
        self.frames.shrink_to(KEPT_FRAMES);
        self.moves.shrink_to(KEPT_FRAMES);
        guard.release(&mut self.reported);
        result
    }

    /// Answers `state` from the game's range and the table if they decide the window; else
    /// pushes its frame (or values it by its payoff if it has no move).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn enter<T: BoundTable<G>, R: RangeSource<G>>(
        &mut self,
        game: &G,
        table: &T,
        range: &R,
        state: G::State,
        alpha: Score,
        beta: Score,
        stats: &mut Stats,
    ) -> Result<Entry, Error> {
        let (low, high) = range.range(game, &state);
        let (mut low, mut high) = (low.max(-Score::MAX), high);
        // The game's range first: when it decides, the table (a likely cache miss) is spared.
        if let Some(done) = decided(low, high, alpha, beta) {
            return Ok(done);
        }
        if let Some(known) = table.get(game, &state) {
            low = low.max(known.lower);
            high = high.min(known.upper);
            if let Some(done) = decided(low, high, alpha, beta) {
                stats.hits += 1;
                return Ok(done);
            }
        }
        let moves_start = self.moves.len();
        game.moves(&state, &mut self.fresh);
        let count = self.fresh.len();
        self.moves.append(&mut self.fresh);
        if count == 0 {
            stats.terminal += 1;
            return valid(game.payoff(&state)).map(|value| Entry::Done(value, true));
        }
        stats.expanded += 1;
        if T::PREFETCH {
            for mv in &self.moves[moves_start..] {
                table.prefetch(game, &game.play(&state, mv).next);
            }
        }
        let alpha = alpha.max(low);
        self.frames.push(Frame {
            state,
            moves_start,
            next_move: moves_start,
            alpha0: alpha,
            alpha,
            beta: beta.min(high),
            low,
            high,
            best: Score::MIN,
            gain: 0,
            turn: Turn::Pass,
            child_alpha: 0,
            child_beta: 0,
            opened_at: stats.expanded,
        });
        stats.max_depth = stats.max_depth.max(self.frames.len());
        Ok(Entry::Opened)
    }

    /// Runs the open frames to completion; the bottom frame's result is the answer.
    fn run<T: BoundTable<G>, R: RangeSource<G>>(
        &mut self,
        game: &G,
        table: &mut T,
        range: &R,
        stats: &mut Stats,
        guard: RunGuard<'_>,
    ) -> Result<Score, Error> {
        loop {
            let top = self.frames.len() - 1;
            // A worker waits for work: share an open state (looked for once per state expanded).
            if self.team.as_ref().is_some_and(|team| team.wanted())
                && self.offered_at != stats.expanded
            {
                self.offered_at = stats.expanded;
                self.offer(stats);
            }
            let frame = &mut self.frames[top];
            let split = split_of(top, &self.splits);
            let end = self.moves.len();
            // Try moves until one needs a search of its own, or a cut-off, or none is left.
            let mut pending = None;
            let mut wait = false;
            while let Some(index) = next_move(frame, split, end, &mut wait) {
                let step = game.play(&frame.state, &self.moves[index]);
                let window = child_window(frame.alpha, frame.beta, step.gain, step.turn);
                let Some(known) = game.known_value(&step.next) else {
                    pending = Some((step, window));
                    break;
                };
                stats.known += 1;
                let value = move_value(step.gain, step.turn, valid(known)?, window, true)?;
                if raise(frame, value) {
                    cut(frame, split, end);
                }
            }
            if let Some((step, window)) = pending {
                frame.gain = step.gain;
                frame.turn = step.turn;
                (frame.child_alpha, frame.child_beta) = window;
                let entry = self.enter(game, table, range, step.next, window.0, window.1, stats)?;
                // The stack grew: checked when its buffers' capacity changes, not per node.
                let capacities = (self.frames.capacity(), self.moves.capacity());
                if capacities != self.checked {
                    self.checked = capacities;
                    self.check_memory(table, guard)?;
                    if self.frames.len() >= CYCLE_DEPTH {
                        cycle_on(
                            game,
                            self.frames.iter().map(|frame| &frame.state),
                            |state| table.fingerprint(game, state),
                            |a, b| table.same(game, a, b),
                        )?;
                    }
                }
                if let Entry::Done(value, exact) = entry {
                    self.child_done(top, value, exact)?;
                }
                continue;
            }
            if wait {
                // Every move of this split point is taken; helpers still search some.
                self.wait(game, table, range, stats, guard)?;
                continue;
            }
            // The top frame is done: store what it learned and hand its result down.
            let done = self.frames.pop().expect("a frame is open");
            if !self.splits.is_empty() {
                self.withdraw_from(self.frames.len());
            }
            self.moves.truncate(done.moves_start);
            debug_assert!(done.best != Score::MIN, "a frame has at least one move");
            let result = done.best.clamp(done.low, done.high);
            let bound = if done.best <= done.alpha0 {
                Bound::new(done.low, result)
            } else if done.best >= done.beta {
                Bound::new(result, done.high)
            } else {
                Bound::exactly(result)
            };
            table.store(game, &done.state, bound);
            self.stores += 1;
            let mut unwound = false;
            if self.stores.is_multiple_of(CANCEL_EVERY) {
                guard.cancelled()?;
                // A trial run (the parallel engine's first look) ends after so many states.
                if guard
                    .stores
                    .is_some_and(|most| stats.expanded >= most as u64)
                {
                    return Err(Error::Cancelled);
                }
                if self.under.as_ref().is_some_and(|under| under.stopped()) {
                    return Err(Error::Cancelled);
                }
                unwound = !self.splits.is_empty() && self.unwind();
                if self.stores >= CHECK_EVERY {
                    // Every frame that closes stores once: the stores are the states searched.
                    if let Some(progress) = guard.progress {
                        progress.add_searched(self.stores as u64);
                    }
                    self.stores = 0;
                    self.check_memory(table, guard)?;
                }
            }
            if self.frames.is_empty() {
                return Ok(result);
            }
            if !unwound {
                self.child_done(self.frames.len() - 1, result, false)?;
            }
        }
    }

    /// Folds the result of the move being searched above frame `index` into that frame.
    #[inline]
    fn child_done(&mut self, index: usize, child: Score, exact: bool) -> Result<(), Error> {
        let end = self.moves.len();
        let frame = &mut self.frames[index];
        let window = (frame.child_alpha, frame.child_beta);
        let value = move_value(frame.gain, frame.turn, child, window, exact)?;
        if raise(frame, value) {
            cut(frame, split_of(index, &self.splits), end);
        }
        Ok(())
    }

    /// Errors if the table's peak plus the stack would exceed the budget, or on cancellation.
    fn check_memory<T: BoundTable<G>>(
        &mut self,
        table: &T,
        guard: RunGuard<'_>,
    ) -> Result<(), Error> {
        let stack =
            buffer_bytes(&self.frames) + buffer_bytes(&self.moves) + buffer_bytes(&self.fresh);
        guard.check(
            table.peak_bytes(CHECK_EVERY),
            &mut self.reported,
            stack,
            "bound",
            table.len(),
            self.frames.len(),
        )
    }
}

/// The answer a known range `low..=high` gives for the window `(alpha, beta)`, if it decides.
#[inline]
fn decided(low: Score, high: Score, alpha: Score, beta: Score) -> Option<Entry> {
    if low >= high {
        Some(Entry::Done(low, true))
    } else if high <= alpha {
        Some(Entry::Done(high, false))
    } else if low >= beta {
        Some(Entry::Done(low, false))
    } else {
        None
    }
}

/// The split point of the top frame, whose index is `top`, if it is one: then the last
/// published (frames are published shallowest first and withdrawn as they close).
#[inline]
fn split_of<G: Game>(top: usize, splits: &[(usize, Arc<SplitPoint<G>>)]) -> Option<&SplitPoint<G>> {
    match splits.last() {
        Some((index, split)) if *index == top => Some(split),
        _ => None,
    }
}

/// The index of the frame's next move to try, if any: in order, or (a split point: `split`)
/// the next one nobody has taken. A split point's owner gets no move either when every move
/// has been searched (the helpers' best is then folded in) or when helpers still search the
/// last ones (`wait` is then raised).
#[inline]
fn next_move<G: Game>(
    frame: &mut Frame<G>,
    split: Option<&SplitPoint<G>>,
    end: usize,
    wait: &mut bool,
) -> Option<usize> {
    let Some(split) = split else {
        if frame.next_move < end {
            frame.next_move += 1;
            return Some(frame.next_move - 1);
        }
        return None;
    };
    match split.owner_next() {
        Next::Move(offset, best) => {
            let index = frame.moves_start + offset;
            // The helpers' values so far raise the window's bottom; none reached its top.
            raise(frame, best);
            Some(index)
        }
        Next::Wait => {
            *wait = true;
            None
        }
        Next::Done(best) => {
            raise(frame, best);
            None
        }
    }
}

/// Ends a frame's move loop after a cut-off (and stops the helpers of its split point).
#[inline]
fn cut<G: Game>(frame: &mut Frame<G>, split: Option<&SplitPoint<G>>, end: usize) {
    frame.next_move = end;
    if let Some(split) = split {
        split.halt();
    }
}

/// Takes a move's value into its frame; true on a cut-off (the value reaches `beta`).
#[inline]
fn raise<G: Game>(frame: &mut Frame<G>, value: Score) -> bool {
    frame.best = frame.best.max(value);
    if value >= frame.beta {
        return true;
    }
    frame.alpha = frame.alpha.max(value);
    false
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
            Err(Error::ScoreOverflow)
        );
        // Child fail-high (a lower bound ≥ 5): the move is at most max − 5... in range.
        assert_eq!(move_value(max, Turn::Pass, 5, (-5, 5), false), Ok(max - 5));
        // Child fail-low at −5 (value ≤ −5): the move is at least max + 5: a true overflow.
        assert_eq!(
            move_value(max, Turn::Pass, -5, (-5, 5), false),
            Err(Error::ScoreOverflow)
        );
        // Child fail-high at 5 with a turn kept and a gain of max: the move is at least
        // max + 5 — overflow; with a fail-low the move is at most max + (−5)... in range.
        assert_eq!(
            move_value(max, Turn::Keep, 5, (-5, 5), false),
            Err(Error::ScoreOverflow)
        );
        // Child fail-low at max (value ≤ max): the move (gain −max, turn kept) is at most 0.
        assert_eq!(move_value(-max, Turn::Keep, max, (max, max), false), Ok(0));
        // A bound that only says "at most more than max" is clamped.
        assert_eq!(move_value(10, Turn::Keep, max, (max, max), false), Ok(max));
    }
}
