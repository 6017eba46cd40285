//! The engines and what they share.
//!
//! `kernel` is the core every engine uses (run guard, cycle detection, score arithmetic, range
//! sources, limits, statistics); each engine has a folder of its own and imports the kernel,
//! not another engine: `exhaustive` (memoized negamax, sequential and parallel), `prune`
//! (alpha-beta with a bound table), `retrograde` (outcome games that may cycle) and `tiers`
//! (layered games, on rayon or, behind the `distributed` feature, on timely dataflow).

mod exhaustive;
mod front;
pub(crate) mod kernel;
mod prune;
mod retrograde;
mod tiers;

pub(crate) use exhaustive::value_at;
pub use exhaustive::{
    SERIAL_CUTOFF, Solution, par_solve, par_solve_with, par_solve_within, solve, solve_ranged_with,
    solve_with, solve_within,
};
pub use front::{Answer, Cuts, Engine, Plan, Solved, Solver};
pub use kernel::{
    AnyValue, DeclaredRange, Limits, MoveValue, OutcomeRange, Ply, Progress, RangeSource, Stats,
};
pub use prune::{Driver, Pruned, Pruner, Pruning, par_prune, par_prune_with, prune, prune_with};
pub use retrograde::{
    DenseIds, HashIds, Indexed, MAX_RETROGRADE_STATES, Outcome, Predecessors, RetroStats,
    Retrograde, StateAt, StateIds, par_retrograde, par_retrograde_indexed, par_retrograde_with,
    par_retrograde_with_predecessors, retrograde, retrograde_indexed, retrograde_with,
    retrograde_with_predecessors,
};
#[cfg(feature = "distributed")]
pub use tiers::distributed::{
    Config as DistributedConfig, Distributed, WorkerStats, distributed_tier_solve,
};
pub use tiers::{
    KeepTiers, TierSolution, TierStats, par_tier_solve, par_tier_solve_with, tier_solve,
    tier_solve_bytes, tier_solve_with,
};
