//! The results read from tier files: [`LoopyDatabase`] and [`TierDatabase`] answer as
//! [`Solved`] without solving.

use std::hash::Hash;

use super::Engine;
use super::solved::{Solved, described, loopy_move_values, loopy_not_kept};
use crate::engines::kernel::{MoveValue, Ply, Stats};
use crate::engines::retrograde::Outcome;
use crate::engines::tiers::TierDatabase;
use crate::engines::tiers::loopy::{Classes, LoopyDatabase};
use crate::error::SolveError;
use crate::game::{Score, Tiered};

/// A solved loopy tiered game answered from its tier file.
impl<G, C> Solved<G> for LoopyDatabase<'_, G, C>
where
    G: Tiered,
    G::State: Eq + Hash,
    C: Classes<G>,
{
    fn engine(&self) -> Engine {
        Engine::LoopyTiers
    }

    fn value(&self) -> Score {
        self.outcome_of(&self.game().start())
            .ok()
            .flatten()
            .map_or(0, |found| found.0.value())
    }

    fn start(&self) -> &G::State {
        self.start()
    }

    fn value_of(&mut self, state: &G::State) -> Result<Score, SolveError> {
        Ok(self.held(state)?.0.value())
    }

    fn move_values(&mut self, state: &G::State) -> Result<Vec<MoveValue<G>>, SolveError> {
        let game = self.game();
        let outcomes = self.move_outcomes(state)?.ok_or_else(|| {
            loopy_not_kept(&format!("the moves' values of {}", described(game, state)))
        })?;
        Ok(loopy_move_values(game, state, outcomes))
    }

    fn line(&mut self) -> Result<Vec<Ply<G>>, SolveError> {
        LoopyDatabase::line(self)
    }

    fn swift_line_within(&mut self, _moves: usize) -> Result<Option<Vec<Ply<G>>>, SolveError> {
        LoopyDatabase::line(self).map(Some)
    }

    fn stats(&self) -> Stats {
        Stats::default()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome_of(&self.game().start())
            .ok()
            .flatten()
            .map(|found| found.0)
    }

    fn remoteness(&mut self, state: &G::State) -> Result<Option<u32>, SolveError> {
        Ok(self.held(state)?.1)
    }
}

impl<G: Tiered, C: Classes<G>> LoopyDatabase<'_, G, C> {
    /// The outcome and remoteness of a state the file holds.
    fn held(&self, state: &G::State) -> Result<(Outcome, Option<u32>), SolveError> {
        self.outcome_of(state)?.ok_or_else(|| {
            SolveError::Unanswerable(format!(
                "the tier file {} holds no value for {} (its tier is not in the file yet, or it \
                 is not a position of the game)",
                self.path().display(),
                described(self.game(), state)
            ))
        })
    }
}

/// A game solved by the tier solver, answered from its tier file.
impl<G: Tiered> Solved<G> for TierDatabase<'_, G> {
    fn engine(&self) -> Engine {
        Engine::Tiers
    }

    fn value(&self) -> Score {
        self.value_of(self.start()).ok().flatten().unwrap_or(0)
    }

    fn start(&self) -> &G::State {
        TierDatabase::start(self)
    }

    fn value_of(&mut self, state: &G::State) -> Result<Score, SolveError> {
        TierDatabase::value_of(self, state)?.ok_or_else(|| not_in_file(self, state))
    }

    fn move_values(&mut self, state: &G::State) -> Result<Vec<MoveValue<G>>, SolveError> {
        TierDatabase::move_values(self, state)?.ok_or_else(|| not_in_file(self, state))
    }

    fn line(&mut self) -> Result<Vec<Ply<G>>, SolveError> {
        TierDatabase::line(self)
    }

    fn stats(&self) -> Stats {
        Stats::default()
    }

    fn outcome(&self) -> Option<Outcome> {
        None
    }

    fn remoteness(&mut self, _state: &G::State) -> Result<Option<u32>, SolveError> {
        Ok(None)
    }
}

/// The error for a question about a position whose tier (or a tier its moves lead to) the
/// tier file does not hold.
fn not_in_file<G: Tiered>(database: &TierDatabase<'_, G>, state: &G::State) -> SolveError {
    SolveError::Unanswerable(format!(
        "the tier file {} holds no value for {} or a position it leads to (its tier is not in \
         the file yet, or it is not a position of the game)",
        database.path().display(),
        described(database.game(), state)
    ))
}
