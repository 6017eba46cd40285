//! [`check_impartial`]: the checks of an [`Impartial`] game.

use std::fmt::Debug;
use std::hash::Hash;

use hashbrown::HashMap;

use super::walk::explore;
use super::{CheckOptions, CheckReport, Violation, keep};
use crate::engines::nimbers::{Nimbers, Options};
use crate::error::SolveError;
use crate::game::{Impartial, Nimber, Turn};

/// [`check`](super::check) with the outcome game's gains and payoffs (every gain 0), plus the
/// [`Impartial`] contract on every state met: every move passes the turn, a state with no move
/// pays −1 (normal play: who cannot move loses), and on the states met last (the smallest
/// subgames, within the node budget) the nimber computed over the literal moves *without*
/// splitting (a plain mex with a map of its own) is the XOR of the declared parts' nimbers
/// computed the same way, and the nimber engine's.
///
/// ```
/// use gamesolver::check::{check_impartial, CheckOptions};
/// use gamesolver::games::Cram;
///
/// let game = Cram::new(3, 4).unwrap();
/// let report = check_impartial(&game, &CheckOptions::default());
/// assert!(report.is_ok(), "{report}");
/// assert!(report.values_compared > 0);
/// ```
pub fn check_impartial<G>(game: &G, options: &CheckOptions) -> CheckReport<G>
where
    G: Impartial,
    G::State: Eq + Hash + Debug,
    G::Move: PartialEq + Debug,
{
    let walk = CheckOptions {
        points: Some(0..=0),
        payoffs: Some(-1..=-1),
        ..options.clone()
    };
    let (mut report, states) = explore(game, &walk);
    for state in &states {
        for mv in game.moves(state) {
            if game.play(state, &mv).turn != Turn::Pass {
                keep(
                    &mut report.violations,
                    Violation::NotImpartial {
                        state: state.clone(),
                        problem: format!(
                            "the move {mv:?} keeps the turn; in an impartial game every move \
                             passes it"
                        ),
                    },
                );
            }
        }
    }
    if report.stopped.is_none() && report.violations.is_empty() {
        report.stopped = compare_nimbers(game, options, &states, &mut report).err();
    }
    report
}

/// How many states in a row whose subgame outgrows the node budget end the comparisons.
const MISSES_IN_A_ROW: usize = 32;

/// Compares, on the states met last, the plain nimber with the parts' and the engine's.
fn compare_nimbers<G>(
    game: &G,
    options: &CheckOptions,
    states: &[G::State],
    report: &mut CheckReport<G>,
) -> Result<(), SolveError>
where
    G: Impartial,
    G::State: Eq + Hash + Debug,
    G::Move: PartialEq + Debug,
{
    let mut engine = Nimbers::new(game, Options::new().limits(options.limits));
    let mut known = HashMap::new();
    let mut misses = 0;
    for state in states.iter().rev() {
        if report.values_compared >= options.value_checks || misses == MISSES_IN_A_ROW {
            break;
        }
        let mut budget = options.reference_nodes;
        let Some(whole) = plain_nimber(game, state, &mut budget, 0, &mut known) else {
            misses += 1;
            continue;
        };
        let mut parts = Vec::new();
        game.split(state, &mut parts);
        let mut summed = Some(0);
        for part in &parts {
            summed = summed.and_then(|xor| {
                plain_nimber(game, part, &mut budget, 0, &mut known).map(|nimber| xor ^ nimber)
            });
        }
        let Some(summed) = summed else {
            misses += 1;
            continue;
        };
        misses = 0;
        report.values_compared += 1;
        if summed != whole {
            keep(
                &mut report.violations,
                Violation::NimberWrong {
                    state: state.clone(),
                    what: "the XOR of its declared parts' nimbers",
                    claimed: summed,
                    reference: whole,
                },
            );
            continue;
        }
        match engine.nimber(state) {
            Ok(nimber) if nimber != whole => keep(
                &mut report.violations,
                Violation::NimberWrong {
                    state: state.clone(),
                    what: "the nimber engine",
                    claimed: nimber,
                    reference: whole,
                },
            ),
            Ok(_) => {}
            Err(error @ (SolveError::MemoryBudget { .. } | SolveError::TimeLimit { .. })) => {
                return Err(error);
            }
            Err(error) => keep(
                &mut report.violations,
                Violation::EngineFailed {
                    state: state.clone(),
                    error,
                    reference: None,
                },
            ),
        }
    }
    Ok(())
}

/// The mex of the nimbers of `state`'s options over its literal moves, the state never split,
/// each nimber kept in `known`; `None` once `budget` new states are spent or the line gets too
/// deep.
fn plain_nimber<G>(
    game: &G,
    state: &G::State,
    budget: &mut usize,
    depth: usize,
    known: &mut HashMap<G::State, Nimber>,
) -> Option<Nimber>
where
    G: Impartial,
    G::State: Eq + Hash,
{
    if let Some(&nimber) = known.get(state) {
        return Some(nimber);
    }
    if *budget == 0 || depth > 1_000 {
        return None;
    }
    *budget -= 1;
    let mut seen = Vec::new();
    for mv in game.moves(state) {
        let next = game.play(state, &mv).next;
        seen.push(plain_nimber(game, &next, budget, depth + 1, known)?);
    }
    seen.sort_unstable();
    seen.dedup();
    let nimber = seen
        .iter()
        .enumerate()
        .find(|&(at, &nimber)| nimber != at as Nimber)
        .map_or(seen.len() as Nimber, |(at, _)| at as Nimber);
    known.insert(state.clone(), nimber);
    Some(nimber)
}
