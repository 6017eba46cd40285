//! Nim: the VALUES are the heap sizes; who wins, and a winning move.

use crate::InputError;
use crate::games::Nim;
use crate::{Score, engines::Ply};

use super::super::model::{Answer, Entry, Fields, Line};
use super::super::present::{Presented, alice_or_bob, integers, winner};
use super::super::registry::{Bundled, Engine, Reads, Solves};

/// Nim on the command line.
pub const GAME: Bundled = Bundled {
    name: "nim",
    about: "Nim: the VALUES are the heap sizes; who wins, and a winning move",
    solves: Solves::Engine(Engine {
        reads: Reads::Integers { example: "3 4 5" },
        with: |values, task| task.with(&Nim::new(values)?),
        check: |values, options, summary| summary.add_dense(&Nim::new(values)?, options),
        fast: None,
        tiers: None,
        at: Some("'H1,H2,...': the heaps"),
    }),
};

impl Presented for Nim {
    fn position(&self, position: &str) -> Result<Self::State, InputError> {
        Nim::position(self, &integers(position)?)
    }
    fn show(&self, position: &u64) -> String {
        let heaps: Vec<String> = (0..self.heaps().len())
            .map(|k| format!("heap {}: {}", k + 1, self.heap(*position, k)))
            .collect();
        format!("Heaps: {}", heaps.join(", "))
    }
    fn view(&self, position: &u64) -> serde_json::Value {
        let heaps: Vec<u32> = (0..self.heaps().len())
            .map(|k| self.heap(*position, k))
            .collect();
        serde_json::json!({"kind": "heaps", "heaps": heaps})
    }
    fn move_name(&self, _: &u64, &(heap, take): &(u32, u32)) -> String {
        format!("{},{take}", heap + 1)
    }
    fn move_hint(&self) -> Option<&'static str> {
        Some("HEAP,TAKE: 2,3 takes 3 counters from heap 2")
    }
    fn answer(&self, value: Score) -> Answer {
        winner(value, "Alice", "Bob", "Tie")
    }
    fn headline(&self, value: Score) -> String {
        let who = if value > 0 {
            "Alice (moving first)"
        } else {
            "Bob (moving second)"
        };
        format!(
            "Nim with heaps {:?}: {who} wins with perfect play.",
            self.heaps()
        )
    }
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        line.iter()
            .map(|ply| {
                let player = alice_or_bob(ply.player);
                let (heap, take) = (ply.mv.0 + 1, ply.mv.1);
                let from = self.heap(ply.state, ply.mv.0 as usize);
                Entry {
                    player,
                    text: format!(
                        "{player} takes {take} from heap {heap} ({from} → {})",
                        from - take
                    ),
                    fields: Fields::new().with("heap", heap).with("take", take),
                }
            })
            .collect()
    }
}
