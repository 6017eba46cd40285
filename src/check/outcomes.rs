//! [`check_outcome`](super::check_outcome)'s comparison: every reachable state's outcome by
//! the retrograde solver against this checker's own iteration, and the game's knowledge
//! (`decided`) against both.

use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::Hash;

use super::{CheckOptions, CheckReport, Violation, keep};
use crate::game::{Game, Turn};

/// [`check_outcome`]'s comparison, after a walk that found no violation: every reachable state's
/// outcome and remoteness by the retrograde solver against value iteration, if they number at
/// most `options.max_states`.
pub(crate) fn compare_outcomes<G>(game: &G, options: &CheckOptions, report: &mut CheckReport<G>)
where
    G: Game,
    G::State: Eq + Hash + Debug,
    G::Move: PartialEq + Debug,
{
    if report.stopped.is_some() || !report.violations.is_empty() {
        return;
    }
    let solved = match crate::engines::retrograde::solve(
        game,
        crate::engines::retrograde::HashIds::new(),
        crate::engines::retrograde::Options::new().limits(options.limits),
    ) {
        Ok(solved) => solved,
        Err(error) => {
            report.stopped = Some(error);
            return;
        }
    };
    if solved.states() > options.max_states {
        return;
    }
    // The reachable states and their moves, by this checker's own walk.
    let mut index: HashMap<G::State, usize> = HashMap::new();
    let mut states = vec![game.start()];
    index.insert(game.start(), 0);
    let mut edges: Vec<Vec<(usize, bool)>> = Vec::new();
    let mut moves = Vec::new();
    let mut at = 0;
    while at < states.len() {
        moves.clear();
        game.moves_into(&states[at], &mut moves);
        let mut out = Vec::with_capacity(moves.len());
        for mv in &moves {
            let step = game.play(&states[at], mv);
            let next = match index.get(&step.next) {
                Some(&next) => next,
                None => {
                    states.push(step.next.clone());
                    index.insert(step.next, states.len() - 1);
                    states.len() - 1
                }
            };
            out.push((next, step.turn == Turn::Keep));
        }
        edges.push(out);
        at += 1;
    }
    use crate::engines::retrograde::Outcome;
    let mut decided: Vec<Option<(Outcome, u32)>> = states
        .iter()
        .zip(&edges)
        .map(|(state, out)| match (out.is_empty(), game.payoff(state)) {
            (true, 1) => Some((Outcome::Win, 0)),
            (true, -1) => Some((Outcome::Loss, 0)),
            _ => None,
        })
        .collect();
    for round in 1.. {
        let before = decided.clone();
        for (state, out) in edges.iter().enumerate() {
            if before[state].is_some() || out.is_empty() {
                continue;
            }
            let seen = |&(next, keep): &(usize, bool)| {
                before[next].map(|(outcome, _)| if keep { outcome } else { outcome.flipped() })
            };
            if out.iter().any(|edge| seen(edge) == Some(Outcome::Win)) {
                decided[state] = Some((Outcome::Win, round));
            } else if out.iter().all(|edge| seen(edge) == Some(Outcome::Loss)) {
                decided[state] = Some((Outcome::Loss, round));
            }
        }
        if decided == before {
            break;
        }
    }
    for ((state, value), out) in states.into_iter().zip(decided).zip(&edges) {
        let iteration = value.map_or((Outcome::Draw, None), |(outcome, r)| (outcome, Some(r)));
        // The game's knowledge (`decided`, for proof search) against the iteration's outcome,
        // and its witness against the game's own verifier.
        if let Some(known) = (!out.is_empty()).then(|| game.decided(&state)).flatten() {
            let actual = match iteration.0 {
                Outcome::Win => 1,
                Outcome::Loss => -1,
                Outcome::Draw => 0,
            };
            let refused = game.verify_decided(&state, &known).err();
            if known.value != actual || refused.is_some() {
                keep(
                    &mut report.violations,
                    Violation::DecidedWrong {
                        state: state.clone(),
                        claimed: known.value,
                        actual: i128::from(actual),
                        refused,
                    },
                );
            }
        }
        let retrograde = solved.outcome_of(&state);
        report.values_compared += 1;
        if retrograde != Some(iteration) {
            keep(
                &mut report.violations,
                Violation::OutcomeDisagrees {
                    retrograde: retrograde.unwrap_or((Outcome::Draw, None)),
                    state,
                    iteration,
                },
            );
        }
    }
}
