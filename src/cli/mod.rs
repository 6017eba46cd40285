//! The `gamesolver` command line, in layers; a module imports only modules of the layers below
//! its own (tests/layers.rs checks that no import circle forms; docs/architecture.md says how):
//!
//! 1. `model` (names, answers, entries, reports, analyses, failures) and `progress`: they
//!    import nothing of `cli`;
//! 2. `args` (the command line's grammar) and `report` (words or JSON);
//! 3. `registry`: what a bundled game is to the command line, and what a command asks of one;
//! 4. `options` (which options apply) and `present` (a game's presentation);
//! 5. `budget`: the memory budget, the threads, reading the values;
//! 6. the engines as the command line runs them: `engines`, `forecast`, `cluster`;
//! 7. the commands: `saved`, then `solve`, then `check`, `analyze`, `play`;
//! 8. `dispatch`: a registry task done with a game, by the commands;
//! 9. `games`: one file per bundled game, and their list, which `main` installs in the
//!    registry.

pub mod analyze;
pub mod args;
pub mod budget;
pub mod check;
#[cfg(feature = "distributed")]
pub mod cluster;
pub mod dispatch;
pub mod engines;
pub mod forecast;
pub mod games;
pub mod model;
pub mod options;
pub mod play;
pub mod present;
pub mod progress;
pub mod registry;
pub mod report;
pub mod saved;
pub mod solve;
