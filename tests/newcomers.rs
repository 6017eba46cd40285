//! The games of benches/newcomers (written from docs/adding-a-game.md alone) against their
//! oracles over the literal rules: `Solver` as a newcomer calls it, each engine asked for by
//! name, and the pruning engine with a bound table held to a few kilobytes (which forgets
//! entries and must still be exact). Also the plan's choice on them: what `Solver::plan` says
//! is what the solve runs, and the pruning engine for the games where it is the fastest by far.

#[path = "../benches/newcomers/mod.rs"]
mod newcomers;

use std::hash::Hash;

use gamesolver::engines::Why;
use gamesolver::engines::pruning;
use gamesolver::memo::HashBoundTable;
use gamesolver::{Engine, Game, Score, Solved, Solver};
use newcomers::{dots, hex, kalah, mnk, othello, slide, takeaway};

/// The value of `game` by `Solver` as a newcomer calls it, by each acyclic engine asked for,
/// and by the pruning engine on a table of 16 KiB: all `expected`. Returns the engine the
/// plan chose.
fn agrees<G>(what: &str, game: &G, expected: Score) -> Engine
where
    G: Game + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    let solver = Solver::new(game);
    let plan = solver.plan().unwrap();
    let solved = solver.solve().unwrap();
    assert_eq!(
        solved.value(),
        expected,
        "{what}: Solver::new(&game).solve()"
    );
    assert_eq!(solved.plan(), plan, "{what}: the plan is what ran");
    for engine in [Engine::Exhaustive, Engine::Pruning] {
        for threads in [1, 2] {
            let value = Solver::new(game)
                .engine(engine)
                .threads(threads)
                .solve()
                .unwrap()
                .value();
            assert_eq!(value, expected, "{what}: {engine:?} on {threads} threads");
        }
    }
    let small = HashBoundTable::limited(16 << 10);
    let tight = pruning::solve(game, small, pruning::Options::new()).unwrap();
    assert_eq!(
        tight.value(),
        expected,
        "{what}: the pruning engine on 16 KiB"
    );
    assert!(tight.table().bytes() <= 16 << 10);
    plan.engine
}

#[test]
fn kalah_agrees_with_plain_minimax_over_both_stores() {
    for (pits, seeds) in [(1, 1), (2, 1), (2, 2), (3, 1), (3, 2), (2, 3), (4, 1)] {
        for empty_capture in [false, true] {
            let game = kalah::Kalah {
                empty_capture,
                ..kalah::Kalah::new(pits, seeds)
            };
            let expected = kalah::by_hand(pits, seeds, empty_capture);
            agrees(
                &format!("kalah {pits} {seeds} {empty_capture}"),
                &game,
                expected,
            );
        }
    }
}

#[test]
fn othello_agrees_with_plain_minimax_on_a_grid() {
    for (rows, columns) in [(2, 4), (4, 2), (2, 6), (4, 4)] {
        if (rows, columns) == (4, 4) && cfg!(debug_assertions) {
            continue;
        }
        let game = othello::Othello::new(rows, columns);
        agrees(
            &format!("othello {rows}x{columns}"),
            &game,
            othello::by_hand(rows as usize, columns as usize),
        );
    }
}

#[test]
fn hex_agrees_with_plain_minimax_and_the_first_player_wins() {
    for n in 1..=3 {
        let expected = hex::by_hand(n as usize);
        // Strategy stealing: the first player wins on every board.
        assert_eq!(expected, 1, "hex {n}");
        agrees(&format!("hex {n}"), &hex::Hex::new(n), expected);
    }
}

#[test]
fn k_in_a_row_agrees_with_plain_minimax() {
    for (m, n, k) in [
        (3, 3, 3),
        (2, 2, 2),
        (3, 2, 2),
        (3, 3, 2),
        (4, 2, 3),
        (2, 4, 2),
    ] {
        let expected = mnk::by_hand(m as usize, n as usize, k as usize);
        agrees(
            &format!("mnk {m} {n} {k}"),
            &mnk::Mnk::new(m, n, k),
            expected,
        );
    }
    // Tic-tac-toe is a draw.
    assert_eq!(mnk::by_hand(3, 3, 3), 0);
}

#[test]
fn dots_and_boxes_agrees_with_a_search_over_lines_between_dots() {
    for (rows, columns) in [(1, 1), (1, 2), (2, 1), (1, 3), (2, 2)] {
        let expected = dots::by_hand(rows as usize, columns as usize);
        agrees(
            &format!("dots {rows}x{columns}"),
            &dots::Dots::new(rows, columns),
            expected,
        );
    }
}

#[test]
fn take_away_agrees_with_its_closed_form() {
    let mut seed = 0x7A4Eu64;
    let mut counters: Vec<u32> = (0..40).collect();
    for _ in 0..10 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        counters.push((seed >> 40) as u32 % 5000);
    }
    for counters in counters {
        let game = takeaway::TakeAway { counters };
        let solved = Solver::new(&game).solve().unwrap();
        assert_eq!(solved.value(), takeaway::by_hand(counters), "{counters}");
    }
}

#[test]
fn a_deep_outcome_game_whose_index_fits_goes_to_retrograde_analysis() {
    // Past 2^20 slots the index is no small outcome game's, but the playouts run far past
    // 4096 plies: retrograde analysis values each state once, with no search that deep.
    for counters in [1_100_000, 1_100_001] {
        let game = takeaway::TakeAway { counters };
        let plan = Solver::new(&game).plan().unwrap();
        assert_eq!(plan.engine, Engine::Retrograde, "{plan:?}");
        assert!(
            plan.reason().contains("deep outcome game"),
            "{}",
            plan.reason()
        );
        let solved = Solver::new(&game).solve().unwrap();
        assert_eq!(solved.engine(), Engine::Retrograde);
        assert_eq!(solved.value(), takeaway::by_hand(counters), "{counters}");
    }
}

#[test]
fn the_sliding_game_that_cycles_agrees_with_sweeps_to_a_fixed_point() {
    let game = slide::Slide::new(3);
    let solved = Solver::new(&game).solve().unwrap();
    assert_eq!(solved.engine(), Engine::Retrograde);
    assert_eq!(solved.value(), slide::by_hand(3));
}

#[test]
fn the_plan_sends_the_games_alpha_beta_wins_by_far_to_the_pruning_engine() {
    // The rows of the issue: Kalah 6x3 and Domineering as a newcomer declares them (a dense
    // index of every board, which does not pay) go to the pruning engine, as its sample says.
    let kalah = kalah::Kalah::new(6, 3);
    let plan = Solver::new(&kalah).plan().unwrap();
    assert_eq!(plan.engine, Engine::Pruning, "{plan:?}");
    assert!(matches!(plan.why, Why::Sampled(_)));
    assert!(
        plan.reason().contains("random playouts"),
        "{}",
        plan.reason()
    );
    let domineering =
        newcomers::user_games::IndexedDomineering(newcomers::user_games::Domineering::new(6, 6));
    assert_eq!(
        Solver::new(&domineering).plan().unwrap().engine,
        Engine::Pruning
    );
    for (m, n, k) in [(4, 4, 4), (4, 3, 3)] {
        let game = mnk::Mnk::new(m, n, k);
        assert_eq!(
            Solver::new(&game).plan().unwrap().engine,
            Engine::Pruning,
            "mnk {m} {n} {k}"
        );
    }
    // Can I Win, whose every state the pruning engine must visit too, stays exhaustive.
    let can_i_win = newcomers::user_games::CanIWin {
        numbers: 20,
        target: 200,
    };
    assert_eq!(
        Solver::new(&can_i_win).plan().unwrap().engine,
        Engine::Exhaustive
    );
    // A plan is the same every time it is asked.
    assert_eq!(
        Solver::new(&kalah).plan().unwrap(),
        Solver::new(&kalah).plan().unwrap()
    );
}

#[test]
fn a_small_game_is_raced_on_one_or_two_threads_alike_and_the_winners_answer_kept() {
    // Kalah 4x3: the pruning engine finishes with far fewer states; Can I Win 15/100: the
    // exhaustive engine, whose states cost less. The race depends on counts alone: the plan
    // is the same whether the engines ran side by side or one after the other.
    let kalah = kalah::Kalah::new(4, 3);
    let can_i_win = newcomers::user_games::CanIWin {
        numbers: 15,
        target: 100,
    };
    fn raced<G>(game: &G, winner: Engine)
    where
        G: Game + Sync,
        G::State: Eq + Hash + Send + Sync,
        G::Move: Send,
    {
        let plans: Vec<_> = [1, 2]
            .map(|threads| Solver::new(game).threads(threads).plan().unwrap())
            .into();
        assert_eq!(plans[0], plans[1], "the race's outcome depends on threads");
        let plan = plans[0];
        let Why::Sampled(sample) = plan.why else {
            panic!("{plan:?}")
        };
        let (engine, work) = sample
            .solved_by
            .expect("a small game is solved by the race");
        assert_eq!((engine, plan.engine, plan.threads), (winner, winner, 1));
        assert!(plan.reason().contains("a small game"), "{}", plan.reason());
        for threads in [1, 2] {
            let mut solved = Solver::new(game).threads(threads).solve().unwrap();
            assert_eq!(solved.plan(), plan);
            // The answer is the race's: its work (states expanded and table hits) is in the
            // statistics.
            let stats = solved.stats();
            assert!(stats.expanded + stats.hits >= work, "{stats:?}");
            let asked = Solver::new(game)
                .engine(Engine::Exhaustive)
                .solve()
                .unwrap();
            assert_eq!(solved.value(), asked.value());
            assert!(!solved.line().unwrap().is_empty());
        }
    }
    raced(&kalah, Engine::Pruning);
    raced(&can_i_win, Engine::Exhaustive);
}
