//! The `gamesolver` command line: parse, read the values, solve (or check), print.

pub mod args;
pub mod present;
pub mod report;
pub mod run;
