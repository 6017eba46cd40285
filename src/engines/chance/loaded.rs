//! A solution of a game with chance answered from values read back (the command line's
//! `--load`): by the game's dense index, and where a state's value was not kept (a chance
//! outcome's state, which expectimax values from its children without storing it), from its
//! children's.

use hashbrown::HashMap;

use super::solution::{ChanceSolution, Held, Query, combine};
use super::{Rational, Roll, Value};
use crate::engines::kernel::Stats;
use crate::engines::solver::Engine;
use crate::error::SolveError;
use crate::game::{DenseIndex, Probability};

/// How deep [`Loaded`] values a state from its children before it gives up (a file that
/// holds the positions between rolls needs one level).
const DEPTH: usize = 64;

/// Values by the dense index.
struct Loaded<'g, G, X> {
    game: &'g G,
    roll: X,
    values: HashMap<usize, Value>,
    engine: Engine,
}

impl<G: DenseIndex, X: Roll<G>> Loaded<'_, G, X> {
    fn valued(&mut self, state: &G::State, depth: usize) -> Result<Value, SolveError> {
        if let Some(known) = self.game.known_value(state) {
            return Ok(Value::score(known));
        }
        let index = self.game.index(state);
        if let Some(value) = self.values.get(&index) {
            return Ok(value.clone());
        }
        if depth >= DEPTH {
            return Err(SolveError::Unanswerable(
                "the saved values do not reach this state: it is too many moves from any \
                 state they hold"
                    .into(),
            ));
        }
        let moves: Vec<G::Move> = self.game.moves(state).collect();
        if moves.is_empty() {
            return Ok(Value::score(self.game.payoff(state)));
        }
        let chance = self.roll.is_chance(self.game, state);
        let mut values = Vec::with_capacity(moves.len());
        for mv in &moves {
            let step = self.game.play(state, mv);
            let child = self.valued(&step.next, depth + 1)?;
            values.push(combine(step.gain, step.turn, &child));
        }
        let value = if chance {
            expectation(
                moves
                    .iter()
                    .map(|mv| self.roll.probability(self.game, state, mv))
                    .zip(values),
            )
        } else {
            values
                .into_iter()
                .reduce(|best, value| if value > best { value } else { best })
                .expect("a state with moves")
        };
        self.values.insert(index, value.clone());
        Ok(value)
    }
}

/// The expectation of values by their probabilities: exact if they all are, else bounds.
fn expectation(terms: impl Iterator<Item = (Probability, Value)>) -> Value {
    let terms: Vec<(Probability, Value)> = terms.collect();
    if terms.iter().all(|(_, value)| value.is_exact()) {
        let mut sum = Rational::zero();
        for (probability, value) in &terms {
            let exact = value.exact().expect("every term is exact");
            sum.add_weighted(&Rational::of_probability(*probability), exact);
        }
        return Value::from_exact(sum);
    }
    let (mut low, mut high) = (0.0, 0.0);
    for (probability, value) in &terms {
        let (a, b) = value.bounds();
        low += probability.to_f64() * a;
        high += probability.to_f64() * b;
    }
    // Widened by more than the sums' rounding.
    let margin = 4.0 * (terms.len() as f64 + 1.0) * f64::EPSILON * (low.abs() + high.abs() + 1.0);
    Value::bounded(low - margin, high + margin)
}

impl<G: DenseIndex, X: Roll<G>> Query<G> for Loaded<'_, G, X> {
    fn value_of(&mut self, state: &G::State) -> Result<Value, SolveError> {
        self.valued(state, 0)
    }
    fn is_chance(&self, state: &G::State) -> bool {
        self.roll.is_chance(self.game, state)
    }
    fn probability(&self, state: &G::State, outcome: &G::Move) -> Probability {
        self.roll.probability(self.game, state, outcome)
    }
    fn stats(&self) -> Stats {
        Stats {
            stored: self.values.len(),
            ..Stats::default()
        }
    }
    fn engine(&self) -> Engine {
        self.engine
    }
    fn table(&self) -> &'static str {
        "loaded"
    }
    fn threads(&self) -> usize {
        1
    }
    fn held(&self, each: &mut dyn FnMut(Held<'_, G::State>, Value)) {
        for (&index, value) in &self.values {
            each(Held::Index(index), value.clone());
        }
    }
}

/// The solution of `game` from the values `values` by its dense index, as `engine` gave them.
pub(crate) fn loaded<G, X>(
    game: &G,
    roll: X,
    values: HashMap<usize, Value>,
    engine: Engine,
    seed: u64,
) -> Result<ChanceSolution<'_, G>, SolveError>
where
    G: DenseIndex,
    X: Roll<G>,
{
    let mut query = Loaded {
        game,
        roll,
        values,
        engine,
    };
    let start = game.start();
    let value = query.valued(&start, 0)?;
    Ok(ChanceSolution::new(
        game,
        start,
        value,
        Box::new(query),
        seed,
    ))
}
