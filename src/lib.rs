//! # gamesolver
//!
//! Exact solutions of two-player, perfect-information, zero-sum games.
//!
//! A game is a value that implements [`Game`]: its states, its moves, the [`Step`] a move
//! produces (next state, points the mover gains, whether the [`Turn`] passes or the mover
//! moves again) and the payoff of a final state. Values are from the side to move:
//! `my points − opponent's points`. [`solve`] runs an exact memoized negamax on an explicit
//! stack over any such game, with a pluggable [memo table](memo); the [`Solution`] gives the
//! value, the best moves, the optimal line and statistics.
//!
//! The bundled [games] are ordinary implementations of the same trait: LeetCode's Stone Games
//! (877, 1140, 1406, 1690, 1872; Stone Game II and VIII also with specialised exact solvers),
//! Nim, Tic-tac-toe, Dots and Boxes, Connect Four, and Cat and Mouse (913, 1728). Games with a
//! declared value range can be solved by the pruning engine ([`prune`]) as well; games whose
//! play can cycle, by [`retrograde`] analysis (win, loss or draw, with remoteness).
//!
//! ```
//! use gamesolver::{solve, memo::DenseTable, games::StoneGameII};
//!
//! let game = StoneGameII::new(vec![2, 7, 9, 4, 4])?;
//! let mut solution = solve(&game, DenseTable::for_game(&game))?;
//! assert_eq!(game.alice_stones(solution.value()), 10);
//! assert_eq!(solution.line()?.len(), 3); // Alice 1 pile, Bob 2, Alice 2
//! # Ok::<(), gamesolver::Error>(())
//! ```

#![deny(missing_docs)]

pub mod check;
pub mod error;
mod game;
pub mod input;
pub mod memo;
mod solve;

#[path = "../games/mod.rs"]
pub mod games;

pub use error::Error;
pub use game::{
    Capabilities, CompactKey, Declared, Declares, DenseIndex, Game, IndexSlot, OnIndex, OnRange,
    OnTiers, Player, RangeSlot, Score, Step, Symmetry, TierSlot, Tiered, Turn, Undeclared,
    ValueRange,
};
pub use solve::{
    Answer, AnyValue, Cuts, DeclaredRange, DenseIds, Driver, Engine, HashIds, Indexed, KeepTiers,
    Limits, MAX_RETROGRADE_STATES, MoveValue, Outcome, OutcomeRange, Plan, Ply, Predecessors,
    Progress, Pruned, Pruner, Pruning, RangeSource, RetroStats, Retrograde, SERIAL_CUTOFF,
    Solution, Solved, Solver, StateAt, StateIds, Stats, TierSolution, TierStats, par_prune,
    par_prune_with, par_retrograde, par_retrograde_indexed, par_retrograde_with,
    par_retrograde_with_predecessors, par_solve, par_solve_with, par_solve_within, par_tier_solve,
    par_tier_solve_with, prune, prune_with, retrograde, retrograde_indexed, retrograde_with,
    retrograde_with_predecessors, solve, solve_ranged_with, solve_with, solve_within, tier_solve,
    tier_solve_with,
};

#[cfg(feature = "distributed")]
pub use solve::{Distributed, DistributedConfig, WorkerStats, distributed_tier_solve};

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
