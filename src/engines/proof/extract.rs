//! A proof read off the search: from a question settled, the move that secures it (a
//! question answered yes) or every move (answered no), down to the states with no move or that
//! the game decides.

use std::hash::Hash;

use hashbrown::HashMap;

use super::search::{Search, child_question};
use super::{Proof, ProofNode, Reply};
use crate::error::SolveError;
use crate::game::{Game, Score};

/// How often, in questions added, the reading checks the limits.
const CHECK_EVERY: usize = 1 << 10;

/// About how many bytes the reading holds per question of a proof with `replies` replies in
/// all: its node, its replies, and its entry in the map that shares questions.
pub(crate) fn proof_bytes<S, M>(questions: usize, replies: usize) -> u64 {
    let node = size_of::<ProofNode<S, M>>() + 2 * size_of::<((S, Score), usize)>();
    (questions as u64)
        .saturating_mul(node as u64)
        .saturating_add((replies as u64).saturating_mul(size_of::<Reply<M>>() as u64))
}

/// The proof that the question `(state, at_least)` is answered `holds`, searching where the
/// table no longer settles a question the proof needs. The questions are shared where lines
/// meet (a proof is a graph without cycles, the root its first node). The proof is held within
/// the memory budget, beside the table and `held` bytes of proofs read before it.
pub(crate) fn proof_of<G>(
    search: &mut Search<'_, G>,
    state: &G::State,
    at_least: Score,
    holds: bool,
    held: u64,
) -> Result<Proof<G::State, G::Move>, SolveError>
where
    G: Game,
    G::State: Eq + Hash,
{
    let game = search.game;
    let mut nodes = vec![ProofNode {
        state: state.clone(),
        at_least,
        holds,
        replies: Vec::new(),
        decided: None,
    }];
    let mut ids: HashMap<(G::State, Score), usize> = HashMap::new();
    ids.insert((state.clone(), at_least), 0);
    let mut todo = vec![0];
    let mut moves = Vec::new();
    let (mut replied, mut checked) = (0, 0);
    while let Some(id) = todo.pop() {
        if nodes.len() >= checked + CHECK_EVERY {
            checked = nodes.len();
            let bytes = proof_bytes::<G::State, G::Move>(nodes.len(), replied);
            search.check_holding(held.saturating_add(bytes))?;
        }
        let (state, at_least, holds) = {
            let node = &nodes[id];
            (node.state.clone(), node.at_least, node.holds)
        };
        moves.clear();
        game.moves_into(&state, &mut moves);
        // A state the game decides ends the proof there, as it ended the search.
        if !moves.is_empty()
            && let Some(decided) = game.decided(&state)
        {
            if (decided.value >= at_least) != holds {
                return Err(unsettled());
            }
            replied += decided.witness_len();
            nodes[id].decided = Some(decided);
            continue;
        }
        // A question answered yes needs one move that secures it: first one the table
        // already settles, else the first the search finds. One answered no needs every move.
        let mut chosen: Vec<(usize, G::State, Score, bool)> = Vec::new();
        let tries: &[bool] = if holds { &[true, false] } else { &[false] };
        for &only_table in tries {
            for (index, mv) in moves.iter().enumerate() {
                let (next, asked, passes) = child_question(game.play(&state, mv), at_least)?;
                let answer = if only_table {
                    match search.table.get(&next, asked) {
                        Some(numbers) if numbers.settled() => numbers.proof == 0,
                        _ => continue,
                    }
                } else {
                    search.holds(&next, asked)?
                };
                // The move secures the question if its question is answered yes and it keeps
                // the turn, or answered no and it passes it.
                let secures = answer != passes;
                if secures != holds {
                    if !holds {
                        return Err(unsettled());
                    }
                    continue;
                }
                chosen.push((index, next, asked, answer));
                if holds {
                    break;
                }
            }
            if !chosen.is_empty() {
                break;
            }
        }
        let complete = if holds {
            chosen.len() == 1 || moves.is_empty()
        } else {
            chosen.len() == moves.len()
        };
        if !complete {
            return Err(unsettled());
        }
        let mut replies = Vec::with_capacity(chosen.len());
        for (index, next, asked, answer) in chosen {
            let node = *ids.entry((next.clone(), asked)).or_insert_with(|| {
                nodes.push(ProofNode {
                    state: next,
                    at_least: asked,
                    holds: answer,
                    replies: Vec::new(),
                    decided: None,
                });
                todo.push(nodes.len() - 1);
                nodes.len() - 1
            });
            replies.push(Reply {
                index,
                mv: moves[index].clone(),
                node,
            });
        }
        replied += replies.len();
        nodes[id].replies = replies;
    }
    Ok(Proof { nodes })
}

/// A question whose moves do not bear out its answer: the search and its reading disagree,
/// which is a bug in the engine (or a game whose `moves` or `play` are not deterministic).
fn unsettled() -> SolveError {
    SolveError::Unsupported(
        "proof search: a question's moves do not bear out the answer the search gave it (is \
         the game's `moves` or `play` deterministic? `gamesolver::check` tells)"
            .to_string(),
    )
}
