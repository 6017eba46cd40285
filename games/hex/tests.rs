//! Hex against its literal rules: chains found by a search over a grid of marks, values by
//! plain minimax with no memo, on every board up to 3×3, every 3×3 opening and random 4×4
//! positions, by the front door, the pruning engine and proof search (every proof checked).

use super::*;
use crate::check::{CheckOptions, check_outcome, check_proof};
use crate::engines::{OutcomeRange, proof};
use crate::games::{next_random, random_play};
use crate::{Engine, Solved, Solver};

/// A grid of marks, row by row: `'B'`, `'W'` or `'.'`.
type Grid = Vec<Vec<char>>;

/// Whether `who` joins its edges on `grid`, by a search from its first edge over the six
/// neighbours the rules name.
fn joined(grid: &Grid, who: char) -> bool {
    let n = grid.len();
    let mut seen = vec![vec![false; n]; n];
    let mut stack = Vec::new();
    for i in 0..n {
        let (r, c) = if who == 'B' { (0, i) } else { (i, 0) };
        if grid[r][c] == who {
            seen[r][c] = true;
            stack.push((r, c));
        }
    }
    while let Some((r, c)) = stack.pop() {
        if (who == 'B' && r == n - 1) || (who == 'W' && c == n - 1) {
            return true;
        }
        for (dr, dc) in [(0i32, -1i32), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, -1)] {
            let (nr, nc) = (r as i32 + dr, c as i32 + dc);
            if nr < 0 || nc < 0 || nr >= n as i32 || nc >= n as i32 {
                continue;
            }
            let (nr, nc) = (nr as usize, nc as usize);
            if grid[nr][nc] == who && !seen[nr][nc] {
                seen[nr][nc] = true;
                stack.push((nr, nc));
            }
        }
    }
    false
}

/// Whether `me`, to move on `grid`, wins: plain minimax, no memo.
fn wins(grid: &mut Grid, me: char) -> bool {
    let n = grid.len();
    let other = if me == 'B' { 'W' } else { 'B' };
    for r in 0..n {
        for c in 0..n {
            if grid[r][c] != '.' {
                continue;
            }
            grid[r][c] = me;
            let won = joined(grid, me) || !wins(grid, other);
            grid[r][c] = '.';
            if won {
                return true;
            }
        }
    }
    false
}

/// The grid of `board`.
fn grid(hex: &Hex, board: &HexBoard) -> Grid {
    let n = hex.side();
    (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    let cell = r * n + c;
                    if board.black() >> cell & 1 != 0 {
                        'B'
                    } else if board.white() >> cell & 1 != 0 {
                        'W'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect()
}

/// The value of `board` for the side to move by the literal rules.
fn literal_value(hex: &Hex, board: &HexBoard) -> Score {
    let mut grid = grid(hex, board);
    let (me, other) = if board.black_to_move() {
        ('B', 'W')
    } else {
        ('W', 'B')
    };
    if joined(&grid, other) {
        return -1;
    }
    if wins(&mut grid, me) { 1 } else { -1 }
}

/// A random position of `stones` stones reached by legal play that nobody has won yet.
fn random_position(hex: &Hex, stones: usize, seed: &mut u64) -> HexBoard {
    random_play(hex, stones, seed, HexBoard::is_won)
}

/// A board of `side × side` cells, each black one time in `spread`, white one time in
/// `spread`, else empty: any pattern, legal or not (for the rules' chains and paths).
fn random_board(side: u32, spread: u64, seed: &mut u64) -> HexBoard {
    let mut board = HexBoard::default();
    for cell in 0..side * side {
        match next_random(seed) % spread {
            0 => board.black |= 1 << cell,
            1 => board.white |= 1 << cell,
            _ => {}
        }
    }
    board
}

/// The value of `board` by proof search, its proofs checked.
fn proved(hex: &Hex, board: &HexBoard) -> Score {
    let mut prover = proof::Prover::new(hex, proof::Options::new().range(OutcomeRange));
    let value = prover.value_of(board).unwrap();
    // A win is proved by "at least 1" holding, a loss by "at least 0" failing.
    let proof = prover.proof(board, i64::from(value > 0)).unwrap();
    check_proof(hex, &proof).unwrap();
    let root = &proof.nodes[0];
    assert_eq!((root.state, root.holds), (*board, value > 0));
    value
}

#[test]
fn chains_are_found_as_the_literal_rules_find_them() {
    let mut seed = 7;
    for side in 1..=MAX_HEX_SIDE {
        let hex = Hex::new(side).unwrap();
        for _ in 0..200 {
            let board = random_board(side, 3, &mut seed);
            let (black, white) = (board.black(), board.white());
            let grid = grid(&hex, &board);
            assert_eq!(hex.joins(black, true), joined(&grid, 'B'), "{grid:?}");
            assert_eq!(hex.joins(white, false), joined(&grid, 'W'), "{grid:?}");
        }
    }
}

/// The stones `who` still needs to join its edges on `grid`: a shortest path by Dijkstra's
/// rule over the cells, its own stones costing 0, empty cells 1, the other side's barred.
fn literal_distance(grid: &Grid, who: char) -> Option<u32> {
    let n = grid.len();
    let cost = |r: usize, c: usize| match grid[r][c] {
        '.' => Some(1),
        mark if mark == who => Some(0),
        _ => None,
    };
    let mut best = vec![vec![u32::MAX; n]; n];
    let mut queue = std::collections::BinaryHeap::new();
    for i in 0..n {
        let (r, c) = if who == 'B' { (0, i) } else { (i, 0) };
        if let Some(step) = cost(r, c) {
            best[r][c] = step;
            queue.push(std::cmp::Reverse((step, r, c)));
        }
    }
    while let Some(std::cmp::Reverse((so_far, r, c))) = queue.pop() {
        if so_far > best[r][c] {
            continue;
        }
        if (who == 'B' && r == n - 1) || (who == 'W' && c == n - 1) {
            return Some(so_far);
        }
        for (dr, dc) in [(0i32, -1i32), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, -1)] {
            let (nr, nc) = (r as i32 + dr, c as i32 + dc);
            if nr < 0 || nc < 0 || nr >= n as i32 || nc >= n as i32 {
                continue;
            }
            let (nr, nc) = (nr as usize, nc as usize);
            if let Some(step) = cost(nr, nc)
                && so_far + step < best[nr][nc]
            {
                best[nr][nc] = so_far + step;
                queue.push(std::cmp::Reverse((so_far + step, nr, nc)));
            }
        }
    }
    None
}

#[test]
fn the_stones_each_side_needs_are_the_shortest_paths_of_the_rules() {
    let mut seed = 13;
    for side in 1..=MAX_HEX_SIDE {
        let hex = Hex::new(side).unwrap();
        for _ in 0..100 {
            let board = random_board(side, 5, &mut seed);
            let (black, white) = (board.black(), board.white());
            let grid = grid(&hex, &board);
            let empty = !(black | white) & ((1u128 << (side * side)) - 1);
            assert_eq!(
                hex.distance(black, empty, true),
                literal_distance(&grid, 'B'),
                "{grid:?}"
            );
            assert_eq!(
                hex.distance(white, empty, false),
                literal_distance(&grid, 'W'),
                "{grid:?}"
            );
        }
    }
}

#[test]
fn every_board_up_to_three_is_a_first_player_win_by_every_engine() {
    for side in 1..=3 {
        let hex = Hex::new(side).unwrap();
        assert_eq!(literal_value(&hex, &hex.start()), 1);
        for engine in [Engine::Exhaustive, Engine::Pruning, Engine::Proof] {
            let solved = Solver::new(&hex).engine(engine).solve().unwrap();
            assert_eq!(solved.value(), 1, "{side}x{side} by {engine:?}");
        }
        assert_eq!(Solver::new(&hex).solve().unwrap().value(), 1);
        assert_eq!(proved(&hex, &hex.start()), 1);
    }
}

#[test]
fn every_three_by_three_opening_and_random_four_by_four_positions_agree_with_the_rules() {
    let hex = Hex::new(3).unwrap();
    let mut solved = Solver::new(&hex)
        .engine(Engine::Exhaustive)
        .solve()
        .unwrap();
    for cell in 0..9 {
        let board = hex.play(&hex.start(), &cell).next;
        let value = literal_value(&hex, &board);
        assert_eq!(solved.value_of(&board).unwrap(), value, "after {cell}");
        assert_eq!(proved(&hex, &board), value, "after {cell}");
    }
    let hex = Hex::new(4).unwrap();
    let mut seed = 11;
    for stones in [6, 7, 8, 9, 10] {
        for _ in 0..4 {
            let board = random_position(&hex, stones, &mut seed);
            let value = literal_value(&hex, &board);
            assert_eq!(proved(&hex, &board), value, "{:?}", grid(&hex, &board));
        }
    }
}

#[test]
fn the_half_turn_keeps_the_value_and_is_its_own_class() {
    let hex = Hex::new(4).unwrap();
    let mut seed = 5;
    for _ in 0..30 {
        let board = random_position(&hex, 9, &mut seed);
        let canonical = hex.canonical(&board);
        assert_eq!(hex.canonical(&canonical), canonical);
        assert_eq!(literal_value(&hex, &canonical), literal_value(&hex, &board));
    }
}

#[test]
fn the_rules_keep_the_contract() {
    for side in [2, 3] {
        let report = check_outcome(&Hex::new(side).unwrap(), &CheckOptions::default());
        assert!(report.is_ok(), "{:?}", report.violations);
    }
}

#[test]
fn cells_read_and_write_as_benzene_names_them() {
    let hex = Hex::new(11).unwrap();
    for cell in 0..121u8 {
        assert_eq!(hex.cell(&hex.cell_name(cell)).unwrap(), cell);
    }
    assert_eq!(hex.cell_name(0), "a1");
    assert_eq!(hex.cell_name(12), "b2");
    assert_eq!(hex.cell("K11").unwrap(), 120);
    for bad in ["", "a", "a0", "l1", "a12", "1a", "b-1", "é1", "a1x"] {
        assert!(hex.cell(bad).is_err(), "{bad}");
    }
    let hex = Hex::new(3).unwrap();
    let board = hex.after_cells("b2, a1 c1").unwrap();
    assert_eq!(board.black(), 1 << 4 | 1 << 2);
    assert_eq!(board.white(), 1);
    assert!(hex.after_cells("b2,b2").is_err());
    // Black joins top and bottom with a2 (the a-file) after its b1 and a3.
    let won = hex.after_cells("b1,c1,a2,c2,a3").unwrap();
    assert!(won.is_won());
    assert!(hex.after_cells("b1,c1,a2,c2,a3,b3").is_err());
    assert_eq!(hex.moves(&won).count(), 0);
}

#[test]
fn moves_list_every_empty_cell_once_centre_first() {
    for side in 1..=MAX_HEX_SIDE {
        let hex = Hex::new(side).unwrap();
        let mut moves: Vec<u8> = hex.moves(&hex.start()).collect();
        let centre = ((side / 2) * side + side / 2) as u8;
        if side % 2 == 1 {
            assert_eq!(moves[0], centre);
        }
        moves.sort_unstable();
        assert_eq!(moves, (0..(side * side) as u8).collect::<Vec<_>>());
    }
    assert!(Hex::new(0).is_err());
    assert!(Hex::new(12).is_err());
}

#[test]
fn a_pairing_decides_only_what_the_rules_decide_and_verifies_by_them() {
    let mut seed = 17;
    let mut decided_count = 0;
    for (side, stones) in [(3, 2..=6), (4, 5..=10), (5, 16..=19)] {
        let hex = Hex::new(side).unwrap();
        for count in stones {
            for _ in 0..12 {
                let board = random_position(&hex, count, &mut seed);
                let Some(decided) = hex.decided(&board) else {
                    continue;
                };
                decided_count += 1;
                let value = literal_value(&hex, &board);
                assert_eq!(decided.value, value, "{:?}", grid(&hex, &board));
                hex.verify_decided(&board, &decided).unwrap();
                let wrong = Decided {
                    value: -value,
                    ..decided.clone()
                };
                assert!(hex.verify_decided(&board, &wrong).is_err());
            }
        }
    }
    assert!(
        decided_count >= 40,
        "only {decided_count} positions decided"
    );
}

#[test]
fn the_verifier_accepts_no_pairing_the_rules_refute() {
    // Random pairs of empty cells claimed for a random side: every claim the verifier accepts
    // is the position's value by the literal rules.
    let hex = Hex::new(4).unwrap();
    let mut seed = 23;
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..3000 {
        let board = random_position(&hex, 6 + (next_random(&mut seed) % 5) as usize, &mut seed);
        let moves = hex.moves(&board).count();
        let mut witness: Vec<usize> = (0..moves).collect();
        for at in (1..witness.len()).rev() {
            witness.swap(at, (next_random(&mut seed) % (at as u64 + 1)) as usize);
        }
        witness.truncate(next_random(&mut seed) as usize % (moves + 1));
        // One strategy for either side, or two (a key each, perhaps) for the side not to move.
        let (value, witness) = match next_random(&mut seed) % 3 {
            0 => (1, vec![witness]),
            1 => (-1, vec![witness]),
            _ => {
                let second =
                    witness.split_off(next_random(&mut seed) as usize % (witness.len() + 1));
                (-1, vec![witness, second])
            }
        };
        let claim = Decided { value, witness };
        if hex.verify_decided(&board, &claim).is_ok() {
            accepted += 1;
            assert_eq!(
                literal_value(&hex, &board),
                value,
                "{:?}",
                grid(&hex, &board)
            );
        } else {
            refused += 1;
        }
    }
    assert!(
        accepted >= 10 && refused >= 10,
        "{accepted} accepted, {refused} refused"
    );
}

#[test]
fn proofs_end_at_pairings_and_a_broken_pairing_is_refused() {
    let hex = Hex::new(4).unwrap();
    let mut prover = proof::Prover::new(&hex, proof::Options::new().range(OutcomeRange));
    let proof = prover.proof(&hex.start(), 1).unwrap();
    check_proof(&hex, &proof).unwrap();
    let leaves: Vec<usize> = (0..proof.len())
        .filter(|&id| proof.nodes[id].decided.is_some())
        .collect();
    assert!(!leaves.is_empty());
    // The file keeps the decided states and their witnesses.
    let mut file = Vec::new();
    proof.write("hex 4", &mut file).unwrap();
    let (_, read) = proof::read_proof(&hex, hex.start(), &file).unwrap();
    assert_eq!(read, proof);
    // A decided state whose witness is taken away, or whose value is turned round, is
    // refused.
    for id in leaves.into_iter().take(50) {
        let mut broken = proof.clone();
        broken.nodes[id].decided.as_mut().unwrap().witness.clear();
        assert!(check_proof(&hex, &broken).is_err());
        let mut turned = proof.clone();
        let node = &mut turned.nodes[id];
        node.decided.as_mut().unwrap().value *= -1;
        node.holds = !node.holds;
        assert!(check_proof(&hex, &turned).is_err());
    }
}

#[test]
fn every_decided_position_up_to_three_is_verified_and_right() {
    let mut decided_count = 0;
    for side in 1..=3 {
        let hex = Hex::new(side).unwrap();
        let mut seen = std::collections::HashSet::new();
        let mut todo = vec![hex.start()];
        while let Some(board) = todo.pop() {
            if !seen.insert(board) {
                continue;
            }
            if let Some(decided) = hex.decided(&board) {
                decided_count += 1;
                assert_eq!(decided.value, literal_value(&hex, &board));
                hex.verify_decided(&board, &decided).unwrap();
            }
            todo.extend(hex.moves(&board).map(|cell| hex.play(&board, &cell).next));
        }
    }
    assert!(
        decided_count > 100,
        "only {decided_count} positions decided"
    );
}

/// Hex whose knowledge lies: every decided value turned round.
struct Liar(Hex);

impl Game for Liar {
    type State = HexBoard;
    type Move = u8;
    fn start(&self) -> HexBoard {
        self.0.start()
    }
    fn moves(&self, board: &HexBoard) -> impl Iterator<Item = u8> {
        self.0.moves(board)
    }
    fn play(&self, board: &HexBoard, cell: &u8) -> Step<HexBoard> {
        self.0.play(board, cell)
    }
    fn payoff(&self, board: &HexBoard) -> Score {
        self.0.payoff(board)
    }
    fn decided(&self, board: &HexBoard) -> Option<Decided> {
        let decided = self.0.decided(board)?;
        Some(Decided {
            value: -decided.value,
            ..decided
        })
    }
    fn verify_decided(&self, board: &HexBoard, decided: &Decided) -> Result<(), String> {
        self.0.verify_decided(board, decided)
    }
    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().outcome_game()
    }
}

#[test]
fn the_checker_finds_knowledge_that_lies() {
    let liar = Liar(Hex::new(3).unwrap());
    let report = check_outcome(&liar, &CheckOptions::default());
    let wrong = report
        .violations
        .iter()
        .find(|violation| matches!(violation, crate::check::Violation::DecidedWrong { .. }))
        .expect("a decided value turned round is found");
    assert!(
        wrong.to_string().contains("verify_decided refuses"),
        "{wrong}"
    );
    // Its proofs are refused too.
    let mut prover = proof::Prover::new(&liar, proof::Options::new());
    let proof = prover.proof(&liar.start(), 1).unwrap();
    assert!(check_proof(&liar, &proof).is_err());
}
