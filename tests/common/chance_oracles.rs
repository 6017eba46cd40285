//! Independent oracles for the games with chance, over their literal rules, sharing nothing
//! with the crate's `Game` implementations or engines: Pig by plain Gauss–Seidel value
//! iteration (as Neller and Presser state it), and a bear-off race by brute force over the
//! checkers one by one, in floats.

#![allow(dead_code)]

use std::collections::HashMap;

/// The chance that the player to move wins Pig to `goal` with a die of `faces` faces, from
/// (`mine`, `theirs`, turn total 0), by Gauss–Seidel value iteration over
/// `p[i][j][k] = max(roll, hold)` until no value moves by 1e-14.
pub fn pig_by_value_iteration(goal: usize, faces: usize) -> Vec<Vec<Vec<f64>>> {
    // p[i][j][k], k < goal − i: the chance to win for the player to move.
    let mut p: Vec<Vec<Vec<f64>>> = (0..goal).map(|i| vec![vec![0.0; goal - i]; goal]).collect();
    loop {
        let mut change = 0.0f64;
        for i in (0..goal).rev() {
            for j in (0..goal).rev() {
                for k in (0..goal - i).rev() {
                    // Rolling: a 1 hands the turn over with nothing banked; a face f adds f.
                    let mut roll = 1.0 - p[j][i][0];
                    for face in 2..=faces {
                        roll += if i + k + face >= goal {
                            1.0
                        } else {
                            p[i][j][k + face]
                        };
                    }
                    roll /= faces as f64;
                    // Holding banks the turn total: then the opponent moves.
                    let hold = 1.0 - p[j][i + k][0];
                    let value = roll.max(hold);
                    change = change.max((value - p[i][j][k]).abs());
                    p[i][j][k] = value;
                }
            }
        }
        if change < 1e-14 {
            return p;
        }
    }
}

/// A side of a bear-off race, as the points (1 to 6) of its checkers still on the board,
/// highest first.
pub type Side = Vec<u8>;

/// Every side of at most `checkers` checkers on points 1 to `points`.
pub fn all_sides(points: u8, checkers: usize) -> Vec<Side> {
    let mut sides = vec![Vec::new()];
    let mut frontier: Vec<Side> = vec![Vec::new()];
    for _ in 0..checkers {
        let mut next = Vec::new();
        for side in &frontier {
            // Highest first: the next checker no higher than the last.
            let top = side.last().copied().unwrap_or(points);
            for point in 1..=top {
                let mut longer = side.clone();
                longer.push(point);
                next.push(longer);
            }
        }
        sides.extend(next.iter().cloned());
        frontier = next;
    }
    sides
}

/// Every side one die of `die` pips can leave, checker by checker, under the rules: a checker
/// moves `die` points down; it bears off from exactly `die`, or from below `die` when no
/// checker stands higher.
fn after_die(side: &Side, die: u8) -> Vec<Side> {
    let mut results = Vec::new();
    for (at, &point) in side.iter().enumerate() {
        let highest = side.iter().all(|&other| other <= point);
        let mut rest: Side = side.clone();
        rest.remove(at);
        if point > die {
            rest.push(point - die);
        } else if point < die && !highest {
            continue;
        }
        rest.sort_unstable_by(|a, b| b.cmp(a));
        results.push(rest);
    }
    results
}

/// Every side a roll (two dice; a double played four times) can leave: each order of the dice,
/// each checker for each die, as long as a checker is left.
fn after_roll(side: &Side, dice: (u8, u8)) -> Vec<Side> {
    let orders: Vec<Vec<u8>> = if dice.0 == dice.1 {
        vec![vec![dice.0; 4]]
    } else {
        vec![vec![dice.0, dice.1], vec![dice.1, dice.0]]
    };
    let mut results: Vec<Side> = Vec::new();
    for order in orders {
        let mut reached = vec![side.clone()];
        for die in order {
            reached = reached
                .into_iter()
                .flat_map(|side| {
                    if side.is_empty() {
                        vec![side]
                    } else {
                        after_die(&side, die)
                    }
                })
                .collect();
        }
        results.extend(reached);
    }
    results.sort();
    results.dedup();
    results
}

/// The chance that the side to roll (`mover`) wins the race against `other`, both sides given
/// as their checkers' points, by brute force (memoized by the two sides).
pub fn bear_off_win(mover: &Side, other: &Side, memo: &mut HashMap<(Side, Side), f64>) -> f64 {
    if other.is_empty() {
        return 0.0;
    }
    if mover.is_empty() {
        return 1.0;
    }
    if let Some(&known) = memo.get(&(mover.clone(), other.clone())) {
        return known;
    }
    let mut total = 0.0;
    for low in 1..=6u8 {
        for high in low..=6u8 {
            let weight = if low == high { 1.0 } else { 2.0 } / 36.0;
            let best = after_roll(mover, (low, high))
                .iter()
                .map(|after| 1.0 - bear_off_win(other, after, memo))
                .fold(f64::NEG_INFINITY, f64::max);
            total += weight * best;
        }
    }
    memo.insert((mover.clone(), other.clone()), total);
    total
}
