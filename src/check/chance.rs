//! [`check_chance`]: the checks of a game with [`Chance`] states.

use std::fmt::Debug;
use std::hash::Hash;

use hashbrown::HashMap;

use super::walk::explore;
use super::{CheckOptions, CheckReport, Violation, keep};
use crate::engines::chance::{self, Rational};
use crate::error::SolveError;
use crate::game::{Chance, Turn};

/// [`check`](super::check), plus the [`Chance`] contract on every state met: a chance state's
/// outcomes each have a probability more than 0, the same on every call, and together exactly
/// one. Where the game cannot cycle, the exact expectimax engine's values are compared with a
/// plain expectimax over the literal moves and outcomes in fractions (a recursion with a hash
/// map of its own, each state's value kept once it is whole, and `known_value` not read; the
/// comparison with an unmemoized negamax that [`check`](super::check) makes does not apply: a
/// roll is no player's choice), and so are the game's known values.
///
/// ```
/// use gamesolver::check::{check_chance, CheckOptions};
/// use gamesolver::games::BearOff;
///
/// let game = BearOff::new(3, 2).unwrap();
/// let report = check_chance(&game, &CheckOptions::default());
/// assert!(report.is_ok(), "{report}");
/// assert!(report.values_compared > 0);
/// ```
pub fn check_chance<G>(game: &G, options: &CheckOptions) -> CheckReport<G>
where
    G: Chance,
    G::State: Eq + Hash + Debug,
    G::Move: PartialEq + Debug,
{
    let walk = CheckOptions {
        value_checks: 0,
        ..options.clone()
    };
    let (mut report, states) = explore(game, &walk);
    for state in &states {
        if !game.is_chance(state) {
            continue;
        }
        let outcomes: Vec<G::Move> = game.moves(state).collect();
        let first: Vec<_> = outcomes
            .iter()
            .map(|outcome| game.probability(state, outcome))
            .collect();
        let second: Vec<_> = outcomes
            .iter()
            .map(|outcome| game.probability(state, outcome))
            .collect();
        let problem = if first != second {
            Some(format!(
                "its outcomes' probabilities differ from one call to the next: {first:?}, then \
                 {second:?}"
            ))
        } else {
            match chance::check_probabilities(game, state, first) {
                Err(SolveError::InvalidGame(problem)) => Some(problem),
                _ => None,
            }
        };
        if let Some(problem) = problem {
            keep(
                &mut report.violations,
                Violation::ChanceWrong {
                    state: state.clone(),
                    problem,
                },
            );
        }
    }
    if !options.cyclic && report.stopped.is_none() {
        report.stopped = compare_values(game, options, &states, &mut report).err();
    }
    report
}

/// How many states in a row whose subgame outgrows the node budget end the comparisons: the
/// states come smallest subgame first, so the rest are mostly larger still, and each miss
/// costs up to the whole budget (a game written in Python pays for every node).
const MISSES_IN_A_ROW: usize = 32;

/// Compares the engine's and the known values with a plain expectimax, on the states met last
/// (usually the smallest subgames) whose subgame fits the node budget.
fn compare_values<G>(
    game: &G,
    options: &CheckOptions,
    states: &[G::State],
    report: &mut CheckReport<G>,
) -> Result<(), SolveError>
where
    G: Chance,
    G::State: Eq + Hash + Debug,
    G::Move: PartialEq + Debug,
{
    let mut valuer = chance::Valuer::new(game, options.limits);
    // The reference's values, shared by every comparison: a state's value is searched once.
    let mut known = HashMap::new();
    let mut misses = 0;
    for state in states.iter().rev() {
        if report.values_compared >= options.value_checks || misses == MISSES_IN_A_ROW {
            break;
        }
        let mut budget = options.reference_nodes;
        let Some(reference) = expectation(game, state, &mut budget, 0, &mut known) else {
            misses += 1;
            continue;
        };
        misses = 0;
        report.values_compared += 1;
        if let Some(known) = game.known_value(state)
            && Rational::from_integer(known) != reference
        {
            let violation = Violation::ExpectationWrong {
                state: state.clone(),
                what: "known_value",
                claimed: Rational::from_integer(known),
                reference: reference.clone(),
            };
            keep(&mut report.violations, violation);
        }
        match valuer.value_of(state) {
            Ok(engine) if engine != reference => keep(
                &mut report.violations,
                Violation::ExpectationWrong {
                    state: state.clone(),
                    what: "the expectimax engine",
                    claimed: engine,
                    reference,
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

/// Plain expectimax over the literal moves and outcomes, ignoring `known_value`, in fractions,
/// each whole value kept in `known`; `None` once `budget` new states are spent or the line gets
/// too deep.
fn expectation<G>(
    game: &G,
    state: &G::State,
    budget: &mut usize,
    depth: usize,
    known: &mut HashMap<G::State, Rational>,
) -> Option<Rational>
where
    G: Chance,
    G::State: Eq + Hash,
{
    if let Some(value) = known.get(state) {
        return Some(value.clone());
    }
    if *budget == 0 || depth > super::walk::REFERENCE_DEPTH {
        return None;
    }
    *budget -= 1;
    let moves: Vec<G::Move> = game.moves(state).collect();
    *budget = budget.checked_sub(moves.len())?;
    if moves.is_empty() {
        return Some(Rational::from_integer(game.payoff(state)));
    }
    let chance = game.is_chance(state);
    let mut sum = Rational::from_integer(0);
    let mut best: Option<Rational> = None;
    for mv in &moves {
        let step = game.play(state, mv);
        let child = expectation(game, &step.next, budget, depth + 1, known)?;
        let value = Rational::combine(step.gain, step.turn == Turn::Keep, &child);
        if chance {
            let probability = game.probability(state, mv);
            sum.add_weighted(&Rational::of_probability(probability), &value);
        } else if best.as_ref().is_none_or(|best| value > *best) {
            best = Some(value);
        }
    }
    let value = if chance { sum } else { best.expect("a move") };
    known.insert(state.clone(), value.clone());
    Some(value)
}
