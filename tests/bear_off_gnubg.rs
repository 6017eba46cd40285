//! The bear-off race against GNU Backgammon's two-sided bear-off databases (makebearoff): every
//! pair of positions in the 4-point 4-checker and the 6-point 3-checker databases (kept in
//! tests/data/bear_off), and, by `benches/bear_off.sh`, the 6-point 6-checker one.
//!
//! makebearoff works in 16-bit integers: a side's equity (1 for a win, −1 for a loss) is a
//! count of 32767.5ths from −32768 to 32767, the opponent's negated as its bitwise complement
//! and a roll's sum divided by 36 in integers, truncated. Its figures carry that rounding,
//! which grows with the length of the race; so each test checks two things over every pair:
//! the same integer arithmetic over this crate's plays (`BearOff::plays_into`) gives every
//! stored entry to the bit (the legal plays and the best of them agree), and the exact chance
//! solved by expectimax lies within a few of the database's steps of the stored one.

use std::collections::HashMap;
use std::path::Path;

use gamesolver::Solved;
use gamesolver::engines::chance;
use gamesolver::games::{BearOff, BearOffMove, Checkers};

/// makebearoff's header before the entries.
const HEADER: usize = 40;

/// The database's grid: a winning chance is stored as a count of 65535ths.
const GRID: f64 = 65535.0;

/// How far, in steps of the grid, makebearoff's rounding may take a stored chance from the
/// exact one: the largest seen is 2.1 steps on 4 × 4 and 6 × 3, 3.7 on 6 × 6.
const ROUNDING: f64 = 6.0;

/// What the comparison found.
struct Agreement {
    /// Pairs of positions, each with checkers on both sides.
    compared: usize,
    /// The largest difference between an exact chance and the stored one, in steps.
    largest: f64,
}

/// makebearoff's equity for `mover` to roll against `other`, in its integer arithmetic, over
/// the plays this crate lists.
fn gnubg_equity(
    game: &BearOff,
    mover: Checkers,
    other: Checkers,
    memo: &mut HashMap<(Checkers, Checkers), i32>,
) -> i32 {
    if mover.is_empty() {
        return 0x7FFF;
    }
    if other.is_empty() {
        return -0x8000;
    }
    if let Some(&equity) = memo.get(&(mover, other)) {
        return equity;
    }
    let mut total = 0i32;
    let mut plays = Vec::new();
    for first in 1..=6u8 {
        for second in first..=6u8 {
            plays.clear();
            game.plays_into(mover, (first, second), &mut plays);
            let best = plays
                .iter()
                .map(|play| match play {
                    BearOffMove::Play(after, _) => !gnubg_equity(game, other, *after, memo),
                    BearOffMove::Roll(..) => unreachable!("plays_into lists plays"),
                })
                .max()
                .expect("a roll can always be played in a race home");
            total += if first == second { best } else { 2 * best };
        }
    }
    // Rust's integer division truncates towards zero, as C's does.
    let equity = total / 36;
    memo.insert((mover, other), equity);
    equity
}

/// Compares every pair of positions of `database` (a cubeless two-sided makebearoff file for
/// `points` × `checkers`) with the race; `ranks` lists the checkers on points 1, 2, … of each
/// one-sided position number, as bearoffdump shows them.
fn compare(database: &Path, ranks: &Path, points: i64, checkers: i64) -> Agreement {
    let bytes = std::fs::read(database).unwrap_or_else(|e| panic!("{}: {e}", database.display()));
    assert!(bytes.starts_with(b"gnubg-TS-"), "not a two-sided database");
    let ranks = std::fs::read_to_string(ranks).unwrap();
    let game = BearOff::new(points, checkers).unwrap();
    let sides: Vec<_> = ranks
        .lines()
        .map(|line| {
            let counts: Vec<u8> = line
                .split(',')
                .map(|count| count.parse().unwrap())
                .collect();
            game.side(&counts).unwrap()
        })
        .collect();
    let n = sides.len();
    assert_eq!(
        n as u64,
        game.positions(),
        "one rank per one-sided position"
    );
    // Cubeless only: one 16-bit entry per pair, the side on roll first.
    assert_eq!(
        bytes.len(),
        HEADER + 2 * n * n,
        "a cubeless database of {n} positions"
    );
    let mut solved = chance::solve(&game, chance::Options::new()).unwrap();
    let mut memo = HashMap::new();
    let mut agreement = Agreement {
        compared: 0,
        largest: 0.0,
    };
    for (us, &mover) in sides.iter().enumerate() {
        for (them, &other) in sides.iter().enumerate() {
            let at = HEADER + 2 * (us * n + them);
            let stored = u16::from_le_bytes([bytes[at], bytes[at + 1]]);
            let equity = gnubg_equity(&game, mover, other, &mut memo);
            assert_eq!(
                i32::from(stored) - 0x8000,
                equity,
                "{mover} to roll against {other}: makebearoff's arithmetic over these plays"
            );
            if mover.is_empty() || other.is_empty() {
                // A side with no checkers has won: not a race.
                continue;
            }
            let value = solved
                .value_of(&game.race(mover, other))
                .unwrap()
                .win_chance();
            assert!(value.is_exact());
            let difference = (value.to_f64() * GRID - f64::from(stored)).abs();
            assert!(
                difference <= ROUNDING,
                "{mover} to roll against {other}: {} exactly, {stored}/65535 in the database",
                value.to_f64()
            );
            agreement.compared += 1;
            agreement.largest = agreement.largest.max(difference);
        }
    }
    agreement
}

fn data(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/bear_off")
        .join(name)
}

#[test]
fn every_race_of_four_checkers_on_four_points_agrees_with_gnubg() {
    let agreement = compare(&data("gnubg_4x4.bd"), &data("gnubg_4x4.ranks"), 4, 4);
    assert_eq!(agreement.compared, 69 * 69);
    // The database is rounded, so the exact chances differ from it by more than half a step.
    assert!(agreement.largest > 1.0, "{}", agreement.largest);
}

#[test]
fn every_race_of_three_checkers_on_six_points_agrees_with_gnubg() {
    let agreement = compare(&data("gnubg_6x3.bd"), &data("gnubg_6x3.ranks"), 6, 3);
    assert_eq!(agreement.compared, 83 * 83);
}

/// A larger database named by the environment (`benches/bear_off.sh` makes the 6 × 6 one):
/// GNUBG_BEAROFF=FILE, GNUBG_BEAROFF_RANKS=FILE, GNUBG_BEAROFF_SIZE=POINTSxCHECKERS.
#[test]
#[ignore = "needs a database made by makebearoff: run benches/bear_off.sh"]
fn a_database_named_by_the_environment_agrees() {
    let variable = |name: &str| std::env::var(name).unwrap_or_else(|_| panic!("set {name}"));
    let size = variable("GNUBG_BEAROFF_SIZE");
    let (points, checkers) = size.split_once('x').expect("POINTSxCHECKERS");
    let agreement = compare(
        Path::new(&variable("GNUBG_BEAROFF")),
        Path::new(&variable("GNUBG_BEAROFF_RANKS")),
        points.parse().unwrap(),
        checkers.parse().unwrap(),
    );
    println!(
        "{size}: {} pairs agree, the largest difference {:.2} 65535ths",
        agreement.compared, agreement.largest
    );
}
