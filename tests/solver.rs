//! The front door: `Solver` on games that declare what they know, against independent oracles
//! (the hand-written solutions of tests/common/user_games.rs, Nim's closed form) and against
//! the exhaustive engine, for every combination of declarations, engine and 1..=8 threads.

#[path = "common/user_games.rs"]
mod user_games;

use gamesolver::SolveError;
use gamesolver::engines::exhaustive;
use gamesolver::games::{CatAndMouse, DotsAndBoxes, Nim, StoneGameII};
use gamesolver::memo::{DenseTable, HashTable};
use gamesolver::{
    Capabilities, Declares, DenseIndex, Engine, Game, Score, Solved, Solver, Step, ValueRange,
    engines::{Cuts, retrograde::Outcome},
    game::StateAt,
};
use proptest::prelude::*;
use user_games::{CanIWin, EndsGame, PlainFour, SquareTakeaway};

/// The values of `state`'s moves, in the game's order.
fn move_values_at<G: Game>(solved: &mut impl Solved<G>, state: &G::State) -> Vec<Score> {
    let moves = solved.move_values(state).unwrap();
    moves.iter().map(|m| m.value).collect()
}

/// The value `Solver` finds on `threads` threads.
fn solved_value<G>(game: &G, threads: usize) -> Score
where
    G: Game + Sync,
    G::State: Eq + std::hash::Hash + Send + Sync,
    G::Move: Send,
{
    Solver::new(game).threads(threads).solve().unwrap().value()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn can_i_win_equals_the_recursion_by_hand(numbers in 1u32..=12, target in 1u32..=90) {
        let game = CanIWin { numbers, target };
        let expected = game.by_hand();
        for threads in [1, 2] {
            prop_assert_eq!(solved_value(&game, threads), expected);
        }
    }

    #[test]
    fn predict_the_winner_equals_the_recursion_by_hand(
        numbers in prop::collection::vec(-50i64..=50, 1..40)
    ) {
        let game = EndsGame::new(numbers);
        let expected = game.by_hand();
        for threads in [1, 2] {
            prop_assert_eq!(solved_value(&game, threads), expected);
        }
    }

    #[test]
    fn stone_game_iv_equals_the_array_dp(stones in 0u32..=3000) {
        let game = SquareTakeaway { stones };
        let expected = game.by_hand();
        for threads in [1, 2] {
            let solved = Solver::new(&game).threads(threads).solve().unwrap();
            prop_assert_eq!(solved.value(), expected);
            let outcome = if expected == 1 { Outcome::Win } else { Outcome::Loss };
            prop_assert_eq!(solved.outcome(), Some(outcome));
        }
        // The exhaustive engine on the same moves, eight roots a batch, as deep as the stones:
        // each state's batches fetched and scanned one after the other, across the move
        // buffer's growth.
        for threads in [1, 2] {
            let solver = Solver::new(&game).engine(Engine::Exhaustive).threads(threads);
            prop_assert_eq!(solver.solve().unwrap().value(), expected);
        }
        let solved = exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new());
        prop_assert_eq!(solved.unwrap().value(), expected);
    }
}

#[test]
fn plain_connect_four_equals_the_recursion_by_hand() {
    for (width, height) in [(3, 3), (4, 3), (4, 4)] {
        let game = PlainFour { width, height };
        let expected = game.by_hand();
        for threads in [1, 2] {
            assert_eq!(solved_value(&game, threads), expected, "{width}x{height}");
        }
    }
}

#[test]
fn the_plan_follows_the_declarations() {
    let plan = |plan: Result<gamesolver::Plan, SolveError>| {
        let plan = plan.unwrap();
        (plan.engine, plan.dense, plan.cuts)
    };
    let stones = SquareTakeaway { stones: 10 };
    assert_eq!(
        plan(Solver::new(&stones).plan()),
        (Engine::Sweep, true, Cuts::Outcome)
    );
    // The sweep runs on one thread, whatever the builder asks.
    assert_eq!(Solver::new(&stones).threads(4).plan().unwrap().threads, 1);
    let can_i_win = CanIWin {
        numbers: 5,
        target: 9,
    };
    assert_eq!(
        plan(Solver::new(&can_i_win).plan()),
        (Engine::Exhaustive, false, Cuts::Declared)
    );
    let piles = StoneGameII::new(vec![2, 7, 9]).unwrap();
    assert_eq!(
        plan(Solver::new(&piles).plan()),
        (Engine::Exhaustive, true, Cuts::None)
    );
    let boxes = DotsAndBoxes::new(2, 2).unwrap();
    assert_eq!(plan(Solver::new(&boxes).plan()).0, Engine::Tiers);
    let chase = CatAndMouse::new(vec![vec![1, 3], vec![0], vec![3], vec![0, 2]]).unwrap();
    assert_eq!(
        plan(Solver::new(&chase).plan()),
        (Engine::Retrograde, true, Cuts::None)
    );
    let forced = Solver::new(&stones)
        .engine(Engine::Pruning)
        .threads(3)
        .plan();
    let forced = forced.unwrap();
    assert_eq!((forced.engine, forced.threads), (Engine::Pruning, 3));
}

#[test]
fn an_engine_the_declarations_cannot_serve_is_refused_by_name() {
    let piles = StoneGameII::new(vec![2, 7, 9]).unwrap();
    let tiers = Solver::new(&piles)
        .engine(Engine::Tiers)
        .solve()
        .unwrap_err();
    assert!(
        matches!(&tiers, SolveError::Unsupported(message) if message.contains("Capabilities::tiers"))
    );
    let retro = Solver::new(&piles).engine(Engine::Retrograde).solve();
    assert!(
        matches!(retro, Err(SolveError::Unsupported(message)) if message.contains("outcome game"))
    );
    let sweep = Solver::new(&piles).engine(Engine::Sweep).solve();
    assert!(
        matches!(sweep, Err(SolveError::Unsupported(message)) if message.contains("ordered_index"))
    );
    // No message of the library names a command-line flag.
    assert!(!tiers.to_string().contains("--"));
}

#[test]
fn a_tier_solution_says_which_questions_need_every_tier() {
    let game = DotsAndBoxes::new(2, 2).unwrap();
    // Within 4000 bytes (a byte per board is 4096), the tiers are laid out by rank and only
    // those a move can still reach are kept.
    let mut needed = Solver::new(&game).memory_limit(4000).solve().unwrap();
    assert_eq!(needed.value(), 2);
    let error = needed.line().unwrap_err();
    assert!(
        matches!(&error, SolveError::Unanswerable(message) if message.contains("keep_every_tier"))
    );
    let mut engine = exhaustive::solve(
        &game,
        DenseTable::for_game(&game),
        exhaustive::Options::new(),
    )
    .unwrap();
    let mut every = Solver::new(&game).keep_every_tier().solve().unwrap();
    assert_eq!(every.line().unwrap(), engine.line().unwrap());
    // With room for a byte per board, the values are laid out by the board's edges, which
    // keeps every tier: the line is there without asking.
    let mut dense = Solver::new(&game).solve().unwrap();
    assert_eq!(dense.line().unwrap(), engine.line().unwrap());
}

#[test]
fn limits_reach_every_engine() {
    let game = StoneGameII::new(vec![5; 3000]).unwrap();
    let refused = Solver::new(&game).memory_limit(1 << 20).solve();
    assert!(
        matches!(refused, Err(SolveError::MemoryBudget { .. })),
        "{refused:?}"
    );
    let boxes = DotsAndBoxes::new(2, 3).unwrap();
    let refused = Solver::new(&boxes).memory_limit(1 << 10).solve();
    assert!(
        matches!(refused, Err(SolveError::MemoryBudget { .. })),
        "{refused:?}"
    );
    // The sweep: its array does not fit, and the hash table it falls back on does not either.
    let stones = SquareTakeaway { stones: 200_000 };
    let refused = Solver::new(&stones).memory_limit(1 << 20).solve();
    assert!(
        matches!(refused, Err(SolveError::MemoryBudget { .. })),
        "{refused:?}"
    );
    let stopped = Solver::new(&stones)
        .time_limit(std::time::Duration::ZERO)
        .solve();
    assert!(
        matches!(stopped, Err(SolveError::TimeLimit { .. })),
        "{stopped:?}"
    );
    // Where the array does not fit but the states the search meets do, the exhaustive engine
    // answers on a hash table: 10⁶ indices (8 MB) in a 1 MiB budget, 1001 states reached.
    let strides = strides(1_000_000);
    let solved = Solver::new(&strides).memory_limit(1 << 20).solve().unwrap();
    assert_eq!(solved.engine(), Engine::Exhaustive);
    assert_eq!(
        solved.value(),
        exhaustive::solve(&strides, HashTable::new(), exhaustive::Options::new())
            .unwrap()
            .value()
    );
    assert_eq!(
        Solver::new(&strides).solve().unwrap().engine(),
        Engine::Sweep
    );
}

/// A token on `0..=top`, moved from `start` by one of two `steps` (staying on the line), a
/// point a move. Its index is the position: it orders the game when the steps are negative
/// (`strides`: 1000 or 2000 back from 10⁶ reaches one position in a thousand), and every move
/// breaks the order when they are positive (`upward`); `holes` makes gaps in `state_at`.
struct Walk {
    start: u32,
    top: u32,
    steps: [i64; 2],
    holes: Option<Holes>,
}

/// 1000 or 2000 back from `start`.
fn strides(start: u32) -> Walk {
    let steps = [-1000, -2000];
    Walk {
        start,
        top: start,
        steps,
        holes: None,
    }
}

/// 1 or 2 up from 0 to `top`.
fn upward(top: u32) -> Walk {
    let steps = [1, 2];
    Walk {
        start: 0,
        top,
        steps,
        holes: None,
    }
}

impl Game for Walk {
    type State = u32;
    type Move = i64;
    fn start(&self) -> u32 {
        self.start
    }
    fn moves(&self, at: &u32) -> impl Iterator<Item = i64> {
        let on_line =
            move |step: &i64| (0..=i64::from(self.top)).contains(&(i64::from(*at) + step));
        self.steps.into_iter().filter(on_line)
    }
    fn play(&self, at: &u32, step: &i64) -> Step<u32> {
        Step {
            next: (i64::from(*at) + step) as u32,
            gain: 1,
            turn: gamesolver::Turn::Pass,
        }
    }
    fn payoff(&self, _: &u32) -> Score {
        0
    }
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().ordered_index()
    }
}

impl DenseIndex for Walk {
    fn index_len(&self) -> usize {
        self.top as usize + 1
    }
    fn index(&self, at: &u32) -> usize {
        *at as usize
    }
}

impl StateAt for Walk {
    fn state_at(&self, index: usize) -> Option<u32> {
        let at = u32::try_from(index).ok().filter(|at| *at <= self.top)?;
        match (at % 2, self.holes) {
            (0, _) | (_, None) => Some(at),
            (_, Some(Holes::Odd)) => None,
            (_, Some(Holes::Misplaced)) => Some(at - 1),
        }
    }
}

#[test]
fn a_sweep_refuses_an_index_that_does_not_order_the_game() {
    let up = upward(10);
    let refused = Solver::new(&up).solve();
    assert!(
        matches!(&refused, Err(SolveError::InvalidGame(message))
            if message.contains("ordered index") && message.contains("from index 0 leads to index 1")),
        "{refused:?}"
    );
    // The checker finds it too, and accepts the games whose index does order them.
    let options = gamesolver::check::CheckOptions::default();
    let report = gamesolver::check::check_dense(&up, &options);
    assert!(
        report
            .to_string()
            .contains("(index 0) leads to index 1, not below it"),
        "{report}"
    );
    let report = gamesolver::check::check_dense(&SquareTakeaway { stones: 300 }, &options);
    assert!(report.is_ok(), "{report}");
    let report = gamesolver::check::check_dense(&strides(20_000), &options);
    assert!(report.is_ok(), "{report}");
    // The exhaustive engine, asked for, solves it: 10 steps of 1 point, alternately.
    let solved = Solver::new(&up).engine(Engine::Exhaustive).solve();
    assert_eq!(
        solved.unwrap().value(),
        exhaustive::solve(&up, HashTable::new(), exhaustive::Options::new())
            .unwrap()
            .value()
    );
}

/// Where a walk's `state_at` leaves the odd indices empty (`Odd`) or gives the state below at
/// each of them (`Misplaced`: not `index`'s inverse, so a state is valued twice and an odd
/// slot never): the sweep reads such a table slot by slot (its path for tables with gaps), and
/// must value exactly what it can reach and refuse a move into a gap.
#[derive(Clone, Copy)]
enum Holes {
    Odd,
    Misplaced,
}

#[test]
fn a_sweep_over_a_table_with_gaps_values_what_moves_reach_and_refuses_a_move_into_a_gap() {
    for holes in [Holes::Odd, Holes::Misplaced] {
        for (start, steps) in [(10_000, [-2, -6]), (4_096, [-4, -10]), (3, [-2, -4])] {
            let game = Walk {
                start,
                top: start,
                steps,
                holes: Some(holes),
            };
            let solved = Solver::new(&game).solve();
            if start % 2 == 0 {
                let solved = solved.unwrap();
                assert_eq!(solved.engine(), Engine::Sweep);
                assert_eq!(
                    solved.value(),
                    exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new())
                        .unwrap()
                        .value()
                );
            } else {
                // An odd start: in a gap, or (misplaced) moves that reach the odd slots.
                assert!(
                    matches!(&solved, Err(SolveError::InvalidGame(message)) if message.contains("ordered index")),
                    "{:?}",
                    solved.map(|s| s.value())
                );
            }
        }
        // One step of 1 from an even state reaches an odd slot, never valued.
        let game = Walk {
            start: 100,
            top: 100,
            steps: [-1, -2],
            holes: Some(holes),
        };
        let refused = Solver::new(&game).solve();
        assert!(
            matches!(&refused, Err(SolveError::InvalidGame(message)) if message.contains("leads to index")),
            "{:?}",
            refused.map(|s| s.value())
        );
    }
}

/// Take 1 to 3 of the stones left, scoring the stones taken times a weight of the count taken
/// from (1 to 200, by a seed): values grow past a byte as the count grows, so a dense table's
/// slots widen partway through a solve.
struct Weighted {
    stones: u32,
    seed: u32,
}

impl Weighted {
    fn weight(&self, left: u32) -> Score {
        Score::from((left.wrapping_mul(2_654_435_761) ^ self.seed) % 200 + 1)
    }

    /// The value of every count, by the array DP over the literal rules.
    fn by_hand(&self) -> Vec<Score> {
        let mut value = vec![0; self.stones as usize + 1];
        for left in 1..=self.stones {
            value[left as usize] = (1..=3.min(left))
                .map(|taken| {
                    Score::from(taken) * self.weight(left) - value[(left - taken) as usize]
                })
                .max()
                .unwrap();
        }
        value
    }
}

impl Game for Weighted {
    type State = u32;
    type Move = u32;
    fn start(&self) -> u32 {
        self.stones
    }
    fn moves(&self, left: &u32) -> impl Iterator<Item = u32> {
        (1..=3).filter(move |taken| taken <= left)
    }
    fn play(&self, left: &u32, taken: &u32) -> Step<u32> {
        Step {
            next: left - taken,
            gain: Score::from(*taken) * self.weight(*left),
            turn: gamesolver::Turn::Pass,
        }
    }
    fn payoff(&self, _: &u32) -> Score {
        0
    }
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().ordered_index()
    }
}

impl DenseIndex for Weighted {
    fn index_len(&self) -> usize {
        self.stones as usize + 1
    }
    fn index(&self, left: &u32) -> usize {
        *left as usize
    }
}

impl StateAt for Weighted {
    fn state_at(&self, index: usize) -> Option<u32> {
        u32::try_from(index).ok()
    }
}

#[test]
fn values_past_a_byte_widen_the_dense_table_within_a_solve() {
    let mut widened = false;
    for seed in 0..40 {
        let game = Weighted {
            stones: 1 + seed * 97 % 3000,
            seed,
        };
        let values = game.by_hand();
        let expected = values[game.stones as usize];
        let oracle = exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new());
        assert_eq!(oracle.unwrap().value(), expected);
        for engine in [Engine::Sweep, Engine::Exhaustive] {
            let solved = Solver::new(&game)
                .engine(engine)
                .threads(1)
                .solve()
                .unwrap();
            assert!(solved.plan().dense, "{engine:?}");
            assert_eq!(solved.value(), expected, "{engine:?}, seed {seed}");
        }
        let solved = exhaustive::solve(
            &game,
            DenseTable::for_game(&game),
            exhaustive::Options::new(),
        );
        let solved = solved.unwrap();
        assert_eq!(solved.value(), expected);
        // Every slot stored holds the state's value by the literal rules, past a byte or not,
        // and the slots are wide exactly when a stored value needs it.
        let mut wide = false;
        for (left, slot) in solved.table().slot_values().enumerate() {
            if let Some(value) = slot {
                assert_eq!(value, values[left], "seed {seed}, {left} left");
                wide |= !(-127..=127).contains(&value);
            }
        }
        let per_slot = if wide { 8 } else { 1 };
        assert_eq!(solved.table().bytes(), per_slot * (game.stones as u64 + 1));
        widened |= wide;
    }
    assert!(widened, "some solve widened its table");
}

/// Nim behind a declaration of its own: every combination of what Nim can declare, so that
/// each runs the engine and tables it selects.
macro_rules! declaring {
    ($name:ident: $($declared:tt)*) => {
        struct $name(Nim);

        impl Game for $name {
            type State = u64;
            type Move = (u32, u32);
            fn start(&self) -> u64 {
                self.0.start()
            }
            fn moves(&self, state: &u64) -> impl Iterator<Item = (u32, u32)> {
                self.0.moves(state)
            }
            fn play(&self, state: &u64, mv: &(u32, u32)) -> Step<u64> {
                self.0.play(state, mv)
            }
            fn payoff(&self, state: &u64) -> Score {
                self.0.payoff(state)
            }
            fn capabilities(&self) -> impl Declares<Self> {
                Capabilities::none()$($declared)*
            }
        }

        impl ValueRange for $name {
            fn value_range(&self, state: &u64) -> (Score, Score) {
                self.0.value_range(state)
            }
        }

        impl DenseIndex for $name {
            fn index_len(&self) -> usize {
                self.0.index_len()
            }
            fn index(&self, state: &u64) -> usize {
                self.0.index(state)
            }
        }

        /// Nim's index is its position, and every move lowers it: the index orders the game.
        impl StateAt for $name {
            fn state_at(&self, index: usize) -> Option<u64> {
                (index < self.0.index_len()).then_some(index as u64)
            }
        }
    };
}

declaring!(Plain:);
declaring!(Ranged: .value_range());
declaring!(Dense: .dense_index());
declaring!(Outcomes: .outcome_game());
declaring!(RangedDense: .value_range().dense_index());
declaring!(DenseOutcomes: .dense_index().outcome_game());
declaring!(Everything: .value_range().dense_index().outcome_game());
declaring!(Cycling: .outcome_game().may_cycle());
declaring!(DenseCycling: .dense_index().outcome_game().may_cycle());
declaring!(Ordered: .ordered_index());
declaring!(OrderedOutcomes: .value_range().ordered_index().outcome_game());

/// `Solver` on `game` with every engine it can run and 1..=8 threads gives the exhaustive
/// engine's value, move values at the start, best moves, and a line of optimal moves; an
/// outcome game also its outcome, and (for a win or a loss) the exhaustive engine's remoteness.
fn agrees_with_the_exhaustive_engine<G>(game: &G, outcome_game: bool)
where
    G: Game<State = u64, Move = (u32, u32)> + Sync,
{
    let mut oracle = exhaustive::solve(game, HashTable::new(), exhaustive::Options::new()).unwrap();
    let start = game.start();
    let values = move_values_at(&mut oracle, &start);
    let remoteness = oracle.remoteness(&start).unwrap();
    let mut engines = vec![None, Some(Engine::Exhaustive), Some(Engine::Pruning)];
    if outcome_game {
        engines.push(Some(Engine::Retrograde));
    }
    if Solver::new(game).plan().unwrap().engine == Engine::Sweep {
        engines.push(Some(Engine::Sweep));
    }
    for threads in 1..=8 {
        for &engine in &engines {
            let solver = Solver::new(game).threads(threads);
            let solver = engine.map_or(solver, |engine| solver.engine(engine));
            let context = format!("{engine:?} on {threads} threads");
            let mut solved = solver.solve().unwrap();
            assert_eq!(solved.value(), oracle.value(), "{context}");
            assert_eq!(move_values_at(&mut solved, &start), values, "{context}");
            assert_eq!(
                solved.best_moves(&start).unwrap(),
                oracle.best_moves(&start).unwrap(),
                "{context}"
            );
            let line = solved.line().unwrap();
            let mut state = start;
            for ply in &line {
                assert_eq!(ply.state, state, "{context}");
                assert_eq!(ply.value, oracle.value_of(&state).unwrap(), "{context}");
                let next = game.play(&state, &ply.mv).next;
                assert_eq!(-oracle.value_of(&next).unwrap(), ply.value, "{context}");
                state = next;
            }
            let mut last = Vec::new();
            game.moves_into(&state, &mut last);
            assert!(last.is_empty(), "{context}: the line ends at a final state");
            if outcome_game {
                let outcome = if oracle.value() > 0 {
                    Outcome::Win
                } else {
                    Outcome::Loss
                };
                assert_eq!(solved.outcome(), Some(outcome), "{context}");
                if solved.engine() != Engine::Pruning {
                    assert_eq!(
                        solved.remoteness(&start).unwrap(),
                        Some(remoteness),
                        "{context}"
                    );
                }
            } else {
                assert_eq!(solved.outcome(), None, "{context}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    #[test]
    fn every_declaration_agrees_with_the_exhaustive_engine(
        heaps in prop::collection::vec(1i64..=5, 1..=3)
    ) {
        let nim = || Nim::new(heaps.clone()).unwrap();
        // Nim's closed form: the first player wins exactly when the heaps' XOR is not 0.
        let closed = if heaps.iter().fold(0, |x, h| x ^ h) != 0 { 1 } else { -1 };
        prop_assert_eq!(solved_value(&nim(), 1), closed);
        agrees_with_the_exhaustive_engine(&Plain(nim()), false);
        agrees_with_the_exhaustive_engine(&Ranged(nim()), false);
        agrees_with_the_exhaustive_engine(&Dense(nim()), false);
        agrees_with_the_exhaustive_engine(&Outcomes(nim()), true);
        agrees_with_the_exhaustive_engine(&RangedDense(nim()), false);
        agrees_with_the_exhaustive_engine(&DenseOutcomes(nim()), true);
        agrees_with_the_exhaustive_engine(&Everything(nim()), true);
        agrees_with_the_exhaustive_engine(&Cycling(nim()), true);
        agrees_with_the_exhaustive_engine(&DenseCycling(nim()), true);
        agrees_with_the_exhaustive_engine(&Ordered(nim()), false);
        agrees_with_the_exhaustive_engine(&OrderedOutcomes(nim()), true);
    }
}

#[test]
fn declarations_pick_their_engines() {
    let nim = || Nim::new(vec![2, 3]).unwrap();
    let cycling = Cycling(nim());
    assert_eq!(
        Solver::new(&cycling).solve().unwrap().engine(),
        Engine::Retrograde
    );
    // A small acyclic outcome game with a dense index: retrograde analysis by default (the
    // remoteness and the swift line); once the index passes `RETROGRADE_STATES` (and, with no
    // state bound, does not pay as an array), a sample of the game chooses between the
    // exhaustive and the pruning engine, and both give Nim's value.
    let everything = Everything(nim());
    assert_eq!(
        Solver::new(&everything).solve().unwrap().engine(),
        Engine::Retrograde
    );
    let large = Everything(Nim::new(vec![150, 150, 150]).unwrap());
    assert!(large.index_len() as u64 > gamesolver::engines::RETROGRADE_STATES);
    let plan = Solver::new(&large).plan().unwrap();
    assert!(
        matches!(plan.why, gamesolver::engines::Why::Sampled(_)),
        "{plan:?}"
    );
    assert!(matches!(plan.engine, Engine::Exhaustive | Engine::Pruning));
    // 150 ^ 150 ^ 150 = 150: the first player wins.
    assert_eq!(Solver::new(&large).solve().unwrap().value(), 1);
    // A game that may cycle must be an outcome game for retrograde analysis.
    struct Loop;
    impl Game for Loop {
        type State = u8;
        type Move = u8;
        fn start(&self) -> u8 {
            0
        }
        fn moves(&self, _: &u8) -> impl Iterator<Item = u8> {
            std::iter::once(1)
        }
        fn play(&self, at: &u8, by: &u8) -> Step<u8> {
            Step {
                next: (at + by) % 3,
                gain: 0,
                turn: gamesolver::Turn::Pass,
            }
        }
        fn payoff(&self, _: &u8) -> Score {
            0
        }
        fn capabilities(&self) -> impl Declares<Self> {
            Capabilities::none().may_cycle()
        }
    }
    let refused = Solver::new(&Loop).solve();
    assert!(
        matches!(&refused, Err(SolveError::Unsupported(message)) if message.contains("may cycle")),
        "{refused:?}"
    );
}

/// How [`Spoiled`] breaks Stone Game IV's batches or steps.
#[derive(Clone, Copy, Debug)]
enum Spoil {
    /// Batches that skip the ninth root: not the moves.
    BatchWithoutNine,
    /// Batches that clear the buffer first (the engine appends them to other moves).
    BatchClearing,
    /// Steps that skip the square 4: other steps than the moves.
    StepWithoutFour,
    /// Steps that go on after being told to stop.
    StepPastStop,
}

/// Stone Game IV with its batches or its steps spoiled (`spoil`), for the checker to find.
struct Spoiled {
    game: SquareTakeaway,
    spoil: Spoil,
}

impl Game for Spoiled {
    type State = u32;
    type Move = u32;
    fn start(&self) -> u32 {
        self.game.start()
    }
    fn moves(&self, left: &u32) -> impl Iterator<Item = u32> {
        self.game.moves(left)
    }
    fn moves_batch(&self, left: &u32, batch: usize, moves: &mut Vec<u32>) -> bool {
        match self.spoil {
            Spoil::BatchWithoutNine => {
                let more = self.game.moves_batch(left, batch, moves);
                moves.retain(|&root| root != 9);
                more
            }
            Spoil::BatchClearing => {
                moves.clear();
                self.game.moves_batch(left, batch, moves)
            }
            Spoil::StepWithoutFour | Spoil::StepPastStop => {
                self.game.moves_batch(left, batch, moves)
            }
        }
    }
    fn play(&self, left: &u32, root: &u32) -> Step<u32> {
        self.game.play(left, root)
    }
    fn payoff(&self, left: &u32) -> Score {
        self.game.payoff(left)
    }
    fn for_each_step(&self, left: &u32, mut each: impl FnMut(Step<u32>) -> bool) {
        let skip = match self.spoil {
            Spoil::StepWithoutFour => true,
            Spoil::StepPastStop => false,
            Spoil::BatchWithoutNine | Spoil::BatchClearing => {
                return self.game.for_each_step(left, each);
            }
        };
        let mut root = 1;
        while root * root <= *left {
            let go_on = each(self.game.play(left, &root));
            if !go_on && skip {
                return;
            }
            root += if skip && root == 1 { 2 } else { 1 };
        }
    }
}

#[test]
fn the_checker_accepts_stone_game_iv_batches_and_refuses_wrong_ones() {
    use gamesolver::check::{CheckOptions, Violation, check_dense};
    let game = SquareTakeaway { stones: 400 };
    let report = check_dense(&game, &CheckOptions::default());
    assert!(report.is_ok(), "{report}");
    for spoil in [Spoil::BatchWithoutNine, Spoil::BatchClearing] {
        let report = gamesolver::check::check(&Spoiled { game, spoil }, &CheckOptions::default());
        assert!(
            report
                .violations
                .iter()
                .any(|v| matches!(v, Violation::BatchesDisagree { .. })),
            "{report}"
        );
    }
}

#[test]
fn the_checker_refuses_steps_that_are_not_the_moves() {
    use gamesolver::check::{CheckOptions, Violation, check};
    for (spoil, what) in [
        (Spoil::StepWithoutFour, "gives other steps"),
        (Spoil::StepPastStop, "goes on after told to stop"),
    ] {
        let game = SquareTakeaway { stones: 60 };
        let report = check(&Spoiled { game, spoil }, &CheckOptions::default());
        assert!(
            report.violations.iter().any(
                |v| matches!(v, Violation::StepsDisagree { what: found, .. } if found.starts_with(what))
            ),
            "{report}"
        );
    }
    // Stone Game IV's own steps pass.
    let report = check(&SquareTakeaway { stones: 400 }, &CheckOptions::default());
    assert!(report.is_ok(), "{report}");
}

/// The tier solver through `Solver` (Dots and Boxes declares tiers and a dense index) and the
/// engines it can be asked for instead, on 1..=8 threads, against the exhaustive engine; and
/// a game with lazy moves (Stone Game IV) on every engine and thread count against its DP.
#[test]
fn tiers_and_lazy_moves_agree_on_every_thread_count() {
    for (rows, columns) in [(1, 1), (1, 2), (2, 2)] {
        let game = DotsAndBoxes::new(rows, columns).unwrap();
        let mut oracle = exhaustive::solve(
            &game,
            DenseTable::for_game(&game),
            exhaustive::Options::new(),
        )
        .unwrap();
        let start = game.start();
        let values = move_values_at(&mut oracle, &start);
        for threads in 1..=8 {
            for engine in [None, Some(Engine::Exhaustive), Some(Engine::Pruning)] {
                let solver = Solver::new(&game).threads(threads).keep_every_tier();
                let solver = engine.map_or(solver, |engine| solver.engine(engine));
                let mut solved = solver.solve().unwrap();
                let context = format!("{rows}x{columns}, {engine:?}, {threads} threads");
                assert_eq!(solved.value(), oracle.value(), "{context}");
                assert_eq!(move_values_at(&mut solved, &start), values, "{context}");
                assert_eq!(solved.line().unwrap(), oracle.line().unwrap(), "{context}");
            }
        }
    }
    for stones in [0, 1, 2, 7, 17, 200, 1000] {
        let game = SquareTakeaway { stones };
        let expected = game.by_hand();
        for threads in 1..=8 {
            for engine in [None, Some(Engine::Pruning), Some(Engine::Retrograde)] {
                let solver = Solver::new(&game).threads(threads);
                let solver = engine.map_or(solver, |engine| solver.engine(engine));
                let solved = solver.solve().unwrap();
                assert_eq!(
                    solved.value(),
                    expected,
                    "{stones} stones, {engine:?}, {threads} threads"
                );
            }
        }
    }
}

/// The sweep's counts are the work of the array DP: every state stored, each with moves
/// expanded once, and a hit for each child read until the first lost one (counted here over
/// the literal rules).
#[test]
fn the_sweep_counts_each_child_it_reads() {
    for stones in [0u32, 1, 2, 17, 250, 1000] {
        let game = SquareTakeaway { stones };
        let mut won = vec![false; stones as usize + 1];
        let mut read = 0;
        for left in 1..=stones as usize {
            let mut root = 1;
            while root * root <= left {
                read += 1;
                if !won[left - root * root] {
                    won[left] = true;
                    break;
                }
                root += 1;
            }
        }
        let solved = Solver::new(&game).engine(Engine::Sweep).solve().unwrap();
        let stats = solved.stats();
        assert_eq!(stats.stored, stones as usize + 1, "{stones} stones");
        assert_eq!((stats.expanded, stats.terminal), (u64::from(stones), 1));
        assert_eq!((stats.hits, stats.known), (read, 0), "{stones} stones");
    }
}

/// A countdown of `counters` (take 1 or 2; whoever takes the last wins) whose dense index spreads
/// its states `spread` indices apart, with or without a bound on its states.
struct Spread {
    counters: u32,
    spread: usize,
    bound: bool,
}

impl Game for Spread {
    type State = u32;
    type Move = u32;
    fn start(&self) -> u32 {
        self.counters
    }
    fn moves(&self, left: &u32) -> impl Iterator<Item = u32> {
        (1..=2).filter(move |take| take <= left)
    }
    fn play(&self, left: &u32, take: &u32) -> Step<u32> {
        Step {
            next: left - take,
            gain: 0,
            turn: gamesolver::Turn::Pass,
        }
    }
    fn payoff(&self, _: &u32) -> Score {
        -1
    }
    fn state_bound(&self) -> Option<u64> {
        self.bound.then_some(u64::from(self.counters) + 1)
    }
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().dense_index()
    }
}

impl DenseIndex for Spread {
    fn index_len(&self) -> usize {
        (self.counters as usize + 1) * self.spread
    }
    fn index(&self, left: &u32) -> usize {
        *left as usize * self.spread
    }
}

#[test]
fn a_dense_index_is_an_array_only_where_it_pays_and_the_answer_says_what_ran() {
    // Lost exactly when the counters left are a multiple of 3.
    let expected = |counters: u32| if counters.is_multiple_of(3) { -1 } else { 1 };
    let cases = [
        // A small index: always an array.
        (
            Spread {
                counters: 1000,
                spread: 1,
                bound: false,
            },
            true,
        ),
        // 2²⁴ slots for 257 states: a hash table, with or without the bound.
        (
            Spread {
                counters: 256,
                spread: 1 << 16,
                bound: false,
            },
            false,
        ),
        (
            Spread {
                counters: 256,
                spread: 1 << 16,
                bound: true,
            },
            false,
        ),
        // A large index of real states: an array only when the game says how many there are.
        (
            Spread {
                counters: 1 << 21,
                spread: 1,
                bound: false,
            },
            false,
        ),
        (
            Spread {
                counters: 1 << 21,
                spread: 1,
                bound: true,
            },
            true,
        ),
    ];
    for (game, dense) in cases {
        let solver = Solver::new(&game);
        let plan = solver.plan().unwrap();
        assert_eq!(
            (plan.engine, plan.dense),
            (Engine::Exhaustive, dense),
            "{} counters {} apart",
            game.counters,
            game.spread
        );
        let solved = solver.solve().unwrap();
        assert_eq!(solved.plan(), plan);
        assert_eq!(solved.value(), expected(game.counters));
    }
    // An array that does not fit the budget is not planned either.
    let game = Spread {
        counters: 1000,
        spread: 1,
        bound: false,
    };
    let tight = Solver::new(&game).memory_limit(4000).plan().unwrap();
    assert!(!tight.dense);
}

/// A declared compact key: `Solver` runs the pruning engine on a fixed table that grows with
/// the search (`pruning::growing`), one thread or two, and its values, line and statistics are
/// those of the pruning engine on a hash table of whole states; where the keys do not fit the
/// first table's words, the plan keeps the hash table.
#[test]
fn a_declared_compact_key_runs_the_growing_fixed_table() {
    use gamesolver::engines::pruning;
    use gamesolver::games::ConnectFour;
    use gamesolver::memo::HashBoundTable;

    for (width, height) in [(4, 4), (5, 4), (4, 5)] {
        let game = ConnectFour::new(width, height).unwrap();
        let expected = pruning::solve(
            &game,
            HashBoundTable::new(),
            pruning::Options::new().ranged(),
        )
        .unwrap()
        .value();
        for threads in [1, 2] {
            let solver = Solver::new(&game).threads(threads);
            let plan = solver.plan().unwrap();
            assert_eq!((plan.engine, plan.compact_key), (Engine::Pruning, true));
            let mut solved = solver.solve().unwrap();
            assert_eq!(solved.plan(), plan);
            assert_eq!(
                solved.value(),
                expected,
                "{width}x{height}, {threads} threads"
            );
            assert!(solved.stats().expanded > 0, "the stages' work is counted");
            // Every move of the line keeps its state's value, and the game ends.
            let line = solved.line().unwrap();
            let mut state = *solved.start();
            for ply in &line {
                assert_eq!(ply.value, solved.value_of(&state).unwrap());
                state = game.play(&state, &ply.mv).next;
            }
            assert!(
                game.known_value(&state).is_some() || {
                    let mut moves = Vec::new();
                    game.moves_into(&state, &mut moves);
                    moves.is_empty()
                }
            );
        }
    }
    // 10×8 needs 90-bit keys: no first table holds them, so the plan keeps the hash table.
    let wide = ConnectFour::wide(10, 8).unwrap();
    let plan = Solver::new(&wide).plan().unwrap();
    assert_eq!((plan.engine, plan.compact_key), (Engine::Pruning, false));
}
