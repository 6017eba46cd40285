//! The parallel engine against the sequential one: same value, same line, every thread count
//! and concurrent table; deep games on small worker stacks; no deadlock on a shared DashMap.

mod common;

use gamesolver::SolveError;
use std::sync::mpsc;
use std::time::Duration;

use common::*;
use gamesolver::engines::exhaustive;
use gamesolver::games::{StoneGameII, StoneGameVIII};
use gamesolver::memo::{AtomicDenseTable, ConcurrentMemoTable, DenseTable, ShardedTable};
use gamesolver::{DenseIndex, Game, Limits, Score, Step};
use proptest::prelude::*;

/// A game with its state bound hidden, so that the parallel engine never falls back to one
/// search (small games are below the serial cutoff).
struct Unbounded<'a, G>(&'a G);

impl<G: Game> Game for Unbounded<'_, G> {
    type State = G::State;
    type Move = G::Move;
    fn start(&self) -> G::State {
        self.0.start()
    }
    fn moves(&self, state: &G::State) -> impl Iterator<Item = G::Move> {
        self.0.moves(state)
    }
    fn play(&self, state: &G::State, mv: &G::Move) -> Step<G::State> {
        self.0.play(state, mv)
    }
    fn payoff(&self, state: &G::State) -> Score {
        self.0.payoff(state)
    }
    fn known_value(&self, state: &G::State) -> Option<Score> {
        self.0.known_value(state)
    }
}

impl<G: DenseIndex> DenseIndex for Unbounded<'_, G> {
    fn index_len(&self) -> usize {
        self.0.index_len()
    }
    fn index(&self, state: &G::State) -> usize {
        self.0.index(state)
    }
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// Value and line (as (move, gain) pairs) from the parallel engine on `threads` threads.
fn parallel<G, T>(game: &G, table: &T, threads: usize) -> (Score, Vec<(G::Move, Score)>)
where
    G: Game + Sync,
    G::State: Sync,
    G::Move: Send,
    T: ConcurrentMemoTable<G>,
{
    pool(threads).install(|| {
        let mut solution = exhaustive::par_solve(game, table, exhaustive::Options::new()).unwrap();
        let line = solution.line().unwrap();
        (
            solution.value(),
            line.into_iter().map(|ply| (ply.mv, ply.gain)).collect(),
        )
    })
}

/// The sequential engine's value and line, for comparison.
fn sequential<G>(game: &G) -> (Score, Vec<(G::Move, Score)>)
where
    G: DenseIndex,
{
    let mut solution =
        exhaustive::solve(game, DenseTable::for_game(game), exhaustive::Options::new()).unwrap();
    let line = solution.line().unwrap();
    (
        solution.value(),
        line.into_iter().map(|ply| (ply.mv, ply.gain)).collect(),
    )
}

/// Parallel == sequential for every concurrent table, on `threads` threads.
fn agree<G>(game: &G, threads: usize)
where
    G: DenseIndex + Sync,
    G::State: Eq + std::hash::Hash + Send + Sync,
    G::Move: PartialEq + std::fmt::Debug + Send,
{
    let expected = sequential(game);
    let atomic = AtomicDenseTable::for_game(game);
    assert_eq!(
        parallel(game, &atomic, threads),
        expected,
        "atomic dense, {threads} threads"
    );
    for shards in [2, 64] {
        let sharded = ShardedTable::with_shards(shards);
        assert_eq!(
            parallel(game, &sharded, threads),
            expected,
            "{shards} shards, {threads} threads"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn stone_game_ii_parallel_equals_sequential(
        piles in prop::collection::vec(1i64..=10_000, 1..=60),
        threads in 1usize..=8,
    ) {
        let game = StoneGameII::new(piles.clone()).unwrap();
        prop_assert_eq!(game.alice_stones(sequential(&game).0), stone_game_ii_dp(&piles));
        agree(&Unbounded(&game), threads);
    }

    #[test]
    fn stone_game_viii_parallel_equals_sequential(
        stones in prop::collection::vec(-1000i64..=1000, 2..=80),
        threads in 1usize..=8,
    ) {
        let game = StoneGameVIII::new(stones.clone()).unwrap();
        prop_assert_eq!(sequential(&game.stepwise()).0, stone_game_viii_closed_form(&stones));
        agree(&Unbounded(&game.literal()), threads);
        agree(&Unbounded(&game.stepwise()), threads);
    }
}

#[test]
fn every_thread_count_on_a_game_above_the_serial_cutoff() {
    // 400 piles: ~26 000 states, above SERIAL_CUTOFF, so the real parallel path runs.
    let piles = random_values(400, 4, 1, 10_000);
    let game = StoneGameII::new(piles.clone()).unwrap();
    assert!(game.state_bound().unwrap() > gamesolver::engines::exhaustive::SERIAL_CUTOFF);
    assert_eq!(
        game.alice_stones(sequential(&game).0),
        stone_game_ii_dp(&piles)
    );
    for threads in 1..=8 {
        agree(&game, threads);
    }
}

#[test]
fn million_deep_stone_game_viii_on_small_worker_stacks() {
    let stones = random_values(1_000_000, 99, -10_000, 10_000);
    let expected = stone_game_viii_closed_form(&stones);
    let game = StoneGameVIII::new(stones).unwrap();
    let stepwise = game.stepwise();
    let table = AtomicDenseTable::for_game(&stepwise);
    // 512 KiB worker stacks: a recursion per move would overflow them; the engine's native
    // dives take at most 256 KiB of it (NATIVE_BYTES), whatever the depth.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .stack_size(512 << 10)
        .build()
        .unwrap();
    let value = pool.install(|| {
        exhaustive::par_solve(&stepwise, &table, exhaustive::Options::new())
            .unwrap()
            .value()
    });
    assert_eq!(value, expected);
}

#[test]
fn a_shared_sharded_table_never_deadlocks() {
    // Two shards, eight threads, every worker hammering the same locks. A guard held across
    // the search would hang here; the watchdog turns a hang into a failure.
    let (done, finished) = mpsc::channel();
    std::thread::spawn(move || {
        let piles = random_values(300, 5, 1, 100);
        let game = StoneGameII::new(piles.clone()).unwrap();
        let table = ShardedTable::with_shards(2);
        let value = pool(8).install(|| {
            exhaustive::par_solve(&Unbounded(&game), &table, exhaustive::Options::new())
                .unwrap()
                .value()
        });
        done.send(game.alice_stones(value) == stone_game_ii_dp(&piles))
            .unwrap();
    });
    let agreed = finished
        .recv_timeout(Duration::from_secs(120))
        .expect("the parallel solve on a 2-shard ShardedTable did not finish: deadlock?");
    assert!(agreed);
}

#[test]
fn the_budget_error_surfaces_not_the_cancellation() {
    let piles = random_values(3000, 6, 1, 100);
    let game = StoneGameII::new(piles).unwrap();
    let table = ShardedTable::new();
    let result = pool(4).install(|| {
        exhaustive::par_solve(
            &Unbounded(&game),
            &table,
            exhaustive::Options::new().limits(Limits::with_memory_budget(4 << 20)),
        )
        .map(|s| s.value())
    });
    assert!(
        matches!(result, Err(SolveError::MemoryBudget { .. })),
        "{result:?}"
    );
}

#[test]
fn concurrent_tables_keep_values_under_concurrent_writers() {
    let game = StoneGameII::new(vec![1; 200]).unwrap();
    let states: Vec<_> = (0..200)
        .flat_map(|next| (1..=60).map(move |m| (next, m)))
        .filter_map(|(next, m)| game.state(next, m).ok())
        .filter(|state| game.known_value(state).is_none())
        .collect();
    let value_of = |index: usize| (index as Score * 7919) % 100_003 - 50_000;
    let atomic = AtomicDenseTable::for_game(&game);
    let sharded = ShardedTable::with_shards(4);
    rayon::scope(|scope| {
        for worker in 0..8 {
            let (states, atomic, sharded, game) = (&states, &atomic, &sharded, &game);
            scope.spawn(move |_| {
                // Every worker writes every state (the same value, as racing searches do) and
                // reads them back.
                for offset in 0..states.len() {
                    let index = (offset + worker * 131) % states.len();
                    atomic.insert(game, states[index], value_of(index));
                    sharded.insert(game, states[index], value_of(index));
                    assert_eq!(
                        ConcurrentMemoTable::get(atomic, game, &states[index]),
                        Some(value_of(index))
                    );
                    assert_eq!(
                        ConcurrentMemoTable::get(sharded, game, &states[index]),
                        Some(value_of(index))
                    );
                }
            });
        }
    });
    assert_eq!(
        ConcurrentMemoTable::<StoneGameII>::len(&atomic),
        states.len()
    );
    assert_eq!(
        ConcurrentMemoTable::<StoneGameII>::len(&sharded),
        states.len()
    );
}

/// A progress counter attached to the limits follows every solver, and changes no answer.
#[test]
fn progress_is_published_by_every_solver() {
    use gamesolver::Progress;
    use gamesolver::games::solve_stone_game_ii;

    static PARALLEL: Progress = Progress::new();
    static FAST: Progress = Progress::new();
    let piles: Vec<i64> = (0..600).map(|i| i * 37 % 101 + 1).collect();
    let game = StoneGameII::new(piles).unwrap();
    let table = AtomicDenseTable::for_game(&game);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let limits = Limits::default().progress(&PARALLEL);
    let parallel = pool
        .install(|| exhaustive::par_solve(&game, &table, exhaustive::Options::new().limits(limits)))
        .unwrap();
    let stored = parallel.stats().stored as u64;
    assert!(PARALLEL.stored() > 0 && PARALLEL.stored() <= stored);
    assert!(PARALLEL.bytes() > 0);
    assert_eq!(PARALLEL.steps(), None);
    let fast = solve_stone_game_ii(&game, Limits::default().progress(&FAST)).unwrap();
    assert_eq!(fast.value(), parallel.value());
    assert_eq!(FAST.steps(), Some((600, 600)));
    assert!(FAST.bytes() > 0);
}

/// A mirror-symmetric game on a wrapped `ShardedTable`: the one-thread search goes through
/// the inner table's exclusive view, asked about canonical states; every thread count finds
/// the sequential value, and each stores fewer states than the plain table holds.
#[test]
fn canonical_sharded_tables_solve_on_every_thread_count() {
    use gamesolver::games::ConnectFour;
    use gamesolver::memo::{Canonical, HashTable};
    let game = ConnectFour::new(4, 4).unwrap();
    let plain = exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new()).unwrap();
    let plain_len = plain.stats().stored;
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let table = Canonical(ShardedTable::new());
        let value = pool.install(|| {
            exhaustive::par_solve(&game, &table, exhaustive::Options::new()).map(|s| s.value())
        });
        assert_eq!(value.unwrap(), plain.value(), "{threads} threads");
        let stored = ConcurrentMemoTable::<ConnectFour>::len(&table);
        assert!(0 < stored && stored < plain_len, "{stored} of {plain_len}");
    }
}
