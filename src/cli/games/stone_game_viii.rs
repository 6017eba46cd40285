//! LeetCode 1872, Stone Game VIII: Alice's score minus Bob's. The engine solves its stepwise
//! model (O(n) states, but a chain: each waits on the next, which no number of threads
//! shortens); the specialised solver is O(n).

use std::time::Instant;

use gamesolver::games::{
    Stepwise, StoneGameVIII, StoneGameVIIITake, solve_stone_game_viii_with,
};
use gamesolver::{AnyValue, Limits, Ply, Score, Stats};

use super::super::args::Cli;
use super::super::present::{Answer, Line, Presented, stone_game_viii_headline};
use super::super::run::{Failure, Report, held};
use super::{Bundled, Engine, Reads, Solves};

/// Stone Game VIII on the command line.
pub const GAME: Bundled = Bundled {
    name: "stone-game-viii",
    about: "LeetCode 1872: Alice's score minus Bob's",
    solves: Solves::Engine(Engine {
        reads: Reads::Integers {
            example: "-1,2,-3,4,-5",
        },
        with: |values, task| task.with(&StoneGameVIII::new(values)?.stepwise()),
        // Both models: the literal rules and the stepwise one the engine solves.
        check: |values, options, summary| {
            let game = StoneGameVIII::new(values)?;
            summary.add_dense(&game.literal(), options)?;
            summary.add_dense(&game.stepwise(), options)
        },
        fast: Some(fast),
        at: None,
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
        headline: stone_game_viii_headline(&game, solution.value()),
        solver: "fast",
        table: "none",
        threads: 1,
        stats,
        line: Line::StoneGameVIII(solution.line()),
        notes: Vec::new(),
        json: None,
    })
}

/// Stone Game VIII through its stepwise model, which the engine solves.
impl Presented for Stepwise<'_> {
    type Range = AnyValue;
    fn answer(&self, value: Score) -> Answer {
        Answer::Number(value)
    }
    fn headline(&self, value: Score) -> String {
        stone_game_viii_headline(self.game(), value)
    }
    const ENTRY_BYTES: u64 = size_of::<StoneGameVIIITake>() as u64;
    fn entries(&self, line: &[Ply<Self>]) -> Line {
        Line::StoneGameVIII(self.game().describe_stepwise(line))
    }
}

