//! Depth-first proof-number search (Nagai's df-pn) on an explicit stack, with Pawlewicz and
//! Lew's 1+ε thresholds.
//!
//! Every node is a question: does the player to move at `state` secure at least `at_least`?
//! The mover answers it by one move, so each question is an OR node over its moves; a move
//! that keeps the turn asks the same player a question (`at_least − gain`), one that passes it
//! asks the opponent whether they secure `gain − at_least + 1`, whose proof refutes the move.
//! A question's proof number is its moves' least, its disproof number their sum; the search
//! goes down the move of least proof number until the question's numbers pass the thresholds it
//! was given, and a child's thresholds are its parent's, narrowed by the second-best move
//! (times 1+ε, so that the search does not hop between two close moves) and by the other
//! moves' disproof numbers.

use std::hash::{BuildHasher, Hash};

use hashbrown::DefaultHashBuilder;

use super::table::{INFINITE, Numbers, ProofTable};
use crate::engines::kernel::{CHECK_EVERY, CYCLE_DEPTH, RunGuard, Stats, buffer_bytes, cycle_on};
use crate::error::SolveError;
use crate::game::{Decided, Game, Score, Step, Turn};

/// The question a move leads to from a question `at_least`, and whether the move passes the
/// turn (then the child's proof refutes the move).
pub(crate) fn child_question<S>(
    step: Step<S>,
    at_least: Score,
) -> Result<(S, Score, bool), SolveError> {
    let asked = match step.turn {
        Turn::Keep => at_least.checked_sub(step.gain),
        Turn::Pass => step
            .gain
            .checked_sub(at_least)
            .and_then(|left| left.checked_add(1)),
    };
    let asked = asked.ok_or(SolveError::ScoreOverflow)?;
    Ok((step.next, asked, step.turn == Turn::Pass))
}

/// A move of an open question: the question it leads to, and that question's numbers.
struct Child<G: Game> {
    state: G::State,
    at_least: Score,
    /// Whether the move passes the turn.
    passes: bool,
    /// The child question's own numbers.
    numbers: Numbers,
}

impl<G: Game> Child<G> {
    /// The numbers of the move: of proving that it secures the parent's question.
    fn for_move(&self) -> Numbers {
        if self.passes {
            self.numbers.swapped()
        } else {
            self.numbers
        }
    }
}

/// An open question on the search's path.
struct Frame<G: Game> {
    state: G::State,
    at_least: Score,
    /// The proof and disproof numbers at which the search of this question returns.
    thresholds: Numbers,
    children: Vec<Child<G>>,
    /// The child searched last.
    searching: usize,
    /// The states expanded before this question was opened.
    expanded_before: u64,
}

impl<G: Game> Frame<G> {
    /// In one pass over the moves: the question's numbers (its moves' least proof number and
    /// the sum of their disproof numbers), the move to search (the least proof number, the
    /// first of equals), and the second least proof number. A question with no move is
    /// settled by the caller before it is opened.
    fn assess(&self) -> (Numbers, usize, u64) {
        let (mut best, mut first, mut second) = (0, INFINITE, INFINITE);
        let mut disproof = 0u64;
        for (at, child) in self.children.iter().enumerate() {
            let numbers = child.for_move();
            disproof = disproof.saturating_add(numbers.disproof).min(INFINITE);
            if numbers.proof < first {
                (best, second, first) = (at, first, numbers.proof);
            } else if numbers.proof < second {
                second = numbers.proof;
            }
        }
        let numbers = Numbers {
            proof: first,
            disproof,
        };
        (numbers, best, second)
    }
}

/// A child's proof threshold from the second-best move's proof number: 1+ε times it (ε = ¼),
/// and at least one more.
fn widened(second: u64) -> u64 {
    if second >= INFINITE {
        INFINITE
    } else {
        (second + 1 + second / 4).min(INFINITE)
    }
}

/// The search: the game, the table, the statistics and the buffers it reuses.
pub(crate) struct Search<'g, G: Game> {
    pub(crate) game: &'g G,
    pub(crate) table: ProofTable<G::State>,
    pub(crate) stats: Stats,
    guard: RunGuard<'static>,
    frames: Vec<Frame<G>>,
    spare: Vec<Vec<Child<G>>>,
    moves: Vec<G::Move>,
    reported: u64,
    hasher: DefaultHashBuilder,
}

impl<'g, G> Search<'g, G>
where
    G: Game,
    G::State: Eq + Hash,
{
    /// A search of `game` with a table of at most `table_bytes`, under `guard`.
    pub(crate) fn new(game: &'g G, table_bytes: u64, guard: RunGuard<'static>) -> Self {
        Search {
            game,
            table: ProofTable::new(table_bytes),
            stats: Stats::default(),
            guard,
            frames: Vec::new(),
            spare: Vec::new(),
            moves: Vec::new(),
            reported: 0,
            hasher: DefaultHashBuilder::default(),
        }
    }

    /// The numbers of a question not yet searched: the table's, else settled by the payoff
    /// where the state has no move or by the game where it decides the state
    /// ([`Game::decided`]), else the game's estimate ([`Game::proof_numbers`]), else 1
    /// to prove (one good move may do) and its number of moves to disprove (every move must
    /// be refuted).
    fn first_numbers(&mut self, state: &G::State, at_least: Score) -> Numbers {
        if let Some(numbers) = self.table.get(state, at_least) {
            self.stats.hits += 1;
            return numbers;
        }
        let mut moves = self.game.moves(state);
        if moves.next().is_none() {
            drop(moves);
            return self.by_payoff(state, at_least);
        }
        if let Some(decided) = self.game.decided(state) {
            // Kept, as the least work there is: a question asked again (its parent opened
            // again) is answered by the table, not by the game's knowledge again.
            let numbers = self.by_decided(&decided, at_least);
            self.table.store(state, at_least, numbers, 1);
            return numbers;
        }
        if let Some((proof, disproof)) = self.game.proof_numbers(state, at_least) {
            // Finite, and not 0: only the search settles a question.
            return Numbers {
                proof: proof.clamp(1, INFINITE - 1),
                disproof: disproof.clamp(1, INFINITE - 1),
            };
        }
        Numbers {
            proof: 1,
            disproof: (1 + moves.count() as u64).min(INFINITE),
        }
    }

    /// The question `at_least` at a state the game decides ([`Game::decided`]), settled by
    /// the value it gives.
    fn by_decided(&mut self, decided: &Decided, at_least: Score) -> Numbers {
        self.stats.known += 1;
        if decided.value >= at_least {
            Numbers::PROVED
        } else {
            Numbers::DISPROVED
        }
    }

    /// The question `(state, at_least)` at a state with no move, settled by its payoff.
    fn by_payoff(&mut self, state: &G::State, at_least: Score) -> Numbers {
        self.stats.terminal += 1;
        if self.game.payoff(state) >= at_least {
            Numbers::PROVED
        } else {
            Numbers::DISPROVED
        }
    }

    /// Opens the question `(state, at_least)` under `thresholds`: its moves and their
    /// numbers. A question with no move is settled at once: its numbers, and no frame.
    fn open(
        &mut self,
        state: G::State,
        at_least: Score,
        thresholds: Numbers,
    ) -> Result<Option<Numbers>, SolveError> {
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        self.game.moves_into(&state, &mut moves);
        if moves.is_empty() {
            self.moves = moves;
            return Ok(Some(self.by_payoff(&state, at_least)));
        }
        if let Some(decided) = self.game.decided(&state) {
            self.moves = moves;
            return Ok(Some(self.by_decided(&decided, at_least)));
        }
        let mut children = self.spare.pop().unwrap_or_default();
        for mv in &moves {
            let (next, asked, passes) = child_question(self.game.play(&state, mv), at_least)?;
            let numbers = self.first_numbers(&next, asked);
            children.push(Child {
                state: next,
                at_least: asked,
                passes,
                numbers,
            });
        }
        self.moves = moves;
        self.stats.expanded += 1;
        self.frames.push(Frame {
            state,
            at_least,
            thresholds,
            children,
            searching: 0,
            expanded_before: self.stats.expanded,
        });
        let depth = self.frames.len();
        let deeper = depth > self.stats.max_depth;
        self.stats.max_depth = self.stats.max_depth.max(depth);
        // A cycle makes the path grow without end: looked for each time the path first
        // reaches a power of two past CYCLE_DEPTH (nothing per node).
        if deeper && depth >= CYCLE_DEPTH && depth.is_power_of_two() {
            let hasher = &self.hasher;
            cycle_on(
                self.game,
                self.frames.iter().map(|frame| &frame.state),
                |state| Some(hasher.hash_one(state)),
                |a, b| a == b,
            )?;
        }
        if self.stats.expanded.is_multiple_of(CHECK_EVERY as u64) {
            self.check()?;
        }
        Ok(None)
    }

    /// The limits: memory (the table and the path), time, cancellation.
    fn check(&mut self) -> Result<(), SolveError> {
        self.check_holding(0)
    }

    /// [`check`](Search::check), with `held` bytes of proofs besides the table and the path.
    pub(crate) fn check_holding(&mut self, held: u64) -> Result<(), SolveError> {
        let path: u64 = buffer_bytes(&self.frames)
            + self
                .frames
                .iter()
                .map(|frame| buffer_bytes(&frame.children))
                .sum::<u64>();
        self.guard.check(
            self.table.bytes().saturating_add(held),
            &mut self.reported,
            path,
            "proof",
            self.table.len(),
            self.frames.len(),
        )
    }

    /// Searches the question `(state, at_least)` until its numbers reach `thresholds` (one of
    /// them), and returns them; with [`INFINITE`] thresholds, until it is settled.
    pub(crate) fn search(
        &mut self,
        state: G::State,
        at_least: Score,
        thresholds: Numbers,
    ) -> Result<Numbers, SolveError> {
        if let Some(numbers) = self.table.get(&state, at_least)
            && numbers.settled()
        {
            self.stats.hits += 1;
            return Ok(numbers);
        }
        if let Some(numbers) = self.open(state, at_least, thresholds)? {
            return Ok(numbers);
        }
        loop {
            let frame = self.frames.last().expect("an open question");
            let (numbers, best, second) = frame.assess();
            if numbers.proof >= frame.thresholds.proof
                || numbers.disproof >= frame.thresholds.disproof
            {
                let mut frame = self.frames.pop().expect("an open question");
                let work = self.stats.expanded - frame.expanded_before + 1;
                self.table
                    .store(&frame.state, frame.at_least, numbers, work);
                frame.children.clear();
                self.spare.push(frame.children);
                let Some(parent) = self.frames.last_mut() else {
                    return Ok(numbers);
                };
                let searching = parent.searching;
                parent.children[searching].numbers = numbers;
                continue;
            }
            let child = &frame.children[best];
            let for_move = child.for_move();
            let thresholds = Numbers {
                proof: frame.thresholds.proof.min(widened(second)),
                disproof: (frame.thresholds.disproof - numbers.disproof + for_move.disproof)
                    .min(INFINITE),
            };
            let thresholds = if child.passes {
                thresholds.swapped()
            } else {
                thresholds
            };
            let (next, asked) = (child.state.clone(), child.at_least);
            self.frames.last_mut().expect("an open question").searching = best;
            if let Some(settled) = self.open(next, asked, thresholds)? {
                let parent = self.frames.last_mut().expect("an open question");
                parent.children[best].numbers = settled;
            }
        }
    }

    /// Whether the player to move at `state` secures at least `at_least`: the question
    /// searched until it is settled.
    pub(crate) fn holds(&mut self, state: &G::State, at_least: Score) -> Result<bool, SolveError> {
        let numbers = self.search(state.clone(), at_least, Numbers::UNBOUNDED)?;
        Ok(numbers.proof == 0)
    }
}
