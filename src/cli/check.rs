//! `gamesolver check`: the conformance checker on a bundled game, within the same budget.

use crate::check::CheckOptions;

use super::args::Cli;
use super::budget::{game_bytes, held, limits, read_values};
use super::model::{CheckSummary, Failure};
use super::options::refuse_misplaced_options;

/// Reads the values, builds the game, and runs the conformance checker on it (Stone Game VIII:
/// on both of its models).
pub fn run_check(cli: &Cli) -> Result<CheckSummary, Failure> {
    refuse_misplaced_options(cli)?;
    if cli.batch.is_some() || cli.analyze || cli.save.is_some() || cli.load.is_some() {
        return Err(Failure::Usage(
            "check takes none of --batch, --analyze, --save and --load".into(),
        ));
    }
    let options = |limits| CheckOptions {
        limits,
        ..CheckOptions::default()
    };
    let mut summary = CheckSummary {
        game: cli.game,
        states: 0,
        playouts: 0,
        values_compared: 0,
        reference: "an unmemoized negamax",
        violations: Vec::new(),
    };
    match cli.game.engine() {
        Some(engine) => {
            let values = read_values(cli, limits(cli).memory_budget)?;
            let n = values.len();
            let limits = held(limits(cli), game_bytes(n), || {
                format!("the game's {n} values and their running sums")
            })?;
            (engine.check)(values, &options(limits), &mut summary)?;
        }
        None => {
            let own = cli
                .game
                .own()
                .expect("a game the engines do not solve has its own path");
            (own.check)(cli, &options(limits(cli)), &mut summary)?;
        }
    }
    Ok(summary)
}
