//! `--save FILE [--resume]` for an impartial game: the nimber engine keeps a journal of the
//! parts' nimbers it finds (`engines::nimbers::Journal`), and goes on from it.

use std::hash::Hash;

use crate::Limits;
use crate::engines::nimbers::Journal;
use crate::game::Impartial;
use crate::game::declaration::{OnImpartial, visit_impartial};

use super::args::Cli;
use super::model::{Failure, Report};
use super::present::Presented;
use super::registry::Saved;
use super::solve::via_solver;

/// `--save` (and `--resume`) with `game`: the report of a solve that keeps a journal of its
/// parts' nimbers, where the game is impartial; `None` for another game.
pub(super) fn journaled<G>(saved: &Saved<'_>, game: &G) -> Option<Result<Report, Failure>>
where
    G: Presented + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    visit_impartial(&game.capabilities(), Journaled(saved, game))
}

/// `--save` (and `--resume`) with an impartial game: the nimber engine's journal of parts'
/// nimbers (`None` for another game).
struct Journaled<'a, 't, G>(&'a Saved<'t>, &'a G);

impl<G> OnImpartial<G> for Journaled<'_, '_, G>
where
    G: Presented + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    type Output = Option<Result<Report, Failure>>;

    fn declared(self) -> Self::Output
    where
        G: Impartial,
    {
        let Journaled(saved, game) = self;
        Some(with_journal(saved.cli, game, saved.params, saved.limits))
    }

    fn undeclared(self) -> Self::Output {
        None
    }
}

/// `--save FILE` for an impartial game: the nimber engine appends the parts' nimbers it finds
/// to FILE as it goes (`--resume`: it starts from those FILE holds); `--load` is refused (the
/// journal is resumed, not loaded).
fn with_journal<G>(cli: &Cli, game: &G, params: &[i64], limits: Limits) -> Result<Report, Failure>
where
    G: Presented + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    let Some(path) = cli.save.as_ref().filter(|_| cli.load.is_none()) else {
        return Err(Failure::Usage(format!(
            "{} is impartial: --save FILE keeps a journal of its parts' nimbers as the solve \
             goes, and --save FILE --resume goes on from it (there is no --load)",
            cli.game.id()
        )));
    };
    let mut journal = Journal::new(path, cli.game.with_values(params));
    if cli.resume {
        journal = journal.resumed();
    }
    via_solver(cli, game, params.len(), limits, None, Some(&journal))
}
