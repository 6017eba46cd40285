//! Live figures of a running solve, for a reporter on another thread.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

use crate::error::SolveError;

/// Counters a solve updates as it goes and any thread may read: the states stored (by the
/// engines), the bytes held, and for solvers that work in steps (the specialised Stone Game II
/// solver: rows of its table; the tier solver: tiers, or blocks of indices where it sweeps an
/// ordered index) how many are done of how many.
///
/// Attach one with [`Limits::progress`](crate::Limits::progress). The engines write it where
/// they already check their limits (every 1024 stored states, and when their stack grows), so
/// a solve without one pays nothing, and one with it pays a few relaxed stores per 1024 states.
/// A reporter thread reads it whenever it likes; the figures are approximate while the solve
/// runs (each is exact when written, the set is not read atomically).
///
/// ```
/// use gamesolver::{engines::exhaustive, games::StoneGameII, memo::HashTable, Limits, Progress};
///
/// static PROGRESS: Progress = Progress::new();
/// let game = StoneGameII::new((1..=200).map(|i| i % 7 + 1).collect()).unwrap();
/// let limits = Limits::default().progress(&PROGRESS);
/// let solution = exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new().limits(limits)).unwrap();
/// // Written at every 1024th store: close to the final count, never above it.
/// assert!(PROGRESS.stored() > 0 && PROGRESS.stored() <= solution.stats().stored as u64);
/// assert!(PROGRESS.bytes() > 0);
/// ```
#[derive(Debug, Default)]
pub struct Progress {
    stored: AtomicU64,
    searched: AtomicU64,
    bytes: AtomicU64,
    done: AtomicU64,
    steps: AtomicU64,
    /// What the steps are: [`ROWS`], [`TIERS`] or [`BLOCKS`].
    kind: AtomicU8,
    /// Whether the solves that report here are asked to stop.
    stopping: AtomicBool,
}

impl Progress {
    /// Counters at zero.
    pub const fn new() -> Self {
        Progress {
            stored: AtomicU64::new(0),
            searched: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            done: AtomicU64::new(0),
            steps: AtomicU64::new(0),
            kind: AtomicU8::new(ROWS),
            stopping: AtomicBool::new(false),
        }
    }

    /// Asks every solve that reports here to stop: each returns
    /// [`SolveError::Stopped`](crate::SolveError::Stopped) at its next check of its limits (every 1024
    /// stored states, each tier, each level of retrograde propagation), from whichever thread
    /// calls this (a signal handler's thread, an interpreter's). Solves started after it stop
    /// too, until [`resume`](Progress::resume).
    ///
    /// ```
    /// use gamesolver::{games::StoneGameII, SolveError, Limits, Progress, Solver};
    ///
    /// static PROGRESS: Progress = Progress::new();
    /// let game = StoneGameII::new((1..=300).map(|i| i % 7 + 1).collect()).unwrap();
    /// PROGRESS.stop();
    /// let stopped = Solver::new(&game).limits(Limits::default().progress(&PROGRESS)).solve();
    /// assert!(matches!(stopped, Err(SolveError::Stopped)));
    /// PROGRESS.resume();
    /// let solved = Solver::new(&game).limits(Limits::default().progress(&PROGRESS)).solve();
    /// assert!(solved.is_ok());
    /// ```
    pub fn stop(&self) {
        self.stopping.store(true, Ordering::Relaxed);
    }

    /// Lets solves that report here run again after [`stop`](Progress::stop).
    pub fn resume(&self) {
        self.stopping.store(false, Ordering::Relaxed);
    }

    /// Whether [`stop`](Progress::stop) was called since the last
    /// [`resume`](Progress::resume).
    pub fn stopping(&self) -> bool {
        self.stopping.load(Ordering::Relaxed)
    }

    /// `Err(SolveError::Stopped)` once the solves reporting here are asked to stop.
    #[inline]
    pub(crate) fn go_on(&self) -> Result<(), SolveError> {
        if self.stopping() {
            Err(SolveError::Stopped)
        } else {
            Ok(())
        }
    }

    /// The states an engine has stored so far (in all the workers' shared table).
    pub fn stored(&self) -> u64 {
        self.stored.load(Ordering::Relaxed)
    }

    /// The states the pruning engine has searched so far (valued from their moves), in all its
    /// workers; 0 for the other engines. Its table of bounds is fixed or replaces old entries,
    /// so what it stores says less about its progress than what it searches.
    ///
    /// ```
    /// use gamesolver::{
    ///     engines::pruning, games::ConnectFour, memo::FixedBoundTable, Limits, Progress,
    /// };
    ///
    /// static PROGRESS: Progress = Progress::new();
    /// let game = ConnectFour::new(5, 4).unwrap();
    /// let table = FixedBoundTable::for_game(&game, 1 << 20).unwrap();
    /// let options = pruning::Options::new().ranged().limits(Limits::default().progress(&PROGRESS));
    /// let solved = pruning::solve(&game, table, options).unwrap();
    /// // Added every 1024 states: close to the final count, never above it.
    /// assert!(PROGRESS.searched() > 0 && PROGRESS.searched() <= solved.stats().expanded);
    /// ```
    pub fn searched(&self) -> u64 {
        self.searched.load(Ordering::Relaxed)
    }

    /// The bytes the solve held at its last check: its table and its stacks.
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// `(done, of)` for a solver that works in a known number of steps; `None` for the others.
    pub fn steps(&self) -> Option<(u64, u64)> {
        match self.steps.load(Ordering::Relaxed) {
            0 => None,
            of => Some((self.done.load(Ordering::Relaxed), of)),
        }
    }

    /// What a step is: `"tier"` for the tier solver, `"block"` (of 4096 indices) for the tier
    /// solver sweeping an ordered index on one thread or a subset index on any, `"row"` for
    /// the specialised Stone Game II solver.
    ///
    /// ```
    /// use gamesolver::{engines::tiers::{self, KeepTiers}, Limits, Progress};
    /// use gamesolver::games::{ConnectFour, DotsAndBoxes};
    ///
    /// static PROGRESS: Progress = Progress::new();
    /// let limits = Limits::default().progress(&PROGRESS);
    /// // Dots and Boxes' index is a subset index: swept in blocks on two threads as on one.
    /// let game = DotsAndBoxes::new(2, 3).unwrap(); // 17 edges: 2^17 boards, 32 blocks
    /// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// pool.install(|| tiers::par_solve(&game, tiers::Options::new().limits(limits))).unwrap();
    /// assert_eq!((PROGRESS.steps(), PROGRESS.step_name()), (Some((32, 32)), "block"));
    /// // Connect Four declares no dense index: by tiers, one per number of stones.
    /// let board = ConnectFour::new(4, 4).unwrap();
    /// tiers::solve(&board, tiers::Options::new().limits(limits)).unwrap();
    /// assert_eq!((PROGRESS.steps(), PROGRESS.step_name()), (Some((17, 17)), "tier"));
    /// ```
    pub fn step_name(&self) -> &'static str {
        match self.kind.load(Ordering::Relaxed) {
            TIERS => "tier",
            BLOCKS => "block",
            _ => "row",
        }
    }

    /// Records the states stored and the bytes held.
    #[inline]
    pub(crate) fn record(&self, stored: u64, bytes: u64) {
        self.stored.store(stored, Ordering::Relaxed);
        self.bytes.store(bytes, Ordering::Relaxed);
    }

    /// Adds `states` searched (by one worker of the pruning engine).
    #[inline]
    pub(crate) fn add_searched(&self, states: u64) {
        self.searched.fetch_add(states, Ordering::Relaxed);
    }

    /// Records `done` of `of` tiers, and the bytes held.
    #[inline]
    pub(crate) fn record_tiers(&self, done: u64, of: u64, bytes: u64) {
        self.kind.store(TIERS, Ordering::Relaxed);
        self.record_steps(done, of, bytes);
    }

    /// Records `done` of `of` blocks of indices, and the bytes held.
    #[inline]
    pub(crate) fn record_blocks(&self, done: u64, of: u64, bytes: u64) {
        self.kind.store(BLOCKS, Ordering::Relaxed);
        self.record_steps(done, of, bytes);
    }

    /// Records `done` of `of` steps (rows: what [`step_name`](Progress::step_name) says unless
    /// an engine said otherwise), and the bytes held: how a solver of a game's own, such as
    /// Stone Game II's specialised one, reports where it stands to whoever reads the handle.
    ///
    /// ```
    /// use gamesolver::Progress;
    ///
    /// static PROGRESS: Progress = Progress::new();
    /// PROGRESS.record_steps(3, 10, 4096);
    /// assert_eq!((PROGRESS.steps(), PROGRESS.bytes()), (Some((3, 10)), 4096));
    /// ```
    #[inline]
    pub fn record_steps(&self, done: u64, of: u64, bytes: u64) {
        self.done.store(done, Ordering::Relaxed);
        self.steps.store(of, Ordering::Relaxed);
        self.bytes.store(bytes, Ordering::Relaxed);
    }
}

/// Steps that are rows of a table.
const ROWS: u8 = 0;
/// Steps that are tiers.
const TIERS: u8 = 1;
/// Steps that are blocks of indices.
const BLOCKS: u8 = 2;

/// Two handles are equal when they are the same counters (so that [`Limits`](crate::Limits)
/// stays comparable).
impl PartialEq for Progress {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for Progress {}
