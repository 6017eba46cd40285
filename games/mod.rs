//! The bundled games: ordinary implementations of [`Game`](crate::Game), each with its input
//! validation and its answer in the problem's terms.

mod stone_game_ii;
mod stone_game_viii;

pub use stone_game_ii::{
    StoneGameII, StoneGameIIFast, StoneGameIIState, StoneGameIITake, solve_stone_game_ii,
};
pub use stone_game_viii::{
    Literal, StepMove, StepState, Stepwise, StoneGameVIII, StoneGameVIIIFast, StoneGameVIIITake,
    solve_stone_game_viii,
};
