//! The front door and the engines.
//!
//! [`Solver`](crate::Solver) (at the crate's root) is the way in: it reads what a game
//! declares and runs one of the engines, and every engine's result answers through
//! [`Solved`](crate::Solved). Each engine is a module of its own that imports the shared core
//! (run guard, cycle detection, score arithmetic, range sources, limits, statistics, re-exported
//! here) and not another engine, and takes one `Options` value:
//!
//! - [`exhaustive`]: memoized negamax over every state the search needs, sequential and
//!   parallel, with a pluggable [memo table](crate::memo);
//! - [`pruning`]: alpha-beta with a table of bounds, for one position of a game too large to
//!   value every state (Connect Four);
//! - [`proof`]: depth-first proof-number search for one position's value in a wide game with
//!   narrow wins, with a proof that [`check_proof`](crate::check::check_proof) replays;
//! - [`retrograde`]: outcome games whose play can cycle (win, loss or draw, with remoteness);
//! - [`tiers`]: layered games too large for one table, tier by tier, on rayon or, behind the
//!   `distributed` feature, on timely dataflow;
//! - [`chance`]: games with dice or coins ([`Chance`](crate::game::Chance)): expectimax in
//!   exact fractions, and value iteration with proved bounds where play may cycle;
//! - [`nimbers`]: impartial games ([`Impartial`](crate::game::Impartial)): each independent
//!   part's nimber, and Lemoine–Viennot's search for win or loss.

pub mod chance;
pub mod exhaustive;
pub(crate) mod kernel;
pub mod nimbers;
pub mod proof;
pub mod pruning;
pub mod retrograde;
pub(crate) mod solver;
pub mod tiers;

pub(crate) use exhaustive::value_at;
pub use kernel::{AnyValue, DeclaredRange, MoveValue, OutcomeRange, Ply, RangeSource, Stats};
pub use solver::{
    Cuts, DEEP_PLIES, Further, PROOF_DECIDED, PRUNING_COST, RETROGRADE_BYTES, RETROGRADE_STATES,
    RangeJob, SWIFT_MOVES, Sample, TRIAL_STATES, Why, with_declared_range,
};
