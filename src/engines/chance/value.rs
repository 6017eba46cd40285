//! The values of games with chance: [`Rational`] (an exact fraction of any size) and [`Value`]
//! (exact, or an estimate with the error bound that was proved for it).

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::game::{Probability, Score};

/// An exact fraction, of any size: the value of a state of a game with chance where it is
/// known exactly (a bear-off race's denominators pass 128 bits). Written `4/7`, or `-3` when it
/// is a whole number.
///
/// ```
/// use gamesolver::engines::chance::Rational;
///
/// let four_sevenths: Rational = "8/14".parse().unwrap();
/// assert_eq!(four_sevenths.to_string(), "4/7");
/// assert_eq!(Rational::from_integer(-3).to_string(), "-3");
/// assert!((four_sevenths.to_f64() - 4.0 / 7.0).abs() < 1e-16);
/// assert_eq!((four_sevenths.numerator(), four_sevenths.denominator()), ("4".into(), "7".into()));
/// assert!("1/0".parse::<Rational>().is_err());
/// ```
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rational(pub(crate) BigRational);

impl Rational {
    /// The whole number `value`.
    pub fn from_integer(value: i64) -> Rational {
        Rational(BigRational::from_integer(BigInt::from(value)))
    }

    /// `numerator / denominator` in lowest terms, or `None` for a zero denominator.
    pub fn new(numerator: i64, denominator: i64) -> Option<Rational> {
        (denominator != 0).then(|| {
            Rational(BigRational::new(
                BigInt::from(numerator),
                BigInt::from(denominator),
            ))
        })
    }

    /// `numerator / denominator` of two `u128`s (the denominator not zero).
    pub(crate) fn new_big(numerator: u128, denominator: u128) -> Rational {
        Rational(BigRational::new(
            BigInt::from(numerator),
            BigInt::from(denominator),
        ))
    }

    /// The probability as a fraction.
    pub(crate) fn of_probability(probability: Probability) -> Rational {
        Rational(BigRational::new(
            BigInt::from(probability.numerator()),
            BigInt::from(probability.denominator()),
        ))
    }

    /// The nearest `f64`.
    pub fn to_f64(&self) -> f64 {
        self.0.to_f64().unwrap_or_else(|| {
            // Past f64's range (never a game's value): the sign's infinity.
            if self.0.is_negative() {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        })
    }

    /// The numerator in lowest terms, in decimal (it may have any number of digits); negative
    /// for a negative fraction.
    pub fn numerator(&self) -> String {
        self.0.numer().to_string()
    }

    /// The denominator in lowest terms, in decimal: positive.
    pub fn denominator(&self) -> String {
        self.0.denom().to_string()
    }

    /// Whether it is a whole number.
    pub fn is_integer(&self) -> bool {
        self.0.is_integer()
    }

    /// The bits of its numerator and denominator together: how large it has grown.
    pub fn bits(&self) -> u64 {
        self.0.numer().bits() + self.0.denom().bits()
    }

    /// Zero.
    pub(crate) fn zero() -> Rational {
        Rational(BigRational::zero())
    }

    /// `gain + value` if the turn is kept, `gain − value` if it passes.
    pub(crate) fn combine(gain: Score, keep: bool, value: &Rational) -> Rational {
        let value = if keep {
            value.0.clone()
        } else {
            -value.0.clone()
        };
        if gain == 0 {
            Rational(value)
        } else {
            Rational(value + BigRational::from_integer(BigInt::from(gain)))
        }
    }

    /// `self + probability · value`.
    pub(crate) fn add_weighted(&mut self, probability: &Rational, value: &Rational) {
        self.0 += &probability.0 * &value.0;
    }

    /// `(1 + self) / 2`.
    pub(crate) fn halfway_up(&self) -> Rational {
        Rational((&self.0 + BigRational::one()) / BigRational::from_integer(BigInt::from(2)))
    }
}

impl fmt::Display for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_integer() {
            write!(f, "{}", self.0.numer())
        } else {
            write!(f, "{}/{}", self.0.numer(), self.0.denom())
        }
    }
}

impl fmt::Debug for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a text is not a fraction.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a fraction (as 4/7 or -3): {0:?}")]
pub struct NotAFraction(pub String);

impl FromStr for Rational {
    type Err = NotAFraction;

    fn from_str(text: &str) -> Result<Rational, NotAFraction> {
        let refuse = || NotAFraction(text.to_string());
        let (numerator, denominator) = match text.trim().split_once('/') {
            Some((numerator, denominator)) => (numerator, denominator),
            None => (text.trim(), "1"),
        };
        let numerator: BigInt = numerator.trim().parse().map_err(|_| refuse())?;
        let denominator: BigInt = denominator.trim().parse().map_err(|_| refuse())?;
        if denominator.is_zero() {
            return Err(refuse());
        }
        Ok(Rational(BigRational::new(numerator, denominator)))
    }
}

/// The value of a state of a game with chance, for its side to move: the expected score
/// difference, or in a win/lose game `P(win) − P(loss)` ([`win_chance`](Value::win_chance)
/// gives the winning chance).
///
/// It is *exact* (a [`Rational`]) where the engine could give it so: every game whose play
/// cannot cycle, and a game that can where exact policy iteration fits; otherwise it is an
/// estimate with the error bound the engine proved: the true value lies in
/// [`bounds`](Value::bounds), and [`to_f64`](Value::to_f64) is their midpoint, within
/// [`error_bound`](Value::error_bound) of it.
///
/// Two values compare by their exact fractions where both have one, else by their estimates.
///
/// ```
/// use gamesolver::engines::chance::{Rational, Value};
///
/// let exact = Value::from_exact(Rational::new(1, 7).unwrap());
/// assert_eq!(exact.win_chance().to_string(), "4/7");
/// assert_eq!(exact.error_bound(), 0.0);
/// let estimate = Value::bounded(0.061, 0.0613);
/// assert!(estimate.exact().is_none());
/// assert!((estimate.to_f64() - 0.06115).abs() < 1e-12 && estimate.error_bound() < 2e-4);
/// assert!(exact > estimate);
/// ```
#[derive(Clone, PartialEq)]
pub struct Value {
    low: f64,
    high: f64,
    exact: Option<Rational>,
}

impl Value {
    /// An exact value.
    pub fn from_exact(value: Rational) -> Value {
        let estimate = value.to_f64();
        Value {
            low: estimate,
            high: estimate,
            exact: Some(value),
        }
    }

    /// A value known to lie in `low..=high`.
    pub fn bounded(low: f64, high: f64) -> Value {
        Value {
            low,
            high,
            exact: None,
        }
    }

    /// The whole number `score`, exactly.
    pub fn score(score: Score) -> Value {
        Value::from_exact(Rational::from_integer(score))
    }

    /// The exact fraction, where the value is exact.
    pub fn exact(&self) -> Option<&Rational> {
        self.exact.as_ref()
    }

    /// Whether the value is exact.
    pub fn is_exact(&self) -> bool {
        self.exact.is_some()
    }

    /// The value as an `f64`: the exact fraction's nearest, or the midpoint of the bounds.
    pub fn to_f64(&self) -> f64 {
        match &self.exact {
            Some(_) => self.low,
            None => self.low + (self.high - self.low) / 2.0,
        }
    }

    /// The bounds the value was proved to lie within (both the nearest `f64` where it is
    /// exact).
    pub fn bounds(&self) -> (f64, f64) {
        (self.low, self.high)
    }

    /// How far [`to_f64`](Value::to_f64) may be from the true value: 0 where the value is
    /// exact (up to the `f64`'s own rounding), half the bounds' width otherwise.
    pub fn error_bound(&self) -> f64 {
        match &self.exact {
            Some(_) => 0.0,
            None => (self.high - self.low) / 2.0,
        }
    }

    /// The winning chance `(1 + v) / 2` of a win/lose game whose payoffs are +1 and −1 (with
    /// draws, the chance of winning plus half the chance of a draw), exact where the value is.
    pub fn win_chance(&self) -> Value {
        match &self.exact {
            Some(exact) => Value::from_exact(exact.halfway_up()),
            None => Value::bounded((1.0 + self.low) / 2.0, (1.0 + self.high) / 2.0),
        }
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        match (&self.exact, &other.exact) {
            (Some(one), Some(other)) => Some(one.cmp(other)),
            _ => self.to_f64().partial_cmp(&other.to_f64()),
        }
    }
}

impl fmt::Display for Value {
    /// The exact fraction, or the estimate with its error bound (`0.530592725 ± 2.1e-11`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.exact {
            Some(exact) => write!(f, "{exact}"),
            None => write!(f, "{} ± {:.1e}", self.to_f64(), self.error_bound()),
        }
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
