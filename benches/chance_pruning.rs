//! Whether pruning at chance nodes would pay on the bear-off race: Ballard's Star1 (alpha-beta
//! at the plays, Star1's windows at the rolls, bounded by the value range −1..=1, a table of
//! bounds) against plain memoized expectimax, counting the positions before a roll that each
//! expands; and how many of those positions one optimal policy reaches, the most that any
//! pruning could leave unsearched. Both searches work in `f64` (this measures work, not
//! values) and must agree with the exact engine within 1e-9.
//!
//! `cargo bench --bench chance_pruning [-- POINTSxCHECKERS ...]` (default 4x4 6x3); the figures
//! are in docs/performance.md, "Games with chance".

use std::collections::{HashMap, HashSet};

use gamesolver::engines::chance;
use gamesolver::game::Chance;
use gamesolver::games::{BearOff, BearOffMove, Checkers};
use gamesolver::{Game, Solved};

/// The 21 rolls (smaller die first) and their probabilities.
fn rolls() -> Vec<((u8, u8), f64)> {
    let mut rolls = Vec::new();
    for first in 1..=6 {
        for second in first..=6 {
            let ways = if first == second { 1.0 } else { 2.0 };
            rolls.push(((first, second), ways / 36.0));
        }
    }
    rolls
}

/// The two searches, over one race's plays.
struct Searches<'a> {
    game: &'a BearOff,
    rolls: Vec<((u8, u8), f64)>,
    /// The positions each play of a roll leaves, fewest pips left first.
    plays: HashMap<(Checkers, usize), Vec<Checkers>>,
    /// Plain expectimax's values, by (on roll, the other).
    exact: HashMap<(Checkers, Checkers), f64>,
    /// Star1's bounds.
    bounds: HashMap<(Checkers, Checkers), (f64, f64)>,
    /// Positions before a roll expanded (opened and their rolls searched).
    expanded: u64,
}

impl Searches<'_> {
    fn plays(&mut self, side: Checkers, roll: usize) -> Vec<Checkers> {
        let (game, dice) = (self.game, self.rolls[roll].0);
        self.plays
            .entry((side, roll))
            .or_insert_with(|| {
                let mut moves = Vec::new();
                game.plays_into(side, dice, &mut moves);
                let mut after: Vec<Checkers> = moves
                    .into_iter()
                    .filter_map(|mv| match mv {
                        BearOffMove::Play(after, _) => Some(after),
                        BearOffMove::Roll(..) => None,
                    })
                    .collect();
                after.sort_by_key(|after| after.pips());
                after
            })
            .clone()
    }

    /// The value for `mover` to roll against `other`, by plain memoized expectimax.
    fn plain(&mut self, mover: Checkers, other: Checkers) -> f64 {
        if let Some(&value) = self.exact.get(&(mover, other)) {
            return value;
        }
        self.expanded += 1;
        let mut sum = 0.0;
        for roll in 0..self.rolls.len() {
            let mut best = -1.0f64;
            for after in self.plays(mover, roll) {
                let value = if after.is_empty() {
                    1.0
                } else {
                    -self.plain(other, after)
                };
                best = best.max(value);
            }
            sum += self.rolls[roll].1 * best;
        }
        self.exact.insert((mover, other), sum);
        sum
    }

    /// Star1 at the roll of `mover` against `other`, in the window (alpha, beta): fail-soft,
    /// a result at most alpha an upper bound, at least beta a lower bound.
    fn star1(&mut self, mover: Checkers, other: Checkers, alpha: f64, beta: f64) -> f64 {
        let (mut low, mut high) = self
            .bounds
            .get(&(mover, other))
            .copied()
            .unwrap_or((-1.0, 1.0));
        if low >= beta || low == high {
            return low;
        }
        if high <= alpha {
            return high;
        }
        let (alpha, beta) = (alpha.max(low), beta.min(high));
        self.expanded += 1;
        let (mut sum, mut left) = (0.0, 1.0);
        let mut cut = None;
        for roll in 0..self.rolls.len() {
            let probability = self.rolls[roll].1;
            let rest = left - probability;
            // The window this outcome must leave for the roll to stay inside (alpha, beta),
            // the outcomes not yet searched at their extremes (+1 and −1).
            let low_child = (alpha - sum - rest) / probability;
            let high_child = (beta - sum + rest) / probability;
            let value = self.choose(mover, other, roll, low_child.max(-1.0), high_child.min(1.0));
            sum += probability * value;
            left = rest;
            if value <= low_child {
                cut = Some(sum + left);
                break;
            }
            if value >= high_child {
                cut = Some(sum - left);
                break;
            }
        }
        let value = cut.unwrap_or(sum);
        if value <= alpha {
            high = high.min(value);
        } else if value >= beta {
            low = low.max(value);
        } else {
            (low, high) = (value, value);
        }
        self.bounds.insert((mover, other), (low, high));
        value
    }

    /// Alpha-beta over the plays of a roll.
    fn choose(
        &mut self,
        mover: Checkers,
        other: Checkers,
        roll: usize,
        mut alpha: f64,
        beta: f64,
    ) -> f64 {
        let mut best = -1.0f64;
        for after in self.plays(mover, roll) {
            let value = if after.is_empty() {
                1.0
            } else {
                -self.star1(other, after, -beta, -alpha)
            };
            best = best.max(value);
            alpha = alpha.max(best);
            if best >= beta {
                break;
            }
        }
        best
    }
}

/// Positions before a roll: all those reachable, and those one optimal policy reaches (the
/// first best play at each roll, every outcome of each roll).
fn policy_reach(game: &BearOff) -> (usize, usize) {
    let mut solved = chance::solve(game, chance::Options::new()).unwrap();
    let count = |follow_best: bool, solved: &mut chance::ChanceSolution<'_, BearOff>| {
        let (mut seen, mut stack) = (HashSet::new(), vec![game.start()]);
        while let Some(state) = stack.pop() {
            if !seen.insert(state) {
                continue;
            }
            if follow_best && !game.is_chance(&state) {
                if let Some(best) = solved.best_moves(&state).unwrap().first() {
                    stack.push(game.play(&state, best).next);
                }
            } else {
                stack.extend(game.moves(&state).map(|mv| game.play(&state, &mv).next));
            }
        }
        seen.iter().filter(|state| game.is_chance(state)).count()
    };
    (count(false, &mut solved), count(true, &mut solved))
}

fn main() {
    let sizes: Vec<String> = std::env::args()
        .skip(1)
        .filter(|argument| argument.contains('x') && !argument.starts_with('-'))
        .collect();
    let sizes = if sizes.is_empty() {
        vec!["4x4".to_string(), "6x3".to_string()]
    } else {
        sizes
    };
    for size in sizes {
        let (points, checkers) = size.split_once('x').expect("POINTSxCHECKERS");
        let game = BearOff::new(points.parse().unwrap(), checkers.parse().unwrap()).unwrap();
        let start = game.start();
        let exact = chance::solve(&game, chance::Options::new())
            .unwrap()
            .value()
            .to_f64();
        let mut plain = Searches {
            game: &game,
            rolls: rolls(),
            plays: HashMap::new(),
            exact: HashMap::new(),
            bounds: HashMap::new(),
            expanded: 0,
        };
        let value = plain.plain(start.mover, start.other);
        assert!((value - exact).abs() < 1e-9, "{value} against {exact}");
        let mut star = Searches {
            plays: std::mem::take(&mut plain.plays),
            exact: HashMap::new(),
            expanded: 0,
            ..plain
        };
        let value = star.star1(start.mover, start.other, -1.0, 1.0);
        assert!((value - exact).abs() < 1e-9, "{value} against {exact}");
        let (reachable, optimal) = policy_reach(&game);
        println!(
            "bear-off {size}: plain expectimax expands {} positions; Star1 {} expansions over {} \
             positions ({:.1}x); one optimal policy reaches {optimal} of the {reachable} \
             positions before a roll ({:.0}%)",
            plain.expanded,
            star.expanded,
            star.bounds.len(),
            star.expanded as f64 / plain.expanded as f64,
            100.0 * optimal as f64 / reachable as f64,
        );
    }
}
