//! 0.1's entry points at the crate's root, kept so that code written for 0.1 still builds:
//! each is a thin wrapper, marked `#[deprecated]` with a note naming its replacement. The way
//! in is [`Solver`](crate::Solver), which picks the engine and table for what a game declares;
//! the engines' own functions, for a caller who picks them, are in [`engines`](crate::engines)
//! (CHANGELOG.md says why).

use std::hash::Hash;

use crate::engines::outcomes::{Indexed, Retrograde, StateIds};
use crate::engines::pruning::{Pruned, Pruning};
use crate::engines::tiers::{KeepTiers, TierSolution};
use crate::engines::{DeclaredRange, Limits, RangeSource, Solution};
use crate::error::Error;
use crate::game::{Game, Predecessors, StateAt, Tiered};
use crate::memo::{BoundTable, ConcurrentBoundTable, ConcurrentMemoTable, MemoTable};

/// 0.1's `solve`: [`engines::exhaustive::solve`](crate::engines::exhaustive::solve).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).solve()`, or `gamesolver::engines::exhaustive::solve` to run this engine yourself"
)]
pub fn solve<G, T>(game: &G, table: T) -> Result<Solution<'_, G, T>, Error>
where
    G: Game,
    T: MemoTable<G>,
{
    crate::engines::exhaustive::solve(game, table)
}

/// 0.1's `solve_with`: [`engines::exhaustive::solve_with`](crate::engines::exhaustive::solve_with).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).limits(limits).solve()`, or `gamesolver::engines::exhaustive::solve_with` to run this engine yourself"
)]
pub fn solve_with<G, T>(game: &G, table: T, limits: Limits) -> Result<Solution<'_, G, T>, Error>
where
    G: Game,
    T: MemoTable<G>,
{
    crate::engines::exhaustive::solve_with(game, table, limits)
}

/// 0.1's `solve_ranged_with`: [`engines::exhaustive::solve_ranged_with`](crate::engines::exhaustive::solve_ranged_with).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).solve() (it cuts on a declared ValueRange)`, or `gamesolver::engines::exhaustive::solve_ranged_with` to run this engine yourself"
)]
pub fn solve_ranged_with<G, T>(
    game: &G,
    table: T,
    limits: Limits,
) -> Result<Solution<'_, G, T, DeclaredRange>, Error>
where
    G: crate::ValueRange,
    T: MemoTable<G>,
{
    crate::engines::exhaustive::solve_ranged_with(game, table, limits)
}

/// 0.1's `solve_within`: [`engines::exhaustive::solve_within`](crate::engines::exhaustive::solve_within).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).solve()`, or `gamesolver::engines::exhaustive::solve_within` to run this engine yourself"
)]
pub fn solve_within<G, T, R>(
    game: &G,
    table: T,
    limits: Limits,
    range: R,
) -> Result<Solution<'_, G, T, R>, Error>
where
    G: Game,
    T: MemoTable<G>,
    R: RangeSource<G>,
{
    crate::engines::exhaustive::solve_within(game, table, limits, range)
}

/// 0.1's `par_solve`: [`engines::exhaustive::par_solve`](crate::engines::exhaustive::par_solve).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).threads(0).solve()`, or `gamesolver::engines::exhaustive::par_solve` to run this engine yourself"
)]
pub fn par_solve<'g, 't, G, T>(game: &'g G, table: &'t T) -> Result<Solution<'g, G, &'t T>, Error>
where
    G: Game + Sync,
    G::State: Sync,
    T: ConcurrentMemoTable<G>,
{
    crate::engines::exhaustive::par_solve(game, table)
}

/// 0.1's `par_solve_with`: [`engines::exhaustive::par_solve_with`](crate::engines::exhaustive::par_solve_with).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).threads(0).limits(limits).solve()`, or `gamesolver::engines::exhaustive::par_solve_with` to run this engine yourself"
)]
pub fn par_solve_with<'g, 't, G, T>(
    game: &'g G,
    table: &'t T,
    limits: Limits,
) -> Result<Solution<'g, G, &'t T>, Error>
where
    G: Game + Sync,
    G::State: Sync,
    T: ConcurrentMemoTable<G>,
{
    crate::engines::exhaustive::par_solve_with(game, table, limits)
}

/// 0.1's `par_solve_within`: [`engines::exhaustive::par_solve_within`](crate::engines::exhaustive::par_solve_within).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).threads(0).solve()`, or `gamesolver::engines::exhaustive::par_solve_within` to run this engine yourself"
)]
pub fn par_solve_within<'g, 't, G, T, R>(
    game: &'g G,
    table: &'t T,
    limits: Limits,
    range: R,
) -> Result<Solution<'g, G, &'t T, R>, Error>
where
    G: Game + Sync,
    G::State: Sync,
    T: ConcurrentMemoTable<G>,
    R: RangeSource<G>,
{
    crate::engines::exhaustive::par_solve_within(game, table, limits, range)
}

/// 0.1's `prune`: [`engines::pruning::prune`](crate::engines::pruning::prune).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).engine(Engine::Pruning).solve()`, or `gamesolver::engines::pruning::prune` to run this engine yourself"
)]
pub fn prune<G, T>(game: &G, table: T) -> Result<Pruned<'_, G, T>, Error>
where
    G: Game,
    T: BoundTable<G>,
{
    crate::engines::pruning::prune(game, table)
}

/// 0.1's `prune_with`: [`engines::pruning::prune_with`](crate::engines::pruning::prune_with).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).engine(Engine::Pruning).solve()`, or `gamesolver::engines::pruning::prune_with` to run this engine yourself"
)]
pub fn prune_with<G, T, R>(
    game: &G,
    table: T,
    options: Pruning<R>,
) -> Result<Pruned<'_, G, T, R>, Error>
where
    G: Game,
    T: BoundTable<G>,
    R: RangeSource<G>,
{
    crate::engines::pruning::prune_with(game, table, options)
}

/// 0.1's `par_prune`: [`engines::pruning::par_prune`](crate::engines::pruning::par_prune).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).engine(Engine::Pruning).threads(0).solve()`, or `gamesolver::engines::pruning::par_prune` to run this engine yourself"
)]
pub fn par_prune<'g, 't, G, T>(game: &'g G, table: &'t T) -> Result<Pruned<'g, G, &'t T>, Error>
where
    G: Game + Sync,
    G::State: Hash + Send + Sync,
    T: ConcurrentBoundTable<G>,
{
    crate::engines::pruning::par_prune(game, table)
}

/// 0.1's `par_prune_with`: [`engines::pruning::par_prune_with`](crate::engines::pruning::par_prune_with).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).engine(Engine::Pruning).threads(0).solve()`, or `gamesolver::engines::pruning::par_prune_with` to run this engine yourself"
)]
pub fn par_prune_with<'g, 't, G, T, R>(
    game: &'g G,
    table: &'t T,
    options: Pruning<R>,
) -> Result<Pruned<'g, G, &'t T, R>, Error>
where
    G: Game + Sync,
    G::State: Hash + Send + Sync,
    T: ConcurrentBoundTable<G>,
    R: RangeSource<G>,
{
    crate::engines::pruning::par_prune_with(game, table, options)
}

/// 0.1's `retrograde`: [`engines::outcomes::retrograde`](crate::engines::outcomes::retrograde).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).engine(Engine::Retrograde).solve() (the engine for a game that declares may_cycle)`, or `gamesolver::engines::outcomes::retrograde` to run this engine yourself"
)]
pub fn retrograde<G>(game: &G, limits: Limits) -> Result<Retrograde<'_, G>, Error>
where
    G: Game,
    G::State: Eq + Hash,
{
    crate::engines::outcomes::retrograde(game, limits)
}

/// 0.1's `retrograde_with`: [`engines::outcomes::retrograde_with`](crate::engines::outcomes::retrograde_with).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).engine(Engine::Retrograde).solve() (the engine for a game that declares may_cycle)`, or `gamesolver::engines::outcomes::retrograde_with` to run this engine yourself"
)]
pub fn retrograde_with<G, I>(
    game: &G,
    ids: I,
    limits: Limits,
) -> Result<Retrograde<'_, G, I>, Error>
where
    G: Game,
    I: StateIds<G>,
{
    crate::engines::outcomes::retrograde_with(game, ids, limits)
}

/// 0.1's `retrograde_indexed`: [`engines::outcomes::retrograde_indexed`](crate::engines::outcomes::retrograde_indexed).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).engine(Engine::Retrograde).solve() (the engine for a game that declares may_cycle)`, or `gamesolver::engines::outcomes::retrograde_indexed` to run this engine yourself"
)]
pub fn retrograde_indexed<G>(game: &G, limits: Limits) -> Result<Retrograde<'_, G, Indexed>, Error>
where
    G: StateAt + Predecessors,
{
    crate::engines::outcomes::retrograde_indexed(game, limits)
}

/// 0.1's `retrograde_with_predecessors`: [`engines::outcomes::retrograde_with_predecessors`](crate::engines::outcomes::retrograde_with_predecessors).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).engine(Engine::Retrograde).solve() (the engine for a game that declares may_cycle)`, or `gamesolver::engines::outcomes::retrograde_with_predecessors` to run this engine yourself"
)]
pub fn retrograde_with_predecessors<G, I>(
    game: &G,
    ids: I,
    limits: Limits,
) -> Result<Retrograde<'_, G, I>, Error>
where
    G: Predecessors,
    I: StateIds<G>,
{
    crate::engines::outcomes::retrograde_with_predecessors(game, ids, limits)
}

/// 0.1's `par_retrograde`: [`engines::outcomes::par_retrograde`](crate::engines::outcomes::par_retrograde).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).engine(Engine::Retrograde).solve() (the engine for a game that declares may_cycle)`, or `gamesolver::engines::outcomes::par_retrograde` to run this engine yourself"
)]
pub fn par_retrograde<G>(game: &G, limits: Limits) -> Result<Retrograde<'_, G>, Error>
where
    G: Game + Sync,
    G::State: Eq + Hash + Send + Sync,
{
    crate::engines::outcomes::par_retrograde(game, limits)
}

/// 0.1's `par_retrograde_with`: [`engines::outcomes::par_retrograde_with`](crate::engines::outcomes::par_retrograde_with).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).engine(Engine::Retrograde).solve() (the engine for a game that declares may_cycle)`, or `gamesolver::engines::outcomes::par_retrograde_with` to run this engine yourself"
)]
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
    crate::engines::outcomes::par_retrograde_with(game, ids, limits)
}

/// 0.1's `par_retrograde_indexed`: [`engines::outcomes::par_retrograde_indexed`](crate::engines::outcomes::par_retrograde_indexed).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).engine(Engine::Retrograde).solve() (the engine for a game that declares may_cycle)`, or `gamesolver::engines::outcomes::par_retrograde_indexed` to run this engine yourself"
)]
pub fn par_retrograde_indexed<G>(
    game: &G,
    limits: Limits,
) -> Result<Retrograde<'_, G, Indexed>, Error>
where
    G: StateAt + Predecessors + Sync,
    G::State: Send + Sync,
{
    crate::engines::outcomes::par_retrograde_indexed(game, limits)
}

/// 0.1's `par_retrograde_with_predecessors`: [`engines::outcomes::par_retrograde_with_predecessors`](crate::engines::outcomes::par_retrograde_with_predecessors).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).engine(Engine::Retrograde).solve() (the engine for a game that declares may_cycle)`, or `gamesolver::engines::outcomes::par_retrograde_with_predecessors` to run this engine yourself"
)]
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
    crate::engines::outcomes::par_retrograde_with_predecessors(game, ids, limits)
}

/// 0.1's `tier_solve`: [`engines::tiers::tier_solve`](crate::engines::tiers::tier_solve).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).solve()` (the engine for a game that declares tiers), or `gamesolver::engines::tiers::tier_solve` to run this engine yourself"
)]
pub fn tier_solve<G: Tiered>(game: &G) -> Result<TierSolution<'_, G>, Error> {
    crate::engines::tiers::tier_solve(game)
}

/// 0.1's `tier_solve_with`: [`engines::tiers::tier_solve_with`](crate::engines::tiers::tier_solve_with).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).limits(limits).solve()` (`.keep_every_tier()` for KeepTiers::All), or `gamesolver::engines::tiers::tier_solve_with` to run this engine yourself"
)]
pub fn tier_solve_with<G: Tiered>(
    game: &G,
    limits: Limits,
    keep: KeepTiers,
) -> Result<TierSolution<'_, G>, Error> {
    crate::engines::tiers::tier_solve_with(game, limits, keep)
}

/// 0.1's `par_tier_solve`: [`engines::tiers::par_tier_solve`](crate::engines::tiers::par_tier_solve).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).threads(0).solve()`, or `gamesolver::engines::tiers::par_tier_solve` to run this engine yourself"
)]
pub fn par_tier_solve<G>(game: &G) -> Result<TierSolution<'_, G>, Error>
where
    G: Tiered + Sync,
{
    crate::engines::tiers::par_tier_solve(game)
}

/// 0.1's `par_tier_solve_with`: [`engines::tiers::par_tier_solve_with`](crate::engines::tiers::par_tier_solve_with).
#[deprecated(
    since = "0.2.0",
    note = "use `Solver::new(&game).threads(0).limits(limits).solve()`, or `gamesolver::engines::tiers::par_tier_solve_with` to run this engine yourself"
)]
pub fn par_tier_solve_with<G>(
    game: &G,
    limits: Limits,
    keep: KeepTiers,
) -> Result<TierSolution<'_, G>, Error>
where
    G: Tiered + Sync,
{
    crate::engines::tiers::par_tier_solve_with(game, limits, keep)
}
