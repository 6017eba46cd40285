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
use std::sync::atomic::{AtomicU32, Ordering};

use crate::engines::kernel::{
    CHECK_EVERY, CYCLE_DEPTH, KEPT_FRAMES, RangeSource, RunGuard, Stats, buffer_bytes, cycle_on,
    valid,
};
use crate::error::Error;
use crate::game::{Game, Score, Turn};
use crate::memo::{Bound, BoundTable};

/// How many stores pass between two checks of cancellation (a parallel helper stops soon
/// after another worker narrowed the value: a window search can take well under a millisecond).
const CANCEL_EVERY: usize = 64;

/// One open state.
struct Frame<S> {
    state: S,
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
    /// Moves (by offset from `moves_start`) put off because another worker was searching
    /// their child, to be searched after the others; `revisit` once those are under way.
    deferred: u64,
    revisit: bool,
    /// This state's slot in the shared busy marks (parallel searches only).
    busy_slot: Option<usize>,
}

/// Which states the workers of a parallel search have open: a counter per slot of a small
/// table, indexed by a hash of the state (a collision only defers a move needlessly).
pub(crate) struct BusyMarks<S> {
    counts: Vec<AtomicU32>,
    slot_of: Box<dyn Fn(&S) -> usize + Send + Sync>,
}

impl<S> BusyMarks<S> {
    /// Marks with `2^bits` slots, placing a state with `slot_of` (reduced modulo the size).
    pub(crate) fn new(bits: u32, slot_of: Box<dyn Fn(&S) -> usize + Send + Sync>) -> Self {
        BusyMarks {
            counts: (0..1usize << bits).map(|_| AtomicU32::new(0)).collect(),
            slot_of,
        }
    }

    #[inline]
    fn slot(&self, state: &S) -> usize {
        (self.slot_of)(state) & (self.counts.len() - 1)
    }

    /// Whether no state is marked (as between two parallel queries).
    pub(crate) fn is_clear(&self) -> bool {
        self.counts
            .iter()
            .all(|count| count.load(Ordering::Relaxed) == 0)
    }

    #[inline]
    fn is_busy(&self, slot: usize) -> bool {
        self.counts[slot].load(Ordering::Relaxed) > 0
    }
}

/// The reusable buffers of a pruning search.
pub(crate) struct Search<G: Game> {
    frames: Vec<Frame<G::State>>,
    moves: Vec<G::Move>,
    /// Where a state's moves are generated before they join `moves`: always empty when a game
    /// is handed it, so a game that clears the buffer cannot disturb the open states' moves.
    fresh: Vec<G::Move>,
    /// 0 for a sequential search or the main parallel worker; `k > 0` for a parallel helper
    /// (helpers may put off a node's first move, the main worker never does).
    helper: usize,
    stores: usize,
    /// Shared with the other workers of a parallel search: their open states.
    busy: Option<Arc<BusyMarks<G::State>>>,
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
            helper: 0,
            stores: 0,
            busy: None,
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
    /// A worker of a parallel search that defers moves other workers are searching.
    pub(crate) fn sharing(helper: usize, busy: Arc<BusyMarks<G::State>>) -> Self {
        Search {
            helper,
            busy: Some(busy),
            ..Search::default()
        }
    }

    /// Empties the stack, taking this worker's marks off the states it had open.
    fn clear(&mut self) {
        if let Some(busy) = &self.busy {
            for frame in &self.frames {
                if let Some(slot) = frame.busy_slot {
                    busy.counts[slot].fetch_sub(1, Ordering::Relaxed);
                }
            }
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
        debug_assert!(alpha < beta);
        if let Some(value) = game.known_value(state) {
            stats.known += 1;
            return valid(value);
        }
        let result = match self.enter(game, table, range, state.clone(), alpha, beta, stats) {
            Ok(Entry::Done(value, _)) => Ok(value),
            Ok(Entry::Opened) => self.run(game, table, range, stats, guard),
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
        let busy_slot = self.busy.as_ref().map(|busy| {
            let slot = busy.slot(&state);
            busy.counts[slot].fetch_add(1, Ordering::Relaxed);
            slot
        });
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
            deferred: 0,
            revisit: false,
            busy_slot,
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
            let frame = &mut self.frames[top];
            let end = self.moves.len();
            // Try moves until one needs a search of its own, or a cut-off, or none is left.
            let mut pending = None;
            while let Some(index) = next_move(frame, end) {
                let step = game.play(&frame.state, &self.moves[index]);
                let offset = index - frame.moves_start;
                // Another worker is searching this child: come back to it after the others.
                // The main worker (0) never defers a node's first move, so one worker always
                // follows the game's order; helpers may, and so start elsewhere.
                if let Some(busy) = &self.busy
                    && !frame.revisit
                    && (usize::from(self.helper == 0)..64).contains(&offset)
                    && busy.is_busy(busy.slot(&step.next))
                    && game.known_value(&step.next).is_none()
                {
                    frame.deferred |= 1 << offset;
                    continue;
                }
                let window = child_window(frame.alpha, frame.beta, step.gain, step.turn);
                let Some(known) = game.known_value(&step.next) else {
                    pending = Some((step, window));
                    break;
                };
                stats.known += 1;
                let value = move_value(step.gain, step.turn, valid(known)?, window, true)?;
                if raise(frame, value) {
                    cut(frame, end);
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
            // The top frame is done: store what it learned and hand its result down.
            let done = self.frames.pop().expect("a frame is open");
            if let (Some(busy), Some(slot)) = (&self.busy, done.busy_slot) {
                busy.counts[slot].fetch_sub(1, Ordering::Relaxed);
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
            if self.stores.is_multiple_of(CANCEL_EVERY) {
                guard.cancelled()?;
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
            self.child_done(self.frames.len() - 1, result, false)?;
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
            cut(frame, end);
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

/// The index of the frame's next move to try, if any: in order, then the deferred ones.
#[inline]
fn next_move<S>(frame: &mut Frame<S>, end: usize) -> Option<usize> {
    if !frame.revisit {
        if frame.next_move < end {
            frame.next_move += 1;
            return Some(frame.next_move - 1);
        }
        frame.revisit = true;
    }
    if frame.deferred == 0 {
        return None;
    }
    let offset = frame.deferred.trailing_zeros() as usize;
    frame.deferred &= frame.deferred - 1;
    Some(frame.moves_start + offset)
}

/// Ends a frame's move loop after a cut-off.
#[inline]
fn cut<S>(frame: &mut Frame<S>, end: usize) {
    frame.next_move = end;
    frame.deferred = 0;
}

/// Takes a move's value into its frame; true on a cut-off (the value reaches `beta`).
#[inline]
fn raise<S>(frame: &mut Frame<S>, value: Score) -> bool {
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
