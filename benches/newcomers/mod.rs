//! Games written from docs/adding-a-game.md alone, as a newcomer writes and declares them, not
//! tuned to the engines: the suite that holds the front door ([`Solver`](gamesolver::Solver),
//! `--solver auto`) to the fastest engine for each (docs/performance.md, "A newcomer's games").
//! Each file has the game and an oracle over its literal rules that shares no code with it;
//! tests/newcomers.rs compares them, examples/newcomers.rs puts the games in the command line,
//! and benches/newcomers.sh times every engine on each.

#![allow(dead_code)]

pub mod dots;
pub mod hex;
pub mod kalah;
pub mod mnk;
pub mod othello;
pub mod slide;
pub mod takeaway;
#[path = "../../tests/common/user_games.rs"]
pub mod user_games;
