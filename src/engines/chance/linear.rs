//! Exact linear systems in fractions: what value iteration's exact step solves, the values of
//! one policy on a tier whose play cycles.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::Rational;

/// A square system `A x = b` in fractions, `A` dense (the tiers it solves are small).
pub(crate) struct System {
    n: usize,
    /// Row-major, `n × (n + 1)`: each row's coefficients, then its right-hand side.
    cells: Vec<BigRational>,
}

impl System {
    /// `n` equations in `n` unknowns, every coefficient 0.
    pub(crate) fn new(n: usize) -> Self {
        System {
            n,
            cells: vec![BigRational::zero(); n * (n + 1)],
        }
    }

    /// Adds `coefficient` to `A[row][column]`.
    pub(crate) fn add(&mut self, row: usize, column: usize, coefficient: &Rational) {
        self.cells[row * (self.n + 1) + column] += &coefficient.0;
    }

    /// Adds `term` to `b[row]`.
    pub(crate) fn add_constant(&mut self, row: usize, term: &Rational) {
        self.cells[row * (self.n + 1) + self.n] += &term.0;
    }

    /// Sets `A[row][row]` to 1 more than it holds (the unknown's own term, `x_row`).
    pub(crate) fn add_own(&mut self, row: usize) {
        self.cells[row * (self.n + 1) + row] += BigRational::one();
    }

    /// The solution, by Gaussian elimination with the first nonzero pivot; `None` if the
    /// system is singular.
    pub(crate) fn solve(mut self) -> Option<Vec<Rational>> {
        let (n, width) = (self.n, self.n + 1);
        for column in 0..n {
            let pivot = (column..n).find(|&row| !self.cells[row * width + column].is_zero())?;
            if pivot != column {
                for at in 0..width {
                    self.cells.swap(pivot * width + at, column * width + at);
                }
            }
            let inverse = BigRational::one() / &self.cells[column * width + column];
            for at in column..width {
                let scaled = &self.cells[column * width + at] * &inverse;
                self.cells[column * width + at] = scaled;
            }
            for row in 0..n {
                if row == column {
                    continue;
                }
                let factor = self.cells[row * width + column].clone();
                if factor.is_zero() {
                    continue;
                }
                for at in column..width {
                    let term = &factor * &self.cells[column * width + at];
                    self.cells[row * width + at] -= term;
                }
            }
        }
        Some(
            (0..n)
                .map(|row| Rational(std::mem::take(&mut self.cells[row * width + n])))
                .collect(),
        )
    }
}

/// `x` as a fraction.
pub(crate) fn integer(x: i64) -> Rational {
    Rational(BigRational::from_integer(BigInt::from(x)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_small_system_exactly_and_refuses_a_singular_one() {
        // x − y/2 = 1, y − x/3 = 0: x = 6/5, y = 2/5.
        let mut system = System::new(2);
        system.add_own(0);
        system.add(0, 1, &Rational::new(-1, 2).unwrap());
        system.add_constant(0, &integer(1));
        system.add_own(1);
        system.add(1, 0, &Rational::new(-1, 3).unwrap());
        let solution = system.solve().unwrap();
        assert_eq!(solution[0].to_string(), "6/5");
        assert_eq!(solution[1].to_string(), "2/5");
        let mut singular = System::new(2);
        singular.add_own(0);
        singular.add(0, 1, &integer(-1));
        singular.add(1, 0, &integer(-1));
        singular.add_own(1);
        assert!(singular.solve().is_none());
    }
}
