//! Domineering written as a newcomer writes it (tests/common/user_games.rs): `Solver` gives the
//! value of the literal rules on random boards however the game is declared; a dense index
//! whose slots are mostly boards no play reaches runs on a hash table, and the plan says so; a
//! declared symmetry stores fewer states, and the plan says that too.

mod common;

#[path = "common/user_games.rs"]
mod user_games;

use common::Rng;
use gamesolver::engines::Why;
use gamesolver::{Engine, Game, Solved, Solver};
use user_games::{Domineering, IndexedDomineering, SymmetricDomineering};

/// The value and the states stored by `Solver` on `threads` threads, after checking that the
/// answer's plan is the plan announced.
fn solve<G>(game: &G, threads: usize) -> (i64, usize)
where
    G: Game<State = u64> + Sync,
    G::Move: Send,
{
    solve_on(Solver::new(game).threads(threads))
}

/// The value and the states stored by `solver`'s solve, which must be what it planned.
fn solve_on<G>(solver: Solver<'_, G>) -> (i64, usize)
where
    G: Game<State = u64> + Sync,
    G::Move: Send,
{
    let plan = solver.plan().unwrap();
    let solved = solver.solve().unwrap();
    assert_eq!(solved.plan(), plan, "what ran is what was planned");
    (solved.value(), solved.stats().stored)
}

#[test]
fn every_declaration_gives_the_literal_rules_value_on_random_boards() {
    let mut rng = Rng(0x00d0_1e7e_5eed);
    let mut wins = 0;
    for _ in 0..60 {
        let rows = 1 + rng.below(4) as u32;
        let columns = 1 + rng.below(4) as u32;
        let mut game = Domineering::new(rows, columns);
        for cell in 0..rows * columns {
            if rng.below(4) == 0 {
                game.blocked |= 1 << cell;
            }
        }
        let expected = game.by_hand();
        wins += usize::from(expected == 1);
        for threads in [1, 2] {
            let context = format!(
                "{rows}x{columns} blocked {:#x}, {threads} threads",
                game.blocked
            );
            assert_eq!(solve(&game, threads).0, expected, "{context}");
            assert_eq!(
                solve(&IndexedDomineering(game), threads).0,
                expected,
                "{context}"
            );
            assert_eq!(
                solve(&SymmetricDomineering(game), threads).0,
                expected,
                "{context}"
            );
        }
    }
    assert!(
        (10..50).contains(&wins),
        "both outcomes are met: {wins} wins of 60"
    );
}

#[test]
fn a_sparse_dense_index_runs_on_a_hash_table_and_the_plan_says_so() {
    // 5×5: 2²⁶ slots (512 MiB of values), of which a few hundred thousand are met. With no
    // state bound to say otherwise, the index does not decide: the plan's sample sends the game
    // to the pruning engine, whose table is a hash table; asked for, the exhaustive engine keeps
    // its values in a hash table too.
    let game = IndexedDomineering(Domineering::new(5, 5));
    let plan = Solver::new(&game).plan().unwrap();
    assert_eq!((plan.engine, plan.dense), (Engine::Pruning, false));
    let asked = Solver::new(&game)
        .engine(Engine::Exhaustive)
        .plan()
        .unwrap();
    assert_eq!((asked.engine, asked.dense), (Engine::Exhaustive, false));
    // A small board's index is worth its array.
    let small = IndexedDomineering(Domineering::new(3, 4));
    assert!(Solver::new(&small).plan().unwrap().dense);
    let (value, stored) = solve(&small, 1);
    assert_eq!(
        (value, stored > 0),
        (Domineering::new(3, 4).by_hand(), true)
    );
}

#[test]
fn a_declared_symmetry_stores_fewer_states_for_the_same_value() {
    // The pruning engine, asked for: a board this small the plan's race solves on its own
    // hash table of whole states, before any symmetry is used.
    let game = Domineering::new(4, 5);
    let symmetric = SymmetricDomineering(game);
    let plan = Solver::new(&symmetric)
        .engine(Engine::Pruning)
        .plan()
        .unwrap();
    assert!(plan.symmetry, "{plan:?}");
    assert!(
        !Solver::new(&game)
            .engine(Engine::Pruning)
            .plan()
            .unwrap()
            .symmetry
    );
    let raced = Solver::new(&symmetric).plan().unwrap();
    assert!(
        matches!(raced.why, Why::Sampled(sample) if sample.solved_by.is_some()) && !raced.symmetry,
        "{raced:?}"
    );
    for threads in [1, 2] {
        let (value, plain) = solve_on(Solver::new(&game).threads(threads).engine(Engine::Pruning));
        let (cut, fewer) = solve_on(
            Solver::new(&symmetric)
                .threads(threads)
                .engine(Engine::Pruning),
        );
        assert_eq!(cut, value);
        assert!(
            fewer < plain,
            "{fewer} states with the symmetry, {plain} without"
        );
    }
}
