//! The tier solver: games layered into tiers ([`Tiered`]), solved from the last tier back to
//! the start's.
//!
//! Every move leads to a later tier, so once the tiers after `t` are solved, every state of
//! tier `t` can be valued from them alone, independently of the other states of `t`. The solver
//! keeps one flat array of values per tier, indexed by rank, in the narrowest integer type that
//! holds the game's [`value_bound`](Tiered::value_bound) (one byte for Dots and Boxes), and
//! keeps only the tiers a move can still reach ([`KeepTiers::Needed`]) unless asked to keep
//! them all ([`KeepTiers::All`], for lines of play and move values anywhere). The peak of
//! memory is known before the first tier, from the tiers' lengths: a solve that would not fit
//! the budget is refused at once, naming the size it needs.
//!
//! A game that also declares a [`DenseIndex`](crate::DenseIndex) is solved in one array by that
//! index instead, when a value per index fits the budget and the index has at most twice as
//! many places as the tiers to solve have ranks: a move's value is then one load at the next
//! state's index, where the ranked layout computes the next state's rank (the dense module says
//! how a move to a state not valued yet is still refused). On one thread, a game whose index is
//! also declared ordered (every move lowers it) is valued index by index from 0 up, as a
//! hand-written C sweep over bitmasks is (the `by_index` module). On more, an index declared a
//! subset index (every move takes bits from it) is valued by blocks of the index level by
//! level, the blocks of a level in parallel. docs/performance.md has the figures.
//!
//! [`par_solve`] splits each tier into chunks of ranks on the current rayon pool; the
//! values are the same for every thread count (each state's value depends only on later tiers).

use std::time::{Duration, Instant};

mod by_index;
mod chunks;
#[cfg(feature = "database")]
mod database;
mod dense;
#[cfg(feature = "distributed")]
pub mod distributed;
#[cfg(feature = "database")]
pub mod file;
pub mod loopy;
#[cfg(feature = "distributed")]
mod mailbox;
#[cfg(feature = "distributed")]
mod replicated;
mod saving;
#[cfg(feature = "distributed")]
mod sockets;
mod solution;
#[cfg(feature = "distributed")]
mod workers;

#[cfg(feature = "database")]
pub use database::TierDatabase;
use saving::Files;
#[cfg(feature = "database")]
pub use saving::par_solve_saved;
pub use solution::TierSolution;

use super::kernel::{Limits, Progress, combine};
use crate::error::SolveError;
use crate::game::{Score, Tiered, declaration::visit_index};
use chunks::{Chunks, Parallel, Sequential};
use solution::{Store, store_at};

/// Ranks per unit of work (and per check of the time limit).
const CHUNK: usize = 1 << 12;

/// Which solved tiers a tier solve keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KeepTiers {
    /// Only the tiers a move can still reach ([`Tiered::tier_reach`]): in the end, the start's
    /// tier and the `tier_reach()` tiers after it. The least memory; lines of play and values of
    /// states in dropped tiers are not available. (A solve laid out by the game's dense index,
    /// [`TierStats::dense`], keeps every tier in the one array it fills.)
    #[default]
    Needed,
    /// Every tier from the start's to the last: the optimal line and every state's value.
    All,
}

/// What a tier solve did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TierStats {
    /// Tiers solved (those read back from a resumed tier file included).
    pub tiers: usize,
    /// Tiers read back from the tier file a solve resumed instead of solved.
    pub resumed: usize,
    /// States valued (ranks that [`unrank`](Tiered::unrank) gave a state; in a solve by
    /// index, indices that [`state_at`](crate::game::StateAt::state_at) gave one).
    pub states: u64,
    /// Ranks with no state (holes); in a solve by index, indices with none.
    pub holes: u64,
    /// Moves looked at.
    pub moves: u64,
    /// Bytes per stored value (1, 2, 4 or 8).
    pub value_bytes: usize,
    /// The most bytes of values held at once.
    pub peak_bytes: u64,
    /// Wall-clock time of the solve.
    pub elapsed: Duration,
    /// Whether the values were laid out by the game's [`DenseIndex`](crate::DenseIndex) (one
    /// array for every tier, no ranks computed per move), not tier by tier by rank: the solver
    /// does so when the game declares one, one value per index fits the memory budget, and the
    /// index has at most twice as many places as the tiers to solve have ranks. Every tier is
    /// then kept, whatever [`KeepTiers`] asked.
    pub dense: bool,
}

/// The tier solver's options: the limits, and which tiers to keep.
///
/// ```
/// use gamesolver::Limits;
/// use gamesolver::engines::tiers::{KeepTiers, Options};
///
/// let options = Options::new().keep(KeepTiers::All).limits(Limits::unlimited());
/// assert_eq!(options.keep, KeepTiers::All);
/// ```
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

/// Solves a [`Tiered`] game from its start under `options`.
///
/// ```
/// use gamesolver::{games::DotsAndBoxes, memo::DenseTable};
/// use gamesolver::engines::{exhaustive, tiers::{KeepTiers, Options, solve}};
///
/// let game = DotsAndBoxes::new(2, 2).unwrap();
/// let tiers = solve(&game, Options::new()).unwrap();
/// let engine = exhaustive::solve(&game, DenseTable::for_game(&game), exhaustive::Options::new());
/// assert_eq!(tiers.value(), engine.unwrap().value());
/// assert_eq!(tiers.stats().value_bytes, 1);
///
/// // Every tier kept: the optimal line.
/// let game = DotsAndBoxes::new(1, 2).unwrap();
/// let solution = solve(&game, Options::new().keep(KeepTiers::All)).unwrap();
/// let line = solution.line().unwrap();
/// assert_eq!(line.len(), 7); // every edge gets drawn
/// assert_eq!(line[0].value, solution.value());
/// ```
pub fn solve<G: Tiered>(game: &G, options: Options) -> Result<TierSolution<'_, G>, SolveError> {
    crate::engines::chance::refuse_chance(game, "the tier solver")?;
    run(game, options.limits, options.keep, Sequential, None)
}

/// [`solve`] on every thread of the current rayon pool (`pool.install` chooses the pool). Each
/// tier is split into chunks of 4096 ranks; the values are the same for every thread count.
///
/// ```
/// use gamesolver::games::DotsAndBoxes;
/// use gamesolver::engines::tiers::{Options, par_solve, solve};
///
/// let game = DotsAndBoxes::new(2, 2).unwrap();
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let solution = pool.install(|| par_solve(&game, Options::new())).unwrap();
/// assert_eq!(solution.value(), 2); // the first player takes two boxes more
/// assert_eq!(solution.value(), solve(&game, Options::new()).unwrap().value());
/// ```
pub fn par_solve<G>(game: &G, options: Options) -> Result<TierSolution<'_, G>, SolveError>
where
    G: Tiered + Sync,
{
    crate::engines::chance::refuse_chance(game, "the tier solver")?;
    run(game, options.limits, options.keep, Parallel, None)
}

/// A stored value: an integer type narrower than (or as wide as) [`Score`].
pub(crate) trait Cell: Copy + Default + Send + Sync + 'static {
    /// `value` in this type, if it fits.
    fn narrow(value: Score) -> Option<Self>;
    /// Back to a score.
    fn widen(self) -> Score;
    /// The value as a tier file holds it: its two's complement bytes, little-endian.
    #[cfg_attr(not(feature = "database"), allow(dead_code))]
    fn put(self, bytes: &mut Vec<u8>);
    /// The value a tier file's cell of this width holds.
    #[cfg_attr(not(feature = "database"), allow(dead_code))]
    fn from_cell(cell: u64) -> Self;
}

macro_rules! cells {
    ($($cell:ty),*) => {$(
        impl Cell for $cell {
            #[inline]
            fn narrow(value: Score) -> Option<Self> {
                <$cell>::try_from(value).ok()
            }
            #[inline]
            fn widen(self) -> Score {
                Score::from(self)
            }
            fn put(self, bytes: &mut Vec<u8>) {
                bytes.extend_from_slice(&self.to_le_bytes());
            }
            fn from_cell(cell: u64) -> Self {
                let mut raw = [0u8; size_of::<$cell>()];
                raw.copy_from_slice(&cell.to_le_bytes()[..size_of::<$cell>()]);
                <$cell>::from_le_bytes(raw)
            }
        }
    )*};
}
cells!(i8, i16, i32, i64);

/// Counts of one chunk (or tier).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Counts {
    states: u64,
    holes: u64,
    moves: u64,
}

impl Counts {
    fn add(&mut self, other: Counts) {
        self.states += other.states;
        self.holes += other.holes;
        self.moves += other.moves;
    }
}

/// The solve's start and time limit.
pub(crate) struct Clock {
    started: Instant,
    limit: Option<Duration>,
    /// The start's tier (the last to solve).
    from: usize,
    /// Where a stop is asked for.
    progress: Option<&'static Progress>,
}

impl Clock {
    /// An error if a stop was asked for or the time limit has passed, with tier `tier` still
    /// to solve.
    fn check(&self, tier: usize) -> Result<(), SolveError> {
        self.check_with(|| format!("{} tiers still to solve", tier - self.from + 1))
    }

    /// An error if a stop was asked for or the time limit has passed, saying what is left
    /// with `left`.
    fn check_with(&self, left: impl FnOnce() -> String) -> Result<(), SolveError> {
        if let Some(progress) = self.progress {
            progress.go_on()?;
        }
        match self.limit {
            Some(limit) if self.started.elapsed() > limit => Err(SolveError::TimeLimit {
                limit,
                progress: left(),
            }),
            _ => Ok(()),
        }
    }
}

/// Values ranks `first..first + cells.len()` of `tier` from the `kept` tiers.
fn solve_chunk<G: Tiered, V: Cell>(
    game: &G,
    tier: usize,
    first: u64,
    cells: &mut [V],
    kept: &[Option<Vec<V>>],
) -> Result<Counts, SolveError> {
    // The tiers after this one, as slices (empty where not held): one bounds check a move.
    let after: Vec<&[V]> = kept[tier + 1..]
        .iter()
        .map(|values| values.as_deref().unwrap_or_default())
        .collect();
    let mut counts = Counts::default();
    walk(
        game,
        tier,
        (first, cells.len() as u64),
        &mut counts,
        |rank, state| {
            let mut best: Option<Score> = None;
            let mut fault = None;
            let mut looked = 0;
            game.ranked_children(state, |gain, turn, to, child| {
                looked += 1;
                let held = after
                    .get(to.wrapping_sub(tier + 1))
                    .and_then(|values| values.get(usize::try_from(child).ok()?));
                match held.map(|value| combine(gain, turn, value.widen())) {
                    Some(Ok(value)) => best = Some(best.map_or(value, |best| best.max(value))),
                    Some(Err(error)) => fault = Some(error),
                    None => fault = Some(unheld(game, tier, rank, to, child)),
                }
            });
            if let Some(fault) = fault {
                return Err(fault);
            }
            let value = best.unwrap_or_else(|| game.payoff(state));
            cells[(rank - first) as usize] =
                V::narrow(value).ok_or_else(|| beyond_bound(game, tier, rank, value))?;
            Ok(looked)
        },
    )?;
    Ok(counts)
}

/// Walks ranks `first..first + len` of `tier` in order (each state from the one before with
/// [`unrank_next`](Tiered::unrank_next)), valuing each state with `value`, which says how many
/// moves it looked at; `counts` gets the states, their moves and the holes.
#[inline(always)]
fn walk<G: Tiered>(
    game: &G,
    tier: usize,
    (first, len): (u64, u64),
    counts: &mut Counts,
    mut value: impl FnMut(u64, &G::State) -> Result<u64, SolveError>,
) -> Result<(), SolveError> {
    // A state is unranked afresh at the chunk's start and after a hole; from there each state
    // follows from the one before, with no `Option` of the previous state carried per state.
    let (end, mut rank, mut holes, mut moves) = (first + len, first, 0, 0);
    while rank < end {
        let Some(mut state) = game.unrank(tier, rank) else {
            holes += 1;
            rank += 1;
            continue;
        };
        loop {
            moves += value(rank, &state)?;
            rank += 1;
            if rank == end {
                break;
            }
            match game.unrank_next(tier, rank, &state) {
                Some(next) => state = next,
                None => {
                    holes += 1;
                    rank += 1;
                    break;
                }
            }
        }
    }
    counts.holes += holes;
    counts.moves += moves;
    counts.states += len - holes;
    Ok(())
}

/// The error for a move to a state the solver does not hold.
#[cold]
fn unheld<G: Tiered>(game: &G, tier: usize, rank: u64, to: usize, child: u64) -> SolveError {
    SolveError::InvalidGame(format!(
        "a move from tier {tier} (rank {rank}) leads to rank {child} of tier {to}, which the tier \
         solver does not hold: moves must lead to a later tier, at most tier_reach() = {} \
         ahead, and ranks must be below tier_len (check_tiers finds such faults)",
        game.tier_reach()
    ))
}

/// The error for a value wider than the declared bound allows.
#[cold]
fn beyond_bound<G: Tiered>(game: &G, tier: usize, rank: u64, value: Score) -> SolveError {
    SolveError::InvalidGame(format!(
        "rank {rank} of tier {tier} has value {value}, beyond the game's value_bound() = {}",
        game.value_bound()
    ))
}

/// Each tier's values, where held (indexed by tier).
type Kept<V> = Vec<Option<Vec<V>>>;

/// Bytes per value for a game whose values are at most `bound` in size.
fn width_of(bound: Score) -> u64 {
    [i8::MAX.into(), i16::MAX.into(), i32::MAX.into()]
        .into_iter()
        .position(|most: Score| bound.max(0) <= most)
        .map_or(8, |narrowest| 1 << narrowest)
}

/// The bytes of values a tier solve of `game` from its start holds at its peak, keeping
/// `keep`: a solve refuses, before it begins, a peak past its memory budget. This is the ranked
/// layout's peak, the least a solve needs; a solve whose budget also holds a value per place of
/// the game's dense index uses that layout instead ([`TierStats::dense`]), with a peak of
/// `index_len()` values.
///
/// ```
/// use gamesolver::{engines::tiers::{self, KeepTiers}, games::DotsAndBoxes};
///
/// let game = DotsAndBoxes::new(2, 2).unwrap(); // 12 edges: 4096 states, a byte each
/// assert!(tiers::bytes_needed(&game, KeepTiers::Needed) < tiers::bytes_needed(&game, KeepTiers::All));
/// assert_eq!(tiers::bytes_needed(&game, KeepTiers::All), 4096);
/// ```
pub fn bytes_needed<G: Tiered>(game: &G, keep: KeepTiers) -> u64 {
    let from = game.tier(&game.start());
    if from >= game.tier_count() {
        return 0;
    }
    peak(game, from, keep, width_of(game.value_bound())).0
}

/// Whether a tier solve of `game` under `budget` would lay its values out by the game's dense
/// index ([`TierStats::dense`]), which looks at a move about 2.4 times as fast: the time
/// forecast times a sample in the same layout.
#[cfg(feature = "cli")]
pub(crate) fn solves_densely<G: Tiered>(game: &G, budget: u64) -> bool {
    let width = width_of(game.value_bound());
    visit_index(
        &game.capabilities(),
        dense::Fits {
            game,
            width,
            budget,
        },
    )
}

/// Chooses the width of the values from the game's bound and runs the sweep.
fn run<'g, G: Tiered, S: Chunks<G>>(
    game: &'g G,
    limits: Limits,
    keep: KeepTiers,
    sweep: S,
    mut files: Option<&mut Files>,
) -> Result<TierSolution<'g, G>, SolveError> {
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
        limit: limits.time_limit,
        from,
        progress: limits.progress,
    };
    let layout = dense::Layout {
        game,
        from,
        limits,
        width: width_of(game.value_bound()),
        sweep: &sweep,
        clock: &clock,
    };
    // A solve that writes its tiers to a file holds them by rank, tier by tier.
    let dense = match files {
        Some(_) => None,
        None => visit_index(&game.capabilities(), layout),
    };
    if let Some(solved) = dense {
        let (values, mut stats, index) = solved?;
        let store = Store::Dense(values);
        let value = store_at(&store, Some(index), game, &start).ok_or_else(|| {
            SolveError::InvalidGame("the start's dense index holds no value".into())
        })?;
        stats.elapsed = started.elapsed();
        return Ok(TierSolution {
            game,
            start,
            value,
            store,
            index: Some(index),
            stats,
        });
    }
    let bound = game.value_bound().max(0);
    let (store, mut stats) = if bound <= Score::from(i8::MAX) {
        let (tiers, stats) = sweep_tiers::<G, S, i8>(
            game,
            from,
            limits,
            keep,
            &sweep,
            &clock,
            files.as_deref_mut(),
        )?;
        (Store::I8(tiers), stats)
    } else if bound <= Score::from(i16::MAX) {
        let (tiers, stats) = sweep_tiers::<G, S, i16>(
            game,
            from,
            limits,
            keep,
            &sweep,
            &clock,
            files.as_deref_mut(),
        )?;
        (Store::I16(tiers), stats)
    } else if bound <= Score::from(i32::MAX) {
        let (tiers, stats) = sweep_tiers::<G, S, i32>(
            game,
            from,
            limits,
            keep,
            &sweep,
            &clock,
            files.as_deref_mut(),
        )?;
        (Store::I32(tiers), stats)
    } else {
        let (tiers, stats) =
            sweep_tiers::<G, S, i64>(game, from, limits, keep, &sweep, &clock, files)?;
        (Store::I64(tiers), stats)
    };
    let value = store
        .get(from, game.rank(&start))
        .ok_or_else(|| SolveError::InvalidGame("the start's rank is beyond its tier".into()))?;
    stats.elapsed = started.elapsed();
    Ok(TierSolution {
        game,
        start,
        value,
        store,
        index: None,
        stats,
    })
}

/// The bytes of values a solve from tier `from` holds at its peak, and the tiers then held.
fn peak<G: Tiered>(game: &G, from: usize, keep: KeepTiers, width: u64) -> (u64, usize, usize) {
    let reach = game.tier_reach().max(1);
    let (mut held, mut peak) = (0u64, (0u64, from, from));
    for tier in (from..game.tier_count()).rev() {
        held = held.saturating_add(game.tier_len(tier).saturating_mul(width));
        let last = match keep {
            KeepTiers::Needed => (tier + reach).min(game.tier_count() - 1),
            KeepTiers::All => game.tier_count() - 1,
        };
        if held > peak.0 {
            peak = (held, tier, last);
        }
        if keep == KeepTiers::Needed && tier + reach < game.tier_count() {
            held -= game.tier_len(tier + reach).saturating_mul(width);
        }
    }
    peak
}

/// Solves tiers from the last down to `from` in cells of type `V`.
fn sweep_tiers<G: Tiered, S: Chunks<G>, V: Cell>(
    game: &G,
    from: usize,
    limits: Limits,
    keep: KeepTiers,
    sweep: &S,
    clock: &Clock,
    mut files: Option<&mut Files>,
) -> Result<(Kept<V>, TierStats), SolveError> {
    let width = size_of::<V>() as u64;
    let (needed, low, high) = peak(game, from, keep, width);
    if needed > limits.memory_budget {
        let states: u64 = (low..=high).map(|tier| game.tier_len(tier)).sum();
        return Err(SolveError::MemoryBudget {
            what: format!(
                "the tier solver's values (tiers {low} to {high} held at once: {states} states \
                 of {width} byte{})",
                if width == 1 { "" } else { "s" }
            ),
            needed,
            budget: limits.memory_budget,
        });
    }
    let count = game.tier_count();
    let reach = game.tier_reach().max(1);
    let mut kept: Kept<V> = (0..count).map(|_| None).collect();
    let mut stats = TierStats {
        value_bytes: width as usize,
        ..TierStats::default()
    };
    let mut held = 0u64;
    for tier in (from..count).rev() {
        let len = game.tier_len(tier);
        held += len * width;
        stats.peak_bytes = stats.peak_bytes.max(held);
        let (cells, counts) = match saving::saved(files.as_deref(), tier, len)? {
            Some(cells) => {
                stats.resumed += 1;
                (cells, Counts::default())
            }
            None => {
                let mut cells = allocate::<V>(len, tier)?;
                let counts = sweep.tier(game, tier, &mut cells, &kept, clock)?;
                saving::append(files.as_deref_mut(), tier, &cells)?;
                (cells, counts)
            }
        };
        kept[tier] = Some(cells);
        stats.tiers += 1;
        stats.states += counts.states;
        stats.holes += counts.holes;
        stats.moves += counts.moves;
        if keep == KeepTiers::Needed && tier > from && tier + reach < count {
            held -= kept[tier + reach]
                .take()
                .map_or(0, |values| values.len() as u64 * width);
        }
        if let Some(progress) = limits.progress {
            progress.record_tiers((count - tier) as u64, (count - from) as u64, held);
        }
    }
    Ok((kept, stats))
}

/// A tier's cells, allocated fallibly (the budget was checked before the first tier).
fn allocate<V: Cell>(len: u64, tier: usize) -> Result<Vec<V>, SolveError> {
    let bytes = len.saturating_mul(size_of::<V>() as u64);
    let refused = || SolveError::Allocation {
        what: format!("the values of tier {tier} ({len} states)"),
        bytes,
    };
    let len = usize::try_from(len).map_err(|_| refused())?;
    let mut cells = Vec::new();
    cells.try_reserve_exact(len).map_err(|_| refused())?;
    cells.resize(len, V::default());
    Ok(cells)
}
