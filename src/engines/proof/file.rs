//! A proof on disk: its questions, their answers and each reply's move as its index among the
//! moves of its state; the states are not written, a reader replays them from the root with
//! the game's `moves` and `play`, so a proof file is small and needs no serialised states.
//!
//! The layout, little-endian: the magic `GSPROOF1`; a label (`u32` length, UTF-8: what the
//! proof is of, as its writer names it); the count of questions (`u64`); then each question:
//! `at_least` (`i64`), its answer (`u8`: 1 if it holds, plus 2 if the game decides the state),
//! its count of replies (`u32`), and each reply's move index and question (`u32` each); a state
//! the game decides then has its value (`i64`), its witness's count of groups (`u32`), and
//! each group's count of moves (`u32`) and each move's index (`u32`). The first question is
//! the root's.

use std::io::{self, Write};

use super::{Proof, ProofNode, Reply};
use crate::game::{Decided, Game, Score};

/// The first bytes of a proof file.
pub const PROOF_MAGIC: &[u8; 8] = b"GSPROOF1";

/// The fewest bytes a question takes (`at_least`, holds, its count of replies).
const QUESTION_BYTES: usize = 8 + 1 + 4;
/// The bytes a reply takes.
const REPLY_BYTES: usize = 4 + 4;

/// A proof of a game of type `G` as [`read_proof`] reads it: its label and the proof.
pub type LabelledProof<G> = (String, Proof<<G as Game>::State, <G as Game>::Move>);

/// A proof file that cannot be read: the byte where it went wrong, and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("byte {offset} of the proof file: {problem}")]
pub struct ProofFileError {
    /// The byte where the file went wrong.
    pub offset: usize,
    /// What was wrong there.
    pub problem: String,
}

impl<S, M> Proof<S, M> {
    /// Writes the proof under `label` (what it is a proof of, in the writer's words: a game
    /// and its position). [`read_proof`] reads it back, given the game and the root's state.
    ///
    /// ```
    /// use gamesolver::check::check_proof;
    /// use gamesolver::engines::{proof, OutcomeRange};
    /// use gamesolver::games::Hex;
    /// use gamesolver::Game;
    ///
    /// let hex = Hex::new(3)?;
    /// let proved = proof::solve(&hex, proof::Options::new().range(OutcomeRange))?;
    /// let mut file = Vec::new();
    /// proved.proofs()[0].write("hex 3", &mut file)?;
    /// let (label, read) = proof::read_proof(&hex, hex.start(), &file)?;
    /// assert_eq!((label.as_str(), &read), ("hex 3", &proved.proofs()[0]));
    /// check_proof(&hex, &read)?; // checked again, against the rules alone
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write(&self, label: &str, out: &mut impl Write) -> io::Result<()> {
        let too_many = || io::Error::new(io::ErrorKind::InvalidInput, "past 2^32 − 1");
        let small = |count: usize| u32::try_from(count).map_err(|_| too_many());
        out.write_all(PROOF_MAGIC)?;
        out.write_all(&small(label.len())?.to_le_bytes())?;
        out.write_all(label.as_bytes())?;
        out.write_all(&(self.nodes.len() as u64).to_le_bytes())?;
        small(self.nodes.len())?;
        for node in &self.nodes {
            out.write_all(&node.at_least.to_le_bytes())?;
            let decided = node.decided.as_ref();
            out.write_all(&[u8::from(node.holds) | u8::from(decided.is_some()) << 1])?;
            out.write_all(&small(node.replies.len())?.to_le_bytes())?;
            for reply in &node.replies {
                out.write_all(&small(reply.index)?.to_le_bytes())?;
                out.write_all(&small(reply.node)?.to_le_bytes())?;
            }
            if let Some(decided) = decided {
                out.write_all(&decided.value.to_le_bytes())?;
                out.write_all(&small(decided.witness.len())?.to_le_bytes())?;
                for group in &decided.witness {
                    out.write_all(&small(group.len())?.to_le_bytes())?;
                    for &index in group {
                        out.write_all(&small(index)?.to_le_bytes())?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// The bytes of a proof file, read from the front.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn fault(&self, problem: impl Into<String>) -> ProofFileError {
        ProofFileError {
            offset: self.at,
            problem: problem.into(),
        }
    }

    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn take(&mut self, count: usize, what: &str) -> Result<&'a [u8], ProofFileError> {
        if self.left() < count {
            return Err(self.fault(format!("the file ends within {what}")));
        }
        let taken = &self.bytes[self.at..self.at + count];
        self.at += count;
        Ok(taken)
    }

    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], ProofFileError> {
        let bytes = self.take(N, what)?;
        Ok(std::array::from_fn(|at| bytes[at]))
    }

    fn u32(&mut self, what: &str) -> Result<u32, ProofFileError> {
        self.array(what).map(u32::from_le_bytes)
    }
}

/// A question as read: its answer, its replies (move index, question), and where it starts.
struct Read {
    at_least: Score,
    holds: bool,
    replies: Vec<(usize, usize)>,
    decided: Option<Decided>,
    offset: usize,
}

/// Reads a proof that [`Proof::write`] wrote: its label, and the proof with each question's
/// state replayed from `root` by `game`'s `moves` and `play`. A file that is cut short, has
/// bytes past its end, names a question or a move that is not there, or holds a question no
/// reply reaches is refused with the byte where it went wrong. Memory follows the file's
/// length: no count is trusted past what the bytes left can hold. Reading checks the file, not
/// the proof: [`check_proof`](crate::check::check_proof) does that.
pub fn read_proof<G: Game>(
    game: &G,
    root: G::State,
    bytes: &[u8],
) -> Result<LabelledProof<G>, ProofFileError> {
    let mut reader = Reader { bytes, at: 0 };
    if reader.take(8, "the magic")? != PROOF_MAGIC {
        reader.at = 0;
        return Err(reader.fault("not a proof file (it does not start with GSPROOF1)"));
    }
    let length = reader.u32("the label's length")? as usize;
    let label = std::str::from_utf8(reader.take(length, "the label")?)
        .map_err(|_| reader.fault("the label is not UTF-8"))?
        .to_string();
    let count = reader
        .array("the count of questions")
        .map(u64::from_le_bytes)?;
    if count == 0 || count > (reader.left() / QUESTION_BYTES) as u64 || count > u64::from(u32::MAX)
    {
        return Err(reader.fault(format!(
            "{count} questions cannot be: the file has room for 1 to {}",
            reader.left() / QUESTION_BYTES
        )));
    }
    let count = count as usize;
    let mut read = Vec::with_capacity(count);
    for question in 0..count {
        let offset = reader.at;
        let at_least = reader.array("a question").map(i64::from_le_bytes)?;
        let answer = reader.array::<1>("a question")?[0];
        if answer > 3 {
            reader.at -= 1;
            return Err(reader.fault(format!(
                "question {question}'s answer is {answer}, not 0 to 3"
            )));
        }
        let holds = answer & 1 == 1;
        let replies = reader.u32("a question")? as usize;
        if replies > reader.left() / REPLY_BYTES {
            return Err(reader.fault(format!(
                "question {question} claims {replies} replies, past what the file holds"
            )));
        }
        let mut list = Vec::with_capacity(replies);
        for _ in 0..replies {
            let index = reader.u32("a reply")? as usize;
            let node = reader.u32("a reply")? as usize;
            if node >= count {
                reader.at -= 4;
                return Err(reader.fault(format!(
                    "a reply of question {question} leads to question {node} of {count}"
                )));
            }
            list.push((index, node));
        }
        let decided = if answer & 2 == 0 {
            None
        } else {
            let value = reader.array("a decided value").map(i64::from_le_bytes)?;
            let groups = reader.u32("a decided value")? as usize;
            if groups > reader.left() / 4 {
                return Err(reader.fault(format!(
                    "question {question}'s witness claims {groups} groups, past what the file \
                     holds"
                )));
            }
            let mut witness = Vec::with_capacity(groups);
            for _ in 0..groups {
                let count = reader.u32("a witness")? as usize;
                if count > reader.left() / 4 {
                    return Err(reader.fault(format!(
                        "question {question}'s witness claims {count} moves, past what the file \
                         holds"
                    )));
                }
                let group = (0..count)
                    .map(|_| reader.u32("a witness").map(|index| index as usize))
                    .collect::<Result<_, _>>()?;
                witness.push(group);
            }
            Some(Decided { value, witness })
        };
        read.push(Read {
            at_least,
            holds,
            replies: list,
            decided,
            offset,
        });
    }
    if reader.left() > 0 {
        return Err(reader.fault(format!("{} bytes after the proof's end", reader.left())));
    }
    replay(game, root, read).map(|proof| (label, proof))
}

/// The proof of the questions `read`, each question's state replayed from `root`: the first
/// reply that reaches a question gives its state (the checker compares the others').
fn replay<G: Game>(
    game: &G,
    root: G::State,
    read: Vec<Read>,
) -> Result<Proof<G::State, G::Move>, ProofFileError> {
    let mut states: Vec<Option<G::State>> = vec![None; read.len()];
    states[0] = Some(root);
    let mut replies: Vec<Vec<Reply<G::Move>>> = read.iter().map(|_| Vec::new()).collect();
    let mut todo = vec![0];
    let mut moves = Vec::new();
    while let Some(question) = todo.pop() {
        let state = states[question]
            .clone()
            .expect("a question is queued with its state");
        moves.clear();
        game.moves_into(&state, &mut moves);
        for &(index, node) in &read[question].replies {
            let Some(mv) = moves.get(index) else {
                return Err(ProofFileError {
                    offset: read[question].offset,
                    problem: format!(
                        "a reply of question {question} plays move {index} of a state with {} moves",
                        moves.len()
                    ),
                });
            };
            if states[node].is_none() {
                states[node] = Some(game.play(&state, mv).next);
                todo.push(node);
            }
            replies[question].push(Reply {
                index,
                mv: mv.clone(),
                node,
            });
        }
    }
    let nodes = read
        .into_iter()
        .zip(states)
        .zip(replies)
        .map(|((question, state), replies)| {
            let state = state.ok_or_else(|| ProofFileError {
                offset: question.offset,
                problem: "a question no reply reaches from the root".to_string(),
            })?;
            Ok(ProofNode {
                state,
                at_least: question.at_least,
                holds: question.holds,
                replies,
                decided: question.decided,
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(Proof { nodes })
}
