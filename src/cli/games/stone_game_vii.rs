//! LeetCode 1690, Stone Game VII: remove an end stone, score the rest; Alice's score minus
//! Bob's.

use crate::InputError;
use crate::games::{End, Interval, StoneGameVII};
use crate::{Score, engines::Ply};

use super::super::model::{Answer, Entry, Fields, Line};
use super::super::present::{
    Presented, Work, alice_or_bob, end_name, interval_position, piles_view, row,
};
use super::super::registry::{Bundled, Engine, Reads, Solves};

/// Stone Game VII on the command line.
pub const GAME: Bundled = Bundled {
    name: "stone-game-vii",
    about: "LeetCode 1690: remove an end stone, score the rest; Alice's score minus Bob's",
    solves: Solves::Engine(Engine {
        reads: Reads::Integers {
            example: "5,3,1,4,2",
        },
        with: |values, task| task.with(&StoneGameVII::new(values)?),
        check: |values, options, summary| summary.add_dense(&StoneGameVII::new(values)?, options),
        fast: None,
        tiers: None,
        at: Some("'FIRST,LAST': the stones left, from 1"),
    }),
};

impl Presented for StoneGameVII {
    /// Every interval of two stones or more has two moves, a single stone one: `n + n(n − 1)`.
    fn engine_work(&self) -> Option<Work> {
        let n = self.piles().len() as u64;
        Some(Work {
            moves: n.saturating_add(n.saturating_mul(n.saturating_sub(1))),
            faster: None,
        })
    }
    fn position(&self, position: &str) -> Result<Self::State, InputError> {
        interval_position(self.piles().len(), position, "stones")
    }
    fn show(&self, state: &Interval) -> String {
        let stones = &self.piles()[state.left as usize..state.right as usize];
        format!("Stones: {}", row(stones.iter().copied()))
    }
    fn view(&self, state: &Interval) -> serde_json::Value {
        piles_view(self.piles(), state.left as usize, state.right as usize)
    }
    fn move_name(&self, _: &Interval, end: &End) -> String {
        end_name(*end).to_string()
    }
    fn answer(&self, value: Score) -> Answer {
        Answer::Number(value)
    }
    fn headline(&self, value: Score) -> String {
        format!(
            "Stone Game VII with {} stones: Alice's score minus Bob's is {value} with both \
             playing optimally.",
            self.piles().len()
        )
    }
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        line.iter()
            .map(|ply| {
                let player = alice_or_bob(ply.player);
                let end = end_name(ply.mv);
                let stone = match ply.mv {
                    End::Left => self.piles()[ply.state.left as usize],
                    End::Right => self.piles()[ply.state.right as usize - 1],
                };
                Entry {
                    player,
                    text: format!(
                        "{player} removes the {end} stone ({stone}), scoring the {} left",
                        ply.gain
                    ),
                    fields: Fields::new()
                        .with("end", end)
                        .with("stone", stone)
                        .with("gain", ply.gain),
                }
            })
            .collect()
    }
}
