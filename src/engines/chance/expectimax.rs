//! Expectimax in exact fractions over a game whose play cannot cycle: a depth-first search on
//! an explicit stack (depth is unbounded), each open state a [`Frame`], the moves of every open
//! state in one buffer. A decision state's value is its best move's; a chance state's, the sum
//! of its outcomes' values weighted by their probabilities. A state reached by a chance outcome
//! is valued from its children and not stored: its children are, and a game whose rolls lead
//! to a decision of their own (a bear-off race: a roll, then which checkers to move) keeps one
//! entry per position between rolls instead of one per roll.

use std::hash::{BuildHasher, Hash};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::scaled::Scaled;
use super::solution::{ChanceSolution, Query};
use super::tables::{Dense, Exact, ExactTable, Hashed, Shared, SharedDense};
use super::{Options, Roll, Value, check_probabilities};
use crate::engines::kernel::{CHECK_EVERY, CYCLE_DEPTH, RunGuard, Stats, buffer_bytes, cycle_on};
use crate::engines::solver::Engine;
use crate::error::SolveError;
use crate::game::{DenseIndex, Game, Probability, Score, Turn};
use crate::memo::FastHashBuilder;

/// One open state.
struct Frame<S> {
    state: S,
    /// A chance state: the value is the expectation over the moves (outcomes).
    chance: bool,
    /// Whether the value goes into the table (not for a state reached by a chance outcome).
    store: bool,
    /// Where its moves begin in the shared buffer.
    start: usize,
    /// The next move to look at.
    next: usize,
    /// A decision state's best move's value so far.
    best: Option<Exact>,
    /// A chance state's weighted sum so far.
    sum: Scaled,
    /// The gain, turn and probability of the move whose child is being searched.
    pending: (Score, bool, Probability),
    /// The probabilities' denominators had no common multiple within `u64`.
    overflow: bool,
}

/// The search's reusable buffers and counts: one per worker.
pub(crate) struct Walk<G: Game, X> {
    roll: X,
    frames: Vec<Frame<G::State>>,
    moves: Vec<G::Move>,
    /// 0: the game's order; else the worker's (odd: reversed; `order / 2`: a rotation).
    order: usize,
    stats: Stats,
    reported: u64,
}

/// A child's value, or the child to search.
enum Child<S> {
    Valued,
    Search(S),
}

impl<G: Game, X: Roll<G>> Walk<G, X>
where
    G::State: Hash + Eq,
{
    pub(crate) fn new(roll: X, order: usize) -> Self {
        Walk {
            roll,
            frames: Vec::new(),
            moves: Vec::new(),
            order,
            stats: Stats::default(),
            reported: 0,
        }
    }

    pub(crate) fn stats(&self) -> Stats {
        self.stats
    }

    /// The exact value of `state`, storing the states it values (`state` itself only if
    /// `store`).
    pub(crate) fn value<T: ExactTable<G>>(
        &mut self,
        game: &G,
        table: &T,
        state: &G::State,
        store: bool,
        guard: RunGuard<'_>,
    ) -> Result<Exact, SolveError> {
        let clock = Instant::now();
        let result = self.search(game, table, state, store, guard);
        self.frames.clear();
        self.moves.clear();
        self.frames.shrink_to(1024);
        self.moves.shrink_to(1024);
        guard.release(&mut self.reported);
        self.stats.elapsed += clock.elapsed();
        result
    }

    fn search<T: ExactTable<G>>(
        &mut self,
        game: &G,
        table: &T,
        root: &G::State,
        store: bool,
        guard: RunGuard<'_>,
    ) -> Result<Exact, SolveError> {
        if let Some(known) = game.known_value(root) {
            return Ok(Exact::new(Scaled::integer(known)));
        }
        if let Some(stored) = table.read(game, root, Exact::clone) {
            self.stats.hits += 1;
            return Ok(stored);
        }
        if let Some(payoff) = self.open(game, root.clone(), store)? {
            return Ok(payoff);
        }
        let mut checked = self.capacities();
        loop {
            let top = self.frames.len() - 1;
            if let Child::Search(child) = self.scan(game, table, top) {
                let store = !self.frames[top].chance;
                if let Some(payoff) = self.open(game, child, store)? {
                    self.take(top, &payoff);
                } else if self.stats.expanded.is_multiple_of(CHECK_EVERY as u64)
                    || self.capacities() != checked
                {
                    checked = self.capacities();
                    self.check(game, table, guard)?;
                }
                continue;
            }
            let done = self
                .frames
                .pop()
                .expect("the loop runs while a frame is open");
            self.moves.truncate(done.start);
            if done.overflow {
                return Err(SolveError::Unsupported(
                    "a roll's probabilities and the values below it have denominators whose \
                     common multiple passes 2^64"
                        .into(),
                ));
            }
            let value = if done.chance {
                Exact::new(done.sum)
            } else {
                done.best.expect("a decision state has a move")
            };
            if done.store {
                table.insert(game, &done.state, value.clone());
            }
            match self.frames.len().checked_sub(1) {
                None => return Ok(value),
                Some(parent) => self.take(parent, &value),
            }
        }
    }

    /// The memory budget, the time limit, a cancellation, and a cycle once deep.
    #[cold]
    fn check<T: ExactTable<G>>(
        &mut self,
        game: &G,
        table: &T,
        guard: RunGuard<'_>,
    ) -> Result<(), SolveError> {
        let stack = buffer_bytes(&self.frames) + buffer_bytes(&self.moves);
        let depth = self.frames.len();
        guard.check(
            table.bytes(),
            &mut self.reported,
            stack,
            table.kind(),
            table.len(),
            depth,
        )?;
        if depth >= CYCLE_DEPTH {
            let hasher = FastHashBuilder::default();
            cycle_on(
                game,
                self.frames.iter().map(|frame| &frame.state),
                |state| Some(hasher.hash_one(state)),
                |a, b| a == b,
            )?;
        }
        Ok(())
    }

    fn capacities(&self) -> (usize, usize) {
        (self.frames.capacity(), self.moves.capacity())
    }

    /// Opens `state`: its payoff if it has no move, else a frame for it (`None`).
    fn open(
        &mut self,
        game: &G,
        state: G::State,
        store: bool,
    ) -> Result<Option<Exact>, SolveError> {
        let start = self.moves.len();
        game.moves_into(&state, &mut self.moves);
        if self.moves.len() == start {
            self.stats.terminal += 1;
            let payoff = game.payoff(&state);
            if payoff == Score::MIN {
                return Err(SolveError::ScoreOverflow);
            }
            return Ok(Some(Exact::new(Scaled::integer(payoff))));
        }
        let chance = self.roll.is_chance(game, &state);
        if chance {
            let roll = self.roll;
            check_probabilities(
                game,
                &state,
                self.moves[start..]
                    .iter()
                    .map(|outcome| roll.probability(game, &state, outcome)),
            )?;
        }
        if self.order != 0 {
            let moves = &mut self.moves[start..];
            if self.order % 2 == 1 {
                moves.reverse();
            }
            let rotation = (self.order / 2) % moves.len();
            moves.rotate_left(rotation);
        }
        self.stats.expanded += 1;
        self.frames.push(Frame {
            state,
            chance,
            store,
            start,
            next: start,
            best: None,
            sum: Scaled::zero(),
            pending: (0, false, Probability::ONE),
            overflow: false,
        });
        self.stats.max_depth = self.stats.max_depth.max(self.frames.len());
        Ok(None)
    }

    /// Values the top frame's moves whose children are known or stored; returns the first
    /// child to search, if any.
    fn scan<T: ExactTable<G>>(&mut self, game: &G, table: &T, top: usize) -> Child<G::State> {
        let roll = self.roll;
        let frame = &mut self.frames[top];
        while let Some(mv) = self.moves.get(frame.next) {
            frame.next += 1;
            let step = game.play(&frame.state, mv);
            let probability = if frame.chance {
                roll.probability(game, &frame.state, mv)
            } else {
                Probability::ONE
            };
            let pending = (step.gain, step.turn == Turn::Keep, probability);
            if let Some(known) = game.known_value(&step.next) {
                self.stats.known += 1;
                take(frame, pending, &Exact::new(Scaled::integer(known)));
                continue;
            }
            // A chance outcome's state is never stored (its children are): not looked up.
            if !frame.chance
                && table
                    .read(game, &step.next, |stored| take(frame, pending, stored))
                    .is_some()
            {
                self.stats.hits += 1;
                continue;
            }
            frame.pending = pending;
            return Child::Search(step.next);
        }
        Child::Valued
    }

    /// Takes the value of the child the frame at `at` was waiting for.
    fn take(&mut self, at: usize, child: &Exact) {
        let frame = &mut self.frames[at];
        let pending = frame.pending;
        take(frame, pending, child);
    }
}

/// Adds a move's value (its gain and turn rule, its probability at a chance state, and its
/// child's value) to the frame: the expectation's sum, or the best move so far.
fn take<S>(
    frame: &mut Frame<S>,
    (gain, keep, probability): (Score, bool, Probability),
    child: &Exact,
) {
    if frame.chance {
        if frame
            .sum
            .add_outcome(probability, gain, keep, &child.value)
            .is_none()
        {
            frame.overflow = true;
        }
        return;
    }
    let approx = gain as f64 + if keep { child.approx } else { -child.approx };
    let better = match &frame.best {
        None => true,
        Some(best) => {
            let margin = 1e-9 * (1.0 + approx.abs().max(best.approx.abs()));
            if approx > best.approx + margin {
                true
            } else if approx < best.approx - margin {
                false
            } else {
                Scaled::combine(gain, keep, &child.value).compare(&best.value)
                    == std::cmp::Ordering::Greater
            }
        }
    };
    if better {
        frame.best = Some(Exact::new(Scaled::combine(gain, keep, &child.value)));
    }
}

/// A solve's queries: the walk, the table, the limits.
struct Searched<'g, G: Game, X, T> {
    game: &'g G,
    walk: Walk<G, X>,
    table: T,
    options: Options,
    threads: usize,
}

impl<G, X, T> Query<G> for Searched<'_, G, X, T>
where
    G: Game,
    G::State: Hash + Eq,
    X: Roll<G>,
    T: ExactTable<G>,
{
    fn value_of(&mut self, state: &G::State) -> Result<Value, SolveError> {
        let guard = RunGuard::new(self.options.limits, None);
        let value = self
            .walk
            .value(self.game, &self.table, state, true, guard)?;
        Ok(Value::from_exact(value.value.to_rational()))
    }
    fn is_chance(&self, state: &G::State) -> bool {
        self.walk.roll.is_chance(self.game, state)
    }
    fn probability(&self, state: &G::State, outcome: &G::Move) -> Probability {
        self.walk.roll.probability(self.game, state, outcome)
    }
    fn stats(&self) -> Stats {
        Stats {
            stored: self.table.len(),
            ..self.walk.stats()
        }
    }
    fn engine(&self) -> Engine {
        Engine::Expectimax
    }
    fn table(&self) -> &'static str {
        self.table.kind()
    }
    fn threads(&self) -> usize {
        self.threads
    }
    #[cfg(feature = "cli")]
    fn held(&self, each: &mut dyn FnMut(super::solution::Held<'_, G::State>, Value)) {
        self.table.each(&mut |place, value| {
            each(place, Value::from_exact(value.value.to_rational()));
        });
    }
}

/// Solves on `table`, one thread.
fn solve_on<'g, G, X, T>(
    game: &'g G,
    roll: X,
    table: T,
    options: Options,
) -> Result<ChanceSolution<'g, G>, SolveError>
where
    G: Game,
    G::State: Hash + Eq,
    X: Roll<G> + 'g,
    T: ExactTable<G> + 'g,
{
    let mut walk = Walk::new(roll, 0);
    let start = game.start();
    let guard = RunGuard::new(options.limits, None);
    let value = walk.value(game, &table, &start, true, guard)?;
    let query = Searched {
        game,
        walk,
        table,
        options,
        threads: 1,
    };
    Ok(ChanceSolution::new(
        game,
        start,
        Value::from_exact(value.value.to_rational()),
        Box::new(query),
        options.seed,
    ))
}

pub(crate) fn solve_hashed<G, X>(
    game: &G,
    roll: X,
    options: Options,
) -> Result<ChanceSolution<'_, G>, SolveError>
where
    G: Game,
    G::State: Hash + Eq,
    X: Roll<G>,
{
    solve_on(game, roll, Hashed::new(), options)
}

pub(crate) fn solve_dense<G, X>(
    game: &G,
    roll: X,
    options: Options,
) -> Result<ChanceSolution<'_, G>, SolveError>
where
    G: DenseIndex,
    G::State: Hash + Eq,
    X: Roll<G>,
{
    budget_for_array(Dense::bytes_for(game), options)?;
    solve_on(game, roll, Dense::for_game(game), options)
}

/// Refuses an array of `bytes` past the budget before it is allocated.
fn budget_for_array(bytes: u64, options: Options) -> Result<(), SolveError> {
    if bytes > options.limits.memory_budget {
        return Err(SolveError::MemoryBudget {
            what: "the array of the game's dense index".into(),
            needed: bytes,
            budget: options.limits.memory_budget,
        });
    }
    Ok(())
}

/// Solves on `table`, shared by a worker on every thread of `pool` (else of the current rayon
/// pool).
fn par_solve_on<'g, G, X, T>(
    game: &'g G,
    roll: X,
    table: T,
    options: Options,
    pool: Option<&rayon::ThreadPool>,
) -> Result<ChanceSolution<'g, G>, SolveError>
where
    G: Game + Sync,
    G::State: Hash + Eq + Send + Sync,
    G::Move: Send,
    X: Roll<G> + 'g,
    T: ExactTable<G> + Sync + 'g,
{
    let threads = pool.map_or_else(rayon::current_num_threads, |pool| {
        pool.current_num_threads()
    });
    if threads <= 1 {
        return solve_on(game, roll, table, options);
    }
    let start = game.start();
    let cancel = AtomicBool::new(false);
    let stacks = AtomicU64::new(0);
    let search = || -> Vec<(Result<Exact, SolveError>, Stats)> {
        (0..threads)
            .into_par_iter()
            .map(|worker| {
                let guard = RunGuard::new(options.limits, Some(&cancel)).sharing(&stacks);
                let mut walk = Walk::new(roll, worker);
                let value = walk.value(game, &table, &start, true, guard);
                if value.is_ok() {
                    cancel.store(true, Ordering::Relaxed);
                }
                (value, walk.stats())
            })
            .collect()
    };
    let results = match pool {
        Some(pool) => pool.install(search),
        None => search(),
    };
    let mut stats = Stats::default();
    let mut found = None;
    let mut failure = None;
    for (value, worker) in results {
        stats += worker;
        match value {
            Ok(value) => found = Some(value),
            Err(SolveError::Cancelled) => {}
            Err(error) => failure = failure.or(Some(error)),
        }
    }
    let Some(value) = found else {
        return Err(failure.unwrap_or(SolveError::Cancelled));
    };
    let mut walk = Walk::new(roll, 0);
    walk.stats = stats;
    let query = Searched {
        game,
        walk,
        table,
        options,
        threads,
    };
    Ok(ChanceSolution::new(
        game,
        start,
        Value::from_exact(value.value.to_rational()),
        Box::new(query),
        options.seed,
    ))
}

pub(crate) fn par_solve_hashed<'g, G, X>(
    game: &'g G,
    roll: X,
    options: Options,
    pool: Option<&rayon::ThreadPool>,
) -> Result<ChanceSolution<'g, G>, SolveError>
where
    G: Game + Sync,
    G::State: Hash + Eq + Send + Sync,
    G::Move: Send,
    X: Roll<G>,
{
    par_solve_on(game, roll, Shared::new(), options, pool)
}

pub(crate) fn par_solve_dense<'g, G, X>(
    game: &'g G,
    roll: X,
    options: Options,
    pool: Option<&rayon::ThreadPool>,
) -> Result<ChanceSolution<'g, G>, SolveError>
where
    G: DenseIndex + Sync,
    G::State: Hash + Eq + Send + Sync,
    G::Move: Send,
    X: Roll<G>,
{
    budget_for_array(SharedDense::bytes_for(game), options)?;
    par_solve_on(game, roll, SharedDense::for_game(game), options, pool)
}

/// Exact values of states of a game with chance, one at a time, on a table kept between them:
/// what the checker compares with its plain expectimax.
pub(crate) struct Valuer<'g, G: Game> {
    game: &'g G,
    walk: Walk<G, super::Rolls>,
    table: Hashed<G::State>,
    limits: crate::Limits,
}

impl<'g, G: crate::game::Chance> Valuer<'g, G>
where
    G::State: Hash + Eq,
{
    pub(crate) fn new(game: &'g G, limits: crate::Limits) -> Self {
        Valuer {
            game,
            walk: Walk::new(super::Rolls, 0),
            table: Hashed::new(),
            limits,
        }
    }

    /// The exact value of `state`.
    pub(crate) fn value_of(&mut self, state: &G::State) -> Result<super::Rational, SolveError> {
        let guard = RunGuard::new(self.limits, None);
        let value = self
            .walk
            .value(self.game, &self.table, state, true, guard)?;
        Ok(value.value.to_rational())
    }
}
