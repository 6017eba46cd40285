//! Six Men's Morris's rules, ranks and symmetries against the literal rules, and its values
//! against one table's retrograde analysis.

use std::collections::BTreeMap;

use super::*;
use crate::engines::retrograde::{self, HashIds, Outcome};
use crate::engines::tiers::KeepTiers;
use crate::engines::tiers::loopy::{self, BySymmetry, EveryState, Options};
use crate::games::next_random;

/// The board's lines, point to point, as drawn: the outer square, the inner one, the joins.
const LINES: [&str; 20] = [
    "a5 c5", "c5 e5", "e5 e3", "e3 e1", "e1 c1", "c1 a1", "a1 a3", "a3 a5", "b4 c4", "c4 d4",
    "d4 d3", "d3 d2", "d2 c2", "c2 b2", "b2 b3", "b3 b4", "c5 c4", "e3 d3", "c1 c2", "a3 b3",
];

/// The mills: the squares' sides.
const MILLS: [&str; 8] = [
    "a5 c5 e5", "e5 e3 e1", "e1 c1 a1", "a1 a3 a5", "b4 c4 d4", "d4 d3 d2", "d2 c2 b2", "b2 b3 b4",
];

/// The points row by row from the top.
const ROWS: [&str; 5] = [
    "a5 c5 e5",
    "b4 c4 d4",
    "a3 b3 d3 e3",
    "b2 c2 d2",
    "a1 c1 e1",
];

/// A position by the literal rules: each point's mark, the hands, the side to move.
#[derive(Clone)]
struct Literal {
    marks: BTreeMap<&'static str, char>,
    hands: [u8; 2],
    mover: usize,
}

impl Literal {
    fn read(text: &str) -> Literal {
        let (head, points) = text.split_once(':').unwrap();
        let head: Vec<char> = head.chars().collect();
        let marks = ROWS
            .iter()
            .flat_map(|row| row.split(' '))
            .zip(points.chars().filter(|&c| c != '/'))
            .collect();
        Literal {
            marks,
            hands: [
                head[1].to_digit(10).unwrap() as u8,
                head[2].to_digit(10).unwrap() as u8,
            ],
            mover: usize::from(head[0] == 'B'),
        }
    }

    fn write(&self) -> String {
        let rows: Vec<String> = ROWS
            .iter()
            .map(|row| row.split(' ').map(|p| self.marks[p]).collect())
            .collect();
        format!(
            "{}{}{}:{}",
            ['W', 'B'][self.mover],
            self.hands[0],
            self.hands[1],
            rows.join("/")
        )
    }

    fn men(&self, mark: char) -> Vec<&'static str> {
        self.marks
            .iter()
            .filter(|(_, m)| **m == mark)
            .map(|(p, _)| *p)
            .collect()
    }

    /// Whether `point` stands in a mill of `mark`'s.
    fn in_mill(&self, point: &str, mark: char) -> bool {
        MILLS.iter().any(|mill| {
            mill.split(' ').any(|p| p == point) && mill.split(' ').all(|p| self.marks[p] == mark)
        })
    }

    /// Every move by the literal rules, as its name and the position after it.
    fn moves(&self, flying: bool) -> Vec<(String, String)> {
        let marks = ['W', 'B'];
        let (mine, theirs) = (marks[self.mover], marks[1 - self.mover]);
        let count = |side: usize| self.men(marks[side]).len() + usize::from(self.hands[side]);
        if count(self.mover) < 3 || count(1 - self.mover) < 3 {
            return Vec::new();
        }
        let empty = self.men('-');
        let mut landings = Vec::new(); // (from, to)
        if self.hands[self.mover] > 0 {
            landings.extend(empty.iter().map(|&to| (None, to)));
        } else {
            let men = self.men(mine);
            for &from in &men {
                for &to in &empty {
                    let joined = LINES.contains(&format!("{from} {to}").as_str())
                        || LINES.contains(&format!("{to} {from}").as_str());
                    if joined || (flying && men.len() == 3) {
                        landings.push((Some(from), to));
                    }
                }
            }
        }
        let mut moves = Vec::new();
        for (from, to) in landings {
            let mut after = self.clone();
            if let Some(from) = from {
                after.marks.insert(from, '-');
            } else {
                after.hands[self.mover] -= 1;
            }
            after.marks.insert(to, mine);
            after.mover = 1 - self.mover;
            let name = match from {
                Some(from) => format!("{from}-{to}"),
                None => to.to_string(),
            };
            let theirs_men = after.men(theirs);
            let free: Vec<_> = theirs_men
                .iter()
                .filter(|p| !after.in_mill(p, theirs))
                .copied()
                .collect();
            let takes = if free.is_empty() { theirs_men } else { free };
            if !after.in_mill(to, mine) || takes.is_empty() {
                moves.push((name, after.write()));
                continue;
            }
            for take in takes {
                let mut taken = after.clone();
                taken.marks.insert(take, '-');
                moves.push((format!("{name}x{take}"), taken.write()));
            }
        }
        moves.sort();
        moves
    }
}

/// Every move, against the literal rules on the drawn board, on positions met in random play
/// with 3 to 7 men, with and without flying; a position without moves is lost.
#[test]
fn moves_follow_the_literal_rules() {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut mills = 0;
    for men in 3..=7 {
        for flying in [true, false] {
            let mut game = SixMensMorris::new(men).unwrap();
            if !flying {
                game = game.without_flying();
            }
            for _ in 0..60 {
                let mut board = game.start();
                for _ in 0..80 {
                    let literal = Literal::read(&game.formal(&board)).moves(flying);
                    let mut ours: Vec<_> = game
                        .moves(&board)
                        .map(|mv| (mv.name(), game.formal(&game.play(&board, &mv).next)))
                        .collect();
                    ours.sort();
                    assert_eq!(ours, literal, "{}", game.formal(&board));
                    mills += ours.iter().filter(|(name, _)| name.contains('x')).count();
                    if ours.is_empty() {
                        assert_eq!(game.payoff(&board), -1, "{}", game.formal(&board));
                        break;
                    }
                    assert_eq!(game.payoff(&board), 0);
                    let pick = next_random(&mut seed) as usize % ours.len();
                    board = game.parse(&ours[pick].1).unwrap();
                }
            }
        }
    }
    assert!(mills > 1000, "random play closes mills ({mills})");
}

/// The image of a position under a map of point names.
fn mapped(game: &SixMensMorris, board: &MorrisBoard, map: impl Fn(&str) -> String) -> MorrisBoard {
    let literal = Literal::read(&game.formal(board));
    let mut image = literal.clone();
    for (point, mark) in &literal.marks {
        let to = map(point);
        let to = ROWS
            .iter()
            .flat_map(|row| row.split(' '))
            .find(|p| *p == to)
            .unwrap();
        image.marks.insert(to, *mark);
    }
    game.parse(&image.write()).unwrap()
}

/// Every rank of three men's tiers round trips; positions of random play with six men round
/// trip, move only to their own tier or later ones within the reach, and share their canonical
/// position with their quarter turn and with the squares swapped.
#[test]
fn ranks_tiers_and_symmetries() {
    let game = SixMensMorris::new(3).unwrap();
    let mut states = 0;
    for tier in 0..game.tier_count() {
        for rank in 0..game.tier_len(tier) {
            let board = game.unrank(tier, rank).unwrap();
            assert_eq!((game.tier(&board), game.rank(&board)), (tier, rank));
            states += 1;
        }
    }
    assert!(states > 300_000);
    let game = SixMensMorris::new(6).unwrap();
    let turn = |p: &str| {
        let (column, row) = (p.as_bytes()[0] - b'a', p.as_bytes()[1] - b'1');
        format!("{}{}", (b'a' + row) as char, (b'1' + 4 - column) as char)
    };
    let swap = |p: &str| {
        let outer = ["a5", "c5", "e5", "e3", "e1", "c1", "a1", "a3"];
        let inner = ["b4", "c4", "d4", "d3", "d2", "c2", "b2", "b3"];
        match outer.iter().position(|o| *o == p) {
            Some(at) => inner[at].to_string(),
            None => outer[inner.iter().position(|i| *i == p).unwrap()].to_string(),
        }
    };
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut kept = 0;
    for _ in 0..200 {
        let mut board = game.start();
        for _ in 0..60 {
            let tier = game.tier(&board);
            assert_eq!(game.unrank(tier, game.rank(&board)), Some(board));
            let canonical = game.canonical(&board);
            assert_eq!(game.canonical(&canonical), canonical);
            assert_eq!(game.canonical(&mapped(&game, &board, turn)), canonical);
            assert_eq!(game.canonical(&mapped(&game, &board, swap)), canonical);
            let moves: Vec<_> = game.moves(&board).collect();
            for mv in &moves {
                let next = game.play(&board, mv).next;
                let to = game.tier(&next);
                assert!(tier <= to && to <= tier + game.tier_reach());
                assert_eq!(tier == to, mv.from.is_some() && mv.take.is_none());
                kept += usize::from(tier == to);
            }
            if moves.is_empty() {
                break;
            }
            board = game
                .play(
                    &board,
                    &moves[next_random(&mut seed) as usize % moves.len()],
                )
                .next;
        }
    }
    assert!(kept > 0);
}

#[test]
fn positions_are_read_and_refused_by_name() {
    let game = SixMensMorris::new(6).unwrap();
    assert_eq!(game.formal(&game.start()), "W66:---/---/----/---/---");
    let board = game.parse("b56: W-- / --- / ---- / --- / ---").unwrap();
    assert_eq!(board.white, 1);
    assert_eq!(game.formal(&board), "B56:W--/---/----/---/---");
    for (bad, says) in [
        ("W66---/---/----/---/---", "no ':'"),
        ("X66:---/---/----/---/---", "not W or B"),
        ("W86:---/---/----/---/---", "a hand holds 0 to 6"),
        ("W66:---/---/----/---", "13 points given"),
        ("W66:--Z/---/----/---/---", "not W, B or -"),
        ("W56:W--/---/----/---/---", "not White's turn"),
        ("W64:---/---/----/---/---", "one more"),
        ("W00:W--/---/----/---/---", "fewer than two"),
        ("W16:WWW/WWW/----/---/---", "more than its 6 men"),
    ] {
        let message = game.parse(bad).unwrap_err().to_string();
        assert!(message.contains(says), "{bad}: {message}");
    }
}

/// Three men a side, with and without flying: every position reachable from the start, by the
/// loopy tier solver (every state, and by symmetry on two threads) against one table's
/// retrograde analysis.
#[test]
fn three_men_agree_with_one_table() {
    for flying in [true, false] {
        let mut game = SixMensMorris::new(3).unwrap();
        if !flying {
            game = game.without_flying();
        }
        let one_table =
            retrograde::solve(&game, HashIds::default(), retrograde::Options::new()).unwrap();
        let options = Options::new().keep(KeepTiers::All);
        let every = loopy::solve(&game, EveryState, options).unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let classes = pool
            .install(|| loopy::par_solve(&game, BySymmetry, options))
            .unwrap();
        assert!(classes.stats().states * 8 < every.stats().states);
        let mut seen = hashbrown::HashSet::new();
        let mut todo = vec![game.start()];
        let mut outcomes = [0usize; 3];
        while let Some(board) = todo.pop() {
            if !seen.insert(board) {
                continue;
            }
            todo.extend(game.moves(&board).map(|mv| game.play(&board, &mv).next));
            let found = one_table.outcome_of(&board).unwrap();
            outcomes[(found.0.value() + 1) as usize] += 1;
            let text = game.formal(&board);
            assert_eq!(every.outcome_of(&board), Some(found), "{text}");
            assert_eq!(classes.outcome_of(&board), Some(found), "{text}");
        }
        assert_eq!(seen.len(), one_table.states());
        assert!(outcomes.iter().all(|&n| n > 0), "{outcomes:?}");
    }
}

/// The checker's tier contract holds, moves within a tier included (the game may cycle).
#[test]
fn the_checker_finds_the_tier_contract_kept() {
    for flying in [true, false] {
        let mut game = SixMensMorris::new(4).unwrap();
        if !flying {
            game = game.without_flying();
        }
        let options = crate::check::CheckOptions {
            cyclic: true,
            max_states: 5_000,
            playouts: 20,
            ..crate::check::CheckOptions::default()
        };
        let report = crate::check::check_tiers(&game, &options);
        assert!(report.is_ok(), "{:?}", report.violations);
        assert!(report.states >= 5_000);
    }
}

/// Six men a side without flying (GamesmanOne's mills game, variant 72, the same rules): the
/// symmetry classes reachable from the start, won, lost and drawn for the side to move, and the
/// longest win, equal to GamesmanOne's figures class for class.
#[test]
fn six_men_without_flying_agree_with_gamesman_one() {
    let game = SixMensMorris::new(6).unwrap().without_flying();
    let options = Options::new().keep(KeepTiers::All);
    let solved = loopy::par_solve(&game, BySymmetry, options).unwrap();
    let start = game.canonical(&game.start());
    let mut seen = hashbrown::HashSet::new();
    seen.insert(start);
    let mut todo = vec![start];
    let mut counts = [0u64; 3];
    let mut longest_win = 0;
    while let Some(board) = todo.pop() {
        let (outcome, remoteness) = solved.outcome_of(&board).unwrap();
        counts[(outcome.value() + 1) as usize] += 1;
        if outcome == Outcome::Win {
            longest_win = longest_win.max(remoteness.unwrap());
        }
        for mv in game.moves(&board) {
            let next = game.canonical(&game.play(&board, &mv).next);
            if seen.insert(next) {
                todo.push(next);
            }
        }
    }
    let [lost, drawn, won] = counts;
    assert_eq!(seen.len(), 2_660_288);
    assert_eq!((won, lost, drawn), (1_467_733, 974_903, 217_652));
    assert_eq!(longest_win, 119);
    assert_eq!(solved.outcome(), Outcome::Draw);
}
