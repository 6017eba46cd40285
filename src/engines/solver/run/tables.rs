//! The exhaustive engine's tables, by the index slot's visit (a flat array by the dense index,
//! a hash table, the sweep) and the symmetry slot's (canonical states where declared).

use std::hash::Hash;
use std::marker::PhantomData;
use std::sync::Arc;

use super::Run;
use crate::engines::exhaustive::{self, sweep};
use crate::engines::kernel::RangeSource;
use crate::engines::solver::Solver;
use crate::engines::solver::solved::{Boxed, Swept};
use crate::error::SolveError;
use crate::game::{
    Declares, Game,
    declaration::{OnIndex, OnSymmetry, SymmetrySlot},
};
use crate::memo::{
    AtomicDenseTable, Canonical, ConcurrentMemoTable, DenseTable, HashTable, MemoTable,
    ShardedTable,
};
use crate::{DenseIndex, Symmetry, game::StateAt};

/// The index slot's visit for the exhaustive engine: a flat array by the dense index where it
/// fits the budget, else a hash table; for an ordered index, when the plan says so, the sweep
/// over that array.
pub(super) struct Tables<'a, 'g, G: Game, R, D> {
    pub(super) run: Run<'a, 'g, G>,
    pub(super) range: R,
    pub(super) sweep: bool,
    pub(super) declared: PhantomData<D>,
}

impl<'g, G, R, D> OnIndex<G> for Tables<'_, 'g, G, R, D>
where
    G: Game + Sync + 'g,
    G::State: Eq + Hash + Send + Sync + 'g,
    G::Move: Send + 'g,
    R: RangeSource<G> + 'g,
    D: Declares<G>,
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
                Ok(table) => self.shared(table),
                Err(SolveError::MemoryBudget { .. }) => self.undeclared(),
                Err(error) => Err(error),
            }
        } else {
            match DenseTable::try_for_game(game, budget) {
                Ok(table) => self.alone(table),
                Err(SolveError::MemoryBudget { .. }) => self.undeclared(),
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
            Err(SolveError::MemoryBudget { .. }) => self.undeclared(),
            Err(error) => Err(error),
        }
    }

    fn undeclared(self) -> Self::Output {
        if self.run.pool.is_some() {
            self.shared(ShardedTable::new())
        } else {
            self.alone(HashTable::new())
        }
    }
}

impl<'g, G, R, D> Tables<'_, 'g, G, R, D>
where
    G: Game + Sync + 'g,
    G::State: Eq + Hash + Send + Sync + 'g,
    G::Move: Send + 'g,
    R: RangeSource<G> + 'g,
    D: Declares<G>,
{
    /// The exhaustive engine on `table`, asked about canonical states where the game declares
    /// its symmetry.
    fn alone<T: MemoTable<G> + 'g>(self, table: T) -> Boxed<'g, G> {
        <D::Symmetry as SymmetrySlot<G>>::visit(Alone {
            tables: self,
            table,
        })
    }

    /// The parallel exhaustive engine on `table` (canonical, where declared).
    fn shared<T: ConcurrentMemoTable<G> + Send + 'g>(self, table: T) -> Boxed<'g, G> {
        <D::Symmetry as SymmetrySlot<G>>::visit(Shared {
            tables: self,
            table,
        })
    }

    /// The sequential exhaustive engine on `table`.
    fn solve_on<T: MemoTable<G> + 'g>(self, table: T) -> Boxed<'g, G> {
        let Solver { game, limits, .. } = self.run.solver;
        Ok(Box::new(exhaustive::solve(
            game,
            table,
            exhaustive::Options::new().limits(limits).range(self.range),
        )?))
    }

    /// The parallel exhaustive engine on `table`, which the result then holds.
    fn par_solve_on<T>(self, table: Arc<T>) -> Boxed<'g, G>
    where
        T: ConcurrentMemoTable<G> + Send + 'g,
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

/// A table for the sequential exhaustive engine, by the symmetry slot's visit.
struct Alone<'a, 'g, G: Game, R, D, T> {
    tables: Tables<'a, 'g, G, R, D>,
    table: T,
}

impl<'g, G, R, D, T> OnSymmetry<G> for Alone<'_, 'g, G, R, D, T>
where
    G: Game + Sync + 'g,
    G::State: Eq + Hash + Send + Sync + 'g,
    G::Move: Send + 'g,
    R: RangeSource<G> + 'g,
    D: Declares<G>,
    T: MemoTable<G> + 'g,
{
    type Output = Boxed<'g, G>;

    fn declared(self) -> Self::Output
    where
        G: Symmetry,
    {
        self.tables.solve_on(Canonical(self.table))
    }

    fn undeclared(self) -> Self::Output {
        self.tables.solve_on(self.table)
    }
}

/// A table for the parallel exhaustive engine, by the symmetry slot's visit.
struct Shared<'a, 'g, G: Game, R, D, T> {
    tables: Tables<'a, 'g, G, R, D>,
    table: T,
}

impl<'g, G, R, D, T> OnSymmetry<G> for Shared<'_, 'g, G, R, D, T>
where
    G: Game + Sync + 'g,
    G::State: Eq + Hash + Send + Sync + 'g,
    G::Move: Send + 'g,
    R: RangeSource<G> + 'g,
    D: Declares<G>,
    T: ConcurrentMemoTable<G> + Send + 'g,
{
    type Output = Boxed<'g, G>;

    fn declared(self) -> Self::Output
    where
        G: Symmetry,
    {
        self.tables.par_solve_on(Arc::new(Canonical(self.table)))
    }

    fn undeclared(self) -> Self::Output {
        self.tables.par_solve_on(Arc::new(self.table))
    }
}
