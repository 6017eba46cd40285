//! The bundled games: ordinary implementations of [`Game`](crate::Game), each with its input
//! validation and its answer in the problem's terms.

mod cat_and_mouse;
mod connect_four;
mod dots_and_boxes;
mod interval_stone_games;
pub(crate) mod kayles;
mod nim;
mod ranks;
mod stone_game_ii;
mod stone_game_iii;
mod stone_game_viii;
mod tic_tac_toe;

pub use cat_and_mouse::{CatAndMouse, CatAndMouseII, Chase, MAX_CHASE_PLACES, MOUSE_TURNS};
pub use connect_four::{Bitboard, ConnectFour, Drop, Position};
pub use dots_and_boxes::{DotsAndBoxes, MAX_EDGES};
pub use interval_stone_games::{
    End, Interval, IntervalGame, IntervalRule, ScoreRest, StoneGame, StoneGameVII, TakePile,
};
pub use kayles::{Kayles, Knock, MAX_KAYLES_CELLS};
pub use nim::{MAX_NIM_POSITIONS, Nim};
pub use stone_game_iii::StoneGameIII;
pub use tic_tac_toe::{Board, TicTacToe};

pub use stone_game_ii::{
    StoneGameII, StoneGameIIFast, StoneGameIIState, StoneGameIITake, solve_stone_game_ii,
};
pub use stone_game_viii::{
    Literal, StepMove, StepState, Stepwise, StoneGameVIII, StoneGameVIIIFast, StoneGameVIIITake,
    solve_stone_game_viii, solve_stone_game_viii_with,
};

use crate::error::InputError;

/// The most values a game accepts: states hold indices in `u32`.
const MAX_VALUES: usize = (u32::MAX - 1) as usize;

/// At least `needed` values (`unit` in the singular when `needed` is 1), at most
/// `MAX_VALUES`.
fn check_count(
    game: &'static str,
    unit: &'static str,
    units: &'static str,
    got: usize,
    needed: usize,
) -> Result<(), InputError> {
    if got < needed {
        return Err(InputError::TooFew {
            game,
            unit: if needed == 1 { unit } else { units },
            needed,
            got,
        });
    }
    if got > MAX_VALUES {
        return Err(InputError::TooMany {
            game,
            unit: units,
            max: MAX_VALUES,
            got,
        });
    }
    Ok(())
}

/// Every value positive; the first that is not is rejected with its position.
fn check_positive(
    values: &[i64],
    unit: &'static str,
    rule: &'static str,
) -> Result<(), InputError> {
    match values.iter().position(|&value| value <= 0) {
        Some(position) => Err(InputError::OutOfRange {
            unit,
            position: position + 1,
            value: values[position],
            rule,
        }),
        None => Ok(()),
    }
}
