//! The front door: [`Solver`] reads what a game declares ([`Game::capabilities`]) and runs the
//! engine and table that suit it; every engine's result answers through [`Solved`].

mod chance;
#[cfg(feature = "database")]
mod databases;
mod declared;
mod loopy;
mod plan;
mod run;
mod sample;
mod solved;

use std::time::Duration;

pub use declared::{RangeJob, with_declared_range};
use plan::Facts;
pub use plan::{Cuts, Plan, RETROGRADE_BYTES, RETROGRADE_STATES, Why};
pub use sample::{DEEP_PLIES, Further, PROOF_DECIDED, PRUNING_COST, Sample, TRIAL_STATES};
pub use solved::Solved;

use crate::engines::kernel::{Limits, MoveValue, Ply, Progress, Stats};
use crate::engines::retrograde::Outcome;
use crate::error::SolveError;
use crate::game::{Game, Score};

/// The engines [`Solver`] chooses among.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Engine {
    /// Memoized negamax over every state the search needs ([`solve`](crate::engines::exhaustive::solve),
    /// [`par_solve`](crate::engines::exhaustive::par_solve)).
    Exhaustive,
    /// Alpha-beta with a table of bounds ([`prune`](crate::engines::pruning::solve)): one position's value in a
    /// game too large for every state's.
    Pruning,
    /// Retrograde analysis of an outcome game that may cycle ([`retrograde`](crate::engines::retrograde)).
    Retrograde,
    /// Tier by tier, for a layered game ([`tiers`](crate::engines::tiers)).
    Tiers,
    /// Retrograde analysis tier by tier, for a layered outcome game whose play may cycle within
    /// a tier ([`tiers::loopy`](crate::engines::tiers::loopy)): outcome and remoteness.
    LoopyTiers,
    /// Index by index from 0 up, each state from its children's stored values, for a game
    /// whose dense index orders it ([`ordered_index`](crate::Capabilities::ordered_index)):
    /// the array DP, on one thread. Its result answers as the exhaustive engine's does.
    Sweep,
    /// Expectimax in exact fractions, for a game with [chance](crate::game::Chance) whose play
    /// cannot cycle ([`chance::solve`](crate::engines::chance::solve)).
    Expectimax,
    /// Value iteration with proved bounds, for a game with chance whose play may cycle
    /// ([`chance::iterate`](crate::engines::chance::iterate)), exact where its tiers are small.
    ValueIteration,
    /// Nimbers, for an [impartial](crate::game::Impartial) game: each independent part's
    /// nimber computed once ([`nimbers::solve`](crate::engines::nimbers::solve)), a position
    /// worth the XOR of its parts'.
    Nimbers,
    /// Depth-first proof-number search ([`proof::solve`](crate::engines::proof::solve)):
    /// one position's value in a wide game with narrow wins, with proofs that
    /// [`check_proof`](crate::check::check_proof) replays. Run where it is asked for; on one
    /// thread.
    Proof,
}

/// Solves any [`Game`] with the engine and table that suit what the game declares.
///
/// `Solver::new(&game).solve()?` is the way in: the solver reads the game's
/// [`capabilities`](Game::capabilities) once and runs the engine built for them, so a
/// declaration costs nothing per state. The builder's options are the run's threads, memory
/// budget, time limit, progress and, where the choice should not be the solver's, the engine.
///
/// # Which engine
///
/// | the game declares | engine | tables |
/// |---|---|---|
/// | [`tiers`](crate::Capabilities::tiers), [`outcome_game`](crate::Capabilities::outcome_game) and [`may_cycle`](crate::Capabilities::may_cycle) | the loopy tier solver: retrograde analysis tier by tier (levels in parallel on more than one thread), each class of a declared [`symmetry`](crate::Capabilities::symmetry) valued once | one outcome code (two bytes) per rank of the tiers a move can reach; every tier with [`Solver::keep_every_tier`] |
/// | [`tiers`](crate::Capabilities::tiers) | the tier solver (tiers in parallel on more than one thread; on one, index by index when the index is also [ordered](crate::Capabilities::ordered_index); a [subset index](crate::Capabilities::subset_index) by blocks of the index on every thread) | one flat array per tier, or one by the dense index where it fits |
/// | [`may_cycle`](crate::Capabilities::may_cycle) (with [`outcome_game`](crate::Capabilities::outcome_game)) | retrograde analysis (levels in parallel on more than one thread) | states numbered by the dense index, else in a hash map |
/// | an [`ordered_index`](crate::Capabilities::ordered_index) (or a [`subset_index`](crate::Capabilities::subset_index)) | the sweep: index by index from 0 up, the array DP (one thread) | a flat array by the index (where it does not fit the budget: the exhaustive engine on a hash table) |
/// | [`outcome_game`](crate::Capabilities::outcome_game) and a [`dense_index`](crate::Capabilities::dense_index) of at most [`RETROGRADE_STATES`] slots (whose moves, guessed from the start's, fit [`RETROGRADE_BYTES`]) | retrograde analysis on one thread, for the remoteness and the swift line; past [`RETROGRADE_BYTES`] of memory the exhaustive engine instead, and the answer's [`plan`](Answer::plan) says so | states numbered by the dense index |
/// | a [`compact_key`](crate::Capabilities::compact_key) | the pruning engine (one position's value in a game too large to value every state; parallel on more than one thread) | a fixed bound table keyed by it, from half the last-level cache, growing eightfold when a stage runs out of its time ([`pruning::growing`](crate::engines::pruning::growing), [`Plan::compact_key`]); a hash table of whole states where the keys do not fit the first table, or with a declared symmetry |
/// | a [`dense_index`](crate::Capabilities::dense_index) that pays: at most 2²⁰ slots, or at most 8 a state of a declared [`state_bound`](Game::state_bound) (its states are few enough to value each) | the exhaustive engine; parallel on more than one thread | a flat array by the index where it fits the memory budget ([`Plan::dense`]) |
/// | anything else | the engine a [`Sample`](crate::engines::Sample) of the game prefers: the exhaustive engine (and for a game whose playouts run 4096 plies or more; retrograde analysis for such a game that is an outcome game with a dense index whose moves fit [`RETROGRADE_BYTES`]) or the pruning engine, on the threads asked for ([`Plan::why`], [`Plan::reason`]); past the budget, the exhaustive engine gives way to the pruning engine ([`Plan::instead_of`]) | hash tables; the pruning engine's stays within half the budget by forgetting its cheaper entries |
///
/// A declared [`symmetry`](crate::Capabilities::symmetry) makes the exhaustive and pruning
/// engines' tables store each class of symmetric states once ([`Plan::symmetry`]).
///
/// The exhaustive engine cuts on the declared [`value_range`](crate::Capabilities::value_range),
/// or on −1..1 for an outcome game: a win/lose game stops at its first winning move. The
/// pruning engine values one position of a game too large to value every state, and proves
/// bounds with null windows where the exhaustive engine must value every move of a state that
/// cannot win (a drawn or lost one). Which pays is the game's: Kalah's pruning solve is 25×
/// faster, Can I Win's half as fast, with the same declarations. Where nothing declared
/// decides, the plan takes a sample of the game (a few milliseconds: random playouts, then the
/// positions near their ends solved by both engines in a race, further and further back) and
/// runs the engine that did less work; docs/architecture.md ("How the plan chooses") and
/// docs/performance.md ("A newcomer's games") give the rule and its measurements.
///
/// One thread unless [`threads`](Solver::threads) says more: more threads pay off on large
/// games only (docs/performance.md), so an engine the solver chose itself runs on one thread
/// where the game's [`state_bound`](Game::state_bound) is below
/// [`SERIAL_CUTOFF`](crate::engines::exhaustive::SERIAL_CUTOFF) (an engine asked for with
/// [`engine`](Solver::engine) gets the threads asked for). The command line's `auto` is this
/// plan, offered every core.
///
/// ```
/// use gamesolver::{games::StoneGameII, Solved, Solver};
///
/// let game = StoneGameII::new(vec![2, 7, 9, 4, 4])?;
/// let mut solved = Solver::new(&game).threads(2).solve()?;
/// assert_eq!(game.alice_stones(solved.value()), 10);
/// assert_eq!(solved.line()?.len(), 3);
/// # Ok::<(), gamesolver::Error>(())
/// ```
pub struct Solver<'g, G> {
    game: &'g G,
    threads: usize,
    limits: Limits,
    engine: Option<Engine>,
    every_tier: bool,
    /// The answer will be asked for the remoteness: the plan leaves the pruning engine out.
    remoteness: bool,
    /// Where the nimber engine saves its table as it goes.
    journal: Option<&'g crate::engines::nimbers::Journal>,
}

impl<G> Clone for Solver<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G> Copy for Solver<'_, G> {}

impl<G> std::fmt::Debug for Solver<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("threads", &self.threads)
            .field("limits", &self.limits)
            .field("engine", &self.engine)
            .field("every_tier", &self.every_tier)
            .field("remoteness", &self.remoteness)
            .finish_non_exhaustive()
    }
}

impl<'g, G: Game> Solver<'g, G> {
    /// A solver for `game`: one thread, the default [`Limits`], the engine its declarations
    /// choose.
    pub fn new(game: &'g G) -> Self {
        Solver {
            game,
            threads: 1,
            limits: Limits::default(),
            engine: None,
            every_tier: false,
            remoteness: false,
            journal: None,
        }
    }

    /// Solves on `threads` threads (0: one per core), in a rayon pool of the solver's own.
    pub fn threads(self, threads: usize) -> Self {
        let threads = if threads == 0 {
            std::thread::available_parallelism().map_or(1, usize::from)
        } else {
            threads
        };
        Solver { threads, ..self }
    }

    /// The most heap bytes the solve may use ([`Limits::memory_budget`]); past it the solve
    /// stops with [`SolveError::MemoryBudget`]. The default is half of the memory the system lets
    /// this process have.
    pub fn memory_limit(self, bytes: u64) -> Self {
        Solver {
            limits: Limits {
                memory_budget: bytes,
                ..self.limits
            },
            ..self
        }
    }

    /// The longest the solve (and each later query) may search; past it the solve stops with
    /// [`SolveError::TimeLimit`].
    pub fn time_limit(self, limit: Duration) -> Self {
        Solver {
            limits: self.limits.time_limit(limit),
            ..self
        }
    }

    /// Publishes the solve's progress to `progress`, which another thread may read.
    pub fn progress(self, progress: &'static Progress) -> Self {
        Solver {
            limits: self.limits.progress(progress),
            ..self
        }
    }

    /// All the limits at once.
    pub fn limits(self, limits: Limits) -> Self {
        Solver { limits, ..self }
    }

    /// Runs `engine` instead of the one the declarations choose; [`SolveError::Unsupported`] if the
    /// game does not declare what it needs (tiers for the tier solver, an outcome game for
    /// retrograde analysis).
    pub fn engine(self, engine: Engine) -> Self {
        Solver {
            engine: Some(engine),
            ..self
        }
    }

    /// Tells the plan that the answer will be asked for the remoteness
    /// ([`Solved::remoteness`](crate::Solved::remoteness), [`Answer::line_with_remoteness`]),
    /// which the pruning engine does not measure: where the declarations leave the choice
    /// between the exhaustive and the pruning engine, the exhaustive engine runs
    /// ([`Why::Remoteness`](crate::engines::Why::Remoteness)) instead of the one a sample
    /// prefers. An engine asked for, or one the declarations decide, is kept.
    ///
    /// ```
    /// use gamesolver::engines::Why;
    /// use gamesolver::{Engine, Game, Score, Solver, Step, Turn};
    ///
    /// /// Take 1 or 2 from a pile; who takes the last wins.
    /// struct Race(u32);
    ///
    /// impl Game for Race {
    ///     type State = u32;
    ///     type Move = u32;
    ///     fn start(&self) -> u32 {
    ///         self.0
    ///     }
    ///     fn moves(&self, left: &u32) -> impl Iterator<Item = u32> {
    ///         (1..=2).filter(move |take| take <= left)
    ///     }
    ///     fn play(&self, left: &u32, take: &u32) -> Step<u32> {
    ///         Step { next: left - take, gain: 0, turn: Turn::Pass }
    ///     }
    ///     fn payoff(&self, _: &u32) -> Score {
    ///         -1
    ///     }
    /// }
    ///
    /// let plan = Solver::new(&Race(30)).remoteness().plan()?;
    /// assert_eq!((plan.engine, plan.why), (Engine::Exhaustive, Why::Remoteness));
    /// # Ok::<(), gamesolver::Error>(())
    /// ```
    pub fn remoteness(self) -> Self {
        Solver {
            remoteness: true,
            ..self
        }
    }

    /// Keeps every tier the tier solver solves, so that the result answers for every state
    /// and gives the line of play (by default it keeps only the tiers a move can still reach,
    /// unless it lays them out by the game's dense index, which keeps them all:
    /// [`TierStats::dense`](crate::engines::tiers::TierStats::dense)).
    pub fn keep_every_tier(self) -> Self {
        Solver {
            every_tier: true,
            ..self
        }
    }

    /// Saves the nimber engine's table of parts' nimbers to `journal` as the solve goes, and
    /// where the journal resumes, starts from the nimbers its file holds (for an impartial
    /// game whose parts have keys: [`Journal`](crate::engines::nimbers::Journal)). A plan
    /// that runs another engine is refused ([`SolveError::Unsupported`]).
    ///
    /// ```
    /// use gamesolver::{engines::nimbers::Journal, games::Cram, Solved, Solver};
    ///
    /// let game = Cram::new(3, 6)?;
    /// let path = std::env::temp_dir().join(format!("solver-cram-{}.nimbers", std::process::id()));
    /// let journal = Journal::new(&path, "cram 3 6");
    /// assert_eq!(Solver::new(&game).save_nimbers(&journal).solve()?.nimber(), Some(4));
    /// let resumed = journal.clone().resumed();
    /// assert_eq!(Solver::new(&game).threads(2).save_nimbers(&resumed).solve()?.nimber(), Some(4));
    /// std::fs::remove_file(&path).unwrap();
    /// # Ok::<(), gamesolver::Error>(())
    /// ```
    pub fn save_nimbers(self, journal: &'g crate::engines::nimbers::Journal) -> Self {
        Solver {
            journal: Some(journal),
            ..self
        }
    }
}

impl<G: Game + Sync> Solver<'_, G>
where
    G::State: Eq + std::hash::Hash + Send + Sync,
{
    /// What [`solve`](Solver::solve) will run, or why it cannot.
    ///
    /// ```
    /// use gamesolver::{engines::Cuts, games::{Nim, TicTacToe}, Engine, Solver};
    ///
    /// // A small outcome game: retrograde analysis, on one thread, its states numbered by the
    /// // dense index (for the remoteness and the swift line).
    /// let plan = Solver::new(&TicTacToe).threads(2).plan()?;
    /// assert_eq!((plan.engine, plan.threads, plan.dense), (Engine::Retrograde, 1, true));
    /// // An impartial game: its nimbers, part by part, on the threads asked for.
    /// let game = Nim::new(vec![3, 4, 5])?;
    /// let plan = Solver::new(&game).threads(2).plan()?;
    /// assert_eq!((plan.engine, plan.threads), (Engine::Nimbers, 2));
    /// // The exhaustive engine when asked, cutting on the declared range.
    /// let plan = Solver::new(&game).threads(2).engine(Engine::Exhaustive).plan()?;
    /// assert_eq!((plan.engine, plan.threads, plan.dense), (Engine::Exhaustive, 2, true));
    /// assert_eq!(plan.cuts, Cuts::Declared);
    /// # Ok::<(), gamesolver::Error>(())
    /// ```
    pub fn plan(&self) -> Result<Plan, SolveError> {
        let declared = self.game.capabilities();
        self.settle(&declared, Facts::of(self.game, &declared), true)
    }
}

/// The most moves [`Answer::line`] values to find an outcome game's swift line (the winner as
/// fast as it can, the loser as slowly) before it gives the first optimal move at each state
/// instead: in a game of many moves a state, finding it can cost far more than the solve.
pub const SWIFT_MOVES: usize = 1 << 15;

/// What [`Solver::solve`] returns: the result of whichever engine ran, answering through
/// [`Solved`].
pub struct Answer<'g, G: Game> {
    inner: Box<dyn Solved<G> + 'g>,
    outcome_game: bool,
    plan: Plan,
}

impl<G: Game> Answer<'_, G> {
    /// What ran: the engine, the threads, whether values were kept in a flat array by the
    /// dense index or in hash tables, and the cuts (what [`Solver::plan`] said before the solve).
    ///
    /// ```
    /// use gamesolver::{Solver, games::Nim};
    ///
    /// let game = Nim::new(vec![3, 4, 5]).unwrap();
    /// let solver = Solver::new(&game);
    /// let plan = solver.plan().unwrap();
    /// assert_eq!(solver.solve().unwrap().plan(), plan);
    /// ```
    pub fn plan(&self) -> Plan {
        self.plan
    }

    /// [`Solved::line`], with the start's remoteness where that line measures it: a won or
    /// lost start of an outcome game whose swift line was found (its length is the
    /// remoteness). `None` for a draw, a score game, or a swift line that cost more than
    /// [`SWIFT_MOVES`] to find; [`remoteness`](Solved::remoteness) measures it at any cost.
    ///
    /// ```
    /// use gamesolver::{Solved, Solver, games::Nim};
    ///
    /// let game = Nim::new(vec![3, 4, 5]).unwrap();
    /// let mut answer = Solver::new(&game).solve().unwrap();
    /// let (line, remoteness) = answer.line_with_remoteness().unwrap();
    /// assert_eq!((line.len(), remoteness), (11, Some(11)));
    /// let start = answer.start().clone();
    /// assert_eq!(answer.remoteness(&start).unwrap(), Some(11));
    /// ```
    pub fn line_with_remoteness(&mut self) -> Result<(Vec<Ply<G>>, Option<u32>), SolveError> {
        if self.outcome_game
            && let Some(line) = self.inner.swift_line_within(SWIFT_MOVES)?
        {
            let remoteness = if self.inner.value() == 0 {
                None
            } else {
                u32::try_from(line.len()).ok()
            };
            return Ok((line, remoteness));
        }
        Ok((self.inner.line()?, None))
    }

    /// The optimal line that takes the first optimal move (in the game's order) at each state,
    /// without looking for the swift line that [`line`](Solved::line) tries first in an outcome
    /// game: it values only the moves it tries, where the swift line can value up to
    /// [`SWIFT_MOVES`] moves to find the fastest win.
    ///
    /// ```
    /// use gamesolver::{Solved, Solver, games::Nim};
    ///
    /// let game = Nim::new(vec![3, 4, 5]).unwrap();
    /// let mut answer = Solver::new(&game).solve().unwrap();
    /// let line = answer.direct_line().unwrap();
    /// // Optimal: each ply keeps the value, and the first player, who wins, takes the last stone.
    /// assert_eq!(line[0].value, answer.value());
    /// assert_eq!(line.len() % 2, 1);
    /// ```
    pub fn direct_line(&mut self) -> Result<Vec<Ply<G>>, SolveError> {
        self.inner.line()
    }
}

/// The engine's answers; for an outcome game, [`line`](Solved::line) is the line in which the
/// winner wins as fast as it can and the loser loses as slowly as it can, where finding it
/// values at most [`SWIFT_MOVES`] moves (as retrograde analysis gives it), else the first
/// optimal move at each state; [`outcome`](Solved::outcome) and
/// [`remoteness`](Solved::remoteness) answer only if the game declares it is an outcome game.
impl<G: Game> Solved<G> for Answer<'_, G> {
    fn engine(&self) -> Engine {
        self.inner.engine()
    }

    fn value(&self) -> Score {
        self.inner.value()
    }

    fn start(&self) -> &G::State {
        self.inner.start()
    }

    fn value_of(&mut self, state: &G::State) -> Result<Score, SolveError> {
        self.inner.value_of(state)
    }

    fn move_values(&mut self, state: &G::State) -> Result<Vec<MoveValue<G>>, SolveError> {
        self.inner.move_values(state)
    }

    fn best_moves(&mut self, state: &G::State) -> Result<Vec<G::Move>, SolveError> {
        self.inner.best_moves(state)
    }

    fn line(&mut self) -> Result<Vec<Ply<G>>, SolveError> {
        self.line_with_remoteness().map(|(line, _)| line)
    }

    fn swift_line_within(&mut self, moves: usize) -> Result<Option<Vec<Ply<G>>>, SolveError> {
        self.inner.swift_line_within(moves)
    }

    fn stats(&self) -> Stats {
        self.inner.stats()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome_game
            .then(|| Outcome::of_value(self.inner.value()))
    }

    fn values_by_index(&self) -> Option<crate::memo::SlotValues<'_>> {
        self.inner.values_by_index()
    }

    fn nimber(&self) -> Option<crate::game::Nimber> {
        self.inner.nimber()
    }

    fn nimber_of(&mut self, state: &G::State) -> Result<Option<crate::game::Nimber>, SolveError> {
        self.inner.nimber_of(state)
    }

    fn proof_size(&self) -> Option<usize> {
        self.inner.proof_size()
    }

    fn remoteness(&mut self, state: &G::State) -> Result<Option<u32>, SolveError> {
        if !self.outcome_game {
            return Ok(None);
        }
        match self.inner.remoteness(state)? {
            // The exhaustive engine measures a drawn state's length too: not a remoteness.
            Some(_) if self.inner.value_of(state)? == 0 => Ok(None),
            remoteness => Ok(remoteness),
        }
    }
}

impl<G: Game> std::fmt::Debug for Answer<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Answer")
            .field("engine", &self.engine())
            .field("value", &self.value())
            .field("stats", &self.stats())
            .finish()
    }
}
