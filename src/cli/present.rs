//! What the command line needs from a game besides the rules ([`Presented`]): its natural
//! answer, a headline, its optimal line as entries that read as sentences and serialise as
//! JSON, how `play` shows it; and small helpers the games' files share.

use gamesolver::games::{End, Interval};
use gamesolver::{Declares, Error, Game, Player, Ply, Score};

use super::model::{Answer, Entry, Line};

/// What the command line needs from a game besides the rules.
pub trait Presented: Game {
    /// About how many bytes one move of [`entries`](Presented::entries) holds.
    const ENTRY_BYTES: u64 = Entry::BYTES;
    /// The answer, from the engine's value of the start.
    fn answer(&self, value: Score) -> Answer;
    /// One sentence stating the result.
    fn headline(&self, value: Score) -> String;
    /// The optimal line in the game's own terms.
    fn entries(&self, line: &[Ply<Self>]) -> Line
    where
        Self: Sized;
    /// The state at `position`, written in the game's terms (`analyze --at`, `play --at`).
    fn position(&self, position: &str) -> Result<Self::State, Error> {
        let _ = position;
        Err(Error::InvalidState(format!(
            "--at takes positions for {}; start this game from its start",
            super::registry::at_names()
        )))
    }
    /// Who `player` is, in the game's words.
    fn player_name(&self, player: Player) -> &'static str {
        alice_or_bob(player)
    }
    /// The position as `play` shows it before each move (the piles, the board), in lines.
    fn show(&self, state: &Self::State) -> String;
    /// The position drawn for `analyze`, for a game whose positions are boards (the rest show
    /// none there: their position is in its text).
    fn board(&self, state: &Self::State) -> Option<String> {
        let _ = state;
        None
    }
    /// A move at `state` as a person types it in `play` (and as `?` lists it): short, and
    /// distinct from the state's other moves.
    fn move_name(&self, state: &Self::State, mv: &Self::Move) -> String;
    /// How a person types a move in `play`, if the moves' names need saying.
    fn move_hint(&self) -> Option<&'static str> {
        None
    }
    /// The result of a finished game whose first player's points minus the second's are
    /// `margin`, as a sentence.
    fn final_result(&self, margin: Score) -> String {
        match self.answer(margin) {
            Answer::Winner(who) if margin == 0 => who.to_string(),
            Answer::Winner(who) => format!("{who} wins"),
            Answer::Number(_) | Answer::Bool(_) => {
                let (first, second) = (
                    self.player_name(Player::First),
                    self.player_name(Player::Second),
                );
                match margin.signum() {
                    1 => format!("{first} wins by {margin}"),
                    -1 => format!("{second} wins by {}", -margin),
                    _ => "a tie".to_string(),
                }
            }
        }
    }
    /// A sentence that says how to read the line's moves, where they need one.
    fn legend(&self) -> Option<&'static str> {
        None
    }
    /// The work the exhaustive engine does to solve this input, where the game knows it (for
    /// an estimate of its time before it starts: [`forecast`](super::forecast)).
    fn engine_work(&self) -> Option<Work> {
        None
    }
    /// The work the tier solver does on this input, where the game knows it.
    fn tier_work(&self) -> Option<Work> {
        None
    }
    /// A small input of the same game for the tier solver to time, so that the forecast knows
    /// how fast this machine solves this game's tiers.
    fn tier_sample(&self) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }
}

/// The work a solve will do, as a game declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Work {
    /// The moves the solver values (the exhaustive engine: each expanded state's moves; the
    /// tier solver: every rank's moves, as `TierStats::moves` counts them).
    pub moves: u64,
    /// A faster way to the same answer, as the user asks for it, if there is one.
    pub faster: Option<&'static str>,
}

/// Whether `game` declares that it is an outcome game (final states won, lost or drawn, no
/// points on the way: `Capabilities::outcome_game`): then `auto` solves it by retrograde
/// analysis when it is small enough ([`RETROGRADE_STATES`](super::engines::RETROGRADE_STATES)),
/// for the remoteness and a line that wins as fast, and loses as slowly, as it can.
pub fn outcome_game<G: Game>(game: &G) -> bool {
    game.capabilities().outcome_game()
}

/// The interval `FIRST,LAST` (from 1, inclusive) of an interval game with `n` values.
pub fn interval_position(n: usize, position: &str, units: &str) -> Result<Interval, Error> {
    match *integers(position)? {
        [first, last] if 1 <= first && first <= last + 1 && last <= n as i64 => Ok(Interval {
            left: first as u32 - 1,
            right: last as u32,
        }),
        _ => Err(Error::InvalidState(format!(
            "a position is 'FIRST,LAST': the {units} left, from 1 to {n} (FIRST = LAST + 1 for \
             none)"
        ))),
    }
}

/// Alice moves first in the stone games and Nim.
pub fn alice_or_bob(player: Player) -> &'static str {
    match player {
        Player::First => "Alice",
        Player::Second => "Bob",
    }
}

/// The winner of a margin (first player's points minus second's).
pub fn winner(
    value: Score,
    first: &'static str,
    second: &'static str,
    tie: &'static str,
) -> Answer {
    Answer::Winner(match value.signum() {
        1 => first,
        -1 => second,
        _ => tie,
    })
}

pub fn result(value: Score) -> String {
    match value.signum() {
        1 => format!("Alice wins by {value}"),
        -1 => format!("Bob wins by {}", -value),
        _ => "it is a tie".to_string(),
    }
}

/// The end's name, as the line and JSON write it.
pub fn end_name(end: End) -> &'static str {
    match end {
        End::Left => "left",
        End::Right => "right",
    }
}

/// The integers of a position typed as `3,1` or `3 1`.
pub fn integers(position: &str) -> Result<Vec<i64>, Error> {
    gamesolver::input::parse_arguments(&[position])
}

/// Values in a row, as `play` shows them: the first 24 and how many more.
pub fn row(values: impl ExactSizeIterator<Item = i64>) -> String {
    const SHOWN: usize = 24;
    let more = values.len().saturating_sub(SHOWN);
    let mut text: Vec<String> = values.take(SHOWN).map(|value| value.to_string()).collect();
    if more > 0 {
        text.push(format!("… ({more} more)"));
    }
    text.join(" ")
}
