//! What the chance engines give: [`ChanceSolution`], which answers through
//! [`Solved`] with a [`Value`] for whichever engine ran.

use super::Value;
use crate::engines::kernel::{MoveValue, Ply, Stats};
use crate::engines::retrograde::Outcome;
use crate::engines::solver::{Engine, Solved};
use crate::error::SolveError;
use crate::game::{Game, Player, Probability, Score, Turn};

/// What an engine's result answers, whatever its tables: the solution's questions are asked
/// through it.
pub(crate) trait Query<G: Game> {
    /// The value of `state` for its side to move.
    fn value_of(&mut self, state: &G::State) -> Result<Value, SolveError>;
    /// Whether `state` is a chance state.
    fn is_chance(&self, state: &G::State) -> bool;
    /// The probability of `outcome` at the chance state `state`.
    fn probability(&self, state: &G::State, outcome: &G::Move) -> Probability;
    /// What the solve did.
    fn stats(&self) -> Stats;
    /// Which engine ran.
    fn engine(&self) -> Engine;
    /// Its table, in a word (`hash`, `dense`, `sharded`, `atomic-dense`, `tiers`, `states`).
    fn table(&self) -> &'static str;
    /// The threads it ran on.
    fn threads(&self) -> usize;
    /// Calls `each` with every value the result holds, with its state or its index.
    #[cfg(feature = "cli")]
    fn held(&self, each: &mut dyn FnMut(Held<'_, G::State>, Value));
}

/// Where a held value belongs: its state, or its index in the game's dense index.
#[cfg(feature = "cli")]
pub(crate) enum Held<'a, S> {
    /// The state.
    State(&'a S),
    /// The dense index.
    Index(usize),
}

/// The most plies [`ChanceSolution::line`] draws: a game whose play can cycle may go on for
/// ever (both players of Pig rolling ones), though with probability 0.
pub const LINE_PLIES: usize = 10_000;

/// A game with chance, solved: the value of any state (the expectation at a chance state, for
/// its side to move), every move's value, the best moves, a line, and what the solve did.
///
/// It answers through [`Solved`] with a [`Value`], where the meaning carries over:
///
/// - [`value`](Solved::value), [`value_of`](Solved::value_of): exact fractions where the
///   engine gives them, else estimates with their proved error bounds;
/// - [`move_values`](Solved::move_values): at a decision state, each move's value for the
///   mover; at a chance state, each outcome's, for the player whose turn it is there, had it
///   come up (their expectation is the state's value);
/// - [`best_moves`](Solved::best_moves): the moves whose value no other move is proved to
///   beat (equal fractions where exact; where estimated, bounds that overlap the best's); none
///   at a chance state, where no one chooses;
/// - [`line`](Solved::line): a game played out under optimal play, the outcomes of its rolls
///   drawn with the options' seed by their probabilities ([`line_with_seed`](Self::line_with_seed)
///   with another), at most [`LINE_PLIES`] plies; each ply's value is its state's;
/// - [`outcome`](Solved::outcome) and [`remoteness`](Solved::remoteness) do not carry over
///   (`None`: a roll decides how the game ends and how soon), nor does
///   [`values_by_index`](Solved::values_by_index).
///
/// ```
/// use gamesolver::{games::Pig, Solved, Solver};
///
/// let game = Pig::piglet(2)?;
/// let mut solved = Solver::new(&game).solve_chance()?;
/// assert_eq!(solved.value().win_chance().to_string(), "4/7");
/// let start = solved.start().clone();
/// let best = solved.best_moves(&start)?;
/// assert_eq!(best.len(), 1); // flip the coin
/// assert!(!solved.line()?.is_empty());
/// # Ok::<(), gamesolver::Error>(())
/// ```
pub struct ChanceSolution<'g, G: Game> {
    game: &'g G,
    start: G::State,
    value: Value,
    query: Box<dyn Query<G> + 'g>,
    seed: u64,
}

impl<'g, G: Game> ChanceSolution<'g, G> {
    pub(crate) fn new(
        game: &'g G,
        start: G::State,
        value: Value,
        query: Box<dyn Query<G> + 'g>,
        seed: u64,
    ) -> Self {
        ChanceSolution {
            game,
            start,
            value,
            query,
            seed,
        }
    }

    /// The game.
    pub fn game(&self) -> &'g G {
        self.game
    }

    /// Whether `state` is a chance state.
    pub fn is_chance(&self, state: &G::State) -> bool {
        self.query.is_chance(state)
    }

    /// The probability of `outcome` at the chance state `state`.
    pub fn probability(&self, state: &G::State, outcome: &G::Move) -> Probability {
        self.query.probability(state, outcome)
    }

    /// The table the values were kept in, in a word: `hash`, `dense`, `sharded` or
    /// `atomic-dense` (expectimax), `tiers` or `states` (value iteration).
    pub fn table(&self) -> &'static str {
        self.query.table()
    }

    /// The threads the solve ran on.
    pub fn threads(&self) -> usize {
        self.query.threads()
    }

    /// Calls `each` with every value the solution holds (what `--save` writes).
    #[cfg(feature = "cli")]
    pub(crate) fn held(&self, each: &mut dyn FnMut(Held<'_, G::State>, Value)) {
        self.query.held(each);
    }

    /// A line of optimal play whose rolls are drawn with `seed` (see [`Solved::line`]).
    pub fn line_with_seed(&mut self, seed: u64) -> Result<Vec<Ply<G, Value>>, SolveError> {
        let mut draws = SplitMix(seed);
        let mut state = self.start.clone();
        let mut player = Player::First;
        let mut line = Vec::new();
        while line.len() < LINE_PLIES {
            let moves: Vec<G::Move> = self.game.moves(&state).collect();
            if moves.is_empty() {
                break;
            }
            let value = self.query.value_of(&state)?;
            let mv = if self.query.is_chance(&state) {
                let weights: Vec<f64> = moves
                    .iter()
                    .map(|outcome| self.query.probability(&state, outcome).to_f64())
                    .collect();
                let mut draw = draws.unit() * weights.iter().sum::<f64>();
                let mut chosen = moves.len() - 1;
                for (at, weight) in weights.iter().enumerate() {
                    if draw < *weight {
                        chosen = at;
                        break;
                    }
                    draw -= weight;
                }
                moves[chosen].clone()
            } else {
                let best = self.best_moves(&state)?;
                best.into_iter()
                    .next()
                    .expect("a state with moves has a best one")
            };
            let step = self.game.play(&state, &mv);
            line.push(Ply {
                player,
                state: state.clone(),
                mv,
                gain: step.gain,
                turn: step.turn,
                value,
            });
            player = player.after(step.turn);
            state = step.next;
        }
        Ok(line)
    }
}

/// `gain + value` if the turn is kept, `gain − value` if it passes.
pub(crate) fn combine(gain: Score, turn: Turn, value: &Value) -> Value {
    let keep = turn == Turn::Keep;
    match value.exact() {
        Some(exact) => Value::from_exact(super::Rational::combine(gain, keep, exact)),
        None => {
            let (low, high) = value.bounds();
            let gain = gain as f64;
            if keep {
                Value::bounded(gain + low, gain + high)
            } else {
                Value::bounded(gain - high, gain - low)
            }
        }
    }
}

/// The answers of a game with chance, as the module's docs describe them.
impl<G: Game> Solved<G, Value> for ChanceSolution<'_, G> {
    fn engine(&self) -> Engine {
        self.query.engine()
    }

    fn value(&self) -> Value {
        self.value.clone()
    }

    fn start(&self) -> &G::State {
        &self.start
    }

    fn value_of(&mut self, state: &G::State) -> Result<Value, SolveError> {
        self.query.value_of(state)
    }

    fn move_values(&mut self, state: &G::State) -> Result<Vec<MoveValue<G, Value>>, SolveError> {
        let moves: Vec<G::Move> = self.game.moves(state).collect();
        moves
            .into_iter()
            .map(|mv| {
                let step = self.game.play(state, &mv);
                let child = self.query.value_of(&step.next)?;
                let value = combine(step.gain, step.turn, &child);
                Ok(MoveValue { mv, step, value })
            })
            .collect()
    }

    fn best_moves(&mut self, state: &G::State) -> Result<Vec<G::Move>, SolveError> {
        if self.query.is_chance(state) {
            return Ok(Vec::new());
        }
        let values = self.move_values(state)?;
        let Some(best) = values
            .iter()
            .map(|mv| mv.value.clone())
            .reduce(|best, value| if value > best { value } else { best })
        else {
            return Ok(Vec::new());
        };
        let floor = best.bounds().0;
        Ok(values
            .into_iter()
            .filter(|mv| match (mv.value.exact(), best.exact()) {
                (Some(value), Some(best)) => value == best,
                _ => mv.value.bounds().1 >= floor,
            })
            .map(|mv| mv.mv)
            .collect())
    }

    fn line(&mut self) -> Result<Vec<Ply<G, Value>>, SolveError> {
        self.line_with_seed(self.seed)
    }

    fn stats(&self) -> Stats {
        self.query.stats()
    }

    fn outcome(&self) -> Option<Outcome> {
        None
    }

    fn remoteness(&mut self, _: &G::State) -> Result<Option<u32>, SolveError> {
        Ok(None)
    }
}

impl<G: Game> std::fmt::Debug for ChanceSolution<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChanceSolution")
            .field("engine", &self.query.engine())
            .field("value", &self.value)
            .field("stats", &self.query.stats())
            .finish()
    }
}

/// A small, fast generator of the line's draws (SplitMix64): the same seed, the same line.
struct SplitMix(u64);

impl SplitMix {
    /// A number in `0..1`.
    fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}
