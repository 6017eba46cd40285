//! `gamesolver analyze --after`: positions reached by moves given by name (what the page of
//! `gamesolver serve` sends), each move's name and turn, and the position's view, against
//! brute force over the literal rules.

#![cfg(feature = "cli")]

mod common;

use std::process::Command;

use common::{Rng, tic_tac_toe_wins};
use serde_json::Value;

/// `gamesolver analyze ARGS --json`: Ok(the object), or Err((exit code, stderr)).
fn analyze(args: &[&str]) -> Result<Value, (Option<i32>, String)> {
    let output = Command::new(env!("CARGO_BIN_EXE_gamesolver"))
        .arg("analyze")
        .arg("--json")
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    if output.status.success() {
        Ok(serde_json::from_str(&stdout).expect("one JSON object"))
    } else {
        let stderr = String::from_utf8(output.stderr).unwrap();
        Err((output.status.code(), stderr))
    }
}

/// Tic-tac-toe by its literal rules: the mover's value (+1 win, 0 draw, -1 loss) of `cells`
/// (b'X', b'O' or b'.'), X moving when the counts are equal.
fn tic_tac_toe(cells: &mut [u8; 9]) -> i64 {
    let won = |cells: &[u8; 9]| tic_tac_toe_wins(cells, b'X') || tic_tac_toe_wins(cells, b'O');
    if won(cells) {
        return -1; // the player who just moved made a line
    }
    let xs = cells.iter().filter(|&&c| c == b'X').count();
    let os = cells.iter().filter(|&&c| c == b'O').count();
    let mark = if xs == os { b'X' } else { b'O' };
    let mut best = None;
    for cell in 0..9 {
        if cells[cell] == b'.' {
            cells[cell] = mark;
            let value = -tic_tac_toe(cells);
            cells[cell] = b'.';
            best = Some(best.map_or(value, |best: i64| best.max(value)));
        }
    }
    best.unwrap_or(0)
}

/// Tic-tac-toe's remoteness by its literal rules: how many moves the game lasts from `cells`
/// with the winner hurrying and the loser stalling (`None` for a draw).
fn tic_tac_toe_remoteness(cells: &mut [u8; 9]) -> Option<u64> {
    let value = tic_tac_toe(cells);
    let won = tic_tac_toe_wins(cells, b'X') || tic_tac_toe_wins(cells, b'O');
    if value == 0 {
        return None;
    }
    if won {
        return Some(0);
    }
    let xs = cells.iter().filter(|&&c| c == b'X').count();
    let os = cells.iter().filter(|&&c| c == b'O').count();
    let mark = if xs == os { b'X' } else { b'O' };
    let mut lasts = Vec::new();
    for cell in 0..9 {
        if cells[cell] == b'.' {
            cells[cell] = mark;
            // A winner's remoteness goes through the moves that keep the win.
            if -tic_tac_toe(cells) == value {
                lasts.push(1 + tic_tac_toe_remoteness(cells).unwrap_or(0));
            }
            cells[cell] = b'.';
        }
    }
    if value > 0 {
        lasts.into_iter().min()
    } else {
        lasts.into_iter().max()
    }
}

/// Stone Game II by its literal rules: the most the mover can get over the opponent from pile
/// `next` with `m`.
fn stone_game_ii(piles: &[i64], next: usize, m: usize) -> i64 {
    (1..=(2 * m).min(piles.len() - next))
        .map(|take| {
            let stones: i64 = piles[next..next + take].iter().sum();
            stones - stone_game_ii(piles, next + take, m.max(take))
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn nim_after_random_moves_is_valued_by_the_nim_sum() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..12 {
        let mut heaps: Vec<u64> = (0..1 + rng.below(3)).map(|_| 1 + rng.below(6)).collect();
        let values = heaps
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(",");
        let mut names = Vec::new();
        for _ in 0..rng.below(4) {
            let live: Vec<usize> = (0..heaps.len()).filter(|&k| heaps[k] > 0).collect();
            if live.is_empty() {
                break;
            }
            let heap = live[rng.below(live.len() as u64) as usize];
            let take = 1 + rng.below(heaps[heap]);
            heaps[heap] -= take;
            names.push(format!("{},{take}", heap + 1));
        }
        let after = names.join(";");
        let found = analyze(&["nim", "--after", &after, "--", &values]).unwrap();
        let sum = heaps.iter().fold(0, |sum, heap| sum ^ heap);
        let expected = if heaps.iter().all(|&h| h == 0) || sum == 0 {
            -1
        } else {
            1
        };
        assert_eq!(found["value"], expected, "nim {values} after {after}");
        assert_eq!(found["view"]["kind"], "heaps");
        assert_eq!(found["view"]["heaps"], serde_json::json!(heaps));
        // Every move is named as --after takes it, and that move leads where its value says.
        for mv in found["moves"].as_array().unwrap() {
            let name = mv["name"].as_str().unwrap();
            let deeper = if after.is_empty() {
                name.to_string()
            } else {
                format!("{after};{name}")
            };
            let next = analyze(&["nim", "--after", &deeper, "--", &values]).unwrap();
            assert_eq!(mv["value"], -next["value"].as_i64().unwrap(), "{deeper}");
            assert_eq!(mv["keeps_turn"], false);
        }
    }
}

#[test]
fn tic_tac_toe_after_random_moves_equals_brute_force() {
    let mut rng = Rng(12345);
    for _ in 0..10 {
        let mut cells = [b'.'; 9];
        let mut names = Vec::new();
        let plies = rng.below(6);
        for ply in 0..plies {
            let free: Vec<usize> = (0..9).filter(|&c| cells[c] == b'.').collect();
            let cell = free[rng.below(free.len() as u64) as usize];
            cells[cell] = if ply.is_multiple_of(2) { b'X' } else { b'O' };
            names.push(format!("{},{}", cell / 3 + 1, cell % 3 + 1));
        }
        let after = names.join(";");
        let found = match analyze(&["tic-tac-toe", "--after", &after]) {
            Ok(found) => found,
            // A random line may end the game early: later moves are refused by name.
            Err((code, stderr)) => {
                assert_eq!(code, Some(1), "{stderr}");
                assert!(stderr.contains("is not a legal move there"), "{stderr}");
                continue;
            }
        };
        assert_eq!(found["value"], tic_tac_toe(&mut cells), "after {after}");
        let shown: Vec<u8> = found["view"]["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|cell| cell.as_str().unwrap().bytes().next().unwrap_or(b'.'))
            .collect();
        assert_eq!(shown, cells.to_vec());
        for mv in found["moves"].as_array().unwrap() {
            let cell = (mv["row"].as_u64().unwrap() - 1) * 3 + mv["column"].as_u64().unwrap() - 1;
            let mut child = cells;
            child[cell as usize] = if names.len().is_multiple_of(2) {
                b'X'
            } else {
                b'O'
            };
            assert_eq!(
                mv["value"],
                -tic_tac_toe(&mut child),
                "{after} then {}",
                mv["name"]
            );
        }
    }
}

/// A position given by `--at` where the second player (O) is to move: `to_move` says so and
/// `"result"` names the winner by the literal rules, on random boards.
#[test]
fn tic_tac_toe_at_a_position_names_its_mover_and_the_right_winner() {
    let mut rng = Rng(777);
    let mut seen_o_to_move = 0;
    for _ in 0..16 {
        let mut cells = [b'.'; 9];
        for ply in 0..rng.below(7) {
            let free: Vec<usize> = (0..9).filter(|&c| cells[c] == b'.').collect();
            let cell = free[rng.below(free.len() as u64) as usize];
            cells[cell] = if ply.is_multiple_of(2) { b'X' } else { b'O' };
            if tic_tac_toe_wins(&cells, cells[cell]) {
                break;
            }
        }
        let text = String::from_utf8(cells.to_vec()).unwrap();
        let found = analyze(&["tic-tac-toe", "--at", &text]).unwrap();
        let o_moves = cells.iter().filter(|&&c| c == b'X').count()
            > cells.iter().filter(|&&c| c == b'O').count();
        seen_o_to_move += usize::from(o_moves);
        let value = tic_tac_toe(&mut cells);
        let (mover, other) = if o_moves { ("O", "X") } else { ("X", "O") };
        let result = match value {
            1 => format!("{mover} wins"),
            -1 => format!("{other} wins"),
            _ => "a draw".to_string(),
        };
        let context = format!("at {text}");
        assert_eq!(found["value"], value, "{context}");
        let to_move = if o_moves { "second" } else { "first" };
        assert_eq!(found["to_move"], to_move, "{context}");
        assert_eq!(found["result"], result.as_str(), "{context}");
    }
    assert!(seen_o_to_move > 3, "too few positions with O to move");
}

#[test]
fn tic_tac_toe_moves_last_as_long_as_the_literal_rules_say() {
    let mut rng = Rng(777);
    for _ in 0..10 {
        let mut cells = [b'.'; 9];
        let mut names = Vec::new();
        for ply in 0..rng.below(5) {
            let free: Vec<usize> = (0..9).filter(|&c| cells[c] == b'.').collect();
            let cell = free[rng.below(free.len() as u64) as usize];
            cells[cell] = if ply.is_multiple_of(2) { b'X' } else { b'O' };
            names.push(format!("{},{}", cell / 3 + 1, cell % 3 + 1));
        }
        let after = names.join(";");
        let Ok(found) = analyze(&["tic-tac-toe", "--after", &after]) else {
            continue; // the random line ended the game early
        };
        assert_eq!(
            found["remoteness"].as_u64(),
            tic_tac_toe_remoteness(&mut cells),
            "after {after}"
        );
        let mover = if names.len().is_multiple_of(2) {
            b'X'
        } else {
            b'O'
        };
        assert_eq!(
            found["to_move"],
            if mover == b'X' { "first" } else { "second" }
        );
        assert_eq!(found["players"], serde_json::json!(["X", "O"]));
        for mv in found["moves"].as_array().unwrap() {
            let cell = (mv["row"].as_u64().unwrap() - 1) * 3 + mv["column"].as_u64().unwrap() - 1;
            let mut child = cells;
            child[cell as usize] = mover;
            let after_it = tic_tac_toe_remoteness(&mut child).map(|moves| moves + 1);
            assert_eq!(
                mv["remoteness"].as_u64(),
                after_it,
                "{after} then {}",
                mv["name"]
            );
            // Best: the same outcome, as fast (a win) or as slow (a loss) as the position's.
            let best = mv["value"] == found["value"] && mv["remoteness"] == found["remoteness"];
            assert_eq!(mv["best"], best, "{after} then {}", mv["name"]);
            // No points in tic-tac-toe: the final margin is the outcome, from X's side.
            let sign = if mover == b'X' { 1 } else { -1 };
            assert_eq!(mv["final_margin"], sign * mv["value"].as_i64().unwrap());
        }
    }
}

#[test]
fn stone_game_ii_after_random_moves_tallies_the_points_and_the_final_result() {
    let mut rng = Rng(2024);
    for _ in 0..12 {
        let piles: Vec<i64> = (0..1 + rng.below(8))
            .map(|_| 1 + rng.below(9) as i64)
            .collect();
        let values = piles
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(",");
        // Random legal moves, tallied by hand: (next pile, M, Alice's stones, Bob's, mover).
        let (mut next, mut m, mut points, mut mover) = (0, 1, [0i64; 2], 0);
        let mut names = Vec::new();
        for _ in 0..rng.below(4) {
            if next == piles.len() {
                break;
            }
            let take = 1 + rng.below((2 * m).min(piles.len() - next) as u64) as usize;
            points[mover] += piles[next..next + take].iter().sum::<i64>();
            (next, m, mover) = (next + take, m.max(take), 1 - mover);
            names.push(take.to_string());
        }
        let after = names.join(";");
        let found = analyze(&["stone-game-ii", "--after", &after, "--", &values]).unwrap();
        let context = format!("{values} after {after}");
        assert_eq!(found["players"], serde_json::json!(["Alice", "Bob"]));
        assert_eq!(found["to_move"], ["first", "second"][mover], "{context}");
        assert_eq!(found["points"], serde_json::json!(points), "{context}");
        let sign = if mover == 0 { 1 } else { -1 };
        let value = stone_game_ii(&piles, next, m);
        assert_eq!(found["value"], value, "{context}");
        let margin = points[0] - points[1] + sign * value;
        assert_eq!(found["final_margin"], margin, "{context}");
        let result = match margin.signum() {
            1 => format!("Alice wins by {margin}"),
            -1 => format!("Bob wins by {}", -margin),
            _ => "a tie".to_string(),
        };
        assert_eq!(found["result"], result.as_str(), "{context}");
        for mv in found["moves"].as_array().unwrap() {
            let take: usize = mv["name"].as_str().unwrap().parse().unwrap();
            let stones: i64 = piles[next..next + take].iter().sum();
            assert_eq!(mv["gain"], stones, "{context} then {take}");
            let then = stones - stone_game_ii(&piles, next + take, m.max(take));
            assert_eq!(mv["value"], then, "{context} then {take}");
            assert_eq!(
                mv["final_margin"],
                points[0] - points[1] + sign * then,
                "{context} then {take}"
            );
            assert!(
                mv["words"]
                    .as_str()
                    .unwrap()
                    .contains(&format!("{stones} stones"))
            );
        }
    }
}

#[test]
fn a_move_that_is_not_legal_is_refused_by_name() {
    let (code, stderr) = analyze(&["nim", "--after", "1,1;1,1", "--", "1,2"]).unwrap_err();
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("move 2 of the moves played, '1,1', is not a legal move there")
            && stderr.contains("legal: 2,2; 2,1"),
        "{stderr}"
    );
    let (code, stderr) = analyze(&["connect-four", "--at", "4", "--", "44"]).unwrap_err();
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("not --at"), "{stderr}");
    // Column 4 is full after six stones: the sixth move played is refused, before any search.
    let (code, stderr) =
        analyze(&["connect-four", "--after", "4;4;4;4;4;4", "--", "4"]).unwrap_err();
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("move 6 of the moves played, '4', is not a legal move there"),
        "{stderr}"
    );
}

/// Connect Four on a 4×4 board by its literal rules: the mover's (outcome, remoteness) of
/// `columns` (each bottom-up, 1 for the player who moved first on the empty board, 2 for the
/// other): the winner hurrying, the loser stalling; remoteness `None` for a draw.
fn connect_four_4x4(columns: &mut Vec<Vec<u8>>) -> (i64, Option<u64>) {
    let at = |columns: &Vec<Vec<u8>>, x: i64, y: i64| -> Option<u8> {
        if !(0..4).contains(&x) || y < 0 {
            return None;
        }
        columns[x as usize].get(y as usize).copied()
    };
    let four = |columns: &Vec<Vec<u8>>| {
        (0..4i64).any(|x| {
            (0..4i64).any(|y| {
                let Some(who) = at(columns, x, y) else {
                    return false;
                };
                [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|(dx, dy)| {
                    (1..4).all(|i| at(columns, x + i * dx, y + i * dy) == Some(who))
                })
            })
        })
    };
    if four(columns) {
        return (-1, Some(0)); // the player who just moved made four
    }
    let stones: usize = columns.iter().map(Vec::len).sum();
    let mark = if stones.is_multiple_of(2) { 1 } else { 2 };
    let mut children = Vec::new();
    for column in 0..4 {
        if columns[column].len() < 4 {
            columns[column].push(mark);
            let (value, remote) = connect_four_4x4(columns);
            columns[column].pop();
            children.push((-value, remote));
        }
    }
    let Some(best) = children.iter().map(|(value, _)| *value).max() else {
        return (0, None); // a full board: a draw
    };
    let lasts = children
        .iter()
        .filter(|(value, _)| *value == best)
        .map(|(_, remote)| 1 + remote.unwrap_or(0));
    let remote = match best {
        0 => None,
        1 => lasts.min(),
        _ => lasts.max(),
    };
    (best, remote)
}

#[test]
fn connect_four_moves_and_their_remoteness_match_the_literal_rules() {
    let mut rng = Rng(4444);
    for _ in 0..12 {
        // A random position of 7 to 10 stones on 4×4 that nobody has won yet.
        let mut columns = vec![Vec::new(); 4];
        let mut played = String::new();
        for ply in 0..7 + rng.below(4) {
            let open: Vec<usize> = (0..4).filter(|&c| columns[c].len() < 4).collect();
            let column = open[rng.below(open.len() as u64) as usize];
            columns[column].push(if ply.is_multiple_of(2) { 1 } else { 2 });
            played.push_str(&(column + 1).to_string());
        }
        if connect_four_4x4(&mut columns.clone()).1 == Some(0) {
            continue; // won already
        }
        // Half of the position as VALUE, the rest as --after: the same position.
        let split = played.len() / 2;
        let after: Vec<String> = played[split..].chars().map(String::from).collect();
        let found = match analyze(&[
            "connect-four",
            "--width",
            "4",
            "--height",
            "4",
            "--after",
            &after.join(";"),
            "--",
            &played[..split],
        ]) {
            Ok(found) => found,
            Err((code, stderr)) => {
                // A random line can make four before its end: its later moves are refused.
                assert!(
                    stderr.contains("is not a legal move there"),
                    "{code:?} {stderr}"
                );
                continue;
            }
        };
        let (value, remote) = connect_four_4x4(&mut columns);
        let context = format!("{played} ({split} as the position)");
        assert_eq!(
            found["value"].as_i64().unwrap().signum(),
            value,
            "{context}"
        );
        assert_eq!(found["remoteness"].as_u64(), remote, "{context}");
        assert_eq!(found["view"]["kind"], "columns");
        let mover = if played.len().is_multiple_of(2) {
            "X"
        } else {
            "O"
        };
        let first = if split.is_multiple_of(2) { "X" } else { "O" };
        assert_eq!(found["players"][0], first, "{context}");
        let to_move = if (played.len() - split).is_multiple_of(2) {
            "first"
        } else {
            "second"
        };
        assert_eq!(found["to_move"], to_move, "{context}");
        let index = if to_move == "first" { 0 } else { 1 };
        assert_eq!(found["players"][index], mover, "{context}");
        for mv in found["moves"].as_array().unwrap() {
            let column = mv["column"].as_u64().unwrap() as usize - 1;
            let mut child = columns.clone();
            child[column].push(if played.len().is_multiple_of(2) { 1 } else { 2 });
            let (after, lasts) = connect_four_4x4(&mut child);
            assert_eq!(
                mv["value"].as_i64().unwrap().signum(),
                -after,
                "{context} then {column}"
            );
            assert_eq!(
                mv["remoteness"].as_u64(),
                lasts.map(|moves| moves + 1),
                "{context} then {column}"
            );
        }
    }
}

#[test]
fn every_drawn_game_has_a_view() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["dots-and-boxes", "--after", "0,0-0,1", "--", "1", "2"],
            "dots",
        ),
        (
            &["stone-game-ii", "--after", "2", "--", "2,7,9,4,4"],
            "piles",
        ),
        (&["stone-game", "--", "5,3,4,5"], "piles"),
        (&["stone-game-iii", "--", "1,2,3,7"], "piles"),
        (
            &[
                "cat-and-mouse",
                "--after",
                "3",
                "--",
                "[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]",
            ],
            "graph",
        ),
    ];
    for (args, kind) in cases {
        let found = analyze(args).unwrap();
        assert_eq!(found["view"]["kind"], kind, "{args:?}");
    }
    let dots = analyze(cases[0].0).unwrap();
    assert_eq!(dots["view"]["drawn"], serde_json::json!([[[0, 0], [0, 1]]]));
    let stones = analyze(cases[1].0).unwrap();
    assert_eq!(
        (
            stones["view"]["from"].as_u64(),
            stones["view"]["m"].as_u64()
        ),
        (Some(2), Some(2))
    );
    // Cat and Mouse II: its grid, each cell the mouse can jump to a move by that cell's name.
    let grid = "{\"grid\":[\"####F\",\"#C...\",\"M....\"],\"catJump\":1,\"mouseJump\":2}";
    let found = analyze(&["cat-and-mouse-ii", "--", grid]).unwrap();
    let view = &found["view"];
    assert_eq!(
        (
            view["kind"].as_str(),
            view["rows"].as_u64(),
            view["columns"].as_u64()
        ),
        (Some("grid"), Some(3), Some(5))
    );
    assert_eq!(view["cells"][4], "F");
    assert_eq!(view["cells"][10], "M");
    let named: Vec<&str> = view["move_at"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m.as_str())
        .collect();
    let mut moves: Vec<&str> = found["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    let mut named = named;
    named.sort_unstable();
    moves.sort_unstable();
    assert_eq!(named, moves);
    // A game without a picture of its own: its state as text.
    let found = analyze(&["stone-game-viii", "--", "-1,2,-3,4,-5"]).unwrap();
    assert_eq!(found["view"]["kind"], "text");
    let chase = analyze(cases[4].0).unwrap();
    assert_eq!(
        (
            chase["view"]["mouse"].as_u64(),
            chase["view"]["mover"].as_str()
        ),
        (Some(3), Some("cat"))
    );
}
