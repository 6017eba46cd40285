//! The bundled games as the command line knows them: the top of `cli`. Each game describes
//! itself in its own file of this folder (its name, what its VALUES are, how it is built from
//! them and checked, its positions, how its answers and moves read: a
//! [`Bundled`] constant named `GAME`, and the game's
//! [`Presented`](super::present::Presented) impl), and is listed by one line below. The
//! `gamesolver` binary hands the list to `main_with`, which installs it into the registry;
//! nothing else in the command line names a game.

use super::registry::Bundled;

// Each game's file, declared here rather than inside the list's macro, where rustfmt (and so
// `cargo fmt --check`) would not see it.
pub mod cat_and_mouse;
pub mod cat_and_mouse_ii;
pub mod connect_four;
pub mod dots_and_boxes;
pub mod nim;
pub mod stone_game;
pub mod stone_game_ii;
pub mod stone_game_iii;
pub mod stone_game_vii;
pub mod stone_game_viii;
pub mod tic_tac_toe;

/// Lists each game's [`Bundled`] constant, in the order the help shows them, by the module that
/// holds it: adding a game to the command line is its file and its line here (a game whose
/// whole definition is one file of `games/`, as Kayles, is listed by its path there).
macro_rules! bundled {
    ($($($file:ident)::+),* $(,)?) => {
        /// Every bundled game.
        pub const GAMES: &[&Bundled] = &[$(&$($file)::+::GAME),*];
    };
}

bundled! {
    stone_game,
    stone_game_ii,
    stone_game_iii,
    stone_game_vii,
    stone_game_viii,
    nim,
    crate::games::kayles,
    tic_tac_toe,
    dots_and_boxes,
    connect_four,
    cat_and_mouse,
    cat_and_mouse_ii,
}

mod cat_and_mouse_common;
mod growing;

/// Installs [`GAMES`] into the registry (as `main_with` does), for the unit tests.
#[cfg(test)]
pub fn install() {
    super::registry::install(GAMES);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::model::GameName;

    #[test]
    fn names_are_unique_and_found() {
        install();
        for game in GAMES {
            assert_eq!(
                GameName::named(game.name).map(GameName::id),
                Some(game.name)
            );
            let same = GAMES.iter().filter(|other| other.name == game.name).count();
            assert_eq!(same, 1, "{} is listed once", game.name);
        }
        assert!(GameName::named("chess").is_none());
    }
}
