//! Value iteration's exact step: on a small tier, the policy the bounds single out, solved as
//! a linear system in fractions and checked optimal in exact arithmetic.

use super::Rational;
use super::iteration::{Compiled, Detail, Kind, Place};
use super::linear::{System, integer};

impl Compiled {
    /// The exact values of the policy the bounds single out, checked optimal in exact
    /// arithmetic (switching to a better move and solving again, a few times at most), and
    /// within the bounds; `None` if that fails (a singular system, a policy that will not
    /// settle, an exact value missing outside).
    pub(super) fn exact(&self, low: &[f64], high: &[f64]) -> Option<Vec<Rational>> {
        let details = self.details.as_ref()?;
        let n = self.kind.len();
        let middle = |at: usize| low[at] + (high[at] - low[at]) / 2.0;
        let estimate = |detail: &Detail| {
            let child = match &detail.place {
                Place::Inside(target) => middle(*target as usize),
                Place::Outside(a, b, _) => a + (b - a) / 2.0,
            };
            detail.gain as f64 + if detail.keep { child } else { -child }
        };
        for moves in details {
            for detail in moves {
                if let Place::Outside(_, _, None) = detail.place {
                    return None;
                }
            }
        }
        let mut policy: Vec<usize> = details
            .iter()
            .map(|moves| {
                (0..moves.len())
                    .max_by(|&a, &b| {
                        estimate(&moves[a])
                            .total_cmp(&estimate(&moves[b]))
                            .then(b.cmp(&a))
                    })
                    .unwrap_or(0)
            })
            .collect();
        for _ in 0..16 {
            let mut system = System::new(n);
            for node in 0..n {
                system.add_own(node);
                match self.kind[node] {
                    Kind::Fixed => {
                        system.add_constant(node, &integer(self.fixed[node].unwrap_or(0)));
                    }
                    Kind::Decision => {
                        add_move(&mut system, node, &details[node][policy[node]], &integer(1));
                    }
                    Kind::Chance => {
                        for detail in &details[node] {
                            let probability = Rational::of_probability(detail.probability);
                            add_move(&mut system, node, detail, &probability);
                        }
                    }
                }
            }
            let values = system.solve()?;
            let value_of = |detail: &Detail| {
                let child = match &detail.place {
                    Place::Inside(target) => &values[*target as usize],
                    Place::Outside(_, _, exact) => exact.as_ref().expect("checked above"),
                };
                Rational::combine(detail.gain, detail.keep, child)
            };
            let mut changed = false;
            for node in 0..n {
                if self.kind[node] != Kind::Decision {
                    continue;
                }
                let chosen = value_of(&details[node][policy[node]]);
                let (better, best) = details[node]
                    .iter()
                    .enumerate()
                    .map(|(at, detail)| (at, value_of(detail)))
                    .max_by(|(a, x), (b, y)| x.cmp(y).then(b.cmp(a)))
                    .expect("a decision node has moves");
                if best > chosen {
                    policy[node] = better;
                    changed = true;
                }
            }
            if !changed {
                let slack = 1e-9 * (1.0 + self.largest);
                let within = values.iter().enumerate().all(|(at, value)| {
                    let value = value.to_f64();
                    value >= low[at] - slack && value <= high[at] + slack
                });
                return within.then_some(values);
            }
        }
        None
    }
}

/// A move's terms in the exact system of `node`: `x_node − weight · (±x_target) = weight · gain`,
/// or with the child's exact value on the right outside the tier.
fn add_move(system: &mut System, node: usize, detail: &Detail, weight: &Rational) {
    let mut constant = Rational::zero();
    constant.add_weighted(weight, &integer(detail.gain));
    match &detail.place {
        Place::Inside(target) => {
            let sign = if detail.keep { -1 } else { 1 };
            let mut coefficient = Rational::zero();
            coefficient.add_weighted(weight, &integer(sign));
            system.add(node, *target as usize, &coefficient);
        }
        Place::Outside(_, _, exact) => {
            let child = exact.as_ref().expect("an exact tier's outside is exact");
            let signed = Rational::combine(0, detail.keep, child);
            constant.add_weighted(weight, &signed);
        }
    }
    system.add_constant(node, &constant);
}
