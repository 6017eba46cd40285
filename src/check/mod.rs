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

mod chance;
mod impartial;
mod outcomes;
mod proof;
mod violation;
pub(crate) mod walk;

pub use chance::check_chance;
pub use impartial::check_impartial;
pub(crate) use outcomes::compare_outcomes;
pub use proof::{ProofError, check_proof};
pub use violation::Violation;
use walk::{explore, reference};

use crate::error::SolveError;
use crate::game::{
    DenseIndex, Game, Score, StateAt, Step, Tiered, Turn,
    declaration::{OnIndex, visit_index},
};
use crate::memo::HashTable;
use crate::{Limits, engines::value_at};

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
    pub stopped: Option<crate::SolveError>,
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
    // In index order, so that the violations kept are the same from run to run.
    let mut owners: Vec<(usize, G::State)> = owners.into_iter().collect();
    owners.sort_unstable_by_key(|(index, _)| *index);
    let states: Vec<G::State> = owners.into_iter().map(|(_, state)| state).collect();
    let order = Order {
        game,
        states: &states,
        violations: &mut report.violations,
    };
    visit_index(&game.capabilities(), order);
    report
}

/// The checks of an [ordered index](crate::Capabilities::ordered_index), where the game declares
/// one: every move of `states` leads to a smaller index, and `state_at` gives each state back;
/// for a [subset index](crate::Capabilities::subset_index), to an index whose bits are a subset
/// of the state's.
struct Order<'a, G: Game> {
    game: &'a G,
    states: &'a [G::State],
    violations: &'a mut Vec<Violation<G>>,
}

impl<G: Game> OnIndex<G> for Order<'_, G>
where
    G::State: Eq + Debug,
{
    type Output = ();

    fn declared(self)
    where
        G: DenseIndex,
    {
    }

    fn undeclared(self) {}

    fn ordered(self)
    where
        G: StateAt,
    {
        self.check(false);
    }

    fn subsets(self)
    where
        G: StateAt,
    {
        self.check(true);
    }
}

impl<G: StateAt> Order<'_, G>
where
    G::State: Eq + Debug,
{
    /// The checks of an ordered index, and with `subsets` of a subset index: every move's
    /// index a proper subset of the state's.
    fn check(self, subsets: bool) {
        let mut moves = Vec::new();
        for state in self.states {
            let index = self.game.index(state);
            let given = self.game.state_at(index);
            if given.as_ref() != Some(state) {
                let state = state.clone();
                keep(
                    self.violations,
                    Violation::StateAtNotInverse {
                        state,
                        index,
                        given,
                    },
                );
            }
            moves.clear();
            self.game.moves_into(state, &mut moves);
            for mv in moves.drain(..) {
                let next = self.game.index(&self.game.play(state, &mv).next);
                let outside = subsets && next & !index != 0;
                if !outside && next < index {
                    continue;
                }
                let state = state.clone();
                let violation = if outside {
                    Violation::IndexNotSubset {
                        state,
                        mv,
                        index,
                        next,
                    }
                } else {
                    Violation::IndexNotOrdered {
                        state,
                        mv,
                        index,
                        next,
                    }
                };
                keep(self.violations, violation);
            }
        }
    }
}

/// [`check`], plus the [`Tiered`] contract on every state met: its tier is below
/// `tier_count()` and its rank below its tier's length, `unrank` gives the state back (and so
/// does `unrank_next` from the state of the rank before), every
/// move leads to a later tier at most `tier_reach()` ahead (or stays in its tier, in a game that
/// declares [`may_cycle`](crate::Capabilities::may_cycle)), and
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
    // A game whose play may cycle (the loopy tier solver's) may move within its tier.
    let stays = crate::Declares::may_cycle(&game.capabilities());
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
        game.moves_into(&state, &mut moves);
        let mut expected = Vec::with_capacity(moves.len());
        for mv in &moves {
            let step = game.play(&state, mv);
            let next = game.tier(&step.next);
            if next < tier || (next == tier && !stays) || next - tier > reach {
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
        game.ranked_children(&state, |gain, turn, tier, rank| {
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
/// [`retrograde`](crate::engines::retrograde) relies on): cycles are allowed, every gain must be 0 and
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
    let options = outcome_options(options);
    let mut report = check(game, &options);
    compare_outcomes(game, &options, &mut report);
    report
}

/// `options` as an outcome game is checked under them: cycles allowed, every gain 0, every final
/// payoff −1, 0 or +1.
pub(crate) fn outcome_options(options: &CheckOptions) -> CheckOptions {
    CheckOptions {
        cyclic: true,
        points: Some(0..=0),
        payoffs: Some(-1..=1),
        ..options.clone()
    }
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

/// [`check`], plus the [`CompactKey`](crate::CompactKey) contract that the fixed bound tables
/// rely on: every key of a state met lies below `2^key_bits()`, and states that share a key
/// share a value (a key may join a state with its mirror images, never two states of different
/// values). Up to `value_checks` pairs of different states with one key (the last met first)
/// are valued by an unmemoized negamax within `reference_nodes`.
///
/// ```
/// use gamesolver::check::{check_key, CheckOptions};
/// use gamesolver::games::ConnectFour;
///
/// // Connect Four's key joins a position and its mirror image.
/// let game = ConnectFour::new(4, 4).unwrap();
/// let options = CheckOptions { max_states: 2_000, playouts: 20, ..CheckOptions::default() };
/// let report = check_key(&game, &options);
/// assert!(report.is_ok(), "{report}");
/// ```
pub fn check_key<G>(game: &G, options: &CheckOptions) -> CheckReport<G>
where
    G: crate::CompactKey,
    G::State: Eq + Hash + Debug,
    G::Move: PartialEq + Debug,
{
    let (mut report, states) = explore(game, options);
    if report.stopped.is_some() {
        return report;
    }
    let bits = game.key_bits();
    let mut first_with: HashMap<u128, usize> = HashMap::new();
    let mut shared = Vec::new();
    for (at, state) in states.iter().enumerate() {
        let key = game.key(state);
        if bits < 128 && key >> bits != 0 {
            keep(
                &mut report.violations,
                Violation::KeyTooWide {
                    state: state.clone(),
                    key,
                    bits,
                },
            );
            continue;
        }
        match first_with.get(&key) {
            Some(&earlier) if states[earlier] != *state => shared.push((earlier, at)),
            Some(_) => {}
            None => {
                first_with.insert(key, at);
            }
        }
    }
    let mut compared = 0;
    for &(earlier, later) in shared.iter().rev() {
        if compared >= options.value_checks {
            break;
        }
        let value = |state: &G::State| {
            let mut budget = options.reference_nodes;
            reference(game, state, &mut budget, 0)
        };
        let (Some(first), Some(second)) = (value(&states[earlier]), value(&states[later])) else {
            continue;
        };
        compared += 1;
        if first != second {
            keep(
                &mut report.violations,
                Violation::KeyJoinsUnequal {
                    first: states[earlier].clone(),
                    second: states[later].clone(),
                    values: (first, second),
                },
            );
        }
    }
    report.values_compared += compared;
    report
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
