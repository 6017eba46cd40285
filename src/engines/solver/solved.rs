//! One result trait for every engine: [`Solved`], and the engines' results behind it.

use std::hash::Hash;

use super::Engine;
use crate::engines::kernel::{MoveValue, Ply, RangeSource, Stats, best_of};
use crate::engines::proof::Proved;
use crate::engines::pruning::Pruned;
use crate::engines::retrograde::{Outcome, Retrograde, StateIds};
use crate::engines::tiers::loopy::{Classes, LoopySolution};
use crate::engines::{exhaustive::Solution, tiers::TierSolution};
use crate::error::SolveError;
use crate::game::{Game, Nimber, Score, Tiered};
use crate::memo::{BoundTable, MemoTable, SlotValues};

/// A boxed result, or why there is none.
pub(super) type Boxed<'g, G> = Result<Box<dyn Solved<G> + 'g>, SolveError>;

/// A solved game, whichever engine solved it: the questions every result answers.
///
/// [`Solver::solve`](crate::Solver::solve) returns one ([`Answer`](crate::Answer)); each engine's own result
/// ([`Solution`], [`Pruned`](crate::engines::pruning::Pruned), [`Retrograde`], [`TierSolution`]) implements it
/// too. Queries take `&mut self` because the exhaustive and pruning engines answer a question
/// about a state the solve did not need by searching further; every answer is exact.
///
/// ```
/// use gamesolver::{games::Nim, Solved, Solver};
///
/// let game = Nim::new(vec![1, 2])?;
/// let mut solved = Solver::new(&game).solve()?;
/// assert_eq!(solved.value(), 1); // 1 ^ 2 ≠ 0: the first player wins
/// let start = solved.start().clone();
/// assert_eq!(solved.best_moves(&start)?.len(), 1); // only taking one from the 2-heap wins
/// assert_eq!(solved.line()?.len(), 3);
/// # Ok::<(), gamesolver::Error>(())
/// ```
pub trait Solved<G: Game, V: PartialOrd + Clone = Score> {
    /// The engine that solved the game.
    fn engine(&self) -> Engine;

    /// The start's value for the first player: `first's points − second's points` under
    /// perfect play (+1, 0, −1 for a win, draw or loss in an outcome game).
    fn value(&self) -> V;

    /// The state the solve started from.
    fn start(&self) -> &G::State;

    /// The exact value of any state for its side to move. The exhaustive and pruning engines
    /// search if they must; retrograde analysis answers for the states reachable from the
    /// start, the tier solver for the tiers it kept ([`SolveError::Unanswerable`] otherwise).
    fn value_of(&mut self, state: &G::State) -> Result<V, SolveError>;

    /// Every move of `state` with its exact value for the mover, in the game's move order.
    fn move_values(&mut self, state: &G::State) -> Result<Vec<MoveValue<G, V>>, SolveError>;

    /// The moves of `state` that reach its value, in the game's move order (none for a final
    /// state).
    fn best_moves(&mut self, state: &G::State) -> Result<Vec<G::Move>, SolveError> {
        Ok(best_of(self.move_values(state)?))
    }

    /// The optimal line of play from the start (at each state, the first move in the game's
    /// order that keeps the value; retrograde analysis follows the fastest win and the slowest
    /// loss instead).
    fn line(&mut self) -> Result<Vec<Ply<G, V>>, SolveError>;

    /// The optimal line in which the side ahead ends the game as soon as it can and the side
    /// behind as late as it can (ties by the game's move order), if finding it values at most
    /// `moves` moves; `None` past that, or from an engine that does not measure remoteness
    /// (pruning, tiers). Retrograde analysis's [`line`](Solved::line) is this line already.
    fn swift_line_within(&mut self, moves: usize) -> Result<Option<Vec<Ply<G, V>>>, SolveError> {
        let _ = moves;
        Ok(None)
    }

    /// What the solve (and the queries since) did. Retrograde analysis and the tier solvers
    /// count their own way: `stored` is the states they valued, `expanded` the states
    /// (retrograde analysis) or moves (the tier solvers) they valued them by, `terminal` their
    /// final states where they count them, and `max_depth` the tiers solved (0 from
    /// retrograde analysis). An answer read from a tier file solved nothing: all 0.
    fn stats(&self) -> Stats;

    /// The start's outcome, for an outcome game (`None` for another game).
    fn outcome(&self) -> Option<Outcome>;

    /// The size of the proofs of the start's value that proof search holds
    /// ([`Proved::proofs`]): their questions in all, a question met on two lines counted
    /// once. `None` from the engines that hand out no proof.
    fn proof_size(&self) -> Option<usize> {
        None
    }

    /// The remoteness of `state` in an outcome game: how many moves the game lasts when the
    /// winner wins as fast as it can and the loser loses as slowly as it can; `None` for a
    /// drawn state, a game that is not an outcome game, and from the pruning engine and the
    /// tier solver, which do not measure it.
    fn remoteness(&mut self, state: &G::State) -> Result<Option<u32>, SolveError>;

    /// Every value the solve holds, in the order of the game's
    /// [`DenseIndex`](crate::DenseIndex), one per index (`None` for an index it holds no value
    /// for), where it holds them so: the exhaustive engine and the sweep on a dense table,
    /// retrograde analysis numbering its states by the dense index, the tier solver keeping
    /// every tier's values by it. `None` (the default) from the others: the pruning engine
    /// (bounds), and engines on hash tables. What `gamesolver … --save` writes, for the same
    /// engine as the plain solve.
    ///
    /// ```
    /// use gamesolver::{games::TicTacToe, DenseIndex, Game, Solved, Solver};
    ///
    /// let solved = Solver::new(&TicTacToe).solve()?; // retrograde analysis, by the dense index
    /// let values: Vec<_> = solved.values_by_index().expect("held by index").collect();
    /// assert_eq!(values.len(), TicTacToe.index_len());
    /// assert_eq!(values[TicTacToe.index(&TicTacToe.start())], Some(0)); // the start: a draw
    /// # Ok::<(), gamesolver::Error>(())
    /// ```
    fn values_by_index(&self) -> Option<SlotValues<'_>> {
        None
    }

    /// The start's [`Nimber`], for an [impartial](crate::game::Impartial) game solved by its
    /// nimbers ([`Engine::Nimbers`]); `None` from the other engines.
    ///
    /// ```
    /// use gamesolver::{games::GrundysGame, Solved, Solver};
    ///
    /// // A heap of 8: 7+1 leaves 0 ^ 0, 6+2 leaves 1 ^ 0, 5+3 leaves 2 ^ 1; the mex of 0, 1, 3.
    /// let game = GrundysGame::new(&[8])?;
    /// assert_eq!(Solver::new(&game).solve()?.nimber(), Some(2));
    /// # Ok::<(), gamesolver::Error>(())
    /// ```
    fn nimber(&self) -> Option<Nimber> {
        None
    }

    /// The [`Nimber`] of any state, for an impartial game solved by its nimbers (each a search
    /// on the solve's table); `Ok(None)` from the other engines.
    fn nimber_of(&mut self, state: &G::State) -> Result<Option<Nimber>, SolveError> {
        let _ = state;
        Ok(None)
    }
}

impl<G, T, R> Solved<G> for Solution<'_, G, T, R>
where
    G: Game,
    G::State: Eq + Hash,
    T: MemoTable<G>,
    R: RangeSource<G>,
{
    fn engine(&self) -> Engine {
        Engine::Exhaustive
    }

    fn value(&self) -> Score {
        Solution::value(self)
    }

    fn start(&self) -> &G::State {
        Solution::start(self)
    }

    fn value_of(&mut self, state: &G::State) -> Result<Score, SolveError> {
        Solution::value_of(self, state)
    }

    fn move_values(&mut self, state: &G::State) -> Result<Vec<MoveValue<G>>, SolveError> {
        Solution::move_values(self, state)
    }

    fn best_moves(&mut self, state: &G::State) -> Result<Vec<G::Move>, SolveError> {
        Solution::best_moves(self, state)
    }

    fn line(&mut self) -> Result<Vec<Ply<G>>, SolveError> {
        Solution::line(self)
    }

    fn swift_line_within(&mut self, moves: usize) -> Result<Option<Vec<Ply<G>>>, SolveError> {
        Solution::swift_line_within(self, moves)
    }

    fn stats(&self) -> Stats {
        Solution::stats(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        None
    }

    fn values_by_index(&self) -> Option<SlotValues<'_>> {
        self.table().values_by_index()
    }

    fn remoteness(&mut self, state: &G::State) -> Result<Option<u32>, SolveError> {
        Solution::remoteness(self, state).map(Some)
    }
}

/// The sweep's result: a [`Solution`] over the table the sweep filled, which answers as the
/// exhaustive engine's does (a state the sweep did not value, if any, is searched).
pub(super) struct Swept<S>(pub(super) S);

impl<G: Game, S: Solved<G>> Solved<G> for Swept<S> {
    fn engine(&self) -> Engine {
        Engine::Sweep
    }

    fn value(&self) -> Score {
        self.0.value()
    }

    fn start(&self) -> &G::State {
        self.0.start()
    }

    fn value_of(&mut self, state: &G::State) -> Result<Score, SolveError> {
        self.0.value_of(state)
    }

    fn move_values(&mut self, state: &G::State) -> Result<Vec<MoveValue<G>>, SolveError> {
        self.0.move_values(state)
    }

    fn best_moves(&mut self, state: &G::State) -> Result<Vec<G::Move>, SolveError> {
        self.0.best_moves(state)
    }

    fn line(&mut self) -> Result<Vec<Ply<G>>, SolveError> {
        self.0.line()
    }

    fn swift_line_within(&mut self, moves: usize) -> Result<Option<Vec<Ply<G>>>, SolveError> {
        self.0.swift_line_within(moves)
    }

    fn stats(&self) -> Stats {
        self.0.stats()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }

    fn values_by_index(&self) -> Option<SlotValues<'_>> {
        self.0.values_by_index()
    }

    fn remoteness(&mut self, state: &G::State) -> Result<Option<u32>, SolveError> {
        self.0.remoteness(state)
    }
}

impl<G, R> Solved<G> for Proved<'_, G, R>
where
    G: Game,
    G::State: Eq + Hash,
    R: RangeSource<G>,
{
    fn engine(&self) -> Engine {
        Engine::Proof
    }

    fn value(&self) -> Score {
        Proved::value(self)
    }

    fn start(&self) -> &G::State {
        Proved::start(self)
    }

    fn value_of(&mut self, state: &G::State) -> Result<Score, SolveError> {
        Proved::value_of(self, state)
    }

    fn move_values(&mut self, state: &G::State) -> Result<Vec<MoveValue<G>>, SolveError> {
        Proved::move_values(self, state)
    }

    fn line(&mut self) -> Result<Vec<Ply<G>>, SolveError> {
        Proved::line(self)
    }

    fn stats(&self) -> Stats {
        Proved::stats(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome_game().then(|| match self.value().signum() {
            1 => Outcome::Win,
            -1 => Outcome::Loss,
            _ => Outcome::Draw,
        })
    }

    fn remoteness(&mut self, _state: &G::State) -> Result<Option<u32>, SolveError> {
        Ok(None)
    }

    fn proof_size(&self) -> Option<usize> {
        Some(self.proofs().iter().map(|proof| proof.len()).sum())
    }
}

impl<G, T, R> Solved<G> for Pruned<'_, G, T, R>
where
    G: Game,
    T: BoundTable<G>,
    R: RangeSource<G>,
{
    fn engine(&self) -> Engine {
        Engine::Pruning
    }

    fn value(&self) -> Score {
        Pruned::value(self)
    }

    fn start(&self) -> &G::State {
        Pruned::start(self)
    }

    fn value_of(&mut self, state: &G::State) -> Result<Score, SolveError> {
        Pruned::value_of(self, state)
    }

    fn move_values(&mut self, state: &G::State) -> Result<Vec<MoveValue<G>>, SolveError> {
        Pruned::analyze(self, state)
    }

    fn best_moves(&mut self, state: &G::State) -> Result<Vec<G::Move>, SolveError> {
        Pruned::best_moves(self, state)
    }

    fn line(&mut self) -> Result<Vec<Ply<G>>, SolveError> {
        Pruned::line(self)
    }

    fn stats(&self) -> Stats {
        Pruned::stats(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        None
    }

    fn remoteness(&mut self, _state: &G::State) -> Result<Option<u32>, SolveError> {
        Ok(None)
    }
}

/// A retrograde solution with the start it was solved from.
pub(super) struct RetroAnswer<'g, G: Game, I> {
    pub(super) solved: Retrograde<'g, G, I>,
    pub(super) start: G::State,
}

impl<'g, G: Game, I: StateIds<G>> RetroAnswer<'g, G, I> {
    /// The outcome and remoteness of a state the analysis reached.
    fn reached(&self, state: &G::State) -> Result<(Outcome, Option<u32>), SolveError> {
        self.solved.outcome_of(state).ok_or_else(|| {
            SolveError::Unanswerable(format!(
                "retrograde analysis values the states reachable from the start, and {} is not \
                 one of them",
                described(self.solved.game(), state)
            ))
        })
    }
}

/// A state as a message names it.
pub(super) fn described<G: Game>(game: &G, state: &G::State) -> String {
    game.state_text(state)
        .map_or_else(|| "this state".to_owned(), |text| format!("state {text}"))
}

impl<G: Game, I: StateIds<G>> Solved<G> for RetroAnswer<'_, G, I> {
    fn engine(&self) -> Engine {
        Engine::Retrograde
    }

    fn value(&self) -> Score {
        self.solved.outcome().value()
    }

    fn start(&self) -> &G::State {
        &self.start
    }

    fn value_of(&mut self, state: &G::State) -> Result<Score, SolveError> {
        Ok(self.reached(state)?.0.value())
    }

    fn move_values(&mut self, state: &G::State) -> Result<Vec<MoveValue<G>>, SolveError> {
        self.reached(state)?;
        let game = self.solved.game();
        let outcomes = self
            .solved
            .move_outcomes(state)
            .expect("a reached state's moves are reached");
        Ok(outcomes
            .into_iter()
            .map(|(mv, outcome, _)| {
                let step = game.play(state, &mv);
                MoveValue {
                    mv,
                    step,
                    value: outcome.value(),
                }
            })
            .collect())
    }

    fn line(&mut self) -> Result<Vec<Ply<G>>, SolveError> {
        Ok(self.solved.line())
    }

    fn swift_line_within(&mut self, _moves: usize) -> Result<Option<Vec<Ply<G>>>, SolveError> {
        Ok(Some(self.solved.line()))
    }

    fn stats(&self) -> Stats {
        let own = self.solved.stats();
        Stats {
            stored: own.states,
            expanded: own.states as u64,
            terminal: own.finals as u64,
            elapsed: own.elapsed,
            ..Stats::default()
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        Some(self.solved.outcome())
    }

    fn values_by_index(&self) -> Option<SlotValues<'_>> {
        self.solved.values_by_index()
    }

    fn remoteness(&mut self, state: &G::State) -> Result<Option<u32>, SolveError> {
        Ok(self.reached(state)?.1)
    }
}

impl<G: Tiered> TierSolution<'_, G> {
    /// The error for a question about a tier the solve did not keep.
    fn not_kept(&self, what: &str) -> SolveError {
        SolveError::Unanswerable(format!(
            "{what} needs tiers the tier solver did not keep (it keeps only the tiers a move \
             can still reach unless asked to keep every tier: Solver::keep_every_tier)"
        ))
    }
}

impl<G: Tiered> Solved<G> for TierSolution<'_, G> {
    fn engine(&self) -> Engine {
        Engine::Tiers
    }

    fn value(&self) -> Score {
        TierSolution::value(self)
    }

    fn start(&self) -> &G::State {
        TierSolution::start(self)
    }

    fn value_of(&mut self, state: &G::State) -> Result<Score, SolveError> {
        TierSolution::value_of(self, state).ok_or_else(|| {
            self.not_kept(&format!("the value of {}", described(self.game(), state)))
        })
    }

    fn move_values(&mut self, state: &G::State) -> Result<Vec<MoveValue<G>>, SolveError> {
        TierSolution::move_values(self, state).ok_or_else(|| {
            self.not_kept(&format!(
                "the moves' values of {}",
                described(self.game(), state)
            ))
        })
    }

    fn line(&mut self) -> Result<Vec<Ply<G>>, SolveError> {
        TierSolution::line(self).ok_or_else(|| self.not_kept("the line of play"))
    }

    fn stats(&self) -> Stats {
        let own = TierSolution::stats(self);
        Stats {
            stored: usize::try_from(own.states).unwrap_or(usize::MAX),
            expanded: own.moves,
            max_depth: own.tiers,
            elapsed: own.elapsed,
            ..Stats::default()
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        None
    }

    fn values_by_index(&self) -> Option<SlotValues<'_>> {
        let values = self.slot_values()?;
        Some(Box::new(values))
    }

    fn remoteness(&mut self, _state: &G::State) -> Result<Option<u32>, SolveError> {
        Ok(None)
    }
}

impl<G, C> Solved<G> for LoopySolution<'_, G, C>
where
    G: Tiered,
    G::State: Eq + Hash,
    C: Classes<G>,
{
    fn engine(&self) -> Engine {
        Engine::LoopyTiers
    }

    fn value(&self) -> Score {
        self.outcome().value()
    }

    fn start(&self) -> &G::State {
        LoopySolution::start(self)
    }

    fn value_of(&mut self, state: &G::State) -> Result<Score, SolveError> {
        Ok(self.kept(state)?.0.value())
    }

    fn move_values(&mut self, state: &G::State) -> Result<Vec<MoveValue<G>>, SolveError> {
        let game = self.game();
        let outcomes = self.move_outcomes(state).ok_or_else(|| {
            loopy_not_kept(&format!("the moves' values of {}", described(game, state)))
        })?;
        Ok(loopy_move_values(game, state, outcomes))
    }

    fn line(&mut self) -> Result<Vec<Ply<G>>, SolveError> {
        Ok(LoopySolution::line(self))
    }

    fn swift_line_within(&mut self, _moves: usize) -> Result<Option<Vec<Ply<G>>>, SolveError> {
        Ok(Some(LoopySolution::line(self)))
    }

    fn stats(&self) -> Stats {
        let own = LoopySolution::stats(self);
        Stats {
            stored: usize::try_from(own.states).unwrap_or(usize::MAX),
            expanded: own.moves,
            max_depth: own.tiers + own.resumed,
            elapsed: own.elapsed,
            ..Stats::default()
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        Some(LoopySolution::outcome(self))
    }

    fn remoteness(&mut self, state: &G::State) -> Result<Option<u32>, SolveError> {
        Ok(self.kept(state)?.1)
    }
}

impl<G: Tiered, C: Classes<G>> LoopySolution<'_, G, C> {
    /// The outcome and remoteness of a state whose tier is kept.
    fn kept(&self, state: &G::State) -> Result<(Outcome, Option<u32>), SolveError> {
        self.outcome_of(state).ok_or_else(|| {
            loopy_not_kept(&format!("the value of {}", described(self.game(), state)))
        })
    }
}

/// The error for a question about a tier the loopy tier solver did not keep (or a rank with no
/// state).
pub(super) fn loopy_not_kept(what: &str) -> SolveError {
    SolveError::Unanswerable(format!(
        "{what} needs a tier the loopy tier solver did not keep, or the state is not one of the \
         game's (it keeps only the tiers a move can still reach unless asked to keep every tier: \
         Solver::keep_every_tier)"
    ))
}

/// Each move's value for the mover, from the outcome of the position it leads to.
pub(super) fn loopy_move_values<G: Game>(
    game: &G,
    state: &G::State,
    outcomes: Vec<(G::Move, crate::Turn, Outcome, Option<u32>)>,
) -> Vec<MoveValue<G>> {
    outcomes
        .into_iter()
        .map(|(mv, turn, outcome, _)| {
            let step = game.play(state, &mv);
            let value = if turn == crate::Turn::Pass {
                -outcome.value()
            } else {
                outcome.value()
            };
            MoveValue { mv, step, value }
        })
        .collect()
}
