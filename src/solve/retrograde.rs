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
use hashbrown::hash_map::Entry;
use rayon::prelude::*;

use super::Limits;
use super::limits::reserve_within;
use crate::error::Error;
use crate::game::{Game, Player, Score, Turn};
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
pub struct Retrograde<'g, G: Game> {
    game: &'g G,
    ids: HashMap<G::State, u32, FastHashBuilder>,
    states: Vec<G::State>,
    /// State `s`'s children are `children[first[s]..first[s + 1]]`, in move order.
    first: Vec<u32>,
    children: Vec<u32>,
    outcome: Vec<i8>,
    remoteness: Vec<u32>,
    stats: RetroStats,
}

/// Solves `game`, an outcome game that may cycle, by retrograde analysis on one thread.
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
    let clock = Instant::now();
    let mut solved = Retrograde::discover(game, limits, clock)?;
    let (preds_first, preds) = solved.reverse()?;
    solved.propagate(&preds_first, &preds, limits, clock)?;
    solved.finish(clock);
    Ok(solved)
}

/// [`retrograde`] with each remoteness level propagated in parallel on the current rayon pool.
/// The outcomes and remotenesses are the same as [`retrograde`]'s for every number of threads.
/// (States are discovered on one thread.)
pub fn par_retrograde<G>(game: &G, limits: Limits) -> Result<Retrograde<'_, G>, Error>
where
    G: Game + Sync,
    G::State: Eq + Hash + Send + Sync,
{
    let clock = Instant::now();
    let mut solved = Retrograde::discover(game, limits, clock)?;
    let (preds_first, preds) = solved.reverse()?;
    solved.par_propagate(&preds_first, &preds, limits, clock)?;
    solved.finish(clock);
    Ok(solved)
}

impl<'g, G> Retrograde<'g, G>
where
    G: Game,
    G::State: Eq + Hash,
{
    /// The heap bytes held so far, and the bytes the rest of the solve will add per state and
    /// per move (outcome, remoteness, counts and the reverse edges).
    fn bytes(&self) -> u64 {
        let state = size_of::<G::State>() as u64;
        let map = self.ids.capacity() as u64 * (state + 4 + 1);
        let states = self.states.capacity() as u64 * state;
        let arrays = (self.first.capacity() + self.children.capacity()) as u64 * 4;
        map + states + arrays
    }

    /// The bytes still to come once `states` and `moves` are known.
    fn later_bytes(states: usize, moves: usize) -> u64 {
        // outcome (1) + remoteness (4) + count (4) + reverse first (4) per state; a reverse
        // edge (4) per move.
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
    fn discover(game: &'g G, limits: Limits, clock: Instant) -> Result<Self, Error> {
        let mut solved = Retrograde {
            game,
            ids: HashMap::with_hasher(FastHashBuilder::default()),
            states: Vec::new(),
            first: Vec::new(),
            children: Vec::new(),
            outcome: Vec::new(),
            remoteness: Vec::new(),
            stats: RetroStats::default(),
        };
        let start = game.start();
        solved.ids.insert(start.clone(), 0);
        solved.states.push(start);
        let mut moves = Vec::new();
        let mut next = 0;
        while next < solved.states.len() {
            if next % 4096 == 0 {
                solved.check(limits, clock, "discovering the states")?;
            }
            let state = solved.states[next].clone();
            let others = solved.bytes() - solved.first.capacity() as u64 * 4;
            reserve_within(&mut solved.first, others, limits.memory_budget, || {
                "the retrograde solver's move index".into()
            })?;
            solved.first.push(solved.children.len() as u32);
            moves.clear();
            game.moves(&state, &mut moves);
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
                let child = match solved.ids.entry(step.next) {
                    Entry::Occupied(entry) => *entry.get(),
                    Entry::Vacant(entry) => {
                        let id = solved.states.len();
                        if id >= MAX_RETROGRADE_STATES {
                            return Err(Error::InvalidGame(format!(
                                "more than {MAX_RETROGRADE_STATES} reachable states: past what \
                                 the retrograde solver numbers"
                            )));
                        }
                        let state = entry.key().clone();
                        entry.insert(id as u32);
                        // Grown within the budget; the map grows with it (checked every 4096
                        // states, with its share counted in `bytes`).
                        reserve_within(&mut solved.states, 0, u64::MAX, || {
                            "the retrograde solver's states".into()
                        })?;
                        solved.states.push(state);
                        id as u32
                    }
                };
                let others = solved.bytes() - solved.children.capacity() as u64 * 4;
                reserve_within(&mut solved.children, others, limits.memory_budget, || {
                    "the retrograde solver's moves".into()
                })?;
                solved.children.push(match step.turn {
                    Turn::Pass => child,
                    Turn::Keep => child | KEEP,
                });
            }
            next += 1;
        }
        solved.first.push(solved.children.len() as u32);
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
        let counts: Vec<u32> = self
            .first
            .windows(2)
            .map(|pair| pair[1] - pair[0])
            .collect();
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

    /// Sequential propagation, level by level.
    fn propagate(
        &mut self,
        preds_first: &[u32],
        preds: &[u32],
        limits: Limits,
        clock: Instant,
    ) -> Result<(), Error> {
        let (mut frontier, mut counts) = self.finals();
        let mut level = 0u32;
        let mut next = Vec::new();
        while !frontier.is_empty() {
            self.check_time(limits, clock, level)?;
            for &child in &frontier {
                let outcome = self.outcome[child as usize];
                let range =
                    preds_first[child as usize] as usize..preds_first[child as usize + 1] as usize;
                for &edge in &preds[range] {
                    let parent = (edge & !KEEP) as usize;
                    if self.outcome[parent] != UNDECIDED {
                        continue;
                    }
                    // The child's outcome for the parent's mover.
                    let seen = if edge & KEEP != 0 { outcome } else { -outcome };
                    if seen == WIN {
                        self.outcome[parent] = WIN;
                        self.remoteness[parent] = level + 1;
                        next.push(parent as u32);
                    } else {
                        counts[parent] -= 1;
                        if counts[parent] == 0 {
                            self.outcome[parent] = LOSS;
                            self.remoteness[parent] = level + 1;
                            next.push(parent as u32);
                        }
                    }
                }
            }
            std::mem::swap(&mut frontier, &mut next);
            next.clear();
            level += 1;
        }
        self.stats.levels = level.saturating_sub(1);
        Ok(())
    }

    fn check_time(&self, limits: Limits, clock: Instant, level: u32) -> Result<(), Error> {
        match limits.time_limit {
            Some(limit) if clock.elapsed() > limit => Err(Error::TimeLimit {
                limit,
                progress: format!(
                    "{} states discovered and propagated to remoteness {level}",
                    self.states.len()
                ),
            }),
            _ => Ok(()),
        }
    }

    /// What is still undecided is a draw; the statistics.
    fn finish(&mut self, clock: Instant) {
        for outcome in &mut self.outcome {
            if *outcome == UNDECIDED {
                *outcome = DRAW;
            }
        }
        self.stats.states = self.states.len();
        self.stats.moves = self.children.len();
        self.stats.bytes = self.bytes() + self.states.len() as u64 * 5;
        self.stats.elapsed = clock.elapsed();
    }

    fn id(&self, state: &G::State) -> Option<usize> {
        self.ids.get(state).map(|&id| id as usize)
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
        self.result(0).0
    }

    /// The start's remoteness: how many moves the game lasts with the winner winning as fast
    /// as it can and the loser losing as slowly as it can; `None` for a draw.
    pub fn remoteness(&self) -> Option<u32> {
        self.result(0).1
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
        let valued = moves
            .into_iter()
            .zip(self.children_of(id))
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
        self.states.len()
    }

    /// What the solve did.
    pub fn stats(&self) -> RetroStats {
        self.stats
    }
}

impl<G> Retrograde<'_, G>
where
    G: Game + Sync,
    G::State: Eq + Hash + Send + Sync,
{
    /// Parallel propagation: each level's states tell their predecessors in parallel.
    fn par_propagate(
        &mut self,
        preds_first: &[u32],
        preds: &[u32],
        limits: Limits,
        clock: Instant,
    ) -> Result<(), Error> {
        let (mut frontier, counts) = self.finals();
        let outcome: Vec<AtomicI8> = self.outcome.iter().map(|&o| AtomicI8::new(o)).collect();
        let counts: Vec<AtomicU32> = counts.into_iter().map(AtomicU32::new).collect();
        let mut level = 0u32;
        while !frontier.is_empty() {
            self.check_time(limits, clock, level)?;
            let next: Vec<u32> = frontier
                .par_iter()
                .with_min_len(256)
                .fold(Vec::new, |mut next, &child| {
                    let decided = outcome[child as usize].load(Ordering::Relaxed);
                    let range = preds_first[child as usize] as usize
                        ..preds_first[child as usize + 1] as usize;
                    for &edge in &preds[range] {
                        let parent = (edge & !KEEP) as usize;
                        if outcome[parent].load(Ordering::Relaxed) != UNDECIDED {
                            continue;
                        }
                        let seen = if edge & KEEP != 0 { decided } else { -decided };
                        if seen == WIN {
                            let won = outcome[parent].compare_exchange(
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
                            outcome[parent].store(LOSS, Ordering::Relaxed);
                            next.push(parent as u32);
                        }
                    }
                    next
                })
                .reduce(Vec::new, |mut left, mut right| {
                    left.append(&mut right);
                    left
                });
            for &state in &next {
                self.remoteness[state as usize] = level + 1;
            }
            frontier = next;
            level += 1;
        }
        self.outcome = outcome.into_iter().map(AtomicI8::into_inner).collect();
        self.stats.levels = level.saturating_sub(1);
        Ok(())
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
