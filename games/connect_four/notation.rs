//! Connect Four in words: a position from the columns played, a score's meaning, a board as
//! text.

use super::{Bitboard, ConnectFour, Position};
use crate::InputError;
use crate::game::Score;

impl<B: Bitboard> ConnectFour<B> {
    /// The position reached by playing `moves` from the empty board: column numbers from 1,
    /// one character each (`1`–`9`, then `a`, `b`, … for columns 10 and up, on wide boards).
    /// Refused, naming the move and the column, if a column does not exist or is full, or a
    /// move follows a winning one.
    ///
    /// ```
    /// use gamesolver::games::ConnectFour;
    ///
    /// let game = ConnectFour::new(7, 6).unwrap();
    /// assert_eq!(game.position("4453").unwrap().stones(), 4);
    /// let error = game.position("448").unwrap_err().to_string();
    /// assert_eq!(error, "move 3 (column 8): there is no column 8 on a board 7 columns wide");
    /// ```
    pub fn position(&self, moves: &str) -> Result<Position<B>, InputError> {
        self.position_counted_from(moves, 1)
    }

    /// [`position`](Self::position) for moves written with columns counted from 0 (`0`–`9`,
    /// then `a`, `b`, … for columns 11 and up), as Christophe Steininger's c4 and its test sets
    /// write them.
    ///
    /// ```
    /// use gamesolver::games::ConnectFour;
    ///
    /// let game = ConnectFour::new(9, 5).unwrap();
    /// assert_eq!(game.position_from_zero("4453").unwrap(), game.position("5564").unwrap());
    /// let error = game.position_from_zero("449").unwrap_err().to_string();
    /// assert_eq!(error, "move 3 (column 9): there is no column 9 on a board 9 columns wide (columns 0-8)");
    /// ```
    pub fn position_from_zero(&self, moves: &str) -> Result<Position<B>, InputError> {
        self.position_counted_from(moves, 0)
    }

    /// The position reached by `moves`, whose columns are counted from `first` (0 or 1).
    fn position_counted_from(&self, moves: &str, first: u32) -> Result<Position<B>, InputError> {
        let mut position = Position::EMPTY;
        for (index, symbol) in moves.chars().enumerate() {
            let illegal = |problem: String| InputError::IllegalMove {
                number: index + 1,
                written: format!("column {symbol}"),
                problem,
            };
            let column = match symbol.to_digit(36) {
                Some(number) if number < first => None,
                None => None,
                Some(number) => Some(number - first),
            };
            let Some(column) = column else {
                let digits = if first == 0 { "0-9" } else { "1-9" };
                return Err(illegal(format!(
                    "{symbol:?} is not a column (columns are {digits}, then a, b, c, ...)"
                )));
            };
            if column >= self.width {
                let counted = if first == 0 {
                    format!(" (columns 0-{})", self.width - 1)
                } else {
                    String::new()
                };
                return Err(illegal(format!(
                    "there is no column {symbol} on a board {} columns wide{counted}",
                    self.width
                )));
            }
            if position.won {
                return Err(illegal(
                    "the game was already won by the move before".into(),
                ));
            }
            let cell = self.playable(position.mask) & self.column_cells(column);
            if cell == B::ZERO {
                return Err(illegal(format!("column {symbol} is full")));
            }
            let made = self.winning_cells(position.current | cell, position.mask | cell);
            position = self.drop_stone(&position, column, cell, made);
        }
        Ok(position)
    }

    /// What a score means for the side to move at a position with `stones` stones, in words.
    ///
    /// ```
    /// use gamesolver::games::ConnectFour;
    ///
    /// let game = ConnectFour::new(7, 6).unwrap();
    /// assert_eq!(game.meaning(0, 1), "the first player (to move) wins with its 21st stone");
    /// assert_eq!(game.meaning(3, -18), "the second player (to move) loses: the first player wins with its 4th stone");
    /// assert_eq!(game.meaning(0, 0), "a draw");
    /// ```
    pub fn meaning(&self, stones: usize, score: Score) -> String {
        if score == 0 {
            return "a draw".into();
        }
        let to_move = if stones.is_multiple_of(2) {
            "first"
        } else {
            "second"
        };
        let other = if stones.is_multiple_of(2) {
            "second"
        } else {
            "first"
        };
        let nth = ordinal(self.stones_before_win(stones, score) / 2 + 1);
        if score > 0 {
            format!("the {to_move} player (to move) wins with its {nth} stone")
        } else {
            format!(
                "the {to_move} player (to move) loses: the {other} player wins with its {nth} stone"
            )
        }
    }

    /// The stones on the board before the winning one, when a position of `stones` stones has
    /// score `score` (not 0) for the player to move.
    fn stones_before_win(&self, stones: usize, score: Score) -> Score {
        // The winner moves when the stones before its winning one have its parity.
        let winner_parity = (stones as Score + Score::from(score < 0)) % 2;
        let wanted = |before: Score| before.rem_euclid(2) == winner_parity;
        let magnitude = score.abs();
        [
            self.cells() + 1 - 2 * magnitude,
            self.cells() - 2 * magnitude,
        ]
        .into_iter()
        .find(|&before| wanted(before))
        .unwrap_or(0)
    }

    /// How many moves the game lasts from a position of `stones` stones whose score for the
    /// player to move is `score`, the winning stone included (`None` for a draw): the
    /// remoteness, since a score is won by winning as early, and lost as late, as one can.
    ///
    /// ```
    /// use gamesolver::games::ConnectFour;
    ///
    /// let game = ConnectFour::new(7, 6).unwrap();
    /// // The first player wins with its 21st stone: the 41st of the game.
    /// assert_eq!(game.remoteness(0, 1), Some(41));
    /// // From 3 stones, the first player's 4th stone (the 7th) wins: 4 more moves.
    /// assert_eq!(game.remoteness(3, -18), Some(4));
    /// assert_eq!(game.remoteness(0, 0), None);
    /// ```
    pub fn remoteness(&self, stones: usize, score: Score) -> Option<u32> {
        if score == 0 {
            return None;
        }
        let moves = self.stones_before_win(stones, score) + 1 - stones as Score;
        u32::try_from(moves).ok()
    }

    /// The position's board as text, top row first: `X` for the first player, `O` for the
    /// second, `.` for empty.
    pub fn render(&self, position: &Position<B>) -> String {
        let first = if position.stones.is_multiple_of(2) {
            position.current
        } else {
            position.current ^ position.mask
        };
        let mut text = String::new();
        for row in (0..self.height).rev() {
            for column in 0..self.width {
                let cell = B::bit(column * (self.height + 1) + row);
                text.push(
                    match (position.mask & cell != B::ZERO, first & cell != B::ZERO) {
                        (false, _) => '.',
                        (true, true) => 'X',
                        (true, false) => 'O',
                    },
                );
            }
            text.push('\n');
        }
        text
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, …, `11th`, `21st`.
fn ordinal(number: Score) -> String {
    let suffix = match (number % 10, number % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{number}{suffix}")
}
