//! The tier solver against the exhaustive engine and an independent oracle, for every thread
//! count; the checker's tier checks; memory refusals.

mod common;

use common::{dots_and_boxes_oracle, random_values};
use gamesolver::SolveError;
use gamesolver::{
    check::{CheckOptions, Violation, check_tiers},
    engines::{exhaustive, tiers},
};

use gamesolver::games::{ConnectFour, DotsAndBoxes};
use gamesolver::memo::{DenseTable, HashTable};
use gamesolver::{
    Capabilities, Declares, DenseIndex, Game, Limits, Score, Step, Tiered, Turn,
    engines::tiers::KeepTiers, game::StateAt,
};

/// A race along a track of cells with points: move 1 to 3 cells ahead, gain the points of the
/// cell landed on; landing on a cell that is a multiple of 5 gives another move. A "boost" flag
/// (set on odd cells reached by a 3-step) lets the next move go 4 ahead. The states of a tier
/// (a cell) are its two flags, one of which may never occur (a hole for the solver). Values
/// need two bytes when the points are large.
#[derive(Debug, Clone)]
struct Race {
    points: Vec<Score>,
    bound: Score,
    /// Fault injection for the checker: moves of 1 stay in their tier.
    flat: bool,
    /// Fault injection: rank of a boosted state collides with the plain one.
    collide: bool,
}

impl Race {
    fn new(points: Vec<Score>) -> Self {
        let bound = points.iter().map(|p| p.abs()).sum();
        Race {
            points,
            bound,
            flat: false,
            collide: false,
        }
    }
}

impl Game for Race {
    /// (cell, boosted)
    type State = (usize, bool);
    type Move = usize;
    fn start(&self) -> (usize, bool) {
        (0, false)
    }
    fn moves(&self, &(cell, boosted): &(usize, bool)) -> impl Iterator<Item = usize> {
        let longest = if boosted { 4 } else { 3 };
        (1..=longest).filter(move |step| cell + step < self.points.len())
    }
    fn play(&self, &(cell, _): &(usize, bool), step: &usize) -> Step<(usize, bool)> {
        let next = cell + step;
        let gain = self.points[next];
        let boosted = *step == 3 && !next.is_multiple_of(2);
        let turn = if next.is_multiple_of(5) {
            Turn::Keep
        } else {
            Turn::Pass
        };
        let landing = if self.flat && *step == 1 { cell } else { next };
        Step {
            next: (landing, boosted),
            gain,
            turn,
        }
    }
    fn payoff(&self, _: &(usize, bool)) -> Score {
        0
    }
}

impl Tiered for Race {
    fn tier_count(&self) -> usize {
        self.points.len()
    }
    fn tier(&self, &(cell, _): &(usize, bool)) -> usize {
        cell
    }
    fn tier_len(&self, _: usize) -> u64 {
        2
    }
    fn rank(&self, &(_, boosted): &(usize, bool)) -> u64 {
        u64::from(boosted && !self.collide)
    }
    fn unrank(&self, tier: usize, rank: u64) -> Option<(usize, bool)> {
        // Even cells are never boosted: rank 1 of an even cell is a hole.
        (rank == 0 || !tier.is_multiple_of(2)).then_some((tier, rank == 1))
    }
    fn tier_reach(&self) -> usize {
        4
    }
    fn value_bound(&self) -> Score {
        self.bound
    }
}

/// A tiered game with its dense index hidden: the tier solver lays its values out by rank.
#[derive(Debug, Clone)]
struct Ranked<G>(G);

impl<G: Tiered> Game for Ranked<G> {
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
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().tiers()
    }
}

impl<G: Tiered> Tiered for Ranked<G> {
    fn tier_count(&self) -> usize {
        self.0.tier_count()
    }
    fn tier(&self, state: &G::State) -> usize {
        self.0.tier(state)
    }
    fn tier_len(&self, tier: usize) -> u64 {
        self.0.tier_len(tier)
    }
    fn rank(&self, state: &G::State) -> u64 {
        self.0.rank(state)
    }
    fn unrank(&self, tier: usize, rank: u64) -> Option<G::State> {
        self.0.unrank(tier, rank)
    }
    fn unrank_next(&self, tier: usize, rank: u64, previous: &G::State) -> Option<G::State> {
        self.0.unrank_next(tier, rank, previous)
    }
    fn tier_reach(&self) -> usize {
        self.0.tier_reach()
    }
    fn value_bound(&self) -> Score {
        self.0.value_bound()
    }
    fn ranked_children(&self, state: &G::State, each: impl FnMut(Score, Turn, usize, u64)) {
        self.0.ranked_children(state, each);
    }
}

/// Steps along a line of `cells` cells, 1 or 2 ahead, gaining the cell's points (a cell that
/// is a multiple of 3 keeps the turn); tier and dense index are the cell. Fault injection: a
/// move back a cell (to an earlier tier), or an index past the end.
#[derive(Debug, Clone)]
struct Line {
    points: Vec<Score>,
    back: bool,
    short_index: bool,
}

impl Game for Line {
    type State = usize;
    type Move = usize;
    fn start(&self) -> usize {
        0
    }
    fn moves(&self, cell: &usize) -> impl Iterator<Item = usize> {
        (1..=2).filter(move |step| cell + step < self.points.len())
    }
    fn play(&self, cell: &usize, step: &usize) -> Step<usize> {
        let next = if self.back && *cell > 0 {
            cell - 1
        } else {
            cell + step
        };
        let turn = if next.is_multiple_of(3) {
            Turn::Keep
        } else {
            Turn::Pass
        };
        Step {
            next,
            gain: self.points[next],
            turn,
        }
    }
    fn payoff(&self, _: &usize) -> Score {
        0
    }
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().dense_index().tiers()
    }
}

impl DenseIndex for Line {
    fn index_len(&self) -> usize {
        self.points.len() - usize::from(self.short_index)
    }
    fn index(&self, cell: &usize) -> usize {
        *cell
    }
}

impl Tiered for Line {
    fn tier_count(&self) -> usize {
        self.points.len()
    }
    fn tier(&self, cell: &usize) -> usize {
        *cell
    }
    fn tier_len(&self, _: usize) -> u64 {
        1
    }
    fn rank(&self, _: &usize) -> u64 {
        0
    }
    fn unrank(&self, tier: usize, _: u64) -> Option<usize> {
        Some(tier)
    }
    fn tier_reach(&self) -> usize {
        2
    }
    fn value_bound(&self) -> Score {
        self.points.iter().map(|p| p.abs()).sum()
    }
}

/// [`Line`] with an ordered index: cell `c` at index `len − c` (every move leads to a smaller
/// index), index 0 a hole no state has (`state_at` gives none), so that the sweep by index
/// never has every slot below it valued.
#[derive(Debug, Clone)]
struct Ordered(Line);

impl Game for Ordered {
    type State = usize;
    type Move = usize;
    fn start(&self) -> usize {
        self.0.start()
    }
    fn moves(&self, cell: &usize) -> impl Iterator<Item = usize> {
        self.0.moves(cell)
    }
    fn play(&self, cell: &usize, step: &usize) -> Step<usize> {
        self.0.play(cell, step)
    }
    fn payoff(&self, cell: &usize) -> Score {
        self.0.payoff(cell)
    }
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().ordered_index().tiers()
    }
}

impl DenseIndex for Ordered {
    fn index_len(&self) -> usize {
        self.0.points.len() + 1
    }
    fn index(&self, cell: &usize) -> usize {
        self.0.points.len() - cell
    }
}

impl StateAt for Ordered {
    fn state_at(&self, index: usize) -> Option<usize> {
        (1..=self.0.points.len())
            .contains(&index)
            .then(|| self.0.points.len() - index)
    }
}

impl Tiered for Ordered {
    fn tier_count(&self) -> usize {
        self.0.tier_count()
    }
    fn tier(&self, cell: &usize) -> usize {
        self.0.tier(cell)
    }
    fn tier_len(&self, tier: usize) -> u64 {
        self.0.tier_len(tier)
    }
    fn rank(&self, cell: &usize) -> u64 {
        self.0.rank(cell)
    }
    fn unrank(&self, tier: usize, rank: u64) -> Option<usize> {
        self.0.unrank(tier, rank)
    }
    fn tier_reach(&self) -> usize {
        self.0.tier_reach()
    }
    fn value_bound(&self) -> Score {
        self.0.value_bound()
    }
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// `tiers::par_solve` on pools of 1 to 8 threads: `(threads, what it found)`.
fn on_every_thread_count<G>(
    game: &G,
) -> Vec<(usize, gamesolver::engines::tiers::TierSolution<'_, G>)>
where
    G: Tiered + Sync,
    G::State: Send,
{
    (1..=8)
        .map(|threads| {
            let solved = pool(threads).install(|| tiers::par_solve(game, tiers::Options::new()));
            (threads, solved.unwrap())
        })
        .collect()
}

#[test]
fn dots_and_boxes_equals_the_engine_and_the_literal_rules_for_threads_1_to_8() {
    for (rows, columns) in [(1, 1), (1, 2), (2, 1), (1, 3), (2, 2), (3, 1), (1, 4)] {
        let game = DotsAndBoxes::new(rows, columns).unwrap();
        let mut engine = exhaustive::solve(
            &game,
            DenseTable::for_game(&game),
            exhaustive::Options::new(),
        )
        .unwrap();
        let oracle = dots_and_boxes_oracle(rows as usize, columns as usize);
        assert_eq!(engine.value(), oracle, "{rows}x{columns}");
        let sequential = tiers::solve(&game, tiers::Options::new().keep(KeepTiers::All)).unwrap();
        assert_eq!(sequential.value(), oracle, "{rows}x{columns}");
        // Every state of every tier, against the engine.
        for drawn in 0..1u64 << game.edges() {
            assert_eq!(
                sequential.value_of(&drawn),
                Some(engine.value_of(&drawn).unwrap()),
                "{rows}x{columns}, {drawn:b}"
            );
        }
        for (threads, parallel) in on_every_thread_count(&game) {
            assert_eq!(
                parallel.value(),
                oracle,
                "{rows}x{columns}, {threads} threads"
            );
            assert_eq!(parallel.stats().states, sequential.stats().states);
            // One thread sweeps the index in order, more by blocks level by level: the same
            // moves.
            assert_eq!(parallel.stats().moves, sequential.stats().moves);
        }
    }
}

#[test]
fn dots_and_boxes_two_by_three_in_parallel_by_index_and_by_rank() {
    let game = DotsAndBoxes::new(2, 3).unwrap();
    let engine = exhaustive::solve(
        &game,
        DenseTable::for_game(&game),
        exhaustive::Options::new(),
    )
    .unwrap()
    .value();
    for threads in [1, 2, 3, 8] {
        let on = |limits| {
            pool(threads)
                .install(|| tiers::par_solve(&game, tiers::Options::new().limits(limits)))
                .unwrap()
        };
        // With room for a byte per board, the values are laid out by the board's edges.
        let dense = on(Limits::default());
        assert_eq!(dense.value(), engine, "{threads} threads");
        assert_eq!(dense.stats().states, 1 << 17);
        assert!(dense.stats().dense);
        assert_eq!(dense.stats().peak_bytes, 1 << 17);
        // Without, only two tiers of one byte each are held at once.
        let ranked = on(Limits::with_memory_budget(100_000));
        assert_eq!(ranked.value(), engine, "{threads} threads");
        assert_eq!(ranked.stats().states, 1 << 17);
        assert!(!ranked.stats().dense);
        assert_eq!(ranked.stats().peak_bytes, 24_310 + 24_310); // C(17, 8) + C(17, 9)
    }
}

#[test]
fn both_layouts_value_every_board_as_the_engine_does_on_every_thread_count() {
    for (rows, columns) in [(1, 1), (1, 2), (2, 1), (2, 2), (1, 5), (3, 2)] {
        let game = DotsAndBoxes::new(rows, columns).unwrap();
        let mut engine = exhaustive::solve(
            &game,
            DenseTable::for_game(&game),
            exhaustive::Options::new(),
        )
        .unwrap();
        let ranked_game = Ranked(game.clone());
        for threads in [1, 2, 5] {
            let all = |limits| {
                tiers::par_solve(
                    &game,
                    tiers::Options::new().limits(limits).keep(KeepTiers::All),
                )
            };
            let dense = pool(threads).install(|| all(Limits::default())).unwrap();
            let ranked = pool(threads)
                .install(|| {
                    tiers::par_solve(&ranked_game, tiers::Options::new().keep(KeepTiers::All))
                })
                .unwrap();
            assert!(dense.stats().dense && !ranked.stats().dense);
            assert_eq!(dense.stats().states, ranked.stats().states);
            assert_eq!(dense.stats().moves, ranked.stats().moves);
            for drawn in 0..1u64 << game.edges() {
                let expected = Some(engine.value_of(&drawn).unwrap());
                assert_eq!(
                    dense.value_of(&drawn),
                    expected,
                    "{rows}x{columns} {drawn:b}"
                );
                assert_eq!(
                    ranked.value_of(&drawn),
                    expected,
                    "{rows}x{columns} {drawn:b}"
                );
            }
            assert_eq!(dense.line().unwrap().len(), game.edges() as usize);
            let dense_moves = dense.line().unwrap().into_iter().map(|ply| ply.mv);
            let ranked_moves = ranked.line().unwrap().into_iter().map(|ply| ply.mv);
            assert!(dense_moves.eq(ranked_moves), "{rows}x{columns}");
        }
    }
}

#[test]
fn the_dense_layout_refuses_moves_to_states_not_valued_and_indices_past_the_end() {
    for seed in 0..20 {
        let points = random_values(3 + seed as usize % 20, seed, -50, 50);
        let game = Line {
            points: points.clone(),
            back: false,
            short_index: false,
        };
        let engine = exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new())
            .unwrap()
            .value();
        let dense = tiers::solve(&game, tiers::Options::new()).unwrap();
        assert!(dense.stats().dense);
        assert_eq!(dense.value(), engine, "{points:?}");
        let ranked = Ranked(game.clone());
        assert_eq!(
            tiers::solve(&ranked, tiers::Options::new())
                .unwrap()
                .value(),
            engine,
            "{points:?}"
        );
        for (back, short_index, says) in [
            (true, false, "holds no value yet"),
            (false, true, "not below index_len"),
        ] {
            let faulty = Line {
                back,
                short_index,
                ..game.clone()
            };
            for threads in [1, 2] {
                let solved = pool(threads).install(|| {
                    tiers::par_solve(&faulty, tiers::Options::new().keep(KeepTiers::All))
                });
                match solved {
                    Err(SolveError::InvalidGame(message)) => {
                        assert!(message.contains(says), "{message}")
                    }
                    other => panic!("{points:?}: {other:?}"),
                }
            }
        }
    }
}

#[test]
fn an_ordered_index_is_swept_with_its_holes_and_a_move_up_the_index_is_refused() {
    for seed in 0..20 {
        let points = random_values(3 + seed as usize % 20, seed, -50, 50);
        let line = Line {
            points: points.clone(),
            back: false,
            short_index: false,
        };
        let engine = exhaustive::solve(&line, HashTable::new(), exhaustive::Options::new())
            .unwrap()
            .value();
        let game = Ordered(line.clone());
        // One thread sweeps the index (its hole at 0 means every read is checked), more solve
        // by tiers: every cell's value is the engine's either way.
        let swept = tiers::solve(&game, tiers::Options::new().keep(KeepTiers::All)).unwrap();
        let by_tiers = pool(2)
            .install(|| tiers::par_solve(&game, tiers::Options::new().keep(KeepTiers::All)))
            .unwrap();
        assert_eq!(swept.value(), engine, "{points:?}");
        assert_eq!(by_tiers.value(), engine, "{points:?}");
        assert_eq!(
            (swept.stats().states, swept.stats().holes),
            (points.len() as u64, 1)
        );
        assert_eq!(swept.stats().moves, by_tiers.stats().moves);
        let mut exhaustive =
            exhaustive::solve(&line, HashTable::new(), exhaustive::Options::new()).unwrap();
        for cell in 0..points.len() {
            let value = exhaustive.value_of(&cell).unwrap();
            assert_eq!(swept.value_of(&cell), Some(value), "{points:?} {cell}");
        }
        // A move back a cell leads to a larger index: refused by the sweep, naming the
        // declaration, and by tiers.
        let faulty = Ordered(Line { back: true, ..line });
        match tiers::solve(&faulty, tiers::Options::new().keep(KeepTiers::All)) {
            Err(SolveError::InvalidGame(message)) => {
                assert!(message.contains("ordered index"), "{message}")
            }
            other => panic!("{points:?}: {other:?}"),
        }
        let solved = pool(2)
            .install(|| tiers::par_solve(&faulty, tiers::Options::new().keep(KeepTiers::All)));
        assert!(
            matches!(solved, Err(SolveError::InvalidGame(_))),
            "{solved:?}"
        );
    }
}

#[test]
fn a_user_game_with_holes_and_wide_values_equals_the_engine() {
    for seed in 0..40 {
        let length = 2 + seed as usize % 30;
        let points = random_values(length, seed, -300, 300);
        let game = Race::new(points.clone());
        let engine = exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new())
            .unwrap()
            .value();
        let tiers = tiers::solve(&game, tiers::Options::new().keep(KeepTiers::All)).unwrap();
        assert_eq!(tiers.value(), engine, "{points:?}");
        assert!(tiers.stats().value_bytes >= 2 || game.bound <= 127);
        // The line realises the value.
        let line = tiers.line().unwrap();
        let mut margin = 0;
        for ply in &line {
            let signed = if ply.player == gamesolver::Player::First {
                1
            } else {
                -1
            };
            margin += signed * ply.gain;
        }
        assert_eq!(margin, engine, "{points:?}");
        for (threads, parallel) in on_every_thread_count(&game) {
            assert_eq!(parallel.value(), engine, "{threads} threads");
            assert!(parallel.stats().holes > 0 || length < 3);
        }
        assert!(check_tiers(&game, &CheckOptions::default()).is_ok());
    }
}

#[test]
fn a_value_beyond_the_declared_bound_is_an_error() {
    let mut game = Race::new(vec![0, 200, 0]);
    game.bound = 5; // one byte, but the first move gains 200
    let error = tiers::solve(&game, tiers::Options::new()).unwrap_err();
    assert!(
        matches!(&error, SolveError::InvalidGame(message) if message.contains("value_bound")),
        "{error}"
    );
}

#[test]
fn the_checker_catches_a_move_that_stays_in_its_tier() {
    let mut game = Race::new(random_values(12, 3, -9, 9));
    game.flat = true;
    let report = check_tiers(&game, &CheckOptions::default());
    assert!(
        report
            .violations
            .iter()
            .any(|v| matches!(v, Violation::TierNotLater { tier, next, .. } if tier == next)),
        "{report:?}"
    );
    // The solver refuses it too, with an error rather than a wrong value.
    assert!(matches!(
        tiers::solve(&game, tiers::Options::new()),
        Err(SolveError::InvalidGame(_))
    ));
}

#[test]
fn the_checker_catches_rank_and_unrank_that_are_not_inverse() {
    let mut game = Race::new(random_values(12, 4, -9, 9));
    game.collide = true;
    let report = check_tiers(&game, &CheckOptions::default());
    assert!(
        report.violations.iter().any(|v| matches!(
            v,
            Violation::RankNotInverse {
                state: (_, true),
                ..
            }
        )),
        "{report:?}"
    );
    assert!(check_tiers(&DotsAndBoxes::new(2, 2).unwrap(), &CheckOptions::default()).is_ok());
}

#[test]
fn a_solve_over_the_budget_is_refused_at_once_naming_its_size() {
    let game = DotsAndBoxes::new(3, 4).unwrap();
    let started = std::time::Instant::now();
    let error = tiers::solve(
        &game,
        tiers::Options::new().limits(Limits::with_memory_budget(1 << 20)),
    )
    .unwrap_err();
    match error {
        SolveError::MemoryBudget { needed, what, .. } => {
            // C(31, 15) + C(31, 16): the two largest tiers, one byte per state.
            assert_eq!(needed, 2 * 300_540_195, "{what}");
            assert!(what.contains("tiers 15 to 16"), "{what}");
        }
        other => panic!("{other}"),
    }
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    // Keeping every tier needs a byte for each of the 2^31 states.
    let all = tiers::solve(
        &game,
        tiers::Options::new()
            .limits(Limits::with_memory_budget(1 << 20))
            .keep(KeepTiers::All),
    );
    assert!(matches!(all, Err(SolveError::MemoryBudget { needed, .. }) if needed == 1 << 31));
}

#[test]
fn dropped_tiers_answer_none_and_kept_ones_answer() {
    let game = DotsAndBoxes::new(2, 2).unwrap();
    // A budget below a byte per board (2^12): the ranked layout, which drops tiers.
    let needed = tiers::solve(
        &game,
        tiers::Options::new().limits(Limits::with_memory_budget(4000)),
    )
    .unwrap();
    assert!(!needed.stats().dense);
    assert_eq!(needed.value_of(&game.start()), Some(needed.value()));
    assert!(needed.line().is_none());
    assert_eq!(needed.value_of(&0b1111_1111_1111), None); // the last tier was dropped
    assert!(needed.move_values(&game.start()).is_some()); // tier 1 is kept
}

#[test]
fn connect_four_on_small_boards_equals_the_engine_for_threads_1_to_8() {
    for (width, height) in [(3, 3), (4, 3), (3, 4), (4, 4), (5, 3)] {
        let game = ConnectFour::new(width, height).unwrap();
        let engine = exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new())
            .unwrap()
            .value();
        let all = tiers::solve(&game, tiers::Options::new().keep(KeepTiers::All)).unwrap();
        assert_eq!(all.value(), engine, "{width}x{height}");
        // The line ends where the game does, and realises the value.
        let line = all.line().unwrap();
        assert_eq!(line[0].value, engine);
        for (threads, parallel) in on_every_thread_count(&game) {
            assert_eq!(
                parallel.value(),
                engine,
                "{width}x{height}, {threads} threads"
            );
        }
        let options = CheckOptions {
            max_states: 3_000,
            playouts: 50,
            ..CheckOptions::default()
        };
        let report = check_tiers(&game, &options);
        assert!(report.is_ok(), "{width}x{height}: {report:?}");
    }
    // From a position: the tiers from its own.
    let game = ConnectFour::new(4, 4).unwrap();
    let later = game.clone().starting_at(game.position("2332").unwrap());
    let engine = exhaustive::solve(&later, HashTable::new(), exhaustive::Options::new())
        .unwrap()
        .value();
    let tiers = tiers::solve(&later, tiers::Options::new()).unwrap();
    assert_eq!(tiers.value(), engine);
    assert_eq!(tiers.stats().tiers, 17 - 4);
}

#[test]
fn dots_and_boxes_ranks_each_child_as_rank_does_on_boards_up_to_sixty_edges() {
    use gamesolver::{Game, Tiered};
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for (rows, columns) in [(1, 1), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)] {
        let game = DotsAndBoxes::new(rows, columns).unwrap();
        let all = u64::MAX >> (64 - game.edges());
        let mut boards = vec![0, all & !1, all & !(1 << (game.edges() - 1))];
        for _ in 0..300 {
            let (a, b) = (random(), random());
            boards.extend([a & b & all, a & all, (a | b) & all]);
        }
        for drawn in boards {
            // The literal rules: each move played, its next state ranked from scratch.
            let mut moves = Vec::new();
            game.moves_into(&drawn, &mut moves);
            let expected: Vec<_> = moves
                .iter()
                .map(|mv| {
                    let step = game.play(&drawn, mv);
                    (
                        step.gain,
                        step.turn,
                        game.tier(&step.next),
                        game.rank(&step.next),
                    )
                })
                .collect();
            let mut children = Vec::new();
            game.ranked_children(&drawn, |gain, turn, tier, rank| {
                children.push((gain, turn, tier, rank))
            });
            assert_eq!(children, expected, "{rows}x{columns}, {drawn:#x}");
        }
    }
}

/// A tier solve writing its tiers to a file, cut at random places (as a kill mid-write leaves
/// it), resumes to the same values as a solve never stopped, on every rank of every tier; a
/// byte flipped in a complete tier is refused by name.
#[cfg(feature = "database")]
#[test]
fn a_saved_tier_solve_cut_short_resumes_to_the_same_values() {
    use gamesolver::engines::tiers::file::{Save, TierFile};
    let game = DotsAndBoxes::new(2, 3).unwrap();
    let options = tiers::Options::new().keep(KeepTiers::All);
    let whole = tiers::solve(&game, options).unwrap();
    let dir = std::env::temp_dir().join(format!("tiers-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("dots.tiers");
    let save = Save::new(&path, "dots-and-boxes 2 3").block_bytes(4096);
    tiers::par_solve_saved(&game, options, &save).unwrap();
    let full = std::fs::read(&path).unwrap();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..8 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let cut = 60 + (seed % (full.len() as u64 - 60)) as usize;
        std::fs::write(&path, &full[..cut]).unwrap();
        let held = TierFile::open(&path).unwrap().tiers_held();
        let resumed = tiers::par_solve_saved(&game, options, &save.clone().resumed()).unwrap();
        assert_eq!(resumed.stats().resumed, held);
        assert_eq!(resumed.value(), whole.value());
        for tier in 0..game.tier_count() {
            for rank in 0..game.tier_len(tier) {
                if let Some(state) = game.unrank(tier, rank) {
                    assert_eq!(
                        resumed.value_of(&state),
                        whole.value_of(&state),
                        "cut {cut}"
                    );
                }
            }
        }
    }
    let mut damaged = full.clone();
    damaged[full.len() * 2 / 3] ^= 0x08;
    std::fs::write(&path, &damaged).unwrap();
    let refused = tiers::par_solve_saved(&game, options, &save.clone().resumed()).unwrap_err();
    assert!(refused.to_string().contains("damaged"), "{refused}");
    std::fs::remove_dir_all(&dir).unwrap();
}
