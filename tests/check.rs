//! The conformance checker: every bundled game passes, and each kind of broken game is caught.

mod common;

use gamesolver::SolveError;
use std::cell::Cell;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

use common::random_values;
use gamesolver::check::{CheckOptions, CheckReport, Violation, check, check_dense};
use gamesolver::games::{StoneGameII, StoneGameVIII};
use gamesolver::{DenseIndex, Game, Score, Step, Turn};

#[test]
fn every_bundled_game_passes() {
    let options = CheckOptions::default();
    for (n, seed) in [(1, 1), (5, 2), (9, 3), (12, 4), (40, 5)] {
        let game = StoneGameII::new(random_values(n, seed, 1, 100)).unwrap();
        let report = check_dense(&game, &options);
        assert!(report.is_ok(), "Stone Game II n={n}: {report}");
        assert!(report.values_compared > 0 || n == 1, "{report}");
    }
    for (n, seed) in [(2, 1), (7, 2), (30, 3)] {
        let game = StoneGameVIII::new(random_values(n, seed, -50, 50)).unwrap();
        let report = check_dense(&game.literal(), &options);
        assert!(report.is_ok(), "VIII literal n={n}: {report}");
        let report = check_dense(&game.stepwise(), &options);
        assert!(report.is_ok(), "VIII stepwise n={n}: {report}");
        assert!(report.values_compared > 0, "{report}");
    }
}

/// The ways the test game can be broken.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Flaw {
    None,
    MovesVary,
    PlayVaries,
    Cycle,
    BigPoints,
    MinPayoff,
    WrongKnown,
    IndexOutOfRange,
    IndexShared,
    IndexPaired,
    ClearsBuffer,
    WrongRange,
    WrongForced,
    IllegalForced,
}

/// Take 1 or 2 counters; taking the last scores 1. Correct unless given a flaw.
struct TakeAway {
    counters: u32,
    flaw: Flaw,
    calls: Cell<u32>,
}

fn take_away(flaw: Flaw) -> TakeAway {
    TakeAway {
        counters: 12,
        flaw,
        calls: Cell::new(0),
    }
}

impl TakeAway {
    fn tick(&self) -> u32 {
        self.calls.set(self.calls.get() + 1);
        self.calls.get()
    }
}

impl Game for TakeAway {
    type State = u32;
    type Move = u32;
    fn start(&self) -> u32 {
        self.counters
    }
    fn moves(&self, left: &u32) -> impl Iterator<Item = u32> {
        let vary = self.flaw == Flaw::MovesVary && *left > 0 && self.tick().is_multiple_of(2);
        (1..=2)
            .filter(move |take| take <= left)
            .chain(vary.then_some(1))
    }
    fn moves_into(&self, left: &u32, moves: &mut Vec<u32>) {
        if self.flaw == Flaw::ClearsBuffer {
            moves.clear();
        }
        moves.extend(self.moves(left));
    }
    fn play(&self, left: &u32, take: &u32) -> Step<u32> {
        let mut next = left - take;
        let mut gain = Score::from(next == 0);
        match self.flaw {
            Flaw::PlayVaries => gain += Score::from(self.tick() % 2),
            Flaw::BigPoints => gain *= 100,
            Flaw::Cycle if *left == 3 && *take == 1 => next = self.counters,
            _ => {}
        }
        Step {
            next,
            gain,
            turn: Turn::Pass,
        }
    }
    fn payoff(&self, _: &u32) -> Score {
        if self.flaw == Flaw::MinPayoff {
            Score::MIN
        } else {
            0
        }
    }
    fn known_value(&self, left: &u32) -> Option<Score> {
        (self.flaw == Flaw::WrongKnown && *left == 6).then_some(5)
    }
    fn forced_move(&self, left: &u32) -> Option<u32> {
        match (self.flaw, *left) {
            // At 4, taking 1 wins (the opponent must leave 1 or 2): taking 2 loses.
            (Flaw::WrongForced, 4) => Some(2),
            (Flaw::IllegalForced, 1) => Some(2),
            // The only move: always right.
            (_, 1) => Some(1),
            _ => None,
        }
    }
}

impl gamesolver::ValueRange for TakeAway {
    fn value_range(&self, left: &u32) -> (Score, Score) {
        if self.flaw == Flaw::WrongRange && *left == 4 {
            (2, 3)
        } else {
            (-1, 1)
        }
    }
}

impl DenseIndex for TakeAway {
    fn index_len(&self) -> usize {
        self.counters as usize + 1
    }
    fn index(&self, left: &u32) -> usize {
        match self.flaw {
            Flaw::IndexOutOfRange => *left as usize + 100,
            Flaw::IndexShared => *left as usize / 2,
            Flaw::IndexPaired => (*left as usize).div_ceil(2),
            _ => *left as usize,
        }
    }
}

fn found<G: Game>(report: &CheckReport<G>, kind: impl Fn(&Violation<G>) -> bool) -> bool {
    report.violations.iter().any(kind)
}

#[test]
fn the_correct_game_passes() {
    let report = check_dense(&take_away(Flaw::None), &CheckOptions::default());
    assert!(report.is_ok(), "{report:?}");
    assert_eq!(report.states, 13);
}

#[test]
fn catches_each_broken_promise() {
    let options = CheckOptions {
        points: Some(-10..=10),
        payoffs: Some(-10..=10),
        ..CheckOptions::default()
    };
    let report = |flaw| check_dense(&take_away(flaw), &options);
    /// A flaw and a test that recognises the violation it must cause.
    type Case = (Flaw, fn(&Violation<TakeAway>) -> bool);
    let cases: Vec<Case> = vec![
        (Flaw::MovesVary, |v| {
            matches!(v, Violation::MovesNotDeterministic { .. })
        }),
        (Flaw::PlayVaries, |v| {
            matches!(v, Violation::PlayNotDeterministic { .. })
        }),
        (
            Flaw::Cycle,
            |v| matches!(v, Violation::Cycle { line } if line[0] == 12),
        ),
        (Flaw::BigPoints, |v| {
            matches!(v, Violation::PointsOutOfRange { gain: 100, .. })
        }),
        (Flaw::MinPayoff, |v| {
            matches!(v, Violation::InvalidScore { what: "payoff", .. })
        }),
        (Flaw::MinPayoff, |v| {
            matches!(v, Violation::PayoffOutOfRange { .. })
        }),
        (Flaw::WrongKnown, |v| {
            matches!(
                v,
                Violation::KnownValueWrong {
                    state: 6,
                    claimed: 5,
                    actual: -1
                }
            )
        }),
        (Flaw::WrongForced, |v| {
            matches!(
                v,
                Violation::ForcedMoveWrong {
                    state: 4,
                    mv: 2,
                    forced: -1,
                    actual: 1
                }
            )
        }),
        (Flaw::IllegalForced, |v| {
            matches!(v, Violation::ForcedMoveIllegal { state: 1, mv: 2 })
        }),
        (Flaw::IndexOutOfRange, |v| {
            matches!(v, Violation::IndexOutOfRange { len: 13, .. })
        }),
        (Flaw::IndexShared, |v| {
            matches!(v, Violation::IndexCollision { .. })
        }),
    ];
    for (flaw, kind) in cases {
        let report = report(flaw);
        assert!(found(&report, kind), "{flaw:?} not caught: {report}");
    }
    // A declared cyclic game is not reported for its cycle.
    let cyclic = CheckOptions {
        cyclic: true,
        ..CheckOptions::default()
    };
    let report = check(&take_away(Flaw::Cycle), &cyclic);
    assert!(
        !found(&report, |v| matches!(v, Violation::Cycle { .. })),
        "{report}"
    );
}

/// Take 1, 2 (or 3 after an odd number of 2-takes) counters. The state's equality and hash
/// look only at the counters left, not at that parity: an incomplete memo key.
#[derive(Clone, Copy, Debug)]
struct Heap {
    left: u32,
    odd_twos: bool,
}

impl PartialEq for Heap {
    fn eq(&self, other: &Heap) -> bool {
        self.left == other.left
    }
}

impl Eq for Heap {}

impl Hash for Heap {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.left.hash(state);
    }
}

struct Incomplete;

impl Game for Incomplete {
    type State = Heap;
    type Move = u32;
    fn start(&self) -> Heap {
        Heap {
            left: 14,
            odd_twos: false,
        }
    }
    fn moves(&self, heap: &Heap) -> impl Iterator<Item = u32> {
        let most = if heap.odd_twos { 3 } else { 2 };
        (1..=most).filter(move |take| *take <= heap.left)
    }
    fn play(&self, heap: &Heap, take: &u32) -> Step<Heap> {
        let left = heap.left - take;
        let next = Heap {
            left,
            odd_twos: heap.odd_twos ^ (*take == 2),
        };
        Step {
            next,
            gain: Score::from(left == 0) * Score::from(*take),
            turn: Turn::Pass,
        }
    }
    fn payoff(&self, _: &Heap) -> Score {
        0
    }
}

#[test]
fn catches_an_incomplete_state_and_the_wrong_values_it_causes() {
    let report = check(&Incomplete, &CheckOptions::default());
    assert!(
        found(&report, |v| matches!(
            v,
            Violation::IncompleteState {
                difference: "moves",
                ..
            }
        )),
        "{report}"
    );
    assert!(
        found(&report, |v| matches!(v, Violation::EngineDisagrees { .. })),
        "{report}"
    );
}

/// A state whose hash changes every time it is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Noisy(u32);

static NOISE: AtomicU64 = AtomicU64::new(0);

impl Hash for Noisy {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
        NOISE.fetch_add(1, Ordering::Relaxed).hash(state);
    }
}

struct NoisyGame;

impl Game for NoisyGame {
    type State = Noisy;
    type Move = u32;
    fn start(&self) -> Noisy {
        Noisy(5)
    }
    fn moves(&self, at: &Noisy) -> impl Iterator<Item = u32> {
        (1..=2).filter(move |take| *take <= at.0)
    }
    fn play(&self, at: &Noisy, take: &u32) -> Step<Noisy> {
        Step {
            next: Noisy(at.0 - take),
            gain: 1,
            turn: Turn::Pass,
        }
    }
    fn payoff(&self, _: &Noisy) -> Score {
        0
    }
}

#[test]
fn catches_a_hash_that_disagrees_with_equality() {
    let report = check(&NoisyGame, &CheckOptions::default());
    assert!(
        found(&report, |v| matches!(v, Violation::HashInconsistent { .. })),
        "{report}"
    );
}

/// Stone Game II as a user might break it: `known_value` wrong at the start only.
struct Broken {
    game: StoneGameII,
}

impl Game for Broken {
    type State = <StoneGameII as Game>::State;
    type Move = <StoneGameII as Game>::Move;
    fn start(&self) -> Self::State {
        self.game.start()
    }
    fn moves(&self, state: &Self::State) -> impl Iterator<Item = Self::Move> {
        self.game.moves(state)
    }
    fn play(&self, state: &Self::State, mv: &Self::Move) -> Step<Self::State> {
        self.game.play(state, mv)
    }
    fn payoff(&self, state: &Self::State) -> Score {
        self.game.payoff(state)
    }
    fn known_value(&self, state: &Self::State) -> Option<Score> {
        if *state == self.game.start() {
            return Some(12_345);
        }
        self.game.known_value(state)
    }
}

#[test]
fn a_wrong_known_value_at_the_start_of_a_large_game_is_caught() {
    let game = Broken {
        game: StoneGameII::new(random_values(400, 9, 1, 100)).unwrap(),
    };
    let report = check(&game, &CheckOptions::default());
    assert!(
        found(&report, |v| matches!(
            v,
            Violation::KnownValueWrong {
                claimed: 12_345,
                ..
            }
        )),
        "{report}"
    );
    assert!(report.to_string().contains("known_value"), "{report}");
}

/// Three moves in a row by the same player, each worth half the score range: the start is
/// worth 1.5 times the range, which no engine can represent.
struct Overflowing;

impl Game for Overflowing {
    type State = u32;
    type Move = ();
    fn start(&self) -> u32 {
        0
    }
    fn moves(&self, at: &u32) -> impl Iterator<Item = ()> {
        (*at < 3).then_some(()).into_iter()
    }
    fn play(&self, at: &u32, _: &()) -> Step<u32> {
        Step {
            next: at + 1,
            gain: i64::MAX / 2,
            turn: Turn::Keep,
        }
    }
    fn payoff(&self, _: &u32) -> Score {
        0
    }
}

#[test]
fn an_overflow_the_engine_meets_is_reported_not_dropped() {
    let report = check(&Overflowing, &CheckOptions::default());
    assert!(
        found(&report, |v| matches!(
            v,
            Violation::EngineFailed { state: 0, .. }
        )),
        "{report}"
    );
    let text = report.to_string();
    assert!(text.contains("the game's points are too large"), "{text}");
}

#[test]
fn a_violation_is_reported_once() {
    let report = check(&take_away(Flaw::MinPayoff), &CheckOptions::default());
    let sentences: Vec<String> = report.violations.iter().map(ToString::to_string).collect();
    let mut distinct = sentences.clone();
    distinct.sort();
    distinct.dedup();
    assert!(!sentences.is_empty());
    assert_eq!(distinct.len(), sentences.len(), "{sentences:#?}");
}

#[test]
fn moves_that_clear_the_buffer_are_caught_and_harm_no_engine() {
    let game = take_away(Flaw::ClearsBuffer);
    let report = check(&game, &CheckOptions::default());
    assert!(
        found(&report, |v| matches!(
            v,
            Violation::MovesIntoDisagree { .. }
        )),
        "{report}"
    );
    let text = report.to_string();
    assert!(
        text.contains("it must append exactly the moves of moves"),
        "{text}"
    );
    // The contract is the game's, and the checker says so without blaming the engine: the
    // engines hand `moves_into` an empty buffer, so their answers stay exact.
    assert!(!text.contains("the engine values"), "{text}");
    let correct = take_away(Flaw::None);
    let exact = gamesolver::engines::exhaustive::solve(
        &correct,
        gamesolver::memo::HashTable::new(),
        gamesolver::engines::exhaustive::Options::new(),
    )
    .unwrap();
    let cleared = gamesolver::engines::exhaustive::solve(
        &game,
        gamesolver::memo::HashTable::new(),
        gamesolver::engines::exhaustive::Options::new(),
    )
    .unwrap();
    assert_eq!(cleared.value(), exact.value());
}

/// Stone Game II whose state carries how many moves led to it: `Eq` ignores the count, `Hash`
/// does not, so equal states reached by different lines hash apart.
struct PathCounted {
    game: StoneGameII,
}

#[derive(Clone, Debug)]
struct Counted {
    state: gamesolver::games::StoneGameIIState,
    moves_so_far: u32,
}

impl PartialEq for Counted {
    fn eq(&self, other: &Self) -> bool {
        self.state == other.state
    }
}

impl Eq for Counted {}

impl Hash for Counted {
    fn hash<H: Hasher>(&self, hasher: &mut H) {
        self.state.hash(hasher);
        self.moves_so_far.hash(hasher);
    }
}

impl Game for PathCounted {
    type State = Counted;
    type Move = u32;
    fn start(&self) -> Counted {
        Counted {
            state: self.game.start(),
            moves_so_far: 0,
        }
    }
    fn moves(&self, at: &Counted) -> impl Iterator<Item = u32> {
        self.game.moves(&at.state)
    }
    fn play(&self, at: &Counted, mv: &u32) -> Step<Counted> {
        let step = self.game.play(&at.state, mv);
        Step {
            next: Counted {
                state: step.next,
                moves_so_far: at.moves_so_far + 1,
            },
            gain: step.gain,
            turn: step.turn,
        }
    }
    fn payoff(&self, at: &Counted) -> Score {
        self.game.payoff(&at.state)
    }
    fn known_value(&self, at: &Counted) -> Option<Score> {
        self.game.known_value(&at.state)
    }
}

#[test]
fn a_hash_that_covers_what_eq_ignores_is_caught() {
    let game = PathCounted {
        game: StoneGameII::new(random_values(14, 4, 1, 100)).unwrap(),
    };
    let report = check(&game, &CheckOptions::default());
    assert!(
        found(&report, |v| matches!(v, Violation::EqualStatesApart { .. })),
        "{report}"
    );
    assert!(
        report
            .to_string()
            .contains("Hash covers something Eq ignores")
    );
    // The correct game is not flagged.
    let report = check(&game.game, &CheckOptions::default());
    assert!(report.is_ok(), "{report}");
}

#[test]
fn a_check_over_its_budget_stops_and_says_so() {
    let game = StoneGameII::new(random_values(200, 6, 1, 100)).unwrap();
    let options = CheckOptions {
        limits: gamesolver::Limits::with_memory_budget(64 << 10),
        ..CheckOptions::default()
    };
    let report = check(&game, &options);
    assert!(
        matches!(report.stopped, Some(SolveError::MemoryBudget { .. })),
        "{report}"
    );
    assert!(!report.is_ok());
    assert!(report.to_string().contains("stopped early"), "{report}");
    // Within a fair budget, the same check runs to its end.
    assert!(check(&game, &CheckOptions::default()).is_ok());
}

/// One heap of 40 000 counters; take any number. 40 000 moves at the start.
struct OneHeap;

impl Game for OneHeap {
    type State = u32;
    type Move = u32;
    fn start(&self) -> u32 {
        40_000
    }
    fn moves(&self, heap: &u32) -> impl Iterator<Item = u32> {
        1..=*heap
    }
    fn play(&self, heap: &u32, take: &u32) -> Step<u32> {
        Step {
            next: heap - take,
            gain: 0,
            turn: Turn::Pass,
        }
    }
    fn payoff(&self, _: &u32) -> Score {
        -1
    }
}

#[test]
fn the_check_work_is_bounded_on_games_with_many_moves() {
    let options = CheckOptions {
        max_generated: 2_000_000,
        ..CheckOptions::default()
    };
    let report = check(&OneHeap, &options);
    assert!(report.is_ok(), "{report}");
    // Every state met had its moves generated three times: within the bound, plus the one
    // state that crossed it.
    assert!(report.states < 100, "{report}");
}

/// In a debug build, the engine stops a solve whose `DenseIndex` gives two states one index,
/// and points at the index, instead of answering wrongly.
#[cfg(debug_assertions)]
#[test]
#[should_panic(expected = "two states share one memo key")]
fn a_shared_dense_index_stops_a_debug_solve() {
    // 1 and 2 share an index, 3 and 4, …: 3 is stored over 4's different value. (The check
    // needs two different values at one index, so it cannot catch every collision: with
    // `left / 2`, state 0 takes 1's value and the wrong values happen to agree; check_dense
    // finds both.)
    let game = take_away(Flaw::IndexPaired);
    let _ = gamesolver::engines::exhaustive::solve(
        &game,
        gamesolver::memo::DenseTable::for_game(&game),
        gamesolver::engines::exhaustive::Options::new(),
    );
}

#[test]
fn a_declared_range_that_misses_the_value_is_caught() {
    use gamesolver::check::check_ranged;
    let report = check_ranged(&take_away(Flaw::WrongRange), &CheckOptions::default());
    assert!(
        found(&report, |v| matches!(
            v,
            Violation::OutsideRange {
                state: 4,
                range: (2, 3),
                ..
            }
        )),
        "{report}"
    );
    assert!(report.to_string().contains("a range must hold the value"));
    assert!(check_ranged(&take_away(Flaw::None), &CheckOptions::default()).is_ok());
    let four = gamesolver::games::ConnectFour::new(4, 4).unwrap();
    let options = CheckOptions {
        max_states: 3_000,
        playouts: 30,
        ..CheckOptions::default()
    };
    let report = check_ranged(&four, &options);
    assert!(report.is_ok(), "{report}");
    assert!(report.values_compared > 0);
}
