//! The sequential negamax search: native dives over an explicit stack.
//!
//! Unbounded native recursion would overflow: a negamax-shaped frame is ~130 bytes in release,
//! and Stone Game VIII is 10⁶ moves deep. So each state is searched by a [`Dive`], a native
//! recursion bounded to [`NATIVE_BYTES`] of stack, and what a dive cannot finish moves onto the
//! explicit stack: each open state a [`Frame`] in a `Vec`, the moves of every open state in one
//! buffer (the top frame's moves are the buffer's tail). No state allocates.

use crate::engines::kernel::{
    AnyValue, CHECK_EVERY, CYCLE_DEPTH, KEPT_FRAMES, RangeSource, RunGuard, Stats, buffer_bytes,
    combine, cycle_on, valid,
};
use crate::error::SolveError;
use crate::game::{Game, Score, Step, Turn};
use crate::memo::MemoTable;
pub(super) use dive::Scan;
use dive::{Dive, Stop, arrange, levels_for};

mod dive;

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
    /// The next batch of the state's moves to ask for ([`Game::moves_batch`]); 0 once there
    /// is none.
    next_batch: usize,
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
    /// The move lists of a [`Dive`]'s levels, reused from dive to dive (allocated at the first
    /// search).
    levels: Vec<Vec<G::Move>>,
    /// The bytes `levels` holds.
    level_bytes: u64,
    /// Room for a deep dive's open states, kept between dives ([`Dive::pending`]).
    pending: Vec<Frame<G::State>>,
    /// 0: the game's order. Otherwise parallel workers spread out: an odd `order` tries each
    /// state's moves last to first, and `order / 2` rotates where it starts.
    order: usize,
    /// The stack bytes this search last reported to a shared account ([`RunGuard::stacks`]).
    reported: u64,
    /// The buffers' capacities at the last memory check.
    checked: (usize, usize),
    /// The frames from this one up keep their moves in `moves`; those below gave theirs back
    /// (`moves_start == DROPPED`) and generate them again when the search returns to them.
    kept_from: usize,
    /// Past this many bytes of moves, the open states below the top give theirs back.
    list_cap: usize,
}

/// A payoff of `Score::MIN` met while opening a state: [`SolveError::ScoreOverflow`].
struct Overflow;

/// A frame's `moves_start` once its moves were given back; its `next_move` is then relative.
const DROPPED: usize = usize::MAX;

/// The bytes of moves the open states may keep before those below the top give theirs back
/// (to be generated again when the search returns to them): memory then follows the table, not
/// depth × moves (Nim with a heap of 65 535 kept 65 535 lists of up to 65 535 moves).
const LIST_BYTES: usize = 8 << 20;

/// The native stack a [`Dive`] may use, at most (at its estimate of a level's frame): an eighth
/// of the 2 MiB a spawned thread (and so a rayon worker) gets by default. A thread that solves
/// needs this much free stack.
const NATIVE_BYTES: usize = 256 << 10;

/// The most levels a [`Dive`] recurses natively before the explicit stack takes over.
const MAX_LEVELS: usize = 1024;

/// The most bytes of moves a [`Dive`] searches at one level: a state with more is searched on
/// the explicit stack (whose move buffer gives moves back past [`LIST_BYTES`]). The levels hold
/// at most [`LIST_BYTES`] plus [`MAX_LEVELS`] × this.
const LEVEL_BYTES: usize = 2 << 10;

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

/// Appends `state`'s moves from batch `batch` on ([`Game::moves_batch`]) until at least one
/// move is appended or no batch follows; returns the number of the next batch, 0 if none
/// follows. Without a range to cut on (`R`), no batch would go unasked: every move at once
/// ([`Game::moves_into`]).
#[inline(always)]
pub(super) fn fetch<G: Game, R: RangeSource<G>>(
    game: &G,
    state: &G::State,
    mut batch: usize,
    moves: &mut Vec<G::Move>,
) -> usize {
    if !R::DECLARES {
        game.moves_into(state, moves);
        return 0;
    }
    let len = moves.len();
    loop {
        let more = game.moves_batch(state, batch, moves);
        batch += 1;
        if !more {
            return 0;
        }
        if moves.len() > len {
            return batch;
        }
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
) -> Result<Option<Score>, SolveError>
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

impl<G: Game, R: RangeSource<G>> Search<G, R> {
    /// A search that tries moves in the given order (0 = the game's order), cutting on `range`.
    pub(crate) fn with_range(order: usize, range: R) -> Self {
        Search {
            range,
            frames: Vec::new(),
            moves: Vec::new(),
            fresh: Vec::new(),
            levels: Vec::new(),
            level_bytes: 0,
            pending: Vec::new(),
            order,
            reported: 0,
            checked: (0, 0),
            kept_from: 0,
            list_cap: LIST_BYTES,
        }
    }

    /// The exact value of `state`, storing every state it expands in `table`.
    /// `Err(SolveError::Cancelled)` if `guard.cancel` was raised first.
    pub(crate) fn value<T: MemoTable<G>>(
        &mut self,
        game: &G,
        table: &mut T,
        state: &G::State,
        stats: &mut Stats,
        guard: RunGuard<'_>,
    ) -> Result<Score, SolveError> {
        if let Some(value) = lookup(game, table, state, stats)? {
            return Ok(value);
        }
        if self.levels.is_empty() {
            self.levels.resize_with(levels_for::<G>(), Vec::new);
            self.level_bytes = buffer_bytes(&self.levels);
        }
        let mut levels = std::mem::take(&mut self.levels);
        let mut dive = Dive {
            game,
            table,
            range: self.range,
            order: self.order,
            guard,
            pending: std::mem::take(&mut self.pending),
            deep: None,
            spare: Vec::new(),
            failure: None,
            hits: 0,
            known: 0,
            expanded: 0,
            terminal: 0,
            stored: 0,
            max_depth: 0,
            stack_bytes: self.stack_bytes(),
            level_bytes: self.level_bytes,
            reported: self.reported,
        };
        let result = self.run(&mut dive, &mut levels, state.clone());
        stats.hits += dive.hits;
        stats.known += dive.known;
        stats.expanded += dive.expanded;
        stats.terminal += dive.terminal;
        stats.max_depth = stats.max_depth.max(dive.max_depth);
        // The spare list goes with the dive.
        self.level_bytes = dive.level_bytes - buffer_bytes(&dive.spare);
        self.reported = dive.reported;
        self.pending = dive.pending;
        self.pending.clear();
        self.levels = levels;
        self.frames.clear();
        self.moves.clear();
        self.kept_from = 0;
        // A deep search's stack is not kept: the line and the queries that follow are checked
        // against the budget with the table alone.
        self.frames.shrink_to(KEPT_FRAMES);
        self.moves.shrink_to(KEPT_FRAMES);
        self.pending.shrink_to(0);
        guard.release(&mut self.reported);
        result
    }

    /// The bytes of the explicit stack's buffers.
    fn stack_bytes(&self) -> u64 {
        buffer_bytes(&self.frames)
            + buffer_bytes(&self.moves)
            + buffer_bytes(&self.fresh)
            + buffer_bytes(&self.pending)
    }

    /// Pushes `state` as a new frame if it has moves; else returns its payoff.
    /// The only error is an invalid payoff, as a marker with nothing to drop.
    #[inline(always)]
    fn open<T>(
        &mut self,
        dive: &mut Dive<'_, G, T, R>,
        state: G::State,
    ) -> Result<Option<Score>, Overflow> {
        let moves_start = self.moves.len();
        let next_batch = fetch::<G, R>(dive.game, &state, 0, &mut self.fresh);
        if self.fresh.is_empty() {
            dive.terminal += 1;
            let payoff = dive.game.payoff(&state);
            return if payoff == Score::MIN {
                Err(Overflow)
            } else {
                Ok(Some(payoff))
            };
        }
        self.moves.append(&mut self.fresh);
        dive.expanded += 1;
        arrange(self.order, &mut self.moves[moves_start..]);
        self.frames.push(Frame {
            state,
            moves_start,
            next_move: moves_start,
            best: Score::MIN,
            gain: 0,
            turn: Turn::Pass,
            next_batch,
        });
        dive.max_depth = dive.max_depth.max(self.frames.len());
        Ok(None)
    }

    /// Looks for the top state lower on the path: [`SolveError::Cycle`] if it is there.
    #[cold]
    fn find_cycle<T: MemoTable<G>>(&self, game: &G, table: &T) -> Result<(), SolveError> {
        cycle_on(
            game,
            self.frames.iter().map(|frame| &frame.state),
            |state| table.fingerprint(game, state),
            |a, b| table.same(game, a, b),
        )
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
    /// same order, since moves are a function of the state; for a game with batches, the
    /// batches it had been given, fetched and arranged in the same groups.
    #[cold]
    fn take_back(&mut self, game: &G) {
        let top = self.frames.len() - 1;
        let start = self.moves.len();
        let frame = &mut self.frames[top];
        let mut batch = 0;
        loop {
            let group = self.moves.len();
            batch = fetch::<G, R>(game, &frame.state, batch, &mut self.fresh);
            self.moves.append(&mut self.fresh);
            arrange(self.order, &mut self.moves[group..]);
            if batch == 0 || batch == frame.next_batch {
                break;
            }
        }
        frame.next_move += start;
        frame.moves_start = start;
        self.kept_from = top;
    }

    /// Whether the top frame's best move reached the top of its range: its other moves,
    /// given or not, cannot change its value.
    #[inline]
    fn decided(&self, game: &G, top: usize) -> bool {
        let frame = &self.frames[top];
        R::DECLARES && frame.best >= self.range.range(game, &frame.state).1
    }

    /// The top frame's next batch of moves, after the ones it has (which are the buffer's
    /// tail). A batch past the first comes from the game's own `moves_batch`, which only
    /// appends (the checker verifies it): straight into the buffer, with no copy (through
    /// `fresh`, the copy of a few moves cost more than making them: docs/performance.md).
    #[inline(never)]
    fn refill(&mut self, game: &G, top: usize) {
        let start = self.moves.len();
        let frame = &mut self.frames[top];
        frame.next_batch = fetch::<G, R>(game, &frame.state, frame.next_batch, &mut self.moves);
        arrange(self.order, &mut self.moves[start..]);
    }

    /// Moves a dive that could go no deeper natively onto the explicit stack: its open states
    /// become frames (their moves join the shared buffer), and the state it stopped at is
    /// opened there. Then the checks a growing stack owes: memory, and cycles once deep.
    #[cold]
    fn settle<T: MemoTable<G>>(
        &mut self,
        dive: &mut Dive<'_, G, T, R>,
        levels: &mut [Vec<G::Move>],
    ) -> Result<(), SolveError> {
        for (mut frame, moves) in dive.pending.drain(..).rev().zip(levels.iter_mut()) {
            frame.moves_start = self.moves.len();
            frame.next_move += frame.moves_start;
            self.moves.append(moves);
            self.frames.push(frame);
        }
        // A state with too many moves for a level ends a dive, but its level keeps the room
        // (freeing it each time would make a game with many moves a state, as Nim 1,16000,
        // reallocate them at every state), until the levels hold more than the move buffer's cap in all.
        if dive.level_bytes > LIST_BYTES as u64 {
            for moves in levels.iter_mut() {
                if buffer_bytes(moves) > LEVEL_BYTES as u64 {
                    dive.level_bytes -= buffer_bytes(moves);
                    moves.shrink_to(0);
                    dive.level_bytes += buffer_bytes(moves);
                }
            }
        }
        if let Some((state, next_batch)) = dive.deep.take() {
            // `out_of_levels` listed its moves in `spare` (it has some): they become the top
            // frame's, not generated a second time.
            let moves_start = self.moves.len();
            self.moves.append(&mut dive.spare);
            arrange(self.order, &mut self.moves[moves_start..]);
            dive.expanded += 1;
            self.frames.push(Frame {
                moves_start,
                next_move: moves_start,
                next_batch,
                ..Frame::fresh(state)
            });
            dive.max_depth = dive.max_depth.max(self.frames.len());
        }
        self.grown(dive)
    }

    /// What a stack that grew owes: moves given back past the cap, and when its buffers'
    /// capacity changed, the memory check, and the cycle check once deep.
    #[inline(always)]
    fn grown<T: MemoTable<G>>(&mut self, dive: &mut Dive<'_, G, T, R>) -> Result<(), SolveError> {
        if self.moves.len() * size_of::<G::Move>() > self.list_cap {
            self.give_back();
        }
        if self.capacities() != self.checked {
            self.check_growth(dive)
        } else {
            Ok(())
        }
    }

    /// [`grown`](Self::grown)'s checks, once the capacities changed.
    #[cold]
    fn check_growth<T: MemoTable<G>>(
        &mut self,
        dive: &mut Dive<'_, G, T, R>,
    ) -> Result<(), SolveError> {
        self.checked = self.capacities();
        dive.stack_bytes = self.stack_bytes();
        dive.check_memory(self.frames.len())?;
        if self.frames.len() >= CYCLE_DEPTH {
            self.find_cycle(dive.game, &*dive.table)?;
        }
        Ok(())
    }

    /// The search loop on the explicit stack. Each state it opens is searched by a native
    /// [`Dive`]; only the states a dive could not finish within its levels become frames here.
    /// The moves of the top frame are tried in a tight inner loop that keeps the best value
    /// and the move cursor in registers; it leaves only to search a child.
    #[inline(never)]
    fn run<T: MemoTable<G>>(
        &mut self,
        dive: &mut Dive<'_, G, T, R>,
        levels: &mut [Vec<G::Move>],
        root: G::State,
    ) -> Result<Score, SolveError> {
        match dive.dive(root, levels, 1) {
            Ok(value) => return Ok(value),
            Err(Stop::Deep) => self.settle(dive, levels)?,
            Err(Stop::Failed) => return Err(dive.failure()),
        }
        let game = dive.game;
        // Children known or stored, counted here and added to `dive`'s counts on the way out.
        let mut counts = (0, 0);
        let result = loop {
            let top = self.frames.len() - 1;
            if self.frames[top].moves_start == DROPPED {
                self.take_back(game);
            }
            let Ok(opened) = self.scan_top(game, &*dive.table, top, &mut counts) else {
                break Err(SolveError::ScoreOverflow);
            };
            if let Some(step) = opened {
                let frame = &mut self.frames[top];
                frame.gain = step.gain;
                frame.turn = step.turn;
                // Lines deeper than a dive can go were met below this depth, or the top is the
                // deepest state yet, where the last dive ran out of levels: the child is opened
                // here at once, as a dive would end up settling it here anyway (a dive from
                // every frame of a deep game costs more than the explicit stack alone).
                if top + 1 + levels.len() < dive.max_depth || top + 1 == dive.max_depth {
                    match self.open(dive, step.next) {
                        Ok(None) => {
                            if let Err(error) = self.grown(dive) {
                                break Err(error);
                            }
                        }
                        Ok(Some(payoff)) => match combine(step.gain, step.turn, payoff) {
                            Ok(value) => {
                                let frame = &mut self.frames[top];
                                frame.best = frame.best.max(value);
                            }
                            Err(error) => break Err(error),
                        },
                        Err(Overflow) => break Err(SolveError::ScoreOverflow),
                    }
                    continue;
                }
                match dive.dive(step.next, levels, top + 2) {
                    Ok(value) => match combine(step.gain, step.turn, value) {
                        Ok(value) => {
                            let frame = &mut self.frames[top];
                            frame.best = frame.best.max(value);
                        }
                        Err(error) => break Err(error),
                    },
                    Err(Stop::Deep) => {
                        if let Err(error) = self.settle(dive, levels) {
                            break Err(error);
                        }
                    }
                    Err(Stop::Failed) => break Err(dive.failure()),
                }
                continue;
            }
            // Moves left to try: a batch `scan_top` fetched but left to this loop's checks, or
            // the next batch to fetch.
            let frame = &self.frames[top];
            let unscanned = frame.next_move < self.moves.len();
            if (unscanned || frame.next_batch != 0) && !self.decided(game, top) {
                if !unscanned {
                    self.refill(game, top);
                }
                if let Err(error) = self.grown(dive) {
                    break Err(error);
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
                break Err(SolveError::ScoreOverflow);
            }
            if let Err(Stop::Failed) = dive.store(done.state, value, top + 1) {
                break Err(dive.failure());
            }
            let Some(parent) = self.frames.last_mut() else {
                break Ok(value);
            };
            match combine(parent.gain, parent.turn, value) {
                Ok(value) => parent.best = parent.best.max(value),
                Err(error) => break Err(error),
            }
        };
        (dive.known, dive.hits) = (dive.known + counts.0, dive.hits + counts.1);
        result
    }

    /// Scans the top frame's moves ([`Scan::run`]) and keeps where it stands; returns the
    /// child to search, if any, and the scan's counts. A function of its own, never inlined:
    /// inside the explicit loop, the game's `play` and `known_value` and the table's `get` were
    /// left as calls (docs/performance.md).
    #[inline(never)]
    fn scan_top<T: MemoTable<G>>(
        &mut self,
        game: &G,
        table: &T,
        top: usize,
        (known, hits): &mut (u64, u64),
    ) -> Result<Option<Step<G::State>>, Overflow> {
        let frame = &mut self.frames[top];
        // A declared range cuts: a state whose best move reaches its highest possible value
        // has that value, whatever its other moves do.
        let high = if R::DECLARES {
            self.range.range(game, &frame.state).1
        } else {
            Score::MAX
        };
        let mut scan = Scan::new::<G, R>(frame.next_move, frame.best, high, self.moves.len());
        let mut opened = scan.run::<G, T, R>(game, table, &frame.state, &self.moves);
        // The state's next batch is fetched here and scanned at once, without the search
        // loop's round trip, while the buffer needs no room it has not got: a reallocation, or
        // moves past the cap, are the loop's to check (`grown`), which it does after its own
        // `refill` of a batch fetched here as well.
        while opened.is_none() && frame.next_batch != 0 && !(R::DECLARES && scan.best >= scan.high)
        {
            let (start, capacity) = (self.moves.len(), self.moves.capacity());
            frame.next_batch = fetch::<G, R>(game, &frame.state, frame.next_batch, &mut self.moves);
            arrange(self.order, &mut self.moves[start..]);
            scan.next_move = start;
            if self.moves.capacity() != capacity
                || self.moves.len() * size_of::<G::Move>() > self.list_cap
            {
                break;
            }
            opened = scan.run::<G, T, R>(game, table, &frame.state, &self.moves);
        }
        frame.best = scan.best;
        frame.next_move = scan.next_move;
        (*known, *hits) = (*known + scan.known, *hits + scan.hits);
        if scan.overflow {
            Err(Overflow)
        } else {
            Ok(opened)
        }
    }

    /// The capacities of the frame stack and the move buffer.
    #[inline]
    fn capacities(&self) -> (usize, usize) {
        (self.frames.capacity(), self.moves.capacity())
    }
}

impl<S> Frame<S> {
    /// A frame for `state` before any of its moves is tried.
    fn fresh(state: S) -> Self {
        Frame {
            state,
            moves_start: 0,
            next_move: 0,
            best: Score::MIN,
            gain: 0,
            turn: Turn::Pass,
            next_batch: 0,
        }
    }
}

#[cfg(test)]
mod tests;
