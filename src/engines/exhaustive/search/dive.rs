//! A dive: a native recursion bounded to [`NATIVE_BYTES`] of stack, whose unfinished states move
//! onto the search's explicit stack; and the scan of one state's moves.

use super::*;
use crate::engines::kernel::signed;

/// Where a state's moves stand: the next one to try, the best value so far, the highest
/// value the state can have (a move that reaches it ends the scan), whether a value overflowed,
/// and how many children were known or stored.
pub(in crate::engines::exhaustive) struct Scan {
    pub(in crate::engines::exhaustive) next_move: usize,
    pub(in crate::engines::exhaustive) best: Score,
    pub(in crate::engines::exhaustive) high: Score,
    pub(in crate::engines::exhaustive) overflow: bool,
    pub(in crate::engines::exhaustive) known: u64,
    pub(in crate::engines::exhaustive) hits: u64,
}

impl Scan {
    /// A scan from `next_move` to `end`, with `best` so far: nothing left if it reached `high`.
    #[inline(always)]
    pub(in crate::engines::exhaustive) fn new<G: Game, R: RangeSource<G>>(
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
    pub(in crate::engines::exhaustive) fn run<G, T, R>(
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
        // The children found in the table are counted once, on the way out: the moves
        // scanned, less those known and the one opened (a count per child was an instruction
        // of the loop's few).
        let (begin, known) = (self.next_move, self.known);
        let mut opened = None;
        while let Some(mv) = moves.get(self.next_move) {
            self.next_move += 1;
            let step = game.play(state, mv);
            let child = if let Some(value) = game.known_value(&step.next) {
                self.known += 1;
                self.overflow |= value == Score::MIN;
                value
            } else if let Some(value) = table.get(game, &step.next) {
                value
            } else {
                opened = Some(step);
                break;
            };
            if self.take::<G, R>(step.gain, step.turn, child) {
                break; // The state is done: its caller closes it.
            }
        }
        let scanned = self.next_move - begin - usize::from(opened.is_some());
        self.hits += scanned as u64 - (self.known - known);
        opened
    }

    /// Counts a move of `gain` and `turn` to a child of value `child`; `true` if the best
    /// value reached `high` (the caller stops: no other move can do better). A move whose value
    /// wraps, or is exactly `Score::MIN` (never a value), is an overflow even when another move
    /// is better, as in the pruning engine.
    ///
    /// The caller leaves its loop on `true` by a branch, not by moving the cursor to the end
    /// in the same instruction stream: the cursor would then wait for the child's value (a
    /// table probe, often a cache miss) before the next move could start, where a predicted
    /// branch lets the processor start the next move's probe meanwhile (docs/performance.md).
    #[inline(always)]
    #[must_use]
    pub(in crate::engines::exhaustive) fn take<G: Game, R: RangeSource<G>>(
        &mut self,
        gain: Score,
        turn: Turn,
        child: Score,
    ) -> bool {
        let value = self.combine(gain, turn, child);
        self.best = self.best.max(value);
        R::DECLARES && self.best >= self.high
    }

    /// The value of a move of `gain` and `turn` to a child of value `child`, for the mover;
    /// flags an overflow if it wraps or is exactly `Score::MIN` (never a value).
    #[inline(always)]
    pub(in crate::engines::exhaustive) fn combine(
        &mut self,
        gain: Score,
        turn: Turn,
        child: Score,
    ) -> Score {
        let (value, wrapped) = gain.overflowing_add(signed(turn, child));
        self.overflow |= wrapped | (value == Score::MIN);
        value
    }
}

/// How a dive ends without a value.
pub(super) enum Stop {
    /// It reached a state it cannot search natively (out of levels, or too many moves): its
    /// open states are in [`Dive::pending`], for the explicit stack to take over.
    Deep,
    /// An error, in [`Dive::failure`] (a marker here: an `SolveError` in the result would cost a
    /// drop check per node).
    Failed,
}

/// The native half of the search: a memoized recursion over `levels` (one reusable move list
/// per level), as fast as the one a user writes by hand, but bounded: when it runs out of
/// levels, or meets a state with more moves than a level holds, it unwinds, leaving its open
/// states to the explicit stack ([`Search::settle`]), which then dives again from its top.
/// The explicit loop counts and stores through it too, so that both share one set of counters
/// and one memory check.
pub(super) struct Dive<'a, G: Game, T, R> {
    pub(super) game: &'a G,
    pub(super) table: &'a mut T,
    pub(super) range: R,
    pub(super) order: usize,
    pub(super) guard: RunGuard<'a>,
    /// The open states of a dive that went deep, deepest first: each frame's `next_move` is
    /// relative to its level's moves, and `moves_start` is set when it is settled.
    pub(super) pending: Vec<Frame<G::State>>,
    /// The state a dive reached with no level left, which has moves (in `spare`), and the
    /// next batch of its moves to ask for: opened on the explicit stack.
    pub(super) deep: Option<(G::State, usize)>,
    /// Where a state with no level left has its moves listed, to see whether it has any (and
    /// then to hand them to the explicit stack).
    pub(super) spare: Vec<G::Move>,
    /// Why the search stopped, after `Stop::Failed`.
    pub(super) failure: Option<SolveError>,
    pub(super) hits: u64,
    pub(super) known: u64,
    pub(super) expanded: u64,
    pub(super) terminal: u64,
    pub(super) stored: usize,
    pub(super) max_depth: usize,
    /// The bytes of the explicit stack's buffers, as of its last growth.
    pub(super) stack_bytes: u64,
    /// The bytes of the levels' move lists (and of the list of levels).
    pub(super) level_bytes: u64,
    /// The stack bytes last reported to a shared account ([`RunGuard::stacks`]).
    pub(super) reported: u64,
}

impl<G: Game, T: MemoTable<G>, R: RangeSource<G>> Dive<'_, G, T, R> {
    /// The value of `state` (not known, not stored), `depth` states deep, searched by native
    /// recursion over `levels`. Never inlined into the explicit loop: there it took the room
    /// the compiler gives to inlining, and the game's `play`, `known_value` and the table's
    /// `get` became calls in the explicit loop (docs/performance.md).
    #[inline(never)]
    pub(super) fn dive(
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
        let mut next_batch = fetch_counted::<G, R>(game, &state, 0, moves, &mut self.level_bytes);
        if moves.is_empty() {
            self.terminal += 1;
            let payoff = game.payoff(&state);
            return if payoff == Score::MIN {
                self.fail(SolveError::ScoreOverflow)
            } else {
                Ok(payoff)
            };
        }
        self.expanded += 1;
        self.max_depth = self.max_depth.max(depth);
        arrange(self.order, moves);
        if moves.len() * size_of::<G::Move>() > LEVEL_BYTES {
            self.pending.push(Frame {
                next_batch,
                ..Frame::fresh(state)
            });
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
        // dive inside the loop, they were spilled around the call on every move.)
        loop {
            while let Some(step) = scan.run::<G, T, R>(game, &*self.table, &state, moves) {
                let child = match self.dive(step.next, deeper, depth + 1) {
                    Ok(value) => value,
                    Err(Stop::Deep) if !scan.overflow => {
                        let at = (scan.next_move, scan.best, scan.known, scan.hits);
                        return self.hand_over(state, at, (step.gain, step.turn), next_batch);
                    }
                    Err(Stop::Deep) => return self.fail(SolveError::ScoreOverflow),
                    Err(Stop::Failed) => return Err(Stop::Failed),
                };
                if scan.take::<G, R>(step.gain, step.turn, child) {
                    break;
                }
            }
            // Lazy moves: the next batch, unless the state is decided or has no more.
            if next_batch == 0 || (R::DECLARES && scan.best >= scan.high) {
                break;
            }
            next_batch = self.refill(&state, next_batch, moves);
            if moves.len() * size_of::<G::Move>() > LEVEL_BYTES && !scan.overflow {
                // Too many for a level now: the explicit stack goes on from here.
                let at = (scan.next_move, scan.best, scan.known, scan.hits);
                return self.hand_over(state, at, (0, Turn::Pass), next_batch);
            }
        }
        (self.known, self.hits) = (self.known + scan.known, self.hits + scan.hits);
        let (best, overflow) = (scan.best, scan.overflow);
        if overflow || best == Score::MIN {
            return self.fail(SolveError::ScoreOverflow);
        }
        self.store(state, best, depth)?;
        Ok(best)
    }

    /// Leaves `state` to the explicit stack, its scan at `next_move` with `best` so far and
    /// `known` and `hits` counted (with the gain and turn of the move being searched above it,
    /// if any, and the next batch of its moves): the dive unwinds with [`Stop::Deep`]. The
    /// scan's fields come by value: a reference to the scan would keep it out of registers in
    /// the dive's loop (docs/performance.md).
    #[cold]
    fn hand_over(
        &mut self,
        state: G::State,
        (next_move, best, known, hits): (usize, Score, u64, u64),
        (gain, turn): (Score, Turn),
        next_batch: usize,
    ) -> Result<Score, Stop> {
        (self.known, self.hits) = (self.known + known, self.hits + hits);
        self.pending.push(Frame {
            state,
            moves_start: 0,
            next_move,
            best,
            gain,
            turn,
            next_batch,
        });
        Err(Stop::Deep)
    }

    /// Appends `state`'s next batch of moves (from batch `batch`) to its level's `moves`;
    /// returns the batch after it (0: none).
    #[inline(never)]
    fn refill(&mut self, state: &G::State, batch: usize, moves: &mut Vec<G::Move>) -> usize {
        let start = moves.len();
        let next = fetch_counted::<G, R>(self.game, state, batch, moves, &mut self.level_bytes);
        arrange(self.order, &mut moves[start..]);
        next
    }

    /// A state reached with no level left: valued here if it ends the game (a line exactly as
    /// deep as the levels would otherwise hand 1024 open states to the explicit stack for one
    /// payoff), else left for the explicit stack to open.
    #[cold]
    pub(super) fn out_of_levels(&mut self, state: G::State) -> Result<Score, Stop> {
        self.spare.clear();
        let next_batch =
            fetch_counted::<G, R>(self.game, &state, 0, &mut self.spare, &mut self.level_bytes);
        if !self.spare.is_empty() {
            self.deep = Some((state, next_batch));
            return Err(Stop::Deep);
        }
        self.terminal += 1;
        match self.game.payoff(&state) {
            Score::MIN => self.fail(SolveError::ScoreOverflow),
            payoff => Ok(payoff),
        }
    }

    /// Stores `state`'s exact `value` (`depth` states deep); every [`CHECK_EVERY`] stores,
    /// checks the budget, the time and the store bound.
    #[inline(always)]
    pub(super) fn store(
        &mut self,
        state: G::State,
        value: Score,
        depth: usize,
    ) -> Result<(), Stop> {
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
            if self
                .guard
                .trial_over(self.stored as u64, self.stored as u64 + self.hits)
            {
                return self.fail(SolveError::Cancelled);
            }
        }
        Ok(())
    }

    /// Records `error` as the reason the search stops.
    #[cold]
    pub(super) fn fail<V>(&mut self, error: SolveError) -> Result<V, Stop> {
        self.failure = Some(error);
        Err(Stop::Failed)
    }

    /// The error recorded by [`fail`](Self::fail).
    pub(super) fn failure(&mut self) -> SolveError {
        self.failure
            .take()
            .expect("a dive that failed recorded why")
    }

    /// Errors if the table's coming peak plus the stacks would exceed the budget, if the time
    /// is up, or if the search was cancelled.
    #[cold]
    pub(super) fn check_memory(&mut self, depth: usize) -> Result<(), SolveError> {
        self.guard.check(
            self.table.peak_bytes(CHECK_EVERY),
            &mut self.reported,
            self.stack_bytes + self.level_bytes,
            "memo",
            self.table.len(),
            depth,
        )
    }
}

/// [`fetch`] into a level's `moves`, adding what the buffer grew by to `level_bytes` (the
/// levels' bytes, which the memory check counts).
#[inline(always)]
fn fetch_counted<G: Game, R: RangeSource<G>>(
    game: &G,
    state: &G::State,
    batch: usize,
    moves: &mut Vec<G::Move>,
    level_bytes: &mut u64,
) -> usize {
    let capacity = moves.capacity();
    let next = fetch::<G, R>(game, state, batch, moves);
    if moves.capacity() != capacity {
        *level_bytes += ((moves.capacity() - capacity) * size_of::<G::Move>()) as u64;
    }
    next
}

/// Puts `moves` in the order `order` asks for (0: as they are). The test of `order` is inlined
/// (the game's own order, the common case, then costs no call); the rest is not.
#[inline(always)]
pub(super) fn arrange<M>(order: usize, moves: &mut [M]) {
    if order != 0 {
        rearrange(order, moves);
    }
}

/// [`arrange`]'s work when `order` is not 0.
#[inline(never)]
pub(super) fn rearrange<M>(order: usize, moves: &mut [M]) {
    if order % 2 == 1 {
        moves.reverse();
    }
    let rotation = (order / 2) % moves.len();
    moves.rotate_left(rotation);
}

/// How many levels a dive may recurse natively for game `G`: as many as fit in
/// [`NATIVE_BYTES`] of native stack at a generous estimate of a level's frame (a state, a
/// step, the move list's handle, saved registers), and at most [`MAX_LEVELS`]. A debug build
/// keeps every temporary, so its estimate is much larger (docs/performance.md has the
/// frames measured).
pub(super) fn levels_for<G: Game>() -> usize {
    let values = size_of::<G::State>() + size_of::<G::Move>();
    let frame = if cfg!(debug_assertions) {
        8 * values + 4096
    } else {
        4 * values + 256
    };
    (NATIVE_BYTES / frame).clamp(1, MAX_LEVELS)
}
