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
//! Each state's outcome and remoteness is one `u16` ([`Code`]), indexed by rank. With
//! [`BySymmetry`], only the canonical state of each class is valued ([`Symmetry`]): the others'
//! codes are [`Code::NONE`] and every lookup canonicalises first. Levels run in parallel on the
//! current rayon pool ([`par_solve`]); the values are the same on every thread count.
//!
//! [`retrograde`]: crate::engines::retrograde

use std::sync::atomic::{AtomicU8, AtomicU16, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::{Clock, KeepTiers};
use crate::engines::kernel::Limits;
use crate::engines::retrograde::Outcome;
use crate::error::SolveError;
use crate::game::{Game, Score, Symmetry, Tiered, Turn};

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

/// The loopy tier solver's options: the limits, and which tiers to keep.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// The memory budget, time limit and progress.
    pub limits: Limits,
    /// Which tiers to keep once solved.
    pub keep: KeepTiers,
}

impl Options {
    /// The default limits, keeping only the tiers still needed.
    pub fn new() -> Self {
        Options::default()
    }

    /// Uses `limits`.
    pub fn limits(self, limits: Limits) -> Self {
        Options { limits, ..self }
    }

    /// Keeps the tiers `keep` says.
    pub fn keep(self, keep: KeepTiers) -> Self {
        Options { keep, ..self }
    }
}

/// What a loopy tier solve did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoopyStats {
    /// Tiers solved.
    pub tiers: usize,
    /// Tiers read back from the tier file a solve resumed instead of solved.
    pub resumed: usize,
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

/// A solved loopy tiered game: the start's outcome and remoteness, and every kept state's.
///
/// ```
/// use gamesolver::engines::tiers::{KeepTiers, loopy::{self, BySymmetry}};
/// use gamesolver::engines::retrograde::Outcome;
/// use gamesolver::games::Quixo;
///
/// let game = Quixo::new(3).unwrap();
/// let solved = loopy::solve(&game, BySymmetry, loopy::Options::new().keep(KeepTiers::All)).unwrap();
/// assert_eq!((solved.outcome(), solved.remoteness()), (Outcome::Win, Some(7)));
/// let line = solved.line();
/// assert_eq!(line.len(), 7); // X's fastest win against O's slowest loss
/// ```
#[derive(Debug)]
pub struct LoopySolution<'g, G: Tiered, C> {
    game: &'g G,
    classes: C,
    start: G::State,
    tiers: Tiers,
    stats: LoopyStats,
}

impl<'g, G: Tiered, C: Classes<G>> LoopySolution<'g, G, C> {
    /// A solution over `tiers` already solved (read back from a saved solve).
    pub fn from_tiers(game: &'g G, classes: C, tiers: Tiers, stats: LoopyStats) -> Self {
        LoopySolution {
            start: game.start(),
            game,
            classes,
            tiers,
            stats,
        }
    }

    /// The start's outcome for the side to move.
    pub fn outcome(&self) -> Outcome {
        self.outcome_of(&self.start)
            .map_or(Outcome::Draw, |found| found.0)
    }

    /// The start's remoteness (moves to the end with the winner's fastest and the loser's
    /// slowest play); `None` for a draw.
    pub fn remoteness(&self) -> Option<u32> {
        self.outcome_of(&self.start).and_then(|found| found.1)
    }

    /// The outcome and remoteness of `state`, if its tier is kept and the rank holds a state.
    pub fn outcome_of(&self, state: &G::State) -> Option<(Outcome, Option<u32>)> {
        self.code_of(state).decode()
    }

    /// The code stored for `state` ([`Code::NONE`] if its tier is not kept).
    pub fn code_of(&self, state: &G::State) -> Code {
        let state = self.classes.stand_in(self.game, state.clone());
        let tier = self.game.tier(&state);
        let rank = self.game.rank(&state);
        self.tiers
            .get(tier)
            .and_then(Option::as_ref)
            .and_then(|codes| codes.get(usize::try_from(rank).ok()?))
            .map_or(Code::NONE, |&code| Code(code))
    }

    /// Each move of `state` with the outcome and remoteness of the position it leads to, for the
    /// side to move there; `None` if a child's tier is not kept.
    #[allow(clippy::type_complexity)]
    pub fn move_outcomes(
        &self,
        state: &G::State,
    ) -> Option<Vec<(G::Move, Turn, Outcome, Option<u32>)>> {
        self.game
            .moves(state)
            .map(|mv| {
                let step = self.game.play(state, &mv);
                let (outcome, remoteness) = self.outcome_of(&step.next)?;
                Some((mv, step.turn, outcome, remoteness))
            })
            .collect()
    }

    /// The line from the start where the winner wins fastest and the loser loses slowest (a
    /// drawn start: moves that keep the draw, as long as they do not repeat a position); empty
    /// where tiers the line passes through were not kept.
    pub fn line(&self) -> Vec<(G::State, G::Move)>
    where
        G::State: Eq + std::hash::Hash,
    {
        let mut line = Vec::new();
        let mut seen = hashbrown::HashSet::new();
        let mut state = self.start.clone();
        while let Some((outcome, remoteness)) = self.outcome_of(&state) {
            if !seen.insert(state.clone()) {
                break;
            }
            let Some(moves) = self.move_outcomes(&state) else {
                return Vec::new();
            };
            let wanted =
                |(_, turn, child, child_remoteness): &(G::Move, Turn, Outcome, Option<u32>)| {
                    let mine = if *turn == Turn::Pass {
                        child.flipped()
                    } else {
                        *child
                    };
                    mine == outcome
                        && match (remoteness, child_remoteness) {
                            (Some(r), Some(c)) => *c + 1 == r,
                            _ => true,
                        }
                };
            let Some((mv, ..)) = moves.into_iter().find(wanted) else {
                break;
            };
            let next = self.game.play(&state, &mv).next;
            line.push((state, mv));
            state = next;
        }
        line
    }

    /// What the solve did.
    pub fn stats(&self) -> LoopyStats {
        self.stats
    }

    /// The kept tiers' codes, indexed by tier and then by rank.
    pub fn tiers(&self) -> &Tiers {
        &self.tiers
    }

    /// The game.
    pub fn game(&self) -> &'g G {
        self.game
    }
}

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
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|error| SolveError::ThreadStart {
            threads: 1,
            message: error.to_string(),
        })?;
    pool.install(|| par_solve(game, classes, options))
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
    run(game, classes, options, None)
}

/// Where a solve writes each tier as it completes: a tier file, created afresh or resumed.
#[cfg(feature = "database")]
#[derive(Debug, Clone)]
pub struct Save {
    /// The tier file.
    pub path: std::path::PathBuf,
    /// The game and its parameters in words (`quixo 4`), kept in the file's header: a file for
    /// another game is refused.
    pub game: String,
    /// Whether to go on from the tiers the file holds (else the file must not exist yet).
    pub resume: bool,
}

/// The identity a loopy solve of `game` writes in its tier file's header.
#[cfg(feature = "database")]
pub fn identity<G: Tiered>(game: &G, words: &str) -> super::file::Identity {
    super::file::Identity::new(LOOPY_KIND, words, game.tier_count(), |tier| {
        game.tier_len(tier)
    })
}

/// The kind of cells a loopy solve writes: [`Code`]s.
#[cfg(feature = "database")]
pub const LOOPY_KIND: u8 = 1;

/// [`par_solve`], writing each tier to `save`'s tier file as it completes (and made durable
/// before the next begins), or going on from the tiers it holds: a solve stopped at any moment
/// resumes from its last complete tier and ends with the same codes.
///
/// ```
/// use gamesolver::engines::tiers::{KeepTiers, file::TierFile, loopy::{self, BySymmetry, Save}};
/// use gamesolver::games::Quixo;
///
/// let game = Quixo::new(3).unwrap();
/// let path = std::env::temp_dir().join(format!("quixo-doc-{}.tiers", std::process::id()));
/// let save = Save { path: path.clone(), game: "quixo 3".into(), resume: false };
/// let solved = loopy::par_solve_saved(&game, BySymmetry, loopy::Options::new(), &save).unwrap();
/// let file = TierFile::open(&path).unwrap();
/// assert_eq!(file.tiers_held(), game_tiers(&game));
/// # fn game_tiers(game: &Quixo) -> usize { use gamesolver::Tiered; game.tier_count() }
/// std::fs::remove_file(&path).unwrap();
/// assert_eq!(solved.remoteness(), Some(7));
/// ```
#[cfg(feature = "database")]
pub fn par_solve_saved<'g, G, C>(
    game: &'g G,
    classes: C,
    options: Options,
    save: &Save,
) -> Result<LoopySolution<'g, G, C>, SolveError>
where
    G: Tiered + Sync,
    G::State: Send + PartialEq,
    C: Classes<G>,
{
    use super::file::TierWriter;
    let identity = identity(game, &save.game);
    let files = if save.resume {
        let (saved, writer) = TierWriter::resume(&save.path, &identity)?;
        (Some(saved), writer)
    } else {
        (None, TierWriter::create(&save.path, &identity)?)
    };
    run(game, classes, options, Some(files))
}

#[cfg(feature = "database")]
type Files = (Option<super::file::TierFile>, super::file::TierWriter);
#[cfg(not(feature = "database"))]
type Files = std::convert::Infallible;

fn run<G, C>(
    game: &G,
    classes: C,
    options: Options,
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
    let needed = peak_bytes(game, from, options.keep);
    if needed > options.limits.memory_budget {
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
                let codes = solve_tier(game, &classes, tier, &tiers, &clock, &mut stats)?;
                save_tier(files.as_mut(), tier, &codes)?;
                stats.tiers += 1;
                codes
            }
        };
        tiers[tier] = Some(codes);
        if options.keep == KeepTiers::Needed && tier + reach < count {
            tiers[tier + reach] = None;
        }
    }
    stats.peak_bytes = needed;
    stats.elapsed = started.elapsed();
    Ok(LoopySolution {
        game,
        classes,
        start,
        tiers,
        stats,
    })
}

/// Tier `tier`'s codes from the file a solve resumes, if it holds them.
#[cfg(feature = "database")]
fn saved_tier(
    files: Option<&Files>,
    tier: usize,
    len: u64,
) -> Result<Option<Vec<u16>>, SolveError> {
    let Some((Some(saved), _)) = files else {
        return Ok(None);
    };
    let Some(cells) = saved.tier(tier)? else {
        return Ok(None);
    };
    if cells.len() as u64 != len || cells.iter().any(|&cell| cell > u64::from(u16::MAX - 1)) {
        return Err(SolveError::TierFile {
            path: saved.path().display().to_string(),
            problem: format!("tier {tier} of the file does not fit this game's tier"),
        });
    }
    Ok(Some(cells.into_iter().map(|cell| cell as u16).collect()))
}

#[cfg(not(feature = "database"))]
fn saved_tier(_: Option<&Files>, _: usize, _: u64) -> Result<Option<Vec<u16>>, SolveError> {
    Ok(None)
}

/// Writes tier `tier`'s codes to the file a solve saves to, a byte a code where they fit.
#[cfg(feature = "database")]
fn save_tier(files: Option<&mut Files>, tier: usize, codes: &[u16]) -> Result<(), SolveError> {
    let Some((_, writer)) = files else {
        return Ok(());
    };
    if codes.iter().all(|&code| code <= u16::from(u8::MAX)) {
        let bytes: Vec<u8> = codes.iter().map(|&code| code as u8).collect();
        writer.append(tier, 1, &bytes)
    } else {
        let bytes: Vec<u8> = codes.iter().flat_map(|code| code.to_le_bytes()).collect();
        writer.append(tier, 2, &bytes)
    }
}

#[cfg(not(feature = "database"))]
fn save_tier(_: Option<&mut Files>, _: usize, _: &[u16]) -> Result<(), SolveError> {
    Ok(())
}

/// The most bytes a solve from tier `from` holds: the codes kept, and the working arrays of the
/// tier being solved (a count and a bound a rank, and about eight bytes a move within the tier,
/// guessed at four moves a rank).
pub fn peak_bytes<G: Tiered>(game: &G, from: usize, keep: KeepTiers) -> u64 {
    let count = game.tier_count();
    let reach = game.tier_reach().max(1);
    let len = |tier: usize| game.tier_len(tier);
    (from..count)
        .map(|tier| {
            let kept: u64 = match keep {
                KeepTiers::All => (tier..count).map(len).sum(),
                KeepTiers::Needed => (tier..count.min(tier + reach + 1)).map(len).sum(),
            };
            2 * kept + len(tier) * (3 + 8 * 4)
        })
        .max()
        .unwrap_or(0)
}

/// What the moves out of its tier say of a state, and how many moves it has within the tier.
#[derive(Clone, Copy, Default)]
struct Seen {
    /// The fastest win by a move out of the tier, if any.
    win: Option<u32>,
    /// The slowest loss over moves out of the tier (0 if none).
    loss: u32,
    /// Whether a move out of the tier draws.
    draw: bool,
}

/// A bound kept for an undecided state: a win found by a move out of the tier (flag, then its
/// remoteness), or the slowest loss out of the tier and whether a move out of it draws.
const WIN_FOUND: u16 = 1 << 15;
const DRAW_FOUND: u16 = 1 << 14;
/// The high bit of a rank in the working lists: in a level's list, a win found by a move out of
/// the tier (not yet claimed); in a parent list, a move that keeps the turn.
const FLAG: u32 = 1 << 31;

/// Solves tier `tier` from the kept tiers after it.
fn solve_tier<G, C>(
    game: &G,
    classes: &C,
    tier: usize,
    kept: &Tiers,
    clock: &Clock,
    stats: &mut LoopyStats,
) -> Result<Vec<u16>, SolveError>
where
    G: Tiered + Sync,
    G::State: Send + PartialEq,
    C: Classes<G>,
{
    let len = game.tier_len(tier);
    let slots = usize::try_from(len)
        .ok()
        .filter(|&len| len <= FLAG as usize)
        .ok_or_else(|| {
            SolveError::Unsupported(format!(
                "tier {tier} has {len} ranks; the loopy tier solver numbers a tier's ranks in 32 bits"
            ))
        })?;
    let codes: Vec<AtomicU16> = (0..slots).map(|_| AtomicU16::new(0)).collect();
    let pending: Vec<AtomicU8> = (0..slots).map(|_| AtomicU8::new(0)).collect();
    let bounds: Vec<AtomicU16> = (0..slots).map(|_| AtomicU16::new(0)).collect();
    let after: Vec<&[u16]> = kept[tier + 1..]
        .iter()
        .map(|codes| codes.as_deref().unwrap_or_default())
        .collect();

    // 1. Each chunk's states valued from their moves out of the tier; moves within kept as
    // (child, parent) pairs, and the states decided at once with their remoteness.
    struct Chunk {
        within: Vec<(u32, u32)>,
        decided: Vec<(u32, u32)>,
        states: u64,
        moves: u64,
    }
    let chunks: Vec<Chunk> = (0..len.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| -> Result<Chunk, SolveError> {
            clock.check(tier)?;
            let mut out = Chunk {
                within: Vec::new(),
                decided: Vec::new(),
                states: 0,
                moves: 0,
            };
            let first = chunk * CHUNK;
            let mut state: Option<G::State> = None;
            for rank in first..len.min(first + CHUNK) {
                state = match state {
                    Some(previous) if rank > first => game.unrank_next(tier, rank, &previous),
                    _ => game.unrank(tier, rank),
                };
                let Some(here) = state.clone() else {
                    continue;
                };
                let canonical = classes.stand_in(game, here.clone());
                if canonical != here {
                    continue;
                }
                out.states += 1;
                let slot = rank as usize;
                let mut seen = Seen::default();
                let mut within = 0u32;
                let mut fault = None;
                let mut moves = 0;
                game.for_each_step(&here, |step| {
                    moves += 1;
                    if step.gain != 0 {
                        fault = Some(SolveError::InvalidGame(format!(
                            "a move of rank {rank} of tier {tier} gains {}: the loopy tier solver \
                             solves outcome games, whose moves gain nothing",
                            step.gain
                        )));
                        return false;
                    }
                    let child = classes.stand_in(game, step.next);
                    let to = game.tier(&child);
                    let at = game.rank(&child);
                    if to == tier {
                        let keeps = if step.turn == Turn::Keep { FLAG } else { 0 };
                        out.within.push((at as u32, rank as u32 | keeps));
                        within += 1;
                        return true;
                    }
                    let code = after
                        .get(to.wrapping_sub(tier + 1))
                        .and_then(|codes| codes.get(usize::try_from(at).ok()?))
                        .and_then(|&code| Code(code).decode());
                    let Some((outcome, remoteness)) = code else {
                        fault = Some(unheld(game, tier, rank, to, at));
                        return false;
                    };
                    let mine = if step.turn == Turn::Pass {
                        outcome.flipped()
                    } else {
                        outcome
                    };
                    let then = remoteness.unwrap_or(0) + 1;
                    match mine {
                        Outcome::Win => seen.win = Some(seen.win.map_or(then, |w| w.min(then))),
                        Outcome::Loss => seen.loss = seen.loss.max(then),
                        Outcome::Draw => seen.draw = true,
                    }
                    true
                });
                if let Some(fault) = fault {
                    return Err(fault);
                }
                out.moves += moves;
                if within > u32::from(u8::MAX) {
                    return Err(SolveError::Unsupported(format!(
                        "rank {rank} of tier {tier} has {within} moves within its tier; the loopy \
                         tier solver counts at most 255"
                    )));
                }
                let decided = if moves == 0 {
                    Some(match game.payoff(&here) {
                        1 => Code::win(0),
                        -1 => Code::loss(0),
                        0 => Code::DRAW,
                        other => {
                            return Err(SolveError::InvalidGame(format!(
                                "rank {rank} of tier {tier} has no move and payoff {other}: an \
                                 outcome game's final payoff is -1, 0 or 1"
                            )));
                        }
                    })
                } else if let Some(win) = seen.win.filter(|_| within == 0) {
                    Some(Code::win(win))
                } else if within == 0 {
                    Some(if seen.draw {
                        Code::DRAW
                    } else {
                        Code::loss(seen.loss)
                    })
                } else {
                    None
                };
                match decided {
                    Some(code) => {
                        codes[slot].store(code.0, Relaxed);
                        if let Some((_, Some(remoteness))) = code.decode() {
                            out.decided.push((remoteness, rank as u32));
                        }
                    }
                    None => {
                        codes[slot].store(Code::UNDECIDED, Relaxed);
                        pending[slot].store(within as u8, Relaxed);
                        let bound = match seen.win {
                            Some(win) => {
                                out.decided.push((win, rank as u32 | FLAG));
                                WIN_FOUND | win as u16
                            }
                            None => seen.loss as u16 | if seen.draw { DRAW_FOUND } else { 0 },
                        };
                        bounds[slot].store(bound, Relaxed);
                    }
                }
            }
            Ok(out)
        })
        .collect::<Result<_, _>>()?;

    // 2. The reverse of the moves within the tier, as offsets and parents by child rank.
    let mut offsets = vec![0u32; slots + 1];
    let mut levels: Vec<Vec<u32>> = Vec::new();
    for chunk in &chunks {
        stats.states += chunk.states;
        stats.moves += chunk.moves;
        stats.moves_within += chunk.within.len() as u64;
        for &(child, _) in &chunk.within {
            offsets[child as usize + 1] += 1;
        }
        for &(level, rank) in &chunk.decided {
            let level = level as usize;
            if levels.len() <= level {
                levels.resize_with(level + 1, Vec::new);
            }
            levels[level].push(rank);
        }
    }
    for slot in 0..slots {
        offsets[slot + 1] += offsets[slot];
    }
    let mut fill = offsets.clone();
    let mut parents = vec![0u32; offsets[slots] as usize];
    for chunk in chunks {
        for (child, parent) in chunk.within {
            parents[fill[child as usize] as usize] = parent;
            fill[child as usize] += 1;
        }
    }
    drop(fill);

    // 3. Levels of remoteness: a state decided at level `level` tells its parents.
    let mut level = 0;
    while level < levels.len() {
        clock.check(tier)?;
        if level as u32 > Code::MAX_REMOTENESS {
            return Err(SolveError::Unsupported(format!(
                "tier {tier} has remoteness past {}",
                Code::MAX_REMOTENESS
            )));
        }
        let at = std::mem::take(&mut levels[level]);
        let next: Vec<(u32, u32)> = at
            .par_iter()
            .flat_map_iter(|&entry| {
                let slot = (entry & !FLAG) as usize;
                let mut told = Vec::new();
                let mut code = codes[slot].load(Relaxed);
                if entry & FLAG != 0 {
                    // A win found by a move out of the tier, not beaten by one within it.
                    let won = Code::win(level as u32).0;
                    if codes[slot]
                        .compare_exchange(Code::UNDECIDED, won, Relaxed, Relaxed)
                        .is_err()
                    {
                        return told.into_iter();
                    }
                    code = won;
                }
                let lost = code % 2 == 1;
                for &parent in &parents[offsets[slot] as usize..offsets[slot + 1] as usize] {
                    let keeps = parent & FLAG != 0;
                    let parent = parent & !FLAG;
                    let p = parent as usize;
                    if codes[p].load(Relaxed) != Code::UNDECIDED {
                        continue;
                    }
                    // A move to a lost state that passes the turn wins, as does one to a won
                    // state that keeps it.
                    if lost != keeps {
                        let won = Code::win(level as u32 + 1).0;
                        if codes[p]
                            .compare_exchange(Code::UNDECIDED, won, Relaxed, Relaxed)
                            .is_ok()
                        {
                            told.push((level as u32 + 1, parent));
                        }
                    } else if pending[p].fetch_sub(1, Relaxed) == 1 {
                        let bound = bounds[p].load(Relaxed);
                        if bound & WIN_FOUND != 0 {
                            continue;
                        }
                        let code = if bound & DRAW_FOUND != 0 {
                            continue;
                        } else {
                            let slowest = u32::from(bound & !(WIN_FOUND | DRAW_FOUND));
                            (level as u32 + 1).max(slowest)
                        };
                        if codes[p]
                            .compare_exchange(Code::UNDECIDED, Code::loss(code).0, Relaxed, Relaxed)
                            .is_ok()
                        {
                            told.push((code, parent));
                        }
                    }
                }
                told.into_iter()
            })
            .collect();
        for (at_level, rank) in next {
            let at_level = at_level as usize;
            if levels.len() <= at_level {
                levels.resize_with(at_level + 1, Vec::new);
            }
            levels[at_level].push(rank);
        }
        level += 1;
    }

    // 4. What is left is drawn.
    let codes: Vec<u16> = codes
        .into_par_iter()
        .map(|code| match code.into_inner() {
            Code::UNDECIDED => Code::DRAW.0,
            code => code,
        })
        .collect();
    for &code in &codes {
        match Code(code).decode() {
            Some((Outcome::Win, _)) => stats.wins += 1,
            Some((Outcome::Loss, _)) => stats.losses += 1,
            Some((Outcome::Draw, _)) => stats.draws += 1,
            None => {}
        }
    }
    Ok(codes)
}

/// The error for a move to a state the solver does not hold.
#[cold]
fn unheld<G: Tiered>(game: &G, tier: usize, rank: u64, to: usize, child: u64) -> SolveError {
    SolveError::InvalidGame(format!(
        "a move from tier {tier} (rank {rank}) leads to rank {child} of tier {to}, which the loopy \
         tier solver does not hold: moves must stay in their tier or lead to a later one, at most \
         tier_reach() = {} ahead, and ranks must be below tier_len",
        game.tier_reach()
    ))
}

/// The value a code stands for, as the other engines give it (+1, 0, −1).
pub fn value_of(code: Code) -> Option<Score> {
    code.decode().map(|(outcome, _)| outcome.value())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::retrograde::{self, HashIds};
    use crate::games::Quixo;

    /// Every position of 3×3 Quixo reachable from the start, against one table's retrograde
    /// analysis: with and without symmetry, on one thread and on two.
    #[test]
    fn quixo_three_agrees_with_one_table() {
        let game = Quixo::new(3).unwrap();
        let one_table =
            retrograde::solve(&game, HashIds::default(), retrograde::Options::new()).unwrap();
        let options = Options::new().keep(KeepTiers::All);
        let every = solve(&game, EveryState, options).unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let classes = pool
            .install(|| par_solve(&game, BySymmetry, options))
            .unwrap();
        assert!(classes.stats().states * 6 < every.stats().states);
        let mut checked = 0;
        let mut seen = hashbrown::HashSet::new();
        let mut todo = vec![game.start()];
        while let Some(state) = todo.pop() {
            if !seen.insert(state) {
                continue;
            }
            todo.extend(game.moves(&state).map(|push| game.play(&state, &push).next));
            let found = one_table.outcome_of(&state).unwrap();
            assert_eq!(
                every.outcome_of(&state),
                Some(found),
                "{}",
                game.formal(&state)
            );
            assert_eq!(
                classes.outcome_of(&state),
                Some(found),
                "{}",
                game.formal(&state)
            );
            checked += 1;
        }
        assert_eq!(checked, one_table.states());
    }

    /// A saved solve cut at random places (as a kill mid-write leaves it) resumes to the same
    /// codes as a solve never stopped; a flipped byte in a complete tier is refused.
    #[cfg(feature = "database")]
    #[test]
    fn resumed_solves_end_the_same() {
        use super::super::file::TierFile;
        let game = Quixo::new(3).unwrap();
        let options = Options::new().keep(KeepTiers::All);
        let whole = solve(&game, BySymmetry, options).unwrap();
        let dir = std::env::temp_dir().join(format!("loopy-resume-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("quixo3.tiers");
        let save = Save {
            path: path.clone(),
            game: "quixo 3".into(),
            resume: false,
        };
        par_solve_saved(&game, BySymmetry, options, &save).unwrap();
        let full = std::fs::read(&path).unwrap();
        assert!(matches!(
            par_solve_saved(&game, BySymmetry, options, &save),
            Err(SolveError::TierFile { .. })
        ));
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..12 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let cut = 60 + (seed % (full.len() as u64 - 60)) as usize;
            std::fs::write(&path, &full[..cut]).unwrap();
            let held = TierFile::open(&path).unwrap().tiers_held();
            let resume = Save {
                resume: true,
                ..save.clone()
            };
            let resumed = par_solve_saved(&game, BySymmetry, options, &resume).unwrap();
            assert_eq!(resumed.stats().resumed, held);
            assert_eq!(resumed.stats().tiers + held, game.tier_count());
            assert_eq!(resumed.tiers(), whole.tiers(), "cut at byte {cut}");
            assert_eq!(std::fs::read(&path).unwrap().len(), full.len());
        }
        // A byte flipped in the middle of the file: the tier it falls in is named.
        let mut damaged = full.clone();
        damaged[full.len() / 2] ^= 0x40;
        std::fs::write(&path, &damaged).unwrap();
        let resume = Save {
            resume: true,
            ..save.clone()
        };
        let refused = par_solve_saved(&game, BySymmetry, options, &resume).unwrap_err();
        assert!(refused.to_string().contains("damaged"), "{refused}");
        // Another game's file.
        std::fs::write(&path, &full).unwrap();
        let other = Save {
            game: "quixo 4".into(),
            resume: true,
            path: path.clone(),
        };
        let refused = par_solve_saved(&game, BySymmetry, options, &other).unwrap_err();
        assert!(refused.to_string().contains("not of quixo 4"), "{refused}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
