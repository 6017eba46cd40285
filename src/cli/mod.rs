//! The `gamesolver` command line, in layers; a module imports only modules of the layers below
//! its own (docs/architecture.md says how this is checked):
//!
//! 1. `model`: names, answers, entries, reports, analyses, failures (imports nothing of `cli`);
//! 2. `args` (the command line's grammar) and `report`, `progress` (output);
//! 3. `registry`: what a bundled game is to the command line, and what a command asks of one;
//! 4. `present`, `budget`, `options`: a game's presentation, the memory budget and threads,
//!    which options apply;
//! 5. the commands: `saved`, `solve` (and `engines`, `forecast`, `cluster`), `check`,
//!    `analyze`, `play`;
//! 6. `dispatch`: a registry task done with a game, by the commands;
//! 7. `games`: one file per bundled game, and their list, which `main` installs in the
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
