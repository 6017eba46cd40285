//! What the command line needs from a game besides the rules ([`Presented`]): its natural
//! answer, a headline, its optimal line as entries that read as sentences and serialise as
//! JSON, how `play` shows it; and small helpers the games' files share.

use crate::InputError;
use crate::{Declares, Error, Game, Player, Score, Turn, engines::Ply};

use super::model::{Answer, Entry, Fields, Line, Scene, Tally, Valued};

/// What the command line needs from a game besides the rules: how its states and moves read
/// (required: [`show`](Presented::show) and [`move_name`](Presented::move_name)), and how its
/// answer, headline and line read (provided, in terms of the value and the move names; each
/// bundled game words its own).
pub trait Presented: Game + Sized {
    /// About how many bytes one move of [`entries`](Presented::entries) holds.
    const ENTRY_BYTES: u64 = Entry::BYTES;
    /// The answer, from the engine's value of the start: by default, for an outcome game
    /// (`Capabilities::outcome_game`) the winner's name or "Draw", for another the value.
    fn answer(&self, value: Score) -> Answer {
        if outcome_game(self) {
            winner(
                value,
                self.player_name(Player::First),
                self.player_name(Player::Second),
                "Draw",
            )
        } else {
            Answer::Number(value)
        }
    }
    /// One sentence stating the result: by default "With perfect play, " and
    /// [`final_result`](Presented::final_result).
    fn headline(&self, value: Score) -> String {
        format!("With perfect play, {}.", self.final_result(value))
    }
    /// The optimal line in the game's own terms: by default each move as "PLAYER plays MOVE"
    /// (its [`move_name`](Presented::move_name)), with the points it gains where it gains
    /// some and "and moves again" where the player keeps the turn; in JSON
    /// `{"player", "move", "gain"}` (an outcome game's moves gain nothing: no `"gain"`).
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        let scored = !outcome_game(self);
        line.iter()
            .map(|ply| {
                let player = self.player_name(ply.player);
                let name = self.move_name(&ply.state, &ply.mv);
                let mut text = format!("{player} plays {name}");
                if ply.gain != 0 {
                    let unit = if ply.gain.abs() == 1 {
                        "point"
                    } else {
                        "points"
                    };
                    text.push_str(&format!(" ({:+} {unit})", ply.gain));
                }
                if ply.turn == Turn::Keep {
                    text.push_str(", and moves again");
                }
                let mut fields = Fields::new().with("move", name);
                if scored {
                    fields = fields.with("gain", ply.gain);
                }
                Entry {
                    player,
                    text,
                    fields,
                }
            })
            .collect()
    }
    /// The state at `position`, written in the game's terms (`analyze --at`, `play --at`; a
    /// user's game says how it reads in [`FromValues::POSITION`](super::FromValues::POSITION)).
    /// By default the game takes none.
    fn position(&self, position: &str) -> Result<Self::State, InputError> {
        let _ = position;
        Err(InputError::InvalidState(format!(
            "--at takes positions for {}; start this game from its start",
            super::registry::at_names()
        )))
    }
    /// The state as data for a picture (the `view` of `analyze --json`, which `gamesolver
    /// serve`'s page draws): an object whose `"kind"` names the drawing (`"grid"`, `"heaps"`,
    /// `"piles"`, `"dots"`, `"graph"`, `"text"`) and whose other fields are what it draws
    /// (docs/serve.md lists them). By default `{"kind": "text", "text": …}` with the state's
    /// [`show`](Presented::show): the page shows the text and lists the moves by name.
    ///
    /// A row of cells, each a move where one starts (examples/user_tool.rs's Flip Game):
    ///
    /// ```
    /// use gamesolver::cli::serde_json::json;
    /// let view = json!({
    ///     "kind": "grid", "rows": 1, "columns": 4, "cells": ["+", "+", "+", "-"],
    ///     "move_at": ["1", "2", null, null],   // what a click on each cell plays, if anything
    /// });
    /// assert_eq!(view["cells"].as_array().unwrap().len(), 4);
    /// ```
    fn view(&self, state: &Self::State) -> serde_json::Value {
        serde_json::json!({"kind": "text", "text": self.show(state)})
    }
    /// [`view`](Presented::view) when it is `to_move`'s turn (counted from the position
    /// analysed: its mover is [`Player::First`]), for a game whose state does not say whose turn
    /// it is and whose picture depends on it (a board drawn from the mover's side). By default
    /// the view, whatever the turn.
    fn view_for(&self, state: &Self::State, to_move: Player) -> serde_json::Value {
        let _ = to_move;
        self.view(state)
    }
    /// Who `player` is, in the game's words (by default Alice, who moves first, and Bob).
    fn player_name(&self, player: Player) -> &'static str {
        alice_or_bob(player)
    }
    /// The position as `play` shows it before each move (the piles, the board), in lines.
    fn show(&self, state: &Self::State) -> String;
    /// [`show`](Presented::show) when it is `to_move`'s turn (the first player moves at the
    /// position play starts from), for a game whose state does not say whose turn it is. By
    /// default the position as `show` gives it, whatever the turn.
    fn show_for(&self, state: &Self::State, to_move: Player) -> String {
        let _ = to_move;
        self.show(state)
    }
    /// Who moves at `state`, for a game whose positions say whose turn it is (a board with
    /// the side to move, as `--at` gives it): the result `analyze` names is read from that
    /// side's value. By default the first player, who moves at the start.
    fn mover(&self, state: &Self::State) -> Player {
        let _ = state;
        Player::First
    }
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
            // The tie's own word ("Draw", "Tie") as a result: "a draw", "a tie".
            Answer::Winner(who) if margin == 0 => format!("a {}", who.to_lowercase()),
            Answer::Winner(who) => format!("{who} wins"),
            Answer::Number(_) | Answer::Bool(_) | Answer::Real(_) => {
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
    /// an estimate of its time before it starts: the `forecast` module).
    fn engine_work(&self) -> Option<Work> {
        None
    }
    /// The work the tier solver does on this input, where the game knows it.
    fn tier_work(&self) -> Option<Work> {
        None
    }
    /// A small input of the same game for the tier solver to time, so that the forecast knows
    /// how fast this machine solves this game's tiers.
    fn tier_sample(&self) -> Option<Self> {
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
/// analysis when it is small enough ([`RETROGRADE_STATES`](crate::engines::RETROGRADE_STATES)),
/// for the remoteness and a line that wins as fast, and loses as slowly, as it can.
pub(crate) fn outcome_game<G: Game>(game: &G) -> bool {
    game.capabilities().outcome_game()
}

/// The view of a row of piles of which `from..to` are left (the stone games'
/// [`view`](Presented::view)).
pub fn piles_view<T: serde::Serialize>(piles: &[T], from: usize, to: usize) -> serde_json::Value {
    serde_json::json!({"kind": "piles", "piles": piles, "from": from, "to": to})
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

/// A scored game's result from the first player's margin, as Alice and Bob: "Alice wins by 3",
/// "Bob wins by 2", "it is a tie".
///
/// ```
/// use gamesolver::cli::present::result;
/// assert_eq!(result(3), "Alice wins by 3");
/// assert_eq!(result(-2), "Bob wins by 2");
/// assert_eq!(result(0), "it is a tie");
/// ```
pub fn result(value: Score) -> String {
    match value.signum() {
        1 => format!("Alice wins by {value}"),
        -1 => format!("Bob wins by {}", -value),
        _ => "it is a tie".to_string(),
    }
}

/// The integers of a position typed as `3,1` or `3 1`.
pub fn integers(position: &str) -> Result<Vec<i64>, InputError> {
    crate::input::parse_arguments(&[position])
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

/// The state after `names` are played from `state`, each found among the legal moves by its
/// [`move_name`](Presented::move_name) (`analyze --after`), with who moves there (the
/// [`mover`](Presented::mover) of `state`, then each move's turn) and the points each player
/// gained on the way; an unknown or illegal name is an [`InputError::InvalidState`] that
/// says which and lists the legal ones.
pub fn after_moves<G: Presented>(
    game: &G,
    mut state: G::State,
    names: &[&str],
) -> Result<(G::State, Tally), Error> {
    let mut tally = Tally::starting(game.mover(&state));
    let mut moves = Vec::new();
    for (count, name) in names.iter().enumerate() {
        moves.clear();
        game.moves_into(&state, &mut moves);
        let legal: Vec<String> = moves.iter().map(|mv| game.move_name(&state, mv)).collect();
        let Some(at) = legal.iter().position(|legal| legal == name) else {
            let listed = if legal.is_empty() {
                "none: the game is over".to_string()
            } else {
                legal.join("; ")
            };
            return Err(InputError::InvalidState(format!(
                "move {} of the moves played, '{name}', is not a legal move there (legal: {listed})",
                count + 1
            ))
            .into());
        };
        let step = game.play(&state, &moves[at]);
        tally = tally.after(step.gain, step.turn)?;
        state = step.next;
    }
    Ok((state, tally))
}

/// Where the moves played have brought the game: the players' names, `tally`, and the result
/// with perfect play from here and after each of `moves` (whose values are for the player to
/// move, who secures `value`).
pub fn scene<G: Presented>(
    game: &G,
    tally: Tally,
    value: Score,
    moves: &[Valued],
) -> Result<Scene, Error> {
    let final_margin = tally.final_margin(value)?;
    let finals = moves
        .iter()
        .map(|mv| tally.final_margin(mv.value))
        .collect::<Result<_, _>>()?;
    Ok(Scene {
        players: [
            game.player_name(Player::First),
            game.player_name(Player::Second),
        ],
        tally,
        final_margin,
        result: game.final_result(final_margin),
        finals,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Capabilities, Solved, Solver, Step};

    /// Take 1 or 2 counters, a point each; taking 2 keeps the turn. Presented with the
    /// defaults only.
    struct Takes(u32);

    impl Game for Takes {
        type State = u32;
        type Move = u32;
        fn start(&self) -> u32 {
            self.0
        }
        fn moves(&self, left: &u32) -> impl Iterator<Item = u32> {
            (1..=2).filter(move |take| take <= left)
        }
        fn play(&self, left: &u32, take: &u32) -> Step<u32> {
            let turn = if *take == 2 { Turn::Keep } else { Turn::Pass };
            Step {
                next: left - take,
                gain: Score::from(*take),
                turn,
            }
        }
        fn payoff(&self, _: &u32) -> Score {
            0
        }
        fn capabilities(&self) -> impl Declares<Self> {
            Capabilities::none()
        }
    }

    impl Presented for Takes {
        fn show(&self, left: &u32) -> String {
            format!("{left} left")
        }
        fn move_name(&self, _: &u32, take: &u32) -> String {
            take.to_string()
        }
    }

    #[test]
    fn the_defaults_word_a_score_game_from_its_move_names() {
        let game = Takes(3);
        let mut solved = Solver::new(&game).solve().unwrap();
        // Taking 2 and then 1 wins all three points.
        assert_eq!(solved.value(), 3);
        assert_eq!(game.answer(3), Answer::Number(3));
        assert_eq!(game.headline(3), "With perfect play, Alice wins by 3.");
        assert_eq!(game.headline(0), "With perfect play, a tie.");
        let line = game.entries(&solved.line().unwrap());
        let entries: Vec<Entry> = line.entries().map(|entry| entry.into_owned()).collect();
        assert_eq!(
            entries[0].text,
            "Alice plays 2 (+2 points), and moves again"
        );
        assert_eq!(entries[1].text, "Alice plays 1 (+1 point)");
        assert_eq!(
            entries[0].fields,
            Fields::new().with("move", "2").with("gain", 2)
        );
    }
}
