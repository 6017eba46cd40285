//! A subset index (`Capabilities::subset_index`): the tier solver values it by blocks of the
//! index level by level on more than one thread, index by index on one. Every state's value
//! against the exhaustive engine, with holes in the index and without; a move that breaks the
//! declaration refused by name, and reported by the checker; Dots and Boxes by its subset index
//! against the same game solved by tiers.

mod common;
#[path = "common/subset_games.rs"]
mod subset_games;

use common::random_values;
use gamesolver::SolveError;
use gamesolver::{
    check::{CheckOptions, Violation, check_dense},
    engines::{exhaustive, tiers},
};

use gamesolver::games::DotsAndBoxes;
use gamesolver::memo::HashTable;
use gamesolver::{Limits, Score, engines::tiers::KeepTiers};
use subset_games::{ByTiers, Tokens};

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

#[test]
fn blocks_by_level_value_every_index_as_the_engine_does() {
    // 15 and 16 tokens: 8 and 16 blocks of 4096 indices, 4 and 5 levels. With holes, the
    // first one is in the last block of level 1, so that the levels before read unchecked.
    for seed in 0..6 {
        let count = 15 + seed as usize % 2;
        let holes = seed % 3 != 0;
        let game = Tokens {
            points: random_values(count, seed, -20, 20),
            holes,
            ..Tokens::default()
        };
        let mut engine =
            exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new()).unwrap();
        let masks = (0..1u32 << count).filter(|&mask| game.is_state(mask));
        let expected: Vec<(u32, Score)> = masks
            .map(|mask| (mask, engine.value_of(&mask).unwrap()))
            .collect();
        let mut moves = None;
        for threads in [1, 2, 3] {
            let solved = pool(threads)
                .install(|| tiers::par_solve(&game, tiers::Options::new().keep(KeepTiers::All)))
                .unwrap();
            let stats = solved.stats();
            assert!(stats.dense, "seed {seed}");
            assert_eq!(stats.states, expected.len() as u64, "seed {seed}");
            assert_eq!(stats.holes, (1u64 << count) - stats.states, "seed {seed}");
            assert_eq!(
                solved.value(),
                engine.value(),
                "seed {seed}, {threads} threads"
            );
            for &(mask, value) in &expected {
                let found = solved.value_of(&mask);
                assert_eq!(
                    found,
                    Some(value),
                    "seed {seed}, {threads} threads, {mask:b}"
                );
            }
            // The same moves looked at, whichever order valued them.
            assert_eq!(
                *moves.get_or_insert(stats.moves),
                stats.moves,
                "seed {seed}"
            );
        }
    }
}

#[test]
fn a_move_outside_the_state_s_bits_is_refused_and_reported() {
    for holes in [false, true] {
        let game = Tokens {
            points: random_values(14, 7, -20, 20),
            holes,
            raise: true,
            ..Tokens::default()
        };
        // On more threads, the blocks by level need the subsets: refused, naming the
        // declaration, whichever thread met it first.
        for threads in [2, 3] {
            let solved = pool(threads).install(|| tiers::par_solve(&game, tiers::Options::new()));
            match solved {
                Err(SolveError::InvalidGame(message)) => {
                    assert!(message.contains("not a subset"), "{message}");
                    assert!(message.contains("subset_index"), "{message}");
                }
                other => panic!("{threads} threads: {other:?}"),
            }
        }
        // The checker names the move.
        let report = check_dense(&game, &CheckOptions::default());
        let found = report.violations.iter().any(|violation| {
            matches!(violation, Violation::IndexNotSubset { index, next, .. }
                if next & !index == 1 && *next < *index)
        });
        assert!(found, "{report:?}");
    }
    // The same game without the fault has no violation.
    let game = Tokens {
        points: random_values(14, 7, -20, 20),
        holes: true,
        ..Tokens::default()
    };
    let report = check_dense(&game, &CheckOptions::default());
    assert!(report.is_ok(), "{report:?}");
}

#[test]
fn a_move_to_an_index_with_no_state_is_refused_on_every_thread_count() {
    for holes in [false, true] {
        // The last index of block 1 (level 1): the states that move there are in other blocks,
        // of later levels, which must read their slots checked. (With holes, one without token
        // 1, whose supersets with the last token are states.)
        let forget = if holes {
            1 << 12 | 0xffd
        } else {
            1 << 12 | 0xfff
        };
        let game = Tokens {
            points: random_values(14, 11, -20, 20),
            holes,
            forget: Some(forget),
            ..Tokens::default()
        };
        for threads in [1, 2, 3] {
            let solved = pool(threads).install(|| tiers::par_solve(&game, tiers::Options::new()));
            match solved {
                Err(SolveError::InvalidGame(message)) => {
                    assert!(message.contains("holds no value yet"), "{message}");
                    assert!(message.contains(&format!("index {forget},")), "{message}");
                }
                other => panic!("{threads} threads: {other:?}"),
            }
        }
    }
}

#[test]
fn dots_and_boxes_by_blocks_equals_dots_and_boxes_by_tiers() {
    // 2x3 (17 edges: 32 blocks, 6 levels) and 1x5 (16 edges).
    for (rows, columns) in [(2, 3), (1, 5)] {
        let game = DotsAndBoxes::new(rows, columns).unwrap();
        let by_tier_game = ByTiers(game.clone());
        for threads in [2, 4] {
            let all = |limits| {
                tiers::par_solve(
                    &game,
                    tiers::Options::new().limits(limits).keep(KeepTiers::All),
                )
            };
            let blocks = pool(threads).install(|| all(Limits::default())).unwrap();
            let by_tiers = pool(threads)
                .install(|| {
                    tiers::par_solve(&by_tier_game, tiers::Options::new().keep(KeepTiers::All))
                })
                .unwrap();
            assert!(blocks.stats().dense && by_tiers.stats().dense);
            assert_eq!(blocks.stats().moves, by_tiers.stats().moves);
            for drawn in 0..1u64 << game.edges() {
                assert_eq!(
                    blocks.value_of(&drawn),
                    by_tiers.value_of(&drawn),
                    "{rows}x{columns} {drawn:b}"
                );
            }
        }
    }
}
