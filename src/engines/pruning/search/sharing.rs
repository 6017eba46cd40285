//! The parallel side of the pruning search: a worker's search shares its open states with
//! the other workers of its query, waits for them, and values the moves it takes from them
//! (the module `team` says how).

use std::sync::Arc;

use super::super::split_points::{SplitPoint, Task, Team, pause};
use super::{SPLIT_WORK, Search, child_window, move_value};
use crate::engines::kernel::{RangeSource, RunGuard, Stats};
use crate::error::SolveError;
use crate::game::{Game, Score};
use crate::memo::BoundTable;

impl<G: Game> Search<G> {
    /// A search of a parallel query's worker: it shares its open states with `team`.
    pub(crate) fn on_team(team: Arc<Team<G>>) -> Self {
        Search {
            team: Some(team),
            ..Search::default()
        }
    }

    /// Withdraws the split points of the frames from `first` on (their helpers stop).
    pub(super) fn withdraw_from(&mut self, first: usize) {
        let Some(team) = &self.team else {
            return;
        };
        while let Some((_, split)) = self.splits.pop_if(|(index, _)| *index >= first) {
            team.withdraw(&split);
        }
    }

    /// Publishes the nearest open state worth sharing, for a worker that waits for work: one
    /// whose first move has been searched without a cut-off (the young brothers wait), with
    /// moves nobody has started, and whose moves have cost [`SPLIT_WORK`] states so far.
    /// Nothing if a split point of this search still has moves to take.
    pub(super) fn offer(&mut self, stats: &Stats) {
        let Some(team) = &self.team else {
            return;
        };
        let top = self.frames.len() - 1;
        for index in 0..=top {
            let end = match self.frames.get(index + 1) {
                Some(above) => above.moves_start,
                None => self.moves.len(),
            };
            let frame = &self.frames[index];
            if let Some((_, split)) = self.splits.iter().find(|(shared, _)| *shared == index) {
                if split.has_moves() {
                    return;
                }
                continue;
            }
            if frame.best == Score::MIN
                || frame.next_move >= end
                || end - frame.moves_start > SplitPoint::<G>::MOST_MOVES
                || stats.expanded - frame.opened_at < SPLIT_WORK
            {
                continue;
            }
            let height = self.under.as_ref().map_or(0, |under| under.height + 1) + index;
            let order = self.order[frame.moves_start..end].into();
            let split = Arc::new(SplitPoint::new(
                frame.state.clone(),
                (order, frame.listed),
                (frame.alpha, frame.beta),
                frame.next_move - frame.moves_start,
                height,
                self.under.clone(),
            ));
            team.publish(Arc::clone(&split));
            self.splits.push((index, split));
            return;
        }
    }

    /// Drops the open frames above the nearest split point that a helper's value cut off
    /// (their searches are moot; nothing of theirs is stored); whether there was one. The
    /// split point's frame then takes the helpers' best and closes.
    pub(super) fn unwind(&mut self) -> bool {
        let Some(&(index, _)) = self.splits.iter().find(|(_, split)| split.cut_off()) else {
            return false;
        };
        if let Some(above) = self.frames.get(index + 1) {
            let end = above.moves_start;
            self.withdraw_from(index + 1);
            self.frames.truncate(index + 1);
            self.moves.truncate(end);
            self.order.truncate(end);
            self.steps.truncate(end);
        }
        true
    }

    /// Waits until the helpers of the top frame's split point are done (or one cut it off),
    /// meanwhile taking moves of the split points that they publish (and only theirs, so that
    /// the wait ends when they are done).
    pub(super) fn wait<T: BoundTable<G>, R: RangeSource<G>>(
        &mut self,
        game: &G,
        table: &mut T,
        range: &R,
        stats: &mut Stats,
        guard: RunGuard<'_>,
    ) -> Result<(), SolveError> {
        let (Some(team), Some((_, split))) = (self.team.clone(), self.splits.last().cloned())
        else {
            return Ok(());
        };
        let under = self.under.clone();
        let nested = self
            .nested
            .get_or_insert_with(|| Box::new(Search::on_team(Arc::clone(&team))));
        let going = || {
            guard.cancelled()?;
            if under.as_ref().is_some_and(|under| under.stopped()) {
                return Err(SolveError::Cancelled);
            }
            Ok(!split.settled())
        };
        nested.help_while(&team, Some(&split), going, game, table, range, stats, guard)
    }

    /// Takes the moves that `team`'s workers share (only at split points under `within`, if
    /// given) and values them, while `going` says so; spins while there is none to take.
    /// Counted as a worker waiting for work meanwhile ([`Team::waiting`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn help_while<T: BoundTable<G>, R: RangeSource<G>>(
        &mut self,
        team: &Team<G>,
        within: Option<&SplitPoint<G>>,
        mut going: impl FnMut() -> Result<bool, SolveError>,
        game: &G,
        table: &mut T,
        range: &R,
        stats: &mut Stats,
        guard: RunGuard<'_>,
    ) -> Result<(), SolveError> {
        let mut idle = Some(team.waiting());
        let mut seen = None;
        let mut spins = 0u32;
        while going()? {
            let published = team.publications();
            if seen != Some(published) {
                seen = Some(published);
                if let Some(task) = team.take(within) {
                    idle.take();
                    self.help(task, game, table, range, stats, guard)?;
                    idle = Some(team.waiting());
                    seen = None;
                    continue;
                }
            }
            pause(&mut spins);
        }
        drop(idle);
        Ok(())
    }

    /// Values a move of a split point taken from the team ([`Team::take`]) and brings the
    /// value back to it. A search stopped because the split point no longer needs it brings
    /// nothing and is no error.
    pub(crate) fn help<T: BoundTable<G>, R: RangeSource<G>>(
        &mut self,
        (split, offset, alpha): Task<G>,
        game: &G,
        table: &mut T,
        range: &R,
        stats: &mut Stats,
        guard: RunGuard<'_>,
    ) -> Result<(), SolveError> {
        let value = self.value_move(&split, offset, alpha, game, table, range, stats, guard);
        match value {
            Ok(value) => {
                split.bring(Some(value));
                Ok(())
            }
            Err(SolveError::Cancelled) => {
                split.bring(None);
                Ok(())
            }
            Err(error) => {
                split.bring(None);
                Err(error)
            }
        }
    }

    /// The value of a split point's move (at `offset`) for its mover, searched in the
    /// split point's window from `alpha` up.
    #[allow(clippy::too_many_arguments)]
    fn value_move<T: BoundTable<G>, R: RangeSource<G>>(
        &mut self,
        split: &Arc<SplitPoint<G>>,
        offset: usize,
        alpha: Score,
        game: &G,
        table: &mut T,
        range: &R,
        stats: &mut Stats,
        guard: RunGuard<'_>,
    ) -> Result<Score, SolveError> {
        game.moves_into(&split.state, &mut self.fresh);
        let count = self.fresh.len();
        let mv = self.fresh.drain(..).nth(split.order[offset] as usize);
        self.fresh.clear();
        let (Some(mv), true) = (mv, count == split.listed) else {
            return Err(SolveError::InvalidState(format!(
                "a state had {} moves, then {count}: the game's moves are not determined by \
                 the state (run gamesolver::check on it)",
                split.listed
            )));
        };
        let step = game.play(&split.state, &mv);
        let window = child_window(alpha, split.beta, step.gain, step.turn);
        self.under = Some(Arc::clone(split));
        let child = self.value(game, table, range, &step.next, window, stats, guard);
        self.under = None;
        let (child, exact) = child?;
        move_value(step.gain, step.turn, child, window, exact)
    }
}
