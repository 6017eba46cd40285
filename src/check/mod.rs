//! A conformance checker for [`Game`] implementations.
//!
//! The engines trust a game to keep the trait's contract: deterministic moves and steps, a
//! state that alone decides its moves and payoff (the memo key is complete), hashing that
//! agrees with equality, no way back to an earlier state, exact known values. A game that
//! breaks the contract gets wrong answers, not errors. [`check`] explores a game — a bounded
//! exhaustive walk from the start, then seeded random playouts — and reports every violation
//! it finds, each with the state (and move) that shows it. [`check_dense`] adds the
//! [`DenseIndex`] contract.
//!
//! ```
//! use gamesolver::check::{check, CheckOptions};
//! use gamesolver::games::StoneGameII;
//!
//! let game = StoneGameII::new(vec![2, 7, 9, 4, 4, 6, 1, 8]).unwrap();
//! let report = check(&game, &CheckOptions::default());
//! assert!(report.is_ok(), "{report}");
//! assert!(report.states > 10 && report.values_compared > 0);
//! ```

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::fmt::{self, Debug};
use std::hash::{Hash, Hasher};
use std::mem::size_of;
use std::ops::RangeInclusive;
use std::time::{Duration, Instant};

mod violation;

pub use violation::Violation;

use crate::error::Error;
use crate::game::{DenseIndex, Game, Score, Step, Tiered, Turn};
use crate::memo::HashTable;
use crate::solve::{Limits, value_at};

/// What to explore and what the game declares about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckOptions {
    /// Seed of the random playouts (the same seed explores the same lines).
    pub seed: u64,
    /// The most distinct states the exhaustive walk visits.
    pub max_states: usize,
    /// How many random playouts to run after the walk.
    pub playouts: usize,
    /// The longest playout, in moves.
    pub max_playout_moves: usize,
    /// The most moves the walk and the playouts may generate in all (each state met has its
    /// moves generated three times): the walk stops at half of it, the playouts at all of it,
    /// so that a game with thousands of moves per state is checked in bounded time.
    pub max_generated: u64,
    /// How many states to compare against an unmemoized negamax (engine value and known value).
    pub value_checks: usize,
    /// The node budget of each unmemoized negamax: states whose subgame is larger are skipped.
    pub reference_nodes: usize,
    /// The game may return to an earlier state (the engines cannot solve such a game; the
    /// checker then does not report cycles, and skips the value comparisons).
    pub cyclic: bool,
    /// The range every move's gain must lie in, if the game declares one.
    pub points: Option<RangeInclusive<Score>>,
    /// The range every payoff must lie in, if the game declares one.
    pub payoffs: Option<RangeInclusive<Score>>,
    /// The memory budget and time limit of the whole check: the walk's states and move lists,
    /// and the engine it compares, share the budget. Past either, the check stops and says so
    /// in [`CheckReport::stopped`].
    pub limits: Limits,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            seed: 1,
            max_states: 20_000,
            playouts: 200,
            max_playout_moves: 100_000,
            max_generated: 50_000_000,
            value_checks: 200,
            reference_nodes: 20_000,
            cyclic: false,
            points: None,
            payoffs: None,
            limits: Limits::default(),
        }
    }
}

/// What [`check`] explored and found.
pub struct CheckReport<G: Game + ?Sized> {
    /// Distinct states met.
    pub states: usize,
    /// Random playouts run.
    pub playouts: usize,
    /// States whose value was compared with an unmemoized negamax.
    pub values_compared: usize,
    /// The violations found: up to [`MAX_PER_KIND`] of each kind, in the order found.
    pub violations: Vec<Violation<G>>,
    /// Why the check stopped before the end, if it did: the memory budget or the time limit
    /// of [`CheckOptions::limits`]. What was explored until then is reported above.
    pub stopped: Option<crate::Error>,
}

/// The most violations of one kind a report keeps, so that a flood of one kind never hides
/// another.
pub const MAX_PER_KIND: usize = 10;

/// Adds `violation` to `list` unless its kind is already there [`MAX_PER_KIND`] times.
fn keep<G: Game + ?Sized>(list: &mut Vec<Violation<G>>, violation: Violation<G>) {
    let kind = std::mem::discriminant(&violation);
    if list
        .iter()
        .filter(|v| std::mem::discriminant(*v) == kind)
        .count()
        < MAX_PER_KIND
    {
        list.push(violation);
    }
}

impl<G> Debug for CheckReport<G>
where
    G: Game + ?Sized,
    G::State: Debug,
    G::Move: Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CheckReport")
            .field("states", &self.states)
            .field("playouts", &self.playouts)
            .field("values_compared", &self.values_compared)
            .field("violations", &self.violations)
            .finish()
    }
}

impl<G: Game + ?Sized> CheckReport<G> {
    /// Whether the check ran to its end and found no violation.
    pub fn is_ok(&self) -> bool {
        self.violations.is_empty() && self.stopped.is_none()
    }
}

/// What a state answered the first time it was met.
struct Seen<M> {
    moves: Vec<M>,
    known: Option<Score>,
    payoff: Option<Score>,
    hash: u64,
}

/// The checker's walk over one game.
struct Checker<'a, G: Game> {
    game: &'a G,
    options: &'a CheckOptions,
    seen: HashMap<G::State, Seen<G::Move>>,
    order: Vec<G::State>,
    violations: Vec<Violation<G>>,
    /// The bytes of the move lists kept in `seen`.
    move_bytes: u64,
    /// How many moves `moves` has generated so far.
    generated: u64,
    /// The bytes the walk's open line holds (its states and their move lists), and its sets.
    line_bytes: u64,
    /// When the check must stop, and the limit (for the message).
    deadline: Option<(Instant, Duration)>,
}

/// Checks `game` against the [`Game`] contract; see the [module docs](self).
pub fn check<G>(game: &G, options: &CheckOptions) -> CheckReport<G>
where
    G: Game,
    G::State: Eq + Hash + Debug,
    G::Move: PartialEq + Debug,
{
    explore(game, options).0
}

/// [`check`], plus the [`DenseIndex`] contract on every state met that has no known value:
/// each index lies in `0..index_len()`, and no two different states share one.
pub fn check_dense<G>(game: &G, options: &CheckOptions) -> CheckReport<G>
where
    G: DenseIndex,
    G::State: Eq + Hash + Debug,
    G::Move: PartialEq + Debug,
{
    let (mut report, states) = explore(game, options);
    let mut owners: HashMap<usize, G::State> = HashMap::new();
    let len = game.index_len();
    // The owners map holds at most one state per state met: within what the walk had.
    for state in states {
        if game.known_value(&state).is_some() {
            continue;
        }
        let index = game.index(&state);
        let violation = if index >= len {
            Some(Violation::IndexOutOfRange { state, index, len })
        } else {
            match owners.get(&index) {
                Some(owner) if *owner != state => Some(Violation::IndexCollision {
                    first: owner.clone(),
                    second: state,
                    index,
                }),
                Some(_) => None,
                None => {
                    owners.insert(index, state);
                    None
                }
            }
        };
        if let Some(violation) = violation {
            keep(&mut report.violations, violation);
        }
    }
    report
}

/// [`check`], plus the [`Tiered`] contract on every state met: its tier is below
/// `tier_count()` and its rank below its tier's length, `unrank` gives the state back (and so
/// does `unrank_next` from the state of the rank before), every
/// move leads to a later tier at most `tier_reach()` ahead, and
/// [`ranked_children`](Tiered::ranked_children) reports what the moves, played and ranked, give.
///
/// ```
/// use gamesolver::check::{check_tiers, CheckOptions};
/// use gamesolver::games::DotsAndBoxes;
///
/// let report = check_tiers(&DotsAndBoxes::new(2, 2).unwrap(), &CheckOptions::default());
/// assert!(report.is_ok(), "{report:?}");
/// assert_eq!(report.states, 1 << 12); // every set of the 12 edges
/// ```
pub fn check_tiers<G>(game: &G, options: &CheckOptions) -> CheckReport<G>
where
    G: Tiered,
    G::State: Eq + Hash + Debug,
    G::Move: PartialEq + Debug,
{
    let (mut report, states) = explore(game, options);
    let (count, reach) = (game.tier_count(), game.tier_reach());
    let mut moves = Vec::new();
    for state in states {
        let (tier, rank) = (game.tier(&state), game.rank(&state));
        let unranked = (tier < count && rank < game.tier_len(tier))
            .then(|| game.unrank(tier, rank))
            .flatten();
        let inverse = unranked.as_ref() == Some(&state);
        if !inverse {
            let violation = Violation::RankNotInverse {
                state: state.clone(),
                tier,
                rank,
                unranked,
            };
            keep(&mut report.violations, violation);
        }
        let previous = (rank > 0 && inverse)
            .then(|| game.unrank(tier, rank - 1))
            .flatten();
        if let Some(previous) = previous {
            let next = game.unrank_next(tier, rank, &previous);
            if next.as_ref() != Some(&state) {
                let violation = Violation::UnrankNextDisagrees {
                    state: state.clone(),
                    tier,
                    rank,
                    previous,
                    next,
                };
                keep(&mut report.violations, violation);
            }
        }
        moves.clear();
        game.moves(&state, &mut moves);
        let mut expected = Vec::with_capacity(moves.len());
        for mv in &moves {
            let step = game.play(&state, mv);
            let next = game.tier(&step.next);
            if next <= tier || next - tier > reach {
                let violation = Violation::TierNotLater {
                    state: state.clone(),
                    mv: mv.clone(),
                    tier,
                    next,
                    reach,
                };
                keep(&mut report.violations, violation);
            }
            expected.push((step.gain, step.turn, next, game.rank(&step.next)));
        }
        let mut reported = Vec::with_capacity(expected.len());
        game.ranked_children(&state, &mut moves, |gain, turn, tier, rank| {
            reported.push((gain, turn, tier, rank));
        });
        if reported != expected {
            let violation = Violation::RankedChildrenDisagree {
                state,
                expected,
                reported,
            };
            keep(&mut report.violations, violation);
        }
    }
    report
}

/// [`check`] for an *outcome game* whose play may cycle (the contract
/// [`retrograde`](crate::retrograde) relies on): cycles are allowed, every gain must be 0 and
/// every final payoff −1, 0 or +1; then, if the reachable states number at most
/// `max_states`, the retrograde solver's outcome and remoteness of every one of them are
/// compared with value iteration (a state is won within `k` moves if a move leads to a state
/// lost within `k − 1`, lost if every move leads to one won within `k − 1`; iterated until
/// nothing changes; the rest are draws), which shares no code with the solver.
///
/// ```
/// use gamesolver::check::{check_outcome, CheckOptions};
/// use gamesolver::games::CatAndMouse;
///
/// let game = CatAndMouse::new(vec![vec![2, 5], vec![3], vec![0, 4, 5], vec![1, 4, 5],
///                                  vec![2, 3], vec![0, 2, 3]]).unwrap();
/// let report = check_outcome(&game, &CheckOptions::default());
/// assert!(report.is_ok(), "{:?}", report.violations);
/// assert!(report.values_compared > 0);
/// ```
pub fn check_outcome<G>(game: &G, options: &CheckOptions) -> CheckReport<G>
where
    G: Game,
    G::State: Eq + Hash + Debug,
    G::Move: PartialEq + Debug,
{
    let options = CheckOptions {
        cyclic: true,
        points: Some(0..=0),
        payoffs: Some(-1..=1),
        ..options.clone()
    };
    let mut report = check(game, &options);
    if report.stopped.is_some() || !report.violations.is_empty() {
        return report;
    }
    let solved = match crate::retrograde(game, options.limits) {
        Ok(solved) => solved,
        Err(error) => {
            report.stopped = Some(error);
            return report;
        }
    };
    if solved.states() > options.max_states {
        return report;
    }
    // The reachable states and their moves, by this checker's own walk.
    let mut index: HashMap<G::State, usize> = HashMap::new();
    let mut states = vec![game.start()];
    index.insert(game.start(), 0);
    let mut edges: Vec<Vec<(usize, bool)>> = Vec::new();
    let mut moves = Vec::new();
    let mut at = 0;
    while at < states.len() {
        moves.clear();
        game.moves(&states[at], &mut moves);
        let mut out = Vec::with_capacity(moves.len());
        for mv in &moves {
            let step = game.play(&states[at], mv);
            let next = match index.get(&step.next) {
                Some(&next) => next,
                None => {
                    states.push(step.next.clone());
                    index.insert(step.next, states.len() - 1);
                    states.len() - 1
                }
            };
            out.push((next, step.turn == Turn::Keep));
        }
        edges.push(out);
        at += 1;
    }
    use crate::Outcome;
    let mut decided: Vec<Option<(Outcome, u32)>> = states
        .iter()
        .zip(&edges)
        .map(|(state, out)| match (out.is_empty(), game.payoff(state)) {
            (true, 1) => Some((Outcome::Win, 0)),
            (true, -1) => Some((Outcome::Loss, 0)),
            _ => None,
        })
        .collect();
    for round in 1.. {
        let before = decided.clone();
        for (state, out) in edges.iter().enumerate() {
            if before[state].is_some() || out.is_empty() {
                continue;
            }
            let seen = |&(next, keep): &(usize, bool)| {
                before[next].map(|(outcome, _)| if keep { outcome } else { outcome.flipped() })
            };
            if out.iter().any(|edge| seen(edge) == Some(Outcome::Win)) {
                decided[state] = Some((Outcome::Win, round));
            } else if out.iter().all(|edge| seen(edge) == Some(Outcome::Loss)) {
                decided[state] = Some((Outcome::Loss, round));
            }
        }
        if decided == before {
            break;
        }
    }
    for (state, value) in states.into_iter().zip(decided) {
        let iteration = value.map_or((Outcome::Draw, None), |(outcome, r)| (outcome, Some(r)));
        let retrograde = solved.outcome_of(&state);
        report.values_compared += 1;
        if retrograde != Some(iteration) {
            keep(
                &mut report.violations,
                Violation::OutcomeDisagrees {
                    retrograde: retrograde.unwrap_or((Outcome::Draw, None)),
                    state,
                    iteration,
                },
            );
        }
    }
    report
}

/// [`check`], plus the [`ValueRange`](crate::ValueRange) contract: on up to `value_checks` of
/// the states met without a known value (the last met whose subgame an unmemoized negamax can
/// value within `reference_nodes`), the exact value lies within the declared range.
///
/// ```
/// use gamesolver::check::{check_ranged, CheckOptions};
/// use gamesolver::games::ConnectFour;
///
/// let game = ConnectFour::new(4, 4).unwrap();
/// let options = CheckOptions { max_states: 2_000, playouts: 20, ..CheckOptions::default() };
/// assert!(check_ranged(&game, &options).is_ok());
/// ```
pub fn check_ranged<G>(game: &G, options: &CheckOptions) -> CheckReport<G>
where
    G: crate::ValueRange,
    G::State: Eq + Hash + Debug,
    G::Move: PartialEq + Debug,
{
    let (mut report, states) = explore(game, options);
    if report.stopped.is_some() || options.cyclic {
        return report;
    }
    // The states met last are usually the smallest subgames; those the unmemoized negamax
    // can value within its budget are compared.
    let mut compared = 0;
    for state in states.iter().rev() {
        if compared >= options.value_checks {
            break;
        }
        // The contract covers the states without a known value.
        if game.known_value(state).is_some() {
            continue;
        }
        let mut budget = options.reference_nodes;
        let Some(value) = reference(game, state, &mut budget, 0) else {
            continue;
        };
        compared += 1;
        let (low, high) = game.value_range(state);
        if value < i128::from(low) || value > i128::from(high) {
            keep(
                &mut report.violations,
                Violation::OutsideRange {
                    state: state.clone(),
                    value: value.clamp(-i128::from(Score::MAX), i128::from(Score::MAX)) as Score,
                    range: (low, high),
                },
            );
        }
    }
    report
}

/// Runs every check; returns the report and the distinct states met, in the order met.
fn explore<G>(game: &G, options: &CheckOptions) -> (CheckReport<G>, Vec<G::State>)
where
    G: Game,
    G::State: Eq + Hash + Debug,
    G::Move: PartialEq + Debug,
{
    let mut checker = Checker {
        game,
        options,
        seen: HashMap::new(),
        order: Vec::new(),
        violations: Vec::new(),
        move_bytes: 0,
        generated: 0,
        line_bytes: 0,
        deadline: options
            .limits
            .time_limit
            .and_then(|limit| Some((Instant::now().checked_add(limit)?, limit))),
    };
    let mut playouts = 0;
    let mut values_compared = 0;
    let stopped = checker
        .walk()
        .map(|()| checker.equal_states_apart())
        .and_then(|()| checker.playouts(&mut playouts))
        .and_then(|()| {
            if options.cyclic {
                Ok(())
            } else {
                checker.values(&mut values_compared)
            }
        })
        .err();
    let report = CheckReport {
        states: checker.seen.len(),
        playouts,
        values_compared,
        violations: checker.violations,
        stopped,
    };
    (report, checker.order)
}

fn hash_of<T: Hash>(value: &T) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

impl<G> Checker<'_, G>
where
    G: Game,
    G::State: Eq + Hash + Debug,
    G::Move: PartialEq + Debug,
{
    /// Records a violation, unless the very same one is already recorded.
    fn report(&mut self, violation: Violation<G>) {
        let sentence = violation.to_string();
        if !self.violations.iter().any(|v| v.to_string() == sentence) {
            keep(&mut self.violations, violation);
        }
    }

    /// Checks one state's own answers, records it if new, and compares it with an equal state
    /// met before. Returns its moves; errors once the check is over its memory budget or its
    /// time limit.
    fn visit(&mut self, state: &G::State) -> Result<Vec<G::Move>, Error> {
        let game = self.game;
        let mut first = Vec::new();
        let mut second = Vec::new();
        game.moves(state, &mut first);
        game.moves(state, &mut second);
        self.generated += 3 * first.len() as u64;
        if first != second {
            self.report(Violation::MovesNotDeterministic {
                state: state.clone(),
                first: first.clone(),
                second,
            });
        } else if !first.is_empty() {
            // Handed a buffer that already holds moves, `moves` must leave them be.
            second.clear();
            second.extend_from_slice(&first);
            game.moves(state, &mut second);
            // A deterministic game appends the same moves again after them.
            let n = first.len();
            if second.len() != 2 * n || second[..n] != first[..] || second[n..] != first[..] {
                self.report(Violation::MovesClearBuffer {
                    state: state.clone(),
                });
            }
        }
        let hash = hash_of(state);
        if hash != hash_of(&state.clone()) || hash != hash_of(state) {
            self.report(Violation::HashInconsistent {
                state: state.clone(),
            });
        }
        let known = game.known_value(state);
        let payoff = first.is_empty().then(|| game.payoff(state));
        for (what, score) in [("known value", known), ("payoff", payoff)] {
            if score == Some(Score::MIN) {
                self.report(Violation::InvalidScore {
                    state: state.clone(),
                    what,
                });
            }
        }
        if let (Some(range), Some(payoff)) = (&self.options.payoffs, payoff)
            && !range.contains(&payoff)
        {
            self.report(Violation::PayoffOutOfRange {
                state: state.clone(),
                payoff,
            });
        }
        if let Some((earlier, seen)) = self.seen.get_key_value(state) {
            let difference = if seen.hash != hash {
                None // reported as a hash problem below
            } else if seen.moves != first {
                Some("moves")
            } else if seen.known != known {
                Some("known value")
            } else if seen.payoff != payoff {
                Some("payoff")
            } else {
                None
            };
            let earlier = earlier.clone();
            if seen.hash != hash {
                self.report(Violation::HashInconsistent {
                    state: state.clone(),
                });
            }
            if let Some(difference) = difference {
                self.report(Violation::IncompleteState {
                    first: earlier,
                    second: state.clone(),
                    difference,
                });
            }
        } else {
            let moves = first.clone();
            self.move_bytes += (moves.capacity() * size_of::<G::Move>()) as u64;
            self.seen.insert(
                state.clone(),
                Seen {
                    moves,
                    known,
                    payoff,
                    hash,
                },
            );
            self.order.push(state.clone());
            self.within_limits()?;
        }
        Ok(first)
    }

    /// The bytes the check holds now, about: the states met (in a hash map that may double,
    /// and in order) with their move lists, and the walk's line.
    fn held(&self) -> u64 {
        let entry = size_of::<G::State>() + size_of::<Seen<G::Move>>() + 1;
        let tables = self.seen.capacity() * entry + self.order.capacity() * size_of::<G::State>();
        (2 * tables) as u64 + self.move_bytes + self.line_bytes
    }

    /// Errors if the check holds more than its budget, or (looked at every 256 states) has
    /// passed its time limit.
    fn within_limits(&self) -> Result<(), Error> {
        let held = self.held();
        let budget = self.options.limits.memory_budget;
        if held > budget {
            return Err(Error::MemoryBudget {
                what: format!(
                    "the check ({} states met, with their move lists)",
                    self.seen.len()
                ),
                needed: held,
                budget,
            });
        }
        if self.seen.len().is_multiple_of(256)
            && let Some((deadline, limit)) = self.deadline
            && Instant::now() >= deadline
        {
            return Err(Error::TimeLimit {
                limit,
                progress: format!("{} states checked", self.seen.len()),
            });
        }
        Ok(())
    }

    /// What is left of the limits for the engine the check compares.
    fn engine_limits(&self) -> Result<Limits, Error> {
        let budget = self.options.limits.memory_budget;
        let left = budget.checked_sub(self.held()).ok_or(Error::MemoryBudget {
            what: "the check's states".into(),
            needed: self.held(),
            budget,
        })?;
        let mut limits = Limits::with_memory_budget(left);
        if let Some((deadline, limit)) = self.deadline {
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return Err(Error::TimeLimit {
                    limit,
                    progress: format!("{} states checked", self.seen.len()),
                });
            }
            limits = limits.time_limit(remaining);
        }
        Ok(limits)
    }

    /// Equal states stored apart: `seen` merges equal states whose hashes agree, so two equal
    /// states among those it holds had different hashes. Compares the first states met, pair
    /// by pair (a hash that counts something `Eq` ignores splits states everywhere).
    fn equal_states_apart(&mut self) {
        let sample = &self.order[..self.order.len().min(EQUALITY_SAMPLE)];
        let mut found = Vec::new();
        'pairs: for (at, first) in sample.iter().enumerate() {
            for second in &sample[at + 1..] {
                if first == second {
                    found.push((first.clone(), second.clone()));
                    if found.len() == MAX_PER_KIND {
                        break 'pairs;
                    }
                    break;
                }
            }
        }
        for (first, second) in found {
            self.report(Violation::EqualStatesApart { first, second });
        }
    }

    /// Plays `mv` twice and checks the step.
    fn step(&mut self, state: &G::State, mv: &G::Move) -> Step<G::State> {
        let first = self.game.play(state, mv);
        let second = self.game.play(state, mv);
        if first != second {
            self.report(Violation::PlayNotDeterministic {
                state: state.clone(),
                mv: mv.clone(),
                first: first.clone(),
                second,
            });
        }
        if first.gain == Score::MIN {
            self.report(Violation::InvalidScore {
                state: state.clone(),
                what: "gain",
            });
        }
        if let Some(range) = &self.options.points
            && !range.contains(&first.gain)
        {
            self.report(Violation::PointsOutOfRange {
                state: state.clone(),
                mv: mv.clone(),
                gain: first.gain,
            });
        }
        first
    }

    /// Depth-first from the start over at most `max_states` distinct states, on an explicit
    /// stack whose states are the current line (so a move back onto it is a cycle).
    fn walk(&mut self) -> Result<(), Error> {
        let start = self.game.start();
        let moves = self.visit(&start)?;
        // A frame's bytes: its state (on the line and in `on_line`, which may double), its
        // moves; then its state again in `expanded`.
        let frame = |moves: &Vec<G::Move>| {
            (4 * size_of::<G::State>() + 32 + moves.capacity() * size_of::<G::Move>()) as u64
        };
        self.line_bytes = frame(&moves);
        let mut line: Vec<(G::State, Vec<G::Move>, usize)> = vec![(start.clone(), moves, 0)];
        let mut on_line: HashSet<G::State> = HashSet::from([start]);
        let mut expanded: HashSet<G::State> = HashSet::new();
        while let Some((state, moves, next)) = line.last_mut() {
            // The walk has half of the moves, the playouts the rest.
            if self.generated > self.options.max_generated / 2 {
                break;
            }
            let Some(mv) = moves.get(*next).cloned() else {
                let (state, moves, _) = line.pop().expect("the loop runs while the line is open");
                self.line_bytes -= frame(&moves);
                self.line_bytes += 2 * size_of::<G::State>() as u64;
                on_line.remove(&state);
                expanded.insert(state);
                continue;
            };
            *next += 1;
            let state = state.clone();
            let step = self.step(&state, &mv);
            if on_line.contains(&step.next) {
                if !self.options.cyclic {
                    let from = line
                        .iter()
                        .position(|(s, _, _)| *s == step.next)
                        .unwrap_or(0);
                    let cycle = line[from..].iter().map(|(s, _, _)| s.clone()).collect();
                    self.report(Violation::Cycle { line: cycle });
                }
                continue;
            }
            let new = !self.seen.contains_key(&step.next);
            let moves = self.visit(&step.next)?;
            if new && self.seen.len() <= self.options.max_states && !expanded.contains(&step.next) {
                self.line_bytes += frame(&moves);
                self.within_limits()?;
                on_line.insert(step.next.clone());
                line.push((step.next, moves, 0));
            }
        }
        self.line_bytes = 0;
        Ok(())
    }

    /// Random lines from the start, checking every state and step on them.
    fn playouts(&mut self, done: &mut usize) -> Result<(), Error> {
        let mut random = self.options.seed;
        for _ in 0..self.options.playouts {
            if self.generated > self.options.max_generated {
                break;
            }
            let mut state = self.game.start();
            let mut on_line = HashSet::from([state.clone()]);
            for _ in 0..self.options.max_playout_moves {
                let moves = self.visit(&state)?;
                if moves.is_empty() {
                    break;
                }
                let pick = (split_mix(&mut random) % moves.len() as u64) as usize;
                let step = self.step(&state, &moves[pick]);
                if !on_line.insert(step.next.clone()) {
                    if !self.options.cyclic {
                        self.report(Violation::Cycle {
                            line: vec![step.next.clone(), state.clone()],
                        });
                    }
                    break;
                }
                state = step.next;
            }
            *done += 1;
        }
        Ok(())
    }

    /// Compares known values and the engine's values with an unmemoized negamax, on the states
    /// met last (usually the smallest subgames) whose subgame fits the node budget.
    fn values(&mut self, compared: &mut usize) -> Result<(), Error> {
        let mut table = HashTable::new();
        let states: Vec<G::State> = self.order.iter().rev().cloned().collect();
        for state in states {
            if *compared >= self.options.value_checks {
                break;
            }
            let limits = self.engine_limits()?;
            let mut budget = self.options.reference_nodes;
            let Some(actual) = reference(self.game, &state, &mut budget, 0) else {
                continue;
            };
            *compared += 1;
            if let Some(claimed) = self.game.known_value(&state)
                && i128::from(claimed) != actual
            {
                self.report(Violation::KnownValueWrong {
                    state: state.clone(),
                    claimed,
                    actual,
                });
            }
            match value_at(self.game, &mut table, &state, limits) {
                Ok(engine) if i128::from(engine) != actual => {
                    self.report(Violation::EngineDisagrees {
                        state,
                        engine,
                        reference: actual,
                    });
                }
                Ok(_) => {}
                // The check's own limits stop the check; anything else is the game's.
                Err(error @ (Error::MemoryBudget { .. } | Error::TimeLimit { .. })) => {
                    return Err(error);
                }
                Err(error) => self.report(Violation::EngineFailed {
                    state,
                    error,
                    reference: Some(actual),
                }),
            }
        }
        *compared += self.start_known_value(&mut table)?;
        Ok(())
    }

    /// The start's `known_value`, if it has one, against one level of search: the best of its
    /// moves, each valued by the engine. (Its whole subgame is usually too large for the
    /// unmemoized negamax, so the sampled comparisons above rarely reach it.) Returns 1 if it
    /// compared.
    fn start_known_value(&mut self, table: &mut HashTable<G::State>) -> Result<usize, Error> {
        let start = self.game.start();
        let Some(claimed) = self.game.known_value(&start) else {
            return Ok(0);
        };
        let limits = self.engine_limits()?;
        let mut moves = Vec::new();
        self.game.moves(&start, &mut moves);
        let mut best: Option<i128> = None;
        for mv in &moves {
            let step = self.game.play(&start, mv);
            let child = match value_at(self.game, table, &step.next, limits) {
                Ok(child) => i128::from(child),
                Err(error @ (Error::MemoryBudget { .. } | Error::TimeLimit { .. })) => {
                    return Err(error);
                }
                Err(error) => {
                    self.report(Violation::EngineFailed {
                        state: step.next,
                        error,
                        reference: None,
                    });
                    return Ok(1);
                }
            };
            let value = i128::from(step.gain)
                + match step.turn {
                    Turn::Pass => -child,
                    Turn::Keep => child,
                };
            best = Some(best.map_or(value, |best| best.max(value)));
        }
        let actual = best.unwrap_or_else(|| i128::from(self.game.payoff(&start)));
        if actual != i128::from(claimed) {
            self.report(Violation::KnownValueWrong {
                state: start,
                claimed,
                actual,
            });
        }
        Ok(1)
    }
}

/// How many of the first states met are compared pair by pair for equal states stored apart.
const EQUALITY_SAMPLE: usize = 2_000;

/// The deepest an unmemoized negamax goes (it recurses natively).
const REFERENCE_DEPTH: usize = 2_000;

/// Plain negamax over the literal moves, ignoring `known_value`, in `i128` (no overflow);
/// `None` once `budget` nodes are spent or the line gets too deep.
fn reference<G: Game>(
    game: &G,
    state: &G::State,
    budget: &mut usize,
    depth: usize,
) -> Option<i128> {
    if *budget == 0 || depth > REFERENCE_DEPTH {
        return None;
    }
    *budget -= 1;
    let mut moves = Vec::new();
    game.moves(state, &mut moves);
    // Work is counted in moves too: a state with 10⁴ moves is 10⁴ times the work.
    *budget = budget.checked_sub(moves.len())?;
    if moves.is_empty() {
        return Some(i128::from(game.payoff(state)));
    }
    let mut best = None;
    for mv in &moves {
        let step = game.play(state, mv);
        let child = reference(game, &step.next, budget, depth + 1)?;
        let value = i128::from(step.gain)
            + match step.turn {
                Turn::Pass => -child,
                Turn::Keep => child,
            };
        best = Some(best.map_or(value, |best: i128| best.max(value)));
    }
    best
}

/// SplitMix64: a small, seedable generator for the playouts.
fn split_mix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl<G> fmt::Display for CheckReport<G>
where
    G: Game + ?Sized,
    G::State: Debug,
    G::Move: Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} states, {} playouts, {} values compared: ",
            self.states, self.playouts, self.values_compared
        )?;
        if let Some(error) = &self.stopped {
            write!(f, "stopped early ({error}); ")?;
        }
        if self.violations.is_empty() {
            return write!(f, "no violation");
        }
        writeln!(f, "{} violation(s)", self.violations.len())?;
        for violation in &self.violations {
            writeln!(f, "- {violation}")?;
        }
        Ok(())
    }
}
