//! The time forecast: before a long solve, how long it will take, from the work the game
//! declares ([`Work`]) and the speed this machine showed on a short measured burst of the same
//! solver, measured once per run.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::engines::{exhaustive, tiers};
use crate::memo::DenseTable;
use crate::{
    DenseIndex, Error, Game, Limits, Score, Step, Tiered, Turn, engines::tiers::KeepTiers,
};

use super::args::{Cli, SolverName};
use super::model::CliError;
use super::present::{Presented, Work};

/// Work of the exhaustive engine below which no forecast is made unless a time limit asks for
/// one: a solve this small takes well under a minute on any machine the program runs on, and
/// the burst is not worth its time.
const SMALL_WORK: u64 = 50_000_000;

/// The same for the tier solver, which values moves faster (docs/performance.md): below it the
/// burst would be a large share of a solve such as Dots and Boxes 3×3's (2·10⁸ moves), to say
/// nothing.
const SMALL_TIER_WORK: u64 = 2_000_000_000;

/// How long a calibration burst runs at least.
const BURST: Duration = Duration::from_millis(25);

/// Says before a long exhaustive-engine solve starts how long it will take, where the game
/// knows its work: past the time limit, it is refused at once; over a minute, a warning on
/// stderr says so.
pub(super) fn foresee<G: Presented>(cli: &Cli, game: &G) -> Result<(), CliError> {
    if cli.solver == SolverName::AlphaBeta {
        return Ok(());
    }
    let Some(work) = game.engine_work() else {
        return Ok(());
    };
    judge(cli, "the engine", work, SMALL_WORK, engine_rate)
}

/// The same for the tier solver on `threads` threads, timed on the game's own sample; nothing
/// for a solve whose values would not fit `budget` (the solver refuses it before it begins).
pub(super) fn foresee_tiers<G: Presented + Tiered>(
    cli: &Cli,
    game: &G,
    threads: usize,
    budget: u64,
) -> Result<(), CliError> {
    let (Some(work), Some(sample)) = (game.tier_work(), game.tier_sample()) else {
        return Ok(());
    };
    if tiers::bytes_needed(game, KeepTiers::Needed) > budget {
        return Ok(());
    }
    // The tiers' ranks are split among the threads (measured: 1.7x to 1.9x on two).
    let speedup = 1.0 + 0.9 * (threads.max(1) - 1) as f64;
    let dense = crate::engines::tiers::solves_densely(game, budget);
    judge(cli, "the tier solver", work, SMALL_TIER_WORK, || {
        tier_rate(&sample, dense) * speedup
    })
}

/// Refuses a solve whose forecast passes the time limit, and warns of one past a minute; no
/// forecast for work below `small` without a time limit.
fn judge(
    cli: &Cli,
    solver: &str,
    work: Work,
    small: u64,
    rate: impl FnOnce() -> f64,
) -> Result<(), CliError> {
    if work.moves < small && cli.time_limit.is_none() {
        return Ok(());
    }
    let seconds = work.moves as f64 / rate();
    let estimate = Duration::from_secs_f64(seconds.min(1e12));
    let faster = work.faster;
    match cli.time_limit {
        Some(limit) if estimate > limit => Err(CliError::TooSlow {
            estimate,
            limit,
            advice: faster.map_or_else(
                || "raise the time limit or use a smaller input".to_string(),
                |faster| format!("use {faster}"),
            ),
        }),
        None if seconds >= 60.0 => {
            let sooner = faster.map_or_else(String::new, |faster| {
                format!("; {faster} gives the same answer much sooner")
            });
            let message = format!(
                "{solver} will take about {} on this input ({} moves to value){sooner}",
                Error::duration_in_words(estimate),
                work.moves
            );
            super::report::warn(cli.json, &message);
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Moves per second the exhaustive engine values on this machine, one thread, a dense table
/// (measured once per run).
fn engine_rate() -> f64 {
    static RATE: OnceLock<f64> = OnceLock::new();
    *RATE.get_or_init(|| {
        let mut burst = Burst { stones: 256 };
        loop {
            let clock = Instant::now();
            let solved = exhaustive::solve(
                &burst,
                DenseTable::for_game(&burst),
                exhaustive::Options::new(),
            );
            let elapsed = clock.elapsed();
            debug_assert!(solved.is_ok());
            if elapsed >= BURST || burst.stones >= 1 << 11 {
                return burst.moves() as f64 / elapsed.as_secs_f64().max(1e-9);
            }
            burst.stones *= 2;
        }
    })
}

/// Moves per second the tier solver looks at on this machine, one thread, timed on `sample`
/// in the dense layout or by rank, as the solve will run (measured once per run and layout:
/// one rate for every game, as the one layered game, Dots and Boxes, is all that declares its
/// tier work).
fn tier_rate<G: Tiered>(sample: &G, dense: bool) -> f64 {
    static RATES: [OnceLock<f64>; 2] = [OnceLock::new(), OnceLock::new()];
    *RATES[usize::from(dense)].get_or_init(|| {
        // By rank: a budget of the ranked peak, below a value per index.
        let limits = if dense {
            Limits::default()
        } else {
            Limits::with_memory_budget(tiers::bytes_needed(sample, KeepTiers::Needed))
        };
        let mut moves = 0;
        let clock = Instant::now();
        // At least the burst's time, and at least once.
        while moves == 0 || clock.elapsed() < BURST {
            match tiers::solve(sample, tiers::Options::new().limits(limits)) {
                Ok(solved) => moves += solved.stats().moves,
                Err(_) => return f64::INFINITY, // no burst, no forecast
            }
        }
        moves as f64 / clock.elapsed().as_secs_f64().max(1e-9)
    })
}

/// The calibration burst: a row of stones, a player takes an end stone and scores 1 (the shape
/// of the interval stone games: two moves a state, a dense table of intervals).
struct Burst {
    stones: u32,
}

impl Burst {
    /// The moves the engine values: two for each interval of two stones or more, one for
    /// each single stone.
    fn moves(&self) -> u64 {
        let n = u64::from(self.stones);
        n + n * (n - 1)
    }
}

impl Game for Burst {
    /// The interval `(left, right)` of stones left.
    type State = (u32, u32);
    /// `true`: the left stone.
    type Move = bool;
    fn start(&self) -> (u32, u32) {
        (0, self.stones)
    }
    fn moves(&self, &(left, right): &(u32, u32)) -> impl Iterator<Item = bool> {
        [true, false]
            .into_iter()
            .take((right - left).min(2) as usize)
    }
    fn play(&self, &(left, right): &(u32, u32), &from_left: &bool) -> Step<(u32, u32)> {
        let next = if from_left {
            (left + 1, right)
        } else {
            (left, right - 1)
        };
        Step {
            next,
            gain: Score::from((left + right) % 3 == 0),
            turn: Turn::Pass,
        }
    }
    fn payoff(&self, _: &(u32, u32)) -> Score {
        0
    }
}

/// Intervals `left ≤ right ≤ stones`, numbered by `right` and then `left`.
impl DenseIndex for Burst {
    fn index_len(&self) -> usize {
        let n = self.stones as usize + 1;
        n * (n + 1) / 2
    }
    fn index(&self, &(left, right): &(u32, u32)) -> usize {
        let right = right as usize;
        right * (right + 1) / 2 + left as usize
    }
}
