//! Proof-number search: one position's value by depth-first proof-number search (df-pn), with
//! a proof that anyone can check.
//!
//! The pruning engine ([`pruning`](crate::engines::pruning)) proves a value as fast as its
//! move order finds the best line. Proof-number search instead expands next the position that
//! is cheapest to prove or disprove: where wins are narrow and the tree wide (Hex, the
//! k-in-a-row games, mating problems) it goes straight down the forcing lines. This is Nagai's
//! depth-first form (df-pn), on an explicit stack (no depth limit), with Pawlewicz and Lew's
//! 1+ε thresholds, and a table of proof and disproof numbers that replaces by work when full:
//! a full table costs time, never a wrong answer, and answers never depend on its size.
//!
//! Every node is a question, "does the player to move here secure at least `t`?", so a game's
//! points and extra turns need nothing special: a move that keeps the turn asks the same player
//! for `t − gain`, one that passes it asks the opponent whether they secure `gain − t + 1`. A
//! win is `t = 1`; a draw is two questions (`t = 0` holds, `t = 1` does not); an exact value
//! is found by asking thresholds (an outcome game's values are −1, 0 and 1).
//!
//! - [`Prover`] answers questions about any state, and hands out a [`Proof`] of each answer.
//! - [`solve`] values the start and proves it: the mover secures the value and no more.
//! - [`check_proof`](crate::check::check_proof) replays a proof against the rules alone,
//!   sharing no code with the search.
//! - [`Proof::write`] saves a proof (a few bytes a question: the states are replayed, not
//!   written) and [`read_proof`] reads it back, to be checked later or elsewhere.
//!
//! The game must not cycle (a cycle is found and refused with [`SolveError::Cycle`]; an outcome
//! game whose play cycles goes to [`retrograde`](crate::engines::retrograde)).
//!
//! ```
//! use gamesolver::check::check_proof;
//! use gamesolver::engines::proof;
//! use gamesolver::games::TicTacToe;
//!
//! let game = TicTacToe;
//! let proved = proof::solve(&game, proof::Options::new()).unwrap();
//! assert_eq!(proved.value(), 0); // a draw: X secures 0 …
//! let [secures, no_more] = proved.proofs() else { panic!("a draw needs two proofs") };
//! assert!(secures.nodes[0].holds && !no_more.nodes[0].holds); // … and not 1
//! check_proof(&game, secures).unwrap();
//! check_proof(&game, no_more).unwrap();
//! ```

mod extract;
mod file;
mod search;
mod table;

pub use file::{LabelledProof, PROOF_MAGIC, ProofFileError, read_proof};

use std::hash::Hash;
use std::time::Instant;

use super::kernel::{
    AnyValue, DeclaredRange, Limits, MoveValue, Ply, RangeSource, RunGuard, Stats, valued_moves,
};
use crate::error::SolveError;
use crate::game::{Decided, Declares, Game, Player, Score};
use search::{Search, child_question};

/// The proof search's options: the limits, the table's size, and where the values a state
/// may have come from (they bracket the thresholds [`Prover::value_of`] asks; the search and
/// its proofs use the rules alone).
///
/// ```
/// use gamesolver::{engines::proof, Limits};
///
/// let options = proof::Options::new().table_bytes(1 << 20).limits(Limits::unlimited()).ranged();
/// assert_eq!(options.table_bytes, Some(1 << 20));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Options<R = AnyValue> {
    /// The memory budget (the table and the search's path) and the time limit.
    pub limits: Limits,
    /// The most bytes the table may hold before it replaces entries; `None`: half the memory
    /// budget, and at most [`DEFAULT_TABLE_BYTES`].
    pub table_bytes: Option<u64>,
    /// Where a state's possible values come from.
    pub range: R,
}

/// The table's size where the options do not set it: 1 GiB (or half the budget, if less).
pub const DEFAULT_TABLE_BYTES: u64 = 1 << 30;

impl Options<AnyValue> {
    /// The default limits and table, and no range: any value is possible.
    pub fn new() -> Self {
        Options {
            limits: Limits::default(),
            table_bytes: None,
            range: AnyValue,
        }
    }
}

impl<R> Options<R> {
    /// Uses `limits`.
    pub fn limits(self, limits: Limits) -> Self {
        Options { limits, ..self }
    }

    /// Holds at most `bytes` in the table, replacing entries past that.
    pub fn table_bytes(self, bytes: u64) -> Self {
        Options {
            table_bytes: Some(bytes),
            ..self
        }
    }

    /// Takes a state's possible values from `range` ([`OutcomeRange`](crate::engines::OutcomeRange)
    /// for an outcome game: −1 to 1).
    pub fn range<S>(self, range: S) -> Options<S> {
        Options {
            limits: self.limits,
            table_bytes: self.table_bytes,
            range,
        }
    }

    /// Takes a state's possible values from the game's [`ValueRange`](crate::ValueRange).
    pub fn ranged(self) -> Options<DeclaredRange> {
        self.range(DeclaredRange)
    }

    /// The table's limit in bytes.
    fn table_limit(&self) -> u64 {
        self.table_bytes
            .unwrap_or((self.limits.memory_budget / 2).min(DEFAULT_TABLE_BYTES))
    }
}

impl Default for Options<AnyValue> {
    fn default() -> Self {
        Options::new()
    }
}

/// A proof: questions and their answers, each answer borne out by the moves. A question
/// answered yes names one move that secures it; one answered no, every move, each refuted. A
/// question with no move is answered by the game's payoff, one the game decides
/// ([`Game::decided`]) by the value and witness it gives. The first node is the question
/// proved; nodes are shared where lines meet, so the proof is a graph without cycles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proof<S, M> {
    /// The questions, the one proved first.
    pub nodes: Vec<ProofNode<S, M>>,
}

/// One question of a [`Proof`]: does the player to move at `state` secure at least `at_least`?
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofNode<S, M> {
    /// The state.
    pub state: S,
    /// The value asked: the mover's points from here on, at least this.
    pub at_least: Score,
    /// The answer.
    pub holds: bool,
    /// The moves that bear the answer out: one if it holds (none at a state without moves or
    /// one the game decides), every move of the state if it does not.
    pub replies: Vec<Reply<M>>,
    /// Where the game decided the state without search ([`Game::decided`]): its value and
    /// witness, which bear the answer out in place of replies.
    pub decided: Option<Decided>,
}

/// A move of a [`ProofNode`] and the question it leads to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply<M> {
    /// The move's place among the state's moves, in the order [`Game::moves`] gives them.
    pub index: usize,
    /// The move.
    pub mv: M,
    /// The node of the question the move leads to.
    pub node: usize,
}

impl<S, M> Proof<S, M> {
    /// How many questions the proof holds.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// About how many bytes the proof holds.
    fn bytes(&self) -> u64 {
        let replies = self
            .nodes
            .iter()
            .map(|node| node.replies.len() + node.decided.as_ref().map_or(0, Decided::witness_len))
            .sum();
        extract::proof_bytes::<S, M>(self.nodes.len(), replies)
    }

    /// Whether the proof holds no question (never, for a proof the search gave).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

/// The proof search with its table: answers questions about any state of the game.
///
/// ```
/// use gamesolver::engines::proof::{Options, Prover};
/// use gamesolver::games::Nim;
/// use gamesolver::Game;
///
/// let game = Nim::new(vec![1, 2, 3]).unwrap(); // nim sum 0: the mover loses
/// let mut prover = Prover::new(&game, Options::new());
/// assert!(!prover.holds(&game.start(), 1).unwrap());
/// assert_eq!(prover.value_of(&game.start()).unwrap(), -1);
/// ```
pub struct Prover<'g, G: Game, R = AnyValue> {
    search: Search<'g, G>,
    range: R,
    outcomes: bool,
}

impl<'g, G, R> Prover<'g, G, R>
where
    G: Game,
    G::State: Eq + Hash,
    R: RangeSource<G>,
{
    /// A prover of `game` under `options`, with an empty table.
    pub fn new(game: &'g G, options: Options<R>) -> Self {
        let guard = RunGuard::new(options.limits, None);
        Prover {
            search: Search::new(game, options.table_limit(), guard),
            range: options.range,
            outcomes: game.capabilities().outcome_game(),
        }
    }

    /// Whether the player to move at `state` secures at least `at_least` (with `1`: whether
    /// they win an outcome game).
    pub fn holds(&mut self, state: &G::State, at_least: Score) -> Result<bool, SolveError> {
        let started = Instant::now();
        let holds = self.search.holds(state, at_least);
        self.search.stats.elapsed += started.elapsed();
        holds
    }

    /// The value of `state` for the player to move, found by asking thresholds within the
    /// range the options give: 1 first (a win, where wins are what is asked), then up or down
    /// by doubling steps while the range is wide, then by halving (an outcome game asks 1, then
    /// 0 if 1 did not hold).
    pub fn value_of(&mut self, state: &G::State) -> Result<Score, SolveError> {
        let (low, high) = self.range.range(self.search.game, state);
        // The value holds at `yes` and not at `no` (i128: `high + 1` may pass `Score::MAX`).
        let (mut yes, mut no) = (i128::from(low), i128::from(high) + 1);
        let ask = |prover: &mut Self, at: i128| {
            let at = Score::try_from(at).expect("a threshold within the range");
            prover.holds(state, at)
        };
        if yes < 1 && 1 < no {
            // 1 first, then doubling steps away from it (up if it held, down if not) while the
            // bracket is wide, until a probe answers the other way.
            let up = ask(self, 1)?;
            if up {
                yes = 1;
            } else {
                no = 1;
            }
            let mut step = 1i128;
            while no - yes > 16 {
                let probe = if up { yes + step } else { no - step };
                if probe <= yes || probe >= no {
                    break;
                }
                let holds = ask(self, probe)?;
                if holds {
                    yes = probe;
                } else {
                    no = probe;
                }
                if holds != up {
                    break;
                }
                step *= 2;
            }
        }
        while no - yes > 1 {
            let middle = yes + (no - yes) / 2;
            if ask(self, middle)? {
                yes = middle;
            } else {
                no = middle;
            }
        }
        Ok(Score::try_from(yes).expect("a value within the range"))
    }

    /// A proof of the answer to "does the player to move at `state` secure at least
    /// `at_least`?", whichever it is.
    pub fn proof(
        &mut self,
        state: &G::State,
        at_least: Score,
    ) -> Result<Proof<G::State, G::Move>, SolveError> {
        self.proof_beside(state, at_least, 0)
    }

    /// [`proof`](Prover::proof), held within the memory budget beside `held` bytes of proofs
    /// read before it.
    fn proof_beside(
        &mut self,
        state: &G::State,
        at_least: Score,
        held: u64,
    ) -> Result<Proof<G::State, G::Move>, SolveError> {
        let holds = self.holds(state, at_least)?;
        let started = Instant::now();
        let proof = extract::proof_of(&mut self.search, state, at_least, holds, held);
        self.search.stats.elapsed += started.elapsed();
        proof
    }

    /// What the search has done: questions expanded (`expanded`), table hits, states without
    /// moves met, the deepest path, entries held (`stored`), and the time.
    pub fn stats(&self) -> Stats {
        Stats {
            stored: self.search.table.len(),
            ..self.search.stats
        }
    }

    /// Entries the table dropped to make room (0 while it was never full).
    pub fn dropped(&self) -> u64 {
        self.search.table.dropped
    }
}

/// The start's value, proved, and the prover that proved it, which answers more questions
/// (any state's value, every move's, an optimal line) with the same table.
/// [`proofs`](Proved::proofs) hold the proof that the first player secures the value (unless
/// it is the least the range allows) and the proof that they do not secure one more (unless it
/// is the most).
pub struct Proved<'g, G: Game, R = AnyValue> {
    prover: Prover<'g, G, R>,
    start: G::State,
    value: Score,
    proofs: Vec<Proof<G::State, G::Move>>,
}

impl<'g, G, R> Proved<'g, G, R>
where
    G: Game,
    G::State: Eq + Hash,
    R: RangeSource<G>,
{
    /// The value for the first player.
    pub fn value(&self) -> Score {
        self.value
    }

    /// The state the solve started from.
    pub fn start(&self) -> &G::State {
        &self.start
    }

    /// The proof that the first player secures [`value`](Proved::value), then the proof that
    /// they do not secure one more; either is left out where the range decides it (the value
    /// is the range's least, or its most).
    pub fn proofs(&self) -> &[Proof<G::State, G::Move>] {
        &self.proofs
    }

    /// What the search did (the proofs' reading and later queries included).
    pub fn stats(&self) -> Stats {
        self.prover.stats()
    }

    /// Entries the table dropped to make room.
    pub fn dropped(&self) -> u64 {
        self.prover.dropped()
    }

    /// Whether the game declares itself an outcome game (its values are −1, 0 and 1).
    pub fn outcome_game(&self) -> bool {
        self.prover.outcomes
    }

    /// The value of any state for its side to move.
    pub fn value_of(&mut self, state: &G::State) -> Result<Score, SolveError> {
        self.prover.value_of(state)
    }

    /// Every move of `state` with its value for the mover, in the game's move order.
    pub fn move_values(&mut self, state: &G::State) -> Result<Vec<MoveValue<G>>, SolveError> {
        valued_moves(self.prover.search.game, state, |next| {
            self.prover.value_of(next)
        })
    }

    /// The optimal line from the start: at each state, the first move in the game's order
    /// that keeps its value (one question a move tried: does it secure the value?).
    pub fn line(&mut self) -> Result<Vec<Ply<G>>, SolveError> {
        let game = self.prover.search.game;
        let (mut state, mut value) = (self.start.clone(), self.value);
        let mut player = Player::First;
        let mut line = Vec::new();
        let mut moves = Vec::new();
        loop {
            moves.clear();
            game.moves_into(&state, &mut moves);
            let mut kept = None;
            for mv in &moves {
                let step = game.play(&state, mv);
                let (gain, turn) = (step.gain, step.turn);
                // The move keeps `value` if the mover secures it through the move.
                let (next, at_least, passes) = child_question(step, value)?;
                if self.prover.holds(&next, at_least)? != passes {
                    kept = Some((mv.clone(), gain, turn, next, at_least, passes));
                    break;
                }
            }
            let Some((mv, gain, turn, next, at_least, passes)) = kept else {
                return Ok(line);
            };
            line.push(Ply {
                player,
                state,
                mv,
                gain,
                turn,
                value,
            });
            player = player.after(turn);
            value = if passes { at_least - 1 } else { at_least };
            state = next;
        }
    }
}

impl<G: Game, R> std::fmt::Debug for Proved<'_, G, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Proved")
            .field("value", &self.value)
            .field(
                "proof_nodes",
                &self.proofs.iter().map(Proof::len).collect::<Vec<_>>(),
            )
            .field("stats", &self.prover.search.stats)
            .finish_non_exhaustive()
    }
}

/// Values the start of `game` and proves it.
pub fn solve<G, R>(game: &G, options: Options<R>) -> Result<Proved<'_, G, R>, SolveError>
where
    G: Game,
    G::State: Eq + Hash,
    R: RangeSource<G>,
{
    if game.capabilities().may_cycle() {
        return Err(SolveError::Unsupported(
            "proof search needs a game without cycles; this one declares that its play may \
             cycle (retrograde analysis solves it)"
                .to_string(),
        ));
    }
    let mut prover = Prover::new(game, options);
    let start = game.start();
    let value = prover.value_of(&start)?;
    // What the range already says needs no proof: a value at its bottom is secured, one at its
    // top cannot be passed (an outcome game's win is one proof, its loss one, its draw two).
    let (low, high) = prover.range.range(game, &start);
    let mut proofs = Vec::with_capacity(2);
    if value > low {
        proofs.push(prover.proof(&start, value)?);
    }
    if value < high {
        let above = value.checked_add(1).ok_or(SolveError::ScoreOverflow)?;
        let held = proofs.iter().map(Proof::bytes).sum();
        proofs.push(prover.proof_beside(&start, above, held)?);
    }
    Ok(Proved {
        prover,
        start,
        value,
        proofs,
    })
}
