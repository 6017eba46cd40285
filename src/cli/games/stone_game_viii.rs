//! LeetCode 1872, Stone Game VIII: Alice's score minus Bob's. The engine solves its stepwise
//! model (O(n) states, but a chain: each waits on the next, which no number of threads
//! shortens); the specialised solver is O(n).

use crate::InputError;
use std::time::Instant;

use crate::games::{
    Literal, StepMove, StepState, Stepwise, StoneGameVIII, StoneGameVIIITake,
    solve_stone_game_viii_with,
};
use crate::{
    Limits, Score,
    engines::{Ply, Stats},
};

use super::super::args::Cli;
use super::super::budget::held;
use super::super::model::{Answer, Entry, Failure, Fields, Line, Report};
use super::super::present::{Presented, alice_or_bob, integers, row};
use super::super::registry::{Bundled, Engine, Reads, Solves};

/// Stone Game VIII on the command line.
pub const GAME: Bundled = Bundled {
    name: "stone-game-viii",
    about: "LeetCode 1872: Alice's score minus Bob's",
    solves: Solves::Engine(Engine {
        reads: Reads::Integers {
            example: "-1,2,-3,4,-5",
        },
        // Analysis and play show the problem's own moves (remove x stones): its literal model,
        // O(n²) moves. Solves (and saved tables) use the stepwise model, O(n).
        with: |values, task| {
            let game = StoneGameVIII::new(values)?;
            match (task.shows_moves(), task.loads()) {
            (false, _) => task.with(&game.stepwise()),
            (true, false) => task.with(&game.literal()),
            (true, true) => Err(Failure::Usage(
                "stone-game-viii's saved tables are of its stepwise model (a move is \"stop\" or \
                 \"one stone more\"), while analyze and play show the problem's own moves: \
                 run them without --load"
                    .into(),
            )),
        }
        },
        // Both models: the literal rules and the stepwise one the engine solves.
        check: |values, options, summary| {
            let game = StoneGameVIII::new(values)?;
            summary.add_dense(&game.literal(), options)?;
            summary.add_dense(&game.stepwise(), options)
        },
        fast: Some(fast),
        tiers: None,
        at: Some("'STONE': the leftmost stone (the one put back last), from 1"),
    }),
};

/// The specialised O(n) solver.
fn fast(cli: &Cli, values: Vec<i64>, limits: Limits) -> Result<Report, Failure> {
    let n = values.len();
    let game = StoneGameVIII::new(values)?;
    let limits = held(
        limits,
        n as u64 * size_of::<StoneGameVIIITake>() as u64,
        || format!("the optimal line of up to {n} moves"),
    )?;
    let clock = Instant::now();
    let solution = solve_stone_game_viii_with(&game, limits)?;
    let stats = Stats {
        elapsed: clock.elapsed(),
        ..Stats::default()
    };
    Ok(Report {
        game: cli.game,
        n,
        answer: Answer::Number(solution.value()),
        value: solution.value(),
        headline: headline(&game, solution.value()),
        solver: "fast",
        table: "none",
        threads: 1,
        stats,
        line: Line::lazy(solution.line(), entry),
        notes: Vec::new(),
        json: None,
        outcome: None,
        helper: None,
        withheld: false,
    })
}

/// Stone Game VIII through its stepwise model, which the engine solves.
impl Presented for Stepwise<'_> {
    fn answer(&self, value: Score) -> Answer {
        Answer::Number(value)
    }
    fn headline(&self, value: Score) -> String {
        headline(self.game(), value)
    }
    const ENTRY_BYTES: u64 = size_of::<StoneGameVIIITake>() as u64;
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        Line::lazy(self.game().describe_stepwise(line), entry)
    }
    fn position(&self, position: &str) -> Result<StepState, InputError> {
        leftmost(self.game(), position).map(|leftmost| StepState { end: leftmost + 1 })
    }
    fn show(&self, state: &StepState) -> String {
        stones_from(self.game(), state.end - 1)
    }
    fn move_name(&self, _: &StepState, mv: &StepMove) -> String {
        match mv {
            StepMove::Stop => "stop".to_string(),
            StepMove::More => "more".to_string(),
        }
    }
}

/// Stone Game VIII as the problem states it (a move takes x ≥ 2 stones): the model `play`
/// offers.
impl Presented for Literal<'_> {
    fn answer(&self, value: Score) -> Answer {
        Answer::Number(value)
    }
    fn headline(&self, value: Score) -> String {
        headline(self.game(), value)
    }
    const ENTRY_BYTES: u64 = size_of::<StoneGameVIIITake>() as u64;
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        let takes = line.iter().map(|ply| StoneGameVIIITake {
            player: ply.player,
            stones: ply.mv as usize,
            gain: ply.gain,
        });
        Line::lazy(takes.collect(), entry)
    }
    fn position(&self, position: &str) -> Result<u32, InputError> {
        leftmost(self.game(), position)
    }
    fn show(&self, leftmost: &u32) -> String {
        stones_from(self.game(), *leftmost)
    }
    fn move_name(&self, _: &u32, stones: &u32) -> String {
        stones.to_string()
    }
    fn move_hint(&self) -> Option<&'static str> {
        Some("how many of the leftmost stones to remove (at least 2)")
    }
}

/// The leftmost stone of a position typed as `STONE` (from 1), from 0.
fn leftmost(game: &StoneGameVIII, position: &str) -> Result<u32, InputError> {
    let n = game.stones().len() as i64;
    match *integers(position)? {
        [stone] if (1..=n).contains(&stone) => Ok(stone as u32 - 1),
        _ => Err(InputError::InvalidState(format!(
            "a Stone Game VIII position is 'STONE': the leftmost stone (the one put back last), \
             from 1 to {n} ({n}: the game is over)"
        ))),
    }
}

/// The row of stones when the leftmost is `leftmost`: it holds the sum of every stone up to
/// it (the stones removed and put back as one).
fn stones_from(game: &StoneGameVIII, leftmost: u32) -> String {
    let stones = game.stones();
    let leftmost = leftmost as usize;
    let merged: i64 = stones[..=leftmost].iter().sum();
    let rest = stones[leftmost + 1..].iter().copied();
    format!(
        "Stones: {}",
        row(std::iter::once(merged)
            .chain(rest)
            .collect::<Vec<_>>()
            .into_iter())
    )
}

/// A Stone Game VIII take, as an entry (shared by the engine and the specialised solver).
fn entry(take: &StoneGameVIIITake) -> Entry {
    let player = alice_or_bob(take.player);
    Entry {
        player,
        text: format!(
            "{player} removes the leftmost {} stones, scoring their sum {}, and puts back a \
             stone of {}",
            take.stones, take.gain, take.gain
        ),
        fields: Fields::new()
            .with("stones", take.stones)
            .with("gain", take.gain),
    }
}

/// Stone Game VIII's headline.
fn headline(game: &StoneGameVIII, value: Score) -> String {
    format!(
        "Stone Game VIII with {} stones: Alice's score minus Bob's is {value} with both \
         playing optimally.",
        game.stones().len()
    )
}
