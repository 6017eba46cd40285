//! The result of a solve, and the questions it answers.

use std::hash::Hash;
use std::time::Instant;

use hashbrown::HashMap;

use super::search::Search;
use super::timed;
use crate::engines::kernel::limits::reserve_within;
use crate::engines::kernel::{
    AnyValue, Limits, MoveValue, Ply, RangeSource, Stats, best_of, combine, valued_moves,
};
use crate::error::SolveError;
use crate::game::{Game, Player, Score, Step};
use crate::memo::{FastHashBuilder, MemoTable};

/// A solved game: its value, and a memo table that answers further questions.
///
/// Queries take `&mut self` because a question about a state the solve did not need (a child
/// of a state the game valued without search, say) extends the search, reusing and adding to
/// the table. Every answer is exact. Among equally good moves the first in the game's move
/// order is the one [`line`](Solution::line) follows.
///
/// `R` is where the engine may cut ([`RangeSource`]): the queries extend the search with the
/// same cuts as the solve.
pub struct Solution<'g, G: Game, T, R = AnyValue> {
    game: &'g G,
    table: T,
    limits: Limits,
    search: Search<G, R>,
    stats: Stats,
    start: Option<(G::State, Score)>,
    scratch: Vec<G::Move>,
}

impl<'g, G: Game, T: MemoTable<G>, R: RangeSource<G>> Solution<'g, G, T, R> {
    /// The same solution, its statistics counting `earlier` work too (a trial whose table the
    /// solve went on from).
    pub(crate) fn counting(mut self, earlier: Stats) -> Self {
        self.stats += earlier;
        self
    }

    /// A solution whose queries cut on `range`.
    fn cutting(game: &'g G, table: T, limits: Limits, range: R) -> Self {
        Solution {
            game,
            table,
            limits,
            search: Search::with_range(0, range),
            stats: Stats::default(),
            start: None,
            scratch: Vec::new(),
        }
    }

    /// The solution of a solve started at `clock` that found `value` at `start`, having done
    /// `stats` (whose time it sets).
    pub(super) fn solved(
        game: &'g G,
        (table, range): (T, R),
        limits: Limits,
        (start, value): (G::State, Score),
        (stats, clock): (Stats, Instant),
    ) -> Self {
        let mut solution = Solution::cutting(game, table, limits, range);
        solution.start = Some((start, value));
        solution.stats = Stats {
            elapsed: clock.elapsed(),
            ..stats
        };
        solution
    }

    /// The same solution over `table`, which must hold what the solve's table holds (the
    /// owner of a table the solve borrowed).
    pub(crate) fn with_table<U: MemoTable<G>>(self, table: U) -> Solution<'g, G, U, R> {
        Solution {
            game: self.game,
            table,
            limits: self.limits,
            search: self.search,
            stats: self.stats,
            start: self.start,
            scratch: self.scratch,
        }
    }

    fn start_entry(&self) -> &(G::State, Score) {
        self.start
            .as_ref()
            .expect("a Solution is returned only once its start is solved")
    }

    /// The value of the start for the first player: `first's points − second's points` under
    /// perfect play.
    pub fn value(&self) -> Score {
        self.start_entry().1
    }

    /// The start state.
    pub fn start(&self) -> &G::State {
        &self.start_entry().0
    }

    /// The game that was solved.
    pub fn game(&self) -> &'g G {
        self.game
    }

    /// What the solve (and the queries since) did. `stored` is read from the table now, which
    /// for every table is O(1).
    pub fn stats(&self) -> Stats {
        Stats {
            stored: self.table.len(),
            ..self.stats
        }
    }

    /// The memo table.
    pub fn table(&self) -> &T {
        &self.table
    }

    /// Gives the memo table back.
    pub fn into_table(self) -> T {
        self.table
    }

    /// The exact value of any state for its side to move, searching if need be.
    ///
    /// ```
    /// use gamesolver::{engines::exhaustive, games::StoneGameII, memo::HashTable};
    ///
    /// let game = StoneGameII::new(vec![2, 7, 9, 4, 4]).unwrap();
    /// let mut solution = exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new()).unwrap();
    /// // With M = 2 at pile 2 (index 1), the mover takes all 4 remaining piles: 24 stones.
    /// assert_eq!(solution.value_of(&game.state(1, 2).unwrap()).unwrap(), 24);
    /// ```
    pub fn value_of(&mut self, state: &G::State) -> Result<Score, SolveError> {
        timed(
            &mut self.search,
            self.game,
            &mut self.table,
            state,
            &mut self.stats,
            self.limits,
        )
    }

    /// Every move of `state` with its exact value, in the game's move order (empty for a state
    /// with no move).
    ///
    /// ```
    /// use gamesolver::{engines::exhaustive, games::StoneGameII, memo::HashTable};
    ///
    /// let game = StoneGameII::new(vec![2, 7, 9, 4, 4]).unwrap();
    /// let mut solution = exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new()).unwrap();
    /// let start = solution.start().clone();
    /// let values: Vec<_> = solution.move_values(&start).unwrap().iter().map(|m| m.value).collect();
    /// // Taking 1 pile leaves Alice 10 of 26 stones (10 − 16 = −6); taking 2 leaves her 9.
    /// assert_eq!(values, vec![-6, -8]);
    /// ```
    pub fn move_values(&mut self, state: &G::State) -> Result<Vec<MoveValue<G>>, SolveError> {
        valued_moves(self.game, state, |next| self.value_of(next))
    }

    /// The moves of `state` that reach its value (all of them, in move order).
    ///
    /// ```
    /// use gamesolver::{engines::exhaustive, games::StoneGameII, memo::HashTable};
    ///
    /// let game = StoneGameII::new(vec![2, 7, 9, 4, 4]).unwrap();
    /// let mut solution = exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new()).unwrap();
    /// let start = solution.start().clone();
    /// assert_eq!(solution.best_moves(&start).unwrap(), vec![1]);
    /// ```
    pub fn best_moves(&mut self, state: &G::State) -> Result<Vec<G::Move>, SolveError> {
        self.move_values(state).map(best_of)
    }

    /// The optimal line of play from the start to a state with no move, following the first
    /// best move at each state.
    ///
    /// ```
    /// use gamesolver::{engines::exhaustive, games::StoneGameII, memo::HashTable, Player};
    ///
    /// let game = StoneGameII::new(vec![2, 7, 9, 4, 4]).unwrap();
    /// let mut solution = exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new()).unwrap();
    /// let line = solution.line().unwrap();
    /// let takes: Vec<_> = line.iter().map(|ply| (ply.player, ply.mv)).collect();
    /// assert_eq!(takes, vec![(Player::First, 1), (Player::Second, 2), (Player::First, 2)]);
    /// ```
    pub fn line(&mut self) -> Result<Vec<Ply<G>>, SolveError> {
        let mut line = Vec::new();
        let (mut state, mut value) = self.start_entry().clone();
        let mut player = Player::First;
        while let Some(Found { mv, step, next }) = self.first_best(&state, value)? {
            let (held, plies) = (self.table.peak_bytes(0), line.len());
            reserve_within(&mut line, held, self.limits.memory_budget, || {
                format!("the optimal line ({plies} moves so far)")
            })?;
            line.push(Ply {
                player,
                state,
                mv,
                gain: step.gain,
                turn: step.turn,
                value,
            });
            player = player.after(step.turn);
            value = next;
            state = step.next;
        }
        Ok(line)
    }

    /// The first move of `state` (of value `value`) that reaches that value; `None` for a
    /// state with no move. The moves after it are not valued (a search with cut-offs has not
    /// stored them). Allocates nothing once the scratch buffer has grown.
    fn first_best(
        &mut self,
        state: &G::State,
        value: Score,
    ) -> Result<Option<Found<G>>, SolveError> {
        let mut moves = std::mem::take(&mut self.scratch);
        moves.clear();
        self.game.moves_into(state, &mut moves);
        let mut found = Ok(None);
        for mv in &moves {
            let step = self.game.play(state, mv);
            match self
                .value_of(&step.next)
                .and_then(|next| combine(step.gain, step.turn, next).map(|reached| (next, reached)))
            {
                Ok((next, reached)) if reached == value => {
                    found = Ok(Some(Found {
                        mv: mv.clone(),
                        step,
                        next,
                    }));
                    break;
                }
                Ok(_) => {}
                Err(error) => {
                    found = Err(error);
                    break;
                }
            }
        }
        self.scratch = moves;
        match found {
            // A state with moves whose value no move reaches: the table or the game is wrong.
            Ok(None) if !self.scratch.is_empty() => Err(SolveError::InvalidState(format!(
                "no move reaches the value {value} of a state on the optimal line (two states \
                 share one memo key, or the moves are not a function of the state)"
            ))),
            found => found,
        }
    }
}

/// Remoteness: how many moves a game lasts from a state when both sides play optimal moves
/// (moves that keep the value) and, among those, the side that is ahead ends the game as soon
/// as it can and the side that is behind as late as it can; at an even state (value 0), the
/// first optimal move is played.
impl<G, T, R> Solution<'_, G, T, R>
where
    G: Game,
    G::State: Eq + Hash,
    T: MemoTable<G>,
    R: RangeSource<G>,
{
    /// The remoteness of `state` (0 for a state with no move). For an outcome game (values
    /// −1, 0, +1) without cycles, this is what retrograde analysis reports for a win or a loss:
    /// the winner wins as fast as it can, the loser loses as slowly as it can.
    ///
    /// ```
    /// use gamesolver::{engines::exhaustive, games::Nim, memo::DenseTable};
    ///
    /// let game = Nim::new(vec![3, 4, 5]).unwrap();
    /// let mut solution = exhaustive::solve(&game, DenseTable::for_game(&game), exhaustive::Options::new()).unwrap();
    /// let start = solution.start().clone();
    /// assert_eq!(solution.value(), 1);
    /// // The first player wins, at the earliest on the 11th move (the loser stalls).
    /// assert_eq!(solution.remoteness(&start).unwrap(), 11);
    /// ```
    pub fn remoteness(&mut self, state: &G::State) -> Result<u32, SolveError> {
        let mut known = HashMap::with_hasher(FastHashBuilder::default());
        let mut unlimited = usize::MAX;
        let remote = self.remoteness_in(state, &mut known, &mut unlimited)?;
        Ok(remote.expect("an unlimited budget is never spent"))
    }

    /// The optimal line of play that the side ahead ends as soon as it can and the side behind
    /// as late as it can (ties, and even states, by the game's move order); its length is the
    /// start's [`remoteness`](Solution::remoteness). [`line`](Solution::line) follows the first
    /// optimal move instead, which in a won game can wander.
    ///
    /// ```
    /// use gamesolver::{engines::exhaustive, games::Nim, memo::DenseTable};
    ///
    /// let game = Nim::new(vec![1, 2]).unwrap();
    /// let mut solution = exhaustive::solve(&game, DenseTable::for_game(&game), exhaustive::Options::new()).unwrap();
    /// let start = solution.start().clone();
    /// let line = solution.swift_line().unwrap();
    /// assert_eq!(line.len() as u32, solution.remoteness(&start).unwrap());
    /// assert!(line.len() <= solution.line().unwrap().len());
    /// ```
    pub fn swift_line(&mut self) -> Result<Vec<Ply<G>>, SolveError> {
        let line = self.swift_line_within(usize::MAX)?;
        Ok(line.expect("an unlimited budget is never spent"))
    }

    /// [`swift_line`](Solution::swift_line), giving up (`None`) once it has valued `moves`
    /// moves: finding the fastest win values every move of every state it considers, which in
    /// a game of many moves a state can cost far more than the solve (Nim `1,65535`: the solve
    /// looks at 5 states, the swift line at 131 071, and each of those at up to 65 536 moves).
    ///
    /// ```
    /// use gamesolver::{engines::exhaustive, games::Nim, memo::DenseTable};
    ///
    /// let game = Nim::new(vec![1, 300]).unwrap();
    /// let mut solution = exhaustive::solve(&game, DenseTable::for_game(&game), exhaustive::Options::new()).unwrap();
    /// assert!(solution.swift_line_within(100).unwrap().is_none());
    /// assert_eq!(solution.swift_line_within(100_000).unwrap().unwrap().len(), 3);
    /// ```
    pub fn swift_line_within(&mut self, moves: usize) -> Result<Option<Vec<Ply<G>>>, SolveError> {
        let mut budget = moves;
        let mut known = HashMap::with_hasher(FastHashBuilder::default());
        let mut line = Vec::new();
        let (mut state, mut value) = self.start_entry().clone();
        let mut player = Player::First;
        loop {
            let Some(moves) = self.spend_on_moves(&state, &mut budget)? else {
                return Ok(None);
            };
            let mut chosen: Option<(MoveValue<G>, u32)> = None;
            for mv in moves.into_iter().filter(|mv| mv.value == value) {
                let Some(remote) = self.remoteness_in(&mv.step.next, &mut known, &mut budget)?
                else {
                    return Ok(None);
                };
                let better = match &chosen {
                    None => true,
                    Some((_, best)) if value > 0 => remote < *best,
                    Some((_, best)) if value < 0 => remote > *best,
                    Some(_) => false,
                };
                if better {
                    chosen = Some((mv, remote));
                }
            }
            let Some((mv, _)) = chosen else {
                return Ok(Some(line));
            };
            let held = self.table.peak_bytes(0) + known_bytes::<G>(known.capacity());
            let plies = line.len();
            reserve_within(&mut line, held, self.limits.memory_budget, || {
                format!("the swift line ({plies} moves so far)")
            })?;
            let next = self.value_of(&mv.step.next)?;
            line.push(Ply {
                player,
                state,
                mv: mv.mv,
                gain: mv.step.gain,
                turn: mv.step.turn,
                value,
            });
            player = player.after(mv.step.turn);
            (state, value) = (mv.step.next, next);
        }
    }

    /// [`remoteness`](Solution::remoteness), memoized in `known`, on an explicit stack (games
    /// may be deep).
    /// `None` once `budget` moves have been valued.
    fn remoteness_in(
        &mut self,
        root: &G::State,
        known: &mut HashMap<G::State, u32, FastHashBuilder>,
        budget: &mut usize,
    ) -> Result<Option<u32>, SolveError> {
        if let Some(&remote) = known.get(root) {
            return Ok(Some(remote));
        }
        let Some(open) = self.open(root.clone(), budget)? else {
            return Ok(None);
        };
        let mut stack = vec![open];
        loop {
            let top = stack.last_mut().expect("the root is open until it returns");
            if let Some(child) = top.children.get(top.at) {
                if let Some(&remote) = known.get(child) {
                    top.best = Some(match (top.best, top.value) {
                        (None, _) => remote,
                        (Some(best), value) if value > 0 => best.min(remote),
                        (Some(best), value) if value < 0 => best.max(remote),
                        (Some(best), _) => best,
                    });
                    top.at += 1;
                } else {
                    let child = child.clone();
                    let Some(open) = self.open(child, budget)? else {
                        return Ok(None);
                    };
                    stack.push(open);
                }
                continue;
            }
            let done = stack.pop().expect("checked above");
            let remote = done.best.map_or(0, |best| best.saturating_add(1));
            if known.len() == known.capacity() {
                let held = self.table.peak_bytes(0) + known_bytes::<G>(known.capacity() * 2);
                if held > self.limits.memory_budget {
                    return Err(SolveError::MemoryBudget {
                        what: format!(
                            "the remoteness of {} states beside the memo table",
                            known.len()
                        ),
                        needed: held,
                        budget: self.limits.memory_budget,
                    });
                }
            }
            known.insert(done.state, remote);
            if stack.is_empty() {
                return Ok(Some(remote));
            }
        }
    }

    /// A state to measure: its value and the states its optimal moves lead to (`None` once
    /// the budget is spent).
    fn open(
        &mut self,
        state: G::State,
        budget: &mut usize,
    ) -> Result<Option<Open<G::State>>, SolveError> {
        let value = self.value_of(&state)?;
        let Some(moves) = self.spend_on_moves(&state, budget)? else {
            return Ok(None);
        };
        // At an even state the first optimal move is played: only its child is measured.
        let optimal = moves.into_iter().filter(|mv| mv.value == value);
        let children = if value == 0 {
            optimal.take(1).map(|mv| mv.step.next).collect()
        } else {
            optimal.map(|mv| mv.step.next).collect()
        };
        Ok(Some(Open {
            state,
            value,
            children,
            at: 0,
            best: None,
        }))
    }

    /// Every move of `state` valued, if `budget` covers them (it is spent by their number).
    fn spend_on_moves(
        &mut self,
        state: &G::State,
        budget: &mut usize,
    ) -> Result<Option<Vec<MoveValue<G>>>, SolveError> {
        let mut moves = std::mem::take(&mut self.scratch);
        moves.clear();
        self.game.moves_into(state, &mut moves);
        let count = moves.len();
        self.scratch = moves;
        if count > *budget {
            return Ok(None);
        }
        *budget -= count;
        self.move_values(state).map(Some)
    }
}

/// A state whose optimal children are being measured (for [`Solution::remoteness`]).
struct Open<S> {
    state: S,
    value: Score,
    children: Vec<S>,
    at: usize,
    best: Option<u32>,
}

/// The bytes of a remoteness map of `capacity` entries.
fn known_bytes<G: Game>(capacity: usize) -> u64 {
    (capacity as u64).saturating_mul(size_of::<(G::State, u32)>() as u64 + 1)
}

/// The move the optimal line plays at a state, and the value of the state it leads to (for
/// the side to move there).
struct Found<G: Game> {
    mv: G::Move,
    step: Step<G::State>,
    next: Score,
}
