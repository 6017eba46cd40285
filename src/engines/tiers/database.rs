//! A tier solve's values answered from its tier file ([`TierDatabase`]): each question reads
//! only the blocks that hold the positions it asks about.

use std::path::Path;

use super::Cell;
use super::file::{Identity, TierFile};
use super::solution::{line_by, move_values_by};
use crate::engines::kernel::{MoveValue, Ply};
use crate::error::SolveError;
use crate::game::{Score, Tiered};

/// The kind of cells the tier solver writes: values.
pub(super) const TIER_KIND: u8 = 2;

/// The identity a tier solve of `game` writes in its tier file's header (`words`: the game in
/// words, as `dots-and-boxes 3 3`).
pub(super) fn identity<G: Tiered>(game: &G, words: &str) -> Identity {
    Identity::new(TIER_KIND, words, game.tier_count(), |tier| {
        game.tier_len(tier)
    })
}

/// A game solved by the tier solver, answered from the tier file
/// [`par_solve_saved`](super::par_solve_saved) wrote: each question reads (and checks) only
/// the blocks that hold the positions it asks about.
///
/// ```
/// use gamesolver::engines::tiers::{self, TierDatabase, file::Save};
/// use gamesolver::{Game, games::DotsAndBoxes};
///
/// let game = DotsAndBoxes::new(2, 2).unwrap();
/// let path = std::env::temp_dir().join(format!("dots-db-{}.tiers", std::process::id()));
/// tiers::par_solve_saved(&game, tiers::Options::new(), &Save::new(&path, "dots-and-boxes 2 2"))
///     .unwrap();
/// let database = TierDatabase::open(&game, &path, "dots-and-boxes 2 2").unwrap();
/// assert_eq!(database.value_of(&game.start()).unwrap(), Some(2));
/// assert_eq!(database.blocks_read(), 1);
/// assert_eq!(database.line().unwrap().len(), 12); // every edge drawn
/// // Another game's words are refused.
/// assert!(TierDatabase::open(&game, &path, "dots-and-boxes 2 3").is_err());
/// std::fs::remove_file(&path).unwrap();
/// ```
#[derive(Debug)]
pub struct TierDatabase<'g, G: Tiered> {
    game: &'g G,
    start: G::State,
    file: TierFile,
}

impl<'g, G: Tiered> TierDatabase<'g, G> {
    /// Opens the tier file at `path` of a tier solve of `game` (`words` as the solve named it):
    /// a file of another game (or of the loopy tier solver), or one that is damaged, is
    /// refused. Tiers the file does not hold yet (a solve still under way) answer nothing.
    pub fn open(game: &'g G, path: &Path, words: &str) -> Result<Self, SolveError> {
        let file = TierFile::open(path)?;
        if !file.identity().same_game(&identity(game, words)) {
            let held = file.identity();
            return Err(SolveError::TierFile {
                path: path.display().to_string(),
                problem: match held.kind == TIER_KIND {
                    true => format!("it holds tiers of {}, not of {words}", held.game),
                    false => format!(
                        "it holds the loopy tier solver's outcomes of {}, not the tier solver's \
                         values of {words}",
                        held.game
                    ),
                },
            });
        }
        Ok(TierDatabase {
            start: game.start(),
            game,
            file,
        })
    }

    /// The value of `state` for its side to move; `None` if its tier is not in the file.
    pub fn value_of(&self, state: &G::State) -> Result<Option<Score>, SolveError> {
        let tier = self.game.tier(state);
        let Some(width) = self.file.cell_width(tier) else {
            return Ok(None);
        };
        let Some(cell) = self.file.cell(tier, self.game.rank(state))? else {
            return Ok(None);
        };
        Ok(Some(match width {
            1 => i8::from_cell(cell).widen(),
            2 => i16::from_cell(cell).widen(),
            4 => i32::from_cell(cell).widen(),
            _ => i64::from_cell(cell).widen(),
        }))
    }

    /// Every move of `state` with its value for the mover; `None` if a tier it leads to is not
    /// in the file.
    pub fn move_values(&self, state: &G::State) -> Result<Option<Vec<MoveValue<G>>>, SolveError> {
        move_values_by(self.game, state, |next| self.value_of(next))
    }

    /// The optimal line of play from the start, as
    /// [`TierSolution::line`](super::TierSolution::line) gives it; empty where a tier on it is
    /// not in the file.
    pub fn line(&self) -> Result<Vec<Ply<G>>, SolveError> {
        let Some(value) = self.value_of(&self.start)? else {
            return Ok(Vec::new());
        };
        Ok(
            line_by(self.game, &self.start, value, |state| self.value_of(state))?
                .unwrap_or_default(),
        )
    }

    /// How many blocks the questions so far have read.
    pub fn blocks_read(&self) -> u64 {
        self.file.blocks_read()
    }

    /// The file's size in bytes.
    pub fn bytes(&self) -> u64 {
        self.file.bytes()
    }

    /// How many of the game's tiers the file holds.
    pub fn tiers_held(&self) -> usize {
        self.file.tiers_held()
    }

    /// The path of the tier file it answers from.
    pub fn path(&self) -> &Path {
        self.file.path()
    }

    /// The game.
    pub fn game(&self) -> &'g G {
        self.game
    }

    /// The game's start.
    pub fn start(&self) -> &G::State {
        &self.start
    }
}
