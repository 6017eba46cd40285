//! Loopy tiers: retrograde analysis tier by tier, for outcome games whose tiers are ordered but
//! whose play may cycle within a tier (Quixo, the mill games).
//!
//! A loopy tiered game declares [`tiers`](crate::Capabilities::tiers),
//! [`outcome_game`](crate::Capabilities::outcome_game) and
//! [`may_cycle`](crate::Capabilities::may_cycle): a move from tier `t` leads to tier `t` itself or
//! to a later one, at most [`tier_reach`](Tiered::tier_reach) ahead. The solver takes the tiers
//! from the last to the start's; each is solved from the solved tiers it leads to, by backward
//! induction over the tier's own moves:
//!
//! 1. every state of the tier is valued as far as its moves out of the tier decide it (a move to
//!    a lost state wins; a state whose moves all lead out of the tier is decided), counting its
//!    moves within the tier and keeping the reverse of those moves (a child's parents) in two
//!    compact arrays;
//! 2. decided states tell their parents level by level of remoteness, as [`retrograde`] does in
//!    one table: a parent with a lost child is won at the child's remoteness + 1 (or sooner, by a
//!    move out of the tier), one whose children are all won for the opponent is lost at its
//!    slowest;
//! 3. what is left undecided can force neither side's win: a draw, with no remoteness.
//!
//! Backward induction keeps the reverse of a tier's moves while the tier is solved (about 35
//! bytes a state); where that does not fit the budget, the tier is solved by **value
//! iteration** instead ([`Method`]): passes over its undecided states, one per level of
//! remoteness, each deciding the states whose remoteness is that level from their moves as the
//! codes stand, with nothing kept but a code and a bound a state (4 bytes). The codes are the
//! same either way; value iteration takes as many passes as the tier's deepest remoteness
//! (docs/performance.md has the figures).
//!
//! Each state's outcome and remoteness is one `u16` ([`Code`]), indexed by rank. With
//! [`BySymmetry`], only the canonical state of each class is valued ([`Symmetry`]): the others'
//! codes are [`Code::NONE`] and every lookup canonicalises first. Levels run in parallel on the
//! current rayon pool ([`par_solve`]); the values are the same on every thread count.
//!
//! [`retrograde`]: crate::engines::retrograde

use std::time::{Duration, Instant};

/// The loopy tier solver takes the tier solver's options: the limits, and which tiers to keep.
pub use super::Options;
use super::{Clock, KeepTiers};
use crate::engines::retrograde::Outcome;
use crate::error::SolveError;
use crate::game::{Game, Score, Symmetry, Tiered};

/// Ranks per unit of parallel work (and per check of the time limit).
const CHUNK: u64 = 1 << 12;

/// A state's outcome and remoteness in one `u16`: [`NONE`](Code::NONE) for a rank with no
/// state valued, [`DRAW`](Code::DRAW), `2 + 2r` a win in `r` moves, `3 + 2r` a loss in `r`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Code(pub u16);

impl Code {
    /// No state valued at this rank (a hole, or a state stored as its class's representative).
    pub const NONE: Code = Code(0);
    /// A draw: neither side can force a win.
    pub const DRAW: Code = Code(1);
    /// The largest remoteness a code holds.
    pub const MAX_REMOTENESS: u32 = 32_765;
    /// Being solved: a state not decided yet.
    const UNDECIDED: u16 = u16::MAX;

    /// A win for the side to move in `remoteness` moves.
    pub fn win(remoteness: u32) -> Code {
        Code(2 + 2 * remoteness.min(Code::MAX_REMOTENESS) as u16)
    }

    /// A loss for the side to move in `remoteness` moves.
    pub fn loss(remoteness: u32) -> Code {
        Code(3 + 2 * remoteness.min(Code::MAX_REMOTENESS) as u16)
    }

    /// The outcome and remoteness (none for a draw), or `None` for [`Code::NONE`].
    ///
    /// ```
    /// use gamesolver::engines::{retrograde::Outcome, tiers::loopy::Code};
    /// assert_eq!(Code::win(21).decode(), Some((Outcome::Win, Some(21))));
    /// assert_eq!(Code::DRAW.decode(), Some((Outcome::Draw, None)));
    /// assert_eq!(Code::NONE.decode(), None);
    /// ```
    pub fn decode(self) -> Option<(Outcome, Option<u32>)> {
        match self.0 {
            0 | Code::UNDECIDED => None,
            1 => Some((Outcome::Draw, None)),
            code => {
                let remoteness = u32::from((code - 2) / 2);
                let outcome = if code % 2 == 0 {
                    Outcome::Win
                } else {
                    Outcome::Loss
                };
                Some((outcome, Some(remoteness)))
            }
        }
    }
}

/// Which states of a tier the solver values: every one ([`EveryState`]), or one of each class of
/// symmetric states ([`BySymmetry`]).
pub trait Classes<G: Game>: Send + Sync {
    /// The state that stands for `state` (itself, or its class's canonical state).
    fn stand_in(&self, game: &G, state: G::State) -> G::State;
}

/// Every state is valued.
#[derive(Debug, Clone, Copy, Default)]
pub struct EveryState;

impl<G: Game> Classes<G> for EveryState {
    #[inline]
    fn stand_in(&self, _: &G, state: G::State) -> G::State {
        state
    }
}

/// One state of each class of symmetric states is valued: the game's
/// [`canonical`](Symmetry::canonical) one.
#[derive(Debug, Clone, Copy, Default)]
pub struct BySymmetry;

impl<G: Symmetry> Classes<G> for BySymmetry {
    #[inline]
    fn stand_in(&self, game: &G, state: G::State) -> G::State {
        game.canonical(&state)
    }
}

/// How the loopy tier solver solves each tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// Backward induction where the tier's working arrays fit the budget, else value
    /// iteration: the fastest way that fits, tier by tier.
    #[default]
    ByBudget,
    /// Backward induction over the reverse of the tier's moves: each state is looked at once,
    /// and each move within the tier is kept reversed (about 35 bytes a state while the tier
    /// is solved).
    BackwardInduction,
    /// Value iteration: passes over the tier's undecided states, one per level of remoteness,
    /// with nothing kept but a code and a bound a state (4 bytes a state while the tier is
    /// solved); as many passes as the tier's deepest remoteness.
    ValueIteration,
}

/// What a loopy tier solve did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoopyStats {
    /// Tiers solved.
    pub tiers: usize,
    /// Tiers read back from the tier file a solve resumed instead of solved.
    pub resumed: usize,
    /// Tiers solved by value iteration ([`Method`]); the others by backward induction.
    pub iterated: usize,
    /// States valued (with [`BySymmetry`], one a class).
    pub states: u64,
    /// Wins, losses and draws among them.
    pub wins: u64,
    /// Losses among them.
    pub losses: u64,
    /// Draws among them.
    pub draws: u64,
    /// Moves looked at.
    pub moves: u64,
    /// Moves that stay in their tier (each is kept reversed while its tier is solved).
    pub moves_within: u64,
    /// The most bytes held at once (codes kept, and the tier being solved's working arrays).
    pub peak_bytes: u64,
    /// Wall-clock time of the solve.
    pub elapsed: Duration,
}

/// Every kept tier's codes, indexed by rank.
pub type Tiers = Vec<Option<Vec<u16>>>;

/// Solves a loopy tiered outcome game on one thread, valuing the states `classes` says.
pub fn solve<G, C>(
    game: &G,
    classes: C,
    options: Options,
) -> Result<LoopySolution<'_, G, C>, SolveError>
where
    G: Tiered + Sync,
    G::State: Send + PartialEq,
    C: Classes<G>,
{
    one_thread()?.install(|| par_solve(game, classes, options))
}

/// A rayon pool of one thread: for a solve on one thread, whose levels and tier-file blocks
/// are rayon work that would otherwise take every core.
pub(crate) fn one_thread() -> Result<rayon::ThreadPool, SolveError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|error| SolveError::ThreadStart {
            threads: 1,
            message: error.to_string(),
        })
}

/// The error for a tier whose remoteness passes what a [`Code`] holds, if `level` does.
fn within_codes(tier: usize, level: u32) -> Result<(), SolveError> {
    match level > Code::MAX_REMOTENESS {
        true => Err(SolveError::Unsupported(format!(
            "tier {tier} has remoteness past {}",
            Code::MAX_REMOTENESS
        ))),
        false => Ok(()),
    }
}

/// [`solve`] on every thread of the current rayon pool: each tier's first pass in chunks of
/// ranks, and each level of remoteness, in parallel. The codes are the same on every thread
/// count.
pub fn par_solve<G, C>(
    game: &G,
    classes: C,
    options: Options,
) -> Result<LoopySolution<'_, G, C>, SolveError>
where
    G: Tiered + Sync,
    G::State: Send + PartialEq,
    C: Classes<G>,
{
    run(game, classes, options, Method::ByBudget, None)
}

/// [`par_solve`] by `method`: backward induction or value iteration in every tier, or chosen
/// tier by tier by the budget ([`Method::ByBudget`], what [`par_solve`] does). The codes are the
/// same by either method.
///
/// ```
/// use gamesolver::engines::tiers::loopy::{self, BySymmetry, Method};
/// use gamesolver::games::Quixo;
///
/// let game = Quixo::new(3).unwrap();
/// let induction = loopy::par_solve_with(&game, BySymmetry, loopy::Options::new(), Method::BackwardInduction).unwrap();
/// let iteration = loopy::par_solve_with(&game, BySymmetry, loopy::Options::new(), Method::ValueIteration).unwrap();
/// assert_eq!(iteration.remoteness(), Some(7));
/// assert_eq!(iteration.stats().iterated, iteration.stats().tiers);
/// assert_eq!(induction.stats().iterated, 0);
/// assert!(iteration.stats().peak_bytes < induction.stats().peak_bytes);
/// ```
pub fn par_solve_with<G, C>(
    game: &G,
    classes: C,
    options: Options,
    method: Method,
) -> Result<LoopySolution<'_, G, C>, SolveError>
where
    G: Tiered + Sync,
    G::State: Send + PartialEq,
    C: Classes<G>,
{
    run(game, classes, options, method, None)
}

#[cfg(not(feature = "database"))]
type Files = std::convert::Infallible;

#[cfg(not(feature = "database"))]
fn saved_tier(_: Option<&Files>, _: usize, _: u64) -> Result<Option<Vec<u16>>, SolveError> {
    Ok(None)
}

#[cfg(not(feature = "database"))]
fn save_tier(_: Option<&mut Files>, _: usize, _: &[u16]) -> Result<(), SolveError> {
    Ok(())
}

fn run<G, C>(
    game: &G,
    classes: C,
    options: Options,
    method: Method,
    #[cfg_attr(not(feature = "database"), allow(unused_mut))] mut files: Option<Files>,
) -> Result<LoopySolution<'_, G, C>, SolveError>
where
    G: Tiered + Sync,
    G::State: Send + PartialEq,
    C: Classes<G>,
{
    crate::engines::chance::refuse_chance(game, "the loopy tier solver")?;
    let started = Instant::now();
    let start = game.start();
    let from = game.tier(&start);
    let count = game.tier_count();
    if from >= count {
        return Err(SolveError::InvalidGame(format!(
            "the start is in tier {from}, but the game has {count} tiers"
        )));
    }
    let clock = Clock {
        started,
        limit: options.limits.time_limit,
        from,
        progress: options.limits.progress,
    };
    let reach = game.tier_reach().max(1);
    let budget = options.limits.memory_budget;
    let chosen = |tier: usize| match method {
        Method::ByBudget
            if tier_bytes(game, tier, options.keep, Method::BackwardInduction) <= budget =>
        {
            Method::BackwardInduction
        }
        Method::ByBudget => Method::ValueIteration,
        method => method,
    };
    let needed = (from..count)
        .map(|tier| tier_bytes(game, tier, options.keep, chosen(tier)))
        .max()
        .unwrap_or(0);
    if needed > budget {
        return Err(SolveError::MemoryBudget {
            what: format!("the loopy tier solve's codes ({} tiers)", count - from),
            needed,
            budget: options.limits.memory_budget,
        });
    }
    let mut tiers: Tiers = vec![None; count];
    let mut stats = LoopyStats::default();
    for tier in (from..count).rev() {
        clock.check(tier)?;
        let codes = match saved_tier(files.as_ref(), tier, game.tier_len(tier))? {
            Some(codes) => {
                stats.resumed += 1;
                codes
            }
            None => {
                let codes = match chosen(tier) {
                    Method::ValueIteration => {
                        stats.iterated += 1;
                        iterate_tier(game, &classes, tier, &tiers, &clock, &mut stats)?
                    }
                    _ => solve_tier(game, &classes, tier, &tiers, &clock, &mut stats)?,
                };
                save_tier(files.as_mut(), tier, &codes)?;
                stats.tiers += 1;
                codes
            }
        };
        keep(&mut tiers, tier, codes, options.keep, reach);
    }
    stats.peak_bytes = needed;
    stats.elapsed = started.elapsed();
    Ok(LoopySolution::solved(game, classes, start, tiers, stats))
}

/// The most bytes a solve from tier `from` by backward induction holds: the codes kept, and the
/// working arrays of the tier being solved (a count and a bound a rank, and about eight bytes a
/// move within the tier, guessed at four moves a rank).
pub fn peak_bytes<G: Tiered>(game: &G, from: usize, keep: KeepTiers) -> u64 {
    (from..game.tier_count())
        .map(|tier| tier_bytes(game, tier, keep, Method::BackwardInduction))
        .max()
        .unwrap_or(0)
}

/// The bytes held while tier `tier` is solved by `method`: the codes kept, and the tier's
/// working arrays (value iteration: a bound a rank; backward induction: a count and a bound a
/// rank, and about eight bytes a move within the tier, guessed at four moves a rank).
fn tier_bytes<G: Tiered>(game: &G, tier: usize, keep: KeepTiers, method: Method) -> u64 {
    let count = game.tier_count();
    let reach = game.tier_reach().max(1);
    let len = |tier: usize| game.tier_len(tier);
    let kept: u64 = match keep {
        KeepTiers::All => (tier..count).map(len).sum(),
        KeepTiers::Needed => (tier..count.min(tier + reach + 1)).map(len).sum(),
    };
    let working = match method {
        Method::ValueIteration => 2,
        _ => 3 + 8 * 4,
    };
    (2 * kept).saturating_add(len(tier).saturating_mul(working))
}

/// The value a code stands for, as the other engines give it (+1, 0, −1).
pub fn value_of(code: Code) -> Option<Score> {
    code.decode().map(|(outcome, _)| outcome.value())
}

#[cfg(feature = "database")]
mod database;
/// Keeps tier `tier`'s `codes`, and drops the tier no move reaches any more where only the
/// tiers still needed are kept.
fn keep(tiers: &mut Tiers, tier: usize, codes: Vec<u16>, keep: KeepTiers, reach: usize) {
    tiers[tier] = Some(codes);
    if keep == KeepTiers::Needed && tier + reach < tiers.len() {
        tiers[tier + reach] = None;
    }
}

#[cfg(feature = "distributed")]
pub mod distributed;
mod iteration;
mod solution;
mod tier;

#[cfg(all(feature = "database", feature = "distributed"))]
use database::open_files;
#[cfg(feature = "database")]
use database::{Files, save_tier, saved_tier};
#[cfg(feature = "database")]
pub use database::{LOOPY_KIND, LoopyDatabase, Save, identity, par_solve_saved};
use iteration::iterate_tier;
pub use solution::LoopySolution;
use tier::solve_tier;
#[cfg(test)]
mod tests;
