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
//! [`par_retrograde`] propagates each remoteness level in parallel on rayon (a state is won by
//! whichever worker gets there first, at the same remoteness, and lost by the worker whose
//! decrement empties its count): the values are the same for every number of threads.

use std::hash::Hash;
use std::sync::atomic::{AtomicI8, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use hashbrown::HashMap;
use rayon::prelude::*;

use super::Limits;
use super::limits::reserve_within;
use crate::error::Error;
use crate::game::{DenseIndex, Game, Player, Score, Turn};
use crate::memo::FastHashBuilder;
use crate::solve::Ply;

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
    /// use gamesolver::Outcome;
    /// assert_eq!(Outcome::Loss.value(), -1);
    /// ```
    pub fn value(self) -> Score {
        match self {
            Outcome::Win => 1,
            Outcome::Loss => -1,
            Outcome::Draw => 0,
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
pub const MAX_RETROGRADE_STATES: usize = (KEEP - 1) as usize;
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
/// use gamesolver::{Game, Outcome, Score, Step, Turn, Limits, retrograde};
///
/// /// A counter on a ring of 4: move +1 or +2; whoever reaches 0 wins; from 3 only +2
/// /// (to 1), so play from 1 can circle 1 → 3 → 1 … forever.
/// struct Ring;
/// impl Game for Ring {
///     type State = u8;
///     type Move = u8;
///     fn start(&self) -> u8 { 1 }
///     fn moves(&self, at: &u8, moves: &mut Vec<u8>) {
///         if *at != 0 { moves.extend(if *at == 3 { vec![2] } else { vec![1, 2] }); }
///     }
///     fn play(&self, at: &u8, by: &u8) -> Step<u8> {
///         Step { next: (at + by) % 4, gain: 0, turn: Turn::Pass }
///     }
///     fn payoff(&self, _: &u8) -> Score { -1 } // at 0, the side to move has lost
/// }
///
/// let solved = retrograde(&Ring, Limits::default()).unwrap();
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

/// Solves `game`, an outcome game that may cycle, by retrograde analysis on one thread,
/// numbering its states in a hash map ([`HashIds`]; [`retrograde_with`] takes
/// [`DenseIds`] for a game with a dense index, which is faster).
///
/// Every state reachable from the start is stored, with its moves and their reverse; the
/// memory is estimated as it grows and refused past `limits.memory_budget`
/// ([`Error::MemoryBudget`]). A final state whose payoff is not −1, 0 or +1, or a move that
/// gains points, is [`Error::InvalidGame`].
pub fn retrograde<G>(game: &G, limits: Limits) -> Result<Retrograde<'_, G>, Error>
where
    G: Game,
    G::State: Eq + Hash,
{
    retrograde_with(game, HashIds::new(), limits)
}

/// [`retrograde`], numbering the states with `ids`.
///
/// ```
/// use gamesolver::{DenseIds, Limits, Outcome, retrograde_with, games::CatAndMouse};
///
/// let game = CatAndMouse::new(vec![vec![1, 3], vec![0], vec![3], vec![0, 2]]).unwrap();
/// let solved = retrograde_with(&game, DenseIds::for_game(&game), Limits::default()).unwrap();
/// assert_eq!((solved.outcome(), solved.remoteness()), (Outcome::Win, Some(1)));
/// ```
pub fn retrograde_with<G, I>(
    game: &G,
    ids: I,
    limits: Limits,
) -> Result<Retrograde<'_, G, I>, Error>
where
    G: Game,
    I: StateIds<G>,
{
    with_stored_moves(game, ids, limits, OneThread)
}

/// An optional capability for retrograde analysis: the states with a move to a given state
/// (its "un-moves").
///
/// With it, [`retrograde_with_predecessors`] stores neither the moves nor their reverse (8
/// bytes per move): it counts each state's moves while it discovers the states, and asks for
/// predecessors as it propagates, looking up their numbers. Memory then follows the states,
/// not the moves, at the cost of generating each predecessor list once.
pub trait Predecessors: Game {
    /// Calls `each` with every state that has a move to `state`, and that move's turn rule,
    /// as many times as it has such moves. Every reachable predecessor must be among them;
    /// states that cannot be reached from the start, and final states (decided before anything
    /// is propagated), may be too: both are skipped, so a game need not test for them.
    fn predecessors(&self, state: &Self::State, each: impl FnMut(Self::State, Turn));
}

/// An optional capability: the state at each index of a [`DenseIndex`] (its inverse), for
/// [`retrograde_indexed`].
pub trait StateAt: DenseIndex {
    /// The state whose index is `index`, or `None` if no state has it.
    fn state_at(&self, index: usize) -> Option<Self::State>;

    /// How many moves `state` has (0 for a final state), if the game can count them without
    /// listing them; `None` (the default) lets the solver list them with
    /// [`moves`](Game::moves). [`retrograde_indexed`] asks it of every index.
    fn move_count(&self, state: &Self::State) -> Option<usize> {
        let _ = state;
        None
    }

    /// Calls `each` with the index of every predecessor of the state at `index` (none if no
    /// state has it), and its move's turn rule, as
    /// [`predecessors`](Predecessors::predecessors) gives them. The default goes through the
    /// states ([`state_at`](StateAt::state_at), `predecessors`,
    /// [`index`](DenseIndex::index)); a game whose index arithmetic is simpler overrides it.
    /// [`retrograde_indexed`] propagates through it.
    fn predecessor_indices(&self, index: usize, mut each: impl FnMut(usize, Turn))
    where
        Self: Predecessors,
    {
        if let Some(state) = self.state_at(index) {
            self.predecessors(&state, |parent, turn| each(self.index(&parent), turn));
        }
    }
}

/// Numbers that are the game's own indices (for [`retrograde_indexed`], which solves every
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
/// [`retrograde`]. Final states' payoffs are checked; moves are not played here, so a game
/// whose moves gain points is not caught (the other modes catch it).
///
/// ```
/// use gamesolver::{Limits, Outcome, retrograde_indexed, games::CatAndMouse};
///
/// let game = CatAndMouse::new(vec![vec![1, 3], vec![0], vec![3], vec![0, 2]]).unwrap();
/// let solved = retrograde_indexed(&game, Limits::default()).unwrap();
/// assert_eq!((solved.outcome(), solved.remoteness()), (Outcome::Win, Some(1)));
/// ```
pub fn retrograde_indexed<G>(game: &G, limits: Limits) -> Result<Retrograde<'_, G, Indexed>, Error>
where
    G: StateAt + Predecessors,
{
    over_index_space(game, limits, OneThread)
}

/// [`retrograde_indexed`], each level propagated in parallel on the current rayon pool.
pub fn par_retrograde_indexed<G>(
    game: &G,
    limits: Limits,
) -> Result<Retrograde<'_, G, Indexed>, Error>
where
    G: StateAt + Predecessors + Sync,
    G::State: Send + Sync,
{
    over_index_space(game, limits, Pool)
}

impl<'g, G: StateAt> Retrograde<'g, G, Indexed> {
    /// The arrays over the whole index space, every state's move count, and the final states
    /// decided (the first frontier).
    #[allow(clippy::type_complexity)]
    fn index_space(game: &'g G, limits: Limits) -> Result<(Self, Vec<u32>, Vec<u32>), Error> {
        let len = game.index_len();
        if len > MAX_RETROGRADE_STATES {
            return Err(Error::InvalidGame(format!(
                "{len} indices: more than the {MAX_RETROGRADE_STATES} the retrograde solver numbers"
            )));
        }
        let needed = len as u64 * 9;
        if needed > limits.memory_budget {
            return Err(Error::MemoryBudget {
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
                game.moves(&state, &mut moves);
                moves.len()
            });
            *count = listed as u32;
            solved.stats.moves += listed;
            if listed == 0 {
                let payoff = game.payoff(&state);
                if !(-1..=1).contains(&payoff) {
                    return Err(Error::InvalidGame(format!(
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

/// [`retrograde_with`] for a game that gives its predecessors: the moves and their reverse are
/// not stored (see [`Predecessors`]). The same outcomes and remotenesses.
pub fn retrograde_with_predecessors<G, I>(
    game: &G,
    ids: I,
    limits: Limits,
) -> Result<Retrograde<'_, G, I>, Error>
where
    G: Predecessors,
    I: StateIds<G>,
{
    with_unmoves(game, ids, limits, OneThread)
}

/// [`retrograde_with_predecessors`], each level propagated in parallel on the current rayon
/// pool.
pub fn par_retrograde_with_predecessors<G, I>(
    game: &G,
    ids: I,
    limits: Limits,
) -> Result<Retrograde<'_, G, I>, Error>
where
    G: Predecessors + Sync,
    G::State: Send + Sync,
    I: StateIds<G> + Sync,
{
    with_unmoves(game, ids, limits, Pool)
}

/// Where propagation finds a state's predecessors: each is given as its number with the keep
/// bit of its move.
trait Parents {
    /// Calls `visit(parent, keeps)` for every move into `child` (`keeps`: the mover moves
    /// again).
    fn each(&self, child: usize, visit: impl FnMut(usize, bool));
}

/// The reverse moves, stored.
struct Stored<'a> {
    first: &'a [u32],
    preds: &'a [u32],
}

impl Parents for Stored<'_> {
    #[inline]
    fn each(&self, child: usize, mut visit: impl FnMut(usize, bool)) {
        let range = self.first[child] as usize..self.first[child + 1] as usize;
        for &edge in &self.preds[range] {
            visit((edge & !KEEP) as usize, edge & KEEP != 0);
        }
    }
}

/// The game's predecessors, numbered (unreachable ones skipped).
struct Unmoves<'a, G: Game, I> {
    game: &'a G,
    ids: &'a I,
    states: &'a [G::State],
}

impl<G: Predecessors, I: StateIds<G>> Parents for Unmoves<'_, G, I> {
    #[inline]
    fn each(&self, child: usize, mut visit: impl FnMut(usize, bool)) {
        self.game.predecessors(&self.states[child], |parent, turn| {
            if let Some(id) = self.ids.id(self.game, &parent) {
                visit(id as usize, turn == Turn::Keep);
            }
        });
    }
}

/// The game's predecessors, by their index (the whole index space is solved).
struct IndexSpace<'a, G>(&'a G);

impl<G: StateAt + Predecessors> Parents for IndexSpace<'_, G> {
    #[inline]
    fn each(&self, child: usize, mut visit: impl FnMut(usize, bool)) {
        self.0
            .predecessor_indices(child, |parent, turn| visit(parent, turn == Turn::Keep));
    }
}

/// A number with the keep bit of a move.
#[inline]
fn keep_bit(id: u32, turn: Turn) -> u32 {
    match turn {
        Turn::Pass => id,
        Turn::Keep => id | KEEP,
    }
}

/// [`Error::TimeLimit`] past the limit, saying how far propagation got.
fn solved_time(limits: Limits, clock: Instant, level: u32) -> Result<(), Error> {
    match limits.time_limit {
        Some(limit) if clock.elapsed() > limit => Err(Error::TimeLimit {
            limit,
            progress: format!("retrograde analysis propagated to remoteness {level}"),
        }),
        _ => Ok(()),
    }
}

/// How propagation runs: on the calling thread ([`propagate`]), or each level on the current
/// rayon pool ([`par_propagate`]). The sequential and parallel solvers differ only in this.
trait Spread<P: Parents> {
    /// Propagates from the frontier (with each state's count of undecided moves) through
    /// `parents`; returns the largest remoteness.
    fn spread(
        &self,
        outcome: &mut Vec<i8>,
        remoteness: &mut [u32],
        counts_and_frontier: (Vec<u32>, Vec<u32>),
        parents: &P,
        check: impl Fn(u32) -> Result<(), Error>,
    ) -> Result<u32, Error>;
}

/// Propagation on the calling thread.
struct OneThread;

impl<P: Parents> Spread<P> for OneThread {
    fn spread(
        &self,
        outcome: &mut Vec<i8>,
        remoteness: &mut [u32],
        (counts, frontier): (Vec<u32>, Vec<u32>),
        parents: &P,
        check: impl Fn(u32) -> Result<(), Error>,
    ) -> Result<u32, Error> {
        propagate(outcome, remoteness, counts, frontier, parents, check)
    }
}

/// Propagation of each level on the current rayon pool.
struct Pool;

impl<P: Parents + Sync> Spread<P> for Pool {
    fn spread(
        &self,
        outcome: &mut Vec<i8>,
        remoteness: &mut [u32],
        (counts, frontier): (Vec<u32>, Vec<u32>),
        parents: &P,
        check: impl Fn(u32) -> Result<(), Error>,
    ) -> Result<u32, Error> {
        par_propagate(outcome, remoteness, counts, frontier, parents, check)
    }
}

/// [`retrograde_with`] and [`par_retrograde_with`]: the moves stored, and their reverse.
fn with_stored_moves<G, I, S>(
    game: &G,
    ids: I,
    limits: Limits,
    spread: S,
) -> Result<Retrograde<'_, G, I>, Error>
where
    G: Game,
    I: StateIds<G>,
    S: for<'a> Spread<Stored<'a>>,
{
    let clock = Instant::now();
    let mut solved = Retrograde::discover(game, ids, limits, clock, true)?;
    let (first, preds) = solved.reverse()?;
    let (frontier, counts) = solved.finals();
    let parents = Stored {
        first: &first,
        preds: &preds,
    };
    let levels = spread.spread(
        &mut solved.outcome,
        &mut solved.remoteness,
        (counts, frontier),
        &parents,
        |level| solved_time(limits, clock, level),
    )?;
    solved.finish(clock, levels);
    Ok(solved)
}

/// [`retrograde_with_predecessors`] and its parallel mirror: no moves stored.
fn with_unmoves<G, I, S>(
    game: &G,
    ids: I,
    limits: Limits,
    spread: S,
) -> Result<Retrograde<'_, G, I>, Error>
where
    G: Predecessors,
    I: StateIds<G>,
    S: for<'a> Spread<Unmoves<'a, G, I>>,
{
    let clock = Instant::now();
    let mut solved = Retrograde::discover(game, ids, limits, clock, false)?;
    let (frontier, counts) = solved.finals();
    let Retrograde {
        outcome,
        remoteness,
        states,
        ids,
        ..
    } = &mut solved;
    let parents = Unmoves {
        game,
        ids: &*ids,
        states: &*states,
    };
    let levels = spread.spread(outcome, remoteness, (counts, frontier), &parents, |level| {
        solved_time(limits, clock, level)
    })?;
    solved.finish(clock, levels);
    Ok(solved)
}

/// [`retrograde_indexed`] and its parallel mirror: the whole index space, no discovery.
fn over_index_space<G, S>(
    game: &G,
    limits: Limits,
    spread: S,
) -> Result<Retrograde<'_, G, Indexed>, Error>
where
    G: StateAt + Predecessors,
    S: for<'a> Spread<IndexSpace<'a, G>>,
{
    let clock = Instant::now();
    let (mut solved, frontier, counts) = Retrograde::index_space(game, limits)?;
    let levels = spread.spread(
        &mut solved.outcome,
        &mut solved.remoteness,
        (counts, frontier),
        &IndexSpace(game),
        |level| solved_time(limits, clock, level),
    )?;
    solved.finish(clock, levels);
    Ok(solved)
}

/// Sequential propagation from the final states, level by level, finding predecessors through
/// `parents`. Returns the largest remoteness.
fn propagate(
    outcome: &mut [i8],
    remoteness: &mut [u32],
    mut counts: Vec<u32>,
    mut frontier: Vec<u32>,
    parents: &impl Parents,
    check: impl Fn(u32) -> Result<(), Error>,
) -> Result<u32, Error> {
    let mut level = 0u32;
    let mut next = Vec::new();
    while !frontier.is_empty() {
        check(level)?;
        for &child in &frontier {
            let decided = outcome[child as usize];
            parents.each(child as usize, |parent, keeps| {
                if outcome[parent] != UNDECIDED {
                    return;
                }
                // The child's outcome for the parent's mover.
                let seen = if keeps { decided } else { -decided };
                if seen == WIN {
                    outcome[parent] = WIN;
                    remoteness[parent] = level + 1;
                    next.push(parent as u32);
                } else {
                    counts[parent] -= 1;
                    if counts[parent] == 0 {
                        outcome[parent] = LOSS;
                        remoteness[parent] = level + 1;
                        next.push(parent as u32);
                    }
                }
            });
        }
        std::mem::swap(&mut frontier, &mut next);
        next.clear();
        level += 1;
    }
    Ok(level.saturating_sub(1))
}

/// Parallel propagation: each level's states tell their predecessors in parallel (a state is
/// won by whichever worker gets there first, at the same remoteness, and lost by the worker
/// whose decrement empties its count). Returns the largest remoteness.
fn par_propagate(
    outcome: &mut Vec<i8>,
    remoteness: &mut [u32],
    counts: Vec<u32>,
    mut frontier: Vec<u32>,
    parents: &(impl Parents + Sync),
    check: impl Fn(u32) -> Result<(), Error>,
) -> Result<u32, Error> {
    let shared: Vec<AtomicI8> = outcome.iter().map(|&o| AtomicI8::new(o)).collect();
    let counts: Vec<AtomicU32> = counts.into_iter().map(AtomicU32::new).collect();
    let mut level = 0u32;
    while !frontier.is_empty() {
        check(level)?;
        let next = frontier
            .par_iter()
            .with_min_len(256)
            .fold(Vec::new, |mut next: Vec<u32>, &child| {
                let decided = shared[child as usize].load(Ordering::Relaxed);
                parents.each(child as usize, |parent, keeps| {
                    if shared[parent].load(Ordering::Relaxed) != UNDECIDED {
                        return;
                    }
                    let seen = if keeps { decided } else { -decided };
                    if seen == WIN {
                        let won = shared[parent].compare_exchange(
                            UNDECIDED,
                            WIN,
                            Ordering::Relaxed,
                            Ordering::Relaxed,
                        );
                        if won.is_ok() {
                            next.push(parent as u32);
                        }
                    } else if counts[parent].fetch_sub(1, Ordering::Relaxed) == 1 {
                        // Every child is lost for the parent's mover: none can win it.
                        shared[parent].store(LOSS, Ordering::Relaxed);
                        next.push(parent as u32);
                    }
                });
                next
            })
            .reduce(Vec::new, |mut left, mut right| {
                left.append(&mut right);
                left
            });
        for &state in &next {
            remoteness[state as usize] = level + 1;
        }
        frontier = next;
        level += 1;
    }
    *outcome = shared.into_iter().map(AtomicI8::into_inner).collect();
    Ok(level.saturating_sub(1))
}

/// [`retrograde`] with each remoteness level propagated in parallel on the current rayon pool.
/// The outcomes and remotenesses are the same as [`retrograde`]'s for every number of threads.
/// (States are discovered on one thread.)
pub fn par_retrograde<G>(game: &G, limits: Limits) -> Result<Retrograde<'_, G>, Error>
where
    G: Game + Sync,
    G::State: Eq + Hash + Send + Sync,
{
    par_retrograde_with(game, HashIds::new(), limits)
}

/// [`par_retrograde`], numbering the states with `ids`.
pub fn par_retrograde_with<G, I>(
    game: &G,
    ids: I,
    limits: Limits,
) -> Result<Retrograde<'_, G, I>, Error>
where
    G: Game + Sync,
    G::State: Send + Sync,
    I: StateIds<G>,
{
    with_stored_moves(game, ids, limits, Pool)
}

impl<'g, G, I> Retrograde<'g, G, I>
where
    G: Game,
    I: StateIds<G>,
{
    /// The heap bytes held so far, and the bytes the rest of the solve will add per state and
    /// per move (outcome, remoteness, counts and the reverse edges).
    fn bytes(&self) -> u64 {
        let state = size_of::<G::State>() as u64;
        let map = self.ids.bytes();
        let states = self.states.capacity() as u64 * state;
        let arrays =
            (self.degree.capacity() + self.first.capacity() + self.children.capacity()) as u64 * 4;
        map + states + arrays
    }

    /// The bytes still to come once `states` and `moves` are known: outcome (1), remoteness
    /// (4), count (4) and, with stored moves, the reverse index (4) per state and a reverse
    /// move (4) per move.
    fn later_bytes(states: usize, moves: usize) -> u64 {
        states as u64 * 13 + moves as u64 * 4
    }

    fn check(&self, limits: Limits, clock: Instant, what: &str) -> Result<(), Error> {
        let needed = self
            .bytes()
            .saturating_add(Self::later_bytes(self.states.len(), self.children.len()));
        if needed > limits.memory_budget {
            return Err(Error::MemoryBudget {
                what: format!(
                    "retrograde analysis of {} states and {} moves ({what})",
                    self.states.len(),
                    self.children.len()
                ),
                needed,
                budget: limits.memory_budget,
            });
        }
        if let Some(limit) = limits.time_limit
            && clock.elapsed() > limit
        {
            return Err(Error::TimeLimit {
                limit,
                progress: format!("{} states discovered, {what}", self.states.len()),
            });
        }
        if let Some(progress) = limits.progress {
            progress.record(self.states.len() as u64, self.bytes());
        }
        Ok(())
    }

    /// Numbers every state reachable from the start (in breadth-first order) and records its
    /// moves as child numbers; checks the outcome-game contract on the way.
    fn discover(
        game: &'g G,
        ids: I,
        limits: Limits,
        clock: Instant,
        store: bool,
    ) -> Result<Self, Error> {
        let mut solved = Retrograde {
            game,
            ids,
            start: 0,
            degree: Vec::new(),
            states: Vec::new(),
            first: Vec::new(),
            children: Vec::new(),
            outcome: Vec::new(),
            remoteness: Vec::new(),
            stats: RetroStats::default(),
        };
        let start = game.start();
        solved.ids.id_or(game, &start, 0);
        solved.states.push(start);
        let mut moves = Vec::new();
        let mut next = 0;
        while next < solved.states.len() {
            if next % 4096 == 0 {
                solved.check(limits, clock, "discovering the states")?;
            }
            let state = solved.states[next].clone();
            let others = solved.bytes() - solved.degree.capacity() as u64 * 4;
            reserve_within(&mut solved.degree, others, limits.memory_budget, || {
                "the retrograde solver's move counts".into()
            })?;
            if store {
                let others = solved.bytes() - solved.first.capacity() as u64 * 4;
                reserve_within(&mut solved.first, others, limits.memory_budget, || {
                    "the retrograde solver's move index".into()
                })?;
                solved.first.push(solved.children.len() as u32);
            }
            moves.clear();
            game.moves(&state, &mut moves);
            solved.degree.push(moves.len() as u32);
            if store && solved.children.capacity() - solved.children.len() < moves.len() {
                let others = solved.bytes() - solved.children.capacity() as u64 * 4;
                let grown =
                    (solved.children.capacity() * 2).max(solved.children.len() + moves.len());
                crate::solve::limits::growth_fits(
                    others,
                    solved.children.capacity() as u64 * 4,
                    grown as u64 * 4,
                    limits.memory_budget,
                    &|| "the retrograde solver's moves".into(),
                )?;
                solved
                    .children
                    .try_reserve_exact(grown - solved.children.len())
                    .map_err(|_| Error::Allocation {
                        what: "the retrograde solver's moves".into(),
                        bytes: grown as u64 * 4,
                    })?;
            }
            if moves.is_empty() {
                let payoff = game.payoff(&state);
                if !(-1..=1).contains(&payoff) {
                    return Err(Error::InvalidGame(format!(
                        "a final state pays {payoff}, but an outcome game's final states pay \
                         +1 (won), -1 (lost) or 0 (drawn) to the side to move"
                    )));
                }
                solved.stats.finals += 1;
            }
            for mv in &moves {
                let step = game.play(&state, mv);
                if step.gain != 0 {
                    return Err(Error::InvalidGame(format!(
                        "a move gains {} points, but an outcome game's moves gain none (the \
                         result is the final state's payoff)",
                        step.gain
                    )));
                }
                let fresh = solved.states.len();
                let (child, new) = solved.ids.id_or(game, &step.next, fresh as u32);
                if new {
                    if fresh >= MAX_RETROGRADE_STATES {
                        return Err(Error::InvalidGame(format!(
                            "more than {MAX_RETROGRADE_STATES} reachable states: past what the \
                             retrograde solver numbers"
                        )));
                    }
                    // Grown within the budget (checked every 4096 states, with the numbering's
                    // share counted in `bytes`).
                    reserve_within(&mut solved.states, 0, u64::MAX, || {
                        "the retrograde solver's states".into()
                    })?;
                    solved.states.push(step.next);
                }
                if store {
                    solved.children.push(keep_bit(child, step.turn));
                }
            }
            next += 1;
        }
        if store {
            solved.first.push(solved.children.len() as u32);
        }
        solved.check(limits, clock, "all discovered")?;
        Ok(solved)
    }

    /// The reverse edges, as compact arrays: state `s`'s predecessors (with the keep bit of the
    /// move) are `preds[preds_first[s]..preds_first[s + 1]]`.
    fn reverse(&self) -> Result<(Vec<u32>, Vec<u32>), Error> {
        let n = self.states.len();
        let mut preds_first = fallible(n + 1, 0u32)?;
        for &child in &self.children {
            preds_first[(child & !KEEP) as usize + 1] += 1;
        }
        for index in 0..n {
            preds_first[index + 1] += preds_first[index];
        }
        let mut preds = fallible(self.children.len(), 0u32)?;
        let mut fill = preds_first.clone();
        for parent in 0..n {
            for &child in self.children_of(parent) {
                let slot = &mut fill[(child & !KEEP) as usize];
                preds[*slot as usize] = parent as u32 | (child & KEEP);
                *slot += 1;
            }
        }
        Ok((preds_first, preds))
    }

    fn children_of(&self, state: usize) -> &[u32] {
        &self.children[self.first[state] as usize..self.first[state + 1] as usize]
    }

    /// The final states, decided (remoteness 0), and every other state's count of undecided
    /// children.
    fn finals(&mut self) -> (Vec<u32>, Vec<u32>) {
        let n = self.states.len();
        self.outcome = vec![UNDECIDED; n];
        self.remoteness = vec![NONE; n];
        let mut frontier = Vec::new();
        let counts = self.degree.clone();
        for (state, &degree) in counts.iter().enumerate() {
            if degree == 0 {
                let payoff = self.game.payoff(&self.states[state]);
                self.outcome[state] = payoff as i8;
                if payoff != 0 {
                    self.remoteness[state] = 0;
                    frontier.push(state as u32);
                }
            }
        }
        (frontier, counts)
    }

    /// What is still undecided is a draw; the statistics.
    fn finish(&mut self, clock: Instant, levels: u32) {
        self.stats.levels = levels;
        for outcome in &mut self.outcome {
            if *outcome == UNDECIDED {
                *outcome = DRAW;
            }
        }
        if self.stats.states == 0 {
            self.stats.states = self.states.len();
        }
        if self.stats.moves == 0 {
            self.stats.moves = self.degree.iter().map(|&moves| moves as usize).sum();
        }
        self.stats.bytes = self.bytes() + self.outcome.len() as u64 * 5;
        self.stats.elapsed = clock.elapsed();
    }

    fn id(&self, state: &G::State) -> Option<usize> {
        self.ids.id(self.game, state).map(|id| id as usize)
    }

    fn result(&self, id: usize) -> (Outcome, Option<u32>) {
        let remoteness = self.remoteness[id];
        (
            Outcome::of(self.outcome[id]),
            (remoteness != NONE).then_some(remoteness),
        )
    }

    /// The game.
    pub fn game(&self) -> &'g G {
        self.game
    }

    /// The start's outcome for the first player.
    pub fn outcome(&self) -> Outcome {
        self.result(self.start).0
    }

    /// The start's remoteness: how many moves the game lasts with the winner winning as fast
    /// as it can and the loser losing as slowly as it can; `None` for a draw.
    pub fn remoteness(&self) -> Option<u32> {
        self.result(self.start).1
    }

    /// A state's outcome for its side to move and its remoteness; `None` if the state cannot
    /// be reached from the start.
    pub fn outcome_of(&self, state: &G::State) -> Option<(Outcome, Option<u32>)> {
        self.id(state).map(|id| self.result(id))
    }

    /// Every move of `state` with the outcome it leads to for the mover and the remoteness
    /// after it (so the move itself adds one); `None` if the state cannot be reached.
    #[allow(clippy::type_complexity)]
    pub fn move_outcomes(&self, state: &G::State) -> Option<Vec<(G::Move, Outcome, Option<u32>)>> {
        let id = self.id(state)?;
        let mut moves = Vec::new();
        self.game.moves(state, &mut moves);
        let looked_up: Vec<u32>;
        let children = if self.first.is_empty() {
            // Not stored (the game gives its predecessors): looked up again.
            looked_up = moves
                .iter()
                .map(|mv| {
                    let step = self.game.play(state, mv);
                    let child = self
                        .ids
                        .id(self.game, &step.next)
                        .expect("discovery numbers every child of a reachable state");
                    keep_bit(child, step.turn)
                })
                .collect();
            &looked_up[..]
        } else {
            self.children_of(id)
        };
        let valued = moves
            .into_iter()
            .zip(children)
            .map(|(mv, &child)| {
                let (outcome, remoteness) = self.result((child & !KEEP) as usize);
                let seen = if child & KEEP != 0 {
                    outcome
                } else {
                    outcome.flipped()
                };
                (mv, seen, remoteness)
            })
            .collect();
        Some(valued)
    }

    /// The first move of `state` (in the game's order) that keeps its outcome at its
    /// remoteness: for a win, a move to a lost position one move nearer the end; for a loss,
    /// a move that loses as slowly as possible; for a draw, a move to a drawn position.
    /// `None` for a final or unreachable state.
    pub fn best_move(&self, state: &G::State) -> Option<G::Move> {
        let id = self.id(state)?;
        let (outcome, remoteness) = self.result(id);
        let wanted = remoteness.and_then(|r| r.checked_sub(1));
        self.move_outcomes(state)?
            .into_iter()
            .find(|(_, seen, after)| {
                *seen == outcome && (outcome == Outcome::Draw || *after == wanted)
            })
            .map(|(mv, _, _)| mv)
    }

    /// The optimal line from the start: best moves to the end of the game, or, for a draw,
    /// until a state repeats (the line's last move returns to a state on it).
    pub fn line(&self) -> Vec<Ply<G>> {
        let mut line = Vec::new();
        let mut seen = hashbrown::HashSet::with_hasher(FastHashBuilder::default());
        let mut state = self.game.start();
        let mut player = Player::First;
        while let Some(id) = self.id(&state) {
            if !seen.insert(id) {
                break;
            }
            let Some(mv) = self.best_move(&state) else {
                break;
            };
            let step = self.game.play(&state, &mv);
            line.push(Ply {
                player,
                state: state.clone(),
                mv,
                gain: step.gain,
                turn: step.turn,
                value: self.result(id).0.value(),
            });
            player = player.after(step.turn);
            state = step.next;
        }
        line
    }

    /// How many states are reachable from the start.
    pub fn states(&self) -> usize {
        self.stats.states
    }

    /// What the solve did.
    pub fn stats(&self) -> RetroStats {
        self.stats
    }
}

/// How the retrograde solver numbers the states it discovers: [`HashIds`] for any game whose
/// states are `Eq + Hash`, [`DenseIds`] for a game with a [`DenseIndex`] (an array of numbers
/// instead of a hash map: no hashing per move, 4 bytes per index).
pub trait StateIds<G: Game + ?Sized> {
    /// The number of `state`, if it has one.
    fn id(&self, game: &G, state: &G::State) -> Option<u32>;
    /// The number of `state`, and `false`; or, if it had none, `fresh` (now its number) and
    /// `true`.
    fn id_or(&mut self, game: &G, state: &G::State, fresh: u32) -> (u32, bool);
    /// The heap bytes held.
    fn bytes(&self) -> u64;
}

/// States numbered in a hash map (the crate's fast hasher).
#[derive(Debug, Clone)]
pub struct HashIds<S> {
    map: HashMap<S, u32, FastHashBuilder>,
}

impl<S> HashIds<S> {
    /// An empty numbering.
    pub fn new() -> Self {
        HashIds {
            map: HashMap::with_hasher(FastHashBuilder::default()),
        }
    }
}

impl<S> Default for HashIds<S> {
    fn default() -> Self {
        HashIds::new()
    }
}

impl<G, S> StateIds<G> for HashIds<S>
where
    G: Game<State = S> + ?Sized,
    S: Eq + Hash + Clone,
{
    #[inline]
    fn id(&self, _: &G, state: &S) -> Option<u32> {
        self.map.get(state).copied()
    }

    #[inline]
    fn id_or(&mut self, _: &G, state: &S, fresh: u32) -> (u32, bool) {
        match self.map.entry_ref(state) {
            hashbrown::hash_map::EntryRef::Occupied(entry) => (*entry.get(), false),
            hashbrown::hash_map::EntryRef::Vacant(entry) => {
                entry.insert(fresh);
                (fresh, true)
            }
        }
    }

    fn bytes(&self) -> u64 {
        self.map.capacity() as u64 * (size_of::<S>() as u64 + 4 + 1)
    }
}

/// States numbered in an array over the game's [`DenseIndex`].
#[derive(Debug, Clone)]
pub struct DenseIds {
    ids: Vec<u32>,
}

/// No number yet.
const UNNUMBERED: u32 = u32::MAX;

impl DenseIds {
    /// An array for every index of `game` (4 bytes each).
    pub fn for_game<G: DenseIndex + ?Sized>(game: &G) -> Self {
        DenseIds {
            ids: vec![UNNUMBERED; game.index_len()],
        }
    }

    /// [`DenseIds::for_game`], refused if it would pass `budget` bytes.
    pub fn try_for_game<G: DenseIndex + ?Sized>(game: &G, budget: u64) -> Result<Self, Error> {
        let len = game.index_len();
        let bytes = (len as u64).saturating_mul(4);
        if bytes > budget {
            return Err(Error::MemoryBudget {
                what: format!("the retrograde solver's numbering of {len} indices"),
                needed: bytes,
                budget,
            });
        }
        Ok(DenseIds {
            ids: fallible(len, UNNUMBERED)?,
        })
    }
}

impl<G: DenseIndex + ?Sized> StateIds<G> for DenseIds {
    #[inline]
    fn id(&self, game: &G, state: &G::State) -> Option<u32> {
        let id = self.ids[game.index(state)];
        (id != UNNUMBERED).then_some(id)
    }

    #[inline]
    fn id_or(&mut self, game: &G, state: &G::State, fresh: u32) -> (u32, bool) {
        let slot = &mut self.ids[game.index(state)];
        if *slot == UNNUMBERED {
            *slot = fresh;
            (fresh, true)
        } else {
            (*slot, false)
        }
    }

    fn bytes(&self) -> u64 {
        self.ids.capacity() as u64 * 4
    }
}

/// A vector of `len` copies of `value`, allocated fallibly (its bytes were counted in the
/// budget as the states were discovered).
fn fallible<T: Clone>(len: usize, value: T) -> Result<Vec<T>, Error> {
    let mut vector = Vec::new();
    vector
        .try_reserve_exact(len)
        .map_err(|_| Error::Allocation {
            what: "the retrograde solver's reverse moves".into(),
            bytes: (len * size_of::<T>()) as u64,
        })?;
    vector.resize(len, value);
    Ok(vector)
}
