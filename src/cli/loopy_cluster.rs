//! `--solver distributed` for a game the loopy tier solver solves (Quixo, Six Men's Morris):
//! its tiers by value iteration on timely dataflow, with the workers and processes of
//! `--workers`, `--processes`, `--process` and `--hostfile`; with `--save FILE` (and
//! `--resume`), the process with worker 0 writes each tier to the tier file as it completes.

use std::hash::Hash;
use std::sync::Arc;

use crate::Limits;
use crate::engines::Stats;
use crate::engines::tiers::KeepTiers;
use crate::engines::tiers::loopy::{self, BySymmetry, Classes, EveryState};
use crate::game::declaration::{OnSymmetry, visit_symmetry};
use crate::game::{Symmetry, Tiered};

use super::args::Cli;
use super::engines::{EngineRun, presented, withhold_line};
use super::model::{Failure, Report};
use super::present::Presented;

/// Solves `game` (of `values`) by the loopy tier solver on timely: the process that hosts
/// worker 0 reports the outcome, the remoteness and the line (every tier kept where they fit
/// the budget), and with `--save` writes the tier file; the others say on stderr what they
/// did.
pub(crate) fn loopy_report<G>(
    cli: &Cli,
    game: G,
    values: &[i64],
    limits: Limits,
) -> Result<Report, Failure>
where
    G: Presented + Tiered + Send + Sync + 'static,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    let save = cli.tier_save(values);
    let game = Arc::new(game);
    let declared = game.capabilities();
    let run = Run {
        cli,
        game: Arc::clone(&game),
        n: values.len(),
        limits,
        save,
    };
    visit_symmetry(&declared, run)
}

/// The solve, before its classes are known.
struct Run<'a, G> {
    cli: &'a Cli,
    game: Arc<G>,
    n: usize,
    limits: Limits,
    /// The tier file to write, if any.
    save: Option<loopy::Save>,
}

impl<G> OnSymmetry<G> for Run<'_, G>
where
    G: Presented + Tiered + Send + Sync + 'static,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    type Output = Result<Report, Failure>;

    fn declared(self) -> Self::Output
    where
        G: Symmetry,
    {
        self.by(BySymmetry)
    }

    fn undeclared(self) -> Self::Output {
        self.by(EveryState)
    }
}

impl<G> Run<'_, G>
where
    G: Presented + Tiered + Send + Sync + 'static,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    fn by<C: Classes<G> + Clone + 'static>(self, classes: C) -> Result<Report, Failure> {
        let Run {
            cli,
            game,
            n,
            limits,
            save,
        } = self;
        let config = super::cluster::config(cli)?;
        // Every tier where they fit (the line), else the tiers still needed.
        let from = game.tier(&game.start());
        let keep = match loopy::peak_bytes(&*game, from, KeepTiers::All) <= limits.memory_budget {
            true => KeepTiers::All,
            false => KeepTiers::Needed,
        };
        let options = loopy::Options::new().limits(limits).keep(keep);
        let shared = Arc::clone(&game);
        let chosen = classes.clone();
        let solved = super::cluster::stdout_to_stderr(|| match &save {
            Some(save) => loopy::distributed::solve_saving(shared, chosen, config, options, save),
            None => loopy::distributed::solve(shared, chosen, config, options),
        })?;
        let (workers, own, elapsed) = (solved.workers, solved.stats, solved.elapsed);
        let mut did = format!(
            "this process's workers valued {} states and looked at {} moves, in {:.3} s",
            own.states,
            own.moves,
            elapsed.as_secs_f64()
        );
        if own.resumed > 0 {
            did.push_str(&format!(
                " ({} tiers read back from the tier file, {} solved)",
                own.resumed, own.tiers
            ));
        }
        let Some(solution) = solved.into_solution(&*game, classes) else {
            return Ok(Report {
                helper: Some(format!(
                    "{did}; the process with worker 0 prints the answer"
                )),
                ..super::solve::distributed_shell(cli, &*game, n, 0)
            });
        };
        let line = solution.line();
        let remoteness = solution.remoteness();
        let short = match remoteness {
            Some(moves) => moves as usize != line.len(),
            None => line.is_empty() && game.moves(&game.start()).next().is_some(),
        };
        let run = EngineRun {
            value: solution.outcome().value(),
            line,
            solver: "distributed",
            table: "timely",
            threads: workers,
            stats: Stats {
                stored: usize::try_from(own.states).unwrap_or(usize::MAX),
                expanded: own.moves,
                max_depth: own.tiers,
                elapsed,
                ..Stats::default()
            },
            analysis: None,
            held: 0,
            swift: true,
            nimber: None,
        };
        let mut report = presented(cli, &*game, n, run, limits)?;
        if short {
            withhold_line(&mut report, &*game, remoteness);
        }
        report.notes.push(format!(
            "Solved by {workers} timely workers, tier by tier by value iteration, every worker \
             holding the tiers' codes. Of them, {did}."
        ));
        if let Some(save) = &save {
            report.notes.push(format!(
                "Every tier is in the tier file {} (analyze --load and play --load answer from \
                 it).",
                save.path.display()
            ));
        }
        Ok(report)
    }
}
