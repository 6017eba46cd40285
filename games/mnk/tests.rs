//! The m,n,k-game against its literal rules: lines found by scanning every cell in every
//! direction, values by minimax over grids of marks (memoized by the grid), on small boards,
//! their openings and random positions, by the front door, the pruning engine and proof
//! search (every proof checked).

use std::collections::HashMap;

use super::*;
use crate::check::{CheckOptions, check_outcome, check_proof};
use crate::engines::{OutcomeRange, proof};
use crate::games::random_play;
use crate::{Engine, Solved, Solver};

/// The literal rules on a grid of `'B'`, `'W'` and `'.'`, row by row.
struct Literal {
    columns: usize,
    rows: usize,
    k: usize,
    memo: HashMap<Vec<char>, Score>,
}

impl Literal {
    fn new(game: &Mnk) -> Literal {
        let (columns, rows, k) = game.size();
        Literal {
            columns: columns as usize,
            rows: rows as usize,
            k: k as usize,
            memo: HashMap::new(),
        }
    }

    /// Whether `who` has `k` in a row anywhere on `grid`.
    fn has_line(&self, grid: &[char], who: char) -> bool {
        let at = |x: i64, y: i64| {
            x >= 0
                && y >= 0
                && (x as usize) < self.columns
                && (y as usize) < self.rows
                && grid[y as usize * self.columns + x as usize] == who
        };
        (0..self.rows as i64).any(|y| {
            (0..self.columns as i64).any(|x| {
                [(1, 0), (0, 1), (1, 1), (1, -1)]
                    .iter()
                    .any(|(dx, dy)| (0..self.k as i64).all(|i| at(x + i * dx, y + i * dy)))
            })
        })
    }

    /// The value of `grid` for `me`, to move.
    fn value(&mut self, grid: &mut Vec<char>, me: char) -> Score {
        let other = if me == 'B' { 'W' } else { 'B' };
        if self.has_line(grid, other) {
            return -1;
        }
        if let Some(&value) = self.memo.get(grid.as_slice()) {
            return value;
        }
        let mut best = None;
        for cell in 0..grid.len() {
            if grid[cell] != '.' {
                continue;
            }
            grid[cell] = me;
            let value = -self.value(grid, other);
            grid[cell] = '.';
            best = best.max(Some(value));
            if value == 1 {
                break;
            }
        }
        let value = best.unwrap_or(0);
        self.memo.insert(grid.clone(), value);
        value
    }

    /// The value of `board` for the side to move.
    fn of(&mut self, board: &MnkBoard) -> Score {
        let mut grid: Vec<char> = (0..(self.columns * self.rows) as u32)
            .map(|cell| {
                if board.black_at(cell) {
                    'B'
                } else if board.white_at(cell) {
                    'W'
                } else {
                    '.'
                }
            })
            .collect();
        let me = if board.black_to_move() { 'B' } else { 'W' };
        self.value(&mut grid, me)
    }
}

/// A random position of `stones` stones reached by legal play that nobody has won yet.
fn random_position(game: &Mnk, stones: usize, seed: &mut u64) -> MnkBoard {
    random_play(game, stones, seed, MnkBoard::is_won)
}

/// The value of `board` by proof search, its proofs checked: a win by "at least 1" holding, a
/// loss by "at least 0" failing, a draw by both "at least 0" holding and "at least 1" failing.
fn proved(game: &Mnk, board: &MnkBoard) -> Score {
    let mut prover = proof::Prover::new(game, proof::Options::new().range(OutcomeRange));
    let value = prover.value_of(board).unwrap();
    for at_least in [0, 1] {
        let proof = prover.proof(board, at_least).unwrap();
        check_proof(game, &proof).unwrap();
        let root = &proof.nodes[0];
        assert_eq!((root.state, root.holds), (*board, value >= at_least));
    }
    value
}

#[test]
fn small_boards_and_their_openings_agree_with_the_literal_rules_by_every_engine() {
    for (columns, rows, k) in [
        (1, 1, 1),
        (2, 2, 2),
        (3, 2, 3),
        (3, 3, 2),
        (3, 3, 3),
        (4, 3, 3),
        (3, 4, 3),
    ] {
        let game = Mnk::new(columns, rows, k).unwrap();
        let mut literal = Literal::new(&game);
        let value = literal.of(&game.start());
        for engine in [Engine::Exhaustive, Engine::Pruning, Engine::Proof] {
            let solved = Solver::new(&game).engine(engine).solve().unwrap();
            assert_eq!(
                solved.value(),
                value,
                "{columns}x{rows} k {k} by {engine:?}"
            );
        }
        let mut solved = Solver::new(&game).solve().unwrap();
        assert_eq!(solved.value(), value);
        assert_eq!(proved(&game, &game.start()), value);
        for cell in game.moves(&game.start()).collect::<Vec<_>>() {
            let board = game.play(&game.start(), &cell).next;
            let value = literal.of(&board);
            assert_eq!(solved.value_of(&board).unwrap(), value, "after {cell}");
            assert_eq!(proved(&game, &board), value, "after {cell}");
        }
    }
    // The published values: tic-tac-toe a draw, 3 in a row on 4x3 a first-player win.
    assert_eq!(
        Literal::new(&Mnk::new(3, 3, 3).unwrap()).of(&MnkBoard::default()),
        0
    );
    assert_eq!(
        Literal::new(&Mnk::new(4, 3, 3).unwrap()).of(&MnkBoard::default()),
        1
    );
}

#[test]
fn random_positions_on_larger_boards_agree_with_the_literal_rules() {
    let mut seed = 3;
    for (columns, rows, k, stones) in [(4, 4, 4, 8), (4, 4, 3, 7), (5, 4, 4, 11), (6, 5, 5, 20)] {
        let game = Mnk::new(columns, rows, k).unwrap();
        let mut literal = Literal::new(&game);
        for _ in 0..5 {
            let board = random_position(&game, stones, &mut seed);
            assert_eq!(proved(&game, &board), literal.of(&board), "{board:?}");
        }
    }
}

#[test]
fn every_image_keeps_the_value_and_the_class() {
    let mut seed = 9;
    for (columns, rows, k) in [(4, 4, 3), (5, 3, 3)] {
        let game = Mnk::new(columns, rows, k).unwrap();
        let mut literal = Literal::new(&game);
        for _ in 0..20 {
            let board = random_position(&game, 6, &mut seed);
            let canonical = game.canonical(&board);
            assert_eq!(game.canonical(&canonical), canonical);
            assert_eq!(literal.of(&canonical), literal.of(&board));
        }
    }
}

#[test]
fn the_rules_keep_the_contract() {
    for (columns, rows, k) in [(3, 3, 3), (4, 3, 3), (2, 5, 2)] {
        let report = check_outcome(
            &Mnk::new(columns, rows, k).unwrap(),
            &CheckOptions::default(),
        );
        assert!(report.is_ok(), "{:?}", report.violations);
    }
}

#[test]
fn boards_cells_and_positions_are_read_or_refused_by_name() {
    let gomoku = Mnk::new(15, 15, 5).unwrap();
    assert_eq!(gomoku.moves(&gomoku.start()).count(), 225);
    assert_eq!(gomoku.moves(&gomoku.start()).next(), Some(7 * 15 + 7));
    for cell in 0..225 {
        assert_eq!(gomoku.cell(&gomoku.cell_name(cell)).unwrap(), cell);
    }
    for (columns, rows, k) in [
        (0, 3, 3),
        (3, 0, 1),
        (27, 1, 1),
        (17, 16, 5),
        (3, 3, 4),
        (3, 3, 0),
    ] {
        assert!(Mnk::new(columns, rows, k).is_err(), "{columns} {rows} {k}");
    }
    let game = Mnk::new(4, 3, 3).unwrap();
    assert!(game.cell("e1").is_err() && game.cell("a4").is_err() && game.cell("").is_err());
    // Black's a1 b1 c1 wins (White's a2 b2 between them); nothing may follow.
    let won = game.after_cells("a1,a2,b1,b2,c1").unwrap();
    assert!(won.is_won());
    assert_eq!(game.payoff(&won), -1);
    assert_eq!(game.moves(&won).count(), 0);
    assert!(game.after_cells("a1,a2,b1,b2,c1,d3").is_err());
    assert!(game.after_cells("a1 a1").is_err());
    let board = game.after_cells("b2 c3").unwrap();
    assert!(board.black_at(5) && board.white_at(10) && board.black_to_move());
}
