//! Six Men's Morris positions as text: written and read, with what makes a position refused.

use super::{Counts, MORRIS_POINTS, MorrisBoard, ROWS, SixMensMorris};
use crate::InputError;

impl SixMensMorris {
    /// The position written as `W66:---/---/----/---/---`: the side to move (`W` or `B`), the
    /// men White and Black hold in hand, then the points row by row from the top, left to right
    /// (`a5 c5 e5 / b4 c4 d4 / a3 b3 d3 e3 / b2 c2 d2 / a1 c1 e1`), as `W`, `B` or `-`.
    pub fn formal(&self, board: &MorrisBoard) -> String {
        let mut text = format!(
            "{}{}{}:",
            if board.black_to_move { 'B' } else { 'W' },
            board.white_hand,
            board.black_hand
        );
        for (at, row) in ROWS.iter().enumerate() {
            if at > 0 {
                text.push('/');
            }
            for &point in *row {
                text.push(match (board.white >> point & 1, board.black >> point & 1) {
                    (1, _) => 'W',
                    (_, 1) => 'B',
                    _ => '-',
                });
            }
        }
        text
    }

    /// Reads a position as [`formal`](SixMensMorris::formal) writes it (`/` and spaces between
    /// the points may be left out, `.` stands for an empty point). A position no game of this
    /// many men reaches is refused, naming why.
    pub fn parse(&self, text: &str) -> Result<MorrisBoard, InputError> {
        let problem = |what: String| {
            InputError::InvalidState(format!(
                "{what}: a six men's morris position is W or B (the side to move), the men White \
                 and Black hold in hand, ':', then the 16 points row by row from the top as W, B \
                 or - ('W{0}{0}:---/---/----/---/---' is the start)",
                self.men
            ))
        };
        let text = text.trim();
        let (head, points) = text
            .split_once(':')
            .ok_or_else(|| problem(format!("{text:?} has no ':' after the hands")))?;
        let head: Vec<char> = head.trim().chars().collect();
        let [turn, white_hand, black_hand] = head[..] else {
            return Err(problem(format!(
                "{:?} is not a side and two hands",
                head.iter().collect::<String>()
            )));
        };
        let black_to_move = match turn.to_ascii_uppercase() {
            'W' => false,
            'B' => true,
            other => {
                return Err(problem(format!(
                    "the side to move is {other:?}, not W or B"
                )));
            }
        };
        let hand = |digit: char| {
            digit
                .to_digit(10)
                .map(|men| men as u8)
                .filter(|&men| men <= self.men)
                .ok_or_else(|| {
                    problem(format!(
                        "{digit:?} men in hand: a hand holds 0 to {}",
                        self.men
                    ))
                })
        };
        let mut board = MorrisBoard {
            white_hand: hand(white_hand)?,
            black_hand: hand(black_hand)?,
            black_to_move,
            ..MorrisBoard::default()
        };
        let marks: Vec<char> = points
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '/')
            .collect();
        if marks.len() != MORRIS_POINTS {
            return Err(problem(format!("{} points given", marks.len())));
        }
        let order = ROWS.iter().flat_map(|row| row.iter().copied());
        for (point, mark) in order.zip(marks) {
            match mark.to_ascii_uppercase() {
                'W' => board.white |= 1 << point,
                'B' => board.black |= 1 << point,
                '-' | '.' => {}
                other => return Err(problem(format!("{other:?} is not W, B or -"))),
            }
        }
        let counts = Counts::of(&board);
        if counts.white_hand + counts.white > self.men
            || counts.black_hand + counts.black > self.men
        {
            return Err(problem(format!(
                "a side has more than its {} men on the board and in hand",
                self.men
            )));
        }
        if counts.black_hand != counts.white_hand && counts.black_hand != counts.white_hand + 1 {
            return Err(problem(
                "White places first, so Black holds as many men in hand as White or one more"
                    .into(),
            ));
        }
        if !counts.moving() && black_to_move != (counts.black_hand > counts.white_hand) {
            let mover = if black_to_move { "Black" } else { "White" };
            return Err(problem(format!(
                "with these hands it is not {mover}'s turn to place"
            )));
        }
        if self.tier_of(counts).is_none() {
            return Err(problem(
                "no game reaches it: a side has fewer than two men on the board and in hand".into(),
            ));
        }
        Ok(board)
    }
}
