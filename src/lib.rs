//! # gamesolver
//!
//! Exact solutions of two-player, perfect-information, zero-sum games.
//!
//! ```
//! use gamesolver::{Solved, Solver, games::StoneGameII};
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
//! The [engines], each also callable by hand with a table of your choice and one options
//! value:
//!
//! - [`exhaustive`](engines::exhaustive): exact memoized negamax on an explicit stack over any
//!   game, with a pluggable [memo table](memo) (and, for an ordered dense index, the sweep: the
//!   array DP);
//! - [`pruning`](engines::pruning): alpha-beta with a table of bounds that stays within the
//!   budget, for one position of a game too large to value every state (Connect Four, Kalah,
//!   Domineering);
//! - [`retrograde`](engines::retrograde): outcome games whose play can cycle (win, loss or
//!   draw, with remoteness);
//! - [`tiers`](engines::tiers): layered games too large for one table, tier by tier, and
//!   [`tiers::loopy`](engines::tiers::loopy) for layered games that cycle within a tier
//!   (Quixo, the mills), on rayon or across processes on timely dataflow;
//! - [`chance`](engines::chance): games with dice, by expectimax in exact fractions or by value
//!   iteration with a proved bound where play can cycle (Pig);
//! - [`nimbers`](engines::nimbers): impartial games by their parts' nimbers (Kayles, Cram).
//!
//! How [`Solver`] picks ([`Solver::plan`], [`Plan::reason`] says why): what the game declares
//! decides where it can (tiers, chance, cycles, an impartial game, an ordered index, a compact
//! key, a small outcome game for retrograde analysis, a dense index whose slots are mostly
//! states); where it leaves the exhaustive and the pruning engine, a sample of the game decides:
//! an outcome game whose random playouts meet states it decides itself ([`Game::decided`])
//! goes to proof search, the one engine that stops there; otherwise both engines are raced on
//! the whole game, up to 2¹⁷ states each (a game one of them
//! solves there is answered by it), then random playouts and positions near their ends solved by
//! both, further and further back, and the engine that did less work there runs
//! ([`engines::Sample`]). The command line's `--solver auto` is that plan, and `--explain`
//! prints it without solving.
//!
//! The [`game`] module holds the whole contract a game implements (the optional capability
//! traits, and the [types](game::declaration) through which code generic over games reads a
//! declaration); the [`check`] module verifies an implementation against it.
//!
//! The twenty-two bundled [games] are ordinary implementations of the same trait: LeetCode's
//! Stone Games (877, 1140, 1406, 1690, 1872; Stone Game II and VIII also with specialised exact
//! solvers), Cat and Mouse (913, 1728), Nim, Kayles, Dawson's Kayles, Grundy's game, Cram,
//! Tic-tac-toe, Connect Four, Hex, k in a row (m,n,k-games), Dots and Boxes, Quixo, Six Men's
//! Morris, Pig, Piglet and a backgammon bear-off.

#![deny(missing_docs)]
// docs.rs (Cargo.toml: `--cfg docsrs`, nightly) labels each feature-gated item with its feature.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod check;
#[cfg(feature = "cli")]
pub mod cli;
pub mod engines;
pub mod error;
pub mod game;
pub mod input;
pub mod memo;

#[path = "../games/mod.rs"]
pub mod games;

pub use engines::kernel::{Limits, Progress};
pub use engines::solver::{Answer, Engine, Plan, Solved, Solver};
pub use error::{Error, InputError, SolveError};
pub use game::{
    Capabilities, CompactKey, Declares, DenseIndex, Game, Player, Score, Step, Symmetry, Tiered,
    Turn, ValueRange,
};

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The guide's examples that stand alone (`rust`, not `rust,ignore`: those are excerpts of
/// examples/countdown.rs and examples/user_tool.rs, which are compiled and tested as they are).
#[cfg(doctest)]
#[doc = include_str!("../docs/adding-a-game.md")]
pub struct GuideDoctests;
