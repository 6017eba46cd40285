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
//!
//! A state whose [forced move](Game::forced_move) the game knows is never opened: the search
//! plays the forced move and goes on from the state it leads to, the moves of the chain folded
//! into one step (their gains added, their turns composed). Before a state's first move is
//! searched, every child is looked at without a search (enhanced transposition cutoff: its known
//! value, the game's range, the table's entry), and a child that leads where an earlier one does
//! (a table that keeps mirror images as one) is dropped. When the state closes, its entry keeps
//! its bound, the move that was best (or cut it off), which a later search of the state tries
//! first, and the states its search expanded, by which a fixed table chooses what to keep.

use std::sync::Arc;

mod order;
mod sharing;
mod steps;

use steps::{child_window, follow_forced, follow_forced_in_place, move_bounds, move_value};

use super::split_points::{Next, SplitPoint, Team};
use crate::engines::kernel::{
    CHECK_EVERY, CYCLE_DEPTH, KEPT_FRAMES, RangeSource, RunGuard, Stats, buffer_bytes, cycle_on,
    valid,
};
use crate::error::SolveError;
use crate::game::{Game, Score, Step, Turn};
use crate::memo::{Bound, BoundTable, Entry};

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
    /// How many moves the game lists for the state.
    listed: usize,
    /// The window as entered (narrowed to the known range): `best ≤ alpha0` means fail-low.
    alpha0: Score,
    alpha: Score,
    beta: Score,
    /// What was known of the value before the search: the game's range and the table's bound.
    low: Score,
    high: Score,
    /// The best move value so far; `Score::MIN` until one is valued.
    best: Score,
    /// The index, in the game's order, of the move that gave `best` ([`NO_MOVE`]: none).
    best_index: u32,
    /// The move being searched above this frame: its index in the game's order, its gain and
    /// turn rule (of the chain of forced moves it starts), and the child's window.
    searching: u32,
    gain: Score,
    turn: Turn,
    child_alpha: Score,
    child_beta: Score,
    /// The search's count of expanded states when this frame was opened (how much work its
    /// moves have taken so far decides whether to share the others).
    opened_at: u64,
}

/// What the look at a state's children found of one move: its step, what the range and the
/// table said of the state it leads to, and that state's best move by the table.
type Looked<S> = (Step<S>, Bound, Option<u16>);

/// No move (a frame's best before a move is valued, or a move whose index is past the table's).
const NO_MOVE: u32 = u32::MAX;

/// The reusable buffers of a pruning search.
pub(crate) struct Search<G: Game> {
    frames: Vec<Frame<G>>,
    moves: Vec<G::Move>,
    /// Each move's index in the game's order of the state's moves (`moves` holds the moves
    /// the look at the children kept, compacted, so their places differ).
    order: Vec<u32>,
    /// Each kept move's step to the end of the forced moves after it, and what the game's range
    /// and the table said of the state it leads to, from the frame's look at its children
    /// (taken when the move is searched), with the move the table's entry names as the child's
    /// best, searched first there.
    steps: Vec<Option<Looked<G::State>>>,
    /// The table's fingerprints of the children kept so far by the look at a frame's children
    /// (each worked out once, to find a child that leads where an earlier one does).
    prints: Vec<Option<u64>>,
    /// Where a state's moves are generated before they join `moves`: always empty when a game
    /// is handed it, so a game that clears the buffer cannot disturb the open states' moves.
    fresh: Vec<G::Move>,
    /// Scratch for [`greediest_first`](Self::greediest_first).
    permutation: Vec<usize>,
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
            order: Vec::new(),
            steps: Vec::new(),
            prints: Vec::new(),
            fresh: Vec::new(),
            permutation: Vec::new(),
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

/// What the table and the game already say of a state's value, if that answers the window.
enum Entered {
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
        self.order.clear();
        self.steps.clear();
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
    ) -> Result<Score, SolveError> {
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
    ) -> Result<(Score, bool), SolveError> {
        debug_assert!(alpha < beta);
        // The state's own forced moves are followed as a move's are: as one step to the end.
        let root = Step {
            next: state.clone(),
            gain: 0,
            turn: Turn::Keep,
        };
        let (step, known) = follow_forced(game, root, stats)?;
        let window = child_window(alpha, beta, step.gain, step.turn);
        if let Some(known) = known {
            return move_value(step.gain, step.turn, known, window, true)
                .map(|value| (value, true));
        }
        let (gain, turn) = (step.gain, step.turn);
        let result = match self.enter(game, table, range, step.next, None, window, stats) {
            Ok(Entered::Done(value, exact)) => Ok((value, exact)),
            Ok(Entered::Opened) => self
                .run(game, table, range, stats, guard)
                .map(|value| (value, false)),
            Err(error) => Err(error),
        };
        self.clear();
        // A deep search's stack is not kept between searches (see the exhaustive engine).
        self.frames.shrink_to(KEPT_FRAMES);
        self.moves.shrink_to(KEPT_FRAMES);
        self.order.shrink_to(KEPT_FRAMES);
        self.steps.shrink_to(KEPT_FRAMES);
        guard.release(&mut self.reported);
        let (child, exact) = result?;
        move_value(gain, turn, child, window, exact).map(|value| (value, exact))
    }

    /// Answers `state` from the game's range and the table if they decide the window; else
    /// pushes its frame (or values it by its payoff if it has no move) and looks at its
    /// children ([`transpositions`](Self::transpositions)).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn enter<T: BoundTable<G>, R: RangeSource<G>>(
        &mut self,
        game: &G,
        table: &T,
        range: &R,
        state: G::State,
        known: Option<(Bound, Option<u16>)>,
        (alpha, beta): (Score, Score),
        stats: &mut Stats,
    ) -> Result<Entered, SolveError> {
        // The move to search first: the table's best of the state.
        let mut hint = known.and_then(|(_, best)| best);
        let (low, high) = match known {
            // What the parent's look at its children found: the range and the entry.
            Some((known, _)) => (known.lower, known.upper),
            None => {
                let (low, high) = range.range(game, &state);
                let (mut low, mut high) = (low.max(-Score::MAX), high);
                // The game's range first: when it decides, the table (a likely cache miss) is
                // spared.
                if let Some(done) = decided(low, high, alpha, beta) {
                    return Ok(done);
                }
                if let Some(entry) = table.get(game, &state) {
                    hint = entry.best;
                    low = low.max(entry.bound.lower);
                    high = high.min(entry.bound.upper);
                    if let Some(done) = decided(low, high, alpha, beta) {
                        stats.hits += 1;
                        return Ok(done);
                    }
                }
                (low, high)
            }
        };
        if let Some(done) = decided(low, high, alpha, beta) {
            return Ok(done);
        }
        let moves_start = self.moves.len();
        game.moves_into(&state, &mut self.fresh);
        let count = self.fresh.len();
        self.moves.append(&mut self.fresh);
        if count == 0 {
            stats.terminal += 1;
            return valid(game.payoff(&state)).map(|value| Entered::Done(value, true));
        }
        self.order.extend(0..count as u32);
        self.steps.resize_with(self.moves.len(), || None);
        stats.expanded += 1;
        let alpha = alpha.max(low);
        self.frames.push(Frame {
            state,
            moves_start,
            next_move: moves_start,
            listed: count,
            alpha0: alpha,
            alpha,
            beta: beta.min(high),
            low,
            high,
            best: Score::MIN,
            best_index: NO_MOVE,
            searching: NO_MOVE,
            gain: 0,
            turn: Turn::Pass,
            child_alpha: 0,
            child_beta: 0,
            opened_at: stats.expanded,
        });
        stats.max_depth = stats.max_depth.max(self.frames.len());
        self.transpositions(game, table, range, stats)?;
        self.greediest_first();
        if let Some(best) = hint {
            self.search_first(u32::from(best));
        }
        Ok(Entered::Opened)
    }

    /// Enhanced transposition cutoff: before the top frame's first move is searched, every
    /// move's child is looked at without a search, in two passes: first its known value, the
    /// forced moves after it and the game's range (the table's entries of the children still
    /// open are fetched meanwhile), then the table's entry. A move whose value is known, or
    /// known to be no more than the window's bottom, is dropped from the moves to search; one
    /// known to reach the window's top cuts the frame off; the largest value a move is known to
    /// reach raises the window's bottom (and the frame's best, which that move's search then
    /// proves or raises).
    fn transpositions<T: BoundTable<G>, R: RangeSource<G>>(
        &mut self,
        game: &G,
        table: &T,
        range: &R,
        stats: &mut Stats,
    ) -> Result<(), SolveError> {
        let top = self.frames.len() - 1;
        let frame = &mut self.frames[top];
        let start = frame.moves_start;
        let end = self.moves.len();
        let mut keep = start;
        for index in start..end {
            // Worked on in place (a step holds a whole state: moved only where a move is kept
            // ahead of one dropped).
            let played = game.play(&frame.state, &self.moves[index]);
            let (step, bound, _) = self.steps[index].insert((played, Bound::ANY, None));
            let known = follow_forced_in_place(game, step, stats)?;
            let (child, (low, high)) = match known {
                Some(value) => {
                    let window = child_window(frame.alpha, frame.beta, step.gain, step.turn);
                    let value = move_value(step.gain, step.turn, value, window, true)?;
                    (Bound::ANY, (value, value))
                }
                None => {
                    // The entry is fetched from here on, while the child's range and the other
                    // children are worked out (not a known child's: its key may cost more than
                    // the probe it would save).
                    if T::PREFETCH {
                        table.prefetch(game, &step.next);
                    }
                    let (low, high) = range.range(game, &step.next);
                    let child = Bound::new(low.max(-Score::MAX), high);
                    (child, move_bounds(step, child))
                }
            };
            if let Some(cut) = settled(frame, (low, high), self.order[index]) {
                if cut {
                    return self.cut_off(top, start);
                }
                continue;
            }
            *bound = child;
            if keep != index {
                self.moves.swap(keep, index);
                self.order.swap(keep, index);
                self.steps.swap(keep, index);
            }
            keep += 1;
        }
        let end = keep;
        self.moves.truncate(end);
        self.order.truncate(end);
        self.steps.truncate(end);
        let mut keep = start;
        self.prints.clear();
        for index in start..end {
            // Read in place (a step holds a whole state: moved only where a move is kept ahead
            // of one dropped).
            let (step, child, _) = self.steps[index].as_ref().expect("a kept move's step");
            let entry = table.get(game, &step.next);
            let mut child = *child;
            if let Some(entry) = entry {
                child = child.intersect(entry.bound);
            }
            let (low, high) = move_bounds(step, child);
            let move_index = self.order[index];
            if let Some(cut) = settled(frame, (low, high), move_index) {
                stats.hits += u64::from(entry.is_some());
                if cut {
                    return self.cut_off(top, start);
                }
                continue;
            }
            // A move that leads where an earlier one does (the same state, or one the table
            // keeps as the same: a mirror image) is worth what that one is.
            let fingerprint = table.fingerprint(game, &step.next);
            let twin = fingerprint.is_some()
                && (start..keep).zip(&self.prints).any(|(kept, &print)| {
                    let (earlier, _, _) = self.steps[kept].as_ref().expect("a kept move's step");
                    print == fingerprint
                        && earlier.gain == step.gain
                        && earlier.turn == step.turn
                        && table.same(game, &earlier.next, &step.next)
                });
            if twin {
                continue;
            }
            self.prints.push(fingerprint);
            if low > frame.alpha {
                frame.alpha = low;
                if low > frame.best {
                    frame.best = low;
                    frame.best_index = move_index;
                }
            }
            if let Some((_, bound, best)) = &mut self.steps[index] {
                *bound = child;
                *best = entry.and_then(|entry| entry.best);
            }
            if keep != index {
                self.moves.swap(keep, index);
                self.order.swap(keep, index);
                self.steps.swap(keep, index);
            }
            keep += 1;
        }
        // The moves to search are the ones kept, in their order.
        self.moves.truncate(keep);
        self.order.truncate(keep);
        self.steps.truncate(keep);
        Ok(())
    }

    /// The top frame (index `top`, its moves from `start`) is cut off by what its look at its
    /// children found: it has no move left to search.
    fn cut_off(&mut self, top: usize, start: usize) -> Result<(), SolveError> {
        self.frames[top].next_move = start;
        self.moves.truncate(start);
        self.order.truncate(start);
        self.steps.truncate(start);
        Ok(())
    }

    /// Runs the open frames to completion; the bottom frame's result is the answer.
    fn run<T: BoundTable<G>, R: RangeSource<G>>(
        &mut self,
        game: &G,
        table: &mut T,
        range: &R,
        stats: &mut Stats,
        guard: RunGuard<'_>,
    ) -> Result<Score, SolveError> {
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
            // The next move to search: every move the look at the children kept needs a
            // search of its own (the others were decided there), and carries its step.
            let mut wait = false;
            if let Some(index) = next_move(frame, split, end, &mut wait) {
                let (step, child, best) = self.steps[index]
                    .take()
                    .expect("a move kept by the look at the children has its step");
                let window = child_window(frame.alpha, frame.beta, step.gain, step.turn);
                frame.gain = step.gain;
                frame.turn = step.turn;
                frame.searching = self.order[index];
                (frame.child_alpha, frame.child_beta) = window;
                let known = Some((child, best));
                let entry = self.enter(game, table, range, step.next, known, window, stats)?;
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
                if let Entered::Done(value, exact) = entry {
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
            // Read in place and dropped there (moving a whole frame out costs a copy of it).
            let top = self.frames.len() - 1;
            if !self.splits.is_empty() {
                self.withdraw_from(top);
            }
            let done = &self.frames[top];
            self.moves.truncate(done.moves_start);
            self.order.truncate(done.moves_start);
            self.steps.truncate(done.moves_start);
            debug_assert!(done.best != Score::MIN, "a frame has at least one move");
            let result = done.best.clamp(done.low, done.high);
            let bound = if done.best <= done.alpha0 {
                Bound::new(done.low, result)
            } else if done.best >= done.beta {
                Bound::new(result, done.high)
            } else {
                Bound::exactly(result)
            };
            let mut entry = Entry::new(bound);
            if let Ok(best) = u16::try_from(done.best_index) {
                entry = entry.with_best(best);
            }
            table.store(
                game,
                &done.state,
                entry,
                stats.expanded - done.opened_at + 1,
            );
            self.frames.truncate(top);
            self.stores += 1;
            let mut unwound = false;
            if self.stores.is_multiple_of(CANCEL_EVERY) {
                guard.cancelled()?;
                // A trial run (the parallel engine's first look) ends after so many states.
                if guard.trial_over(stats.expanded, stats.expanded + stats.hits) {
                    return Err(SolveError::Cancelled);
                }
                if self.under.as_ref().is_some_and(|under| under.stopped()) {
                    return Err(SolveError::Cancelled);
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
    fn child_done(&mut self, index: usize, child: Score, exact: bool) -> Result<(), SolveError> {
        let end = self.moves.len();
        let frame = &mut self.frames[index];
        let window = (frame.child_alpha, frame.child_beta);
        let value = move_value(frame.gain, frame.turn, child, window, exact)?;
        if raise(frame, value, frame.searching) {
            cut(frame, split_of(index, &self.splits), end);
        }
        Ok(())
    }

    /// Errors if the table's peak plus the stack would exceed the budget, or on cancellation.
    fn check_memory<T: BoundTable<G>>(
        &mut self,
        table: &T,
        guard: RunGuard<'_>,
    ) -> Result<(), SolveError> {
        let stack = buffer_bytes(&self.frames)
            + buffer_bytes(&self.moves)
            + buffer_bytes(&self.order)
            + buffer_bytes(&self.steps)
            + buffer_bytes(&self.fresh);
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
fn decided(low: Score, high: Score, alpha: Score, beta: Score) -> Option<Entered> {
    if low >= high {
        Some(Entered::Done(low, true))
    } else if high <= alpha {
        Some(Entered::Done(high, false))
    } else if low >= beta {
        Some(Entered::Done(low, false))
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
            raise(frame, best, NO_MOVE);
            Some(index)
        }
        Next::Wait => {
            *wait = true;
            None
        }
        Next::Done(best) => {
            raise(frame, best, NO_MOVE);
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

/// A move whose bounds `(low, high)` decide it without a search (a value, a cut-off, or no
/// better than the window's bottom) is taken into its frame as `raise` takes a value: `None`
/// if it needs a search, else whether it cut the frame off.
#[inline]
fn settled<G: Game>(frame: &mut Frame<G>, (low, high): (Score, Score), index: u32) -> Option<bool> {
    if low == high || low >= frame.beta || high <= frame.alpha {
        Some(raise(
            frame,
            if low >= frame.beta { low } else { high },
            index,
        ))
    } else {
        None
    }
}

/// Takes the value of the move whose index in the game's order is `index` into its frame
/// ([`NO_MOVE`]: the helpers' best); true on a cut-off (the value reaches `beta`).
#[inline]
fn raise<G: Game>(frame: &mut Frame<G>, value: Score, index: u32) -> bool {
    if value > frame.best {
        frame.best = value;
        frame.best_index = index;
    }
    if value >= frame.beta {
        return true;
    }
    frame.alpha = frame.alpha.max(value);
    false
}
