//! The bundled games' rules (games/, without their command-line parts), compiled as a crate of
//! their own against gamesolver's public API: every name gamesolver makes public is in scope
//! here as it is at gamesolver's root, and nothing else, so a game's rules that reached a
//! private item of the library would not compile. `.ci/run` builds it.

pub use gamesolver::*;

#[path = "../mod.rs"]
pub mod games;
