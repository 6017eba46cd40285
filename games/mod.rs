//! The bundled games: ordinary implementations of [`Game`](crate::Game), each with its input
//! validation and its answer in the problem's terms.

mod bear_off;
mod cat_and_mouse;
mod connect_four;
mod cram;
mod dawsons_kayles;
mod dots_and_boxes;
#[cfg(feature = "cli")]
pub mod fuzz;
mod grundys_game;
mod hex;
mod interval_stone_games;
mod kayles;
mod mnk;
mod nim;
mod pig;
mod quixo;
mod ranks;
mod six_mens_morris;
mod stone_game_ii;
mod stone_game_iii;
mod stone_game_viii;
mod tic_tac_toe;

pub use bear_off::{
    BearOff, BearOffMove, Checkers, MAX_BEAR_OFF_CHECKERS, MAX_BEAR_OFF_POINTS, Race,
};
pub use cat_and_mouse::{CatAndMouse, CatAndMouseII, Chase, MAX_CHASE_PLACES, MOUSE_TURNS};
pub use connect_four::{Bitboard, ConnectFour, Drop, Position};
pub use cram::{Cram, Domino, MAX_CRAM_CELLS};
pub use dawsons_kayles::{DawsonsKayles, MAX_ROW_PINS, Pair};
pub use dots_and_boxes::{DotsAndBoxes, MAX_EDGES};
pub use grundys_game::{GrundysGame, MAX_HEAP, Split};
pub use hex::{Hex, HexBoard, MAX_HEX_SIDE};
pub use interval_stone_games::{
    End, Interval, IntervalGame, IntervalRule, ScoreRest, StoneGame, StoneGameVII, TakePile,
};
pub use kayles::{Kayles, Knock, MAX_KAYLES_CELLS};
pub use mnk::{MAX_MNK_CELLS, Mnk, MnkBoard};
pub use nim::{MAX_NIM_POSITIONS, Nim};
pub use pig::{Coin, Die, MAX_PIG_GOAL, Pig, PigMove, PigState, Piglet};
pub use quixo::{Edge, MAX_QUIXO_SIDE, Push, Quixo, QuixoBoard};
pub use six_mens_morris::{
    MORRIS_POINT_NAMES, MORRIS_POINTS, MorrisBoard, MorrisMove, SixMensMorris,
};
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

/// Sizes (rows of pins, heaps of counters), at least one, each `1..=max`; the first out of
/// range is rejected with its position and `rule`.
fn sizes(
    game: &'static str,
    (unit, units): (&'static str, &'static str),
    values: &[i64],
    max: u32,
    rule: &'static str,
) -> Result<Vec<u32>, InputError> {
    check_count(game, unit, units, values.len(), 1)?;
    values
        .iter()
        .enumerate()
        .map(|(index, &size)| {
            u32::try_from(size)
                .ok()
                .filter(|size| (1..=max).contains(size))
                .ok_or(InputError::OutOfRange {
                    unit,
                    position: index + 1,
                    value: size,
                    rule,
                })
        })
        .collect()
}

/// A position given as sizes joined by commas (`5,3,7`), each `1..=max` (a row or heap gone
/// is left out): `analyze --at` and `play --at` of Dawson's Kayles and Grundy's game.
#[cfg(feature = "cli")]
fn sizes_at(text: &str, unit: &str, of: &str, max: u32) -> Result<Vec<u32>, InputError> {
    text.split(',')
        .filter(|part| !part.trim().is_empty())
        .map(|part| {
            part.trim()
                .parse::<u32>()
                .ok()
                .filter(|size| (1..=max).contains(size))
                .ok_or_else(|| {
                    InputError::InvalidState(format!(
                        "{part:?} is no {unit} (give each {unit}'s {of}, 1 to {max}, joined by \
                         commas, as 5,3,7)"
                    ))
                })
        })
        .collect()
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

/// The next number of a xorshift sequence from `seed` (not 0): the games' tests' random play.
#[cfg(test)]
fn next_random(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// A position `plies` random moves from `game`'s start (fewer where play ends) at which `over`
/// does not hold, played again until one is found: the games' tests' random play.
#[cfg(test)]
fn random_play<G: crate::Game>(
    game: &G,
    plies: usize,
    seed: &mut u64,
    over: impl Fn(&G::State) -> bool,
) -> G::State {
    loop {
        let mut state = game.start();
        for _ in 0..plies {
            let moves: Vec<G::Move> = game.moves(&state).collect();
            if moves.is_empty() {
                break;
            }
            let pick = &moves[(next_random(seed) % moves.len() as u64) as usize];
            state = game.play(&state, pick).next;
        }
        if !over(&state) {
            return state;
        }
    }
}

/// Lists each bundled game's [`Bundled`](crate::cli::Bundled) constant, in the order the help
/// shows them: adding a game to the command line and the page is its file of `games/` and its
/// line here. (Each game's file is declared at the top of this module rather than inside the
/// macro, where rustfmt, and so `cargo fmt --check`, would not see it.)
#[cfg(feature = "cli")]
macro_rules! bundled {
    ($($game:path),* $(,)?) => {
        /// The bundled games, in the order `--help` lists them: what the `gamesolver` binary
        /// runs (`gamesolver::cli::main_with(gamesolver::games::BUNDLED)`).
        pub const BUNDLED: &[&crate::cli::Bundled] = &[$(&$game),*];
    };
}

#[cfg(feature = "cli")]
bundled! {
    interval_stone_games::stone_game::GAME,
    stone_game_ii::cli::GAME,
    stone_game_iii::cli::GAME,
    interval_stone_games::stone_game_vii::GAME,
    stone_game_viii::cli::GAME,
    nim::cli::GAME,
    kayles::GAME,
    dawsons_kayles::GAME,
    grundys_game::GAME,
    cram::GAME,
    tic_tac_toe::cli::GAME,
    quixo::cli::GAME,
    six_mens_morris::cli::GAME,
    dots_and_boxes::cli::GAME,
    connect_four::cli::GAME,
    hex::cli::GAME,
    mnk::cli::GAME,
    cat_and_mouse::cli::cat_and_mouse::GAME,
    cat_and_mouse::cli::cat_and_mouse_ii::GAME,
    pig::PIG,
    pig::PIGLET,
    bear_off::GAME,
}

#[cfg(all(test, feature = "cli"))]
mod tests {
    use super::BUNDLED;
    use crate::cli::run_json;

    #[test]
    fn names_are_unique_and_found() {
        for game in BUNDLED {
            // The command line's parser knows the name: `--help` after it is the game's help.
            let help = run_json(BUNDLED, [game.name(), "--help"]).unwrap_err();
            assert_eq!(help.kind, "help", "{}: {}", game.name(), help.message);
            let same = BUNDLED
                .iter()
                .filter(|other| other.name() == game.name())
                .count();
            assert_eq!(same, 1, "{} is listed once", game.name());
        }
        let unknown = run_json(BUNDLED, ["chess"]).unwrap_err();
        assert_eq!(unknown.kind, "usage");
        assert!(unknown.message.contains("chess"), "{}", unknown.message);
    }
}
