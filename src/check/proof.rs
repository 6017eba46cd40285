//! A proof checker: replays a [`Proof`] of the proof search against the game's rules alone.
//!
//! It shares no code with the search: it reads the moves, steps and payoffs of the game, works
//! out for itself which question each move leads to, and trusts nothing the proof says that the
//! rules do not bear out.

use std::fmt;

use crate::engines::proof::Proof;
use crate::game::{Game, Turn};

/// Why a proof is not one: the node at fault and what is wrong there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("proof node {node}: {problem}")]
pub struct ProofError {
    /// The node at fault (0 is the root).
    pub node: usize,
    /// What is wrong, in words.
    pub problem: String,
}

/// Checks that `proof` proves its first node's answer under `game`'s rules: at a question
/// answered yes, the one move named is legal and its question is answered as securing it
/// (yes if the move keeps the turn and asks `at_least − gain`, no if it passes it and asks
/// `gain − at_least + 1`); at a question answered no, every legal move is named once and
/// refuted so; at a state with no move, the payoff bears the answer out; at a state the game
/// decides, the game verifies the value by its witness
/// ([`Game::verify_decided`](crate::Game::verify_decided)); each node's state
/// is the one its move reaches; and no node leads back to itself (a proof must bottom out).
///
/// ```
/// use gamesolver::check::check_proof;
/// use gamesolver::engines::proof::{Options, Prover};
/// use gamesolver::games::Nim;
/// use gamesolver::Game;
///
/// let game = Nim::new(vec![2, 3]).unwrap();
/// let mut prover = Prover::new(&game, Options::new());
/// let mut proof = prover.proof(&game.start(), 1).unwrap(); // the mover wins
/// assert!(check_proof(&game, &proof).is_ok());
/// proof.nodes[0].holds = false; // claim the other answer instead
/// assert!(check_proof(&game, &proof).is_err());
/// ```
pub fn check_proof<G>(game: &G, proof: &Proof<G::State, G::Move>) -> Result<(), ProofError>
where
    G: Game,
    G::State: PartialEq + fmt::Debug,
{
    let fault = |node: usize, problem: String| ProofError { node, problem };
    if proof.nodes.is_empty() {
        return Err(fault(0, "the proof holds no question".to_string()));
    }
    for (id, node) in proof.nodes.iter().enumerate() {
        let moves: Vec<G::Move> = game.moves(&node.state).collect();
        if moves.is_empty() {
            let payoff = game.payoff(&node.state);
            if (payoff >= node.at_least) != node.holds {
                return Err(fault(
                    id,
                    format!(
                        "the state has no move and pays {payoff}, which does not answer 'at \
                         least {}' with {}",
                        node.at_least, node.holds
                    ),
                ));
            }
            if !node.replies.is_empty() || node.decided.is_some() {
                return Err(fault(
                    id,
                    "a state with no move has replies or a decided value".to_string(),
                ));
            }
            continue;
        }
        if let Some(decided) = &node.decided {
            if !node.replies.is_empty() {
                return Err(fault(
                    id,
                    "a state the game decides has replies".to_string(),
                ));
            }
            if let Some(&index) = decided
                .witness
                .iter()
                .flatten()
                .find(|&&index| index >= moves.len())
            {
                return Err(fault(
                    id,
                    format!(
                        "the witness names move {index}, but the state has {} moves",
                        moves.len()
                    ),
                ));
            }
            game.verify_decided(&node.state, decided).map_err(|why| {
                fault(
                    id,
                    format!(
                        "the game does not verify the value {}: {why}",
                        decided.value
                    ),
                )
            })?;
            if (decided.value >= node.at_least) != node.holds {
                return Err(fault(
                    id,
                    format!(
                        "the game decides the value {}, which does not answer 'at least {}' \
                         with {}",
                        decided.value, node.at_least, node.holds
                    ),
                ));
            }
            continue;
        }
        if node.holds && node.replies.len() != 1 {
            return Err(fault(
                id,
                format!(
                    "a question answered yes names {} moves, not one",
                    node.replies.len()
                ),
            ));
        }
        let mut named = vec![false; moves.len()];
        for reply in &node.replies {
            let Some(mv) = moves.get(reply.index) else {
                return Err(fault(
                    id,
                    format!(
                        "move {} is named, but the state has {} moves",
                        reply.index,
                        moves.len()
                    ),
                ));
            };
            if std::mem::replace(&mut named[reply.index], true) {
                return Err(fault(id, format!("move {} is named twice", reply.index)));
            }
            let Some(child) = proof.nodes.get(reply.node) else {
                return Err(fault(id, format!("node {} does not exist", reply.node)));
            };
            let step = game.play(&node.state, mv);
            if child.state != step.next {
                return Err(fault(
                    id,
                    format!(
                        "move {} reaches {:?}, but node {} is {:?}",
                        reply.index, step.next, reply.node, child.state
                    ),
                ));
            }
            // The question the move leads to, and the answer there that secures this one.
            let (asked, secures_if) = match step.turn {
                Turn::Keep => (node.at_least.checked_sub(step.gain), true),
                Turn::Pass => (
                    step.gain
                        .checked_sub(node.at_least)
                        .and_then(|left| left.checked_add(1)),
                    false,
                ),
            };
            let Some(asked) = asked else {
                return Err(fault(id, "a threshold overflows".to_string()));
            };
            if child.at_least != asked {
                return Err(fault(
                    id,
                    format!(
                        "move {} leads to the question 'at least {asked}', but node {} asks \
                         'at least {}'",
                        reply.index, reply.node, child.at_least
                    ),
                ));
            }
            let secures = child.holds == secures_if;
            if secures != node.holds {
                return Err(fault(
                    id,
                    format!(
                        "move {} is answered {} at node {}, which does not bear out {}",
                        reply.index, child.holds, reply.node, node.holds
                    ),
                ));
            }
        }
        if !node.holds
            && let Some(missing) = named.iter().position(|seen| !seen)
        {
            return Err(fault(
                id,
                format!("a question answered no leaves move {missing} unrefuted"),
            ));
        }
    }
    acyclic(proof)
}

/// Checks that no node of `proof` leads back to itself (a proof of a game that may cycle could
/// otherwise argue in a circle), by a depth-first walk with colours, on an explicit stack.
fn acyclic<S, M>(proof: &Proof<S, M>) -> Result<(), ProofError> {
    /// Not yet reached, on the walk's path, or done.
    #[derive(Clone, Copy, PartialEq)]
    enum Colour {
        New,
        Open,
        Done,
    }
    let mut colour = vec![Colour::New; proof.nodes.len()];
    for root in 0..proof.nodes.len() {
        if colour[root] != Colour::New {
            continue;
        }
        let mut path: Vec<(usize, usize)> = vec![(root, 0)];
        colour[root] = Colour::Open;
        while let Some(&mut (node, ref mut next)) = path.last_mut() {
            match proof.nodes[node].replies.get(*next) {
                Some(reply) => {
                    *next += 1;
                    match colour[reply.node] {
                        Colour::Open => {
                            return Err(ProofError {
                                node,
                                problem: format!("node {} leads back to itself", reply.node),
                            });
                        }
                        Colour::New => {
                            colour[reply.node] = Colour::Open;
                            path.push((reply.node, 0));
                        }
                        Colour::Done => {}
                    }
                }
                None => {
                    colour[node] = Colour::Done;
                    path.pop();
                }
            }
        }
    }
    Ok(())
}
