//! [`solve`]: an impartial game solved by nimbers, and its answers ([`NimberSolution`]).

use std::hash::Hash;

use hashbrown::HashMap;

use super::{Journal, Nimbers, Options};
use crate::engines::kernel::{MoveValue, Ply, Stats};
use crate::engines::retrograde::Outcome;
use crate::engines::solver::{Engine, Solved};
use crate::error::SolveError;
use crate::game::{Game, Impartial, Nimber, Player, Score, Step, Turn};
use crate::memo::FastHashBuilder;

/// An impartial game solved by its nimbers: the start's nimber, and any state's, each move's
/// and the line's on demand, each a search on the same table. Values (win or loss), the line
/// and the remoteness ask only whether positions are won ([`Nimbers::wins`], cut at the first
/// winning move); [`nimber_of`](Solved::nimber_of) and
/// [`move_nimbers`](NimberSolution::move_nimbers) compute the nimbers whole.
pub struct NimberSolution<'g, G: Impartial> {
    nimbers: Nimbers<'g, G>,
    start: G::State,
    nimber: Nimber,
    /// The remoteness of the whole states measured so far (it does not add up over parts).
    remote: HashMap<G::State, u32, FastHashBuilder>,
}

/// A move with the step it makes.
type Played<G> = (<G as Game>::Move, Step<<G as Game>::State>);

/// How deep the remoteness search goes before it gives up (a bound on the thread's stack).
const REMOTE_DEPTH: usize = 1_000;

/// Solves `game` from its start: the start's nimber, with every part's it needs in the table.
///
/// ```
/// use gamesolver::engines::nimbers::{self, Options};
/// use gamesolver::games::GrundysGame;
/// use gamesolver::Solved;
///
/// // Grundy's game: split a heap into two unequal heaps. A heap of 7 has nimber 0.
/// let game = GrundysGame::new(&[7])?;
/// let solved = nimbers::solve(&game, Options::new())?;
/// assert_eq!((solved.nimber(), solved.value()), (Some(0), -1));
/// # Ok::<(), gamesolver::Error>(())
/// ```
pub fn solve<G>(game: &G, options: Options) -> Result<NimberSolution<'_, G>, SolveError>
where
    G: Impartial,
    G::State: Eq + Hash,
{
    solve_at(game, game.start(), options)
}

/// Solves `game` from `start`, any of its positions (as [`solve`] from the game's start).
pub fn solve_at<G>(
    game: &G,
    start: G::State,
    options: Options,
) -> Result<NimberSolution<'_, G>, SolveError>
where
    G: Impartial,
    G::State: Eq + Hash,
{
    let mut nimbers = Nimbers::new(game, options);
    let nimber = nimbers.nimber(&start)?;
    Ok(NimberSolution::new(nimbers, start, nimber))
}

/// [`solve`] on the current rayon pool ([`Nimbers::par_nimber`]): the start's heaviest part's
/// options searched at once, each by a worker, on a table of parts' nimbers they share. On a
/// pool of one thread, [`solve`]. The nimber, the value and every answer are [`solve`]'s; the
/// statistics (parts stored and searched) differ, since workers search options that the
/// sequential search would have cut.
///
/// ```
/// use gamesolver::engines::nimbers::{self, Options};
/// use gamesolver::games::Cram;
/// use gamesolver::Solved;
///
/// // Cram on 4×5 cells: nimber 2 (a win for the first player), on two threads.
/// let game = Cram::new(4, 5)?;
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let solved = pool.install(|| nimbers::par_solve(&game, Options::new()))?;
/// assert_eq!((solved.nimber(), solved.value()), (Some(2), 1));
/// # Ok::<(), gamesolver::Error>(())
/// ```
pub fn par_solve<G>(game: &G, options: Options) -> Result<NimberSolution<'_, G>, SolveError>
where
    G: Impartial + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    par_solve_at(game, game.start(), options)
}

/// [`par_solve`] from `start`, any of the game's positions.
pub fn par_solve_at<G>(
    game: &G,
    start: G::State,
    options: Options,
) -> Result<NimberSolution<'_, G>, SolveError>
where
    G: Impartial + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    let mut nimbers = Nimbers::new(game, options);
    let nimber = nimbers.par_nimber(&start)?;
    Ok(NimberSolution::new(nimbers, start, nimber))
}

/// [`solve`], saving the parts' nimbers to `journal` as the search finds them (and resuming
/// from what its file holds, where it resumes): see [`Journal`]. The journal is written up to
/// date when the solve ends, whether it found the nimber or stopped at a limit.
pub fn solve_saving<'g, G>(
    game: &'g G,
    options: Options,
    journal: &Journal,
) -> Result<NimberSolution<'g, G>, SolveError>
where
    G: Impartial,
    G::State: Eq + Hash,
{
    saving(game, options, journal, Nimbers::nimber)
}

/// [`par_solve`], saving to `journal` as [`solve_saving`] does (each worker appends what it
/// finds).
pub fn par_solve_saving<'g, G>(
    game: &'g G,
    options: Options,
    journal: &Journal,
) -> Result<NimberSolution<'g, G>, SolveError>
where
    G: Impartial + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    saving(game, options, journal, Nimbers::par_nimber)
}

/// A solve by `search` that saves to `journal`.
fn saving<'g, G>(
    game: &'g G,
    options: Options,
    journal: &Journal,
    search: impl FnOnce(&mut Nimbers<'g, G>, &G::State) -> Result<Nimber, SolveError>,
) -> Result<NimberSolution<'g, G>, SolveError>
where
    G: Impartial,
    G::State: Eq + Hash,
{
    let mut nimbers = Nimbers::new(game, options);
    nimbers.save_to(journal)?;
    let start = game.start();
    let nimber = search(&mut nimbers, &start);
    let saved = nimbers.stop_saving();
    let nimber = nimber?;
    saved?;
    Ok(NimberSolution::new(nimbers, start, nimber))
}

impl<'g, G> NimberSolution<'g, G>
where
    G: Impartial,
    G::State: Eq + Hash,
{
    /// The answer for `start`, whose nimber `nimbers` found.
    fn new(nimbers: Nimbers<'g, G>, start: G::State, nimber: Nimber) -> Self {
        NimberSolution {
            nimbers,
            start,
            nimber,
            remote: HashMap::default(),
        }
    }

    /// The engine and its table, for further questions.
    pub fn nimbers(&mut self) -> &mut Nimbers<'g, G> {
        &mut self.nimbers
    }

    /// Every move of `state` with the nimber of the position it leaves, in the game's move
    /// order: the winning moves are those that leave 0.
    pub fn move_nimbers(&mut self, state: &G::State) -> Result<Vec<(G::Move, Nimber)>, SolveError> {
        let game = self.nimbers.game();
        let mut moves = Vec::new();
        for mv in game.moves(state) {
            let next = game.play(state, &mv).next;
            moves.push((mv, self.nimbers.nimber(&next)?));
        }
        Ok(moves)
    }

    /// The remoteness of `state` (how many moves the game lasts when the winner wins as fast
    /// as it can and the loser loses as slowly), if measuring it values at most `*budget`
    /// moves; `None` past that. Each state's is kept.
    fn remoteness_within(
        &mut self,
        state: &G::State,
        budget: &mut usize,
        depth: usize,
    ) -> Result<Option<u32>, SolveError> {
        if let Some(&remoteness) = self.remote.get(state) {
            return Ok(Some(remoteness));
        }
        if depth > REMOTE_DEPTH {
            return Ok(None);
        }
        let game = self.nimbers.game();
        let wins = self.nimbers.wins(state)?;
        let mut best: Option<u32> = None;
        for mv in game.moves(state) {
            if *budget == 0 {
                return Ok(None);
            }
            *budget -= 1;
            let next = game.play(state, &mv).next;
            // The winner looks only at the moves that keep the win: to a nimber of 0.
            if wins && self.nimbers.wins(&next)? {
                continue;
            }
            let Some(after) = self.remoteness_within(&next, budget, depth + 1)? else {
                return Ok(None);
            };
            best = Some(match best {
                None => after,
                Some(best) if wins => best.min(after),
                Some(best) => best.max(after),
            });
        }
        let remoteness = best.map_or(0, |after| after + 1);
        self.remote.insert(state.clone(), remoteness);
        Ok(Some(remoteness))
    }

    /// The move the swift line plays at `state` (its remoteness measured): the first to a
    /// position whose remoteness is one less.
    fn swift_move(&mut self, state: &G::State) -> Result<Option<Played<G>>, SolveError> {
        let game = self.nimbers.game();
        let Some(&remoteness) = self.remote.get(state) else {
            return Ok(None);
        };
        let wins = self.nimbers.wins(state)?;
        for mv in game.moves(state) {
            let step = game.play(state, &mv);
            if wins && self.nimbers.wins(&step.next)? {
                continue;
            }
            if remoteness > 0 && self.remote.get(&step.next) == Some(&(remoteness - 1)) {
                return Ok(Some((mv, step)));
            }
        }
        Ok(None)
    }
}

/// +1 for a nimber that is not 0 (won for the player to move), −1 for 0.
fn value_of_nimber(nimber: Nimber) -> Score {
    value_of_wins(nimber != 0)
}

/// +1 for a position won for the player to move, −1 for one lost.
fn value_of_wins(wins: bool) -> Score {
    if wins { 1 } else { -1 }
}

impl<G> Solved<G> for NimberSolution<'_, G>
where
    G: Impartial,
    G::State: Eq + Hash,
{
    fn engine(&self) -> Engine {
        Engine::Nimbers
    }

    fn value(&self) -> Score {
        value_of_nimber(self.nimber)
    }

    fn start(&self) -> &G::State {
        &self.start
    }

    fn value_of(&mut self, state: &G::State) -> Result<Score, SolveError> {
        Ok(value_of_wins(self.nimbers.wins(state)?))
    }

    fn move_values(&mut self, state: &G::State) -> Result<Vec<MoveValue<G>>, SolveError> {
        let game = self.nimbers.game();
        let mut values = Vec::new();
        for mv in game.moves(state) {
            let step = game.play(state, &mv);
            let value = -value_of_wins(self.nimbers.wins(&step.next)?);
            values.push(MoveValue { mv, step, value });
        }
        Ok(values)
    }

    /// The winner moves to a position of nimber 0 (the first such move in the game's order);
    /// the loser plays its first move.
    fn line(&mut self) -> Result<Vec<Ply<G>>, SolveError> {
        let game = self.nimbers.game();
        let mut state = self.start.clone();
        let mut player = Player::First;
        let mut line = Vec::new();
        loop {
            let lost = !self.nimbers.wins(&state)?;
            let mut chosen = None;
            for mv in game.moves(&state) {
                let step = game.play(&state, &mv);
                let wins = !self.nimbers.wins(&step.next)?;
                if chosen.is_none() || wins {
                    chosen = Some((mv, step));
                }
                if wins || lost {
                    break;
                }
            }
            let Some((mv, step)) = chosen else {
                return Ok(line);
            };
            line.push(Ply {
                player,
                state,
                mv,
                gain: step.gain,
                turn: step.turn,
                value: value_of_wins(!lost),
            });
            state = step.next;
            if step.turn == Turn::Pass {
                player = player.opponent();
            }
        }
    }

    fn stats(&self) -> Stats {
        self.nimbers.stats()
    }

    fn outcome(&self) -> Option<Outcome> {
        Some(if self.nimber == 0 {
            Outcome::Loss
        } else {
            Outcome::Win
        })
    }

    /// Measured where it takes at most [`SWIFT_MOVES`](crate::engines::SWIFT_MOVES) moves
    /// valued; `None` past that.
    fn remoteness(&mut self, state: &G::State) -> Result<Option<u32>, SolveError> {
        let mut budget = crate::engines::SWIFT_MOVES;
        self.remoteness_within(state, &mut budget, 0)
    }

    fn swift_line_within(&mut self, moves: usize) -> Result<Option<Vec<Ply<G>>>, SolveError> {
        let mut budget = moves;
        let start = self.start.clone();
        if self.remoteness_within(&start, &mut budget, 0)?.is_none() {
            return Ok(None);
        }
        let mut line = Vec::new();
        let (mut state, mut player) = (start, Player::First);
        while let Some((mv, step)) = self.swift_move(&state)? {
            let value = value_of_wins(self.nimbers.wins(&state)?);
            line.push(Ply {
                player,
                state,
                mv,
                gain: step.gain,
                turn: step.turn,
                value,
            });
            state = step.next;
            if step.turn == Turn::Pass {
                player = player.opponent();
            }
        }
        Ok(Some(line))
    }

    fn nimber(&self) -> Option<Nimber> {
        Some(self.nimber)
    }

    fn nimber_of(&mut self, state: &G::State) -> Result<Option<Nimber>, SolveError> {
        self.nimbers.nimber(state).map(Some)
    }
}
