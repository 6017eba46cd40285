//! Impartial games: nimbers against oracles over the literal rules (a plain mex of whole
//! positions, never split), the known facts (Kayles' and Dawson's Kayles' periods, Grundy's
//! game's first values, even by even Cram boards), and the checker on games that break the
//! contract.

use std::collections::HashMap;

use gamesolver::check::{CheckOptions, check_impartial};
use gamesolver::engines::nimbers::{self, Nimbers, Options};
use gamesolver::game::{Impartial, Nimber};
use gamesolver::games::{Cram, DawsonsKayles, GrundysGame, Kayles, Nim};
use gamesolver::{Capabilities, Declares, Engine, Game, Score, Solved, Solver, Step, Turn};

/// The least number not in `seen`.
fn mex(mut seen: Vec<Nimber>) -> Nimber {
    seen.sort_unstable();
    seen.dedup();
    seen.iter()
        .enumerate()
        .find(|&(at, &nimber)| nimber != at as Nimber)
        .map_or(seen.len() as Nimber, |(at, _)| at as Nimber)
}

/// Cram over its literal rules: the empty cells of a `rows × columns` board as a set of
/// (row, column); a move fills two empty cells side by side; the whole board, never split.
fn cram_oracle(
    rows: usize,
    columns: usize,
    empty: u128,
    memo: &mut HashMap<u128, Nimber>,
) -> Nimber {
    if let Some(&nimber) = memo.get(&empty) {
        return nimber;
    }
    let is_empty = |row: usize, column: usize| empty >> (row * columns + column) & 1 == 1;
    let mut seen = Vec::new();
    for row in 0..rows {
        for column in 0..columns {
            if !is_empty(row, column) {
                continue;
            }
            let cell = 1u128 << (row * columns + column);
            if column + 1 < columns && is_empty(row, column + 1) {
                let next = empty & !cell & !(cell << 1);
                seen.push(cram_oracle(rows, columns, next, memo));
            }
            if row + 1 < rows && is_empty(row + 1, column) {
                let next = empty & !cell & !(cell << columns);
                seen.push(cram_oracle(rows, columns, next, memo));
            }
        }
    }
    let nimber = mex(seen);
    memo.insert(empty, nimber);
    nimber
}

/// A small deterministic generator (SplitMix64).
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[test]
fn cram_boards_and_random_positions_match_the_whole_board_mex() {
    let mut random = Random(57);
    for rows in 1..=4usize {
        for columns in 1..=5usize {
            let game = Cram::new(rows as i64, columns as i64).unwrap();
            let mut memo = HashMap::new();
            let oracle = cram_oracle(rows, columns, game.start(), &mut memo);
            let solved = Solver::new(&game).solve().unwrap();
            assert_eq!(solved.engine(), Engine::Nimbers);
            assert_eq!(solved.nimber(), Some(oracle), "{rows}x{columns}");
            assert_eq!(solved.value(), if oracle == 0 { -1 } else { 1 });
            // Positions with cells filled at random, and every move's nimber.
            for _ in 0..20 {
                let filled = (random.next() as u128) & (random.next() as u128);
                let game = Cram::new(rows as i64, columns as i64)
                    .unwrap()
                    .with_filled(filled & ((1u128 << (rows * columns)) - 1))
                    .unwrap();
                let start = game.start();
                let mut solved = nimbers::solve(&game, Options::new()).unwrap();
                assert_eq!(
                    solved.nimber(),
                    Some(cram_oracle(rows, columns, start, &mut memo))
                );
                for (domino, nimber) in solved.move_nimbers(&start).unwrap() {
                    let next = game.play(&start, &domino).next;
                    assert_eq!(nimber, cram_oracle(rows, columns, next, &mut memo));
                }
            }
        }
    }
}

/// The parallel search (each candidate asked of the root's options at once, on a shared
/// table) against the whole-board mex on 1 to 8 threads, and the questions asked after it on
/// the same engine; through `Solver` as well.
#[test]
fn the_parallel_search_matches_the_whole_board_mex() {
    let mut random = Random(58);
    for threads in 1..=8 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        for (rows, columns) in [(3usize, 6usize), (4, 5), (5, 4), (2, 9)] {
            let mut memo = HashMap::new();
            for round in 0..5 {
                let cells = rows * columns;
                let filled = match round {
                    0 => 0,
                    _ => {
                        (random.next() as u128) & (random.next() as u128) & (random.next() as u128)
                    }
                };
                let game = Cram::new(rows as i64, columns as i64)
                    .unwrap()
                    .with_filled(filled & ((1u128 << cells) - 1))
                    .unwrap();
                let start = game.start();
                let oracle = cram_oracle(rows, columns, start, &mut memo);
                let mut solved = pool
                    .install(|| nimbers::par_solve(&game, Options::new()))
                    .unwrap();
                let case = format!("{rows}x{columns} {filled:b}, {threads} threads");
                assert_eq!(solved.nimber(), Some(oracle), "{case}");
                for (domino, nimber) in solved.move_nimbers(&start).unwrap() {
                    let next = game.play(&start, &domino).next;
                    assert_eq!(
                        nimber,
                        cram_oracle(rows, columns, next, &mut memo),
                        "{case}"
                    );
                }
                let by_solver = Solver::new(&game).threads(threads).solve().unwrap();
                assert_eq!(by_solver.engine(), Engine::Nimbers);
                assert_eq!(by_solver.nimber(), Some(oracle), "{case}");
            }
        }
    }
}

#[test]
fn cram_5x5_from_random_positions_and_even_by_even_boards() {
    let mut random = Random(5);
    let mut memo = HashMap::new();
    for _ in 0..10 {
        let filled = (random.next() as u128) & (random.next() as u128) & ((1 << 25) - 1);
        let game = Cram::new(5, 5)
            .unwrap()
            .with_filled(filled | 0b10001)
            .unwrap();
        let solved = Solver::new(&game).solve().unwrap();
        assert_eq!(
            solved.nimber(),
            Some(cram_oracle(5, 5, game.start(), &mut memo))
        );
    }
    // The second player mirrors through the centre: every even by even board is 0.
    for (rows, columns) in [(2, 2), (2, 6), (4, 4), (4, 6), (2, 10)] {
        let game = Cram::new(rows, columns).unwrap();
        assert_eq!(Solver::new(&game).solve().unwrap().nimber(), Some(0));
    }
}

#[test]
fn the_pruned_searches_answer_every_nimber_asked_as_the_whole_board_mex() {
    // Half the cells filled at random leaves many small regions, tufts and stars (a cell with
    // several one-neighbour cells, which the split drops but one of); one engine per board
    // keeps its table and its refuted nimbers from position to position.
    let mut random = Random(2020);
    for (rows, columns) in [(3, 6), (4, 5), (5, 4), (4, 6), (2, 9)] {
        let mut memo = HashMap::new();
        let board = (1u128 << (rows * columns)) - 1;
        let game = Cram::new(rows as i64, columns as i64).unwrap();
        let mut kept = Nimbers::new(&game, Options::new());
        for round in 0..60 {
            let filled = match round % 3 {
                0 => random.next() as u128,
                1 => random.next() as u128 & random.next() as u128,
                _ => random.next() as u128 & random.next() as u128 & random.next() as u128,
            } & board;
            let empty = board & !filled;
            let oracle = cram_oracle(rows, columns, empty, &mut memo);
            let mut fresh = Nimbers::new(&game, Options::new());
            assert_eq!(
                fresh.nimber(&empty).unwrap(),
                oracle,
                "{rows}x{columns} {empty:b}"
            );
            for asked in [oracle + 2, oracle + 1, 0, oracle, 1] {
                let mut fresh = Nimbers::new(&game, Options::new());
                assert_eq!(fresh.equals(&empty, asked).unwrap(), asked == oracle);
                assert_eq!(kept.equals(&empty, asked).unwrap(), asked == oracle);
            }
            assert_eq!(kept.wins(&empty).unwrap(), oracle != 0);
            assert_eq!(kept.nimber(&empty).unwrap(), oracle);
        }
    }
}

#[test]
fn a_star_is_worth_one_domino_whatever_its_count_of_tufts() {
    // A centre with tufts on three or four sides: every move covers the centre, so the star is
    // one domino (nimber 1); beside a row of three (nimber 1) the sum is 0.
    let game = Cram::new(3, 7).unwrap();
    let star = |text: &str| {
        let mut empty = 0u128;
        for (at, cell) in text.chars().filter(|c| *c != '/').enumerate() {
            if cell == '.' {
                empty |= 1 << at;
            }
        }
        empty
    };
    let mut memo = HashMap::new();
    for text in [
        ".#.####/...####/.#.####",
        "##.####/#..####/##.####",
        ".#.#...",
        "##.##../#...##./##.####",
    ] {
        let mut empty = star(text);
        empty &= (1u128 << 21) - 1;
        let oracle = cram_oracle(3, 7, empty, &mut memo);
        let mut nimbers = Nimbers::new(&game, Options::new());
        assert_eq!(nimbers.nimber(&empty).unwrap(), oracle, "{text}");
    }
    let plus = star("#.#####/...####/#.#####");
    assert_eq!(cram_oracle(3, 7, plus, &mut memo), 1);
    assert_eq!(
        Nimbers::new(&game, Options::new()).nimber(&plus).unwrap(),
        1
    );
}

/// A row of Dawson's Kayles over its literal rules: pins as bits, a move knocks down two
/// standing pins side by side; the whole row, never split.
fn dawson_oracle(pins: u64, memo: &mut HashMap<u64, Nimber>) -> Nimber {
    if let Some(&nimber) = memo.get(&pins) {
        return nimber;
    }
    let pairs = pins & (pins >> 1);
    let seen = (0..63)
        .filter(|&at| pairs >> at & 1 == 1)
        .map(|at| dawson_oracle(pins & !(0b11 << at), memo))
        .collect();
    let nimber = mex(seen);
    memo.insert(pins, nimber);
    nimber
}

/// The nimbers of single rows or heaps `1..=up_to` by the engine.
fn single_nimbers<G: Impartial>(game: &G, up_to: u32, part: impl Fn(u32) -> G::State) -> Vec<Nimber>
where
    G::State: Eq + std::hash::Hash,
{
    let mut engine = Nimbers::new(game, Options::new());
    (0..=up_to)
        .map(|size| engine.nimber(&part(size)).unwrap())
        .collect()
}

#[test]
fn dawsons_kayles_matches_its_rules_and_is_periodic_with_period_34_after_52_pins() {
    let game = DawsonsKayles::new(&[1]).unwrap();
    let nimbers = single_nimbers(
        &game,
        300,
        |pins| if pins == 0 { vec![] } else { vec![pins] },
    );
    let mut memo = HashMap::new();
    for pins in 0..=22u32 {
        let row = (1u64 << pins) - 1;
        assert_eq!(
            nimbers[pins as usize],
            dawson_oracle(row, &mut memo),
            "{pins} pins"
        );
    }
    // Dawson's chess (A002187) is this game with one pin fewer: its last exception to the
    // period 34 is at 51, so here 52.
    for pins in 53..=300 - 34 {
        assert_eq!(nimbers[pins], nimbers[pins + 34], "{pins} pins");
    }
    assert_ne!(nimbers[52], nimbers[52 + 34]);
    // A row of Cram is a row of Dawson's Kayles.
    for pins in 1..=40 {
        let cram = Cram::new(1, pins).unwrap();
        assert_eq!(
            Solver::new(&cram).solve().unwrap().nimber(),
            Some(nimbers[pins as usize])
        );
    }
    // Several rows: the whole position through the Solver against the oracle on one row with
    // gaps.
    let game = DawsonsKayles::new(&[5, 7, 9]).unwrap();
    let row = 0b11111 | (0b1111111 << 6) | (0b111111111 << 14);
    assert_eq!(
        Solver::new(&game).solve().unwrap().nimber(),
        Some(dawson_oracle(row, &mut memo))
    );
}

/// Kayles' literal rules: knock down one pin or two side by side; the whole row.
fn kayles_oracle(pins: u64, memo: &mut HashMap<u64, Nimber>) -> Nimber {
    if let Some(&nimber) = memo.get(&pins) {
        return nimber;
    }
    let pairs = pins & (pins >> 1);
    let mut seen: Vec<Nimber> = (0..64)
        .filter(|&at| pins >> at & 1 == 1)
        .map(|at| kayles_oracle(pins & !(1 << at), memo))
        .collect();
    seen.extend(
        (0..63)
            .filter(|&at| pairs >> at & 1 == 1)
            .map(|at| kayles_oracle(pins & !(0b11 << at), memo)),
    );
    let nimber = mex(seen);
    memo.insert(pins, nimber);
    nimber
}

#[test]
fn kayles_matches_its_rules_and_is_periodic_with_period_12_from_71_pins() {
    let game = Kayles::new(&[64]).unwrap();
    let mut engine = Nimbers::new(&game, Options::new());
    let mut memo = HashMap::new();
    for pins in 0..=15u32 {
        let row = (1u64 << pins) - 1;
        assert_eq!(
            engine.nimber(&row).unwrap(),
            kayles_oracle(row, &mut memo),
            "{pins}"
        );
    }
    // Rows past 64 pins do not fit one Kayles position: the run lengths' nimbers by the
    // recurrence over the engine's own values is what a period needs; the engine gives them
    // to 64 and the recurrence (over its literal moves) carries on to 300.
    let mut nimbers: Vec<Nimber> = (0..=64u32)
        .map(|pins| {
            let row = if pins == 64 { !0 } else { (1u64 << pins) - 1 };
            engine.nimber(&row).unwrap()
        })
        .collect();
    for pins in 65..=300usize {
        let mut seen = Vec::new();
        for knocked in 1..=2 {
            for left in 0..=pins - knocked {
                seen.push(nimbers[left] ^ nimbers[pins - knocked - left]);
            }
        }
        nimbers.push(mex(seen));
    }
    for pins in 71..=300 - 12 {
        assert_eq!(nimbers[pins], nimbers[pins + 12], "{pins} pins");
    }
    assert_ne!(nimbers[70], nimbers[82]);
    // Rows 7, 9, 11 and 13 through the Solver: nimbers 2 ^ 4 ^ 6 ^ 1 = 1, a win, as the
    // exhaustive engine finds it.
    let game = Kayles::new(&[7, 9, 11, 13]).unwrap();
    let solved = Solver::new(&game).solve().unwrap();
    assert_eq!(
        solved.nimber(),
        Some(nimbers[7] ^ nimbers[9] ^ nimbers[11] ^ nimbers[13])
    );
    let exhaustive = Solver::new(&game)
        .engine(Engine::Exhaustive)
        .solve()
        .unwrap();
    assert_eq!(solved.value(), exhaustive.value());
    assert!(solved.stats().stored < exhaustive.stats().stored);
}

/// Grundy's game over its literal rules: a multiset of heaps, a move splits one heap into two
/// unequal heaps; the whole position, never split.
fn grundy_oracle(heaps: Vec<u32>, memo: &mut HashMap<Vec<u32>, Nimber>) -> Nimber {
    let mut key = heaps.clone();
    key.sort_unstable();
    if let Some(&nimber) = memo.get(&key) {
        return nimber;
    }
    let mut seen = Vec::new();
    for (at, &heap) in key.iter().enumerate() {
        for take in 1..heap.div_ceil(2) {
            let mut next = key.clone();
            next[at] = heap - take;
            next.push(take);
            seen.push(grundy_oracle(next, memo));
        }
    }
    let nimber = mex(seen);
    memo.insert(key, nimber);
    nimber
}

#[test]
fn grundys_game_matches_its_rules_and_a_plain_mex_to_1000() {
    let game = GrundysGame::new(&[1]).unwrap();
    let nimbers = single_nimbers(
        &game,
        1000,
        |heap| if heap == 0 { vec![] } else { vec![heap] },
    );
    // A002188's first values.
    assert_eq!(
        nimbers[..21],
        [
            0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0
        ]
    );
    let mut memo = HashMap::new();
    for heap in 1..=22 {
        assert_eq!(nimbers[heap as usize], grundy_oracle(vec![heap], &mut memo));
    }
    // The plain mex over splits, heap by heap, to 1000.
    let mut plain: Vec<Nimber> = vec![0];
    for heap in 1..=1000usize {
        plain.push(mex((1..heap.div_ceil(2))
            .map(|take| plain[take] ^ plain[heap - take])
            .collect()));
    }
    assert_eq!(nimbers, plain);
    // Several heaps through the Solver against the literal oracle.
    let game = GrundysGame::new(&[9, 7, 5]).unwrap();
    assert_eq!(
        Solver::new(&game).solve().unwrap().nimber(),
        Some(grundy_oracle(vec![9, 7, 5], &mut memo))
    );
}

#[test]
fn nim_is_worth_the_xor_of_its_heaps() {
    let mut random = Random(3);
    for _ in 0..50 {
        let heaps: Vec<i64> = (0..1 + random.next() % 4)
            .map(|_| (random.next() % 9) as i64)
            .collect();
        let game = Nim::new(heaps.clone()).unwrap();
        let solved = Solver::new(&game).solve().unwrap();
        let xor = heaps.iter().fold(0, |xor, &heap| xor ^ heap as Nimber);
        assert_eq!(solved.nimber(), Some(xor), "{heaps:?}");
        let retrograde = Solver::new(&game)
            .engine(Engine::Retrograde)
            .solve()
            .unwrap();
        assert_eq!(solved.value(), retrograde.value());
    }
    // Heaps too large to search are known by their size.
    let game = Nim::new(vec![1 << 20, 12345]).unwrap();
    assert_eq!(
        Solver::new(&game).solve().unwrap().nimber(),
        Some((1 << 20) ^ 12345)
    );
}

#[test]
fn lines_moves_and_remoteness_agree_with_retrograde_analysis() {
    for rows in [vec![3, 4], vec![2, 5, 1], vec![6]] {
        let game = Kayles::new(&rows).unwrap();
        let mut nimbers = Solver::new(&game).solve().unwrap();
        let mut retro = Solver::new(&game)
            .engine(Engine::Retrograde)
            .solve()
            .unwrap();
        let start = game.start();
        assert_eq!(
            nimbers.remoteness(&start).unwrap(),
            retro.remoteness(&start).unwrap()
        );
        assert_eq!(nimbers.line().unwrap().len(), retro.line().unwrap().len());
        assert_eq!(
            nimbers.best_moves(&start).unwrap(),
            retro.best_moves(&start).unwrap()
        );
    }
}

#[test]
fn the_checker_passes_the_bundled_games() {
    let options = CheckOptions::default();
    let report = check_impartial(&Cram::new(3, 4).unwrap(), &options);
    assert!(report.is_ok() && report.values_compared > 0, "{report}");
    let report = check_impartial(&DawsonsKayles::new(&[6, 9]).unwrap(), &options);
    assert!(report.is_ok() && report.values_compared > 0, "{report}");
    let report = check_impartial(&GrundysGame::new(&[12, 9]).unwrap(), &options);
    assert!(report.is_ok() && report.values_compared > 0, "{report}");
    let report = check_impartial(&Kayles::new(&[4, 5]).unwrap(), &options);
    assert!(report.is_ok() && report.values_compared > 0, "{report}");
    let report = check_impartial(&Nim::new(vec![3, 5, 6]).unwrap(), &options);
    assert!(report.is_ok() && report.values_compared > 0, "{report}");
}

/// Heaps; take 1 or 2 from one heap. `lie` breaks the contract in one of three ways.
struct Takeaway {
    heaps: Vec<u32>,
    lie: Lie,
}

#[derive(PartialEq)]
enum Lie {
    None,
    /// The split leaves out a heap that can still move.
    Split,
    /// Taking 2 from a heap of 2 keeps the turn.
    Turn,
    /// A heap of 3 is said to be worth 3 (it is 0).
    Known,
}

impl Game for Takeaway {
    type State = Vec<u32>;
    type Move = (usize, u32);
    fn start(&self) -> Vec<u32> {
        self.heaps.clone()
    }
    fn moves(&self, heaps: &Vec<u32>) -> impl Iterator<Item = (usize, u32)> {
        let heaps = heaps.clone();
        (0..heaps.len())
            .flat_map(move |heap| (1..=heaps[heap].min(2)).map(move |take| (heap, take)))
    }
    fn play(&self, heaps: &Vec<u32>, &(heap, take): &(usize, u32)) -> Step<Vec<u32>> {
        let mut next = heaps.clone();
        let keeps = self.lie == Lie::Turn && heaps[heap] == 2 && take == 2;
        next[heap] -= take;
        Step {
            next,
            gain: 0,
            turn: if keeps { Turn::Keep } else { Turn::Pass },
        }
    }
    fn payoff(&self, _: &Vec<u32>) -> Score {
        -1
    }
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().impartial()
    }
}

impl Impartial for Takeaway {
    fn split(&self, heaps: &Vec<u32>, parts: &mut Vec<Vec<u32>>) {
        let skip = usize::from(self.lie == Lie::Split && heaps.len() > 1);
        parts.extend(
            heaps
                .iter()
                .skip(skip)
                .filter(|&&heap| heap > 0)
                .map(|&heap| vec![heap]),
        );
    }
    fn known_nimber(&self, part: &Vec<u32>) -> Option<Nimber> {
        (self.lie == Lie::Known && part == &[3]).then_some(3)
    }
}

#[test]
fn the_checker_finds_a_wrong_split_a_kept_turn_and_a_wrong_known_nimber() {
    let options = CheckOptions::default();
    let honest = Takeaway {
        heaps: vec![4, 5],
        lie: Lie::None,
    };
    assert!(check_impartial(&honest, &options).is_ok());
    // The nimber of a heap of n is n mod 3.
    assert_eq!(Solver::new(&honest).solve().unwrap().nimber(), Some(1 ^ 2));
    for (lie, says) in [
        (Lie::Split, "parts"),
        (Lie::Turn, "keeps the turn"),
        (Lie::Known, "nimber engine"),
    ] {
        let game = Takeaway {
            heaps: vec![4, 5],
            lie,
        };
        let report = check_impartial(&game, &options);
        assert!(!report.is_ok());
        let text = report.to_string();
        assert!(text.contains(says), "{text}");
    }
}

#[test]
fn a_game_that_cycles_is_an_error_not_a_hang() {
    /// A heap that can be taken from or put back: play cycles.
    struct Loop;
    impl Game for Loop {
        type State = u32;
        type Move = bool;
        fn start(&self) -> u32 {
            2
        }
        fn moves(&self, &heap: &u32) -> impl Iterator<Item = bool> {
            [heap > 0, heap < 2]
                .into_iter()
                .zip([false, true])
                .filter(|&(legal, _)| legal)
                .map(|(_, up)| up)
        }
        fn play(&self, heap: &u32, &up: &bool) -> Step<u32> {
            Step {
                next: if up { heap + 1 } else { heap - 1 },
                gain: 0,
                turn: Turn::Pass,
            }
        }
        fn payoff(&self, _: &u32) -> Score {
            -1
        }
        fn capabilities(&self) -> impl Declares<Self> {
            Capabilities::none().impartial()
        }
    }
    impl Impartial for Loop {}
    let error = Solver::new(&Loop).solve().unwrap_err().to_string();
    assert!(error.contains("returns to a part"), "{error}");
}

/// A journal of parts' nimbers: a solve stopped by its time limit, or a file cut at random
/// bytes (a solve killed while writing), resumes to the nimber a fresh solve finds, searching
/// fewer parts; on one thread and on two; another game's file and an existing file without
/// `resume` are refused.
#[test]
fn a_journal_of_nimbers_resumes_a_stopped_solve() {
    use gamesolver::engines::nimbers::Journal;
    use gamesolver::{Limits, SolveError};
    use std::time::Duration;

    let dir = std::env::temp_dir().join(format!("gamesolver-journal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = Cram::new(4, 7).unwrap();
    let fresh = nimbers::solve(&game, Options::new()).unwrap();
    let (nimber, searched) = (fresh.nimber(), fresh.stats().expanded);
    assert_eq!(nimber, Some(3));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let mut random = Random(59);
    for threads in [1, 2] {
        let path = dir.join(format!("cram-{threads}.nimbers"));
        let journal = Journal::new(&path, "cram 4 7").every(Duration::ZERO);
        let solve = |journal: &Journal, options: Options| match threads {
            1 => nimbers::solve_saving(&game, options, journal),
            _ => pool.install(|| nimbers::par_solve_saving(&game, options, journal)),
        };
        // Stopped by its time limit: what it found is in the file.
        let short = Options::new().limits(Limits::default().time_limit(Duration::from_millis(2)));
        match solve(&journal, short) {
            Err(SolveError::TimeLimit { .. }) => {}
            other => panic!(
                "{threads} threads: {:?}",
                other.map(|solved| solved.nimber())
            ),
        }
        assert!(std::fs::metadata(&path).unwrap().len() > 100);
        assert!(matches!(
            solve(&journal, Options::new()),
            Err(SolveError::TierFile { .. })
        ));
        let resumed = solve(&journal.clone().resumed(), Options::new()).unwrap();
        assert_eq!(resumed.nimber(), nimber);
        // The whole file: the start's parts are read back, next to nothing is searched.
        let again = solve(&journal.clone().resumed(), Options::new()).unwrap();
        assert_eq!(again.nimber(), nimber);
        assert!(again.stats().expanded * 100 < searched, "{threads} threads");
        // Cut at random bytes, as a solve killed while it wrote: the whole blocks before the
        // cut are read back, the rest found again.
        let whole = std::fs::read(&path).unwrap();
        for _ in 0..4 {
            let cut = (random.next() % whole.len() as u64) as usize;
            std::fs::write(&path, &whole[..cut.max(40)]).unwrap();
            let resumed = solve(&journal.clone().resumed(), Options::new()).unwrap();
            assert_eq!(resumed.nimber(), nimber, "cut at {cut}");
        }
        // Followed by garbage (random bytes; a count of every entry a u32 holds; a count
        // of a block larger than any written): read up to the garbage, which is cut off.
        for tail in 0..6 {
            std::fs::write(&path, &whole).unwrap();
            let mut garbage: Vec<u8> = (0..300).map(|_| random.next() as u8).collect();
            match tail {
                0 => garbage[..4].copy_from_slice(&[0xff; 4]),
                1 => garbage[..4].copy_from_slice(&(1u32 << 21).to_le_bytes()),
                _ => {}
            }
            let mut damaged = whole.clone();
            damaged.extend_from_slice(&garbage);
            std::fs::write(&path, &damaged).unwrap();
            let again = solve(&journal.clone().resumed(), Options::new()).unwrap();
            assert_eq!(again.nimber(), nimber, "garbage {tail}");
            assert!(again.stats().expanded * 100 < searched, "garbage {tail}");
            assert_eq!(std::fs::read(&path).unwrap()[..whole.len()], whole[..]);
        }
        // A file larger than the memory budget can read back is refused before it is read.
        let tiny = Options::new().limits(Limits::with_memory_budget(1 << 10));
        assert!(matches!(
            solve(&journal.clone().resumed(), tiny),
            Err(SolveError::MemoryBudget { .. })
        ));
        let other = Journal::new(&path, "cram 4 9").resumed();
        let larger = Cram::new(4, 9).unwrap();
        let refused = nimbers::solve_saving(&larger, Options::new(), &other);
        assert!(
            matches!(&refused, Err(SolveError::TierFile { problem, .. }) if problem.contains("cram 4 7")),
            "{:?}",
            refused.err()
        );
        // Every move's nimber from a resumed engine agrees with the whole-board mex.
        let small = Cram::new(3, 5).unwrap();
        let path = dir.join(format!("cram-3x5-{threads}.nimbers"));
        let journal = Journal::new(&path, "cram 3 5");
        nimbers::solve_saving(&small, Options::new(), &journal).unwrap();
        let mut resumed =
            nimbers::solve_saving(&small, Options::new(), &journal.resumed()).unwrap();
        let mut memo = HashMap::new();
        let start = small.start();
        assert_eq!(resumed.nimber(), Some(cram_oracle(3, 5, start, &mut memo)));
        for (domino, nimber) in resumed.move_nimbers(&start).unwrap() {
            let next = small.play(&start, &domino).next;
            assert_eq!(nimber, cram_oracle(3, 5, next, &mut memo));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `gamesolver cram … --save FILE [--resume]`: the journal written, an existing one refused
/// without `--resume`, resumed to the same nimber with next to nothing searched, another
/// board's refused, and `--load` refused with what to do instead.
#[test]
fn the_command_line_saves_and_resumes_a_journal_of_nimbers() {
    let dir = std::env::temp_dir().join(format!("gamesolver-journal-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("cram.nimbers");
    let file = path.to_str().unwrap();
    let run = |arguments: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_gamesolver"))
            .args(arguments)
            .output()
            .unwrap()
    };
    let json = |output: &std::process::Output| -> serde_json::Value {
        assert!(output.status.success(), "{output:?}");
        serde_json::from_slice(&output.stdout).unwrap()
    };
    let first = json(&run(&[
        "cram",
        "4",
        "7",
        "--threads",
        "1",
        "--json",
        "--save",
        file,
    ]));
    assert_eq!(first["nimber"], 3);
    assert!(std::fs::metadata(&path).unwrap().len() > 1000);
    let exists = run(&["cram", "4", "7", "--save", file]);
    assert_eq!(exists.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&exists.stderr).contains("--resume"));
    let resumed = json(&run(&[
        "cram",
        "4",
        "7",
        "--threads",
        "2",
        "--json",
        "--save",
        file,
        "--resume",
    ]));
    assert_eq!(resumed["nimber"], 3);
    assert_eq!(resumed["line"], first["line"]);
    let other = run(&["cram", "4", "8", "--save", file, "--resume"]);
    assert_eq!(other.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&other.stderr).contains("\"cram 4 7\""));
    let load = run(&["cram", "4", "7", "--load", file]);
    assert_eq!(load.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&load.stderr).contains("--resume"));
    std::fs::remove_dir_all(&dir).unwrap();
}
