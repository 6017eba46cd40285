//! The exact values expectimax works in: a whole number over a power of a small base
//! (`numerator / base^exponent`), never reduced. A roll's outcomes have probabilities whose
//! denominators divide a small base (36 for two dice), so the expectation over them is a sum
//! of products by small numbers over one more power of that base: no greatest common divisor
//! is ever computed (it was most of the time a fraction took). The base grows (to a common
//! multiple) only where a game mixes rolls of different dice. Values become [`Rational`]s,
//! in lowest terms, only where a caller reads them.

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

use super::Rational;
use crate::game::{Probability, Score};

/// `numerator / base^exponent` (`base` 1 for a whole number, with `exponent` 0).
#[derive(Clone, Debug)]
pub(crate) struct Scaled {
    numerator: BigInt,
    base: u64,
    exponent: u32,
}

/// The greatest common divisor.
fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The least common multiple, or `None` past `u64`.
fn lcm(a: u64, b: u64) -> Option<u64> {
    (a / gcd(a, b)).checked_mul(b)
}

/// `base^power`.
fn power(base: u64, power: u32) -> BigInt {
    num_traits::pow(BigInt::from(base), power as usize)
}

impl Scaled {
    /// The whole number `value`.
    pub(crate) fn integer(value: Score) -> Scaled {
        Scaled {
            numerator: BigInt::from(value),
            base: 1,
            exponent: 0,
        }
    }

    /// Zero, to sum into.
    pub(crate) fn zero() -> Scaled {
        Scaled::integer(0)
    }

    /// The value as a fraction in lowest terms.
    pub(crate) fn to_rational(&self) -> Rational {
        Rational(BigRational::new(
            self.numerator.clone(),
            power(self.base, self.exponent),
        ))
    }

    /// The nearest `f64`, about (a few ulps: used to compare values only where they differ by
    /// far more).
    pub(crate) fn approx(&self) -> f64 {
        if self.exponent == 0 {
            return self.numerator.to_f64().unwrap_or(0.0);
        }
        let denominator = (self.base as f64).powi(self.exponent as i32);
        match self.numerator.to_f64() {
            Some(numerator) if numerator.is_finite() && denominator.is_finite() => {
                numerator / denominator
            }
            _ => self.to_rational().to_f64(),
        }
    }

    /// The heap bytes it holds.
    pub(crate) fn heap_bytes(&self) -> u64 {
        self.numerator.bits().div_ceil(64) * 8
    }

    /// `gain + value` if the turn is kept, `gain − value` if it passes.
    pub(crate) fn combine(gain: Score, keep: bool, value: &Scaled) -> Scaled {
        let mut numerator = if keep {
            value.numerator.clone()
        } else {
            -&value.numerator
        };
        if gain != 0 {
            numerator += BigInt::from(gain) * power(value.base, value.exponent);
        }
        Scaled {
            numerator,
            base: value.base,
            exponent: value.exponent,
        }
    }

    /// `self` over the base `base` (a multiple of its own) and exponent `exponent` (at least
    /// its own).
    fn rescaled(&self, base: u64, exponent: u32) -> BigInt {
        let mut numerator = self.numerator.clone();
        if self.exponent > 0 && base != self.base {
            numerator *= power(base / self.base, self.exponent);
        }
        if exponent > self.exponent {
            numerator *= power(base, exponent - self.exponent);
        }
        numerator
    }

    /// The common base of two values, or `None` past `u64`.
    fn common_base(&self, other: &Scaled) -> Option<u64> {
        lcm(self.base, other.base)
    }

    /// Compares exactly.
    pub(crate) fn compare(&self, other: &Scaled) -> Ordering {
        match self.common_base(other) {
            Some(base) => {
                let exponent = self.exponent.max(other.exponent);
                self.rescaled(base, exponent)
                    .cmp(&other.rescaled(base, exponent))
            }
            None => self.to_rational().cmp(&other.to_rational()),
        }
    }

    /// Adds `probability · (gain ± value)` (a chance state's outcome, the sign by the turn).
    /// `None` if the bases' common multiple passes `u64` (the caller falls back to fractions).
    pub(crate) fn add_outcome(
        &mut self,
        probability: Probability,
        gain: Score,
        keep: bool,
        value: &Scaled,
    ) -> Option<()> {
        let denominator = probability.denominator();
        let mut base = lcm(self.base, denominator)?;
        if value.exponent > 0 {
            base = lcm(base, value.base)?;
        }
        let exponent = self.exponent.max(value.exponent + 1);
        let scale = (base / denominator).checked_mul(probability.numerator())?;
        self.scale_to(base, exponent);
        if gain == 0 && (value.exponent == 0 || value.base == base) {
            // The usual roll: one product by a small number (the probability's numerator over
            // the base, and the powers of the base the value lacks), added in place.
            let factor = (value.exponent + 1..exponent)
                .try_fold(scale, |factor, _| factor.checked_mul(base));
            if let Some(factor) = factor {
                let term = &value.numerator * factor;
                if keep {
                    self.numerator += term;
                } else {
                    self.numerator -= term;
                }
                return Some(());
            }
        }
        let mut term = Scaled::combine(gain, keep, value).rescaled(base, exponent - 1);
        term *= scale;
        self.numerator += term;
        Some(())
    }

    /// Rewrites `self` over `base` (a multiple of its own) and `exponent` (at least its own),
    /// in place.
    fn scale_to(&mut self, base: u64, exponent: u32) {
        if !self.numerator.is_zero() {
            if self.exponent > 0 && base != self.base {
                self.numerator *= power(base / self.base, self.exponent);
            }
            for _ in self.exponent..exponent {
                self.numerator *= base;
            }
        }
        self.base = base;
        self.exponent = exponent;
    }

    /// Whether it is negative.
    #[cfg(test)]
    fn is_negative(&self) -> bool {
        num_traits::Signed::is_negative(&self.numerator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_outcomes_exactly_without_reducing() {
        // (1/6)·(+1) + (5/6)·(−(1/2)) = 1/6 − 5/12 = −1/4.
        let mut half = Scaled::zero();
        half.add_outcome(Probability::new(1, 2), 1, true, &Scaled::integer(0))
            .unwrap();
        assert_eq!(half.to_rational().to_string(), "1/2");
        let mut sum = Scaled::zero();
        sum.add_outcome(Probability::new(1, 6), 1, true, &Scaled::integer(0))
            .unwrap();
        sum.add_outcome(Probability::new(5, 6), 0, false, &half)
            .unwrap();
        assert_eq!(sum.to_rational().to_string(), "-1/4");
        assert!(sum.is_negative());
        assert!((sum.approx() + 0.25).abs() < 1e-15);
        // Outcomes over 36ths of values over powers of 36 stay over powers of 36.
        let mut deep = Scaled::zero();
        deep.add_outcome(Probability::new(2, 36), 0, false, &sum)
            .unwrap();
        deep.add_outcome(Probability::new(34, 36), 3, true, &sum)
            .unwrap();
        assert_eq!(deep.to_rational().to_string(), "47/18");
        assert_eq!(deep.compare(&Scaled::integer(3)), Ordering::Less);
        let mut same = Scaled::zero();
        same.add_outcome(Probability::new(1, 36), 94, true, &Scaled::integer(0))
            .unwrap();
        assert_eq!(same.compare(&deep), Ordering::Equal);
    }
}
