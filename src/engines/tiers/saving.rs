//! The tier solver's tiers written to a tier file as they complete, and read back from one to
//! resume: [`par_solve_saved`].

use super::Cell;
#[cfg(feature = "database")]
use super::file::{RESUME_LEVEL, Save, TierFile, TierWriter};
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
    save.open(super::database::identity(game, &save.game), RESUME_LEVEL)
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

#[cfg(not(feature = "database"))]
pub(super) fn append<V: Cell>(_: Option<&mut Files>, _: usize, _: &[V]) -> Result<(), SolveError> {
    Ok(())
}

/// A saving distributed solve's tier files (or why its process refused them), for worker 0.
#[cfg(feature = "distributed")]
pub(super) type Saving = std::sync::Mutex<Option<Result<Files, SolveError>>>;

/// Whether this process of `config` hosts worker 0 (the first of a cluster, or the only one):
/// the process that keeps a distributed solve's tier file.
#[cfg(all(feature = "database", feature = "distributed"))]
pub(super) fn hosts_worker_0(config: &timely::Config) -> bool {
    !matches!(
        config.communication,
        timely::CommunicationConfig::Cluster { process, .. } if process != 0
    )
}

/// What worker 0 says in place of a count of tiers when its process refused the tier file.
#[cfg(feature = "distributed")]
const REFUSED: u64 = u64::MAX;

/// Before anything else in a distributed solve, worker 0 takes its process's tier files from
/// `saving` and tells every worker whether it saves and how many tiers, from the last down to
/// `from`, its file holds; a worker told nothing saves nothing. One worker decides where all
/// go on from, so no other process needs the file or the option. The files (worker 0's), and
/// the tiers held where the solve saves, alike on every worker. Where worker 0's process
/// refused its file (it exists without `resume`, or holds another game), worker 0 returns
/// that error and every other worker one that says so: no process waits for a solve that
/// will not come.
#[cfg(feature = "distributed")]
pub(super) fn agree(
    worker: &mut timely::worker::Worker,
    saving: Option<&Saving>,
    (from, count): (usize, usize),
) -> Result<(Option<Files>, Option<usize>), SolveError> {
    let opened = match saving {
        Some(saving) if worker.index() == 0 => saving
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take(),
        _ => None,
    };
    let mut mail = super::mailbox::Mailbox::<(u32, u64)>::new(worker, |&(to, _)| to);
    let word = match &opened {
        Some(Ok(files)) => Some(held(files, from, count) as u64),
        Some(Err(_)) => Some(REFUSED),
        None => None,
    };
    if let Some(word) = word {
        for other in 1..worker.peers() {
            mail.send((other as u32, word));
        }
    }
    mail.settle(worker);
    let told = mail.inbox.borrow().first().map(|&(_, word)| word);
    match (opened, told.or(word)) {
        (Some(Err(error)), _) => Err(error),
        (_, Some(REFUSED)) => Err(SolveError::Distributed(
            "the process with worker 0 refused the tier file of its --save (its own message \
             says why), so nothing was solved"
                .into(),
        )),
        (opened, held) => Ok((opened.and_then(Result::ok), held.map(|held| held as usize))),
    }
}

/// How many tiers, from the last down to `from`, the file a solve resumes holds.
#[cfg(all(feature = "database", feature = "distributed"))]
fn held(files: &Files, from: usize, count: usize) -> usize {
    match files {
        (Some(file), _) => (from..count)
            .rev()
            .take_while(|&tier| file.holds(tier))
            .count(),
        (None, _) => 0,
    }
}

#[cfg(all(not(feature = "database"), feature = "distributed"))]
fn held(files: &Files, _: usize, _: usize) -> usize {
    match *files {}
}
