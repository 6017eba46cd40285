//! Which solver `--solver` runs for a game, on which threads, and what the report calls it;
//! and `--explain`, which says so and why without solving: the game's own solver or the tier
//! solver where the command line picks them before any plan, else the library's [`Plan`] and
//! [`Plan::reason`].

use crate::{Engine, Plan};

use super::args::{Cli, SolverName};
use super::model::{Answer, Report};

/// The engine `--solver` names and the threads it may use: `auto` (and `fast`, for a game
/// without a specialised solver) leaves the engine to [`Solver::plan`] and offers it
/// `--threads` (default: every core), which it uses where the game is not known to be small.
pub(super) fn solver_choice(cli: &Cli) -> (Option<Engine>, usize) {
    let cores = threads_or_cores(cli);
    match cli.solver {
        SolverName::Engine => (Some(Engine::Exhaustive), 1),
        SolverName::Parallel => (Some(Engine::Exhaustive), cores),
        SolverName::AlphaBeta => (Some(Engine::Pruning), cli.threads.map_or(1, usize::from)),
        SolverName::Auto | SolverName::Fast => (None, cores),
        SolverName::Tier => (Some(Engine::Tiers), cores),
        SolverName::Proof => (Some(Engine::Proof), 1),
        SolverName::Distributed => unreachable!("the distributed solver is not one of Solver's"),
    }
}

/// The report's names for the solver and table a plan runs.
pub(super) fn names(plan: &Plan) -> (&'static str, &'static str) {
    match (plan.engine, plan.threads, plan.dense) {
        (Engine::Sweep, _, _) => ("sweep", "dense"),
        (Engine::Nimbers, _, _) => ("nimbers", "parts"),
        (Engine::Proof, _, _) => ("proof", "proof-numbers"),
        (Engine::Pruning, 1, _) => ("alphabeta", "hash"),
        (Engine::Pruning, _, _) => ("alphabeta", "sharded"),
        (Engine::Retrograde, _, true) => ("retrograde", "arrays"),
        (Engine::Retrograde, _, false) => ("retrograde", "hash"),
        (Engine::Tiers, _, _) => ("tier", "arrays"),
        (Engine::LoopyTiers, _, _) => ("loopy-tier", "arrays"),
        (_, 1, true) => ("engine", "dense"),
        (_, 1, false) => ("engine", "hash"),
        (_, _, true) => ("parallel", "atomic-dense"),
        (_, _, false) => ("parallel", "sharded"),
    }
}

/// The report of what would run (`solver`, on `table`, on `threads` threads) and `why`;
/// nothing solved.
fn explained(
    cli: &Cli,
    n: usize,
    (solver, table, threads): (&'static str, &'static str, usize),
    why: String,
) -> Report {
    Report {
        n,
        table,
        threads,
        why: Some(why),
        explained: true,
        ..Report::new(cli.game, Answer::Number(0), 0, String::new(), solver)
    }
}

/// The explanation where the command line picks the solver before any plan: the game's
/// specialised solver (`auto` and `fast`), or its tier solver (`auto`, `tier`, `distributed`);
/// `None` where the library's plan decides.
pub(super) fn declared(
    cli: &Cli,
    n: usize,
    engine: &super::registry::Engine,
    tiered: bool,
) -> Option<Report> {
    let threads = threads_or_cores(cli);
    match (engine.fast, engine.tiers) {
        (Some(_), _) if matches!(cli.solver, SolverName::Fast | SolverName::Auto) => {
            Some(explained(
                cli,
                n,
                ("fast", "its own", 1),
                "the game has a specialised exact solver, faster than the engines at every size"
                    .into(),
            ))
        }
        (_, Some(_)) if tiered || cli.solver == SolverName::Auto => Some(explained(
            cli,
            n,
            ("tier", "arrays", threads),
            "the game is layered into tiers, solved tier by tier".into(),
        )),
        _ => None,
    }
}

/// The explanation of the library's plan.
pub(super) fn planned(cli: &Cli, n: usize, plan: &Plan) -> Report {
    let (solver, table) = names(plan);
    explained(cli, n, (solver, table, plan.threads), plan.reason())
}

/// `--threads`, or every core.
pub fn threads_or_cores(cli: &Cli) -> usize {
    cli.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        usize::from,
    )
}
