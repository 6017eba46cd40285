//! The engine on games written as a user writes them (no dense index; tests/common/
//! user_games.rs), side by side with the memoized recursion a user writes by hand over the same
//! hash map and hasher: the engine with `HashTable`, with the declared value ranges
//! (`exhaustive::solve` with `Options::ranged`), `par_solve` with `ShardedTable` on 1 and 2 threads, and `Solver` (the
//! front door, reading the games' declarations) on 1 and 2 threads.
//!
//! `cargo bench --bench user_games`; ratios in docs/performance.md.

#[path = "../tests/common/user_games.rs"]
mod user_games;

use std::hash::Hash;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gamesolver::engines::OutcomeRange;
use gamesolver::engines::exhaustive;
use gamesolver::memo::{DenseTable, HashTable, ShardedTable};
use gamesolver::{
    Capabilities, Declares, DenseIndex, Engine, Game, Score, Solved, Solver, Step, ValueRange,
    game::StateAt,
};
use user_games::{
    CanIWin, Domineering, EndsGame, IndexedDomineering, PlainFour, SquareTakeaway,
    SymmetricDomineering,
};

fn compare<G>(c: &mut Criterion, name: &str, game: &G, by_hand: impl Fn() -> Score)
where
    G: ValueRange + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    let expected = by_hand();
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    group.bench_function("by hand", |b| {
        b.iter(|| assert_eq!(black_box(by_hand()), expected))
    });
    group.bench_function("engine, HashTable", |b| {
        b.iter(|| {
            assert_eq!(
                exhaustive::solve(game, HashTable::new(), exhaustive::Options::new())
                    .unwrap()
                    .value(),
                expected
            )
        })
    });
    group.bench_function("engine ranged, HashTable", |b| {
        b.iter(|| {
            let solution =
                exhaustive::solve(game, HashTable::new(), exhaustive::Options::new().ranged());
            assert_eq!(solution.unwrap().value(), expected)
        })
    });
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        group.bench_function(format!("parallel, ShardedTable, {threads} threads"), |b| {
            b.iter(|| {
                let table = ShardedTable::new();
                let value = pool.install(|| {
                    exhaustive::par_solve(game, &table, exhaustive::Options::new())
                        .map(|s| s.value())
                });
                assert_eq!(value.unwrap(), expected)
            })
        });
    }
    front_door(&mut group, game, expected);
    group.finish();
}

/// `Solver` on 1 and 2 threads, beside the other variants of `group`.
fn front_door<G>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    game: &G,
    expected: Score,
) where
    G: Game + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    for threads in [1, 2] {
        group.bench_function(format!("Solver, {threads} threads"), |b| {
            b.iter(|| {
                let solved = Solver::new(game).threads(threads).solve();
                assert_eq!(solved.unwrap().value(), expected)
            })
        });
    }
}

fn user_games(c: &mut Criterion) {
    let can_i_win = CanIWin {
        numbers: 18,
        target: 120,
    };
    compare(c, "can-i-win 18 to 120", &can_i_win, || can_i_win.by_hand());
    let can_i_win = CanIWin {
        numbers: 20,
        target: 200,
    };
    compare(c, "can-i-win 20 to 200", &can_i_win, || can_i_win.by_hand());
    let numbers: Vec<Score> = (0..1200).map(|i| (i * 7919 % 2001) - 1000).collect();
    let ends = EndsGame::new(numbers);
    compare(c, "predict-the-winner 1200", &ends, || ends.by_hand());
    let four = PlainFour {
        width: 5,
        height: 4,
    };
    compare(c, "plain connect-four 5x4", &four, || four.by_hand());
    // Stone Game IV declares an ordered dense index and that it is an outcome game, no range:
    // the by-hand array DP against `Solver` (the sweep), and against the exhaustive engine
    // `Solver` runs when asked (what an index without the order gets).
    let stones = SquareTakeaway { stones: 100_000 };
    let expected = stones.by_hand();
    let mut group = c.benchmark_group("stone-game-iv 100000");
    group.sample_size(10);
    group.bench_function("by hand (array DP)", |b| {
        b.iter(|| assert_eq!(black_box(stones.by_hand()), expected))
    });
    front_door(&mut group, &stones, expected);
    let listed = Listed(stones);
    group.bench_function("Solver, as the guide writes it, ordered index", |b| {
        b.iter(|| assert_eq!(Solver::new(&listed).solve().unwrap().value(), expected))
    });
    group.bench_function("Solver, exhaustive engine", |b| {
        b.iter(|| {
            let solved = Solver::new(&stones).engine(Engine::Exhaustive).solve();
            assert_eq!(solved.unwrap().value(), expected)
        })
    });
    let ranged = DenseRanged(stones);
    group.bench_function(
        "Solver, as the guide writes it, dense index and value range",
        |b| b.iter(|| assert_eq!(Solver::new(&ranged).solve().unwrap().value(), expected)),
    );
    group.finish();
    domineering(c);
}

/// Domineering 5×5 as the newcomer wrote it: `Solver` with no declaration but the outcome game,
/// with a dense index declared (2²⁶ slots; the plan keeps a hash table, since no state bound
/// says the slots are states), with its mirror images declared, and the exhaustive engine on
/// the full array that a plan taking the index at its word would run.
fn domineering(c: &mut Criterion) {
    let game = Domineering::new(5, 5);
    let expected = Solver::new(&game).solve().unwrap().value();
    let mut group = c.benchmark_group("domineering 5x5");
    group.sample_size(10);
    let indexed = IndexedDomineering(game);
    let symmetric = SymmetricDomineering(game);
    group.bench_function("Solver, no index", |b| {
        b.iter(|| assert_eq!(Solver::new(&game).solve().unwrap().value(), expected))
    });
    group.bench_function("Solver, dense index declared", |b| {
        b.iter(|| assert_eq!(Solver::new(&indexed).solve().unwrap().value(), expected))
    });
    group.bench_function("Solver, symmetry declared", |b| {
        b.iter(|| assert_eq!(Solver::new(&symmetric).solve().unwrap().value(), expected))
    });
    group.bench_function("engine on the full array (DenseTable)", |b| {
        b.iter(|| {
            let options = exhaustive::Options::new().range(OutcomeRange);
            let solved = exhaustive::solve(&indexed, DenseTable::for_game(&indexed), options);
            assert_eq!(solved.unwrap().value(), expected)
        })
    });
    group.finish();
}

/// `$name` wraps Stone Game IV as a newcomer writes it from docs/adding-a-game.md: the game's
/// `moves` (an iterator), play, payoff and index, with the declaration `$declared`, and no
/// other method of its own (`Game::moves_batch` and `Game::for_each_step` as they come).
macro_rules! stone_game_iv_as {
    ($name:ident, $declared:expr) => {
        struct $name(SquareTakeaway);

        impl Game for $name {
            type State = u32;
            type Move = u32;
            fn start(&self) -> u32 {
                self.0.start()
            }
            fn moves(&self, left: &u32) -> impl Iterator<Item = u32> {
                self.0.moves(left)
            }
            fn play(&self, left: &u32, root: &u32) -> Step<u32> {
                self.0.play(left, root)
            }
            fn payoff(&self, left: &u32) -> Score {
                self.0.payoff(left)
            }
            fn capabilities(&self) -> impl Declares<Self> {
                $declared
            }
        }

        impl DenseIndex for $name {
            fn index_len(&self) -> usize {
                self.0.index_len()
            }
            fn index(&self, left: &u32) -> usize {
                self.0.index(left)
            }
        }
    };
}

// Stone Game IV as step 5 of docs/adding-a-game.md declares it with an order: the sweep steps
// through the children with `for_each_step`'s default, which plays `moves` as they come.
stone_game_iv_as!(Listed, Capabilities::none().ordered_index().outcome_game());

impl StateAt for Listed {
    fn state_at(&self, index: usize) -> Option<u32> {
        self.0.state_at(index)
    }
}

// Stone Game IV as step 5 of docs/adding-a-game.md starts: a dense index and a value range
// declared, no order (`Solver` runs the exhaustive engine on the array).
stone_game_iv_as!(
    DenseRanged,
    Capabilities::none().dense_index().value_range()
);

impl ValueRange for DenseRanged {
    fn value_range(&self, _: &u32) -> (Score, Score) {
        (-1, 1)
    }
}

criterion_group!(benches, user_games);
criterion_main!(benches);
