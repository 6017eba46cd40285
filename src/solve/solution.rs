//! The result of a solve, and the questions it answers.

use std::time::Instant;

use super::limits::reserve_within;
use super::search::{Search, combine};
use super::{AnyValue, Limits, RangeSource, Stats, timed};
use crate::error::Error;
use crate::game::{Game, Player, Score, Step, Turn};
use crate::memo::MemoTable;

/// A move with its step and its exact value for the mover.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveValue<G: Game + ?Sized> {
    /// The move.
    pub mv: G::Move,
    /// What the move does.
    pub step: Step<G::State>,
    /// The move's value for its mover: `gain ± value(next)`.
    pub value: Score,
}

/// One move of the optimal line of play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ply<G: Game + ?Sized> {
    /// Who moves.
    pub player: Player,
    /// The state before the move.
    pub state: G::State,
    /// The move played.
    pub mv: G::Move,
    /// The points the mover gains with it.
    pub gain: Score,
    /// Whether the turn passes after it.
    pub turn: Turn,
    /// The value of `state` for the mover (what the mover can still secure from here on).
    pub value: Score,
}

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
    /// use gamesolver::{solve, memo::HashTable, games::StoneGameII};
    ///
    /// let game = StoneGameII::new(vec![2, 7, 9, 4, 4]).unwrap();
    /// let mut solution = solve(&game, HashTable::new()).unwrap();
    /// // With M = 2 at pile 2 (index 1), the mover takes all 4 remaining piles: 24 stones.
    /// assert_eq!(solution.value_of(&game.state(1, 2).unwrap()).unwrap(), 24);
    /// ```
    pub fn value_of(&mut self, state: &G::State) -> Result<Score, Error> {
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
    /// use gamesolver::{solve, memo::HashTable, games::StoneGameII};
    ///
    /// let game = StoneGameII::new(vec![2, 7, 9, 4, 4]).unwrap();
    /// let mut solution = solve(&game, HashTable::new()).unwrap();
    /// let start = solution.start().clone();
    /// let values: Vec<_> = solution.move_values(&start).unwrap().iter().map(|m| m.value).collect();
    /// // Taking 1 pile leaves Alice 10 of 26 stones (10 − 16 = −6); taking 2 leaves her 9.
    /// assert_eq!(values, vec![-6, -8]);
    /// ```
    pub fn move_values(&mut self, state: &G::State) -> Result<Vec<MoveValue<G>>, Error> {
        valued_moves(self.game, state, |next| self.value_of(next))
    }

    /// The moves of `state` that reach its value (all of them, in move order).
    ///
    /// ```
    /// use gamesolver::{solve, memo::HashTable, games::StoneGameII};
    ///
    /// let game = StoneGameII::new(vec![2, 7, 9, 4, 4]).unwrap();
    /// let mut solution = solve(&game, HashTable::new()).unwrap();
    /// let start = solution.start().clone();
    /// assert_eq!(solution.best_moves(&start).unwrap(), vec![1]);
    /// ```
    pub fn best_moves(&mut self, state: &G::State) -> Result<Vec<G::Move>, Error> {
        self.move_values(state).map(best_of)
    }

    /// The optimal line of play from the start to a state with no move, following the first
    /// best move at each state.
    ///
    /// ```
    /// use gamesolver::{solve, memo::HashTable, Player, games::StoneGameII};
    ///
    /// let game = StoneGameII::new(vec![2, 7, 9, 4, 4]).unwrap();
    /// let mut solution = solve(&game, HashTable::new()).unwrap();
    /// let line = solution.line().unwrap();
    /// let takes: Vec<_> = line.iter().map(|ply| (ply.player, ply.mv)).collect();
    /// assert_eq!(takes, vec![(Player::First, 1), (Player::Second, 2), (Player::First, 2)]);
    /// ```
    pub fn line(&mut self) -> Result<Vec<Ply<G>>, Error> {
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
    fn first_best(&mut self, state: &G::State, value: Score) -> Result<Option<Found<G>>, Error> {
        let mut moves = std::mem::take(&mut self.scratch);
        moves.clear();
        self.game.moves(state, &mut moves);
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
            Ok(None) if !self.scratch.is_empty() => Err(Error::InvalidState(format!(
                "no move reaches the value {value} of a state on the optimal line (two states \
                 share one memo key, or the moves are not a function of the state)"
            ))),
            found => found,
        }
    }
}

/// The move the optimal line plays at a state, and the value of the state it leads to (for
/// the side to move there).
struct Found<G: Game> {
    mv: G::Move,
    step: Step<G::State>,
    next: Score,
}

/// Every move of `state` with its exact value for the mover, in the game's move order, given
/// the exact value of any state (shared by the exhaustive and the pruning engines).
pub(super) fn valued_moves<G: Game>(
    game: &G,
    state: &G::State,
    mut value_of: impl FnMut(&G::State) -> Result<Score, Error>,
) -> Result<Vec<MoveValue<G>>, Error> {
    let mut moves = Vec::new();
    game.moves(state, &mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let step = game.play(state, &mv);
            let value = combine(step.gain, step.turn, value_of(&step.next)?)?;
            Ok(MoveValue { mv, step, value })
        })
        .collect()
}

/// The moves among `values` that reach the best value, in order (none if there is no move).
pub(super) fn best_of<G: Game>(values: Vec<MoveValue<G>>) -> Vec<G::Move> {
    let Some(best) = values.iter().map(|m| m.value).max() else {
        return Vec::new();
    };
    values
        .into_iter()
        .filter(|m| m.value == best)
        .map(|m| m.mv)
        .collect()
}
