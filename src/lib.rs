//! # gamesolver
//!
//! Exact solutions of two-player, perfect-information, zero-sum games.
//!
//! ```
//! use gamesolver::{Solver, games::StoneGameII};
//!
//! let game = StoneGameII::new(vec![2, 7, 9, 4, 4])?;
//! let mut solved = Solver::new(&game).solve()?;
//! assert_eq!(game.alice_stones(solved.value()), 10);
//! assert_eq!(solved.line()?.len(), 3); // Alice 1 pile, Bob 2, Alice 2
//! # Ok::<(), gamesolver::Error>(())
//! ```
//!
//! A game is a value that implements [`Game`]: its states, its moves, the [`Step`] a move
//! produces (next state, points the mover gains, whether the [`Turn`] passes or the mover
//! moves again) and the payoff of a final state. Values are from the side to move:
//! `my points − opponent's points`. A game declares what else it knows in
//! [`Game::capabilities`] (a [`ValueRange`], a [`DenseIndex`], [`Tiered`] layering, that it is
//! an outcome game, that its play may cycle), and [`Solver`] reads that declaration and runs
//! the engine and table that suit it: `Solver::new(&game).solve()?`, with builder methods for
//! threads, memory and time limits and progress. Every engine's result answers through one
//! trait, [`Solved`]: the value, every state's value, every move's value, the best moves, the
//! optimal line, statistics, and outcome and remoteness for an outcome game.
//!
//! The engines, each also callable by hand with a table of your choice:
//!
//! - [`solve`] / [`par_solve`]: exact memoized negamax on an explicit stack over any game,
//!   with a pluggable [memo table](memo) (the [`Solution`] answers every question);
//! - [`prune`] / [`par_prune`]: alpha-beta with a table of bounds, for one position of a game
//!   too large to value every state (Connect Four);
//! - [`retrograde`]: outcome games whose play can cycle (win, loss or draw, with remoteness);
//! - [`tier_solve`]: layered games too large for one table, tier by tier.
//!
//! The bundled [games] are ordinary implementations of the same trait: LeetCode's Stone Games
//! (877, 1140, 1406, 1690, 1872; Stone Game II and VIII also with specialised exact solvers),
//! Nim, Tic-tac-toe, Dots and Boxes, Connect Four, and Cat and Mouse (913, 1728).

#![deny(missing_docs)]
// The examples in the docs use no deprecated entry point.
#![doc(test(attr(deny(deprecated))))]

pub mod check;
#[cfg(feature = "cli")]
pub mod cli;
mod deprecated;
#[path = "solve/mod.rs"]
pub mod engines;
pub mod error;
mod game;
pub mod input;
mod keys;
pub mod memo;
mod step;

#[path = "../games/mod.rs"]
pub mod games;

pub use engines::{
    Answer, AnyValue, Cuts, DeclaredRange, DenseIds, Driver, Engine, HashIds, Indexed, KeepTiers,
    Limits, MAX_RETROGRADE_STATES, MoveValue, Outcome, OutcomeRange, Plan, Ply, Predecessors,
    Progress, Pruned, Pruner, Pruning, RangeJob, RangeSource, RetroStats, Retrograde,
    SERIAL_CUTOFF, SWIFT_MOVES, Solution, Solved, Solver, StateAt, StateIds, Stats, TierSolution,
    TierStats, tier_solve_bytes, with_declared_range,
};
// 0.1's free functions, deprecated: `Solver`, or the same functions in `engines`.
#[allow(deprecated)]
pub use deprecated::*;
pub use error::Error;
pub use game::{
    Capabilities, Declared, Declares, DenseIndex, Game, IndexSlot, OnIndex, OnRange, OnTiers,
    Ordered, Player, RangeSlot, Score, Step, Subsets, TierSlot, Tiered, Turn, Undeclared,
    ValueRange,
};
pub use keys::{CompactKey, Symmetry};

#[cfg(feature = "distributed")]
pub use engines::{Distributed, DistributedConfig, WorkerStats, distributed_tier_solve};

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
