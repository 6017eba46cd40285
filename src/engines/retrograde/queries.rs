//! The questions a retrograde solution answers: outcomes, remoteness, every move's outcome, the
//! line in which the winner wins as fast and the loser loses as slowly as it can.

use super::ids::fallible;
use super::propagation::keep_bit;
use super::*;

impl<'g, G, I> Retrograde<'g, G, I>
where
    G: Game,
    I: StateIds<G>,
{
    /// The heap bytes held so far, and the bytes the rest of the solve will add per state and
    /// per move (outcome, remoteness, counts and the reverse edges).
    pub(super) fn bytes(&self) -> u64 {
        let state = size_of::<G::State>() as u64;
        let map = self.ids.bytes();
        let states = self.states.capacity() as u64 * state;
        let arrays =
            (self.degree.capacity() + self.first.capacity() + self.children.capacity()) as u64 * 4;
        map + states + arrays
    }

    /// The bytes still to come once `states` and `moves` are known: outcome (1), remoteness
    /// (4), count (4) and, with stored moves, the reverse index (4) per state and a reverse
    /// move (4) per move.
    pub(super) fn later_bytes(states: usize, moves: usize) -> u64 {
        states as u64 * 13 + moves as u64 * 4
    }

    pub(super) fn check(
        &self,
        limits: Limits,
        clock: Instant,
        what: &str,
    ) -> Result<(), SolveError> {
        let needed = self
            .bytes()
            .saturating_add(Self::later_bytes(self.states.len(), self.children.len()));
        if needed > limits.memory_budget {
            return Err(SolveError::MemoryBudget {
                what: format!(
                    "retrograde analysis of {} states and {} moves ({what})",
                    self.states.len(),
                    self.children.len()
                ),
                needed,
                budget: limits.memory_budget,
            });
        }
        if let Some(progress) = limits.progress {
            progress.go_on()?;
        }
        if let Some(limit) = limits.time_limit
            && clock.elapsed() > limit
        {
            return Err(SolveError::TimeLimit {
                limit,
                progress: format!("{} states discovered, {what}", self.states.len()),
            });
        }
        if let Some(progress) = limits.progress {
            progress.record(self.states.len() as u64, self.bytes());
        }
        Ok(())
    }

    /// Numbers every state reachable from the start (in breadth-first order) and records its
    /// moves as child numbers; checks the outcome-game contract on the way.
    pub(super) fn discover(
        game: &'g G,
        ids: I,
        limits: Limits,
        clock: Instant,
        store: bool,
    ) -> Result<Self, SolveError> {
        let mut solved = Retrograde {
            game,
            ids,
            start: 0,
            degree: Vec::new(),
            states: Vec::new(),
            first: Vec::new(),
            children: Vec::new(),
            outcome: Vec::new(),
            remoteness: Vec::new(),
            stats: RetroStats::default(),
        };
        let start = game.start();
        solved.ids.id_or(game, &start, 0);
        solved.states.push(start);
        let mut moves = Vec::new();
        let mut next = 0;
        while next < solved.states.len() {
            if next % 4096 == 0 {
                solved.check(limits, clock, "discovering the states")?;
            }
            let state = solved.states[next].clone();
            let others = solved.bytes() - solved.degree.capacity() as u64 * 4;
            reserve_within(&mut solved.degree, others, limits.memory_budget, || {
                "the retrograde solver's move counts".into()
            })?;
            if store {
                let others = solved.bytes() - solved.first.capacity() as u64 * 4;
                reserve_within(&mut solved.first, others, limits.memory_budget, || {
                    "the retrograde solver's move index".into()
                })?;
                solved.first.push(solved.children.len() as u32);
            }
            moves.clear();
            game.moves_into(&state, &mut moves);
            solved.degree.push(moves.len() as u32);
            if store && solved.children.capacity() - solved.children.len() < moves.len() {
                let others = solved.bytes() - solved.children.capacity() as u64 * 4;
                let grown =
                    (solved.children.capacity() * 2).max(solved.children.len() + moves.len());
                crate::engines::kernel::limits::growth_fits(
                    others,
                    solved.children.capacity() as u64 * 4,
                    grown as u64 * 4,
                    limits.memory_budget,
                    &|| "the retrograde solver's moves".into(),
                )?;
                solved
                    .children
                    .try_reserve_exact(grown - solved.children.len())
                    .map_err(|_| SolveError::Allocation {
                        what: "the retrograde solver's moves".into(),
                        bytes: grown as u64 * 4,
                    })?;
            }
            if moves.is_empty() {
                let payoff = game.payoff(&state);
                if !(-1..=1).contains(&payoff) {
                    return Err(SolveError::InvalidGame(format!(
                        "a final state pays {payoff}, but an outcome game's final states pay \
                         +1 (won), -1 (lost) or 0 (drawn) to the side to move"
                    )));
                }
                solved.stats.finals += 1;
            }
            for mv in &moves {
                let step = game.play(&state, mv);
                if step.gain != 0 {
                    return Err(SolveError::InvalidGame(format!(
                        "a move gains {} points, but an outcome game's moves gain none (the \
                         result is the final state's payoff)",
                        step.gain
                    )));
                }
                let fresh = solved.states.len();
                let (child, new) = solved.ids.id_or(game, &step.next, fresh as u32);
                if new {
                    if fresh >= MAX_STATES {
                        return Err(SolveError::InvalidGame(format!(
                            "more than {MAX_STATES} reachable states: past what the \
                             retrograde solver numbers"
                        )));
                    }
                    // Grown within the budget (checked every 4096 states, with the numbering's
                    // share counted in `bytes`).
                    reserve_within(&mut solved.states, 0, u64::MAX, || {
                        "the retrograde solver's states".into()
                    })?;
                    solved.states.push(step.next);
                }
                if store {
                    solved.children.push(keep_bit(child, step.turn));
                }
            }
            next += 1;
        }
        if store {
            solved.first.push(solved.children.len() as u32);
        }
        solved.check(limits, clock, "all discovered")?;
        Ok(solved)
    }

    /// The reverse edges, as compact arrays: state `s`'s predecessors (with the keep bit of the
    /// move) are `preds[preds_first[s]..preds_first[s + 1]]`.
    pub(super) fn reverse(&self) -> Result<(Vec<u32>, Vec<u32>), SolveError> {
        let n = self.states.len();
        let mut preds_first = fallible(n + 1, 0u32)?;
        for &child in &self.children {
            preds_first[(child & !KEEP) as usize + 1] += 1;
        }
        for index in 0..n {
            preds_first[index + 1] += preds_first[index];
        }
        let mut preds = fallible(self.children.len(), 0u32)?;
        let mut fill = preds_first.clone();
        for parent in 0..n {
            for &child in self.children_of(parent) {
                let slot = &mut fill[(child & !KEEP) as usize];
                preds[*slot as usize] = parent as u32 | (child & KEEP);
                *slot += 1;
            }
        }
        Ok((preds_first, preds))
    }

    pub(super) fn children_of(&self, state: usize) -> &[u32] {
        &self.children[self.first[state] as usize..self.first[state + 1] as usize]
    }

    /// The final states, decided (remoteness 0), and every other state's count of undecided
    /// children.
    pub(super) fn finals(&mut self) -> (Vec<u32>, Vec<u32>) {
        let n = self.states.len();
        self.outcome = vec![UNDECIDED; n];
        self.remoteness = vec![NONE; n];
        let mut frontier = Vec::new();
        let counts = self.degree.clone();
        for (state, &degree) in counts.iter().enumerate() {
            if degree == 0 {
                let payoff = self.game.payoff(&self.states[state]);
                self.outcome[state] = payoff as i8;
                if payoff != 0 {
                    self.remoteness[state] = 0;
                    frontier.push(state as u32);
                }
            }
        }
        (frontier, counts)
    }

    /// What is still undecided is a draw; the statistics.
    pub(super) fn finish(&mut self, clock: Instant, levels: u32) {
        self.stats.levels = levels;
        for outcome in &mut self.outcome {
            if *outcome == UNDECIDED {
                *outcome = DRAW;
            }
        }
        if self.stats.states == 0 {
            self.stats.states = self.states.len();
        }
        if self.stats.moves == 0 {
            self.stats.moves = self.degree.iter().map(|&moves| moves as usize).sum();
        }
        self.stats.bytes = self.bytes() + self.outcome.len() as u64 * 5;
        self.stats.elapsed = clock.elapsed();
    }

    pub(super) fn id(&self, state: &G::State) -> Option<usize> {
        self.ids.id(self.game, state).map(|id| id as usize)
    }

    pub(super) fn result(&self, id: usize) -> (Outcome, Option<u32>) {
        let remoteness = self.remoteness[id];
        (
            Outcome::of(self.outcome[id]),
            (remoteness != NONE).then_some(remoteness),
        )
    }

    /// The game.
    pub fn game(&self) -> &'g G {
        self.game
    }

    /// Each state's value for its side to move (+1, 0 or −1) in the order of the game's dense
    /// index, `None` for an index no reachable state has, where states are numbered by the
    /// dense index ([`DenseIds`]); `None` otherwise.
    ///
    /// ```
    /// use gamesolver::{engines::retrograde, games::Nim};
    ///
    /// let game = Nim::new(vec![1, 2]).unwrap();
    /// let ids = retrograde::DenseIds::for_game(&game);
    /// let solved = retrograde::solve(&game, ids, retrograde::Options::new()).unwrap();
    /// let values: Vec<_> = solved.values_by_index().unwrap().collect();
    /// assert_eq!(values.len(), 6); // (1 + 1) × (2 + 1) positions
    /// assert_eq!(values[5], Some(1)); // the start, 1 ^ 2 ≠ 0: won
    /// assert_eq!(values[0], Some(-1)); // no counter left: lost
    /// ```
    pub fn values_by_index(&self) -> Option<crate::memo::SlotValues<'_>> {
        let ids = self.ids.by_index()?;
        Some(Box::new(
            ids.map(|id| id.map(|id| self.result(id as usize).0.value())),
        ))
    }

    /// The start's outcome for the first player.
    pub fn outcome(&self) -> Outcome {
        self.result(self.start).0
    }

    /// The start's remoteness: how many moves the game lasts with the winner winning as fast
    /// as it can and the loser losing as slowly as it can; `None` for a draw.
    pub fn remoteness(&self) -> Option<u32> {
        self.result(self.start).1
    }

    /// A state's outcome for its side to move and its remoteness; `None` if the state cannot
    /// be reached from the start.
    pub fn outcome_of(&self, state: &G::State) -> Option<(Outcome, Option<u32>)> {
        self.id(state).map(|id| self.result(id))
    }

    /// Every move of `state` with the outcome it leads to for the mover and the remoteness
    /// after it (so the move itself adds one); `None` if the state cannot be reached.
    #[allow(clippy::type_complexity)]
    pub fn move_outcomes(&self, state: &G::State) -> Option<Vec<(G::Move, Outcome, Option<u32>)>> {
        let id = self.id(state)?;
        let mut moves = Vec::new();
        self.game.moves_into(state, &mut moves);
        let looked_up: Vec<u32>;
        let children = if self.first.is_empty() {
            // Not stored (the game gives its predecessors): looked up again.
            looked_up = moves
                .iter()
                .map(|mv| {
                    let step = self.game.play(state, mv);
                    let child = self
                        .ids
                        .id(self.game, &step.next)
                        .expect("discovery numbers every child of a reachable state");
                    keep_bit(child, step.turn)
                })
                .collect();
            &looked_up[..]
        } else {
            self.children_of(id)
        };
        let valued = moves
            .into_iter()
            .zip(children)
            .map(|(mv, &child)| {
                let (outcome, remoteness) = self.result((child & !KEEP) as usize);
                let seen = if child & KEEP != 0 {
                    outcome
                } else {
                    outcome.flipped()
                };
                (mv, seen, remoteness)
            })
            .collect();
        Some(valued)
    }

    /// The first move of `state` (in the game's order) that keeps its outcome at its
    /// remoteness: for a win, a move to a lost position one move nearer the end; for a loss,
    /// a move that loses as slowly as possible; for a draw, a move to a drawn position.
    /// `None` for a final or unreachable state.
    pub fn best_move(&self, state: &G::State) -> Option<G::Move> {
        let id = self.id(state)?;
        let (outcome, remoteness) = self.result(id);
        let wanted = remoteness.and_then(|r| r.checked_sub(1));
        self.move_outcomes(state)?
            .into_iter()
            .find(|(_, seen, after)| {
                *seen == outcome && (outcome == Outcome::Draw || *after == wanted)
            })
            .map(|(mv, _, _)| mv)
    }

    /// The optimal line from the start: best moves to the end of the game, or, for a draw,
    /// until a state repeats (the line's last move returns to a state on it).
    pub fn line(&self) -> Vec<Ply<G>> {
        let mut line = Vec::new();
        let mut seen = hashbrown::HashSet::with_hasher(FastHashBuilder::default());
        let mut state = self.game.start();
        let mut player = Player::First;
        while let Some(id) = self.id(&state) {
            if !seen.insert(id) {
                break;
            }
            let Some(mv) = self.best_move(&state) else {
                break;
            };
            let step = self.game.play(&state, &mv);
            line.push(Ply {
                player,
                state: state.clone(),
                mv,
                gain: step.gain,
                turn: step.turn,
                value: self.result(id).0.value(),
            });
            player = player.after(step.turn);
            state = step.next;
        }
        line
    }

    /// How many states are reachable from the start.
    pub fn states(&self) -> usize {
        self.stats.states
    }

    /// What the solve did.
    pub fn stats(&self) -> RetroStats {
        self.stats
    }
}
