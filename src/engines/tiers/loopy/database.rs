//! Tier files for the loopy tier solver: each tier written as it completes, a stopped solve
//! resumed from its complete tiers, and a solved game answered from the file a block at a time
//! ([`LoopyDatabase`]).

use std::hash::Hash;
use std::path::Path;

use super::solution::{Found, line_by, moves_by};
use super::{Classes, Code, LoopySolution, Options, run};
use crate::engines::kernel::Ply;
use crate::engines::retrograde::Outcome;
pub use crate::engines::tiers::file::Save;
use crate::engines::tiers::file::{Identity, QUERY_LEVEL, TierFile, TierWriter};
use crate::error::SolveError;
use crate::game::{Tiered, Turn};

/// A solve's tier files: the one it resumes (if any), and the writer that appends to it.
pub(super) type Files = (Option<TierFile>, TierWriter);

/// The identity a loopy solve of `game` writes in its tier file's header.
pub fn identity<G: Tiered>(game: &G, words: &str) -> Identity {
    Identity::new(LOOPY_KIND, words, game.tier_count(), |tier| {
        game.tier_len(tier)
    })
}

/// The kind of cells a loopy solve writes: [`Code`]s.
pub const LOOPY_KIND: u8 = 1;

/// [`par_solve`](super::par_solve), writing each tier to `save`'s tier file as it completes (and made durable
/// before the next begins), or going on from the tiers it holds: a solve stopped at any moment
/// resumes from its last complete tier and ends with the same codes.
///
/// ```
/// use gamesolver::engines::tiers::{KeepTiers, file::TierFile, loopy::{self, BySymmetry, Save}};
/// use gamesolver::games::Quixo;
///
/// let game = Quixo::new(3).unwrap();
/// let path = std::env::temp_dir().join(format!("quixo-doc-{}.tiers", std::process::id()));
/// let save = Save::new(&path, "quixo 3");
/// let solved = loopy::par_solve_saved(&game, BySymmetry, loopy::Options::new(), &save).unwrap();
/// let file = TierFile::open(&path).unwrap();
/// assert_eq!(file.tiers_held(), game_tiers(&game));
/// # fn game_tiers(game: &Quixo) -> usize { use gamesolver::Tiered; game.tier_count() }
/// std::fs::remove_file(&path).unwrap();
/// assert_eq!(solved.remoteness(), Some(7));
/// ```
pub fn par_solve_saved<'g, G, C>(
    game: &'g G,
    classes: C,
    options: Options,
    save: &Save,
) -> Result<LoopySolution<'g, G, C>, SolveError>
where
    G: Tiered + Sync,
    G::State: Send + PartialEq,
    C: Classes<G>,
{
    let files = open_files(game, save)?;
    run(game, classes, options, super::Method::ByBudget, Some(files))
}

/// The tier files of a solve of `game` that saves as `save` says: the file it resumes (with
/// `save.resume`), and the writer that appends to it.
pub(super) fn open_files<G: Tiered>(game: &G, save: &Save) -> Result<Files, SolveError> {
    save.open(identity(game, &save.game), QUERY_LEVEL)
}

/// Tier `tier`'s codes from the file a solve resumes, if it holds them.
pub(super) fn saved_tier(
    files: Option<&Files>,
    tier: usize,
    len: u64,
) -> Result<Option<Vec<u16>>, SolveError> {
    let Some((Some(saved), _)) = files else {
        return Ok(None);
    };
    let Some(cells) = saved.tier(tier)? else {
        return Ok(None);
    };
    if cells.len() as u64 != len || cells.iter().any(|&cell| cell > u64::from(u16::MAX - 1)) {
        return Err(SolveError::TierFile {
            path: saved.path().display().to_string(),
            problem: format!("tier {tier} of the file does not fit this game's tier"),
        });
    }
    Ok(Some(cells.into_iter().map(|cell| cell as u16).collect()))
}

pub(super) fn save_tier(
    files: Option<&mut Files>,
    tier: usize,
    codes: &[u16],
) -> Result<(), SolveError> {
    let Some((_, writer)) = files else {
        return Ok(());
    };
    if codes.iter().all(|&code| code <= u16::from(u8::MAX)) {
        let bytes: Vec<u8> = codes.iter().map(|&code| code as u8).collect();
        writer.append(tier, 1, &bytes)
    } else {
        let bytes: Vec<u8> = codes.iter().flat_map(|code| code.to_le_bytes()).collect();
        writer.append(tier, 2, &bytes)
    }
}

/// A solved loopy tiered game answered from its tier file: each question reads (and checks)
/// only the blocks that hold the positions it asks about.
///
/// ```
/// use gamesolver::engines::tiers::loopy::{self, BySymmetry, LoopyDatabase, Save};
/// use gamesolver::engines::retrograde::Outcome;
/// use gamesolver::{Game, games::Quixo};
///
/// let game = Quixo::new(3).unwrap();
/// let path = std::env::temp_dir().join(format!("quixo-db-{}.tiers", std::process::id()));
/// let save = Save::new(&path, "quixo 3");
/// loopy::par_solve_saved(&game, BySymmetry, loopy::Options::new(), &save).unwrap();
/// let database = LoopyDatabase::open(&game, BySymmetry, &path, "quixo 3").unwrap();
/// assert_eq!(database.outcome_of(&game.start()).unwrap(), Some((Outcome::Win, Some(7))));
/// assert!(database.blocks_read() <= 1);
/// std::fs::remove_file(&path).unwrap();
/// ```
#[derive(Debug)]
pub struct LoopyDatabase<'g, G: Tiered, C> {
    game: &'g G,
    classes: C,
    start: G::State,
    file: TierFile,
}

impl<'g, G: Tiered, C: Classes<G>> LoopyDatabase<'g, G, C> {
    /// Opens the tier file at `path` of a solve of `game` (`words` as the solve named it): a
    /// file of another game, or one that is damaged, is refused. Tiers the file does not hold
    /// (a solve still under way) answer nothing.
    pub fn open(game: &'g G, classes: C, path: &Path, words: &str) -> Result<Self, SolveError> {
        let file = TierFile::open(path)?;
        let wanted = identity(game, words);
        if !file.identity().same_game(&wanted) {
            return Err(SolveError::TierFile {
                path: path.display().to_string(),
                problem: format!("it holds tiers of {}, not of {words}", file.identity().game),
            });
        }
        Ok(LoopyDatabase {
            start: game.start(),
            game,
            classes,
            file,
        })
    }

    /// The code of `state` ([`Code::NONE`] if its tier is not in the file).
    pub fn code_of(&self, state: &G::State) -> Result<Code, SolveError> {
        let state = self.classes.stand_in(self.game, state.clone());
        let cell = self
            .file
            .cell(self.game.tier(&state), self.game.rank(&state))?;
        Ok(cell.map_or(Code::NONE, |cell| Code(cell as u16)))
    }

    /// The outcome and remoteness of `state`; `None` if its tier is not in the file or its rank
    /// holds no state.
    pub fn outcome_of(&self, state: &G::State) -> Result<Found, SolveError> {
        Ok(self.code_of(state)?.decode())
    }

    /// Each move of `state` with the outcome and remoteness of the position it leads to.
    #[allow(clippy::type_complexity)]
    pub fn move_outcomes(
        &self,
        state: &G::State,
    ) -> Result<Option<Vec<(G::Move, Turn, Outcome, Option<u32>)>>, SolveError> {
        moves_by(self.game, state, |child| self.outcome_of(child))
    }

    /// The line from the start, as [`LoopySolution::line`] gives it.
    pub fn line(&self) -> Result<Vec<Ply<G>>, SolveError>
    where
        G::State: Eq + Hash,
    {
        line_by(self.game, &self.game.start(), |state| {
            self.outcome_of(state)
        })
    }

    /// How many blocks the questions so far have read.
    pub fn blocks_read(&self) -> u64 {
        self.file.blocks_read()
    }

    /// The file's size in bytes.
    pub fn bytes(&self) -> u64 {
        self.file.bytes()
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
