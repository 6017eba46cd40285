//! The `gamesolver` command line: parse, read the values, solve (or check), print.

pub mod analyze;
pub mod args;
#[cfg(feature = "distributed")]
pub mod cluster;
pub mod games;
pub mod play;
pub mod present;
pub mod progress;
pub mod report;
pub mod run;
pub mod saved;
