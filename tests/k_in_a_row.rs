//! A user's hard game with no Connect Four code (k in a row on an open board,
//! tests/common/k_in_a_row.rs) declaring everything the pruning engine reads: its known values,
//! forced replies, bounds and a symmetric key hold for the literal rules, and every driver and
//! table gives brute force's value on random positions and whole small boards.

mod common;

#[path = "common/k_in_a_row.rs"]
mod k_in_a_row;

use gamesolver::check::{CheckOptions, Violation, check_key, check_ranged};
use gamesolver::engines::pruning::{self, Driver, Pruner};
use gamesolver::memo::{FixedBoundTable, HashBoundTable};
use gamesolver::{CompactKey, Game, Score, Solved, Solver, Step, ValueRange};
use k_in_a_row::{Cells, KInARow, Literal, brute_force};

const DRIVERS: [Driver; 4] = [
    Driver::Bisection,
    Driver::Mtdf,
    Driver::FullWindow,
    Driver::OutsideIn,
];

/// A position of `stones` random stones on `game`'s board, played in turn, where no line is
/// complete and the side to move has a move; `None` if the random order finished the game.
fn random_position(game: &KInARow, stones: usize, seed: u64) -> Option<Cells> {
    let mut cells: Vec<(u32, u32)> = game.all_cells().collect();
    let order = common::random_values(cells.len(), seed, 0, 1 << 40);
    let mut keyed: Vec<_> = order.into_iter().zip(cells.drain(..)).collect();
    keyed.sort();
    let mut position = game.start();
    for &(_, (x, y)) in keyed.iter().take(stones) {
        let mut moves = Vec::new();
        game.moves_into(&position, &mut moves);
        if moves.is_empty() {
            return None;
        }
        position = game.play(&position, &(y * game.width + x)).next;
    }
    (!position.won).then_some(position)
}

/// The value by the pruning engine with `driver` on a fixed table of `bytes` (the symmetric
/// key's) and on a hash table (the state's own equality).
fn pruned(game: &KInARow, position: &Cells, driver: Driver, bytes: u64) -> (Score, Score) {
    let options = || pruning::Options::new().ranged().driver(driver);
    let table = FixedBoundTable::for_game(game, bytes).unwrap();
    let fixed = Pruner::new(game, table, options())
        .unwrap()
        .value_of(position)
        .unwrap();
    let hashed = Pruner::new(game, HashBoundTable::new(), options())
        .unwrap()
        .value_of(position)
        .unwrap();
    (fixed, hashed)
}

#[test]
fn the_declarations_hold_on_every_state_the_checker_meets() {
    for (width, height, k) in [(3, 3, 3), (4, 3, 3), (4, 4, 3), (4, 4, 4)] {
        let game = KInARow::new(width, height, k);
        let options = CheckOptions {
            max_states: 20_000,
            playouts: 200,
            value_checks: 300,
            ..CheckOptions::default()
        };
        let report = check_ranged(&game, &options);
        assert!(report.is_ok(), "{width}x{height}, {k}: {report}");
        assert!(report.values_compared >= 100, "{report}");
        // The symmetric key joins mirror images only, which have equal values.
        let report = check_key(&game, &options);
        assert!(report.is_ok(), "{width}x{height}, {k}: {report}");
        assert!(report.values_compared >= 50, "{report}");
    }
}

/// The game with a key that forgets the opponent's stones: states of different values share it.
struct ForgetfulKey(KInARow);

impl Game for ForgetfulKey {
    type State = Cells;
    type Move = u32;
    fn start(&self) -> Cells {
        self.0.start()
    }
    fn moves(&self, position: &Cells) -> impl Iterator<Item = u32> {
        self.0.moves(position)
    }
    fn play(&self, position: &Cells, cell: &u32) -> Step<Cells> {
        self.0.play(position, cell)
    }
    fn payoff(&self, position: &Cells) -> Score {
        self.0.payoff(position)
    }
}

impl CompactKey for ForgetfulKey {
    fn key_bits(&self) -> u32 {
        self.0.width * self.0.height
    }
    fn key(&self, position: &Cells) -> u128 {
        u128::from(position.mine)
    }
}

#[test]
fn a_key_that_joins_states_of_different_values_is_caught() {
    let game = ForgetfulKey(KInARow::new(3, 3, 3));
    let report = check_key(&game, &CheckOptions::default());
    assert!(
        report.violations.iter().any(
            |v| matches!(v, Violation::KeyJoinsUnequal { values, .. } if values.0 != values.1)
        ),
        "{report}"
    );
}

#[test]
fn known_values_forced_replies_and_bounds_agree_with_brute_force() {
    let game = KInARow::new(4, 4, 4);
    let (mut forced, mut known) = (0, 0);
    for seed in 0..150 {
        let stones = 7 + (seed % 4) as usize;
        let Some(position) = random_position(&game, stones, seed) else {
            continue;
        };
        let value = brute_force(&game, &position);
        let (low, high) = game.value_range(&position);
        assert!(
            low <= value && value <= high,
            "{position:?}: {value} outside {low}..={high}"
        );
        if let Some(claimed) = game.known_value(&position) {
            known += 1;
            assert_eq!(claimed, value, "{position:?}");
        }
        if let Some(cell) = game.forced_move(&position) {
            forced += 1;
            let mut moves = Vec::new();
            game.moves_into(&position, &mut moves);
            assert!(moves.contains(&cell));
            let after = game.play(&position, &cell).next;
            assert_eq!(
                -brute_force(&game, &after),
                value,
                "{position:?} forced {cell}"
            );
        }
    }
    assert!(
        forced >= 10 && known >= 10,
        "{forced} forced, {known} known"
    );
}

#[test]
fn every_driver_and_table_gives_brute_forces_value_on_random_positions() {
    let game = KInARow::new(4, 4, 4);
    let mut compared = 0;
    for seed in 0..120 {
        let stones = 6 + (seed % 5) as usize;
        let Some(position) = random_position(&game, stones, 1000 + seed) else {
            continue;
        };
        let value = brute_force(&game, &position);
        // A tiny table (replacements all the time) and a roomy one.
        let driver = DRIVERS[seed as usize % DRIVERS.len()];
        let bytes = if seed % 2 == 0 { 1 << 10 } else { 1 << 20 };
        assert_eq!(
            pruned(&game, &position, driver, bytes),
            (value, value),
            "{position:?} with {driver:?}"
        );
        compared += 1;
    }
    assert!(compared >= 100);
}

#[test]
fn whole_small_boards_match_brute_force_through_every_front() {
    for (width, height, k) in [(3, 3, 3), (4, 3, 3), (3, 4, 3), (5, 2, 2), (4, 3, 4)] {
        let game = KInARow::new(width, height, k);
        let start = game.start();
        let value = brute_force(&game, &start);
        for driver in DRIVERS {
            assert_eq!(
                pruned(&game, &start, driver, 1 << 16),
                (value, value),
                "{width}x{height}, {k}, {driver:?}"
            );
        }
        // The front door, on the declared game and on the literal one.
        let solved = Solver::new(&game).solve().unwrap();
        assert_eq!(solved.value(), value, "{width}x{height}, {k}");
        let literal = Literal(game.clone());
        let literal = Solver::new(&literal).solve().unwrap();
        assert_eq!(literal.value(), value, "{width}x{height}, {k}");
    }
}
