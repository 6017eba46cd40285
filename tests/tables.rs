//! The memo-table contract (one body, every table), the memory budget, and score overflow.

use gamesolver::SolveError;
use gamesolver::engines::exhaustive;
use gamesolver::games::StoneGameII;
use gamesolver::memo::{
    AtomicDenseTable, ConcurrentMemoTable, DEFAULT_SHARDS, DenseTable, HashTable, MemoTable,
    NoTable, ShardedTable, TableJob,
};
use gamesolver::{DenseIndex, Game, Limits, Score, Step, Turn};

/// The states the contract stores: every one with `m` up to 3 that needs a search.
fn contract_states(game: &StoneGameII) -> Vec<<StoneGameII as Game>::State> {
    (0..game.piles().len())
        .flat_map(|next| (1..=3).map(move |m| (next, m)))
        .map(|(next, m)| game.state(next, m).unwrap())
        .filter(|state| game.known_value(state).is_none())
        .collect()
}

/// What every storing table must do, whatever its layout.
fn table_contract<T: MemoTable<StoneGameII>>(mut table: T, game: &StoneGameII) {
    let states = contract_states(game);
    assert!(states.len() > 10);
    assert!(table.is_empty());
    for state in &states {
        assert_eq!(
            table.get(game, state),
            None,
            "empty table reports {state:?}"
        );
    }
    for (rank, state) in states.iter().enumerate() {
        table.insert(game, *state, rank as Score - 5);
        assert_eq!(table.len(), rank + 1);
    }
    for (rank, state) in states.iter().enumerate() {
        assert_eq!(table.get(game, state), Some(rank as Score - 5));
    }
    // Extremes of the value range round-trip; overwriting does not add a state.
    table.insert(game, states[0], Score::MAX);
    table.insert(game, states[1], -Score::MAX);
    assert_eq!(table.get(game, &states[0]), Some(Score::MAX));
    assert_eq!(table.get(game, &states[1]), Some(-Score::MAX));
    assert_eq!(table.len(), states.len());
    assert!(table.peak_bytes(0) > 0);
    assert!(table.peak_bytes(1 << 20) >= table.peak_bytes(0));
    assert!(table.bytes_for(1 << 20) >= table.bytes_for(10));
}

#[test]
fn every_table_keeps_the_contract() {
    let game = StoneGameII::new((1..=40).collect()).unwrap();
    table_contract(HashTable::new(), &game);
    table_contract(DenseTable::for_game(&game), &game);
    // Concurrent tables serve the sequential engine through `&table`.
    table_contract(&AtomicDenseTable::for_game(&game), &game);
    table_contract(&ShardedTable::new(), &game);
    table_contract(&ShardedTable::with_shards(2), &game);
}

/// A dense table keeps a byte a slot until a value needs more, then widens with every value
/// kept: random stores of values near and past a byte's edges, against a map, on tables that
/// widen at a random moment or never.
#[test]
fn a_dense_table_widens_when_a_value_needs_more_than_a_byte() {
    let game = StoneGameII::new((1..=30).collect()).unwrap();
    let slots = game.index_len();
    let edges: [Score; 10] = [-129, -128, -127, -1, 0, 1, 126, 127, 128, Score::MAX];
    for seed in 0..200u64 {
        let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = |bound: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % bound
        };
        // A third of the tables never see a wide value.
        let narrow_only = seed % 3 == 0;
        let mut table = DenseTable::for_game(&game);
        let mut oracle = std::collections::HashMap::new();
        let mut wide = false;
        for _ in 0..300 {
            let index = next(slots as u64) as usize;
            let value = if narrow_only {
                next(255) as Score - 127
            } else if next(4) == 0 {
                edges[next(edges.len() as u64) as usize]
            } else {
                next(41) as Score - 20
            };
            wide |= !(-127..=127).contains(&value);
            table.set_slot(index, value).unwrap();
            oracle.insert(index, value);
            assert_eq!(MemoTable::<StoneGameII>::len(&table), oracle.len());
            let per_slot = if wide { 8 } else { 1 };
            assert_eq!(table.bytes(), per_slot * slots as u64, "seed {seed}");
        }
        let expected: Vec<_> = (0..slots)
            .map(|index| oracle.get(&index).copied())
            .collect();
        assert_eq!(table.slot_values().collect::<Vec<_>>(), expected);
        // A table widened from the start (by a value in slot 0, then the same stores) compares
        // equal when slot 0 was stored in both, whatever their widths.
        let mut widened = DenseTable::for_game(&game);
        widened.set_slot(0, Score::MAX).unwrap();
        for (&index, &value) in &oracle {
            widened.set_slot(index, value).unwrap();
        }
        assert_eq!(widened.bytes(), 8 * slots as u64);
        assert_eq!(widened == table, oracle.contains_key(&0), "seed {seed}");
    }
}

/// The contract, on whatever table `exclusive` hands out.
struct Contract<'a>(&'a StoneGameII);

impl TableJob<StoneGameII> for Contract<'_> {
    type Output = ();

    fn run<T: MemoTable<StoneGameII>>(self, table: T) {
        table_contract(table, self.0)
    }
}

#[test]
fn exclusive_views_keep_the_contract_and_leave_their_entries_to_every_thread() {
    let game = StoneGameII::new((1..=40).collect()).unwrap();
    let states = contract_states(&game);
    let after = |table: &(dyn Fn(&<StoneGameII as Game>::State) -> Option<Score> + Sync)| {
        // Read from another thread once the job is over: nothing is left locked.
        std::thread::scope(|scope| {
            scope
                .spawn(|| states.iter().map(table).collect::<Vec<_>>())
                .join()
                .unwrap()
        })
    };
    let mut expected: Vec<_> = (0..states.len())
        .map(|rank| Some(rank as Score - 5))
        .collect();
    (expected[0], expected[1]) = (Some(Score::MAX), Some(-Score::MAX));
    for shards in [2, 64, DEFAULT_SHARDS] {
        let table = ShardedTable::with_shards(shards);
        table.exclusive(Contract(&game));
        let get = |state: &_| ConcurrentMemoTable::get(&table, &game, state);
        assert_eq!(after(&get), expected, "{shards} shards");
        assert_eq!(
            ConcurrentMemoTable::<StoneGameII>::len(&table),
            states.len()
        );
    }
    // The default hands the job the table itself.
    let dense = AtomicDenseTable::for_game(&game);
    dense.exclusive(Contract(&game));
    let get = |state: &_| ConcurrentMemoTable::get(&dense, &game, state);
    assert_eq!(after(&get), expected);
}

#[test]
fn no_table_stores_nothing_and_still_solves() {
    let game = StoneGameII::new(vec![2, 7, 9, 4, 4]).unwrap();
    let mut table = NoTable;
    table.insert(&game, game.start(), 1);
    assert_eq!(table.get(&game, &game.start()), None);
    assert_eq!(
        game.alice_stones(
            exhaustive::solve(&game, NoTable, exhaustive::Options::new())
                .unwrap()
                .value()
        ),
        10
    );
}

/// A chain game with no declared state bound: the budget is enforced while searching.
struct Chain {
    length: u64,
    gain: Score,
}

impl Game for Chain {
    type State = u64;
    type Move = ();
    fn start(&self) -> u64 {
        0
    }
    fn moves(&self, at: &u64) -> impl Iterator<Item = ()> {
        (*at < self.length).then_some(()).into_iter()
    }
    fn play(&self, at: &u64, _: &()) -> Step<u64> {
        Step {
            next: at + 1,
            gain: self.gain,
            turn: Turn::Keep,
        }
    }
    fn payoff(&self, _: &u64) -> Score {
        0
    }
}

impl DenseIndex for Chain {
    fn index_len(&self) -> usize {
        self.length as usize + 1
    }
    fn index(&self, at: &u64) -> usize {
        *at as usize
    }
}

#[test]
fn the_budget_stops_a_search_that_outgrows_it() {
    let game = Chain {
        length: 200_000,
        gain: 1,
    };
    let refused = exhaustive::solve(
        &game,
        HashTable::new(),
        exhaustive::Options::new().limits(Limits::with_memory_budget(1 << 20)),
    );
    match refused {
        Err(SolveError::MemoryBudget { needed, budget, .. }) => {
            assert_eq!(budget, 1 << 20);
            assert!(needed > budget);
        }
        Err(other) => panic!("{other}"),
        Ok(_) => panic!("a 200 000-state search fit in 1 MiB"),
    }
    let solved = exhaustive::solve(
        &game,
        HashTable::new(),
        exhaustive::Options::new().limits(Limits::with_memory_budget(1 << 30)),
    )
    .unwrap();
    assert_eq!(solved.value(), 200_000);
}

#[test]
fn the_budget_refuses_up_front_when_the_game_declares_a_bound() {
    let game = StoneGameII::new(vec![1; 5000]).unwrap();
    let error = exhaustive::solve(
        &game,
        HashTable::new(),
        exhaustive::Options::new().limits(Limits::with_memory_budget(1 << 20)),
    )
    .err()
    .expect("refused");
    assert!(
        error.to_string().contains("memory budget is 1.0 MiB"),
        "{error}"
    );
    assert!(matches!(
        DenseTable::try_for_game(&game, 1 << 20),
        Err(SolveError::MemoryBudget { .. })
    ));
}

#[test]
fn overflowing_scores_are_an_error_not_a_wrap() {
    let game = Chain {
        length: 3,
        gain: Score::MAX / 2,
    };
    assert!(matches!(
        exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new()),
        Err(SolveError::ScoreOverflow)
    ));
    assert!(matches!(
        exhaustive::solve(
            &game,
            DenseTable::for_game(&game),
            exhaustive::Options::new()
        ),
        Err(SolveError::ScoreOverflow)
    ));
    let fits = Chain {
        length: 2,
        gain: Score::MAX / 2,
    };
    assert_eq!(
        exhaustive::solve(&fits, HashTable::new(), exhaustive::Options::new())
            .unwrap()
            .value(),
        Score::MAX / 2 * 2
    );
}

/// One move to a final state: the value is `gain + payoff` (the turn is kept).
struct OneMove {
    gain: Score,
    payoff: Score,
}

impl Game for OneMove {
    type State = bool;
    type Move = ();
    fn start(&self) -> bool {
        false
    }
    fn moves(&self, done: &bool) -> impl Iterator<Item = ()> {
        (!done).then_some(()).into_iter()
    }
    fn play(&self, _: &bool, _: &()) -> Step<bool> {
        Step {
            next: true,
            gain: self.gain,
            turn: Turn::Keep,
        }
    }
    fn payoff(&self, _: &bool) -> Score {
        self.payoff
    }
}

/// A game that claims `Score::MIN` as a known value: an invalid score, reported, not a panic.
struct KnowsMin;

impl Game for KnowsMin {
    type State = u8;
    type Move = u8;
    fn start(&self) -> u8 {
        0
    }
    fn moves(&self, at: &u8) -> impl Iterator<Item = u8> {
        [1, 2].into_iter().filter(move |_| *at == 0)
    }
    fn play(&self, _: &u8, to: &u8) -> Step<u8> {
        Step {
            next: *to,
            gain: 0,
            turn: Turn::Pass,
        }
    }
    fn payoff(&self, _: &u8) -> Score {
        0
    }
    fn known_value(&self, at: &u8) -> Option<Score> {
        (*at == 2).then_some(Score::MIN)
    }
}

#[test]
fn a_known_value_of_score_min_is_an_overflow() {
    assert!(matches!(
        exhaustive::solve(&KnowsMin, HashTable::new(), exhaustive::Options::new()),
        Err(SolveError::ScoreOverflow)
    ));
}

#[test]
fn a_value_of_exactly_score_min_is_an_overflow() {
    // −MAX + (−1) = MIN without wrapping: still outside the value range.
    let game = OneMove {
        gain: -Score::MAX,
        payoff: -1,
    };
    assert!(matches!(
        exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new()),
        Err(SolveError::ScoreOverflow)
    ));
    let game = OneMove {
        gain: -Score::MAX,
        payoff: 0,
    };
    assert_eq!(
        exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new())
            .unwrap()
            .value(),
        -Score::MAX
    );
    let game = OneMove {
        gain: 0,
        payoff: Score::MIN,
    };
    assert!(matches!(
        exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new()),
        Err(SolveError::ScoreOverflow)
    ));
}
