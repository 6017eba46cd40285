//! The plan's look at a game before it chooses between the exhaustive and the pruning engine
//! ([`Sample`]): random playouts to the end; then a race of both engines on the whole game, up
//! to [`TRIAL_STATES`] states each (side by side on two threads), whose winner's answer is kept
//! for a game that small; past it, the positions a few plies before the playouts' ends solved
//! by both engines, further and further back, until the work passes a small budget or the
//! start is reached. What the two engines did there, and how that changed as the positions
//! grew, is what the plan reads ([`Sample::prefers_pruning`]); the pruning engine's solve goes
//! on from the bounds its race found.
//!
//! Everything is counted, nothing timed: the same game under the same limits gives the same
//! sample, so [`Solver::plan`](super::Solver::plan) before a solve names what the solve runs.

use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use crate::check::walk::split_mix;
use crate::engines::kernel::{Lane, Limits, RangeSource, RunGuard, Stats};
use crate::engines::{exhaustive, pruning};
use crate::error::SolveError;
use crate::game::Game;
use crate::memo::{BoundTable, HashBoundTable, HashTable};

use super::Engine;

/// Playouts the sample runs from the start.
const PLAYOUTS: usize = 8;

/// Plies a playout may run before the game counts as deep (its probes would be far from its
/// start, whose solve they must foretell).
pub const DEEP_PLIES: u32 = 1 << 12;

/// Work (states expanded and table hits, both engines, every probe) past which the sample goes
/// no further back. (It follows a race on the whole game that both engines ran for
/// [`TRIAL_STATES`] states: the probes only say which engine a game past that size suits.)
const SAMPLE_WORK: u64 = 1 << 14;

/// States each engine may expand in the race on the whole game that opens the sample: a
/// game either solves within it is answered by the winner's table, and the pruning engine's
/// table goes on to its solve where the plan chooses it.
pub const TRIAL_STATES: u64 = 1 << 17;

/// The least cap of the second engine of a race: below it, which engine finishes first says
/// little (their checks of the cap come every thousand states or so).
const LEAST_CAP: u64 = 1 << 12;

/// The pruning engine's work counts for this many times the exhaustive engine's: its states
/// cost more each (their moves ordered, their children's entries read first, bounds merged;
/// measured on the games of benches/newcomers: 1.4 to 2 times, docs/performance.md).
pub const PRUNING_COST: u64 = 2;

/// How many states in a thousand of the sample's playouts a game must decide
/// ([`Game::decided`]) for the plan to choose proof search ([`Sample::prefers_proof`]).
pub const PROOF_DECIDED: u32 = 50;

/// What the plan learned from a short look at the game: how long random playouts ran, and how
/// the exhaustive and the pruning engine fared on the positions a few plies before the
/// playouts' ends, further and further back (each position raced: the other engine stops once
/// it has done twice the first's work, weighted). Work is states expanded plus table hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct Sample {
    /// The longest playout, in plies ([`DEEP_PLIES`] or more: the game is deep, and no
    /// position was probed).
    pub depth: u32,
    /// The moves a state had, on average over the playouts' states (rounded down).
    pub branching: u32,
    /// How far from their playout's end the furthest positions both engines solved were, in
    /// plies (the depth: the start itself; 0: none).
    pub plies: u32,
    /// Both engines' work there: the exhaustive engine's and the pruning engine's.
    pub work: (u64, u64),
    /// What happened on the positions further back, past `plies`.
    pub further: Further,
    /// Whether the game is an outcome game: its exhaustive solve also gives the remoteness and
    /// the line in which the winner wins as fast as it can, at a cost the pruning engine does
    /// not pay.
    pub outcome_game: bool,
    /// The engine that solved the whole game in the race that opens the sample, and its work
    /// there (states expanded, at most [`TRIAL_STATES`], and table hits): each engine on the
    /// start, side by side, and the one with less work (weighed as below) wins; `None` where
    /// neither finished. A game this small is solved then and there, on one thread.
    pub solved_by: Option<(Engine, u64)>,
    /// Of the playouts' states, how many in a thousand the game decides without search
    /// ([`Game::decided`]): knowledge that only proof search uses, which stops there.
    pub decided: u32,
}

/// What a [`Sample`] found on the level of positions past the furthest both engines solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Further {
    /// Nothing: the sample stopped at its budget, or at the start.
    #[default]
    Unprobed,
    /// Only the pruning engine finished within its share: the exhaustive engine needed more
    /// than twice its (weighted) work.
    PruningOnly,
    /// Only the exhaustive engine finished within its share.
    ExhaustiveOnly,
    /// Neither finished within what was left of the budget.
    Neither,
}

impl Sample {
    /// Whether proof search is the engine: an outcome game, not deep, whose playouts met
    /// states the game decides ([`Game::decided`]) at least [`PROOF_DECIDED`] times in a
    /// thousand (then the game is not raced). Neither the exhaustive nor the pruning engine
    /// reads that knowledge; proof search stops at each such state.
    pub fn prefers_proof(&self) -> bool {
        self.solved_by.is_none()
            && self.outcome_game
            && self.depth < DEEP_PLIES
            && self.decided >= PROOF_DECIDED
    }

    /// Whether the pruning engine should solve the game:
    /// - the race's winner, where one engine solved the whole game in it;
    /// - never a deep game;
    /// - where, on the furthest positions probed, one engine could not finish within twice
    ///   what the other did, the one that finished; else by the work on the furthest positions
    ///   both finished:
    ///   the pruning engine's counted [`PRUNING_COST`] times in a score game (its states cost
    ///   more each), half in an outcome game (whose exhaustive solve also finds the remoteness
    ///   and the swift line, a search the probes do not show), the one that did less.
    pub fn prefers_pruning(&self) -> bool {
        if let Some((engine, _)) = self.solved_by {
            return engine == Engine::Pruning;
        }
        if self.depth >= DEEP_PLIES {
            return false;
        }
        match self.further {
            Further::PruningOnly => return true,
            Further::ExhaustiveOnly => return false,
            Further::Unprobed | Further::Neither => {}
        }
        let (exhaustive, pruning) = self.work;
        let (times, per) = self.weight();
        pruning.saturating_mul(times) / per < exhaustive
    }

    /// How the plan weighs the pruning engine's work against the exhaustive engine's, as a
    /// fraction: [`PRUNING_COST`] for a score game; for an outcome game one half, since its
    /// exhaustive solve also finds the remoteness and the swift line, searching on where the
    /// pruning engine stops.
    fn weight(&self) -> (u64, u64) {
        if self.outcome_game {
            (1, 2)
        } else {
            (PRUNING_COST, 1)
        }
    }

    /// How the pruning engine's work is counted, in words.
    fn weight_words(&self) -> &'static str {
        if self.outcome_game {
            "half: an outcome game, whose exhaustive solve also finds the remoteness"
        } else {
            "twice: its states cost more each"
        }
    }

    /// The sample, in words (for `--explain` and the report's reasons).
    pub fn describe(&self) -> String {
        if let Some((engine, work)) = self.solved_by {
            let (winner, other) = match engine {
                Engine::Pruning => ("pruning", "exhaustive"),
                _ => ("exhaustive", "pruning"),
            };
            return format!(
                "a small game: raced on the whole game (each engine up to {TRIAL_STATES} \
                 states), the {winner} engine solved it with work {work} (states expanded and \
                 table hits), and the \
                 {other} engine could not do it with less work (the pruning engine's counted \
                 {}); its answer is kept",
                self.weight_words()
            );
        }
        if self.prefers_proof() {
            return format!(
                "an outcome game that decides {} in a thousand of the states of {PLAYOUTS} \
                 random playouts without search (Game::decided): proof search stops there, the \
                 other engines do not",
                self.decided
            );
        }
        if self.depth >= DEEP_PLIES {
            return format!(
                "a random playout ran {} plies or more: a deep game, whose states the exhaustive \
                 engine values once each",
                self.depth
            );
        }
        let at = match self.plies {
            0 => "no position".to_string(),
            plies if plies >= self.depth => "the whole game".to_string(),
            1 => "positions 1 ply from the end".to_string(),
            plies => format!("positions {plies} plies from the end"),
        };
        let mut words = format!(
            "neither engine solved the whole game within {TRIAL_STATES} states; \
             {PLAYOUTS} random playouts of up to {} plies, {} moves a state; on {at} the \
             exhaustive engine's work was {} and the pruning engine's {} (counted {})",
            self.depth,
            self.branching,
            self.work.0,
            self.work.1,
            self.weight_words(),
        );
        words.push_str(match self.further {
            Further::PruningOnly => {
                "; further back only the pruning engine finished within its share"
            }
            Further::ExhaustiveOnly => {
                "; further back only the exhaustive engine finished within its share"
            }
            Further::Neither => "; further back neither finished within its share",
            Further::Unprobed => "",
        });
        words
    }
}

/// What the race that opens a sample leaves for the solve: the pruning engine's table (to go
/// on from where the plan chooses that engine), and the exhaustive engine's where it solved
/// the game.
pub(super) struct Trials<S> {
    /// The bounds the pruning engine found (the whole game's, where it won the race), and its
    /// statistics there.
    pub(super) pruning: (HashBoundTable<S>, Stats),
    /// The exhaustive engine's values and statistics, where it won the race.
    pub(super) exhaustive: Option<(HashTable<S>, Stats)>,
}

/// A sample, and what its race left for the solve.
pub(super) type Sampled<S> = (Sample, Option<Trials<S>>);

/// The sample of `game`, whose engines cut on `range` (`outcome_game`: the game declares it),
/// within `limits` (the probes' tables are small: a tenth of the budget at most), opened by a
/// race of both engines on the whole game (side by side where `threads` allows), and what
/// that race leaves for the solve (nothing for a deep game, which is not raced).
pub(super) fn sample<G, R>(
    game: &G,
    range: R,
    outcome_game: bool,
    limits: Limits,
    threads: usize,
) -> Result<Sampled<G::State>, SolveError>
where
    G: Game + Sync,
    G::State: Eq + Hash + Send + Sync,
    R: RangeSource<G>,
{
    let mut seed = 0x005E_ED0F_6A3E_u64;
    let mut paths: Vec<Vec<G::State>> = Vec::with_capacity(PLAYOUTS);
    let (mut depth, mut states, mut moves_seen, mut decided) = (0u32, 0u64, 0u64, 0u64);
    let mut moves = Vec::new();
    for _ in 0..PLAYOUTS {
        let mut path = vec![game.start()];
        loop {
            let state = path.last().expect("a path starts at the start");
            if game.known_value(state).is_some() {
                break;
            }
            moves.clear();
            game.moves_into(state, &mut moves);
            if moves.is_empty() {
                break;
            }
            states += 1;
            moves_seen += moves.len() as u64;
            decided += u64::from(game.decided(state).is_some());
            let pick = (split_mix(&mut seed) % moves.len() as u64) as usize;
            let step = game.play(state, &moves[pick]);
            path.push(step.next);
            if path.len() > DEEP_PLIES as usize {
                break;
            }
        }
        depth = depth.max((path.len() - 1) as u32);
        paths.push(path);
    }
    let mut sample = Sample {
        depth,
        branching: moves_seen.checked_div(states).unwrap_or(0) as u32,
        outcome_game,
        decided: (decided * 1000).checked_div(states).unwrap_or(0) as u32,
        ..Sample::default()
    };
    if depth >= DEEP_PLIES || sample.prefers_proof() {
        return Ok((sample, None));
    }
    let (solved_by, trials) = race(game, range, sample.weight(), limits, threads)?;
    sample.solved_by = solved_by;
    if solved_by.is_some() {
        return Ok((sample, Some(trials)));
    }
    let probe_limits = Limits::with_memory_budget(limits.memory_budget / 10);
    let options = pruning::Options {
        driver: pruning::Driver::Auto,
        limits: probe_limits,
        range,
    };
    let guard = |cap: u64| RunGuard {
        stores: Some(cap.clamp(1, usize::MAX as u64) as usize),
        ..RunGuard::new(probe_limits, None)
    };
    // One engine's probe of `state`: its work, or `None` past `cap` states.
    let exhaustive_probe = |state: &G::State, cap: u64| {
        let (value, stats) =
            exhaustive::probe(game, &mut HashTable::new(), state, range, guard(cap));
        work_of(value, stats)
    };
    let pruning_probe = |state: &G::State, cap: u64| {
        let mut table = HashBoundTable::limited(probe_limits.memory_budget / 2);
        let (value, stats) = pruning::probe(game, &mut table, &options, state, guard(cap));
        work_of(value, stats)
    };
    // The pruning engine's work as the plan weighs it against the exhaustive engine's, and back.
    let (times, per) = sample.weight();
    let weigh = |pruning: u64| pruning.saturating_mul(times) / per;
    let unweigh = |exhaustive: u64| exhaustive.saturating_mul(per) / times;
    let (mut plies, mut spent) = (1u32, 0u64);
    // Which engine goes first on a position: the one that did less on the level before.
    let mut pruning_first = false;
    loop {
        // The positions `plies` from their playout's end (the start, for a shorter playout),
        // each once.
        let mut positions: Vec<&G::State> = Vec::new();
        for path in &paths {
            let state = &path[(path.len() - 1).saturating_sub(plies as usize)];
            if !positions.contains(&state) {
                positions.push(state);
            }
        }
        // A race: the first engine on every position, as far as the budget left; then the
        // other until it has done twice the first's work, as the plan weighs them.
        let left = SAMPLE_WORK.saturating_sub(spent).max(1);
        let (exhaustive_work, pruning_work) = if pruning_first {
            let pruning = level(&positions, left, &pruning_probe)?;
            let cap = pruning.map_or(left, |work| (2 * weigh(work)).max(LEAST_CAP));
            (level(&positions, cap, &exhaustive_probe)?, pruning)
        } else {
            let exhaustive = level(&positions, left, &exhaustive_probe)?;
            let cap = exhaustive.map_or(left, |work| (2 * unweigh(work)).max(LEAST_CAP));
            (exhaustive, level(&positions, cap, &pruning_probe)?)
        };
        spent += exhaustive_work.unwrap_or(left) + pruning_work.unwrap_or(left);
        match (exhaustive_work, pruning_work) {
            (Some(exhaustive), Some(pruning)) => {
                sample.plies = plies;
                sample.work = (exhaustive, pruning);
                pruning_first = weigh(pruning) < exhaustive;
            }
            (None, None) => sample.further = Further::Neither,
            (None, Some(_)) => sample.further = Further::PruningOnly,
            (Some(_), None) => sample.further = Further::ExhaustiveOnly,
        }
        if sample.further != Further::Unprobed || plies >= depth || spent >= SAMPLE_WORK {
            return Ok((sample, Some(trials)));
        }
        plies = (plies + plies.div_ceil(2)).min(depth);
    }
}

/// The engine that won a race on the whole game, and its work (states expanded and table
/// hits).
type Raced = Option<(Engine, u64)>;

/// The race that opens the sample: both engines on the start, each up to [`TRIAL_STATES`]
/// states expanded (side by side on two threads where `threads` allows, neither running far
/// ahead of the other, else the pruning engine first), and the one that finished with less
/// work (states expanded and table hits, as the probes count it), weighed by `(times, per)` as
/// [`Sample::prefers_pruning`] weighs it. An engine stops once it can no longer win: the
/// outcome depends on counts alone, never on which thread ran faster, so a plan made before a
/// solve names what the solve runs.
fn race<G, R>(
    game: &G,
    range: R,
    (times, per): (u64, u64),
    limits: Limits,
    threads: usize,
) -> Result<(Raced, Trials<G::State>), SolveError>
where
    G: Game + Sync,
    G::State: Eq + Hash + Send + Sync,
    R: RangeSource<G>,
{
    // Each engine's line: it stops once its work reaches it.
    let (pruning_line, exhaustive_line) = (AtomicU64::new(u64::MAX), AtomicU64::new(u64::MAX));
    // Each engine's work as weighed, for the other to keep pace with.
    let (pruning_count, exhaustive_count) = (Paced::default(), Paced::default());
    let side_by_side = threads > 1;
    // A table each, within a quarter of the budget.
    let trial_limits = Limits {
        memory_budget: limits.memory_budget / 4,
        ..limits
    };
    let options = pruning::Options {
        driver: pruning::Driver::Auto,
        limits: trial_limits,
        range,
    };
    let start = game.start();
    let run_pruning = || {
        // The other engine no longer waits for this one once it has stopped, however.
        let _stopped = Stopped(&pruning_count.0);
        let mut table = HashBoundTable::new();
        BoundTable::<G>::limit(&mut table, trial_limits.memory_budget);
        let clock = Instant::now();
        let lane = Lane {
            line: &pruning_line,
            mine: &pruning_count.0,
            other: side_by_side.then_some(&exhaustive_count.0),
            weight: (times, per),
        };
        let guard = trial_guard(trial_limits, lane);
        let (value, mut stats) = pruning::probe(game, &mut table, &options, &start, guard);
        stats.elapsed = clock.elapsed();
        let finished = work_of(value, stats)?;
        if let Some(work) = finished {
            // The exhaustive engine wins only with at most this much work (as weighed).
            exhaustive_line.store(work.saturating_mul(times) / per + 1, Ordering::Relaxed);
        }
        Ok::<_, SolveError>((finished, (table, stats)))
    };
    let run_exhaustive = || {
        let _stopped = Stopped(&exhaustive_count.0);
        let mut table = HashTable::new();
        let clock = Instant::now();
        let lane = Lane {
            line: &exhaustive_line,
            mine: &exhaustive_count.0,
            other: side_by_side.then_some(&pruning_count.0),
            weight: (1, 1),
        };
        let guard = trial_guard(trial_limits, lane);
        let (value, mut stats) = exhaustive::probe(game, &mut table, &start, range, guard);
        stats.elapsed = clock.elapsed();
        let finished = work_of(value, stats)?;
        if let Some(work) = finished {
            // The pruning engine wins only below this much work (as weighed).
            pruning_line.store(work.saturating_mul(per).div_ceil(times), Ordering::Relaxed);
        }
        Ok::<_, SolveError>((finished, (table, stats)))
    };
    let (pruned, valued) = if side_by_side {
        std::thread::scope(|scope| {
            let exhaustive = scope.spawn(run_exhaustive);
            let pruning = run_pruning();
            let exhaustive = exhaustive
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (pruning, exhaustive)
        })
    } else {
        let pruning = run_pruning();
        (pruning, run_exhaustive())
    };
    let ((pruned, pruning), (valued, exhaustive)) = (pruned?, valued?);
    let solved_by = match (pruned, valued) {
        (Some(p), Some(e)) if p.saturating_mul(times) / per < e => Some((Engine::Pruning, p)),
        (Some(_), Some(e)) | (None, Some(e)) => Some((Engine::Exhaustive, e)),
        (Some(p), None) => Some((Engine::Pruning, p)),
        (None, None) => None,
    };
    let won = |engine| solved_by.is_some_and(|(by, _)| by == engine);
    let trials = Trials {
        pruning,
        exhaustive: won(Engine::Exhaustive).then_some(exhaustive),
    };
    Ok((solved_by, trials))
}

/// The guard of one engine's run in the race: up to [`TRIAL_STATES`], on `lane`.
fn trial_guard(limits: Limits, lane: Lane<'_>) -> RunGuard<'_> {
    RunGuard {
        stores: Some(TRIAL_STATES as usize),
        race: Some(lane),
        ..RunGuard::new(limits, None)
    }
}

/// An engine's work in the race, as weighed, on a cache line of its own (one engine writes it
/// as often as every 16 states, the other reads it).
#[derive(Default)]
#[repr(align(64))]
struct Paced(AtomicU64);

/// Marks an engine of the race stopped when its run ends, however it ends (a value, a line, an
/// error, a panic): the other engine no longer waits for it.
struct Stopped<'a>(&'a AtomicU64);

impl Drop for Stopped<'_> {
    fn drop(&mut self) {
        self.0.store(u64::MAX, Ordering::Relaxed);
    }
}

/// A trial's value, `None` if it stopped (its cap, its race's line, its share of the budget);
/// another error ends the sample.
fn finished(value: Result<crate::Score, SolveError>) -> Result<Option<crate::Score>, SolveError> {
    match value {
        Ok(value) => Ok(Some(value)),
        Err(SolveError::Cancelled | SolveError::MemoryBudget { .. }) => Ok(None),
        Err(error) => Err(error),
    }
}

/// One engine's work on every position of a level, within `cap` in all (`None` past it).
fn level<S>(
    positions: &[&S],
    cap: u64,
    probe: &impl Fn(&S, u64) -> Result<Option<u64>, SolveError>,
) -> Result<Option<u64>, SolveError> {
    let mut work = 0u64;
    for state in positions {
        match probe(state, cap.saturating_sub(work))? {
            Some(done) if work + done <= cap => work += done,
            _ => return Ok(None),
        }
    }
    Ok(Some(work))
}

/// A probe's work (states expanded and table hits), or `None` if it passed its cap; an error
/// that is not the cap's ends the sample (a cycle the game did not declare, an overflow).
fn work_of(
    value: Result<crate::Score, SolveError>,
    stats: Stats,
) -> Result<Option<u64>, SolveError> {
    Ok(finished(value)?.map(|_| stats.expanded + stats.hits))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(work: (u64, u64), outcome_game: bool, further: Further) -> Sample {
        Sample {
            depth: 20,
            branching: 5,
            plies: 8,
            work,
            further,
            outcome_game,
            solved_by: None,
            decided: 0,
        }
    }

    #[test]
    fn the_rule_weighs_the_pruning_engine_by_the_kind_of_game() {
        // A score game: the pruning engine's work counts twice.
        assert!(sample((100, 40), false, Further::Unprobed).prefers_pruning());
        assert!(!sample((100, 60), false, Further::Unprobed).prefers_pruning());
        // An outcome game: half.
        assert!(sample((100, 150), true, Further::Unprobed).prefers_pruning());
        assert!(!sample((100, 250), true, Further::Unprobed).prefers_pruning());
        // Neither finishing further back leaves it to the last level both finished.
        assert!(!sample((100, 60), false, Further::Neither).prefers_pruning());
    }

    #[test]
    fn an_engine_that_alone_finished_further_back_wins_and_a_deep_game_is_exhaustive() {
        assert!(sample((100, 900), false, Further::PruningOnly).prefers_pruning());
        assert!(!sample((900, 1), true, Further::ExhaustiveOnly).prefers_pruning());
        let deep = Sample {
            depth: DEEP_PLIES,
            ..sample((900, 1), true, Further::PruningOnly)
        };
        assert!(!deep.prefers_pruning());
        assert!(deep.describe().contains("deep game"));
    }
}
