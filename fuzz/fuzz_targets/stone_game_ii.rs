//! Differential: Stone Game II's specialised O(n²) solver against the exhaustive engine, and
//! its line against the rules, on piles the fuzzer chooses.
#![no_main]

use gamesolver::{engines::exhaustive, games::{solve_stone_game_ii, StoneGameII}};
use gamesolver::memo::DenseTable;
use gamesolver::Limits;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    // Up to 60 piles of 1 to 2^16 stones (two bytes each); a 0xFF first byte asks for huge
    // piles, near where totals stop fitting 32 bits.
    let huge = bytes.first() == Some(&0xFF);
    let piles: Vec<i64> = bytes
        .chunks_exact(2)
        .take(60)
        .map(|pair| {
            let small = i64::from(u16::from_le_bytes([pair[0], pair[1]])) + 1;
            if huge { small << 20 } else { small }
        })
        .collect();
    let Ok(game) = StoneGameII::new(piles) else {
        return;
    };
    let fast = solve_stone_game_ii(&game, Limits::unlimited()).expect("within any budget");
    let engine = exhaustive::solve(&game, DenseTable::for_game(&game), exhaustive::Options::new()).expect("the engine solves it");
    assert_eq!(fast.value(), engine.value());
    // The line is legal and adds up to Alice's stones.
    let line = fast.line();
    let (mut next, mut m, mut alice) = (1usize, 1usize, 0i64);
    for (number, take) in line.iter().enumerate() {
        assert_eq!(take.first_pile, next);
        assert!(take.piles >= 1 && take.piles <= 2 * m);
        if number % 2 == 0 {
            alice += take.stones;
        }
        next += take.piles;
        m = m.max(take.piles);
    }
    assert_eq!(next, game.piles().len() + 1);
    assert_eq!(alice, fast.alice_stones());
});
