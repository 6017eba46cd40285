//! A task done with a game: the one generic step between the registry's [`Task`] (a command's
//! request, declared where the games can name it) and the commands that do it. The games'
//! files call `task.with(&game)`; this module stands above every command it calls.

use std::hash::Hash;

use crate::{DenseIndex, Tiered};

use super::model::Failure;
use super::present::Presented;
use super::registry::{Done, Task};

impl Task<'_> {
    /// Does the task with `game`, a game layered into tiers: `analyze` and `play` use the tier
    /// solver where the engine's table would not fit.
    pub fn with_tiers<G>(self, game: &G) -> Result<Done, Failure>
    where
        G: Presented + DenseIndex + Tiered + Sync,
        G::State: Eq + Hash + Send + Sync,
        G::Move: Send,
    {
        match self {
            Task::Analyze(analyze) => analyze.with_tiers(game).map(Done::Moves),
            Task::Play(play) => play.with_tiers(game).map(|()| Done::Played),
            task => task.with(game),
        }
    }

    /// Does the task with `game`.
    pub fn with<G>(self, game: &G) -> Result<Done, Failure>
    where
        G: Presented + DenseIndex + Sync,
        G::State: Eq + Hash + Send + Sync,
        G::Move: Send,
    {
        match self {
            Task::Solve(solve) => solve
                .with(game)
                .map(|report| Done::Report(Box::new(report))),
            Task::Saved(saved) => saved
                .with(game)
                .map(|report| Done::Report(Box::new(report))),
            Task::Analyze(analyze) => analyze.with(game).map(Done::Moves),
            Task::Play(play) => play.with(game).map(|()| Done::Played),
        }
    }
}
