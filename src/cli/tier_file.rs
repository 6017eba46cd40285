//! Tier files on the command line (`--save FILE [--resume]`, `--load FILE`) for a game the
//! loopy tier solver solves: the solve written tier by tier, and answers read from the file.

use std::hash::Hash;

use crate::engines::tiers::file::TierFile;
use crate::{Engine, Limits, Solved, Solver};

use super::args::{Cli, SolverName};
use super::budget::stacks_held;
use super::model::{Failure, Report};
use super::present::Presented;
use super::solve::{answered, threads_or_cores};

/// Whether a task on a game the tier solver solves under `--solver auto` (Dots and Boxes)
/// goes by a tier file: `--load` of one (told by its first bytes; any other file is a saved
/// table), or `--save` by the tier solver (`auto` or `tier`; `--solver engine` saves the
/// engine's dense table).
pub(super) fn by_tier_file(cli: &Cli) -> bool {
    match (&cli.load, &cli.save) {
        (Some(path), _) => TierFile::begins_as_one(path),
        (None, Some(_)) => matches!(cli.solver, SolverName::Auto | SolverName::Tier),
        (None, None) => false,
    }
}

/// The answer for `game` (of values `params`), solved by a tier solver, from `--load`'s tier
/// file, reading only the blocks each question needs.
pub(super) fn tier_file_answer<'g, G>(
    cli: &Cli,
    game: &'g G,
    params: &[i64],
    limits: Limits,
) -> Result<crate::Answer<'g, G>, Failure>
where
    G: Presented + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    let path = cli.load.as_deref().expect("a tier file answer has --load");
    Ok(Solver::new(game)
        .engine(Engine::Tiers)
        .threads(threads_or_cores(cli))
        .limits(limits)
        .load_tiers(path, &cli.game.with_values(params))?)
}

/// Whether the library's [`Solver`] solves `game` by the loopy tier solver.
pub(super) fn loopy_tiered<G>(game: &G) -> bool
where
    G: crate::Game + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    Solver::new(game)
        .plan()
        .is_ok_and(|plan| plan.engine == Engine::LoopyTiers)
}

/// The loopy tier solver's answer for `game` (of values `params`): from `--load`'s tier file,
/// reading only the blocks each question needs, else solved keeping every tier.
pub(super) fn loopy_answer<'g, G>(
    cli: &Cli,
    game: &'g G,
    params: &[i64],
    limits: Limits,
) -> Result<crate::Answer<'g, G>, Failure>
where
    G: Presented + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    match cli.load {
        Some(_) => tier_file_answer(cli, game, params, limits),
        None => Ok(Solver::new(game)
            .threads(threads_or_cores(cli))
            .limits(limits)
            .keep_every_tier()
            .solve()?),
    }
}

/// Solves `game` (of values `params`) by a tier solver (the loopy one where play may cycle)
/// into `--save`'s tier file (or on from it, with `--resume`), or answers from `--load`'s:
/// the report, its line read from the file.
pub(super) fn with_tier_file<G>(
    cli: &Cli,
    game: &G,
    params: &[i64],
    limits: Limits,
) -> Result<Report, Failure>
where
    G: Presented + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    let words = cli.game.with_values(params);
    let threads = threads_or_cores(cli);
    let limits = match threads {
        1 => limits,
        _ => stacks_held(threads, limits)?,
    };
    let solver = Solver::new(game)
        .engine(Engine::Tiers)
        .threads(threads)
        .limits(limits);
    let (path, stats) = match (cli.tier_save(params), &cli.load) {
        (Some(save), _) => {
            let stats = solver.solve_saving(&save)?.stats();
            (save.path, Some(stats))
        }
        (None, Some(path)) => (path.clone(), None),
        (None, None) => unreachable!("a tier file task has --save or --load"),
    };
    let loaded = solver.load_tiers(&path, &words)?;
    answered(cli, game, params.len(), limits, loaded, stats)
}
