//! Unit tests of the search: cut-offs across dives and the explicit stack, move orders.

use super::*;
use crate::engines::kernel::{Limits, signed};
use crate::engines::{AnyValue, DeclaredRange};
use crate::games::{Nim, StoneGameII, StoneGameVIII};
use crate::memo::HashTable;
use std::collections::HashMap;

/// The value of `game`'s start by a search in `order` that gives its moves back past
/// `list_cap` bytes.
fn value_with_cap<G>(game: &G, order: usize, list_cap: usize) -> (Score, usize)
where
    G: Game,
    G::State: Eq + std::hash::Hash,
{
    value_with(game, order, list_cap, levels_for::<G>(), AnyValue)
}

/// The same, diving natively `levels` deep at most, cutting on `range`.
fn value_with<G, R>(
    game: &G,
    order: usize,
    list_cap: usize,
    levels: usize,
    range: R,
) -> (Score, usize)
where
    G: Game,
    G::State: Eq + std::hash::Hash,
    R: RangeSource<G>,
{
    let mut search = Search::with_range(order, range);
    search.list_cap = list_cap;
    search.levels.resize_with(levels, Vec::new);
    let mut table = HashTable::new();
    let value = search
        .value(
            game,
            &mut table,
            &game.start(),
            &mut Stats::default(),
            RunGuard::new(Limits::unlimited(), None),
        )
        .unwrap();
    (value, MemoTable::<G>::len(&table))
}

/// The value of `state` by the rules alone: a plain memoized recursion, unbounded.
fn oracle<G>(game: &G, state: G::State, memo: &mut HashMap<G::State, Score>) -> Score
where
    G: Game,
    G::State: Eq + std::hash::Hash,
{
    if let Some(&value) = memo.get(&state) {
        return value;
    }
    let mut moves = Vec::new();
    game.moves_into(&state, &mut moves);
    let value = if moves.is_empty() {
        game.payoff(&state)
    } else {
        let values = moves.iter().map(|mv| {
            let step = game.play(&state, mv);
            step.gain + signed(step.turn, oracle(game, step.next, memo))
        });
        values.max().unwrap()
    };
    memo.insert(state, value);
    value
}

/// Dives of every depth from 1 level to a few (the explicit stack taking over at each
/// level, and from each state on), with moves given back at every push (a cap of 0) or
/// never, in every order, change no value (the rules' oracle) and no stored state.
fn dives_hand_over_exactly<G>(game: &G)
where
    G: Game,
    G::State: Eq + std::hash::Hash,
{
    let value = oracle(game, game.start(), &mut HashMap::new());
    let expected = (value, value_with_cap(game, 0, LIST_BYTES).1);
    for order in 0..5 {
        for levels in [1, 2, 3, 7] {
            for list_cap in [0, LIST_BYTES] {
                assert_eq!(
                    value_with(game, order, list_cap, levels, AnyValue),
                    expected,
                    "order {order}, {levels} levels, list cap {list_cap}"
                );
            }
        }
    }
}

#[test]
fn dives_and_given_back_moves_hand_over_exactly() {
    dives_hand_over_exactly(&Nim::new(vec![3, 4, 5]).unwrap());
    // 300 moves at the start: wider than a level holds (LEVEL_BYTES), so its dive hands
    // over at once.
    dives_hand_over_exactly(&Nim::new(vec![2, 300]).unwrap());
    let piles = (1..=30).map(|i| i * 37 % 11 + 1).collect();
    dives_hand_over_exactly(&StoneGameII::new(piles).unwrap());
    let stones = (0..200).map(|i| (i * 7919 % 201) - 100).collect();
    dives_hand_over_exactly(&StoneGameVIII::new(stones).unwrap().stepwise());
}

/// Cut-offs at the declared range, in dives of every depth handing over to the explicit
/// stack, in every order: the value is the rules' (a cut leaves each half's loop by its
/// own path, and a frame that cut must not try its moves again when it is rescanned).
#[test]
fn cut_offs_hand_over_exactly() {
    for heaps in [vec![3, 4, 5], vec![2, 300], vec![1, 2, 3, 4], vec![5, 5]] {
        let game = Nim::new(heaps.clone()).unwrap();
        let value = oracle(&game, game.start(), &mut HashMap::new());
        let (_, all) = value_with_cap(&game, 0, LIST_BYTES);
        for order in 0..5 {
            for levels in [1, 2, 3, 7, MAX_LEVELS] {
                for list_cap in [0, LIST_BYTES] {
                    let (cut, stored) = value_with(&game, order, list_cap, levels, DeclaredRange);
                    let case = format!("{heaps:?}, order {order}, {levels} levels");
                    assert_eq!(cut, value, "{case}, list cap {list_cap}");
                    assert!(stored <= all, "{case}: {stored} stored, {all} without cuts");
                }
            }
        }
    }
}

#[test]
fn the_move_buffer_stays_near_its_cap() {
    // One heap of 3000, the smallest take first (order 1 reverses Nim's order): a line
    // 3000 states deep, each with up to 3000 moves (9·10⁶ moves if every open state kept
    // its list). Within 4 MiB only when they give them back.
    let game = Nim::new(vec![1, 3000]).unwrap();
    let solve = |list_cap| {
        let mut search = Search::new(1);
        search.list_cap = list_cap;
        search.value(
            &game,
            &mut HashTable::new(),
            &game.start(),
            &mut Stats::default(),
            RunGuard::new(Limits::with_memory_budget(4 << 20), None),
        )
    };
    assert_eq!(solve(64 << 10), Ok(1)); // 1 XOR 3000 is not 0: the first player wins.
    assert!(matches!(
        solve(usize::MAX),
        Err(SolveError::MemoryBudget { .. })
    ));
}

/// Nim whose moves come in batches of two, each followed by an empty batch: lazy moves.
struct Trickle(Nim);

impl Game for Trickle {
    type State = u64;
    type Move = (u32, u32);
    fn start(&self) -> u64 {
        self.0.start()
    }
    fn moves(&self, state: &u64) -> impl Iterator<Item = (u32, u32)> {
        self.0.moves(state)
    }
    fn moves_batch(&self, state: &u64, batch: usize, moves: &mut Vec<(u32, u32)>) -> bool {
        let mut all = Vec::new();
        self.0.moves_into(state, &mut all);
        if batch.is_multiple_of(2) {
            moves.extend(all.iter().skip(batch).take(2));
        }
        // Batch 2i holds moves 2i and 2i + 1; batch 2i + 1 is empty.
        (batch | 1) + 1 < all.len()
    }
    fn play(&self, state: &u64, mv: &(u32, u32)) -> Step<u64> {
        self.0.play(state, mv)
    }
    fn payoff(&self, state: &u64) -> Score {
        self.0.payoff(state)
    }
}

impl crate::ValueRange for Trickle {
    fn value_range(&self, state: &u64) -> (Score, Score) {
        self.0.value_range(state)
    }
}

/// Lazy moves handed over between dives and the explicit stack, given back and taken back
/// (the batches fetched again in the same groups), in every order, with and without cuts:
/// the rules' value, and a cut never stores more than the search without batches.
#[test]
fn batches_of_moves_hand_over_exactly() {
    for heaps in [
        vec![3, 4, 5],
        vec![2, 300],
        vec![1, 2, 3, 4],
        vec![5, 5],
        vec![1, 1],
    ] {
        let nim = Nim::new(heaps.clone()).unwrap();
        let game = Trickle(nim.clone());
        let value = oracle(&game, game.start(), &mut HashMap::new());
        let (_, all) = value_with_cap(&nim, 0, LIST_BYTES);
        for order in 0..5 {
            for levels in [1, 2, 3, 7, MAX_LEVELS] {
                for list_cap in [0, LIST_BYTES] {
                    let case = format!("{heaps:?}, order {order}, {levels} levels, cap {list_cap}");
                    let plain = value_with(&game, order, list_cap, levels, AnyValue);
                    assert_eq!(plain, (value, all), "{case}");
                    let (cut, stored) = value_with(&game, order, list_cap, levels, DeclaredRange);
                    assert_eq!(cut, value, "{case}");
                    assert!(stored <= all, "{case}: {stored} stored, {all} without cuts");
                }
            }
        }
    }
}
