//! Chance in the contract: [`Chance`] (which states are chance states, and each outcome's
//! [`Probability`]), for games with dice or coins.

use std::fmt;

use super::Game;

/// An optional capability: some states are *chance states*, where no player chooses and a roll
/// of dice or a flip of a coin decides what happens next.
///
/// At a chance state, [`moves`](Game::moves) lists the *outcomes* (the faces a die can show)
/// and [`play`](Game::play) gives each one's step: the next state, the points gained, and who
/// moves next ([`Turn::Keep`](super::Turn::Keep): the player whose turn it is at the chance
/// state; [`Turn::Pass`](super::Turn::Pass): the other). The game's value there is the
/// *expectation* over the outcomes, for that player:
///
/// ```text
/// v(s) = Σ over outcomes o of  probability(s, o) · (gain + (−v(next) if the turn passes, else v(next)))
/// ```
///
/// Everywhere else the mover chooses, as in any game. A win/lose game's value is then the
/// winning chance in disguise: with payoffs of +1 and −1 (and no draw) the value `v` is
/// `P(win) − P(loss)`, and the winning chance is `(1 + v) / 2`.
///
/// # Contract
///
/// - At a chance state, `probability(state, o)` is positive for every outcome `o` of
///   `moves(state)`, and the outcomes' probabilities sum to exactly 1 (given exactly, as
///   fractions: 1 of 6, 2 of 36). The engines refuse a chance state whose probabilities do not
///   ([`SolveError::InvalidGame`](crate::SolveError::InvalidGame)), and the checker reports it.
/// - A chance state has at least one outcome (a state with none is final, chance or not).
/// - `probability` is asked only of chance states' outcomes.
///
/// Declare it with [`Capabilities::chance`](super::Capabilities::chance), and solve with
/// [`Solver::solve_chance`](crate::Solver::solve_chance).
///
/// ```
/// use gamesolver::game::{Chance, Probability};
/// use gamesolver::{Capabilities, Declares, Game, Score, Solved, Solver, Step, Turn};
///
/// /// A coin decides whether the first player must play on a board of 2 or of 3 counters
/// /// (take 1 or 2; who takes the last one wins).
/// struct CoinThenTakeAway;
///
/// impl Game for CoinThenTakeAway {
///     type State = Option<u32>; // None: the coin is in the air
///     type Move = u32;          // the outcome (counters on the board), or the counters taken
///     fn start(&self) -> Option<u32> { None }
///     fn moves(&self, state: &Option<u32>) -> impl Iterator<Item = u32> {
///         let state = *state;
///         let takes = (1..=2).filter(move |take| state.is_some_and(|left| *take <= left));
///         let coin = [2, 3].into_iter().filter(move |_| state.is_none());
///         takes.chain(coin)
///     }
///     fn play(&self, state: &Option<u32>, mv: &u32) -> Step<Option<u32>> {
///         match state {
///             None => Step { next: Some(*mv), gain: 0, turn: Turn::Keep },
///             Some(left) => Step {
///                 next: Some(left - mv),
///                 gain: Score::from(left == mv),
///                 turn: Turn::Pass,
///             },
///         }
///     }
///     fn payoff(&self, _: &Option<u32>) -> Score { 0 }
///     fn capabilities(&self) -> impl Declares<Self> { Capabilities::none().chance() }
/// }
///
/// impl Chance for CoinThenTakeAway {
///     fn is_chance(&self, state: &Option<u32>) -> bool { state.is_none() }
///     fn probability(&self, _: &Option<u32>, _: &u32) -> Probability { Probability::new(1, 2) }
/// }
///
/// // Two counters: the first player takes both and scores; three: the second player scores.
/// let solved = Solver::new(&CoinThenTakeAway).solve_chance()?;
/// assert_eq!(solved.value().to_string(), "0"); // +1 and −1, each with chance 1/2
/// # Ok::<(), gamesolver::Error>(())
/// ```
pub trait Chance: Game {
    /// Whether `state` is a chance state: its moves are the outcomes of a roll, and no player
    /// chooses among them.
    fn is_chance(&self, state: &Self::State) -> bool;

    /// The probability that `outcome` comes up at the chance state `state`, exactly.
    fn probability(&self, state: &Self::State, outcome: &Self::Move) -> Probability;
}

/// A probability given exactly, as a fraction: `Probability::new(1, 6)` for a face of a die,
/// `Probability::new(2, 36)` for a roll of two different faces of two dice. It need not be in
/// lowest terms; a fraction that is not a probability (a zero denominator, a numerator past it,
/// zero) is accepted here and refused by the engines and the checker, which name the state.
///
/// ```
/// use gamesolver::game::Probability;
///
/// let face = Probability::new(1, 6);
/// assert_eq!((face.numerator(), face.denominator()), (1, 6));
/// assert_eq!(face.to_string(), "1/6");
/// assert!((face.to_f64() - 1.0 / 6.0).abs() < 1e-15);
/// assert!(!Probability::new(0, 6).is_valid() && !Probability::new(7, 6).is_valid());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Probability {
    numerator: u64,
    denominator: u64,
}

impl Probability {
    /// Certainty: the only outcome.
    pub const ONE: Probability = Probability::new(1, 1);

    /// `numerator / denominator`.
    pub const fn new(numerator: u64, denominator: u64) -> Probability {
        Probability {
            numerator,
            denominator,
        }
    }

    /// The numerator, as given.
    pub const fn numerator(self) -> u64 {
        self.numerator
    }

    /// The denominator, as given.
    pub const fn denominator(self) -> u64 {
        self.denominator
    }

    /// Whether it is a probability an outcome can have: more than 0, at most 1.
    pub const fn is_valid(self) -> bool {
        self.numerator > 0 && self.numerator <= self.denominator
    }

    /// The nearest `f64` (for display and the iterated engines; the exact engines never use it).
    pub fn to_f64(self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }
}

impl fmt::Display for Probability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.numerator, self.denominator)
    }
}
