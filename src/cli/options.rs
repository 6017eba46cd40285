//! Which options apply: those of another game, or of another solver, are refused or warned
//! about rather than silently ignored.

use super::args::{Cli, SolverName};
use super::model::Failure;

/// The Connect Four options are refused for the other games, and the values' options for
/// Connect Four, rather than silently ignored.
pub fn refuse_misplaced_options(cli: &Cli) -> Result<(), Failure> {
    let cluster = [
        (cli.workers.is_some(), "--workers"),
        (cli.processes.is_some(), "--processes"),
        (cli.process.is_some(), "--process"),
        (cli.hostfile.is_some(), "--hostfile"),
    ];
    if cli.solver != SolverName::Distributed
        && let Some((_, option)) = cluster.iter().find(|(given, _)| *given)
    {
        return Err(Failure::Usage(format!(
            "{option} applies only to --solver distributed (the tier solver on timely dataflow)"
        )));
    }
    let board = cli.game.own().is_some_and(|own| own.board);
    let misplaced = if board {
        if cli.input.is_some() {
            Some("--input (use --batch FILE for many positions)")
        } else if cli.save.is_some() || cli.load.is_some() {
            Some("--save and --load (its table is of bounds, not values)")
        } else {
            None
        }
    } else if cli.width.is_some() || cli.height.is_some() {
        Some("--width and --height")
    } else if cli.columns_from_zero {
        Some("--columns-from-zero")
    } else if cli.analyze {
        Some("--analyze")
    } else if cli.batch.is_some() {
        Some("--batch")
    } else {
        None
    };
    match misplaced {
        Some(option) if board => Err(Failure::Usage(format!(
            "{option} does not apply to {}",
            cli.game.id()
        ))),
        Some(option) => Err(Failure::Usage(format!(
            "{option} applies only to {}, not to {}",
            super::registry::board_names(),
            cli.game.id()
        ))),
        None => Ok(()),
    }
}

/// What the solver options ask that the chosen solver cannot do, if anything: a warning, and
/// the run goes on with what it can do. (Options that belong to another game are errors:
/// [`refuse_misplaced_options`]. These are about how to solve, not what: the answer is the
/// same, so the run is not refused.)
pub(super) fn inapplicable_solver_options(cli: &Cli) -> Option<String> {
    let specialised = cli
        .game
        .engine()
        .is_some_and(|engine| engine.fast.is_some());
    let one_thread = match cli.solver {
        SolverName::Engine => Some("--solver engine runs on one thread"),
        SolverName::Fast | SolverName::Auto if specialised => {
            Some("the specialised solver runs on one thread")
        }
        _ => None,
    };
    match (cli.threads, one_thread) {
        (Some(threads), Some(why)) if threads > 1 => {
            return Some(format!(
                "--threads {threads} has no effect: {why} (the parallel engine is --solver \
                 parallel)"
            ));
        }
        _ => {}
    }
    if cli.solver == SolverName::Fast && !specialised {
        let instead = cli.game.own().map_or("the engine", |own| own.solver);
        return Some(format!(
            "{} has no specialised solver (only {} do): {instead} solves it",
            cli.game.id(),
            super::registry::specialised_names()
        ));
    }
    None
}
