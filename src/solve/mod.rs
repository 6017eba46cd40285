//! The front door and the engines. Every item is also at the crate root
//! (`gamesolver::Solver`, `gamesolver::solve`, …); the modules are here for their docs.
//!
//! [`front`] is the way in: [`Solver`] reads what a game declares and runs one of the engines,
//! and every engine's result answers through [`Solved`]. The engines, each in a module of its
//! own that imports the shared core (run guard, cycle detection, score arithmetic, range
//! sources, limits, statistics) and not another engine: [`exhaustive`] (memoized negamax,
//! sequential and parallel), [`pruning`] (alpha-beta with a bound table), [`outcomes`] (retrograde
//! analysis of outcome games that may cycle) and [`tiers`] (layered games, on rayon or, behind the `distributed`
//! feature, on timely dataflow).

pub mod exhaustive;
pub mod front;
pub(crate) mod kernel;
#[path = "retrograde/mod.rs"]
pub mod outcomes;
#[path = "prune/mod.rs"]
pub mod pruning;
pub mod tiers;

pub(crate) use exhaustive::value_at;
pub use exhaustive::{
    SERIAL_CUTOFF, Solution, par_solve, par_solve_with, par_solve_within, solve, solve_ranged_with,
    solve_with, solve_within,
};
pub use front::{
    Answer, Cuts, Engine, Plan, RangeJob, SWIFT_MOVES, Solved, Solver, with_declared_range,
};
pub use kernel::{
    AnyValue, DeclaredRange, Limits, MoveValue, OutcomeRange, Ply, Progress, RangeSource, Stats,
};
pub use outcomes::{
    DenseIds, HashIds, Indexed, MAX_RETROGRADE_STATES, Outcome, Predecessors, RetroStats,
    Retrograde, StateAt, StateIds, par_retrograde, par_retrograde_indexed, par_retrograde_with,
    par_retrograde_with_predecessors, retrograde, retrograde_indexed, retrograde_with,
    retrograde_with_predecessors,
};
pub use pruning::{Driver, Pruned, Pruner, Pruning, par_prune, par_prune_with, prune, prune_with};
#[cfg(feature = "distributed")]
pub use tiers::distributed::{
    Config as DistributedConfig, Distributed, WorkerStats, distributed_tier_solve,
};
pub use tiers::{
    KeepTiers, TierSolution, TierStats, par_tier_solve, par_tier_solve_with, tier_solve,
    tier_solve_bytes, tier_solve_with,
};
