//! Quixo's rules, ranks and symmetries against the literal rules.

use super::*;
use crate::engines::retrograde::{self, HashIds, Outcome};

/// A push by the literal rules, on a grid of chars.
fn literal_push(grid: &mut [Vec<char>], row: usize, column: usize, to: Edge, mark: char) {
    let side = grid.len();
    match to {
        Edge::Left => {
            for c in (1..=column).rev() {
                grid[row][c] = grid[row][c - 1];
            }
            grid[row][0] = mark;
        }
        Edge::Right => {
            for c in column..side - 1 {
                grid[row][c] = grid[row][c + 1];
            }
            grid[row][side - 1] = mark;
        }
        Edge::Top => {
            for r in (1..=row).rev() {
                grid[r][column] = grid[r - 1][column];
            }
            grid[0][column] = mark;
        }
        Edge::Bottom => {
            for r in row..side - 1 {
                grid[r][column] = grid[r + 1][column];
            }
            grid[side - 1][column] = mark;
        }
    }
}

fn grid_of(game: &Quixo, board: &QuixoBoard) -> Vec<Vec<char>> {
    let formal = game.formal(board);
    formal[2..]
        .chars()
        .collect::<Vec<_>>()
        .chunks(game.side)
        .map(<[char]>::to_vec)
        .collect()
}

/// Every move, against pushes on a grid by the literal rules, on boards met in random play.
#[test]
fn moves_follow_the_literal_rules() {
    for side in 3..=5 {
        let game = Quixo::new(side).unwrap();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64 ^ side as u64;
        for _ in 0..40 {
            let mut board = game.start();
            for _ in 0..60 {
                let grid = grid_of(&game, &board);
                let mover = if board.o_to_move { 'O' } else { 'X' };
                let over = game.over(&board).is_some();
                let mut literal = Vec::new();
                for row in 0..side {
                    for column in 0..side {
                        let on_border =
                            row == 0 || column == 0 || row == side - 1 || column == side - 1;
                        if !on_border
                            || over
                            || (grid[row][column] != '-' && grid[row][column] != mover)
                        {
                            continue;
                        }
                        for to in Edge::ALL {
                            let stays = match to {
                                Edge::Left => column == 0,
                                Edge::Right => column == side - 1,
                                Edge::Top => row == 0,
                                Edge::Bottom => row == side - 1,
                            };
                            if stays {
                                continue;
                            }
                            let mut next = grid.clone();
                            literal_push(&mut next, row, column, to, mover);
                            let text: String = next.concat().into_iter().collect();
                            let turn = if board.o_to_move { "1_" } else { "2_" };
                            literal.push((
                                Push {
                                    cell: (row * side + column) as u8,
                                    to,
                                },
                                format!("{turn}{text}"),
                            ));
                        }
                    }
                }
                let ours: Vec<_> = game
                    .moves(&board)
                    .map(|push| (push, game.formal(&game.play(&board, &push).next)))
                    .collect();
                assert_eq!(ours, literal, "{}", game.formal(&board));
                if ours.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                board = game.play(&board, &ours[seed as usize % ours.len()].0).next;
            }
        }
    }
}

/// Ranks and unranks every legal board of 3×3, and random ones of 4×4 and 5×5; the
/// canonical board is one of the eight images and is the same for all of them.
#[test]
fn ranks_and_symmetries() {
    let game = Quixo::new(3).unwrap();
    let mut legal = 0;
    for tier in 0..game.tier_count() {
        for rank in 0..game.tier_len(tier) {
            if let Some(board) = game.unrank(tier, rank) {
                legal += 1;
                assert_eq!((game.tier(&board), game.rank(&board)), (tier, rank));
            }
        }
    }
    assert!(legal > 0 && legal < 2 * 3usize.pow(9));
    for side in 4..=5 {
        let game = Quixo::new(side).unwrap();
        let mut seed = 12345u64 + side as u64;
        for _ in 0..2000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let (mut x, mut o) = (0u32, 0u32);
            for cell in 0..side * side {
                match (seed >> (cell % 60)) % 3 {
                    0 => x |= 1 << cell,
                    1 => o |= 1 << cell,
                    _ => {}
                }
            }
            let board = QuixoBoard {
                x,
                o,
                o_to_move: seed >> 63 == 1,
            };
            if !game.is_legal(&board) {
                continue;
            }
            let tier = game.tier(&board);
            assert_eq!(game.unrank(tier, game.rank(&board)), Some(board));
            let canonical = game.canonical(&board);
            assert_eq!(game.canonical(&canonical), canonical);
            let grid = grid_of(&game, &board);
            let mut rotated = board;
            (rotated.x, rotated.o) = (0, 0);
            for (r, row) in grid.iter().enumerate() {
                for (c, mark) in row.iter().enumerate() {
                    let at = 1 << (c * side + (side - 1 - r));
                    match mark {
                        'X' => rotated.x |= at,
                        'O' => rotated.o |= at,
                        _ => {}
                    }
                }
            }
            assert_eq!(game.canonical(&rotated), canonical);
        }
    }
}

#[test]
fn positions_read_and_written_as_gamesmanone_does() {
    let game = Quixo::new(4).unwrap();
    let board = game.parse("2_X---/----/----/----").unwrap();
    assert_eq!(game.formal(&board), "2_X---------------");
    assert!(game.parse("2_----------------").is_err()); // X just moved: a cube is on the border
    assert!(game.parse("1_XO").is_err());
    assert!(game.parse("3_----------------").is_err());
    assert!(game.parse("1_------Z---------").is_err());
}

/// 3×3 from the start: X wins in 7 (GamesmanOne's figure).
#[test]
fn three_by_three_is_a_win_in_seven() {
    let game = Quixo::new(3).unwrap();
    let solution =
        retrograde::solve(&game, HashIds::default(), retrograde::Options::new()).unwrap();
    assert_eq!(solution.outcome(), Outcome::Win);
    assert_eq!(solution.remoteness(), Some(7));
}
