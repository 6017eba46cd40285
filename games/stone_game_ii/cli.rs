//! LeetCode 1140, Stone Game II: the most stones Alice can get. Specialised solver: O(n²).

use crate::InputError;
use std::time::Instant;

use crate::games::{StoneGameII, StoneGameIIState, StoneGameIITake, solve_stone_game_ii};
use crate::{
    Limits, Score,
    engines::{Ply, Stats},
};

use crate::cli::args::Cli;
use crate::cli::budget::held;
use crate::cli::model::{Answer, Entry, Failure, Fields, Line, Report};
use crate::cli::present::{Presented, Work, alice_or_bob, integers, piles_view, row};
use crate::cli::serde_json;
use crate::cli::{Bundled, FromValues};

/// Stone Game II on the command line.
pub const GAME: Bundled = Bundled::game::<StoneGameII>(
    "stone-game-ii",
    "LeetCode 1140: the most stones Alice can get",
)
.with_fast(fast);

impl FromValues for StoneGameII {
    const EXAMPLE: &'static str = "2,7,9,4,4";
    const POSITION: Option<&'static str> = Some("'PILE,M': the next pile (from 1) and M");
    fn from_values(values: &[i64]) -> Result<Self, InputError> {
        StoneGameII::new(values.to_vec())
    }
}

/// The specialised O(n²) solver.
fn fast(cli: &Cli, values: Vec<i64>, limits: Limits) -> Result<Report, Failure> {
    let n = values.len();
    let game = StoneGameII::new(values)?;
    // The line takes at least one pile per move.
    let limits = held(
        limits,
        n as u64 * size_of::<StoneGameIITake>() as u64,
        || format!("the optimal line of up to {n} moves"),
    )?;
    let clock = Instant::now();
    let solution = solve_stone_game_ii(&game, limits)?;
    let stats = Stats {
        stored: solution.states(),
        elapsed: clock.elapsed(),
        ..Stats::default()
    };
    let alice = solution.alice_stones();
    Ok(Report {
        n,
        table: "diagonal",
        stats,
        line: Line::lazy(solution.line(), entry),
        ..Report::new(
            cli.game,
            Answer::Number(alice),
            solution.value(),
            headline(&game, alice),
            "fast",
        )
    })
}

impl Presented for StoneGameII {
    fn position(&self, position: &str) -> Result<Self::State, InputError> {
        let n = self.piles().len() as i64;
        match *integers(position)? {
            [pile, _] if pile > n + 1 => Err(InputError::InvalidState(format!(
                "pile {pile} is past the {n} piles (PILE is from 1 to {}, the end)",
                n + 1
            ))),
            [pile, m] if pile >= 1 && m >= 1 => self.state(pile as usize - 1, m as usize),
            _ => Err(InputError::InvalidState(
                "a Stone Game II position is 'PILE,M': the next pile (from 1) and M (at least 1)"
                    .into(),
            )),
        }
    }
    fn answer(&self, value: Score) -> Answer {
        Answer::Number(self.alice_stones(value))
    }
    fn show(&self, state: &StoneGameIIState) -> String {
        let left = &self.piles()[state.next()..];
        let most = (2 * state.m()).min(left.len());
        format!(
            "Piles left (from pile {}): {}\nM = {}: take the next 1 to {most} piles",
            state.next() + 1,
            row(left.iter().copied()),
            state.m()
        )
    }
    fn view(&self, state: &StoneGameIIState) -> serde_json::Value {
        let mut view = piles_view(self.piles(), state.next(), self.piles().len());
        view["m"] = state.m().into();
        view
    }
    fn move_name(&self, _: &StoneGameIIState, piles: &u32) -> String {
        piles.to_string()
    }
    fn move_hint(&self) -> Option<&'static str> {
        Some("how many piles to take")
    }
    fn headline(&self, value: Score) -> String {
        headline(self, self.alice_stones(value))
    }
    const ENTRY_BYTES: u64 = size_of::<StoneGameIITake>() as u64;
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        Line::lazy(self.describe(line), entry)
    }
    /// Each state `(next, M)` without a known value has `2M` moves: about `n³ / 27` in all.
    fn engine_work(&self) -> Option<Work> {
        let n = self.piles().len() as u64;
        let work = (0..n)
            .map(|next| {
                let top = next.max(1).min((n - next).saturating_sub(1) / 2);
                top.saturating_mul(top + 1)
            })
            .fold(0u64, u64::saturating_add);
        Some(Work {
            moves: work,
            faster: Some("--solver fast (O(n²))"),
        })
    }
}

/// A Stone Game II take, as an entry (shared by the engine and the specialised solver).
fn entry(take: &StoneGameIITake) -> Entry {
    let player = alice_or_bob(take.player);
    let piles = if take.piles == 1 {
        format!("pile {}", take.first_pile)
    } else {
        format!(
            "piles {}-{}",
            take.first_pile,
            take.first_pile + take.piles - 1
        )
    };
    let m = if take.m_after == take.m_before {
        format!("M stays {}", take.m_after)
    } else {
        format!("M becomes {}", take.m_after)
    };
    Entry {
        player,
        text: format!(
            "{player} takes {piles} ({} stones; could take 1 to {}); {m}",
            take.stones, take.max_piles
        ),
        fields: Fields::new()
            .with("first_pile", take.first_pile)
            .with("piles", take.piles)
            .with("stones", take.stones)
            .with("m_before", take.m_before)
            .with("m_after", take.m_after),
    }
}

/// Stone Game II's headline, given Alice's stones.
fn headline(game: &StoneGameII, alice: i64) -> String {
    format!(
        "Stone Game II with {} piles ({} stones): Alice can get {alice} stones (Bob {}) with \
         both playing optimally.",
        game.piles().len(),
        game.total(),
        i128::from(game.total()) - i128::from(alice)
    )
}
