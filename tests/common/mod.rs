//! Independent oracles: brute-force players of each game's literal rules, and the known DPs.
//! None of them uses the crate's `Game` implementations. Also a seeded generator and a helper
//! that scores a Stone Game VIII line.

#![allow(dead_code)]

/// Stone Game II by brute force over the literal rules: the most stones Alice can get.
/// Plays the actual piles and tracks whose turn it is; exponential, for n ≤ ~12.
pub fn stone_game_ii_brute_force(piles: &[i64]) -> i64 {
    fn alice(piles: &[i64], m: usize, alice_moves: bool) -> i64 {
        if piles.is_empty() {
            return 0;
        }
        let outcomes = (1..=(2 * m).min(piles.len())).map(|x| {
            let taken: i64 = piles[..x].iter().sum();
            let rest = alice(&piles[x..], m.max(x), !alice_moves);
            if alice_moves { taken + rest } else { rest }
        });
        if alice_moves {
            outcomes.max().unwrap()
        } else {
            outcomes.min().unwrap()
        }
    }
    alice(piles, 1, true)
}

/// The textbook bottom-up DP for Stone Game II: `dp[i][m]` = most stones for the mover.
pub fn stone_game_ii_dp(piles: &[i64]) -> i64 {
    let n = piles.len();
    let mut suffix = vec![0i64; n + 1];
    for i in (0..n).rev() {
        suffix[i] = suffix[i + 1] + piles[i];
    }
    let mut dp = vec![vec![0i64; n + 1]; n + 1];
    for i in (0..n).rev() {
        for m in 1..=n {
            dp[i][m] = if 2 * m >= n - i {
                suffix[i]
            } else {
                let worst = (1..=2 * m).map(|x| dp[i + x][m.max(x)]).min().unwrap();
                suffix[i] - worst
            };
        }
    }
    dp[0][1]
}

/// Stone Game VIII by brute force over the literal rules: Alice's score minus Bob's.
/// Keeps the actual row of stones, removes the leftmost x > 1 and puts their sum back.
pub fn stone_game_viii_brute_force(stones: &[i64]) -> i64 {
    fn value(row: &mut Vec<i64>) -> i64 {
        if row.len() == 1 {
            return 0;
        }
        let mut best = i64::MIN;
        for x in 2..=row.len() {
            let removed: Vec<i64> = row.drain(..x).collect();
            let sum: i64 = removed.iter().sum();
            row.insert(0, sum);
            best = best.max(sum - value(row));
            row.remove(0);
            for (at, stone) in removed.into_iter().enumerate() {
                row.insert(at, stone);
            }
        }
        best
    }
    value(&mut stones.to_vec())
}

/// The known O(n) closed form for Stone Game VIII: from the right, `f = max(f, prefix[i] − f)`.
pub fn stone_game_viii_closed_form(stones: &[i64]) -> i64 {
    let prefix: Vec<i64> = stones
        .iter()
        .scan(0i64, |sum, &stone| {
            *sum += stone;
            Some(*sum)
        })
        .collect();
    let n = stones.len();
    let mut f = prefix[n - 1];
    for i in (1..n - 1).rev() {
        f = f.max(prefix[i] - f);
    }
    f
}

#[test]
fn oracles_agree_with_the_problem_statements() {
    assert_eq!(stone_game_ii_brute_force(&[2, 7, 9, 4, 4]), 10);
    assert_eq!(stone_game_ii_dp(&[2, 7, 9, 4, 4]), 10);
    assert_eq!(stone_game_ii_brute_force(&[1, 2, 3, 4, 5, 100]), 104);
    assert_eq!(stone_game_ii_dp(&[1, 2, 3, 4, 5, 100]), 104);
    for (stones, answer) in [
        (vec![-1, 2, -3, 4, -5], 5),
        (vec![7, -6, 5, 10, 5, -2, -6], 13),
        (vec![-10, -12], -22),
    ] {
        assert_eq!(stone_game_viii_brute_force(&stones), answer);
        assert_eq!(stone_game_viii_closed_form(&stones), answer);
    }
}

/// A small deterministic generator (xorshift), so that a failure repeats with its seed.
pub struct Rng(pub u64);

impl Rng {
    /// The next number below `n` (at least 1).
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// `n` pseudo-random integers in `low..=high` from SplitMix64 with the given seed: the same on
/// every run and machine, with no seed crate.
pub fn random_values(n: usize, seed: u64, low: i64, high: i64) -> Vec<i64> {
    let span = (high - low + 1) as u64;
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            low + ((z ^ (z >> 31)) % span) as i64
        })
        .collect()
}

/// Alice's score minus Bob's along a Stone Game VIII line: what the line claims to realise.
pub fn stone_game_viii_margin(line: &[gamesolver::games::StoneGameVIIITake]) -> i64 {
    line.iter()
        .map(|take| {
            if take.player.is_first() {
                take.gain
            } else {
                -take.gain
            }
        })
        .sum()
}

/// Runs `command` with `stdin` (none: no input) and collects its output. The program may rightly
/// exit (a usage error, a refusal) before it reads its input: a broken pipe is fine.
pub fn output_of(mut command: std::process::Command, stdin: Option<&[u8]>) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = command
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program runs");
    if let Some(bytes) = stdin {
        let written = child.stdin.take().expect("piped").write_all(bytes);
        assert!(
            written.is_ok()
                || written.as_ref().unwrap_err().kind() == std::io::ErrorKind::BrokenPipe,
            "{written:?}"
        );
    }
    child.wait_with_output().expect("the program ends")
}

/// Whether `mark` holds three in a row on a tic-tac-toe board of 9 cells, row by row (by the
/// literal rules, independent of the crate's encoding).
pub fn tic_tac_toe_wins(board: &[u8; 9], mark: u8) -> bool {
    const LINES: [[usize; 3]; 8] = [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [0, 3, 6],
        [1, 4, 7],
        [2, 5, 8],
        [0, 4, 8],
        [2, 4, 6],
    ];
    LINES
        .iter()
        .any(|line| line.iter().all(|&cell| board[cell] == mark))
}

/// Dots and Boxes by the literal rules on dot coordinates, independent of the crate's edge
/// numbering: segments between neighbouring dots, boxes by their corner, the mover keeps the
/// turn after completing a box. Memoized on the drawn segments; returns mover − opponent.
pub fn dots_and_boxes_oracle(rows: usize, columns: usize) -> i64 {
    type Segment = ((usize, usize), (usize, usize));
    let mut segments: Vec<Segment> = Vec::new();
    for r in 0..=rows {
        for c in 0..columns {
            segments.push(((r, c), (r, c + 1)));
        }
    }
    for r in 0..rows {
        for c in 0..=columns {
            segments.push(((r, c), (r + 1, c)));
        }
    }
    let boxes: Vec<[Segment; 4]> = (0..rows)
        .flat_map(|r| (0..columns).map(move |c| (r, c)))
        .map(|(r, c)| {
            [
                ((r, c), (r, c + 1)),
                ((r + 1, c), (r + 1, c + 1)),
                ((r, c), (r + 1, c)),
                ((r, c + 1), (r + 1, c + 1)),
            ]
        })
        .collect();
    fn best(
        drawn: &mut Vec<bool>,
        segments: &[Segment],
        boxes: &[[Segment; 4]],
        memo: &mut std::collections::HashMap<Vec<bool>, i64>,
    ) -> i64 {
        if let Some(&known) = memo.get(drawn) {
            return known;
        }
        let is_drawn = |drawn: &Vec<bool>, segment: &Segment| {
            drawn[segments.iter().position(|s| s == segment).unwrap()]
        };
        let mut result: Option<i64> = None;
        for index in 0..segments.len() {
            if drawn[index] {
                continue;
            }
            let before = boxes
                .iter()
                .filter(|b| b.iter().all(|s| is_drawn(drawn, s)))
                .count();
            drawn[index] = true;
            let after = boxes
                .iter()
                .filter(|b| b.iter().all(|s| is_drawn(drawn, s)))
                .count();
            let completed = (after - before) as i64;
            let rest = best(drawn, segments, boxes, memo);
            drawn[index] = false;
            let value = if completed > 0 {
                completed + rest
            } else {
                -rest
            };
            result = Some(result.map_or(value, |r: i64| r.max(value)));
        }
        let result = result.unwrap_or(0);
        memo.insert(drawn.clone(), result);
        result
    }
    let mut drawn = vec![false; segments.len()];
    best(
        &mut drawn,
        &segments,
        &boxes,
        &mut std::collections::HashMap::new(),
    )
}

/// The path of a Connect Four benchmark set (`Test_L1_R1`, `Test_L2_R1`, `Test_L3_R1`).
///
/// By default the samples kept in the repository (tests/data/connect4: every 4th line of Pascal
/// Pons' published sets, 250 lines each). With `GAMESOLVER_CONNECT4_DIR` set to a folder of the
/// full 1000-line sets (CI sets it to ../shared/bench/connect4), the tests draw from those.
pub fn connect4_set(file: &str) -> String {
    match std::env::var("GAMESOLVER_CONNECT4_DIR") {
        Ok(dir) if !dir.is_empty() => format!("{dir}/{file}"),
        _ => format!("{}/tests/data/connect4/{file}", env!("CARGO_MANIFEST_DIR")),
    }
}

/// The one JSON object `gamesolver ARGS` prints, after checking that it succeeded.
#[cfg(feature = "cli")]
pub fn gamesolver_json(args: &[&str]) -> serde_json::Value {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_gamesolver"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}
