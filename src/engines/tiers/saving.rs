//! The tier solver's tiers written to a tier file as they complete, and read back from one to
//! resume: [`par_solve_saved`].

use super::Cell;
#[cfg(feature = "database")]
use super::file::{Identity, RESUME_LEVEL, Save, TierFile, TierWriter};
#[cfg(feature = "database")]
use super::{Options, Parallel, TierSolution, run};
use crate::error::SolveError;
#[cfg(feature = "database")]
use crate::game::Tiered;

/// A solve's tier files: the one it resumes (if any), and the writer that appends to it.
#[cfg(feature = "database")]
pub(super) type Files = (Option<TierFile>, TierWriter);

/// [`par_solve`](super::par_solve), writing each tier to `save`'s tier file as it
/// completes (durable before the next begins), or going on from the tiers the file holds: a
/// solve stopped at any moment resumes from its last complete tier and ends with the same
/// values. The values are held by rank, tier by tier (never by the game's dense index).
///
/// ```
/// use gamesolver::engines::tiers::{self, file::{Save, TierFile}};
/// use gamesolver::games::DotsAndBoxes;
///
/// let game = DotsAndBoxes::new(2, 2).unwrap();
/// let path = std::env::temp_dir().join(format!("dots-doc-{}.tiers", std::process::id()));
/// let save = Save::new(&path, "dots-and-boxes 2 2");
/// let solved = tiers::par_solve_saved(&game, tiers::Options::new(), &save).unwrap();
/// assert_eq!(solved.value(), 2);
/// assert_eq!(TierFile::open(&path).unwrap().tiers_held(), 13); // 12 edges: tiers 0 to 12
/// let again = tiers::par_solve_saved(&game, tiers::Options::new(), &save.resumed()).unwrap();
/// assert_eq!((again.value(), again.stats().resumed), (2, 13));
/// std::fs::remove_file(&path).unwrap();
/// ```
#[cfg(feature = "database")]
pub fn par_solve_saved<'g, G>(
    game: &'g G,
    options: Options,
    save: &Save,
) -> Result<TierSolution<'g, G>, SolveError>
where
    G: Tiered + Sync,
{
    crate::engines::chance::refuse_chance(game, "the tier solver")?;
    let mut files = open(game, save)?;
    run(
        game,
        options.limits,
        options.keep,
        Parallel,
        Some(&mut files),
    )
}

/// `save`'s tier file for a tier solve of `game`: created, or (with `save.resume`) checked
/// against the game and opened to go on from the tiers it holds.
#[cfg(feature = "database")]
pub(super) fn open<G: Tiered>(game: &G, save: &Save) -> Result<Files, SolveError> {
    let identity = Identity {
        block_bytes: save.block_bytes,
        ..super::database::identity(game, &save.game)
    };
    let (file, writer) = if save.resume {
        TierWriter::resume(&save.path, &identity)?
    } else {
        (None, TierWriter::create(&save.path, &identity)?)
    };
    Ok((file, writer.with_level(save.level.unwrap_or(RESUME_LEVEL))))
}

/// How many tiers, from the last down to `from`, the file a solve resumes holds (the
/// distributed solvers' worker 0 tells the others).
#[cfg(all(feature = "database", feature = "distributed"))]
pub(super) fn held(files: Option<&Files>, from: usize, count: usize) -> usize {
    match files {
        Some((Some(file), _)) => (from..count)
            .rev()
            .take_while(|&tier| file.holds(tier))
            .count(),
        _ => 0,
    }
}

/// Tier `tier`'s values from the file a solve resumes, if it holds them.
#[cfg(feature = "database")]
pub(super) fn saved<V: Cell>(
    files: Option<&Files>,
    tier: usize,
    len: u64,
) -> Result<Option<Vec<V>>, SolveError> {
    let Some((Some(file), _)) = files else {
        return Ok(None);
    };
    let Some(cells) = file.cell_width(tier).map(|_| file.tier(tier)).transpose()? else {
        return Ok(None);
    };
    let Some(cells) = cells else {
        return Ok(None);
    };
    if cells.len() as u64 != len || file.cell_width(tier) != Some(size_of::<V>()) {
        return Err(SolveError::TierFile {
            path: file.path().display().to_string(),
            problem: format!("tier {tier} of the file does not fit this game's tier"),
        });
    }
    Ok(Some(cells.into_iter().map(V::from_cell).collect()))
}

/// Writes tier `tier`'s values to the file a solve saves to.
#[cfg(feature = "database")]
pub(super) fn append<V: Cell>(
    files: Option<&mut Files>,
    tier: usize,
    cells: &[V],
) -> Result<(), SolveError> {
    let Some((_, writer)) = files else {
        return Ok(());
    };
    let mut bytes = Vec::with_capacity(size_of_val(cells));
    for &cell in cells {
        cell.put(&mut bytes);
    }
    writer.append(tier, size_of::<V>() as u8, &bytes)
}

/// Without tier files, a solve holds none.
#[cfg(not(feature = "database"))]
pub(super) type Files = std::convert::Infallible;

#[cfg(not(feature = "database"))]
pub(super) fn saved<V: Cell>(
    _: Option<&Files>,
    _: usize,
    _: u64,
) -> Result<Option<Vec<V>>, SolveError> {
    Ok(None)
}

/// The error of a distributed solver's worker told that the process with worker 0 refused the
/// tier file of its `--save`.
#[cfg(feature = "distributed")]
pub(super) fn refused_by_worker_0() -> SolveError {
    SolveError::Distributed(
        "the process with worker 0 refused the tier file of its --save (its own message says \
         why), so nothing was solved"
            .into(),
    )
}

#[cfg(all(not(feature = "database"), feature = "distributed"))]
pub(super) fn held(_: Option<&Files>, _: usize, _: usize) -> usize {
    0
}

#[cfg(not(feature = "database"))]
pub(super) fn append<V: Cell>(_: Option<&mut Files>, _: usize, _: &[V]) -> Result<(), SolveError> {
    Ok(())
}
