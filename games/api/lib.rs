//! The bundled games (games/), compiled as a crate of their own against gamesolver's public
//! API: every name gamesolver makes public is in scope here as it is at gamesolver's root, and
//! nothing else, so a game that reached a private item of the library would not compile.
//! `.ci/run` builds it twice: the rules alone, and with the `cli` feature their command-line
//! parts and tests too, which reach only `gamesolver::cli`'s public items.

pub use gamesolver::*;

#[path = "../mod.rs"]
pub mod games;
