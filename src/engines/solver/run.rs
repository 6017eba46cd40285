//! [`Solver::solve`]: the declarations read as types, and the engine each combination runs.
//!
//! Each capability slot is visited once (the range by [`with_range_of`], [`IndexSlot`],
//! [`TierSlot`]); the
//! visitor that reaches a declared slot knows the game implements the capability's trait and
//! calls the engine's own generic function with it, so the search is the same code as the
//! engine's free functions, monomorphized for the game.

use std::hash::Hash;
use std::marker::PhantomData;
use std::sync::Arc;

use super::declared::{RangeJob, with_range_of};
use super::loopy::{Loopy, LoopyRun, TierFileJob};
use super::plan::{Facts, RETROGRADE_BYTES};
use super::sample::Trials;
use super::solved::RetroAnswer;
use super::{Answer, Engine, Plan, Solver, Why};
use crate::engines::kernel::RangeSource;
use crate::engines::pruning::{Driver, growing};
use crate::engines::retrograde::{DenseIds, HashIds};
use crate::engines::tiers::KeepTiers;
use crate::engines::{exhaustive, nimbers, proof, pruning, retrograde, tiers};
use crate::error::SolveError;
use crate::game::{
    Declares, Game, Impartial,
    declaration::{
        IndexSlot, KeySlot, OnImpartial, OnIndex, OnKey, OnSymmetry, OnTiers, SymmetrySlot,
        TierSlot, visit_impartial,
    },
};
use crate::memo::{BoundTable, Canonical, ConcurrentBoundTable, HashBoundTable, ShardedBoundTable};
use crate::{CompactKey, DenseIndex, Symmetry, Tiered};

use super::solved::Boxed;

mod tables;
use tables::Tables;

impl<'g, G> Solver<'g, G>
where
    G: Game + Sync + 'g,
    G::State: Eq + Hash + Send + Sync + 'g,
    G::Move: Send + 'g,
{
    /// Solves the game from its start, with the engine and tables [`plan`](Solver::plan)
    /// names.
    ///
    /// ```
    /// use gamesolver::{games::{StoneGameIII, TicTacToe}, Engine, Solved, Solver};
    ///
    /// let game = TicTacToe;
    /// let solved = Solver::new(&game).solve()?;
    /// assert_eq!((solved.value(), solved.engine()), (0, Engine::Retrograde)); // a draw
    /// let game = StoneGameIII::new(vec![1, 2, 3, 7])?;
    /// let solved = Solver::new(&game).solve()?;
    /// assert_eq!((solved.value(), solved.engine()), (-1, Engine::Exhaustive)); // Bob by 1
    /// # Ok::<(), gamesolver::Error>(())
    /// ```
    pub fn solve(self) -> Result<Answer<'g, G>, SolveError> {
        let declared = self.game.capabilities();
        self.solve_declared(&declared)
    }

    fn solve_declared<D: Declares<G>>(self, declared: &D) -> Result<Answer<'g, G>, SolveError> {
        let facts = Facts::of(self.game, declared);
        let (mut plan, mut trials) = self.settle_with(declared, facts, true)?;
        if self.retrograde_by_default(facts, plan.engine) {
            // Retrograde analysis chosen by default, within its share of the budget; past it,
            // the engine the sample prefers, and the answer's plan says so.
            let share = self.limits.memory_budget.min(RETROGRADE_BYTES);
            match self.memory_limit(share).run_plan(declared, facts, plan) {
                Err(SolveError::MemoryBudget { .. }) => {}
                done => return done,
            }
            let (settled, raced) = self.settle_with(declared, facts, false)?;
            plan = Plan {
                instead_of: Some(Engine::Retrograde),
                ..settled
            };
            trials = raced;
        }
        match self.run_plan_on(declared, facts, plan, trials) {
            // The exhaustive engine the sample chose, past the budget: the pruning engine, whose
            // table replaces entries where the exhaustive engine's must hold every state.
            Err(SolveError::MemoryBudget { .. })
                if plan.engine == Engine::Exhaustive && matches!(plan.why, Why::Sampled(_)) =>
            {
                let pruning = Plan {
                    instead_of: Some(Engine::Exhaustive),
                    ..self.engine(Engine::Pruning).plan_for(facts)?
                };
                let pruning = Plan {
                    why: plan.why,
                    ..pruning
                };
                self.run_plan(declared, facts, pruning)
            }
            done => done,
        }
    }

    fn run_plan<D: Declares<G>>(
        self,
        declared: &D,
        facts: Facts,
        plan: Plan,
    ) -> Result<Answer<'g, G>, SolveError> {
        self.run_plan_with(declared, facts, plan, TierFileJob::None, None)
    }

    /// Runs `plan`, the pruning engine going on from the bounds the sample's race found where
    /// it runs on a table of whole states, and either engine answering from its race's table
    /// where it won the race.
    fn run_plan_on<D: Declares<G>>(
        self,
        declared: &D,
        facts: Facts,
        plan: Plan,
        trials: Option<Trials<G::State>>,
    ) -> Result<Answer<'g, G>, SolveError> {
        let raced = matches!(plan.why, Why::Sampled(sample) if sample.solved_by.is_some());
        let goes_on = plan.engine == Engine::Pruning && !plan.symmetry && !plan.compact_key;
        let trials = trials.filter(|_| raced || goes_on);
        self.run_plan_with(declared, facts, plan, TierFileJob::None, trials)
    }

    /// Runs `plan`, the loopy tier solver doing `tier_file` with a tier file.
    pub(super) fn run_plan_with<D: Declares<G>>(
        self,
        declared: &D,
        facts: Facts,
        plan: Plan,
        tier_file: TierFileJob<'_>,
        trials: Option<Trials<G::State>>,
    ) -> Result<Answer<'g, G>, SolveError> {
        let pool = if plan.threads > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(plan.threads)
                    .build()
                    .map_err(|error| SolveError::ThreadStart {
                        threads: plan.threads,
                        message: error.to_string(),
                    })?,
            )
        } else {
            None
        };
        if self.journal.is_some() && plan.engine != Engine::Nimbers {
            return Err(SolveError::Unsupported(format!(
                "a journal of parts' nimbers is the nimber engine's, and this plan runs {:?}",
                plan.engine
            )));
        }
        let run = Run {
            solver: self,
            pool: pool.as_ref(),
            dense: plan.dense,
            compact_key: plan.compact_key,
            tier_file,
            trials,
        };
        let inner = match plan.engine {
            Engine::Tiers => <D::Tiers as TierSlot<G>>::visit(run),
            Engine::LoopyTiers => {
                let loopy = LoopyRun {
                    solver: run.solver,
                    pool: run.pool,
                    tier_file,
                };
                <D::Tiers as TierSlot<G>>::visit(Loopy::<_, D>(loopy, PhantomData))
            }
            Engine::Retrograde => <D::Index as IndexSlot<G>>::visit(Retro(run)),
            Engine::Exhaustive | Engine::Sweep => {
                let sweep = plan.engine == Engine::Sweep;
                with_range_of(declared, Exhaustive::<_, D>(run, sweep, PhantomData))
            }
            Engine::Pruning => with_range_of(declared, Prune::<_, D>(run, PhantomData)),
            Engine::Nimbers => visit_impartial(declared, ByNimbers(run)),
            Engine::Proof => with_range_of(declared, Prove(run)),
            Engine::Expectimax | Engine::ValueIteration => Err(SolveError::Unsupported(
                "a chance engine's values are expectations, not scores: solve with \
                 Solver::solve_chance"
                    .into(),
            )),
        }?;
        Ok(Answer {
            inner,
            outcome_game: facts.outcome_game,
            plan,
        })
    }
}

/// The nimber engine, for a game that declares itself impartial (on the pool, where there is
/// one).
struct ByNimbers<'a, 'g, G: Game>(Run<'a, 'g, G>);

impl<'g, G> OnImpartial<G> for ByNimbers<'_, 'g, G>
where
    G: Game + Sync + 'g,
    G::State: Eq + Hash + Send + Sync + 'g,
    G::Move: Send + 'g,
{
    type Output = Boxed<'g, G>;

    fn declared(self) -> Self::Output
    where
        G: Impartial,
    {
        let Solver {
            game,
            limits,
            journal,
            ..
        } = self.0.solver;
        let options = nimbers::Options::new().limits(limits);
        Ok(match (self.0.pool, journal) {
            (Some(pool), None) => Box::new(pool.install(|| nimbers::par_solve(game, options))?),
            (Some(pool), Some(journal)) => {
                Box::new(pool.install(|| nimbers::par_solve_saving(game, options, journal))?)
            }
            (None, None) => Box::new(nimbers::solve(game, options)?),
            (None, Some(journal)) => Box::new(nimbers::solve_saving(game, options, journal)?),
        })
    }

    fn undeclared(self) -> Self::Output {
        unreachable!(
            "the plan runs the nimber engine only on a game that declares itself impartial"
        )
    }
}

/// A solve under way: the options, and the pool for more than one thread.
struct Run<'a, 'g, G: Game> {
    solver: Solver<'g, G>,
    pool: Option<&'a rayon::ThreadPool>,
    /// Whether the plan keeps values in a flat array by the dense index.
    dense: bool,
    /// Whether the pruning engine searches on a growing fixed table keyed by the game's
    /// compact key.
    compact_key: bool,
    /// What the tier solvers do with a tier file.
    tier_file: TierFileJob<'a>,
    /// What the sample's race left for this run (the plan says whether it won).
    trials: Option<Trials<G::State>>,
}

impl<G: Game> Run<'_, '_, G> {
    /// Runs `job` on the pool, or here.
    fn on_pool<T: Send>(&self, job: impl FnOnce() -> T + Send) -> T {
        match self.pool {
            Some(pool) => pool.install(job),
            None => job(),
        }
    }
}

impl<'g, G> OnTiers<G> for Run<'_, 'g, G>
where
    G: Game + Sync + 'g,
    G::State: Send + 'g,
    G::Move: 'g,
{
    type Output = Boxed<'g, G>;

    fn declared(self) -> Self::Output
    where
        G: Tiered,
    {
        let Solver { game, limits, .. } = self.solver;
        let keep = if self.solver.every_tier {
            KeepTiers::All
        } else {
            KeepTiers::Needed
        };
        let options = tiers::Options::new().limits(limits).keep(keep);
        Ok(match self.tier_file {
            TierFileJob::None => match self.pool {
                Some(pool) => Box::new(pool.install(|| tiers::par_solve(game, options))?),
                None => Box::new(tiers::solve(game, options)?),
            },
            #[cfg(feature = "database")]
            TierFileJob::Save(save) => {
                // The tier file's blocks are rayon work: without a pool of its own the solve
                // would take every core.
                let solved = match self.pool {
                    Some(pool) => pool.install(|| tiers::par_solve_saved(game, options, save))?,
                    None => crate::engines::tiers::loopy::one_thread()?
                        .install(|| tiers::par_solve_saved(game, options, save))?,
                };
                Box::new(solved)
            }
            #[cfg(feature = "database")]
            TierFileJob::Load(path, words) => {
                Box::new(tiers::TierDatabase::open(game, path, words)?)
            }
            #[cfg(not(feature = "database"))]
            TierFileJob::Never(_) => unreachable!("no tier file without the database feature"),
        })
    }

    fn undeclared(self) -> Self::Output {
        unreachable!("the plan runs the tier solver only on a game that declares tiers")
    }
}

/// Retrograde analysis, its states numbered by the dense index where the game declares one.
struct Retro<'a, 'g, G: Game>(Run<'a, 'g, G>);

impl<'g, G> OnIndex<G> for Retro<'_, 'g, G>
where
    G: Game + Sync + 'g,
    G::State: Eq + Hash + Send + Sync + 'g,
    G::Move: 'g,
{
    type Output = Boxed<'g, G>;

    fn declared(self) -> Self::Output
    where
        G: DenseIndex,
    {
        let Solver { game, limits, .. } = self.0.solver;
        match DenseIds::try_for_game(game, limits.memory_budget) {
            Ok(ids) => retrograde_on(&self.0, ids),
            Err(SolveError::MemoryBudget { .. }) => self.undeclared(),
            Err(error) => Err(error),
        }
    }

    fn undeclared(self) -> Self::Output {
        retrograde_on(&self.0, HashIds::new())
    }
}

fn retrograde_on<'g, G, I>(run: &Run<'_, 'g, G>, ids: I) -> Boxed<'g, G>
where
    G: Game + Sync + 'g,
    G::State: Send + Sync + 'g,
    G::Move: 'g,
    I: crate::engines::retrograde::StateIds<G> + Send + 'g,
{
    let Solver { game, limits, .. } = run.solver;
    let solved = match run.pool {
        Some(pool) => pool.install(|| {
            retrograde::par_solve(game, ids, retrograde::Options::new().limits(limits))
        })?,
        None => retrograde::solve(game, ids, retrograde::Options::new().limits(limits))?,
    };
    Ok(Box::new(RetroAnswer {
        solved,
        start: game.start(),
    }))
}

/// The exhaustive engine (or, for an ordered index, the sweep) with the range source the game
/// declares: its tables next.
struct Exhaustive<'a, 'g, G: Game, D>(Run<'a, 'g, G>, bool, PhantomData<D>);

impl<'g, G, D> RangeJob<G> for Exhaustive<'_, 'g, G, D>
where
    G: Game + Sync + 'g,
    G::State: Eq + Hash + Send + Sync + 'g,
    G::Move: Send + 'g,
    D: Declares<G>,
{
    type Output = Boxed<'g, G>;

    fn run<R: RangeSource<G> + 'static>(self, range: R) -> Self::Output {
        let (mut run, sweep) = (self.0, self.1);
        if let Some((table, stats)) = run.trials.take().and_then(|trials| trials.exhaustive) {
            // The sample's race solved the game: its table holds the answer.
            let Solver { game, limits, .. } = run.solver;
            let options = exhaustive::Options::new().limits(limits).range(range);
            return Ok(Box::new(
                exhaustive::solve(game, table, options)?.counting(stats),
            ));
        }
        <D::Index as IndexSlot<G>>::visit(Tables::<_, _, D> {
            run,
            range,
            sweep,
            declared: PhantomData,
        })
    }
}

/// The pruning engine with the range source the game declares, on tables that store each
/// class of symmetric states once where the game declares its symmetry.
/// Proof-number search, with the game's range bracketing the value's thresholds.
struct Prove<'a, 'g, G: Game>(Run<'a, 'g, G>);

impl<'g, G> RangeJob<G> for Prove<'_, 'g, G>
where
    G: Game + 'g,
    G::State: Eq + Hash + 'g,
{
    type Output = Boxed<'g, G>;

    fn run<R: RangeSource<G> + 'static>(self, range: R) -> Self::Output {
        let options = proof::Options::new()
            .limits(self.0.solver.limits)
            .range(range);
        Ok(Box::new(proof::solve(self.0.solver.game, options)?))
    }
}

struct Prune<'a, 'g, G: Game, D>(Run<'a, 'g, G>, PhantomData<D>);

impl<'g, G, D> RangeJob<G> for Prune<'_, 'g, G, D>
where
    G: Game + Sync + 'g,
    G::State: Eq + Hash + Send + Sync + 'g,
    G::Move: Send + 'g,
    D: Declares<G>,
{
    type Output = Boxed<'g, G>;

    fn run<R: RangeSource<G> + 'static>(self, range: R) -> Self::Output {
        let mut run = self.0;
        if let Some(trials) = run.trials.take() {
            // The bounds the sample's race found: the answer where it solved the game, else
            // where this search begins.
            let options = pruning::Options {
                driver: Driver::Auto,
                limits: run.solver.limits,
                range,
            };
            let (table, stats) = trials.pruning;
            let game = run.solver.game;
            return Ok(match run.pool {
                Some(pool) => {
                    let shared = Arc::new(ShardedBoundTable::from_hash(table));
                    let pruned = pool.install(|| pruning::par_solve(game, &*shared, options))?;
                    Box::new(pruned.with_table(Arc::clone(&shared)).counting(stats))
                }
                None => Box::new(pruning::solve(game, table, options)?.counting(stats)),
            });
        }
        let pruned = Pruned {
            run,
            range,
            declared: PhantomData::<D>,
        };
        <D::Symmetry as SymmetrySlot<G>>::visit(pruned)
    }
}

/// [`Prune`]'s tables, by the symmetry slot's visit (and, without a symmetry, the key slot's).
struct Pruned<'a, 'g, G: Game, R, D> {
    run: Run<'a, 'g, G>,
    range: R,
    declared: PhantomData<D>,
}

impl<'g, G, R, D> Pruned<'_, 'g, G, R, D>
where
    G: Game + Sync + 'g,
    G::State: Eq + Hash + Send + Sync + 'g,
    G::Move: Send + 'g,
    R: RangeSource<G> + 'static,
{
    /// The pruning engine's options: the solver's limits and the declared range.
    fn options(&self) -> pruning::Options<R> {
        pruning::Options {
            driver: Driver::Auto,
            limits: self.run.solver.limits,
            range: self.range,
        }
    }

    /// The pruning engine on `table()` (one thread) or `shared()` (the pool's).
    fn on<T, S>(self, table: impl FnOnce() -> T, shared: impl FnOnce() -> S) -> Boxed<'g, G>
    where
        T: BoundTable<G> + 'g,
        S: ConcurrentBoundTable<G> + Send + Sync + 'g,
    {
        let (game, options) = (self.run.solver.game, self.options());
        Ok(match self.run.pool {
            Some(pool) => {
                let shared = Arc::new(shared());
                let pruned = pool.install(|| pruning::par_solve(game, &*shared, options))?;
                Box::new(pruned.with_table(Arc::clone(&shared)))
            }
            None => Box::new(pruning::solve(game, table(), options)?),
        })
    }
}

impl<'g, G, R, D> OnSymmetry<G> for Pruned<'_, 'g, G, R, D>
where
    G: Game + Sync + 'g,
    G::State: Eq + Hash + Send + Sync + 'g,
    G::Move: Send + 'g,
    R: RangeSource<G> + 'static,
    D: Declares<G>,
{
    type Output = Boxed<'g, G>;

    fn declared(self) -> Self::Output
    where
        G: Symmetry,
    {
        self.on(
            || Canonical(HashBoundTable::new()),
            || Canonical(ShardedBoundTable::new()),
        )
    }

    fn undeclared(self) -> Self::Output {
        <D::Key as KeySlot<G>>::visit(self)
    }
}

/// Without a symmetry: the pruning engine on a fixed bound table keyed by the game's compact
/// key, growing with the search ([`pruning::growing`]), where the plan says so (the key is
/// declared and fits the first table); else on a hash table of whole states.
impl<'g, G, R, D> OnKey<G> for Pruned<'_, 'g, G, R, D>
where
    G: Game + Sync + 'g,
    G::State: Eq + Hash + Send + Sync + 'g,
    G::Move: Send + 'g,
    R: RangeSource<G> + 'static,
    D: Declares<G>,
{
    type Output = Boxed<'g, G>;

    fn declared(self) -> Self::Output
    where
        G: CompactKey,
    {
        if !self.run.compact_key {
            return OnKey::undeclared(self);
        }
        let (game, options) = (self.run.solver.game, self.options());
        let stages = growing::Stages::new(options.limits);
        Ok(match self.run.pool {
            Some(pool) => Box::new(pool.install(|| growing::par_solve(game, options, stages))?),
            None => Box::new(growing::solve(game, options, stages)?),
        })
    }

    fn undeclared(self) -> Self::Output {
        self.on(HashBoundTable::new, ShardedBoundTable::new)
    }
}
