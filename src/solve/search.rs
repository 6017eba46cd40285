//! The sequential negamax search: native dives over an explicit stack.
//!
//! Unbounded native recursion would overflow: a negamax-shaped frame is ~130 bytes in release,
//! and Stone Game VIII is 10⁶ moves deep. So each state is searched by a [`Dive`], a native
//! recursion bounded to [`NATIVE_BYTES`] of stack, and what a dive cannot finish moves onto the
//! explicit stack: each open state a [`Frame`] in a `Vec`, the moves of every open state in one
//! buffer (the top frame's moves are the buffer's tail). No state allocates.

use std::mem::size_of;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::error::{Bytes, Error};
use crate::game::{Game, Score, Step, Turn};
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
    /// How many searches share `stacks` (at most: the current rayon pool's threads).
    pub(crate) workers: u64,
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
            bounds,
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
        bounds.release(&mut self.reported);
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
        dive.game.moves(&state, &mut self.fresh);
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
        });
        dive.max_depth = dive.max_depth.max(self.frames.len());
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
        arrange(self.order, &mut self.moves[start..]);
        let frame = &mut self.frames[top];
        frame.next_move += start;
        frame.moves_start = start;
        self.kept_from = top;
    }

    /// Moves a dive that could go no deeper natively onto the explicit stack: its open states
    /// become frames (their moves join the shared buffer), and the state it stopped at is
    /// opened there. Then the checks a growing stack owes: memory, and cycles once deep.
    #[cold]
    fn settle<T: MemoTable<G>>(
        &mut self,
        dive: &mut Dive<'_, G, T, R>,
        levels: &mut [Vec<G::Move>],
    ) -> Result<(), Error> {
        for (mut frame, moves) in dive.pending.drain(..).rev().zip(levels.iter_mut()) {
            frame.moves_start = self.moves.len();
            frame.next_move += frame.moves_start;
            self.moves.append(moves);
            self.frames.push(frame);
        }
        // A state with too many moves for a level ends a dive, but its level keeps the room
        // (freeing it each time made Nim 1,16000 reallocate its 16 000 moves at every state:
        // 4x slower), until the levels hold more than the move buffer's cap in all.
        if dive.level_bytes > LIST_BYTES as u64 {
            for moves in levels.iter_mut() {
                if buffer_bytes(moves) > LEVEL_BYTES as u64 {
                    dive.level_bytes -= buffer_bytes(moves);
                    moves.shrink_to(0);
                    dive.level_bytes += buffer_bytes(moves);
                }
            }
        }
        if let Some(state) = dive.deep.take() {
            // `out_of_levels` listed its moves in `spare` (it has some): they become the top
            // frame's, not generated a second time.
            let moves_start = self.moves.len();
            self.moves.append(&mut dive.spare);
            arrange(self.order, &mut self.moves[moves_start..]);
            dive.expanded += 1;
            self.frames.push(Frame {
                moves_start,
                next_move: moves_start,
                ..Frame::fresh(state)
            });
            dive.max_depth = dive.max_depth.max(self.frames.len());
        }
        self.grown(dive)
    }

    /// What a stack that grew owes: moves given back past the cap, and when its buffers'
    /// capacity changed, the memory check, and the cycle check once deep.
    #[inline(always)]
    fn grown<T: MemoTable<G>>(&mut self, dive: &mut Dive<'_, G, T, R>) -> Result<(), Error> {
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
    fn check_growth<T: MemoTable<G>>(&mut self, dive: &mut Dive<'_, G, T, R>) -> Result<(), Error> {
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
    ) -> Result<Score, Error> {
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
                break Err(Error::ScoreOverflow);
            };
            if let Some(step) = opened {
                let frame = &mut self.frames[top];
                frame.gain = step.gain;
                frame.turn = step.turn;
                // Lines deeper than a dive can go were met below this depth: the child is
                // opened here at once, as a dive would end up settling it here anyway (on
                // games as deep as Stone Game VII with 2500 stones, a dive from every frame
                // cost 27% more instructions than the explicit stack alone).
                if top + 1 + levels.len() < dive.max_depth {
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
                        Err(Overflow) => break Err(Error::ScoreOverflow),
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
            let done = self
                .frames
                .pop()
                .expect("the loop runs while a frame is open");
            self.moves.truncate(done.moves_start);
            let value = done.best;
            if value == Score::MIN {
                break Err(Error::ScoreOverflow);
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
    /// left as calls (Stone Game II, 2500 piles, 25 billion instructions against 14).
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
        let opened = scan.run::<G, T, R>(game, table, &frame.state, &self.moves);
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

/// Where a state's moves stand: the next one to try, the best value so far, the highest
/// value the state can have (a move that reaches it ends the scan), whether a value overflowed,
/// and how many children were known or stored.
struct Scan {
    next_move: usize,
    best: Score,
    high: Score,
    overflow: bool,
    known: u64,
    hits: u64,
}

impl Scan {
    /// A scan from `next_move` to `end`, with `best` so far: nothing left if it reached `high`.
    #[inline(always)]
    fn new<G: Game, R: RangeSource<G>>(
        next_move: usize,
        best: Score,
        high: Score,
        end: usize,
    ) -> Self {
        Scan {
            next_move: if R::DECLARES && best >= high {
                end
            } else {
                next_move
            },
            best,
            high,
            overflow: false,
            known: 0,
            hits: 0,
        }
    }

    /// Values the moves from `next_move` on whose children are known or stored, and returns
    /// the first child that is neither (to be searched, then given to [`take`](Self::take)),
    /// with `next_move` past it; `None` once the moves are done or a move reached `high`.
    /// The one hot loop of both searches: always inlined, so that `self` lives in registers.
    #[inline(always)]
    fn run<G, T, R>(
        &mut self,
        game: &G,
        table: &T,
        state: &G::State,
        moves: &[G::Move],
    ) -> Option<Step<G::State>>
    where
        G: Game,
        T: MemoTable<G>,
        R: RangeSource<G>,
    {
        while let Some(mv) = moves.get(self.next_move) {
            self.next_move += 1;
            let step = game.play(state, mv);
            let child = if let Some(value) = game.known_value(&step.next) {
                self.known += 1;
                self.overflow |= value == Score::MIN;
                value
            } else if let Some(value) = table.get(game, &step.next) {
                self.hits += 1;
                value
            } else {
                return Some(step);
            };
            if self.take::<G, R>(step.gain, step.turn, child) {
                return None; // The state is done: its caller closes it.
            }
        }
        None
    }

    /// Counts a move of `gain` and `turn` to a child of value `child`; `true` if the best
    /// value reached `high` (the caller stops: no other move can do better). A value of exactly
    /// `Score::MIN` is caught when the state closes: it can only matter if it is the best, and
    /// then `best` is `Score::MIN`.
    ///
    /// The caller leaves its loop on `true` by a branch, not by moving the cursor to the end
    /// in the same instruction stream: the cursor would then wait for the child's value (a
    /// table probe, often a cache miss) before the next move could start, where a predicted
    /// branch lets the processor start the next move's probe meanwhile (Can I Win: 40 ms with
    /// the cursor moved, 28 ms with the branch, in the same instructions).
    #[inline(always)]
    #[must_use]
    fn take<G: Game, R: RangeSource<G>>(&mut self, gain: Score, turn: Turn, child: Score) -> bool {
        let (value, wrapped) = gain.overflowing_add(signed(turn, child));
        self.overflow |= wrapped;
        self.best = self.best.max(value);
        R::DECLARES && self.best >= self.high
    }
}

/// How a dive ends without a value.
enum Stop {
    /// It reached a state it cannot search natively (out of levels, or too many moves): its
    /// open states are in [`Dive::pending`], for the explicit stack to take over.
    Deep,
    /// An error, in [`Dive::failure`] (a marker here: an `Error` in the result would cost a
    /// drop check per node).
    Failed,
}

/// The native half of the search: a memoized recursion over `levels` (one reusable move list
/// per level), as fast as the one a user writes by hand, but bounded: when it runs out of
/// levels, or meets a state with more moves than a level holds, it unwinds, leaving its open
/// states to the explicit stack ([`Search::settle`]), which then dives again from its top.
/// The explicit loop counts and stores through it too, so that both share one set of counters
/// and one memory check.
struct Dive<'a, G: Game, T, R> {
    game: &'a G,
    table: &'a mut T,
    range: R,
    order: usize,
    bounds: Bounds<'a>,
    /// The open states of a dive that went deep, deepest first: each frame's `next_move` is
    /// relative to its level's moves, and `moves_start` is set when it is settled.
    pending: Vec<Frame<G::State>>,
    /// The state a dive reached with no level left, which has moves (in `spare`): opened on
    /// the explicit stack.
    deep: Option<G::State>,
    /// Where a state with no level left has its moves listed, to see whether it has any (and
    /// then to hand them to the explicit stack).
    spare: Vec<G::Move>,
    /// Why the search stopped, after `Stop::Failed`.
    failure: Option<Error>,
    hits: u64,
    known: u64,
    expanded: u64,
    terminal: u64,
    stored: usize,
    max_depth: usize,
    /// The bytes of the explicit stack's buffers, as of its last growth.
    stack_bytes: u64,
    /// The bytes of the levels' move lists (and of the list of levels).
    level_bytes: u64,
    /// The stack bytes last reported to a shared account ([`Bounds::stacks`]).
    reported: u64,
}

impl<G: Game, T: MemoTable<G>, R: RangeSource<G>> Dive<'_, G, T, R> {
    /// The value of `state` (not known, not stored), `depth` states deep, searched by native
    /// recursion over `levels`. Never inlined into the explicit loop: there it took the room
    /// the compiler gives to inlining, and the game's `play`, `known_value` and the table's
    /// `get` became calls in the explicit loop (Stone Game II, 2500 piles: 14 → 25 billion
    /// instructions).
    #[inline(never)]
    fn dive(
        &mut self,
        state: G::State,
        levels: &mut [Vec<G::Move>],
        depth: usize,
    ) -> Result<Score, Stop> {
        let Some((moves, deeper)) = levels.split_first_mut() else {
            return self.out_of_levels(state);
        };
        let game = self.game;
        moves.clear();
        let capacity = moves.capacity();
        game.moves(&state, moves);
        if moves.capacity() != capacity {
            self.level_bytes += ((moves.capacity() - capacity) * size_of::<G::Move>()) as u64;
        }
        if moves.is_empty() {
            self.terminal += 1;
            let payoff = game.payoff(&state);
            return if payoff == Score::MIN {
                self.fail(Error::ScoreOverflow)
            } else {
                Ok(payoff)
            };
        }
        self.expanded += 1;
        self.max_depth = self.max_depth.max(depth);
        arrange(self.order, moves);
        if moves.len() * size_of::<G::Move>() > LEVEL_BYTES {
            self.pending.push(Frame::fresh(state));
            return Err(Stop::Deep);
        }
        let high = if R::DECLARES {
            self.range.range(game, &state).1
        } else {
            Score::MAX
        };
        let mut scan = Scan::new::<G, R>(0, Score::MIN, high, moves.len());
        // The scan makes no call but the game's and the table's, so its cursor, best value
        // and counters stay in registers; it returns only to dive into a child. (With the
        // dive inside the loop, they were spilled around the call on every move: Stone Game
        // II took 24% more instructions.)
        while let Some(step) = scan.run::<G, T, R>(game, &*self.table, &state, moves) {
            let child = match self.dive(step.next, deeper, depth + 1) {
                Ok(value) => value,
                Err(Stop::Deep) if !scan.overflow => {
                    (self.known, self.hits) = (self.known + scan.known, self.hits + scan.hits);
                    self.pending.push(Frame {
                        state,
                        moves_start: 0,
                        next_move: scan.next_move,
                        best: scan.best,
                        gain: step.gain,
                        turn: step.turn,
                    });
                    return Err(Stop::Deep);
                }
                Err(Stop::Deep) => return self.fail(Error::ScoreOverflow),
                Err(Stop::Failed) => return Err(Stop::Failed),
            };
            if scan.take::<G, R>(step.gain, step.turn, child) {
                break;
            }
        }
        (self.known, self.hits) = (self.known + scan.known, self.hits + scan.hits);
        let (best, overflow) = (scan.best, scan.overflow);
        if overflow || best == Score::MIN {
            return self.fail(Error::ScoreOverflow);
        }
        self.store(state, best, depth)?;
        Ok(best)
    }

    /// A state reached with no level left: valued here if it ends the game (a line exactly as
    /// deep as the levels would otherwise hand 1024 open states to the explicit stack for one
    /// payoff), else left for the explicit stack to open.
    #[cold]
    fn out_of_levels(&mut self, state: G::State) -> Result<Score, Stop> {
        let capacity = self.spare.capacity();
        self.spare.clear();
        self.game.moves(&state, &mut self.spare);
        self.level_bytes += ((self.spare.capacity() - capacity) * size_of::<G::Move>()) as u64;
        if !self.spare.is_empty() {
            self.deep = Some(state);
            return Err(Stop::Deep);
        }
        self.terminal += 1;
        match self.game.payoff(&state) {
            Score::MIN => self.fail(Error::ScoreOverflow),
            payoff => Ok(payoff),
        }
    }

    /// Stores `state`'s exact `value` (`depth` states deep); every [`CHECK_EVERY`] stores,
    /// checks the budget, the time and the store bound.
    #[inline(always)]
    fn store(&mut self, state: G::State, value: Score, depth: usize) -> Result<(), Stop> {
        // An exact engine opens a state only when the table has no value for it, so a
        // different value there now means two states share one key. Checked in debug builds:
        // the answer would be wrong.
        debug_assert!(
            self.table
                .get(self.game, &state)
                .is_none_or(|old| old == value),
            "two states share one memo key: the table already holds {:?} where a state of \
             value {value} is stored (a DenseIndex collision, or Hash and Eq that disagree; \
             gamesolver::check::check_dense finds the two states)",
            self.table.get(self.game, &state)
        );
        self.table.insert(self.game, state, value);
        self.stored += 1;
        if self.stored.is_multiple_of(CHECK_EVERY) {
            if let Err(error) = self.check_memory(depth) {
                return self.fail(error);
            }
            if self.bounds.stores.is_some_and(|most| self.stored >= most) {
                return self.fail(Error::Cancelled);
            }
        }
        Ok(())
    }

    /// Records `error` as the reason the search stops.
    #[cold]
    fn fail<V>(&mut self, error: Error) -> Result<V, Stop> {
        self.failure = Some(error);
        Err(Stop::Failed)
    }

    /// The error recorded by [`fail`](Self::fail).
    fn failure(&mut self) -> Error {
        self.failure
            .take()
            .expect("a dive that failed recorded why")
    }

    /// Errors if the table's coming peak plus the stacks would exceed the budget, if the time
    /// is up, or if the search was cancelled.
    #[cold]
    fn check_memory(&mut self, depth: usize) -> Result<(), Error> {
        self.bounds.check(
            self.table.peak_bytes(CHECK_EVERY),
            &mut self.reported,
            self.stack_bytes + self.level_bytes,
            "memo",
            self.table.len(),
            depth,
        )
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
        }
    }
}

/// Puts `moves` in the order `order` asks for (0: as they are). The test of `order` is inlined
/// (a call per state cost 17 instructions in the game's order); the rest is not.
#[inline(always)]
fn arrange<M>(order: usize, moves: &mut [M]) {
    if order != 0 {
        rearrange(order, moves);
    }
}

/// [`arrange`]'s work when `order` is not 0.
#[inline(never)]
fn rearrange<M>(order: usize, moves: &mut [M]) {
    if order % 2 == 1 {
        moves.reverse();
    }
    let rotation = (order / 2) % moves.len();
    moves.rotate_left(rotation);
}

/// How many levels a dive may recurse natively for game `G`: as many as fit in
/// [`NATIVE_BYTES`] of native stack at a generous estimate of a level's frame (a state, a
/// step, the move list's handle, saved registers), and at most [`MAX_LEVELS`]. Measured for
/// Nim (16 bytes of state and move): 256 bytes a level in release, 2176 unoptimised (a debug
/// build keeps every temporary); a 256 KiB worker stack overflowed with the estimate below.
fn levels_for<G: Game>() -> usize {
    let values = size_of::<G::State>() + size_of::<G::Move>();
    let frame = if cfg!(debug_assertions) {
        8 * values + 4096
    } else {
        4 * values + 256
    };
    (NATIVE_BYTES / frame).clamp(1, MAX_LEVELS)
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
            workers: 1,
            stores: None,
            progress: limits.progress,
        }
    }

    /// The same bounds, with the stacks of every search that shares `stacks` (one on each
    /// thread of the current rayon pool) counted together.
    pub(crate) fn sharing(self, stacks: &'a AtomicU64) -> Self {
        Bounds {
            stacks: Some(stacks),
            workers: rayon::current_num_threads() as u64,
            ..self
        }
    }

    /// Reports that this search's stack now holds `now` bytes (it last reported `*reported`);
    /// returns the stack bytes of every search sharing the account (just `now` without one).
    ///
    /// Searches that share an account search one game and reach similar depths, so the total
    /// is at least this one's stack times their number: a search that dives ahead (natively,
    /// with no check until its stack grows) is refused before the others catch up with it,
    /// not after. (Counting only what the others last reported let one worker of 16 reach a
    /// 10 MiB stack while the account held 8 MiB in all.)
    pub(crate) fn stack_total(self, reported: &mut u64, now: u64) -> u64 {
        let Some(stacks) = self.stacks else {
            return now;
        };
        let before = std::mem::replace(reported, now);
        let total = if now >= before {
            stacks.fetch_add(now - before, Ordering::Relaxed) + (now - before)
        } else {
            stacks.fetch_sub(before - now, Ordering::Relaxed) - (before - now)
        };
        total.max(now.saturating_mul(self.workers))
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
    use crate::{AnyValue, DeclaredRange};
    use std::collections::HashMap;

    /// The value of `game`'s start by a search in `order` that gives its moves back past
    /// `list_cap` bytes.
    fn value_with_cap<G>(game: &G, order: usize, list_cap: usize) -> (Score, usize)
    where
        G: Game,
        G::State: Eq + std::hash::Hash,
    {
        value_with(game, order, list_cap, levels_for::<G>(), AnyValue)
    }

    /// The same, diving natively `levels` deep at most, cutting on `range`.
    fn value_with<G, R>(
        game: &G,
        order: usize,
        list_cap: usize,
        levels: usize,
        range: R,
    ) -> (Score, usize)
    where
        G: Game,
        G::State: Eq + std::hash::Hash,
        R: RangeSource<G>,
    {
        let mut search = Search::with_range(order, range);
        search.list_cap = list_cap;
        search.levels.resize_with(levels, Vec::new);
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

    /// The value of `state` by the rules alone: a plain memoized recursion, unbounded.
    fn oracle<G>(game: &G, state: G::State, memo: &mut HashMap<G::State, Score>) -> Score
    where
        G: Game,
        G::State: Eq + std::hash::Hash,
    {
        if let Some(&value) = memo.get(&state) {
            return value;
        }
        let mut moves = Vec::new();
        game.moves(&state, &mut moves);
        let value = if moves.is_empty() {
            game.payoff(&state)
        } else {
            let values = moves.iter().map(|mv| {
                let step = game.play(&state, mv);
                step.gain + signed(step.turn, oracle(game, step.next, memo))
            });
            values.max().unwrap()
        };
        memo.insert(state, value);
        value
    }

    /// Dives of every depth from 1 level to a few (the explicit stack taking over at each
    /// level, and from each state on), with moves given back at every push (a cap of 0) or
    /// never, in every order, change no value (the rules' oracle) and no stored state.
    fn dives_hand_over_exactly<G>(game: &G)
    where
        G: Game,
        G::State: Eq + std::hash::Hash,
    {
        let value = oracle(game, game.start(), &mut HashMap::new());
        let expected = (value, value_with_cap(game, 0, LIST_BYTES).1);
        for order in 0..5 {
            for levels in [1, 2, 3, 7] {
                for list_cap in [0, LIST_BYTES] {
                    assert_eq!(
                        value_with(game, order, list_cap, levels, AnyValue),
                        expected,
                        "order {order}, {levels} levels, list cap {list_cap}"
                    );
                }
            }
        }
    }

    #[test]
    fn dives_and_given_back_moves_hand_over_exactly() {
        dives_hand_over_exactly(&Nim::new(vec![3, 4, 5]).unwrap());
        // 300 moves at the start: wider than a level holds (LEVEL_BYTES), so its dive hands
        // over at once.
        dives_hand_over_exactly(&Nim::new(vec![2, 300]).unwrap());
        let piles = (1..=30).map(|i| i * 37 % 11 + 1).collect();
        dives_hand_over_exactly(&StoneGameII::new(piles).unwrap());
        let stones = (0..200).map(|i| (i * 7919 % 201) - 100).collect();
        dives_hand_over_exactly(&StoneGameVIII::new(stones).unwrap().stepwise());
    }

    /// Cut-offs at the declared range, in dives of every depth handing over to the explicit
    /// stack, in every order: the value is the rules' (a cut leaves each half's loop by its
    /// own path, and a frame that cut must not try its moves again when it is rescanned).
    #[test]
    fn cut_offs_hand_over_exactly() {
        for heaps in [vec![3, 4, 5], vec![2, 300], vec![1, 2, 3, 4], vec![5, 5]] {
            let game = Nim::new(heaps.clone()).unwrap();
            let value = oracle(&game, game.start(), &mut HashMap::new());
            let (_, all) = value_with_cap(&game, 0, LIST_BYTES);
            for order in 0..5 {
                for levels in [1, 2, 3, 7, MAX_LEVELS] {
                    for list_cap in [0, LIST_BYTES] {
                        let (cut, stored) =
                            value_with(&game, order, list_cap, levels, DeclaredRange);
                        let case = format!("{heaps:?}, order {order}, {levels} levels");
                        assert_eq!(cut, value, "{case}, list cap {list_cap}");
                        assert!(stored <= all, "{case}: {stored} stored, {all} without cuts");
                    }
                }
            }
        }
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
