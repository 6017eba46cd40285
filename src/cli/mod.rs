//! The command line (feature `cli`, on by default): what the `gamesolver` binary runs, and
//! what runs a user's own game with everything the bundled games have (solve, `check`,
//! `analyze`, `play`, `--json`, `--save`/`--load`, progress, the memory budget and time
//! limit).
//!
//! A user's binary implements [`Presented`] (how moves and states read: two required
//! methods, the rest have defaults) and [`FromValues`] (how the game is built from the
//! integers typed after its name), names it in a [`Bundled`] entry, and hands its list to
//! [`main_with`]. A game that declares a [`DenseIndex`](crate::DenseIndex) is solved on flat
//! arrays and can be saved and loaded; one that does not is solved on hash tables, through
//! [`Solver`](crate::Solver).
//!
//! ```no_run
//! # use gamesolver::{Capabilities, Declares, DenseIndex, Game, InputError, Score, Step, Turn};
//! use gamesolver::cli::{Bundled, FromValues, Presented};
//! # #[derive(Debug)] struct Countdown { counters: u32 }
//! # impl Game for Countdown {
//! #     type State = u32; type Move = u32;
//! #     fn start(&self) -> u32 { self.counters }
//! #     fn moves(&self, left: &u32) -> impl Iterator<Item = u32> { (1..=3).filter(move |t| t <= left) }
//! #     fn play(&self, left: &u32, take: &u32) -> Step<u32> {
//! #         Step { next: left - take, gain: Score::from(*take), turn: Turn::Pass } }
//! #     fn payoff(&self, _: &u32) -> Score { 0 }
//! #     fn capabilities(&self) -> impl Declares<Self> { Capabilities::none().dense_index() }
//! # }
//! # impl DenseIndex for Countdown {
//! #     fn index_len(&self) -> usize { self.counters as usize + 1 }
//! #     fn index(&self, left: &u32) -> usize { *left as usize }
//! # }
//!
//! impl Presented for Countdown {
//!     fn show(&self, left: &u32) -> String {
//!         format!("{left} counters left")
//!     }
//!     fn move_name(&self, _left: &u32, take: &u32) -> String {
//!         take.to_string()
//!     }
//! }
//!
//! impl FromValues for Countdown {
//!     const EXAMPLE: &'static str = "20";
//!     fn from_values(values: &[i64]) -> Result<Self, InputError> {
//!         match *values {
//!             [counters @ 0..=1_000_000] => Ok(Countdown { counters: counters as u32 }),
//!             _ => Err(InputError::InvalidGame("give one number of counters, 0 to 10^6".into())),
//!         }
//!     }
//! }
//!
//! const COUNTDOWN: Bundled = Bundled::game::<Countdown>("countdown", "Take 1 to 3 counters");
//!
//! fn main() -> std::process::ExitCode {
//!     // `mytool countdown 20`, `mytool analyze countdown 20 --at 7`, `mytool play countdown 20`…
//!     gamesolver::cli::main_with(&[&COUNTDOWN])
//! }
//! ```
//!
//! examples/user_tool.rs is a whole one with four games, tested through its binary.
//!
//! A bundled game's command-line part (its file of `games/`) uses nothing a user's tool
//! cannot: `games/api` compiles every game against this crate's public items alone, in CI.
//! Beyond the names above, the doors it may take are these public modules (each item in them
//! is there because a game uses it):
//!
//! - [`model`]: what a command gives ([`Report`](model::Report), [`Moves`](model::Moves)
//!   with [`Valued`](model::Valued) moves, [`CheckSummary`](model::CheckSummary)) and how it
//!   fails ([`Failure`](model::Failure));
//! - [`present`]: [`Presented`] and the words and pictures the games share
//!   ([`winner`](present::winner), [`integers`](present::integers), [`row`](present::row)…);
//! - [`registry`]: how a game is solved ([`Solves`](registry::Solves)): by the engines from its
//!   VALUES ([`Engine`](registry::Engine), with its own specialised or tier solver), or by its
//!   own path ([`Own`](registry::Own): a game that reads its own arguments, such as Connect
//!   Four's columns and board options, and solves, checks, analyzes and plays by its own code);
//!   [`Bundled::new`] takes either, [`Bundled::game`] builds the common case;
//! - [`args`]: the command line as parsed ([`Cli`](args::Cli)), which a game's own solver and
//!   own path receive;
//! - [`budget`], [`engines`], [`solve`], [`play`]: what an own path runs with the same limits,
//!   reports and conversation as the engines' path (the memory budget and thread pools, an
//!   engine's solution made a report, the tier solvers' reports, `play` against an oracle).
//!
//! Inside, the command line is in layers; a module imports only modules of the layers below
//! its own (tests/layers.rs checks that no import circle forms; docs/architecture.md says how):
//!
//! 1. `model` (names, answers, entries, reports, analyses, failures) and `progress`: they
//!    import nothing of `cli`;
//! 2. `args` (the command line's grammar) and `report` (words or JSON);
//! 3. `registry`: what a game is to the command line, and what a command asks of one;
//! 4. `options` (which options apply) and `present` (a game's presentation);
//! 5. `budget`: the memory budget, the threads, reading the values;
//! 6. the engines as the command line runs them: `engines`, `forecast`, `cluster`;
//! 7. the commands: `saved`, then `solve`, then `check`, `analyze`, `play`;
//! 8. `dispatch`: a registry task done with a game, by the commands;
//! 9. `tool`: a user's game (and a bundled one: each is a file of `games/`, with its list,
//!    [`games::BUNDLED`](crate::games::BUNDLED), which imports `cli` and is imported by none
//!    of it);
//! 10. `entry`: [`main_with`], which installs a list of games in the registry and runs the
//!     command the arguments name.

pub(crate) mod analyze;
pub mod args;
pub mod budget;
pub(crate) mod chance;
pub(crate) mod check;
pub(crate) mod choice;
#[cfg(feature = "distributed")]
pub(crate) mod cluster;
pub(crate) mod dispatch;
pub(crate) mod embed;
pub mod engines;
pub(crate) mod entry;
pub(crate) mod forecast;
pub(crate) mod journal;
#[cfg(feature = "distributed")]
pub(crate) mod loopy_cluster;
pub mod model;
pub(crate) mod options;
pub mod play;
pub mod present;
pub(crate) mod progress;
pub mod registry;
pub(crate) mod report;
pub(crate) mod saved;
#[cfg(feature = "serve")]
pub(crate) mod serve;
pub mod solve;
pub(crate) mod tier_file;
pub(crate) mod tool;
pub(crate) mod valuation;

pub use embed::{Refusal, run_json, run_progress};
pub use entry::main_with;
pub use model::{Answer, Entry, Fields, Line};
pub use present::{Presented, Work};
pub use registry::Bundled;
/// The JSON crate of [`Presented::view`], for a game's picture without a dependency of its own.
pub use serde_json;
#[cfg(feature = "serve")]
pub use serve::answer_request;
pub use tool::FromValues;
