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
use super::solved::{RetroAnswer, Swept};
use super::{Answer, Engine, Facts, Solved, Solver};
use crate::engines::kernel::RangeSource;
use crate::engines::pruning::Driver;
use crate::engines::retrograde::{DenseIds, HashIds};
use crate::engines::tiers::KeepTiers;
use crate::engines::{
    exhaustive::{self, sweep},
    pruning, retrograde, tiers,
};
use crate::error::Error;
use crate::game::{
    Declares, Game,
    declaration::{IndexSlot, OnIndex, OnTiers, TierSlot},
};
use crate::memo::{
    AtomicDenseTable, DenseTable, HashBoundTable, HashTable, ShardedBoundTable, ShardedTable,
};
use crate::{DenseIndex, Tiered, game::StateAt};

/// A boxed result, or why there is none.
type Boxed<'g, G> = Result<Box<dyn Solved<G> + 'g>, Error>;

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
    /// use gamesolver::{games::TicTacToe, Engine, Solved, Solver};
    ///
    /// let game = TicTacToe;
    /// let solved = Solver::new(&game).solve()?;
    /// assert_eq!((solved.value(), solved.engine()), (0, Engine::Exhaustive)); // a draw
    /// # Ok::<(), gamesolver::Error>(())
    /// ```
    pub fn solve(self) -> Result<Answer<'g, G>, Error> {
        let declared = self.game.capabilities();
        self.solve_declared(&declared)
    }

    fn solve_declared<D: Declares<G>>(self, declared: &D) -> Result<Answer<'g, G>, Error> {
        let facts = Facts::of(self.game, declared);
        let plan = self.plan_for(facts)?;
        let pool = if plan.threads > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(plan.threads)
                    .build()
                    .map_err(|error| Error::ThreadStart {
                        threads: plan.threads,
                        message: error.to_string(),
                    })?,
            )
        } else {
            None
        };
        let run = Run {
            solver: self,
            pool: pool.as_ref(),
            dense: plan.dense,
        };
        let inner = match plan.engine {
            Engine::Tiers => <D::Tiers as TierSlot<G>>::visit(run),
            Engine::Retrograde => <D::Index as IndexSlot<G>>::visit(Retro(run)),
            Engine::Exhaustive | Engine::Sweep => {
                let sweep = plan.engine == Engine::Sweep;
                with_range_of(declared, Exhaustive::<_, D>(run, sweep, PhantomData))
            }
            Engine::Pruning => with_range_of(declared, Prune(run)),
        }?;
        Ok(Answer {
            inner,
            outcome_game: facts.outcome_game,
            plan,
        })
    }
}

/// A solve under way: the options, and the pool for more than one thread.
struct Run<'a, 'g, G> {
    solver: Solver<'g, G>,
    pool: Option<&'a rayon::ThreadPool>,
    /// Whether the plan keeps values in a flat array by the dense index.
    dense: bool,
}

impl<G> Run<'_, '_, G> {
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
        let solved = match self.pool {
            Some(pool) => pool.install(|| {
                tiers::par_solve(game, tiers::Options::new().limits(limits).keep(keep))
            })?,
            None => tiers::solve(game, tiers::Options::new().limits(limits).keep(keep))?,
        };
        Ok(Box::new(solved))
    }

    fn undeclared(self) -> Self::Output {
        unreachable!("the plan runs the tier solver only on a game that declares tiers")
    }
}

/// Retrograde analysis, its states numbered by the dense index where the game declares one.
struct Retro<'a, 'g, G>(Run<'a, 'g, G>);

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
            Err(Error::MemoryBudget { .. }) => self.undeclared(),
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
struct Exhaustive<'a, 'g, G, D>(Run<'a, 'g, G>, bool, PhantomData<D>);

impl<'g, G, D> RangeJob<G> for Exhaustive<'_, 'g, G, D>
where
    G: Game + Sync + 'g,
    G::State: Eq + Hash + Send + Sync + 'g,
    G::Move: Send + 'g,
    D: Declares<G>,
{
    type Output = Boxed<'g, G>;

    fn run<R: RangeSource<G> + 'static>(self, range: R) -> Self::Output {
        let (run, sweep) = (self.0, self.1);
        <D::Index as IndexSlot<G>>::visit(Tables { run, range, sweep })
    }
}

/// The pruning engine with the range source the game declares.
struct Prune<'a, 'g, G>(Run<'a, 'g, G>);

impl<'g, G> RangeJob<G> for Prune<'_, 'g, G>
where
    G: Game + Sync + 'g,
    G::State: Eq + Hash + Send + Sync + 'g,
    G::Move: Send + 'g,
{
    type Output = Boxed<'g, G>;

    fn run<R: RangeSource<G> + 'static>(self, range: R) -> Self::Output {
        let Solver { game, limits, .. } = self.0.solver;
        let options = pruning::Options {
            driver: Driver::Auto,
            limits,
            range,
        };
        Ok(match self.0.pool {
            Some(pool) => {
                let table = Arc::new(ShardedBoundTable::new());
                let pruned = pool.install(|| pruning::par_solve(game, &*table, options))?;
                Box::new(pruned.with_table(Arc::clone(&table)))
            }
            None => Box::new(pruning::solve(game, HashBoundTable::new(), options)?),
        })
    }
}

/// The index slot's visit for the exhaustive engine: a flat array by the dense index where it
/// fits the budget, else a hash table; for an ordered index, when the plan says so, the sweep
/// over that array.
struct Tables<'a, 'g, G, R> {
    run: Run<'a, 'g, G>,
    range: R,
    sweep: bool,
}

impl<'g, G, R> OnIndex<G> for Tables<'_, 'g, G, R>
where
    G: Game + Sync + 'g,
    G::State: Eq + Hash + Send + Sync + 'g,
    G::Move: Send + 'g,
    R: RangeSource<G> + 'g,
{
    type Output = Boxed<'g, G>;

    fn declared(self) -> Self::Output
    where
        G: DenseIndex,
    {
        let Solver { game, limits, .. } = self.run.solver;
        let budget = limits.memory_budget;
        // Where the array for every index does not pay (it does not fit the budget, or its
        // indices are mostly not states: the plan's `dense_pays`), a hash table holds only the
        // states the search meets.
        if !self.run.dense {
            return self.undeclared();
        }
        if self.run.pool.is_some() {
            match AtomicDenseTable::try_for_game(game, budget) {
                Ok(table) => self.shared(Arc::new(table)),
                Err(Error::MemoryBudget { .. }) => self.undeclared(),
                Err(error) => Err(error),
            }
        } else {
            match DenseTable::try_for_game(game, budget) {
                Ok(table) => Ok(Box::new(exhaustive::solve(
                    game,
                    table,
                    exhaustive::Options::new().limits(limits).range(self.range),
                )?)),
                Err(Error::MemoryBudget { .. }) => self.undeclared(),
                Err(error) => Err(error),
            }
        }
    }

    fn ordered(self) -> Self::Output
    where
        G: StateAt,
    {
        if !self.sweep {
            return self.declared();
        }
        if !self.run.dense {
            return self.undeclared();
        }
        let Solver { game, limits, .. } = self.run.solver;
        match DenseTable::try_for_game(game, limits.memory_budget) {
            Ok(table) => Ok(Box::new(Swept(sweep(game, table, limits, self.range)?))),
            Err(Error::MemoryBudget { .. }) => self.undeclared(),
            Err(error) => Err(error),
        }
    }

    fn undeclared(self) -> Self::Output {
        let Solver { game, limits, .. } = self.run.solver;
        if self.run.pool.is_some() {
            self.shared(Arc::new(ShardedTable::new()))
        } else {
            Ok(Box::new(exhaustive::solve(
                game,
                HashTable::new(),
                exhaustive::Options::new().limits(limits).range(self.range),
            )?))
        }
    }
}

impl<'g, G, R> Tables<'_, 'g, G, R>
where
    G: Game + Sync + 'g,
    G::State: Eq + Hash + Send + Sync + 'g,
    G::Move: Send + 'g,
    R: RangeSource<G> + 'g,
{
    /// The parallel exhaustive engine on `table`, which the result then holds.
    fn shared<T>(self, table: Arc<T>) -> Boxed<'g, G>
    where
        T: crate::memo::ConcurrentMemoTable<G> + Send + 'g,
    {
        let Solver { game, limits, .. } = self.run.solver;
        let range = self.range;
        let solution = self.run.on_pool(|| {
            exhaustive::par_solve(
                game,
                &*table,
                exhaustive::Options::new().limits(limits).range(range),
            )
        })?;
        Ok(Box::new(solution.with_table(Arc::clone(&table))))
    }
}
