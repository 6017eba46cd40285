//! Connect Four against a brute force over the literal rules on small boards, John Tromp's
//! published results, and samples of Pascal Pons' benchmark sets (tests/data/connect4, or the full sets
//! in `GAMESOLVER_CONNECT4_DIR`).

use gamesolver::InputError;
use gamesolver::engines::pruning;
mod common;

use std::collections::HashMap;

use common::{connect4_set, random_values};
use gamesolver::engines::exhaustive;
use gamesolver::games::{Bitboard, ConnectFour, Position};
use gamesolver::memo::{
    AtomicBoundTable, BoundTable, Canonical, FixedBoundTable, HashBoundTable, HashTable,
};
use gamesolver::{
    Game, Score,
    engines::{DeclaredRange, pruning::Pruner},
};

/// The literal rules on a grid: drop into a column, look for four through the new stone.
struct Grid {
    width: usize,
    height: usize,
    cells: Vec<u8>, // column-major, 0 empty, 1 first player, 2 second
    heights: Vec<usize>,
    stones: usize,
}

impl Grid {
    fn new(width: usize, height: usize) -> Self {
        Grid {
            width,
            height,
            cells: vec![0; width * height],
            heights: vec![0; width],
            stones: 0,
        }
    }

    fn at(&self, column: i64, row: i64) -> u8 {
        let inside =
            (0..self.width as i64).contains(&column) && (0..self.height as i64).contains(&row);
        if inside {
            self.cells[column as usize * self.height + row as usize]
        } else {
            0
        }
    }

    /// Whether the stone at (column, row) is in a line of four.
    fn four_through(&self, column: usize, row: usize) -> bool {
        let (c, r) = (column as i64, row as i64);
        let me = self.at(c, r);
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
            let run = |sign: i64| {
                (1..4)
                    .take_while(|k| self.at(c + sign * k * dc, r + sign * k * dr) == me)
                    .count()
            };
            1 + run(1) + run(-1) >= 4
        })
    }

    /// Drops a stone; whether it makes four.
    fn drop_in(&mut self, column: usize) -> bool {
        let row = self.heights[column];
        self.cells[column * self.height + row] = 1 + (self.stones % 2) as u8;
        self.heights[column] += 1;
        self.stones += 1;
        self.four_through(column, row)
    }

    fn undo(&mut self, column: usize) {
        self.heights[column] -= 1;
        self.cells[column * self.height + self.heights[column]] = 0;
        self.stones -= 1;
    }

    /// Pons' score for the side to move, by trying every move (memoized on the cells).
    fn score(&mut self, memo: &mut HashMap<Vec<u8>, Score>) -> Score {
        if let Some(&known) = memo.get(&self.cells) {
            return known;
        }
        let cells = (self.width * self.height) as Score;
        let mut best = None;
        for column in 0..self.width {
            if self.heights[column] == self.height {
                continue;
            }
            let before = self.stones as Score;
            let value = if self.drop_in(column) {
                (cells + 1 - before) / 2
            } else {
                -self.score(memo)
            };
            self.undo(column);
            best = Some(best.map_or(value, |b: Score| b.max(value)));
        }
        let value = best.unwrap_or(0);
        memo.insert(self.cells.clone(), value);
        value
    }
}

/// A random line of `length` moves on the board that wins for nobody (as in the benchmark
/// files), as column digits; `None` if the draw hit a win.
fn random_line(width: usize, height: usize, length: usize, seed: u64) -> Option<String> {
    let mut grid = Grid::new(width, height);
    let mut line = String::new();
    for (k, draw) in random_values(length * 4, seed, 0, 1 << 20)
        .into_iter()
        .enumerate()
    {
        if line.len() == length {
            break;
        }
        let column = draw as usize % width;
        if grid.heights[column] == height {
            continue;
        }
        if grid.drop_in(column) {
            return None;
        }
        line.push(char::from_digit(column as u32 + 1, 36).unwrap());
        let _ = k;
    }
    (line.len() == length).then_some(line)
}

fn pruner_values<B: Bitboard, T: BoundTable<ConnectFour<B>>>(
    game: &ConnectFour<B>,
    table: T,
    position: &Position<B>,
) -> (Score, Vec<(u8, Score)>) {
    let mut pruner: Pruner<'_, ConnectFour<B>, T, DeclaredRange> =
        Pruner::new(game, table, pruning::Options::new().ranged()).unwrap();
    let value = pruner.value_of(position).unwrap();
    let moves = pruner.analyze(position).unwrap();
    (
        value,
        moves.iter().map(|m| (m.mv.column, m.value)).collect(),
    )
}

#[test]
fn small_boards_match_the_brute_force_of_the_literal_rules() {
    let mut checked = 0;
    for (width, height, empty) in [
        (4, 4, 11),
        (5, 4, 11),
        (4, 5, 11),
        (3, 5, 12),
        (6, 3, 11),
        (7, 2, 12),
        (2, 7, 12),
        (5, 5, 11),
    ] {
        let game = ConnectFour::new(width, height).unwrap();
        for seed in 0..12 {
            let Some(line) = random_line(
                width,
                height,
                width * height - empty,
                seed * 7919 + width as u64,
            ) else {
                continue;
            };
            let mut grid = Grid::new(width, height);
            for symbol in line.chars() {
                grid.drop_in(symbol.to_digit(36).unwrap() as usize - 1);
            }
            let mut memo = HashMap::new();
            let expected = grid.score(&mut memo);
            let mut expected_moves = Vec::new();
            for column in 0..width {
                if grid.heights[column] < height {
                    let before = grid.stones as Score;
                    let value = if grid.drop_in(column) {
                        ((width * height) as Score + 1 - before) / 2
                    } else {
                        -grid.score(&mut memo)
                    };
                    grid.undo(column);
                    expected_moves.push((column as u8, value));
                }
            }
            let position = game.position(&line).unwrap();
            let check = |(value, mut moves): (Score, Vec<(u8, Score)>)| {
                moves.sort();
                assert_eq!(
                    (value, moves),
                    (expected, expected_moves.clone()),
                    "{width}x{height} {line}"
                );
            };
            check(pruner_values(&game, HashBoundTable::new(), &position));
            check(pruner_values(
                &game,
                FixedBoundTable::for_game(&game, 128).unwrap(),
                &position,
            ));
            check(pruner_values(
                &game,
                Canonical(FixedBoundTable::for_game(&game, 1 << 16).unwrap()),
                &position,
            ));
            check(pruner_values(
                &game,
                &AtomicBoundTable::for_game(&game, 1 << 12).unwrap(),
                &position,
            ));
            // The exhaustive engine, from the same position.
            let from_here = game.clone().starting_at(position);
            assert_eq!(
                exhaustive::solve(&from_here, HashTable::new(), exhaustive::Options::new())
                    .unwrap()
                    .value(),
                expected
            );
            checked += 1;
        }
    }
    assert!(checked >= 60, "only {checked} positions checked");
}

/// A random line of `length` moves on the board in which no move makes four (each move drawn
/// among the columns where it does not), as column digits from 1; `None` if every column
/// would.
fn quiet_line(width: usize, height: usize, length: usize, seed: u64) -> Option<String> {
    let mut grid = Grid::new(width, height);
    let mut line = String::new();
    for draw in random_values(length, seed, 0, 1 << 20) {
        let quiet: Vec<usize> = (0..width)
            .filter(|&column| {
                grid.heights[column] < height && {
                    let wins = grid.drop_in(column);
                    grid.undo(column);
                    !wins
                }
            })
            .collect();
        let column = *quiet.get(draw as usize % quiet.len().max(1))?;
        grid.drop_in(column);
        line.push(char::from_digit(column as u32 + 1, 36).unwrap());
    }
    Some(line)
}

/// The literal rules' value of `line` on a `width × height` grid, and every move's value
/// (column from 0, value), by brute force.
fn literal_values(width: usize, height: usize, line: &str) -> (Score, Vec<(u8, Score)>) {
    let mut grid = Grid::new(width, height);
    for symbol in line.chars() {
        grid.drop_in(symbol.to_digit(36).unwrap() as usize - 1);
    }
    let mut memo = HashMap::new();
    let value = grid.score(&mut memo);
    let mut moves = Vec::new();
    for column in 0..width {
        if grid.heights[column] < height {
            let before = grid.stones as Score;
            let move_value = if grid.drop_in(column) {
                ((width * height) as Score + 1 - before) / 2
            } else {
                -grid.score(&mut memo)
            };
            grid.undo(column);
            moves.push((column as u8, move_value));
        }
    }
    (value, moves)
}

/// Boards past 64 bits (128-bit words): random positions with a dozen empty cells, every
/// move's value on every kind of table, against the brute force of the literal rules.
#[test]
fn boards_past_64_bits_match_the_brute_force_of_the_literal_rules() {
    let mut checked = 0;
    // Keys of 70 and 72 bits; 110 and 128 bits are past what a fixed table keeps (a key of
    // k bits needs 2^(k − 60) words), so those boards take a hash table only.
    for (width, height) in [(10, 6), (9, 7), (8, 8), (11, 9), (16, 7)] {
        assert!(ConnectFour::new(width, height).is_err(), "{width}x{height}");
        let fixed = width * (height + 1) <= 80;
        let game = ConnectFour::wide(width, height).unwrap();
        for seed in 0..16u64 {
            let empty = 9 + (seed as usize % 4);
            let length = width * height - empty;
            let Some(line) = quiet_line(width, height, length, seed * 6007 + width as u64) else {
                continue;
            };
            let (value, mut expected) = literal_values(width, height, &line);
            expected.sort();
            let position = game.position(&line).unwrap();
            let check = |(found, mut moves): (Score, Vec<(u8, Score)>)| {
                moves.sort();
                assert_eq!(
                    (found, moves),
                    (value, expected.clone()),
                    "{width}x{height} {line}"
                );
            };
            check(pruner_values(&game, HashBoundTable::new(), &position));
            if !fixed {
                checked += 1;
                continue;
            }
            check(pruner_values(
                &game,
                FixedBoundTable::for_game(&game, 1 << 20).unwrap(),
                &position,
            ));
            check(pruner_values(
                &game,
                Canonical(FixedBoundTable::for_game(&game, 1 << 20).unwrap()),
                &position,
            ));
            check(pruner_values(
                &game,
                &AtomicBoundTable::for_game(&game, 1 << 20).unwrap(),
                &position,
            ));
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} positions checked");
    assert!(
        ConnectFour::new(8, 7).is_ok(),
        "8 · (7 + 1) = 64 bits fit one word"
    );
    // A table too small to keep what a key's bucket does not is refused, not wrong.
    let game = ConnectFour::wide(16, 7).unwrap();
    let error = FixedBoundTable::for_game(&game, 1 << 12).unwrap_err();
    assert!(
        error.to_string().contains("too small for keys of 128 bits"),
        "{error}"
    );
}

/// On boards that fit 64 bits, 128-bit words give the same values and move values.
#[test]
fn wide_words_agree_with_narrow_ones() {
    for (width, height) in [(5, 4), (6, 5), (7, 6)] {
        let narrow = ConnectFour::new(width, height).unwrap();
        let wide = ConnectFour::wide(width, height).unwrap();
        for seed in 0..6u64 {
            let length = width * height - 12 - seed as usize;
            let Some(line) = random_line(width, height, length, seed * 31 + width as u64) else {
                continue;
            };
            let in_narrow = pruner_values(
                &narrow,
                FixedBoundTable::for_game(&narrow, 1 << 20).unwrap(),
                &narrow.position(&line).unwrap(),
            );
            let in_wide = pruner_values(
                &wide,
                FixedBoundTable::for_game(&wide, 1 << 20).unwrap(),
                &wide.position(&line).unwrap(),
            );
            assert_eq!(in_narrow, in_wide, "{width}x{height} {line}");
            assert_eq!(
                narrow.render(&narrow.position(&line).unwrap()),
                wide.render(&wide.position(&line).unwrap())
            );
        }
    }
}

/// What the game says without search (its value range, the claimeven bound, a forced move)
/// holds for the literal rules' value, on many random positions of boards of even and odd
/// heights; the claimeven bound and forced moves are seen to apply.
#[test]
fn bounds_and_forced_moves_hold_for_the_literal_rules() {
    let (mut bounded, mut forced, mut checked) = (0, 0, 0);
    for (width, height) in [(4, 4), (5, 4), (6, 4), (4, 6), (5, 3), (4, 5)] {
        let game = ConnectFour::new(width, height).unwrap();
        let cells = width * height;
        let mut memo = HashMap::new();
        for seed in 0..120u64 {
            // At most 13 empty cells, so that the brute force stays quick.
            let length = cells - 4 - (seed as usize * 7) % 10;
            let Some(line) = random_line(width, height, length, seed * 104_729 + cells as u64)
            else {
                continue;
            };
            let mut grid = Grid::new(width, height);
            for symbol in line.chars() {
                grid.drop_in(symbol.to_digit(36).unwrap() as usize - 1);
            }
            let value = grid.score(&mut memo);
            let position = game.position(&line).unwrap();
            checked += 1;
            if game.known_value(&position).is_some() {
                continue;
            }
            let (low, high) = gamesolver::ValueRange::value_range(&game, &position);
            assert!(
                low <= value && value <= high,
                "{width}x{height} {line}: {value} not in {low}..={high}"
            );
            if let Some(bound) = game.claimeven_bound(&position) {
                assert!(
                    value <= bound,
                    "{width}x{height} {line}: {value} > claimeven {bound}"
                );
                bounded += 1;
            }
            if let Some(mv) = game.forced_move(&position) {
                let column = mv.column as usize;
                let move_value = if grid.drop_in(column) {
                    (cells as Score + 1 - length as Score) / 2
                } else {
                    -grid.score(&mut memo)
                };
                grid.undo(column);
                assert_eq!(
                    move_value, value,
                    "{width}x{height} {line}: forced {column}"
                );
                forced += 1;
            }
        }
    }
    assert!(
        checked > 500 && bounded > 20 && forced > 20,
        "{checked} {bounded} {forced}"
    );
}

/// Tromp's results (`+` first player wins, `=` draw, `−` second player wins), for the boards
/// the engine solves from empty in well under a second in a release build.
const TROMP: [(usize, usize, i8); 11] = [
    (4, 4, 0),
    (5, 4, 0),
    (6, 4, -1),
    (7, 4, 0),
    (4, 5, 0),
    (5, 5, 0),
    (6, 5, 0),
    (4, 6, 0),
    (5, 6, 0),
    (2, 3, 0),
    (3, 3, 0),
];

fn solve_from_empty(width: usize, height: usize) -> Score {
    let game = ConnectFour::new(width, height).unwrap();
    let table = FixedBoundTable::for_game(&game, 16 << 20).unwrap();
    gamesolver::engines::pruning::solve(&game, table, pruning::Options::new().ranged())
        .unwrap()
        .value()
}

#[test]
fn tromps_table_on_small_boards() {
    for (width, height, sign) in TROMP {
        if width * height <= 20 {
            assert_eq!(
                solve_from_empty(width, height).signum(),
                Score::from(sign),
                "{width}x{height}"
            );
        }
    }
}

/// The larger boards of the table (seconds each in a release build):
/// `cargo test --release --test connect_four -- --ignored`.
#[test]
#[ignore = "seconds in release, minutes in debug"]
fn tromps_table_on_larger_boards() {
    for (width, height, sign) in TROMP
        .iter()
        .copied()
        .chain([(6, 6, -1), (8, 4, -1), (7, 5, 0)])
    {
        assert_eq!(
            solve_from_empty(width, height).signum(),
            Score::from(sign),
            "{width}x{height}"
        );
    }
}

/// `count` lines of a benchmark file, chosen by a seeded draw: (position, published score).
fn sample(file: &str, count: usize, seed: u64) -> Vec<(String, Score)> {
    let path = connect4_set(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let lines: Vec<&str> = text.lines().collect();
    random_values(count, seed, 0, lines.len() as i64 - 1)
        .into_iter()
        .map(|i| {
            let mut parts = lines[i as usize].split_whitespace();
            let position = parts.next().unwrap().to_string();
            (position, parts.next().unwrap().parse().unwrap())
        })
        .collect()
}

#[test]
fn samples_of_the_three_benchmark_sets() {
    let game = ConnectFour::new(7, 6).unwrap();
    let sets = [("Test_L3_R1", 60), ("Test_L2_R1", 30), ("Test_L1_R1", 12)];
    let mut fixed = Pruner::new(
        &game,
        FixedBoundTable::for_game(&game, 8 << 20).unwrap(),
        pruning::Options::new().ranged(),
    )
    .unwrap();
    let mut hashed = Pruner::new(
        &game,
        HashBoundTable::new(),
        pruning::Options::new().ranged(),
    )
    .unwrap();
    let mirrored = Canonical(AtomicBoundTable::for_game(&game, 8 << 20).unwrap());
    let mut shared = Pruner::new(&game, &mirrored, pruning::Options::new().ranged()).unwrap();
    for (set, count) in sets {
        for (k, (line, score)) in sample(set, count, 2026).into_iter().enumerate() {
            let position = game.position(&line).unwrap();
            assert_eq!(fixed.value_of(&position).unwrap(), score, "{set} {line}");
            if k % 3 == 0 {
                assert_eq!(
                    hashed.value_of(&position).unwrap(),
                    score,
                    "{set} {line} (hash)"
                );
            }
            let threads = 2 + k % 3;
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            assert_eq!(
                pool.install(|| shared.par_value_of(&position)).unwrap(),
                score,
                "{set} {line} ({threads} threads)"
            );
        }
    }
}

#[test]
fn illegal_positions_name_the_move_and_the_column() {
    let game = ConnectFour::new(7, 6).unwrap();
    let message = |line: &str| game.position(line).unwrap_err().to_string();
    assert_eq!(
        message("4480"),
        "move 3 (column 8): there is no column 8 on a board 7 columns wide"
    );
    assert_eq!(message("1111111"), "move 7 (column 1): column 1 is full");
    assert_eq!(
        message("121212123"),
        "move 8 (column 2): the game was already won by the move before"
    );
    assert_eq!(
        message("12x"),
        "move 3 (column x): there is no column x on a board 7 columns wide"
    );
    assert!(message("12#").starts_with("move 3 (column #): '#' is not a column"));
    assert!(message("120").starts_with("move 3 (column 0): '0' is not a column"));
    assert!(matches!(
        ConnectFour::new(8, 8),
        Err(InputError::InvalidGame(_))
    ));
    assert!(ConnectFour::new(0, 6).is_err());
    // Wide boards name columns past 9 with letters.
    let wide = ConnectFour::new(12, 4).unwrap();
    assert_eq!(wide.position("abc").unwrap().stones(), 3);
}

#[test]
fn a_finished_game_has_no_moves_and_pays_the_loser() {
    let game = ConnectFour::new(7, 6).unwrap();
    let won = game.position("1212121").unwrap();
    let mut moves = Vec::new();
    game.moves_into(&won, &mut moves);
    assert!(moves.is_empty());
    // The first player won with its 4th stone: 22 − 4 = 18 for the winner.
    assert_eq!(game.payoff(&won), -18);
}

/// (position, score) of every line of tests/data/`set`/`file` (columns from 0).
fn c4_set(set: &str, file: &str) -> Vec<(String, Score)> {
    let path = format!("{}/tests/data/{set}/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(|line| {
            let (position, score) = line.split_once(' ').unwrap();
            (position.to_string(), score.parse().unwrap())
        })
        .collect()
}

/// Solves every position of c4's sample files in tests/data/`set` on `game` with a fixed table
/// of `bytes` (every fourth also on two threads sharing an atomic one), checking each score;
/// returns how many were solved.
fn solve_c4_samples<B: Bitboard>(game: &ConnectFour<B>, set: &str, bytes: u64) -> usize {
    let mut fixed = Pruner::new(
        game,
        FixedBoundTable::for_game(game, bytes).unwrap(),
        pruning::Options::new().ranged(),
    )
    .unwrap();
    let shared = AtomicBoundTable::for_game(game, bytes).unwrap();
    let mut parallel = Pruner::new(game, &shared, pruning::Options::new().ranged()).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let mut solved = 0;
    for file in ["endgame_L1", "midgame_L1", "midgame_L2", "opening_L1"] {
        for (k, (line, score)) in c4_set(set, file).into_iter().enumerate() {
            let position = game.position_from_zero(&line).unwrap();
            assert_eq!(fixed.value_of(&position).unwrap(), score, "{file} {line}");
            if k % 4 == 0 {
                assert_eq!(
                    pool.install(|| parallel.par_value_of(&position)).unwrap(),
                    score,
                    "{file} {line} (2 threads)"
                );
            }
            solved += 1;
        }
    }
    solved
}

#[test]
fn samples_of_c4s_verified_9x5_sets() {
    let game = ConnectFour::new(9, 5).unwrap();
    assert_eq!(solve_c4_samples(&game, "c4_9x5", 8 << 20), 215);
}

/// 10×6, 70 bits: c4's verified scores on 128-bit words, one thread and two.
#[test]
fn samples_of_c4s_verified_10x6_sets() {
    let game = ConnectFour::wide(10, 6).unwrap();
    assert_eq!(solve_c4_samples(&game, "c4_10x6", 16 << 20), 114);
}

/// Boards whose keys pass what a fixed bound table's words can hold (more than about 83 bits
/// of cells and markers: 10×8, 12×7, 16×7): the command line solves them on a bound table
/// keyed by the whole position. Checked where the literal rules know the value at once: the
/// side to move has an immediate win, which no line can beat (a win scores more the sooner it
/// comes). `--batch` solves the same positions, one line each, on one thread and two.
#[cfg(feature = "cli")]
#[test]
fn boards_past_the_fixed_tables_keys_are_solved_on_a_hash_table() {
    let mut checked = 0;
    for (width, height) in [(10usize, 8usize), (12, 7), (16, 7)] {
        let mut batch: Vec<(String, Score)> = Vec::new();
        for seed in 0..40u64 {
            let before = (seed % 5) as usize * 2;
            let Some(line) = random_line(width, height, before, seed * 31 + width as u64) else {
                continue;
            };
            let mut grid = Grid::new(width, height);
            let mut columns: Vec<usize> = line
                .chars()
                .map(|symbol| symbol.to_digit(36).unwrap() as usize - 1)
                .collect();
            // The side to move stacks three in one column while the other plays elsewhere.
            let picks = random_values(4, seed, 0, width as i64 - 1);
            let stack = picks[0] as usize;
            for pick in &picks[1..] {
                let other = (stack + 1 + *pick as usize % (width - 1)) % width;
                columns.extend([stack, other]);
            }
            let mut legal = true;
            for &column in &columns {
                if grid.heights[column] == height || grid.drop_in(column) {
                    legal = false;
                    break;
                }
            }
            let stones = columns.len() as Score;
            let wins_now = (0..width).any(|column| {
                grid.heights[column] < height && {
                    let wins = grid.drop_in(column);
                    grid.undo(column);
                    wins
                }
            });
            if !legal || !wins_now {
                continue;
            }
            let expected = ((width * height) as Score + 1 - stones) / 2;
            let position: String = columns
                .iter()
                .map(|&column| char::from_digit(column as u32, 36).unwrap())
                .collect();
            let output = std::process::Command::new(env!("CARGO_BIN_EXE_gamesolver"))
                .args(["connect-four", &position, "--columns-from-zero", "--json"])
                .args([
                    "--width",
                    &width.to_string(),
                    "--height",
                    &height.to_string(),
                ])
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(
                output.status.success(),
                "{width}x{height} {position}: {stderr}"
            );
            let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
            assert_eq!(report["value"], expected, "{width}x{height} {position}");
            assert_eq!(report["table"], "hash", "{width}x{height}");
            checked += 1;
            batch.push((position, expected));
        }
        // The batch, with a line that is not a position in the middle: reported, and the
        // batch goes on.
        let mut input: Vec<String> = batch.iter().map(|(position, _)| position.clone()).collect();
        let bad = batch.len() / 2;
        input.insert(bad, "not a position".into());
        for threads in ["1", "2"] {
            let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gamesolver"))
                .args(["connect-four", "--batch", "-", "--columns-from-zero"])
                .args(["--threads", threads, "--width", &width.to_string()])
                .args(["--height", &height.to_string()])
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            let mut stdin = child.stdin.take().unwrap();
            std::io::Write::write_all(&mut stdin, (input.join("\n") + "\n").as_bytes()).unwrap();
            drop(stdin);
            let output = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(1), "{width}x{height}: {stderr}");
            assert!(stderr.contains(&format!("line {}:", bad + 1)), "{stderr}");
            let expected: Vec<String> = batch
                .iter()
                .map(|(position, score)| format!("{position} {score}"))
                .collect();
            let stdout = String::from_utf8(output.stdout).unwrap();
            assert_eq!(
                stdout.lines().collect::<Vec<_>>(),
                expected,
                "{width}x{height}"
            );
        }
    }
    assert!(checked >= 30, "only {checked} positions checked");
}
