//! The parallel pruner's split points: how the workers of one query share a search tree.
//!
//! One worker (the driver) searches the query's windows as the sequential engine does. When
//! another worker has nothing to do, a searching worker *publishes* one of its open states
//! whose first move has been searched without a cut-off (the young brothers wait, as in
//! YBWC), and whose search has already cost some work: the state, how many moves it has, its
//! window, and a claim counter. Any worker then takes that state's moves one at a time, the owner
//! included; a helper searches its move's child on a search of its own and hands the move's
//! value back. A value at or above the window's top is a cut-off: the split point stops, the
//! helpers under it stop, and the owner drops what it had open above that state. An owner
//! whose moves are all taken while helpers still search waits for them, helping at the split
//! points those helpers publish meanwhile (never elsewhere, so a wait ends when its helpers
//! are done).
//!
//! No state is marked busy and nothing is shared per state searched (an earlier design marked
//! every open state, ABDADA-style, and cost more than it saved on positions of a
//! millisecond): the cost is paid per split, and only while a worker is idle.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::error::SolveError;
use crate::game::{Game, Score};

/// A split point: an open state of one worker's search whose moves any worker may take.
pub(crate) struct SplitPoint<G: Game> {
    /// The state.
    pub(crate) state: G::State,
    /// How many moves the split point hands out: offset `k` below is the move whose index in
    /// the game's order is `order[k]` (a helper asks the game for the state's moves again, as
    /// the state alone determines them).
    pub(crate) moves: usize,
    /// The index in the game's order of each move, by offset (the owner may have put the
    /// table's best first).
    pub(crate) order: Box<[u32]>,
    /// How many moves the game lists for the state.
    pub(crate) listed: usize,
    /// The window of the state's search when it was published (the bottom may have risen
    /// since: `best`).
    pub(crate) alpha: Score,
    /// The top of the window: a move worth this much or more is a cut-off.
    pub(crate) beta: Score,
    /// How far from the query's root this state is (a helper takes the nearest first: its
    /// moves lead to the largest subtrees).
    pub(crate) height: usize,
    /// The split point the owner's search works under (none for the driver's own search):
    /// when that one stops, so does this one.
    parent: Option<Arc<SplitPoint<G>>>,
    /// Raised once the state's search needs no more of its moves: a cut-off, or the owner
    /// gave up the state (its own search was stopped, or a cut-off below it).
    stop: AtomicBool,
    /// The offset of the first move nobody has taken yet (high half) and how many moves
    /// helpers have taken whose value has not come back yet (low half), in one word so that
    /// the owner never sees every move taken and none pending while a helper takes the last.
    claims: AtomicU64,
    /// The best value the helpers brought back (`Score::MIN` before any).
    best: AtomicI64,
}

/// The low half of [`SplitPoint::claims`]: a pending move.
const PENDING: u64 = 1;
/// The high half of [`SplitPoint::claims`]: a move taken.
const TAKEN: u64 = 1 << 32;

/// The moves taken, of a [`SplitPoint::claims`] word.
fn taken(claims: u64) -> u64 {
    claims >> 32
}

/// The moves pending, of a [`SplitPoint::claims`] word.
fn pending(claims: u64) -> u64 {
    claims & (TAKEN - 1)
}

/// What the owner of a split point gets when it asks for its next move.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Next {
    /// The move at this offset is the owner's to search; the helpers' best so far comes along.
    Move(usize, Score),
    /// Every move is taken, but helpers are still searching some: wait for them.
    Wait,
    /// Every move has been searched, or a helper's value was a cut-off: the helpers' best.
    Done(Score),
}

impl<G: Game> SplitPoint<G> {
    /// The most moves a split point can hand out.
    pub(crate) const MOST_MOVES: usize = u32::MAX as usize >> 1;

    /// A split point of `state`, whose moves are those of the game's order at `order` (of the
    /// `listed` moves the game lists), from offset `next` on not taken yet (at most
    /// [`MOST_MOVES`](Self::MOST_MOVES) moves).
    pub(crate) fn new(
        state: G::State,
        (order, listed): (Box<[u32]>, usize),
        window: (Score, Score),
        next: usize,
        height: usize,
        parent: Option<Arc<SplitPoint<G>>>,
    ) -> Self {
        let moves = order.len();
        debug_assert!(moves <= Self::MOST_MOVES && next <= moves);
        SplitPoint {
            state,
            moves,
            order,
            listed,
            alpha: window.0,
            beta: window.1,
            height,
            parent,
            stop: AtomicBool::new(false),
            claims: AtomicU64::new(next as u64 * TAKEN),
            best: AtomicI64::new(Score::MIN),
        }
    }

    /// Whether this split point, or one it works under, has stopped.
    pub(crate) fn stopped(&self) -> bool {
        let mut split = Some(self);
        while let Some(point) = split {
            if point.stop.load(Ordering::Acquire) {
                return true;
            }
            split = point.parent.as_deref();
        }
        false
    }

    /// Whether this split point has stopped itself (not counting those it works under).
    #[inline]
    pub(crate) fn cut_off(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// Stops the split point: its helpers stop at their next check.
    pub(crate) fn halt(&self) {
        self.stop.store(true, Ordering::Release);
    }

    /// Whether `ancestor` is this split point or one it works under.
    fn descends_from(&self, ancestor: &SplitPoint<G>) -> bool {
        let mut split = Some(self);
        while let Some(point) = split {
            if std::ptr::eq(point, ancestor) {
                return true;
            }
            split = point.parent.as_deref();
        }
        false
    }

    /// The best value brought back so far.
    fn best(&self) -> Score {
        self.best.load(Ordering::Acquire)
    }

    /// The owner's next move, or why there is none.
    pub(crate) fn owner_next(&self) -> Next {
        if self.cut_off() {
            return Next::Done(self.best());
        }
        let before = self.claims.fetch_add(TAKEN, Ordering::AcqRel);
        if taken(before) < self.moves as u64 {
            return Next::Move(taken(before) as usize, self.best());
        }
        // Every move was taken already: give the claim back.
        let now = self.claims.fetch_sub(TAKEN, Ordering::AcqRel) - TAKEN;
        if pending(now) > 0 {
            Next::Wait
        } else {
            Next::Done(self.best())
        }
    }

    /// Whether a wait for the helpers is over (nothing pending, or stopped).
    pub(crate) fn settled(&self) -> bool {
        self.cut_off() || pending(self.claims.load(Ordering::Acquire)) == 0
    }

    /// A helper takes the next move: its offset and the window's bottom now, if any is left.
    fn take(&self) -> Option<(usize, Score)> {
        let mut claims = self.claims.load(Ordering::Acquire);
        loop {
            if taken(claims) >= self.moves as u64 || self.stopped() {
                return None;
            }
            match self.claims.compare_exchange_weak(
                claims,
                claims + TAKEN + PENDING,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return Some((taken(claims) as usize, self.alpha.max(self.best()))),
                Err(now) => claims = now,
            }
        }
    }

    /// Whether moves are left to take (a hint: another worker may take them first).
    pub(crate) fn has_moves(&self) -> bool {
        taken(self.claims.load(Ordering::Relaxed)) < self.moves as u64
    }

    /// A helper brings back a move's value (`None`: its search was stopped).
    pub(crate) fn bring(&self, value: Option<Score>) {
        if let Some(value) = value
            && !self.cut_off()
        {
            self.best.fetch_max(value, Ordering::AcqRel);
            if value >= self.beta {
                self.halt();
            }
        }
        self.claims.fetch_sub(PENDING, Ordering::AcqRel);
    }
}

/// What the workers of one parallel query share.
pub(crate) struct Team<G: Game> {
    /// The published split points.
    open: Mutex<Vec<Arc<SplitPoint<G>>>>,
    /// Bumped whenever a split point is published, so idle workers look again only then.
    published: AtomicU64,
    /// Workers with nothing to do: searching workers publish a split point while this is
    /// above zero.
    idle: AtomicUsize,
    /// Raised when the query is over (its value found, or an error): every search stops.
    pub(crate) over: AtomicBool,
    /// The stack bytes of every worker's search, counted against the budget together.
    pub(crate) stacks: AtomicU64,
    /// The first error of a helper (the driver returns it).
    error: Mutex<Option<SolveError>>,
}

impl<G: Game> Default for Team<G> {
    fn default() -> Self {
        Team {
            open: Mutex::new(Vec::new()),
            published: AtomicU64::new(0),
            idle: AtomicUsize::new(0),
            over: AtomicBool::new(false),
            stacks: AtomicU64::new(0),
            error: Mutex::new(None),
        }
    }
}

/// A move of a split point taken by a helper: the split point, the move's offset, and the
/// window's bottom when it was taken.
pub(crate) type Task<G> = (Arc<SplitPoint<G>>, usize, Score);

impl<G: Game> Team<G> {
    fn open(&self) -> MutexGuard<'_, Vec<Arc<SplitPoint<G>>>> {
        self.open
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Whether some worker is waiting for work.
    #[inline]
    pub(crate) fn wanted(&self) -> bool {
        self.idle.load(Ordering::Relaxed) > 0
    }

    /// Publishes `split`.
    pub(crate) fn publish(&self, split: Arc<SplitPoint<G>>) {
        self.open().push(split);
        self.published.fetch_add(1, Ordering::Release);
    }

    /// Withdraws `split` and stops it.
    pub(crate) fn withdraw(&self, split: &Arc<SplitPoint<G>>) {
        split.halt();
        let mut open = self.open();
        if let Some(index) = open.iter().position(|other| Arc::ptr_eq(other, split)) {
            open.swap_remove(index);
        }
    }

    /// Takes a move of the nearest published split point that has one left (of those under
    /// `under`, if given).
    pub(crate) fn take(&self, under: Option<&SplitPoint<G>>) -> Option<Task<G>> {
        let open = self.open();
        loop {
            let nearest = open
                .iter()
                .filter(|split| split.has_moves() && !split.stopped())
                .filter(|split| under.is_none_or(|under| split.descends_from(under)))
                .min_by_key(|split| split.height)?;
            // Another worker may take its last move first: then look again.
            if let Some((offset, alpha)) = nearest.take() {
                return Some((Arc::clone(nearest), offset, alpha));
            }
        }
    }

    /// The publications seen so far (an idle worker looks again when this changes).
    pub(crate) fn publications(&self) -> u64 {
        self.published.load(Ordering::Acquire)
    }

    /// A worker starts waiting for work: dropped when it stops.
    pub(crate) fn waiting(&self) -> Waiting<'_, G> {
        self.idle.fetch_add(1, Ordering::Relaxed);
        Waiting { team: self }
    }

    /// Ends the query: every search stops at its next check.
    pub(crate) fn end(&self) {
        self.over.store(true, Ordering::Relaxed);
    }

    /// Whether the query is over.
    #[inline]
    pub(crate) fn is_over(&self) -> bool {
        self.over.load(Ordering::Relaxed)
    }

    /// Records a helper's error (the first one is kept) and ends the query.
    pub(crate) fn fail(&self, error: SolveError) {
        let mut kept = self
            .error
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        kept.get_or_insert(error);
        self.end();
    }

    /// The first helper error, if any.
    pub(crate) fn error(&self) -> Option<SolveError> {
        self.error
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }
}

/// A worker waiting for work (counted in [`Team::wanted`] while it lives).
pub(crate) struct Waiting<'t, G: Game> {
    team: &'t Team<G>,
}

impl<G: Game> Drop for Waiting<'_, G> {
    fn drop(&mut self) {
        self.team.idle.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Lets another thread run a moment: a spin, and now and then the rest of the time slice
/// (there may be more workers than cores).
#[inline]
pub(crate) fn pause(spins: &mut u32) {
    *spins = spins.wrapping_add(1);
    if spins.is_multiple_of(64) {
        std::thread::yield_now();
    } else {
        std::hint::spin_loop();
    }
}
