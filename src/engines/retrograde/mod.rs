//! Retrograde analysis: games whose play may cycle, solved backwards from their final states.
//!
//! An *outcome game* ends in a win, a loss or a draw for the side to move (payoff +1, −1 or 0)
//! and its moves gain nothing; endless play is a draw. The solver
//!
//! 1. discovers every state reachable from the start (forward moves only), numbering them and
//!    keeping each state's moves as compact arrays of child numbers;
//! 2. builds the reverse edges from those arrays (a second pair of compact arrays);
//! 3. propagates from the final states by remoteness: every state decided at remoteness `r`
//!    tells its predecessors; a predecessor with a child lost for the opponent is won (at
//!    `r + 1`, its fastest win), and one whose children are all won for the opponent is lost
//!    (at `r + 1` when the last of them is decided, its slowest loss). Each state counts its
//!    undecided children, so every edge is looked at once.
//! 4. What is still undecided then can force neither side's win: a draw, with no remoteness.
//!
//! [`par_solve`] propagates each remoteness level in parallel on rayon (a state is won by
//! whichever worker gets there first, at the same remoteness, and lost by the worker whose
//! decrement empties its count): the values are the same for every number of threads.

use std::hash::Hash;
use std::sync::atomic::{AtomicI8, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use hashbrown::HashMap;
use rayon::prelude::*;

use crate::engines::kernel::Limits;
use crate::engines::kernel::Ply;
use crate::engines::kernel::limits::reserve_within;
use crate::error::SolveError;
use crate::game::{DenseIndex, Game, Player, Predecessors, Score, StateAt, Turn};
use crate::memo::FastHashBuilder;

mod graph;
mod ids;
mod propagation;
mod queries;

use graph::{over_index_space, with_stored_moves, with_unmoves};
use ids::fallible;
pub use ids::{DenseIds, HashIds, StateIds};
use propagation::{OneThread, Pool, Spread};

/// The result of a position for the side to move, with perfect play by both sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move can force a win.
    Win,
    /// The other side can force a win.
    Loss,
    /// Neither side can force a win (play may go on forever).
    Draw,
}

impl Outcome {
    /// +1, −1 or 0.
    ///
    /// ```
    /// use gamesolver::engines::retrograde::Outcome;
    /// assert_eq!(Outcome::Loss.value(), -1);
    /// ```
    pub fn value(self) -> Score {
        match self {
            Outcome::Win => 1,
            Outcome::Loss => -1,
            Outcome::Draw => 0,
        }
    }

    /// The outcome a value of an outcome game stands for: positive a win, negative a loss,
    /// 0 a draw.
    ///
    /// ```
    /// use gamesolver::engines::retrograde::Outcome;
    /// assert_eq!(Outcome::of_value(1), Outcome::Win);
    /// assert_eq!(Outcome::of_value(0), Outcome::Draw);
    /// ```
    pub fn of_value(value: Score) -> Outcome {
        match value.signum() {
            1 => Outcome::Win,
            -1 => Outcome::Loss,
            _ => Outcome::Draw,
        }
    }

    /// The outcome for the other side.
    pub fn flipped(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
        }
    }

    fn of(code: i8) -> Outcome {
        match code {
            WIN => Outcome::Win,
            LOSS => Outcome::Loss,
            _ => Outcome::Draw,
        }
    }
}

/// Outcome codes in the solver's arrays (for the side to move).
const WIN: i8 = 1;
const LOSS: i8 = -1;
const DRAW: i8 = 0;
const UNDECIDED: i8 = 2;

/// The bit of a child number that says the move keeps the turn.
const KEEP: u32 = 1 << 31;
/// The most states the solver numbers (child numbers are 31 bits).
pub const MAX_STATES: usize = (KEEP - 1) as usize;
/// Remoteness of a draw in the arrays.
const NONE: u32 = u32::MAX;

/// What a retrograde solve did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RetroStats {
    /// Reachable states.
    pub states: usize,
    /// Moves among them.
    pub moves: usize,
    /// Final states (no move).
    pub finals: usize,
    /// The largest remoteness (the number of propagation levels).
    pub levels: u32,
    /// The heap bytes the solution holds.
    pub bytes: u64,
    /// Wall-clock time of the solve.
    pub elapsed: Duration,
}

/// Every reachable state of an outcome game with its outcome and remoteness.
///
/// ```
/// use gamesolver::{engines::retrograde::{self, Outcome}, Game, Limits, Score, Step, Turn};
///
/// /// A counter on a ring of 4: move +1 or +2; whoever reaches 0 wins; from 3 only +2
/// /// (to 1), so play from 1 can circle 1 → 3 → 1 … forever.
/// struct Ring;
/// impl Game for Ring {
///     type State = u8;
///     type Move = u8;
///     fn start(&self) -> u8 { 1 }
///     fn moves(&self, at: &u8) -> impl Iterator<Item = u8> {
///         let at = *at;
///         [1, 2].into_iter().filter(move |by| at != 0 && (at != 3 || *by == 2))
///     }
///     fn play(&self, at: &u8, by: &u8) -> Step<u8> {
///         Step { next: (at + by) % 4, gain: 0, turn: Turn::Pass }
///     }
///     fn payoff(&self, _: &u8) -> Score { -1 } // at 0, the side to move has lost
/// }
///
/// let solved = retrograde::solve(&Ring, retrograde::HashIds::new(), retrograde::Options::new()).unwrap();
/// // From 1: +1 to 2 leaves the opponent at 2, who wins at once (+2); +2 to 3 forces 3 → 1.
/// assert_eq!(solved.outcome(), Outcome::Draw);
/// assert_eq!(solved.outcome_of(&2), Some((Outcome::Win, Some(1))));
/// assert_eq!(solved.remoteness(), None);
/// ```
pub struct Retrograde<'g, G: Game, I = HashIds<<G as Game>::State>> {
    game: &'g G,
    ids: I,
    states: Vec<G::State>,
    /// The start's number.
    start: usize,
    /// How many moves each state has.
    degree: Vec<u32>,
    /// State `s`'s children are `children[first[s]..first[s + 1]]`, in move order (both empty
    /// when the game gives its predecessors: the children are then looked up again).
    first: Vec<u32>,
    children: Vec<u32>,
    outcome: Vec<i8>,
    remoteness: Vec<u32>,
    stats: RetroStats,
}

/// The retrograde solver's options: the limits.
///
/// ```
/// use gamesolver::Limits;
/// use gamesolver::engines::retrograde::Options;
///
/// let options = Options::new().limits(Limits::with_memory_budget(1 << 30));
/// assert_eq!(options.limits.memory_budget, 1 << 30);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// The memory budget, time limit and progress.
    pub limits: Limits,
}

impl Options {
    /// The default limits.
    pub fn new() -> Self {
        Options::default()
    }

    /// Uses `limits`.
    pub fn limits(self, limits: Limits) -> Self {
        Options { limits }
    }
}

/// Solves `game`, an outcome game that may cycle, by retrograde analysis on one thread,
/// numbering its states with `ids`: [`HashIds`] in a hash map, or [`DenseIds`] by the game's
/// dense index (faster).
///
/// Every state reachable from the start is stored, with its moves and their reverse; the
/// memory is estimated as it grows and refused past the options' memory budget
/// ([`SolveError::MemoryBudget`]). A final state whose payoff is not −1, 0 or +1, or a move that
/// gains points, is [`SolveError::InvalidGame`].
///
/// ```
/// use gamesolver::games::CatAndMouse;
/// use gamesolver::engines::retrograde::{solve, DenseIds, Options, Outcome};
///
/// let game = CatAndMouse::new(vec![vec![1, 3], vec![0], vec![3], vec![0, 2]]).unwrap();
/// let solved = solve(&game, DenseIds::for_game(&game), Options::new()).unwrap();
/// assert_eq!((solved.outcome(), solved.remoteness()), (Outcome::Win, Some(1)));
/// ```
pub fn solve<G, I>(game: &G, ids: I, options: Options) -> Result<Retrograde<'_, G, I>, SolveError>
where
    G: Game,
    I: StateIds<G>,
{
    crate::engines::chance::refuse_chance(game, "retrograde analysis")?;
    with_stored_moves(game, ids, options.limits, OneThread)
}

/// Numbers that are the game's own indices (for [`solve_indexed`], which solves every
/// index).
#[derive(Debug, Clone, Copy, Default)]
pub struct Indexed;

impl<G: DenseIndex + ?Sized> StateIds<G> for Indexed {
    #[inline]
    fn id(&self, game: &G, state: &G::State) -> Option<u32> {
        Some(game.index(state) as u32)
    }

    fn id_or(&mut self, game: &G, state: &G::State, _: u32) -> (u32, bool) {
        (game.index(state) as u32, false)
    }

    fn bytes(&self) -> u64 {
        0
    }
}

/// Retrograde analysis over a game's whole index space: every index that holds a state
/// ([`StateAt`]) is valued, reachable from the start or not, with no numbering, no discovery
/// and no stored moves: the outcome, remoteness and move count arrays are indexed by the
/// game's own index (9 bytes an index), and predecessors come from the game
/// ([`Predecessors`]). The fastest mode when most indices are states that can be reached (the
/// Cat and Mouse games); the reachable states' outcomes and remotenesses are those of
/// [`solve`]. Final states' payoffs are checked; moves are not played here, so a game
/// whose moves gain points is not caught (the other modes catch it).
///
/// ```
/// use gamesolver::{engines::retrograde::{self, Outcome}, games::CatAndMouse, Limits};
///
/// let game = CatAndMouse::new(vec![vec![1, 3], vec![0], vec![3], vec![0, 2]]).unwrap();
/// let solved = retrograde::solve_indexed(&game, retrograde::Options::new()).unwrap();
/// assert_eq!((solved.outcome(), solved.remoteness()), (Outcome::Win, Some(1)));
/// ```
pub fn solve_indexed<G>(
    game: &G,
    options: Options,
) -> Result<Retrograde<'_, G, Indexed>, SolveError>
where
    G: StateAt + Predecessors,
{
    crate::engines::chance::refuse_chance(game, "retrograde analysis")?;
    over_index_space(game, options.limits, OneThread)
}

/// [`solve_indexed`], each level propagated in parallel on the current rayon pool.
pub fn par_solve_indexed<G>(
    game: &G,
    options: Options,
) -> Result<Retrograde<'_, G, Indexed>, SolveError>
where
    G: StateAt + Predecessors + Sync,
    G::State: Send + Sync,
{
    crate::engines::chance::refuse_chance(game, "retrograde analysis")?;
    over_index_space(game, options.limits, Pool)
}

impl<'g, G: StateAt> Retrograde<'g, G, Indexed> {
    /// The arrays over the whole index space, every state's move count, and the final states
    /// decided (the first frontier).
    #[allow(clippy::type_complexity)]
    fn index_space(game: &'g G, limits: Limits) -> Result<(Self, Vec<u32>, Vec<u32>), SolveError> {
        let len = game.index_len();
        if len > MAX_STATES {
            return Err(SolveError::InvalidGame(format!(
                "{len} indices: more than the {MAX_STATES} the retrograde solver numbers"
            )));
        }
        let needed = len as u64 * 9;
        if needed > limits.memory_budget {
            return Err(SolveError::MemoryBudget {
                what: format!("retrograde analysis of {len} indices"),
                needed,
                budget: limits.memory_budget,
            });
        }
        let mut solved = Retrograde {
            game,
            ids: Indexed,
            start: game.index(&game.start()),
            degree: Vec::new(),
            states: Vec::new(),
            first: Vec::new(),
            children: Vec::new(),
            outcome: fallible(len, DRAW)?,
            remoteness: fallible(len, NONE)?,
            stats: RetroStats::default(),
        };
        let mut counts = fallible(len, 0u32)?;
        let mut frontier = Vec::new();
        let mut moves = Vec::new();
        let mut valid = 0;
        for (index, count) in counts.iter_mut().enumerate() {
            // An index without a state stays a "draw" that nothing reaches.
            let Some(state) = game.state_at(index) else {
                continue;
            };
            valid += 1;
            let listed = game.move_count(&state).unwrap_or_else(|| {
                moves.clear();
                game.moves_into(&state, &mut moves);
                moves.len()
            });
            *count = listed as u32;
            solved.stats.moves += listed;
            if listed == 0 {
                let payoff = game.payoff(&state);
                if !(-1..=1).contains(&payoff) {
                    return Err(SolveError::InvalidGame(format!(
                        "a final state pays {payoff}, but an outcome game's final states pay \
                         +1 (won), -1 (lost) or 0 (drawn) to the side to move"
                    )));
                }
                solved.stats.finals += 1;
                solved.outcome[index] = payoff as i8;
                if payoff != 0 {
                    solved.remoteness[index] = 0;
                    frontier.push(index as u32);
                }
            } else {
                solved.outcome[index] = UNDECIDED;
            }
        }
        solved.stats.states = valid;
        Ok((solved, frontier, counts))
    }
}

/// [`solve`] for a game that gives its predecessors: the moves and their reverse are not
/// stored (see [`Predecessors`]). The same outcomes and remotenesses.
pub fn solve_with_predecessors<G, I>(
    game: &G,
    ids: I,
    options: Options,
) -> Result<Retrograde<'_, G, I>, SolveError>
where
    G: Predecessors,
    I: StateIds<G>,
{
    crate::engines::chance::refuse_chance(game, "retrograde analysis")?;
    with_unmoves(game, ids, options.limits, OneThread)
}

/// [`solve_with_predecessors`], each level propagated in parallel on the current rayon pool.
pub fn par_solve_with_predecessors<G, I>(
    game: &G,
    ids: I,
    options: Options,
) -> Result<Retrograde<'_, G, I>, SolveError>
where
    G: Predecessors + Sync,
    G::State: Send + Sync,
    I: StateIds<G> + Sync,
{
    crate::engines::chance::refuse_chance(game, "retrograde analysis")?;
    with_unmoves(game, ids, options.limits, Pool)
}

/// [`solve`] with each remoteness level propagated in parallel on the current rayon pool.
/// The outcomes and remotenesses are the same as [`solve`]'s for every number of threads.
/// (States are discovered on one thread.)
pub fn par_solve<G, I>(
    game: &G,
    ids: I,
    options: Options,
) -> Result<Retrograde<'_, G, I>, SolveError>
where
    G: Game + Sync,
    G::State: Send + Sync,
    I: StateIds<G>,
{
    crate::engines::chance::refuse_chance(game, "retrograde analysis")?;
    with_stored_moves(game, ids, options.limits, Pool)
}
