//! What the pruning engine's game capabilities are worth on a user's game with no Connect Four
//! code: k in a row (tests/common/k_in_a_row.rs) from the empty board, with its declarations
//! switched off one at a time (forced replies, the symmetric key), on a 64 MiB fixed table, one
//! thread. Then the front door: `Solver` on the game as declared (its compact key: the pruning
//! engine on a fixed table that grows with the search), and on the same game with its key
//! undeclared and the pruning engine asked for (a hash table of whole states). Prints the
//! value, the states expanded and the time of each (docs/performance.md and
//! docs/adding-a-game.md quote them).
//!
//! `cargo bench --bench k_in_a_row [-- WIDTH HEIGHT K]` (default 5 5 4).

#[path = "../tests/common/k_in_a_row.rs"]
mod k_in_a_row;

use std::time::Instant;

use gamesolver::engines::pruning::{self, Pruner};
use gamesolver::memo::FixedBoundTable;
use gamesolver::{
    Capabilities, CompactKey, Declares, Engine, Game, Score, Solved, Solver, Step, ValueRange,
};
use k_in_a_row::{Cells, KInARow};

/// The game with its forced replies and its symmetric key each on or off.
struct Variant {
    game: KInARow,
    forced: bool,
    symmetric: bool,
}

impl Game for Variant {
    type State = Cells;
    type Move = u32;
    fn start(&self) -> Cells {
        self.game.start()
    }
    fn moves(&self, position: &Cells) -> impl Iterator<Item = u32> {
        self.game.moves(position)
    }
    fn play(&self, position: &Cells, cell: &u32) -> Step<Cells> {
        self.game.play(position, cell)
    }
    fn payoff(&self, position: &Cells) -> Score {
        self.game.payoff(position)
    }
    fn known_value(&self, position: &Cells) -> Option<Score> {
        self.game.known_value(position)
    }
    fn forced_move(&self, position: &Cells) -> Option<u32> {
        self.forced
            .then(|| self.game.forced_move(position))
            .flatten()
    }
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().value_range()
    }
}

impl ValueRange for Variant {
    fn value_range(&self, position: &Cells) -> (Score, Score) {
        self.game.value_range(position)
    }
}

impl CompactKey for Variant {
    fn key_bits(&self) -> u32 {
        self.game.key_bits()
    }
    fn key(&self, position: &Cells) -> u128 {
        if self.symmetric {
            self.game.key(position)
        } else {
            u128::from(position.mine)
                | u128::from(position.theirs) << (self.game.width * self.game.height)
        }
    }
}

fn main() {
    let numbers: Vec<u32> = std::env::args().filter_map(|a| a.parse().ok()).collect();
    let [width, height, k] = numbers[..] else {
        return run(5, 5, 4);
    };
    run(width, height, k)
}

fn run(width: u32, height: u32, k: u32) {
    let mut value = None;
    for (forced, symmetric) in [(true, true), (false, true), (true, false), (false, false)] {
        let game = Variant {
            game: KInARow::new(width, height, k),
            forced,
            symmetric,
        };
        let table = FixedBoundTable::for_game(&game, 64 << 20).expect("64 MiB");
        let mut pruner =
            Pruner::new(&game, table, pruning::Options::new().ranged()).expect("a pruner");
        let clock = Instant::now();
        let found = pruner.value_of(&game.start()).expect("a value");
        let seconds = clock.elapsed().as_secs_f64();
        // Every variant must find the same value.
        assert_eq!(*value.get_or_insert(found), found);
        println!(
            "{width}x{height}, {k} in a row: forced replies {forced}, symmetric key {symmetric}: \
             value {found}, {} states expanded, {seconds:.3} s",
            pruner.stats().expanded
        );
    }
    let game = KInARow::new(width, height, k);
    let clock = Instant::now();
    let solved = Solver::new(&game).solve().expect("a value");
    let seconds = clock.elapsed().as_secs_f64();
    assert_eq!(Some(solved.value()), value);
    assert!(solved.plan().compact_key);
    println!(
        "{width}x{height}, {k} in a row: Solver, key declared (growing fixed table): value {}, \
         {} states expanded, {seconds:.3} s",
        solved.value(),
        solved.stats().expanded
    );
    // `Variant` declares its range alone: no key, so a hash table of whole states.
    drop(solved);
    let undeclared = Variant {
        game,
        forced: true,
        symmetric: true,
    };
    let clock = Instant::now();
    let solved = Solver::new(&undeclared)
        .engine(Engine::Pruning)
        .solve()
        .expect("a value");
    let seconds = clock.elapsed().as_secs_f64();
    assert_eq!(Some(solved.value()), value);
    assert!(!solved.plan().compact_key);
    println!(
        "{width}x{height}, {k} in a row: Solver, key undeclared, pruning (hash table): value {}, \
         {} states expanded, {seconds:.3} s",
        solved.value(),
        solved.stats().expanded
    );
}
