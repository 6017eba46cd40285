//! The `gamesolver` command line: parse, read the values, solve, print.

pub mod args;
pub mod report;
pub mod run;
