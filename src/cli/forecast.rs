//! The time forecast: before a long solve, how long the exhaustive engine would take, from the
//! work the game declares.

use std::time::Duration;

use gamesolver::Error;

use super::args::{Cli, SolverName};
use super::present::Presented;

/// Moves per second the exhaustive engine values on large games (Stone Game II on the reference
/// machine, docs/performance.md).
const ENGINE_MOVES_PER_SECOND: f64 = 2.0e8;

/// Says before a long engine solve starts how long it will take, where the game knows its work:
/// past the time limit, it is refused at once; over a minute, a warning on stderr says so.
pub(super) fn foresee<G: Presented>(cli: &Cli, game: &G) -> Result<(), Error> {
    if !matches!(cli.solver, SolverName::Engine | SolverName::Parallel) {
        return Ok(());
    }
    let Some((work, faster)) = game.engine_work() else {
        return Ok(());
    };
    let seconds = work as f64 / ENGINE_MOVES_PER_SECOND;
    let estimate = Duration::from_secs_f64(seconds.min(1e12));
    match cli.time_limit {
        Some(limit) if estimate > limit => Err(Error::TooSlow {
            estimate,
            limit,
            advice: format!("use {faster}"),
        }),
        None if seconds >= 60.0 => {
            let message = format!(
                "the engine will take about {} on this input ({work} moves to value); {faster} \
                 gives the same answer much sooner",
                Error::duration_in_words(estimate)
            );
            super::report::warn(cli.json, &message);
            Ok(())
        }
        _ => Ok(()),
    }
}
