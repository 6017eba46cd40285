//! Differential: Stone Game VIII's specialised O(n) solver against the engine on both of the
//! game's models (the literal one and the stepwise one), on stones the fuzzer chooses.
#![no_main]

use gamesolver::{engines::exhaustive, games::{solve_stone_game_viii, StoneGameVIII}};
use gamesolver::memo::HashTable;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    // Up to 200 stones of −2^15 to 2^15 − 1, or, after a 0xFF first byte, near ±2^50.
    let huge = bytes.first() == Some(&0xFF);
    let stones: Vec<i64> = bytes
        .chunks_exact(2)
        .take(200)
        .map(|pair| {
            let small = i64::from(i16::from_le_bytes([pair[0], pair[1]]));
            if huge { small << 35 } else { small }
        })
        .collect();
    let Ok(game) = StoneGameVIII::new(stones) else {
        return;
    };
    let fast = solve_stone_game_viii(&game);
    let (literal, stepwise) = (game.literal(), game.stepwise());
    let literal = exhaustive::solve(&literal, HashTable::new(), exhaustive::Options::new()).expect("the literal model solves");
    let stepwise = exhaustive::solve(&stepwise, HashTable::new(), exhaustive::Options::new()).expect("the stepwise model solves");
    assert_eq!(fast.value(), literal.value());
    assert_eq!(fast.value(), stepwise.value());
    // The line's gains, alternately added and subtracted, make the value.
    let total: i64 = fast
        .line()
        .iter()
        .enumerate()
        .map(|(number, take)| if number % 2 == 0 { take.gain } else { -take.gain })
        .sum();
    assert_eq!(total, fast.value());
});
