//! A subset index (`Capabilities::subset_index`): the tier solver values it by blocks of the
//! index level by level on more than one thread, index by index on one. Every state's value
//! against the exhaustive engine, with holes in the index and without; a move that breaks the
//! declaration refused by name, and reported by the checker; Dots and Boxes by its subset index
//! against the same game solved by tiers.

mod common;

use common::random_values;
use gamesolver::check::{CheckOptions, Violation, check_dense};
use gamesolver::engines::{par_tier_solve_with, solve};
use gamesolver::games::DotsAndBoxes;
use gamesolver::memo::HashTable;
use gamesolver::{
    Capabilities, Declares, DenseIndex, Error, Game, KeepTiers, Limits, Score, StateAt, Step,
    Tiered, Turn,
};

/// Tokens in a row, each with points: a move takes one token, or a token and the one to its
/// right, and gains their points; taking a token whose points are a multiple of 3 keeps the
/// turn. The state and its index are the bitmask of the tokens left, so every move leads to a
/// proper subset. With `holes`, no state holds both token 1 and the last token (their masks
/// are holes in the index); the start lacks token 1. Fault injection: taking the last token
/// puts token 0 back (`raise`), to a smaller index that is not a subset; `state_at` gives no
/// state at a mask that moves reach (`forget`).
#[derive(Debug, Clone, Default)]
struct Tokens {
    points: Vec<Score>,
    holes: bool,
    raise: bool,
    forget: Option<u32>,
}

impl Tokens {
    fn count(&self) -> u32 {
        self.points.len() as u32
    }
    fn last(&self) -> u32 {
        1 << (self.count() - 1)
    }
    fn is_state(&self, mask: u32) -> bool {
        mask < 1 << self.count() && !(self.holes && mask & 2 != 0 && mask & self.last() != 0)
    }
}

impl Game for Tokens {
    type State = u32;
    /// The first token taken, and whether its right neighbour goes too.
    type Move = (u32, bool);
    fn start(&self) -> u32 {
        let all = (1 << self.count()) - 1;
        if self.holes { all & !2 } else { all }
    }
    fn moves(&self, &mask: &u32, moves: &mut Vec<(u32, bool)>) {
        for token in (0..self.count()).filter(|token| mask & 1 << token != 0) {
            moves.push((token, false));
            if mask & 2 << token != 0 {
                moves.push((token, true));
            }
        }
    }
    fn play(&self, &mask: &u32, &(token, pair): &(u32, bool)) -> Step<u32> {
        let taken = if pair { 3 << token } else { 1 << token };
        let mut next = mask & !taken;
        if self.raise && taken & self.last() != 0 {
            next |= 1;
        }
        let gain = (token..=token + u32::from(pair))
            .map(|token| self.points[token as usize])
            .sum();
        let turn = if self.points[token as usize] % 3 == 0 {
            Turn::Keep
        } else {
            Turn::Pass
        };
        Step { next, gain, turn }
    }
    fn payoff(&self, _: &u32) -> Score {
        0
    }
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().subset_index().tiers()
    }
}

impl DenseIndex for Tokens {
    fn index_len(&self) -> usize {
        1 << self.count()
    }
    fn index(&self, &mask: &u32) -> usize {
        mask as usize
    }
}

impl StateAt for Tokens {
    fn state_at(&self, index: usize) -> Option<u32> {
        let mask = u32::try_from(index).ok()?;
        (self.is_state(mask) && self.forget != Some(mask)).then_some(mask)
    }
}

/// Tier: tokens taken since the start (with holes, no state holds more tokens than the
/// start); rank: the mask (every mask of another count is a hole of the tier).
impl Tiered for Tokens {
    fn tier_count(&self) -> usize {
        self.start().count_ones() as usize + 1
    }
    fn tier(&self, mask: &u32) -> usize {
        (self.start().count_ones() - mask.count_ones()) as usize
    }
    fn tier_len(&self, _: usize) -> u64 {
        1 << self.count()
    }
    fn rank(&self, &mask: &u32) -> u64 {
        u64::from(mask)
    }
    fn unrank(&self, tier: usize, rank: u64) -> Option<u32> {
        let mask = u32::try_from(rank).ok()?;
        (self.is_state(mask) && self.tier(&mask) == tier).then_some(mask)
    }
    fn tier_reach(&self) -> usize {
        2
    }
    fn value_bound(&self) -> Score {
        self.points.iter().map(|points| points.abs()).sum()
    }
}

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
        let mut engine = solve(&game, HashTable::new()).unwrap();
        let masks = (0..1u32 << count).filter(|&mask| game.is_state(mask));
        let expected: Vec<(u32, Score)> = masks
            .map(|mask| (mask, engine.value_of(&mask).unwrap()))
            .collect();
        let mut moves = None;
        for threads in [1, 2, 3] {
            let solved = pool(threads)
                .install(|| par_tier_solve_with(&game, Limits::default(), KeepTiers::All))
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
            let solved = pool(threads)
                .install(|| par_tier_solve_with(&game, Limits::default(), KeepTiers::Needed));
            match solved {
                Err(Error::InvalidGame(message)) => {
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
            let solved = pool(threads)
                .install(|| par_tier_solve_with(&game, Limits::default(), KeepTiers::Needed));
            match solved {
                Err(Error::InvalidGame(message)) => {
                    assert!(message.contains("holds no value yet"), "{message}");
                    assert!(message.contains(&format!("index {forget},")), "{message}");
                }
                other => panic!("{threads} threads: {other:?}"),
            }
        }
    }
}

/// A game with its index declared dense only, not as a subset index: the tier solver values
/// its layout tier by tier.
#[derive(Debug, Clone)]
struct ByTiers(DotsAndBoxes);

impl Game for ByTiers {
    type State = u64;
    type Move = <DotsAndBoxes as Game>::Move;
    fn start(&self) -> u64 {
        self.0.start()
    }
    fn moves(&self, state: &u64, moves: &mut Vec<Self::Move>) {
        self.0.moves(state, moves);
    }
    fn play(&self, state: &u64, mv: &Self::Move) -> Step<u64> {
        self.0.play(state, mv)
    }
    fn payoff(&self, state: &u64) -> Score {
        self.0.payoff(state)
    }
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().dense_index().tiers()
    }
}

impl DenseIndex for ByTiers {
    fn index_len(&self) -> usize {
        self.0.index_len()
    }
    fn index(&self, state: &u64) -> usize {
        self.0.index(state)
    }
}

impl Tiered for ByTiers {
    fn tier_count(&self) -> usize {
        self.0.tier_count()
    }
    fn tier(&self, state: &u64) -> usize {
        self.0.tier(state)
    }
    fn tier_len(&self, tier: usize) -> u64 {
        self.0.tier_len(tier)
    }
    fn rank(&self, state: &u64) -> u64 {
        self.0.rank(state)
    }
    fn unrank(&self, tier: usize, rank: u64) -> Option<u64> {
        self.0.unrank(tier, rank)
    }
    fn unrank_next(&self, tier: usize, rank: u64, previous: &u64) -> Option<u64> {
        self.0.unrank_next(tier, rank, previous)
    }
    fn tier_reach(&self) -> usize {
        self.0.tier_reach()
    }
    fn value_bound(&self) -> Score {
        self.0.value_bound()
    }
}

#[test]
fn dots_and_boxes_by_blocks_equals_dots_and_boxes_by_tiers() {
    // 2x3 (17 edges: 32 blocks, 6 levels) and 1x5 (16 edges).
    for (rows, columns) in [(2, 3), (1, 5)] {
        let game = DotsAndBoxes::new(rows, columns).unwrap();
        let tiers = ByTiers(game.clone());
        for threads in [2, 4] {
            let all = |limits| par_tier_solve_with(&game, limits, KeepTiers::All);
            let blocks = pool(threads).install(|| all(Limits::default())).unwrap();
            let by_tiers = pool(threads)
                .install(|| par_tier_solve_with(&tiers, Limits::default(), KeepTiers::All))
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
