//! LeetCode 877, Stone Game: take the first or last pile; who wins.

use crate::InputError;
use crate::games::{End, Interval, StoneGame};
use crate::{Score, engines::Ply};

use super::super::model::{Answer, Entry, Fields, Line};
use super::super::present::{
    Presented, alice_or_bob, end_name, interval_position, piles_view, result, row, winner,
};
use super::super::registry::{Bundled, Engine, Reads, Solves};

/// Stone Game on the command line.
pub const GAME: Bundled = Bundled {
    name: "stone-game",
    about: "LeetCode 877: take the first or last pile; who wins",
    solves: Solves::Engine(Engine {
        reads: Reads::Integers { example: "5,3,4,5" },
        with: |values, task| task.with(&StoneGame::new(values)?),
        check: |values, options, summary| summary.add_dense(&StoneGame::new(values)?, options),
        fast: None,
        tiers: None,
        at: Some("'FIRST,LAST': the piles left, from 1"),
    }),
};

impl Presented for StoneGame {
    fn position(&self, position: &str) -> Result<Self::State, InputError> {
        interval_position(self.piles().len(), position, "piles")
    }
    fn show(&self, state: &Interval) -> String {
        let piles = &self.piles()[state.left as usize..state.right as usize];
        format!("Piles: {}", row(piles.iter().copied()))
    }
    fn view(&self, state: &Interval) -> serde_json::Value {
        piles_view(self.piles(), state.left as usize, state.right as usize)
    }
    fn move_name(&self, _: &Interval, end: &End) -> String {
        end_name(*end).to_string()
    }
    fn answer(&self, value: Score) -> Answer {
        winner(value, "Alice", "Bob", "Tie")
    }
    fn headline(&self, value: Score) -> String {
        format!(
            "Stone Game with {} piles: {} with both playing optimally.",
            self.piles().len(),
            result(value)
        )
    }
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        line.iter()
            .map(|ply| {
                let player = alice_or_bob(ply.player);
                let end = end_name(ply.mv);
                Entry {
                    player,
                    text: format!("{player} takes the {end} pile ({} stones)", ply.gain),
                    fields: Fields::new().with("end", end).with("stones", ply.gain),
                }
            })
            .collect()
    }
}
