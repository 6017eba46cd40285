//! The front door on games written from docs/adding-a-game.md alone (benches/newcomers/), in
//! one process: `Solver::new(&game).solve()` (the plan: declarations, then a sample of the
//! game) beside the exhaustive and the pruning engine asked for by name, on one thread, each
//! asserting the value its oracle gives. `cargo bench --bench newcomers`; benches/newcomers.sh
//! times the same games as whole processes of the command line, and docs/performance.md ("A
//! newcomer's games") holds the figures.

#[path = "newcomers/mod.rs"]
mod newcomers;

use std::hash::Hash;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gamesolver::{Capabilities, Declares, Engine, Game, Score, Solved, Solver, Step};
use newcomers::user_games::{self, Domineering};
use newcomers::{dots, hex, kalah, mnk, othello, takeaway};

/// Domineering's moves (tests/common/user_games.rs) written once as a function that takes the
/// board by value and borrows nothing (`use<>`), as the guide's third pattern does: the same
/// iterator as the game's own, which a wrapper can box or collect.
fn domino_moves(game: Domineering, state: u64) -> impl Iterator<Item = u8> + use<> {
    let (rows, columns) = (game.rows, game.columns);
    let horizontal = state & (1 << 63) != 0;
    let cell = move |row: u32, column: u32| 1u64 << (row * columns + column);
    (0..rows)
        .flat_map(move |row| (0..columns).map(move |column| (row, column)))
        .filter(move |&(row, column)| {
            let other = match horizontal {
                false if row + 1 < rows => cell(row + 1, column),
                true if column + 1 < columns => cell(row, column + 1),
                _ => return false,
            };
            state & (cell(row, column) | other) == 0
        })
        .map(move |(row, column)| (row * columns + column) as u8)
}

/// Domineering with `moves` given by `$moves` (of the game and the board), the rest the game's.
macro_rules! domineering_with {
    ($(#[$doc:meta])* $name:ident, $game:ident, $state:ident => $moves:expr) => {
        $(#[$doc])*
        struct $name(Domineering);

        impl Game for $name {
            type State = u64;
            type Move = u8;
            fn start(&self) -> u64 {
                self.0.start()
            }
            fn moves(&self, state: &u64) -> impl Iterator<Item = u8> {
                let ($game, $state) = (self.0, *state);
                $moves
            }
            fn play(&self, state: &u64, mv: &u8) -> Step<u64> {
                self.0.play(state, mv)
            }
            fn payoff(&self, state: &u64) -> Score {
                self.0.payoff(state)
            }
            fn capabilities(&self) -> impl Declares<Self> {
                Capabilities::none().outcome_game()
            }
        }
    };
}

domineering_with!(
    /// The moves from the `use<>` function, as they are.
    Plain, game, state => domino_moves(game, state)
);
domineering_with!(
    /// The moves boxed: the fallback for branches of different iterator types, an allocation
    /// a state.
    Boxed, game, state => Box::new(domino_moves(game, state)) as Box<dyn Iterator<Item = u8>>
);
domineering_with!(
    /// The moves collected into a `Vec` first.
    Collected, game, state => domino_moves(game, state).collect::<Vec<_>>().into_iter()
);

/// Domineering 5×5 with its moves as the game writes them, from a `use<>` function, boxed, and
/// collected, each solved by the exhaustive and the pruning engine.
fn moves_as_written(c: &mut Criterion) {
    let game = Domineering::new(5, 5);
    let mut group = c.benchmark_group("domineering 5x5 moves");
    group.sample_size(10);
    for engine in [Engine::Exhaustive, Engine::Pruning] {
        let mut run = |name: &str, value: &dyn Fn() -> Score| {
            group.bench_function(format!("{name}, {engine:?}"), |b| {
                b.iter(|| assert_eq!(value(), -1))
            });
        };
        let solve = |g: &dyn Fn(Engine) -> Score| g(engine);
        run("as written", &|| {
            solve(&|e| Solver::new(&game).engine(e).solve().unwrap().value())
        });
        run("use<> function", &|| {
            solve(&|e| Solver::new(&Plain(game)).engine(e).solve().unwrap().value())
        });
        run("boxed", &|| {
            solve(&|e| Solver::new(&Boxed(game)).engine(e).solve().unwrap().value())
        });
        run("collected", &|| {
            solve(&|e| {
                Solver::new(&Collected(game))
                    .engine(e)
                    .solve()
                    .unwrap()
                    .value()
            })
        });
    }
    group.finish();
}

/// `Solver` (auto), the exhaustive engine and the pruning engine on `game`, each checked
/// against `expected`.
fn compare<G>(c: &mut Criterion, name: &str, game: &G, expected: Score)
where
    G: Game + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    let plan = Solver::new(game).plan().unwrap();
    group.bench_function(format!("Solver ({:?})", plan.engine), |b| {
        b.iter(|| {
            assert_eq!(
                Solver::new(black_box(game)).solve().unwrap().value(),
                expected
            )
        })
    });
    for engine in [Engine::Exhaustive, Engine::Pruning] {
        group.bench_function(format!("{engine:?}"), |b| {
            b.iter(|| {
                let solved = Solver::new(black_box(game)).engine(engine).solve().unwrap();
                assert_eq!(solved.value(), expected)
            })
        });
    }
    group.finish();
}

fn newcomers(c: &mut Criterion) {
    compare(c, "kalah 4x3", &kalah::Kalah::new(4, 3), 6);
    compare(c, "othello 4x4", &othello::Othello::new(4, 4), -8);
    compare(c, "hex 3x3", &hex::Hex::new(3), 1);
    compare(c, "mnk 4,3,3", &mnk::Mnk::new(4, 3, 3), 1);
    compare(c, "dots 2x3", &dots::Dots::new(2, 3), -2);
    let counters = 100_000;
    compare(
        c,
        "take-away 100000",
        &takeaway::TakeAway { counters },
        takeaway::by_hand(counters),
    );
    compare(
        c,
        "domineering 5x5",
        &user_games::IndexedDomineering(user_games::Domineering::new(5, 5)),
        -1,
    );
    compare(
        c,
        "can-i-win 20/200",
        &user_games::CanIWin {
            numbers: 20,
            target: 200,
        },
        -1,
    );
}

criterion_group!(benches, newcomers, moves_as_written);
criterion_main!(benches);
