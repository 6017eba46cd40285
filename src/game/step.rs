//! The words of a move: a [`Score`], whose [`Turn`] comes next, which [`Player`] moves, and
//! the [`Step`] a move makes. Re-exported by `game` and at the crate's root.

/// A score: points, or a difference of points, from the side to move.
///
/// Every score an engine computes lies in `-Score::MAX ..= Score::MAX`, so that negating it never
/// overflows; `Score::MIN` is never a value (the dense tables use it to mark an empty slot). An
/// engine reports [`SolveError::ScoreOverflow`](crate::SolveError::ScoreOverflow) rather than leave that
/// range.
pub type Score = i64;

/// Whether a move hands the turn to the opponent or lets the mover move again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Turn {
    /// The opponent moves next (the usual case).
    Pass,
    /// The same player moves again (an extra turn, as when a box is completed in Dots and Boxes).
    Keep,
}

/// Which player is to move, counted from the start of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Player {
    /// The player who moves first (Alice in the stone games).
    First,
    /// The other player (Bob in the stone games).
    Second,
}

impl Player {
    /// The other player.
    ///
    /// ```
    /// use gamesolver::Player;
    /// assert_eq!(Player::First.opponent(), Player::Second);
    /// ```
    pub fn opponent(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// Whether this is the first player (Alice in the stone games).
    ///
    /// ```
    /// assert!(gamesolver::Player::First.is_first());
    /// ```
    pub fn is_first(self) -> bool {
        self == Player::First
    }

    /// Who moves after `self` plays a move with the given turn rule.
    ///
    /// ```
    /// use gamesolver::{Player, Turn};
    /// assert_eq!(Player::First.after(Turn::Keep), Player::First);
    /// assert_eq!(Player::First.after(Turn::Pass), Player::Second);
    /// ```
    pub fn after(self, turn: Turn) -> Player {
        match turn {
            Turn::Pass => self.opponent(),
            Turn::Keep => self,
        }
    }
}

/// What one move does: where it leads, what the mover gains, and who moves next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step<S> {
    /// The state after the move.
    pub next: S,
    /// The points the mover gains with this move (may be negative).
    pub gain: Score,
    /// Whether the opponent moves next or the mover moves again.
    pub turn: Turn,
}

/// A state's value that a game knows without search, with a witness its own check verifies:
/// what [`Game::decided`](crate::Game::decided) gives proof search, which stops there, and
/// what [`Game::verify_decided`](crate::Game::verify_decided) checks in a proof.
///
/// In Hex the witness is a pairing strategy: cells in pairs, the winner answering the
/// opponent's stone on one cell of a pair with a stone on the other, which keeps the winner's
/// chain whatever the opponent does.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Decided {
    /// The state's exact value for the side to move.
    pub value: Score,
    /// The moves that bear the value out, in groups as the game reads them (Hex: a group per
    /// strategy), each move as its place among the state's moves (in the order
    /// [`Game::moves`](crate::Game::moves) lists them), so that a proof file can hold them as
    /// it holds its replies.
    pub witness: Vec<Vec<usize>>,
}

impl Decided {
    /// How many moves the witness names, in all its groups.
    pub fn witness_len(&self) -> usize {
        self.witness.iter().map(Vec::len).sum()
    }
}
