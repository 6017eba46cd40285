//! The sequential negamax search, on an explicit stack.
//!
//! Native recursion would overflow: a negamax-shaped frame is ~130 bytes in release, and Stone
//! Game VIII is 10⁶ moves deep. Here each open state is a [`Frame`] in a `Vec`, and the moves of
//! every open state share one buffer (the top frame's moves are the buffer's tail), so no node
//! allocates.

use std::mem::size_of;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::error::{Bytes, Error};
use crate::game::{Game, Score, Turn};
use crate::memo::MemoTable;
use crate::solve::prune::{AnyValue, RangeSource};
use crate::solve::{Limits, Progress};

use super::Stats;

/// How many stores pass between two checks of the memory budget.
const CHECK_EVERY: usize = 1024;

/// From this depth on, each time the stack's capacity grows (its depth doubles), the search
/// looks for a state twice on its path: a cycle makes the path grow without end, so it is found
/// by the next doubling after the path has gone round once, at a cost of one pass over the
/// path per doubling (nothing per node).
pub(crate) const CYCLE_DEPTH: usize = 1024;

/// How many frames (and moves) a search keeps room for between two searches.
pub(crate) const KEPT_FRAMES: usize = 4096;

/// One open state: its moves are `moves[moves_start..]` up to the next frame's start.
struct Frame<S> {
    state: S,
    /// Where this state's moves begin in the shared buffer.
    moves_start: usize,
    /// The next move to try.
    next_move: usize,
    /// The best value found so far; `Score::MIN` until the first move is valued.
    best: Score,
    /// The gain and turn rule of the move whose subgame is being searched above this frame.
    gain: Score,
    turn: Turn,
}

/// The reusable buffers of a search, the order in which it tries moves, and the value ranges
/// it may cut on (`AnyValue`: none).
pub(crate) struct Search<G: Game, R = AnyValue> {
    /// Where a state's best possible value lies: once a move reaches it, the state's other
    /// moves cannot do better and are skipped (its value is still exact).
    range: R,
    frames: Vec<Frame<G::State>>,
    moves: Vec<G::Move>,
    /// Where a state's moves are generated before they join `moves`: always empty when a game
    /// is handed it, so a game that clears the buffer cannot disturb the open states' moves.
    fresh: Vec<G::Move>,
    /// 0: the game's order. Otherwise parallel workers spread out: an odd `order` tries each
    /// state's moves last to first, and `order / 2` rotates where it starts.
    order: usize,
    /// The stack bytes this search last reported to a shared account ([`Bounds::stacks`]).
    reported: u64,
    /// The buffers' capacities at the last memory check.
    checked: (usize, usize),
    /// The frames from this one up keep their moves in `moves`; those below gave theirs back
    /// (`moves_start == DROPPED`) and generate them again when the search returns to them.
    kept_from: usize,
    /// Past this many bytes of moves, the open states below the top give theirs back.
    list_cap: usize,
}

/// A payoff of `Score::MIN` met while opening a state: [`Error::ScoreOverflow`].
struct Overflow;

/// A frame's `moves_start` once its moves were given back; its `next_move` is then relative.
const DROPPED: usize = usize::MAX;

/// The bytes of moves the open states may keep before those below the top give theirs back
/// (to be generated again when the search returns to them): memory then follows the table, not
/// depth × moves (Nim with a heap of 65 535 kept 65 535 lists of up to 65 535 moves).
const LIST_BYTES: usize = 8 << 20;

impl<G: Game> Default for Search<G> {
    fn default() -> Self {
        Search::new(0)
    }
}

impl<G: Game> Search<G> {
    /// A search that tries moves in the given order (0 = the game's order).
    pub(crate) fn new(order: usize) -> Self {
        Search::with_range(order, AnyValue)
    }
}

/// The heap bytes a vector's buffer holds. (Each buffer is counted on its own: a vector of a
/// zero-sized type has a capacity of `usize::MAX` and no bytes.)
#[inline]
pub(crate) fn buffer_bytes<T>(buffer: &Vec<T>) -> u64 {
    (buffer.capacity() * size_of::<T>()) as u64
}

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
fn signed(turn: Turn, child: Score) -> Score {
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

/// The value of `state` if it needs no search: known to the game, or stored. (The search
/// loop takes the same two steps inline, with its counters in locals.)
#[inline]
fn lookup<G, T>(
    game: &G,
    table: &T,
    state: &G::State,
    stats: &mut Stats,
) -> Result<Option<Score>, Error>
where
    G: Game + ?Sized,
    T: MemoTable<G>,
{
    if let Some(value) = game.known_value(state) {
        stats.known += 1;
        return valid(value).map(Some);
    }
    let stored = table.get(game, state);
    stats.hits += u64::from(stored.is_some());
    Ok(stored)
}

/// [`Error::Cycle`] if the top of `path` (a search's open states, root first) is on it
/// already, found through a table's `fingerprint` and `same`; nothing if the table cannot tell.
///
/// A search caught in a cycle goes round it for ever, opening the same states in the same order
/// (their earlier moves are stored by then), so once its path has gone round once, its top
/// state is also one cycle length below: looking only at the top finds the cycle at the next
/// look after that, at the cost of one fingerprint per open state (no map, no allocation).
#[cold]
pub(crate) fn cycle_on<'s, G: Game + ?Sized>(
    game: &G,
    mut path: impl DoubleEndedIterator<Item = &'s G::State> + ExactSizeIterator,
    fingerprint: impl Fn(&G::State) -> Option<u64>,
    same: impl Fn(&G::State, &G::State) -> bool,
) -> Result<(), Error>
where
    G::State: 's,
{
    let Some(top) = path.next_back() else {
        return Ok(());
    };
    let Some(key) = fingerprint(top) else {
        return Ok(());
    };
    let below = path.len();
    for (depth, state) in path.enumerate() {
        if fingerprint(state) == Some(key) && same(state, top) {
            return Err(Error::Cycle {
                depth,
                length: below - depth,
                state: game.state_text(top),
            });
        }
    }
    Ok(())
}

/// What a search must respect besides its table: the memory budget, the time limit (as a
/// deadline, with the limit for the message), (for parallel helpers) a flag that says
/// another search has already found the value, and (for parallel workers) the account of every
/// worker's stack bytes, so that the budget caps their total, not each one alone.
#[derive(Clone, Copy)]
pub(crate) struct Bounds<'a> {
    pub(crate) budget: u64,
    pub(crate) deadline: Option<(Instant, Duration)>,
    pub(crate) cancel: Option<&'a AtomicBool>,
    pub(crate) stacks: Option<&'a AtomicU64>,
    /// Stop with `Error::Cancelled` after about this many stores (a trial run).
    pub(crate) stores: Option<usize>,
    /// Where each check publishes the table's size and the bytes held.
    pub(crate) progress: Option<&'static Progress>,
}

impl<G: Game, R: RangeSource<G>> Search<G, R> {
    /// A search that tries moves in the given order (0 = the game's order), cutting on `range`.
    pub(crate) fn with_range(order: usize, range: R) -> Self {
        Search {
            range,
            frames: Vec::new(),
            moves: Vec::new(),
            fresh: Vec::new(),
            order,
            reported: 0,
            checked: (0, 0),
            kept_from: 0,
            list_cap: LIST_BYTES,
        }
    }

    /// The exact value of `state`, storing every state it expands in `table`.
    /// `Err(Error::Cancelled)` if `bounds.cancel` was raised first.
    pub(crate) fn value<T: MemoTable<G>>(
        &mut self,
        game: &G,
        table: &mut T,
        state: &G::State,
        stats: &mut Stats,
        bounds: Bounds<'_>,
    ) -> Result<Score, Error> {
        if let Some(value) = lookup(game, table, state, stats)? {
            return Ok(value);
        }
        let result = self.search(game, table, state.clone(), stats, bounds);
        self.frames.clear();
        self.moves.clear();
        self.kept_from = 0;
        // A deep search's stack is not kept: the line and the queries that follow are checked
        // against the budget with the table alone.
        self.frames.shrink_to(KEPT_FRAMES);
        self.moves.shrink_to(KEPT_FRAMES);
        bounds.release(&mut self.reported);
        result
    }

    /// Pushes `state` as a new frame if it has moves; else returns its payoff.
    #[inline(always)]
    /// The only error is an invalid payoff, as a marker with nothing to drop (an `Error` in
    /// the result cost a drop check per node).
    fn open(
        &mut self,
        game: &G,
        state: G::State,
        stats: &mut Stats,
    ) -> Result<Option<Score>, Overflow> {
        let moves_start = self.moves.len();
        game.moves(&state, &mut self.fresh);
        let generated = self.fresh.len();
        if generated == 0 {
            stats.terminal += 1;
            let payoff = game.payoff(&state);
            return if payoff == Score::MIN {
                Err(Overflow)
            } else {
                Ok(Some(payoff))
            };
        }
        self.moves.append(&mut self.fresh);
        stats.expanded += 1;
        self.arrange(moves_start);
        self.frames.push(Frame {
            state,
            moves_start,
            next_move: moves_start,
            best: Score::MIN,
            gain: 0,
            turn: Turn::Pass,
        });
        stats.max_depth = stats.max_depth.max(self.frames.len());
        if self.moves.len() * size_of::<G::Move>() > self.list_cap {
            self.give_back();
        }
        Ok(None)
    }

    /// Looks for the top state lower on the path: [`Error::Cycle`] if it is there.
    #[cold]
    fn find_cycle<T: MemoTable<G>>(&self, game: &G, table: &T) -> Result<(), Error> {
        cycle_on(
            game,
            self.frames.iter().map(|frame| &frame.state),
            |state| table.fingerprint(game, state),
            |a, b| table.same(game, a, b),
        )
    }

    /// Puts the moves from `start` on in this search's order.
    #[inline]
    fn arrange(&mut self, start: usize) {
        if self.order != 0 {
            let moves = &mut self.moves[start..];
            if self.order % 2 == 1 {
                moves.reverse();
            }
            let rotation = (self.order / 2) % moves.len();
            moves.rotate_left(rotation);
        }
    }

    /// Every open state below the top gives its moves back; the top's move to the front.
    #[cold]
    fn give_back(&mut self) {
        let top = self.frames.len() - 1;
        if self.kept_from == top {
            return; // The top's own moves are all there is.
        }
        for frame in &mut self.frames[self.kept_from..top] {
            frame.next_move -= frame.moves_start;
            frame.moves_start = DROPPED;
        }
        let shift = self.frames[top].moves_start;
        self.moves.drain(..shift);
        let frame = &mut self.frames[top];
        frame.moves_start = 0;
        frame.next_move -= shift;
        self.kept_from = top;
    }

    /// The top state's moves, generated again (they were given back): the same moves in the
    /// same order, since moves are a function of the state.
    #[cold]
    fn take_back(&mut self, game: &G) {
        let top = self.frames.len() - 1;
        let start = self.moves.len();
        game.moves(&self.frames[top].state, &mut self.fresh);
        self.moves.append(&mut self.fresh);
        self.arrange(start);
        let frame = &mut self.frames[top];
        frame.next_move += start;
        frame.moves_start = start;
        self.kept_from = top;
    }

    fn search<T: MemoTable<G>>(
        &mut self,
        game: &G,
        table: &mut T,
        root: G::State,
        stats: &mut Stats,
        bounds: Bounds<'_>,
    ) -> Result<Score, Error> {
        if let Some(value) = self
            .open(game, root, stats)
            .map_err(|Overflow| Error::ScoreOverflow)?
        {
            return Ok(value);
        }
        self.run(game, table, stats, bounds)
    }

    /// The search loop. The moves of the top frame are tried in a tight inner loop that keeps
    /// the best value and the move cursor in registers; it leaves only to open a child.
    fn run<T: MemoTable<G>>(
        &mut self,
        game: &G,
        table: &mut T,
        stats: &mut Stats,
        bounds: Bounds<'_>,
    ) -> Result<Score, Error> {
        // Counters live in locals (registers) in the hot loop and reach `stats` on every exit.
        // Stores are counted here too: a concurrent table's `len` may be slow or shared.
        let mut hits = 0u64;
        let mut known = 0u64;
        let mut stored = 0usize;
        let result = loop {
            let top = self.frames.len() - 1;
            if self.frames[top].moves_start == DROPPED {
                self.take_back(game);
            }
            let frame = &mut self.frames[top];
            let moves = &self.moves[..];
            let mut best = frame.best;
            let mut next_move = frame.next_move;
            // A declared range cuts: a state whose best move reaches its highest possible
            // value has that value, whatever its other moves do.
            let high = if R::DECLARES {
                self.range.range(game, &frame.state).1
            } else {
                Score::MAX
            };
            if R::DECLARES && best >= high {
                next_move = moves.len();
            }
            // Overflow is rare: collect it without branching and check once per frame.
            let mut overflow = false;
            let mut opened = None;
            while let Some(mv) = moves.get(next_move) {
                next_move += 1;
                let step = game.play(&frame.state, mv);
                let child = if let Some(value) = game.known_value(&step.next) {
                    known += 1;
                    overflow |= value == Score::MIN;
                    value
                } else if let Some(value) = table.get(game, &step.next) {
                    hits += 1;
                    value
                } else {
                    opened = Some(step);
                    break;
                };
                let (value, wrapped) = step.gain.overflowing_add(signed(step.turn, child));
                // A value of exactly `Score::MIN` is caught when the frame closes: it can only
                // matter if it is the best, and then `best` is `Score::MIN`.
                overflow |= wrapped;
                best = best.max(value);
                if R::DECLARES && best >= high {
                    next_move = moves.len();
                }
            }
            frame.best = best;
            frame.next_move = next_move;
            if overflow {
                break Err(Error::ScoreOverflow);
            }
            if let Some(step) = opened {
                frame.gain = step.gain;
                frame.turn = step.turn;
                match self.open(game, step.next, stats) {
                    // The stack grew: checked when its buffers' capacity changes, not per node
                    // (a terminal child pushes nothing).
                    Ok(None) if self.capacities() != self.checked => {
                        self.checked = self.capacities();
                        if let Err(error) = self.check_memory(table, bounds) {
                            break Err(error);
                        }
                        if self.frames.len() >= CYCLE_DEPTH
                            && let Err(error) = self.find_cycle(game, table)
                        {
                            break Err(error);
                        }
                    }
                    Ok(None) => {}
                    Ok(Some(payoff)) => {
                        let frame = &mut self.frames[top];
                        match combine(step.gain, step.turn, payoff) {
                            Ok(value) => frame.best = frame.best.max(value),
                            Err(error) => break Err(error),
                        }
                    }
                    Err(Overflow) => break Err(Error::ScoreOverflow),
                }
                continue;
            }
            let done = self
                .frames
                .pop()
                .expect("the loop runs while a frame is open");
            self.moves.truncate(done.moves_start);
            let value = done.best;
            if value == Score::MIN {
                break Err(Error::ScoreOverflow);
            }
            // An exact engine opens a state only when the table has no value for it, so a
            // different value there now means two states share one key. Checked in debug
            // builds: the answer would be wrong.
            debug_assert!(
                table.get(game, &done.state).is_none_or(|old| old == value),
                "two states share one memo key: the table already holds {:?} where a state of \
                 value {value} is stored (a DenseIndex collision, or Hash and Eq that disagree; \
                 gamesolver::check::check_dense finds the two states)",
                table.get(game, &done.state)
            );
            table.insert(game, done.state, value);
            stored += 1;
            if stored.is_multiple_of(CHECK_EVERY) {
                if let Err(error) = self.check_memory(table, bounds) {
                    break Err(error);
                }
                if bounds.stores.is_some_and(|most| stored >= most) {
                    break Err(Error::Cancelled);
                }
            }
            let Some(parent) = self.frames.last_mut() else {
                break Ok(value);
            };
            match combine(parent.gain, parent.turn, value) {
                Ok(value) => parent.best = parent.best.max(value),
                Err(error) => break Err(error),
            }
        };
        stats.hits += hits;
        stats.known += known;
        result
    }

    /// The capacities of the frame stack and the move buffer.
    #[inline]
    fn capacities(&self) -> (usize, usize) {
        (self.frames.capacity(), self.moves.capacity())
    }

    /// Errors if the table's coming peak plus the stack would exceed the budget, or if the
    /// search was cancelled.
    fn check_memory<T: MemoTable<G>>(
        &mut self,
        table: &T,
        bounds: Bounds<'_>,
    ) -> Result<(), Error> {
        let stack =
            buffer_bytes(&self.frames) + buffer_bytes(&self.moves) + buffer_bytes(&self.fresh);
        bounds.check(
            table.peak_bytes(CHECK_EVERY),
            &mut self.reported,
            stack,
            "memo",
            table.len(),
            self.frames.len(),
        )
    }
}

impl<'a> Bounds<'a> {
    /// The bounds of a search starting now under `limits`.
    pub(crate) fn new(limits: Limits, cancel: Option<&'a AtomicBool>) -> Self {
        Bounds {
            budget: limits.memory_budget,
            deadline: limits
                .time_limit
                .and_then(|limit| Some((Instant::now().checked_add(limit)?, limit))),
            cancel,
            stacks: None,
            stores: None,
            progress: limits.progress,
        }
    }

    /// The same bounds, with the stacks of every search that shares `stacks` counted together.
    pub(crate) fn sharing(self, stacks: &'a AtomicU64) -> Self {
        Bounds {
            stacks: Some(stacks),
            ..self
        }
    }

    /// Reports that this search's stack now holds `now` bytes (it last reported `*reported`);
    /// returns the stack bytes of every search sharing the account (just `now` without one).
    pub(crate) fn stack_total(self, reported: &mut u64, now: u64) -> u64 {
        let Some(stacks) = self.stacks else {
            return now;
        };
        let before = std::mem::replace(reported, now);
        if now >= before {
            stacks.fetch_add(now - before, Ordering::Relaxed) + (now - before)
        } else {
            stacks.fetch_sub(before - now, Ordering::Relaxed) - (before - now)
        }
    }

    /// Takes this search's stack out of the shared account (its search has returned).
    pub(crate) fn release(self, reported: &mut u64) {
        self.stack_total(reported, 0);
    }

    /// `Err(Error::Cancelled)` once the search's cancel flag is raised.
    #[inline]
    pub(crate) fn cancelled(self) -> Result<(), Error> {
        if self
            .cancel
            .is_some_and(|cancel| cancel.load(Ordering::Relaxed))
        {
            Err(Error::Cancelled)
        } else {
            Ok(())
        }
    }

    /// Errors if the search was cancelled, or if a table whose coming peak is `table_bytes`
    /// plus the stacks (this search's `stack_bytes`, reported to the shared account through
    /// `reported`, and the others') would exceed the budget. A stack may double at its next
    /// push: the old and the new buffers are both counted, and a third for slack.
    pub(crate) fn check(
        self,
        table_bytes: u64,
        reported: &mut u64,
        stack_bytes: u64,
        kind: &str,
        entries: usize,
        depth: usize,
    ) -> Result<(), Error> {
        let stack_bytes = self.stack_total(reported, stack_bytes);
        if let Some(progress) = self.progress {
            progress.record(entries as u64, table_bytes.saturating_add(stack_bytes));
        }
        self.cancelled()?;
        if let Some((deadline, limit)) = self.deadline
            && Instant::now() >= deadline
        {
            return Err(Error::TimeLimit {
                limit,
                progress: format!("{entries} states in the {kind} table, {depth} deep"),
            });
        }
        let needed = table_bytes.saturating_add(stack_bytes.saturating_mul(3));
        if needed > self.budget {
            return Err(Error::MemoryBudget {
                what: format!(
                    "the search ({kind} table of {entries} states, {}; stack {depth} states deep)",
                    Bytes(table_bytes)
                ),
                needed,
                budget: self.budget,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Nim, StoneGameII, StoneGameVIII};
    use crate::memo::HashTable;

    /// The value of `game`'s start by a search in `order` that gives its moves back past
    /// `list_cap` bytes.
    fn value_with_cap<G>(game: &G, order: usize, list_cap: usize) -> (Score, usize)
    where
        G: Game,
        G::State: Eq + std::hash::Hash,
    {
        let mut search = Search::new(order);
        search.list_cap = list_cap;
        let mut table = HashTable::new();
        let value = search
            .value(
                game,
                &mut table,
                &game.start(),
                &mut Stats::default(),
                Bounds::new(Limits::unlimited(), None),
            )
            .unwrap();
        (value, MemoTable::<G>::len(&table))
    }

    /// Giving moves back (at every push, with a cap of 0) and taking them back changes no value
    /// and no stored state, in every search order.
    fn gives_back_exactly<G>(game: &G)
    where
        G: Game,
        G::State: Eq + std::hash::Hash,
    {
        for order in 0..5 {
            assert_eq!(
                value_with_cap(game, order, 0),
                value_with_cap(game, order, LIST_BYTES),
                "order {order}"
            );
        }
    }

    #[test]
    fn moves_given_back_are_taken_back_exactly() {
        gives_back_exactly(&Nim::new(vec![3, 4, 5]).unwrap());
        gives_back_exactly(&Nim::new(vec![1, 40]).unwrap());
        let piles = (1..=30).map(|i| i * 37 % 11 + 1).collect();
        gives_back_exactly(&StoneGameII::new(piles).unwrap());
        let stones = (0..200).map(|i| (i * 7919 % 201) - 100).collect();
        gives_back_exactly(&StoneGameVIII::new(stones).unwrap().stepwise());
    }

    #[test]
    fn the_move_buffer_stays_near_its_cap() {
        // One heap of 3000, the smallest take first (order 1 reverses Nim's order): a line
        // 3000 states deep, each with up to 3000 moves (9·10⁶ moves if every open state kept
        // its list). Within 4 MiB only when they give them back.
        let game = Nim::new(vec![1, 3000]).unwrap();
        let solve = |list_cap| {
            let mut search = Search::new(1);
            search.list_cap = list_cap;
            search.value(
                &game,
                &mut HashTable::new(),
                &game.start(),
                &mut Stats::default(),
                Bounds::new(Limits::with_memory_budget(4 << 20), None),
            )
        };
        assert_eq!(solve(64 << 10), Ok(1)); // 1 XOR 3000 is not 0: the first player wins.
        assert!(matches!(solve(usize::MAX), Err(Error::MemoryBudget { .. })));
    }
}
