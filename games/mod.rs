//! The bundled games: ordinary implementations of [`Game`](crate::Game), each with its input
//! validation and its answer in the problem's terms.

mod dots_and_boxes;
mod interval_stone_games;
mod nim;
mod stone_game_ii;
mod stone_game_iii;
mod stone_game_viii;
mod tic_tac_toe;

pub use dots_and_boxes::{DotsAndBoxes, MAX_EDGES};
pub use interval_stone_games::{End, Interval, StoneGame, StoneGameVII};
pub use nim::{MAX_NIM_POSITIONS, Nim};
pub use stone_game_iii::StoneGameIII;
pub use tic_tac_toe::{Board, TicTacToe};

pub use stone_game_ii::{
    StoneGameII, StoneGameIIFast, StoneGameIIState, StoneGameIITake, solve_stone_game_ii,
};
pub use stone_game_viii::{
    Literal, StepMove, StepState, Stepwise, StoneGameVIII, StoneGameVIIIFast, StoneGameVIIITake,
    solve_stone_game_viii,
};
