//! Games with chance ([`Chance`]): dice, coins, any state whose outcomes a roll decides.
//!
//! A chance state's value is the expectation over its outcomes, for its side to move; every
//! other state is the mover's choice, as in any game ([`Chance`] has the recursion). Two
//! engines:
//!
//! - **expectimax** ([`solve`], [`solve_dense`], [`par_solve`], [`par_solve_dense`]): a
//!   memoized search of a game whose play cannot cycle, in exact fractions ([`Rational`]: no
//!   float anywhere, of any size, so nothing overflows; the memory budget bounds them). A state
//!   reached by a chance outcome is valued from its children and not stored (a bear-off race
//!   stores its positions between rolls, not one per roll). On a hash table or a flat array by
//!   the game's [`DenseIndex`]; on several threads, every worker searches in its own order and
//!   they share the table.
//! - **value iteration** ([`iterate`], [`iterate_tiers`]), for a game whose play can cycle (in
//!   Pig both players can keep rolling a 1): the reachable states (or, with [`Tiered`], one tier
//!   at a time, from the last: within a tier play may cycle, and every move leads to the same
//!   tier or a later one), each with a lower and an upper bound that Gauss–Seidel sweeps
//!   tighten until they are [`Options::error_bound`] apart. The bounds start at the game's
//!   values' range and hold for every solution of the game's equations at every sweep (each is
//!   rounded outwards), so the result's [`Value::error_bound`] is proved, not estimated. Where
//!   a tier (or the whole game) has at most [`Options::exact_states`] states, the policy the
//!   bounds single out is solved exactly as a linear system in fractions and checked to be
//!   optimal in exact arithmetic: Piglet's values come out as fractions (4/7).
//!
//! [`Solver::solve_chance`](crate::Solver::solve_chance) picks the engine from the game's
//! declaration; each result answers through [`Solved`](crate::Solved) with a [`Value`].

pub(crate) mod expectimax;
pub(crate) mod iteration;
mod linear;
// Reading a saved solution back (`--load`), which only the command line does.
#[cfg(feature = "cli")]
mod loaded;
mod policy;
mod scaled;
mod solution;
mod tables;
mod value;

use crate::engines::kernel::Limits;
use crate::error::SolveError;
use crate::game::{Chance, DenseIndex, Game, Probability, Tiered};

pub(crate) use expectimax::Valuer;
#[cfg(feature = "cli")]
pub(crate) use loaded::loaded;
pub use solution::{ChanceSolution, LINE_PLIES};
#[cfg(feature = "cli")]
pub(crate) use solution::{Held, combine};
pub use value::{NotAFraction, Rational, Value};

/// The options of the chance engines.
///
/// ```
/// use gamesolver::engines::chance::Options;
///
/// let options = Options::new().error_bound(1e-10).exact_states(0);
/// assert_eq!((options.error_bound, options.exact_states), (1e-10, 0));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Options {
    /// The memory budget and time limit.
    pub limits: Limits,
    /// Value iteration sweeps a tier (or the game) until every state's bounds are at most
    /// this far apart, or until they stop closing (then the result's bound says how far they
    /// got). Default 10⁻¹².
    pub error_bound: f64,
    /// Value iteration solves a tier (or a game without tiers) of at most this many states
    /// exactly: the policy its bounds single out, as a linear system in fractions, checked
    /// optimal. 0: never. Default [`EXACT_STATES`].
    pub exact_states: usize,
    /// The seed with which a result's line draws the chance outcomes it assumes.
    pub seed: u64,
}

/// The most states of a tier (or of a game without tiers) that value iteration solves exactly
/// by default ([`Options::exact_states`]): its linear system in fractions takes time cubic in
/// the states.
pub const EXACT_STATES: usize = 128;

impl Default for Options {
    fn default() -> Self {
        Options::new()
    }
}

impl Options {
    /// The default limits, an error bound of 10⁻¹², exact tiers up to [`EXACT_STATES`]
    /// states, seed 0.
    pub fn new() -> Self {
        Options {
            limits: Limits::default(),
            error_bound: 1e-12,
            exact_states: EXACT_STATES,
            seed: 0,
        }
    }

    /// These options with `limits`.
    pub fn limits(self, limits: Limits) -> Self {
        Options { limits, ..self }
    }

    /// These options aiming at bounds `error_bound` apart.
    pub fn error_bound(self, error_bound: f64) -> Self {
        Options {
            error_bound,
            ..self
        }
    }

    /// These options solving tiers of up to `states` states exactly (0: none).
    pub fn exact_states(self, states: usize) -> Self {
        Options {
            exact_states: states,
            ..self
        }
    }

    /// These options drawing the line's outcomes with `seed`.
    pub fn seed(self, seed: u64) -> Self {
        Options { seed, ..self }
    }
}

/// What the chance engines ask of a game beyond [`Game`]: whether a state is a chance state,
/// and its outcomes' probabilities. [`Rolls`] reads a game's [`Chance`]; [`NoRolls`] is a game
/// without chance, every state the mover's.
pub(crate) trait Roll<G: Game>: Copy + Send + Sync + 'static {
    /// Whether `state` is a chance state.
    fn is_chance(self, game: &G, state: &G::State) -> bool;
    /// The probability of `outcome` at the chance state `state`.
    fn probability(self, game: &G, state: &G::State, outcome: &G::Move) -> Probability;
}

/// A game's own [`Chance`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rolls;

impl<G: Chance> Roll<G> for Rolls {
    #[inline]
    fn is_chance(self, game: &G, state: &G::State) -> bool {
        game.is_chance(state)
    }
    #[inline]
    fn probability(self, game: &G, state: &G::State, outcome: &G::Move) -> Probability {
        game.probability(state, outcome)
    }
}

/// No chance: every state is the mover's.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NoRolls;

impl<G: Game> Roll<G> for NoRolls {
    #[inline]
    fn is_chance(self, _: &G, _: &G::State) -> bool {
        false
    }
    #[inline]
    fn probability(self, _: &G, _: &G::State, _: &G::Move) -> Probability {
        Probability::ONE
    }
}

/// Checks that `probabilities` (the outcomes of the chance state `state`) are each positive and
/// at most 1 and sum to exactly 1; [`SolveError::InvalidGame`] naming the state otherwise.
pub(crate) fn check_probabilities<G: Game>(
    game: &G,
    state: &G::State,
    probabilities: impl IntoIterator<Item = Probability>,
) -> Result<(), SolveError> {
    // The sum as a fraction of u128s while it fits (dice: 6ths, 36ths), then of big integers.
    let mut sum = Rational::zero();
    let (mut small, mut fits) = ((0u128, 1u128), true);
    let mut any = false;
    for probability in probabilities {
        any = true;
        if !probability.is_valid() {
            return Err(bad_probabilities(
                game,
                state,
                &format!("an outcome's probability is {probability}"),
            ));
        }
        if fits {
            let (numerator, denominator) = (
                u128::from(probability.numerator()),
                u128::from(probability.denominator()),
            );
            match (
                small.0.checked_mul(denominator),
                numerator.checked_mul(small.1),
                small.1.checked_mul(denominator),
            ) {
                (Some(left), Some(right), Some(denominator))
                    if left.checked_add(right).is_some() =>
                {
                    let numerator = left + right;
                    let divisor = gcd(numerator, denominator);
                    small = (numerator / divisor, denominator / divisor);
                    continue;
                }
                _ => {
                    fits = false;
                    sum = Rational::new_big(small.0, small.1);
                }
            }
        }
        sum.add_weighted(
            &Rational::of_probability(probability),
            &Rational::from_integer(1),
        );
    }
    let one = if fits {
        small.0 == small.1
    } else {
        sum == Rational::from_integer(1)
    };
    if any && !one {
        let total = if fits {
            format!("{}/{}", small.0, small.1)
        } else {
            sum.to_string()
        };
        return Err(bad_probabilities(
            game,
            state,
            &format!("its outcomes' probabilities sum to {total}, not 1"),
        ));
    }
    Ok(())
}

/// The greatest common divisor.
fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

/// [`SolveError::InvalidGame`] for a chance state whose probabilities are wrong.
fn bad_probabilities<G: Game>(game: &G, state: &G::State, problem: &str) -> SolveError {
    let shown = game
        .state_text(state)
        .map_or_else(String::new, |text| format!(" {text}"));
    SolveError::InvalidGame(format!(
        "the chance state{shown} is no roll: {problem} (each outcome's probability must be \
         more than 0, and together exactly 1)"
    ))
}

/// [`SolveError::Unsupported`] for a game with chance given to an engine without it: the
/// engines of the other modules call it before they start.
pub(crate) fn refuse_chance<G: Game>(game: &G, engine: &str) -> Result<(), SolveError> {
    if crate::game::declaration::declares_chance(&game.capabilities()) {
        return Err(SolveError::Unsupported(format!(
            "the game declares chance states, which {engine} cannot value (a roll is no \
             player's choice): solve it with Solver::solve_chance or the engines of \
             engines::chance"
        )));
    }
    Ok(())
}

/// Solves a game whose play cannot cycle by expectimax in exact fractions, on a hash table,
/// on one thread.
///
/// ```
/// use gamesolver::{engines::chance, games::Pig, Solved};
///
/// // A race to 2 with a coin (Piglet) cycles: iterate. A bear-off race does not.
/// let game = gamesolver::games::BearOff::new(2, 2)?;
/// let mut solved = chance::solve(&game, chance::Options::new())?;
/// let start = solved.start().clone();
/// assert_eq!(solved.value_of(&start)?, solved.value());
/// assert!(solved.value().is_exact());
/// # let _ = Pig::piglet(2);
/// # Ok::<(), gamesolver::Error>(())
/// ```
pub fn solve<G>(game: &G, options: Options) -> Result<ChanceSolution<'_, G>, SolveError>
where
    G: Chance,
    G::State: Eq + std::hash::Hash,
{
    expectimax::solve_hashed(game, Rolls, options)
}

/// [`solve`] on a flat array by the game's [`DenseIndex`].
pub fn solve_dense<G>(game: &G, options: Options) -> Result<ChanceSolution<'_, G>, SolveError>
where
    G: Chance + DenseIndex,
    G::State: Eq + std::hash::Hash,
{
    expectimax::solve_dense(game, Rolls, options)
}

/// [`solve`] on every thread of the caller's rayon pool: each worker searches in its own
/// order, and they share one table; the first to finish gives the value (the same whatever
/// the threads), and the others stop.
pub fn par_solve<G>(game: &G, options: Options) -> Result<ChanceSolution<'_, G>, SolveError>
where
    G: Chance + Sync,
    G::State: Eq + std::hash::Hash + Send + Sync,
    G::Move: Send,
{
    expectimax::par_solve_hashed(game, Rolls, options, None)
}

/// [`par_solve`] on a flat array by the game's [`DenseIndex`].
pub fn par_solve_dense<G>(game: &G, options: Options) -> Result<ChanceSolution<'_, G>, SolveError>
where
    G: Chance + DenseIndex + Sync,
    G::State: Eq + std::hash::Hash + Send + Sync,
    G::Move: Send,
{
    expectimax::par_solve_dense(game, Rolls, options, None)
}

/// Solves a game whose play may cycle by value iteration over every state reachable from the
/// start, with proved bounds (exact where it has at most [`Options::exact_states`] states).
/// It needs bounds on the values to start from: a declared
/// [`value_range`](crate::Capabilities::value_range), or an
/// [`outcome_game`](crate::Capabilities::outcome_game) (−1..1).
pub fn iterate<G>(game: &G, options: Options) -> Result<ChanceSolution<'_, G>, SolveError>
where
    G: Chance,
    G::State: Eq + std::hash::Hash,
{
    iteration::iterate(game, Rolls, options)
}

/// [`iterate`] one tier at a time, from the last: every move leads to the same tier or a
/// later one (play may cycle within a tier), and the tiers' states are found by
/// [`unrank`](Tiered::unrank). Pig's tiers are the points banked.
pub fn iterate_tiers<G>(game: &G, options: Options) -> Result<ChanceSolution<'_, G>, SolveError>
where
    G: Chance + Tiered,
    G::State: Eq + std::hash::Hash,
{
    iteration::iterate_tiers(game, Rolls, options)
}
