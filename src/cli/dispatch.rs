//! A task done with a game: the one generic step between the registry's [`Task`] (a command's
//! request, declared where the games can name it) and the commands that do it. The games'
//! files call `task.with(&game)`; this module stands above every command it calls.

use std::hash::Hash;

use crate::game::Chance;
use crate::game::declaration::{OnChance, declares_chance, visit_chance, visit_index};
use crate::{DenseIndex, Tiered, game::declaration::OnIndex};

use super::model::Failure;
use super::present::Presented;
use super::registry::{Done, Task};
use super::tier_file;

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
            Task::Saved(saved) if tier_file::by_tier_file(saved.cli) => {
                tier_file::with_tier_file(saved.cli, game, saved.params, saved.limits)
                    .map(|report| Done::Report(Box::new(report)))
            }
            task => task.dense(game),
        }
    }

    /// Does the task with `game`: by expectation where it declares chance states
    /// ([`Capabilities::chance`](crate::Capabilities::chance)); else by its dense index where it
    /// declares one ([`Capabilities::dense_index`](crate::Capabilities::dense_index)), else on
    /// hash tables (and `--save`/`--load` refused).
    pub fn with<G>(self, game: &G) -> Result<Done, Failure>
    where
        G: Presented + Sync,
        G::State: Eq + Hash + Send + Sync + std::fmt::Debug,
        G::Move: Send + PartialEq + std::fmt::Debug,
    {
        let declared = game.capabilities();
        if declares_chance(&declared) {
            return visit_chance(&declared, ByChance { task: self, game });
        }
        visit_index(&declared, ByIndex { task: self, game })
    }

    /// Does the task with `game`, which declares no dense index.
    fn hashed<G>(self, game: &G) -> Result<Done, Failure>
    where
        G: Presented + Sync,
        G::State: Eq + Hash + Send + Sync,
        G::Move: Send,
    {
        match self {
            Task::Solve(solve) => solve
                .hashed(game)
                .map(|report| Done::Report(Box::new(report))),
            Task::Saved(saved) if tier_file::loopy_tiered(game) => {
                tier_file::with_tier_file(saved.cli, game, saved.params, saved.limits)
                    .map(|report| Done::Report(Box::new(report)))
            }
            Task::Saved(saved) => {
                let journaled = super::journal::journaled(&saved, game);
                journaled
                    .unwrap_or_else(|| saved.hashed())
                    .map(|report| Done::Report(Box::new(report)))
            }
            Task::Analyze(analyze) => analyze.hashed(game).map(Done::Moves),
            Task::Play(play) => play.hashed(game).map(|()| Done::Played),
        }
    }

    /// Does the task with `game` by its dense index.
    fn dense<G>(self, game: &G) -> Result<Done, Failure>
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

/// A task and its game with chance.
struct ByChance<'a, 't, G> {
    task: Task<'t>,
    game: &'a G,
}

impl<G> OnChance<G> for ByChance<'_, '_, G>
where
    G: Presented + Sync,
    G::State: Eq + Hash + Send + Sync + std::fmt::Debug,
    G::Move: Send + PartialEq + std::fmt::Debug,
{
    type Output = Result<Done, Failure>;

    fn declared(self) -> Self::Output
    where
        G: Chance,
    {
        self.task.with_chance(self.game)
    }

    fn undeclared(self) -> Self::Output {
        visit_index(
            &self.game.capabilities(),
            ByIndex {
                task: self.task,
                game: self.game,
            },
        )
    }
}

/// A task and its game, to be done by the game's declared index.
struct ByIndex<'a, 't, G> {
    task: Task<'t>,
    game: &'a G,
}

impl<G> OnIndex<G> for ByIndex<'_, '_, G>
where
    G: Presented + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    type Output = Result<Done, Failure>;

    fn declared(self) -> Self::Output
    where
        G: DenseIndex,
    {
        self.task.dense(self.game)
    }

    fn undeclared(self) -> Self::Output {
        self.task.hashed(self.game)
    }
}
