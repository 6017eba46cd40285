//! The optimal line: from a state whose value is known, a move that keeps it at every state,
//! each proved by one null-window search of its child.

use std::time::Instant;

use super::Pruner;
use crate::engines::kernel::limits::reserve_within;
use crate::engines::kernel::{Ply, RangeSource, child_value};
use crate::error::SolveError;
use crate::game::{Game, Player, Score, Turn};
use crate::memo::BoundTable;

impl<G: Game, T: BoundTable<G>, R: RangeSource<G>> Pruner<'_, G, T, R> {
    /// An optimal line of play from `state` (with `player` to move) to a state with no move:
    /// at each state, the first move in the game's order that keeps the state's value, each
    /// move tried proved or refuted by one null-window search of its child. Which of equally
    /// good moves the line takes depends on the game alone (not on the searches before, nor
    /// their threads, nor the order the search tried the moves in): it is the exhaustive
    /// engine's line.
    pub fn line_from(
        &mut self,
        state: &G::State,
        player: Player,
    ) -> Result<Vec<Ply<G>>, SolveError> {
        self.line_valued(state, player, None)
    }

    /// [`line_from`](Self::line_from), where `known` is the value of `state` if it is known. Only
    /// the first state's value is ever searched for: a move that keeps a state's value is worth
    /// exactly that value (no move is worth more), so the value of the state it leads to follows
    /// from its gain and turn.
    pub(super) fn line_valued(
        &mut self,
        state: &G::State,
        player: Player,
        known: Option<Score>,
    ) -> Result<Vec<Ply<G>>, SolveError> {
        let mut line = Vec::new();
        let mut state = state.clone();
        let mut player = player;
        let mut known = known;
        loop {
            let mut moves = std::mem::take(&mut self.scratch);
            moves.clear();
            self.game.moves_into(&state, &mut moves);
            if moves.is_empty() {
                self.scratch = moves;
                return Ok(line);
            }
            let value = match known {
                Some(value) => value,
                None => self.value_of(&state)?,
            };
            let mut chosen = None;
            for mv in &moves {
                let step = self.game.play(&state, mv);
                if self.keeps(&step.next, step.gain, step.turn, value)? {
                    chosen = Some((mv.clone(), step));
                    break;
                }
            }
            self.scratch = moves;
            let Some((mv, step)) = chosen else {
                return Err(SolveError::InvalidState(format!(
                    "no move of a state on the line reaches the state's value {value}: the \
                     game's moves or values are not deterministic (run gamesolver::check on it)"
                )));
            };
            let (held, plies) = (self.table.peak_bytes(0), line.len());
            reserve_within(&mut line, held, self.options.limits.memory_budget, || {
                format!("the optimal line ({plies} moves so far)")
            })?;
            // The move is worth `value`: its child's value follows.
            known = Some(child_value(step.gain, step.turn, value)?);
            line.push(Ply {
                player,
                state,
                mv,
                gain: step.gain,
                turn: step.turn,
                value,
            });
            player = player.after(step.turn);
            state = step.next;
        }
    }

    /// Whether a move (to `next`, with `gain` and `turn`) is worth `value` or more to its mover.
    fn keeps(
        &mut self,
        next: &G::State,
        gain: Score,
        turn: Turn,
        value: Score,
    ) -> Result<bool, SolveError> {
        // Pass: gain − v(next) ≥ value ⇔ v(next) ≤ gain − value. Keep: v(next) ≥ value − gain.
        let (gain, value) = (i128::from(gain), i128::from(value));
        let max = i128::from(Score::MAX);
        let (threshold, at_most) = match turn {
            Turn::Pass => (gain - value, true),
            Turn::Keep => (value - gain, false),
        };
        if threshold > max || threshold < -max {
            return Ok((threshold > max) == at_most);
        }
        let threshold = threshold as Score;
        // Decide `v ≤ t` with the window (t, t + 1) and `v ≥ t` with (t − 1, t), staying in
        // range at the ends (where the answer is already known).
        let clock = Instant::now();
        let guard = self.guard();
        if threshold == if at_most { Score::MAX } else { -Score::MAX } {
            return Ok(true);
        }
        let (alpha, beta) = if at_most {
            (threshold, threshold + 1)
        } else {
            (threshold - 1, threshold)
        };
        let result = self.search.window(
            self.game,
            &mut self.table,
            &self.options.range,
            next,
            alpha,
            beta,
            &mut self.stats,
            guard,
        );
        self.stats.elapsed += clock.elapsed();
        let result = result?;
        Ok(if at_most {
            result <= threshold
        } else {
            result >= threshold
        })
    }
}
