//! The exhaustive and pruning engines stop on a game whose play cycles, with an error that says
//! so and shows the state, long before the memory budget would stop them.

use gamesolver::SolveError;
use gamesolver::engines::{exhaustive, pruning};
use gamesolver::memo::{
    AtomicDenseTable, DenseTable, HashBoundTable, HashTable, ShardedBoundTable, ShardedTable,
};
use gamesolver::{DenseIndex, Game, Limits, Score, Step, Turn};

/// A counter on a ring of `size`: +1 or +2; whoever reaches 0 wins, but from `size - 1` the only
/// move is +2, back to 1, so play can circle forever.
struct Ring {
    size: u32,
}

impl Game for Ring {
    type State = u32;
    type Move = u32;
    fn start(&self) -> u32 {
        1
    }
    fn moves(&self, at: &u32) -> impl Iterator<Item = u32> {
        let (last, at) = (*at == self.size - 1, *at);
        [1, 2]
            .into_iter()
            .filter(move |by| at != 0 && (!last || *by == 2))
    }
    fn play(&self, at: &u32, by: &u32) -> Step<u32> {
        Step {
            next: (at + by) % self.size,
            gain: 0,
            turn: Turn::Pass,
        }
    }
    fn payoff(&self, _: &u32) -> Score {
        -1
    }
    fn state_text(&self, at: &u32) -> Option<String> {
        Some(format!("the counter at {at}"))
    }
}

impl DenseIndex for Ring {
    fn index_len(&self) -> usize {
        self.size as usize
    }
    fn index(&self, at: &u32) -> usize {
        *at as usize
    }
}

/// The budget is far more than the cycle check needs: the error must be the cycle's.
fn limits() -> Limits {
    Limits::with_memory_budget(256 << 20)
}

fn assert_cycle(result: Result<i64, SolveError>, what: &str) {
    assert_cycle_of(result, what, |length| length > 0);
}

/// Checks a cycle error against the game's own moves: its states (as shown) follow one another
/// by legal moves (+1 or +2 on the ring), return to the first, and are `length` moves (all of
/// them shown for a cycle of at most eight); `length_ok` says whether the length is right.
fn assert_cycle_of(result: Result<i64, SolveError>, what: &str, length_ok: impl Fn(usize) -> bool) {
    match result {
        Err(SolveError::Cycle {
            depth,
            length,
            state,
        }) => {
            assert!(
                length_ok(length) && depth < 4096,
                "{what}: {depth}, {length}"
            );
            let state = state.expect("the game describes its states");
            let counters: Vec<u32> = state
                .trim_end_matches(" → …")
                .split(" → ")
                .map(|shown| {
                    let number = shown.strip_prefix("the counter at ");
                    number
                        .and_then(|n| n.parse().ok())
                        .unwrap_or_else(|| panic!("{what}: {state}"))
                })
                .collect();
            assert_eq!(counters.len(), length.min(8) + 1, "{what}: {state}");
            if length <= 8 {
                assert_eq!(counters.first(), counters.last(), "{what}: {state}");
            }
            for pair in counters.windows(2) {
                assert!(pair[1] != pair[0], "{what}: {state}");
            }
            let message = SolveError::Cycle {
                depth,
                length,
                state: Some(state.clone()),
            }
            .to_string();
            assert!(
                message.contains(&format!("the game has a cycle of {length} moves")),
                "{message}"
            );
            assert!(
                message.contains(&format!("the cycle: {state}")),
                "{message}"
            );
            assert!(message.contains("retrograde"), "{message}");
        }
        other => panic!("{what}: expected a cycle, got {other:?}"),
    }
}

/// A counter that goes round a ring of `size` one step at a time, with no other move: its one
/// cycle is `size` moves long.
struct Loop {
    size: u32,
}

impl Game for Loop {
    type State = u32;
    type Move = ();
    fn start(&self) -> u32 {
        0
    }
    fn moves(&self, _: &u32) -> impl Iterator<Item = ()> {
        std::iter::once(())
    }
    fn play(&self, at: &u32, _: &()) -> Step<u32> {
        Step {
            next: (at + 1) % self.size,
            gain: 0,
            turn: Turn::Pass,
        }
    }
    fn payoff(&self, _: &u32) -> Score {
        0
    }
    fn state_text(&self, at: &u32) -> Option<String> {
        Some(format!("the counter at {at}"))
    }
}

impl DenseIndex for Loop {
    fn index_len(&self) -> usize {
        self.size as usize
    }
    fn index(&self, at: &u32) -> usize {
        *at as usize
    }
}

#[test]
fn a_cycle_is_named_by_its_own_length_and_states() {
    // Found when the path doubles past 1024, after hundreds of rounds: the length is still the
    // cycle's own, and its states are listed in order.
    for size in [4, 7, 12] {
        let game = Loop { size };
        let is_size = |length| length == size as usize;
        let options = pruning::Options::new().limits(limits());
        let sharded = ShardedTable::new();
        let atomic = AtomicDenseTable::for_game(&game);
        let bounds = ShardedBoundTable::new();
        let results = [
            (
                "hash",
                exhaustive::solve(
                    &game,
                    HashTable::new(),
                    exhaustive::Options::new().limits(limits()),
                )
                .map(|s| s.value()),
            ),
            (
                "dense",
                exhaustive::solve(
                    &game,
                    DenseTable::for_game(&game),
                    exhaustive::Options::new().limits(limits()),
                )
                .map(|s| s.value()),
            ),
            (
                "sharded",
                exhaustive::par_solve(&game, &sharded, exhaustive::Options::new().limits(limits()))
                    .map(|s| s.value()),
            ),
            (
                "atomic",
                exhaustive::par_solve(&game, &atomic, exhaustive::Options::new().limits(limits()))
                    .map(|s| s.value()),
            ),
            (
                "hash bounds",
                pruning::solve(&game, HashBoundTable::new(), options).map(|s| s.value()),
            ),
            (
                "sharded bounds",
                pruning::par_solve(&game, &bounds, options).map(|s| s.value()),
            ),
        ];
        for (what, result) in results {
            assert_cycle_of(result, &format!("{what}, {size}"), is_size);
        }
    }
    let message = exhaustive::solve(
        &Loop { size: 4 },
        HashTable::new(),
        exhaustive::Options::new().limits(limits()),
    )
    .map(|s| s.value())
    .unwrap_err()
    .to_string();
    assert!(
        message.contains("cycle of 4 moves: a line of play returns to a state 4 moves later"),
        "{message}"
    );
}

#[test]
fn the_exhaustive_engines_stop_on_a_cycle() {
    for size in [4, 7, 50] {
        let ring = Ring { size };
        assert_cycle(
            exhaustive::solve(
                &ring,
                HashTable::new(),
                exhaustive::Options::new().limits(limits()),
            )
            .map(|solution| solution.value()),
            "hash",
        );
        assert_cycle(
            exhaustive::solve(
                &ring,
                DenseTable::for_game(&ring),
                exhaustive::Options::new().limits(limits()),
            )
            .map(|solution| solution.value()),
            "dense",
        );
        let sharded = ShardedTable::new();
        assert_cycle(
            exhaustive::par_solve(&ring, &sharded, exhaustive::Options::new().limits(limits()))
                .map(|solution| solution.value()),
            "sharded",
        );
        let atomic = AtomicDenseTable::for_game(&ring);
        assert_cycle(
            exhaustive::par_solve(&ring, &atomic, exhaustive::Options::new().limits(limits()))
                .map(|solution| solution.value()),
            "atomic dense",
        );
    }
}

#[test]
fn the_pruning_engines_stop_on_a_cycle() {
    for size in [4, 7, 50] {
        let ring = Ring { size };
        let options = pruning::Options::new().limits(limits());
        assert_cycle(
            pruning::solve(&ring, HashBoundTable::new(), options).map(|solution| solution.value()),
            "hash bounds",
        );
        let table = ShardedBoundTable::new();
        assert_cycle(
            pruning::par_solve(&ring, &table, options).map(|solution| solution.value()),
            "sharded bounds",
        );
    }
}

#[test]
fn an_acyclic_deep_game_is_not_mistaken_for_one() {
    // A line of 100 000 states, each with a move to the next and a move to the end: deep, with
    // no state twice on any path.
    struct Line;
    impl Game for Line {
        type State = u32;
        type Move = u32;
        fn start(&self) -> u32 {
            0
        }
        fn moves(&self, at: &u32) -> impl Iterator<Item = u32> {
            let at = *at;
            [1, 100_000u32.saturating_sub(at)]
                .into_iter()
                .filter(move |_| at < 100_000)
        }
        fn play(&self, at: &u32, by: &u32) -> Step<u32> {
            Step {
                next: at + by,
                gain: 0,
                turn: Turn::Pass,
            }
        }
        fn payoff(&self, _: &u32) -> Score {
            -1
        }
    }
    let solution = exhaustive::solve(
        &Line,
        HashTable::new(),
        exhaustive::Options::new().limits(limits()),
    )
    .unwrap();
    assert_eq!(solution.value(), 1);
}
