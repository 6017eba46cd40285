//! LeetCode 1406, Stone Game III: take 1 to 3 stones from the front; who wins.

use crate::InputError;
use crate::games::StoneGameIII;
use crate::{Score, engines::Ply};

use super::super::model::{Answer, Entry, Fields, Line};
use super::super::present::{Presented, alice_or_bob, integers, piles_view, result, row, winner};
use super::super::registry::{Bundled, Engine, Reads, Solves};

/// Stone Game III on the command line.
pub const GAME: Bundled = Bundled {
    name: "stone-game-iii",
    about: "LeetCode 1406: take 1 to 3 stones from the front; who wins (Alice, Bob or Tie)",
    solves: Solves::Engine(Engine {
        reads: Reads::Integers { example: "1,2,3,7" },
        with: |values, task| task.with(&StoneGameIII::new(values)?),
        check: |values, options, summary| summary.add_dense(&StoneGameIII::new(values)?, options),
        fast: None,
        tiers: None,
        at: Some("'STONE': the next stone, from 1"),
    }),
};

impl Presented for StoneGameIII {
    fn position(&self, position: &str) -> Result<Self::State, InputError> {
        let n = self.values().len() as i64;
        match *integers(position)? {
            [next] if (1..=n + 1).contains(&next) => Ok(next as u32 - 1),
            _ => Err(InputError::InvalidState(format!(
                "a Stone Game III position is 'STONE': the next stone, from 1 to {} ({} is \
                 the end)",
                n + 1,
                n + 1
            ))),
        }
    }
    fn show(&self, next: &u32) -> String {
        let left = &self.values()[*next as usize..];
        format!(
            "Stones left (from stone {}): {}",
            next + 1,
            row(left.iter().copied())
        )
    }
    fn view(&self, next: &u32) -> serde_json::Value {
        piles_view(self.values(), *next as usize, self.values().len())
    }
    fn move_name(&self, _: &u32, stones: &u32) -> String {
        stones.to_string()
    }
    fn move_hint(&self) -> Option<&'static str> {
        Some("how many stones to take from the front")
    }
    fn answer(&self, value: Score) -> Answer {
        winner(value, "Alice", "Bob", "Tie")
    }
    fn headline(&self, value: Score) -> String {
        format!(
            "Stone Game III with {} stones: {} with both playing optimally.",
            self.values().len(),
            result(value)
        )
    }
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        line.iter()
            .map(|ply| {
                let player = alice_or_bob(ply.player);
                let first = ply.state + 1;
                Entry {
                    player,
                    text: format!(
                        "{player} takes {} stone{} from stone {first} (worth {})",
                        ply.mv,
                        if ply.mv == 1 { "" } else { "s" },
                        ply.gain
                    ),
                    fields: Fields::new()
                        .with("first_stone", first)
                        .with("stones", ply.mv)
                        .with("gain", ply.gain),
                }
            })
            .collect()
    }
}
