//! The checker's walk: every state reachable from the start (within the options' caps), each
//! checked against the contract once, and values compared with an unmemoized reference.

use super::*;

/// What a state answered the first time it was met.
pub(super) struct Seen<M> {
    pub(super) moves: Vec<M>,
    pub(super) known: Option<Score>,
    pub(super) payoff: Option<Score>,
    pub(super) hash: u64,
}

/// The checker's walk over one game.
pub(super) struct Checker<'a, G: Game> {
    pub(super) game: &'a G,
    pub(super) options: &'a CheckOptions,
    pub(super) seen: HashMap<G::State, Seen<G::Move>>,
    pub(super) order: Vec<G::State>,
    pub(super) violations: Vec<Violation<G>>,
    /// The bytes of the move lists kept in `seen`.
    pub(super) move_bytes: u64,
    /// How many moves `moves` has generated so far.
    pub(super) generated: u64,
    /// The bytes the walk's open line holds (its states and their move lists), and its sets.
    pub(super) line_bytes: u64,
    /// When the check must stop, and the limit (for the message).
    pub(super) deadline: Option<(Instant, Duration)>,
}

/// Runs every check; returns the report and the distinct states met, in the order met.
pub(super) fn explore<G>(game: &G, options: &CheckOptions) -> (CheckReport<G>, Vec<G::State>)
where
    G: Game,
    G::State: Eq + Hash + Debug,
    G::Move: PartialEq + Debug,
{
    let mut checker = Checker {
        game,
        options,
        seen: HashMap::new(),
        order: Vec::new(),
        violations: Vec::new(),
        move_bytes: 0,
        generated: 0,
        line_bytes: 0,
        deadline: options
            .limits
            .time_limit
            .and_then(|limit| Some((Instant::now().checked_add(limit)?, limit))),
    };
    let mut playouts = 0;
    let mut values_compared = 0;
    let stopped = checker
        .walk()
        .map(|()| checker.equal_states_apart())
        .and_then(|()| checker.playouts(&mut playouts))
        .and_then(|()| {
            if options.cyclic {
                Ok(())
            } else {
                checker.values(&mut values_compared)
            }
        })
        .err();
    let report = CheckReport {
        states: checker.seen.len(),
        playouts,
        values_compared,
        violations: checker.violations,
        stopped,
    };
    (report, checker.order)
}

pub(super) fn hash_of<T: Hash>(value: &T) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

impl<G> Checker<'_, G>
where
    G: Game,
    G::State: Eq + Hash + Debug,
    G::Move: PartialEq + Debug,
{
    /// Records a violation, unless the very same one is already recorded.
    fn report(&mut self, violation: Violation<G>) {
        let sentence = violation.to_string();
        if !self.violations.iter().any(|v| v.to_string() == sentence) {
            keep(&mut self.violations, violation);
        }
    }

    /// Checks that `state`'s batches of moves ([`Game::moves_batch`]) concatenate to `moves`:
    /// each appended after the batches before it in one buffer, so that a batch that clears or
    /// changes what the buffer held (which the engine's buffer holds: other states' moves) is
    /// found too.
    fn check_batches(&mut self, state: &G::State, moves: &[G::Move]) {
        let mut batched = Vec::new();
        let mut batch = 0;
        // A game may give empty batches, but not more of them than a batch per move and a
        // generous margin: past that it would never stop.
        let most = moves.len() + 64;
        while self.game.moves_batch(state, batch, &mut batched) && batch <= most {
            batch += 1;
        }
        self.generated += batched.len() as u64;
        if batched != moves || batch > most {
            self.report(Violation::BatchesDisagree {
                state: state.clone(),
                moves: moves.to_vec(),
                batched,
            });
        }
    }

    /// Checks that [`Game::for_each_step`] gives the steps of `moves` played in order, and
    /// that it stops where its callback says so (after the first step, and after the last).
    fn check_steps(&mut self, state: &G::State, moves: &[G::Move]) {
        let game = self.game;
        let played: Vec<Step<G::State>> = moves.iter().map(|mv| game.play(state, mv)).collect();
        let mut stepped = Vec::new();
        game.for_each_step(state, |step| {
            stepped.push(step);
            stepped.len() <= played.len() // past every move: stop a runaway
        });
        let what = if stepped != played {
            Some("gives other steps than moves and play")
        } else {
            let mut calls = 0;
            game.for_each_step(state, |_| {
                calls += 1;
                false
            });
            (calls != usize::from(!played.is_empty())).then_some("goes on after told to stop")
        };
        if let Some(what) = what {
            self.report(Violation::StepsDisagree {
                state: state.clone(),
                what,
            });
        }
    }

    /// Checks one state's own answers, records it if new, and compares it with an equal state
    /// met before. Returns its moves; errors once the check is over its memory budget or its
    /// time limit.
    fn visit(&mut self, state: &G::State) -> Result<Vec<G::Move>, SolveError> {
        let game = self.game;
        let first: Vec<G::Move> = game.moves(state).collect();
        let second: Vec<G::Move> = game.moves(state).collect();
        self.generated += 3 * first.len() as u64;
        if first != second {
            self.report(Violation::MovesNotDeterministic {
                state: state.clone(),
                first: first.clone(),
                second,
            });
        } else if !first.is_empty() {
            // Handed a buffer that already holds moves, `moves_into` must leave them be and
            // append the moves of `moves` after them.
            let mut listed = first.clone();
            game.moves_into(state, &mut listed);
            let n = first.len();
            if listed.len() != 2 * n || listed[..n] != first[..] || listed[n..] != first[..] {
                self.report(Violation::MovesIntoDisagree {
                    state: state.clone(),
                    moves: first.clone(),
                    listed,
                });
            }
        }
        self.check_batches(state, &first);
        self.check_steps(state, &first);
        if let Some(mv) = game.forced_move(state)
            && !first.contains(&mv)
        {
            self.report(Violation::ForcedMoveIllegal {
                state: state.clone(),
                mv,
            });
        }
        let hash = hash_of(state);
        if hash != hash_of(&state.clone()) || hash != hash_of(state) {
            self.report(Violation::HashInconsistent {
                state: state.clone(),
            });
        }
        let known = game.known_value(state);
        let payoff = first.is_empty().then(|| game.payoff(state));
        for (what, score) in [("known value", known), ("payoff", payoff)] {
            if score == Some(Score::MIN) {
                self.report(Violation::InvalidScore {
                    state: state.clone(),
                    what,
                });
            }
        }
        if let (Some(range), Some(payoff)) = (&self.options.payoffs, payoff)
            && !range.contains(&payoff)
        {
            self.report(Violation::PayoffOutOfRange {
                state: state.clone(),
                payoff,
            });
        }
        if let Some((earlier, seen)) = self.seen.get_key_value(state) {
            let difference = if seen.hash != hash {
                None // reported as a hash problem below
            } else if seen.moves != first {
                Some("moves")
            } else if seen.known != known {
                Some("known value")
            } else if seen.payoff != payoff {
                Some("payoff")
            } else {
                None
            };
            let earlier = earlier.clone();
            if seen.hash != hash {
                self.report(Violation::HashInconsistent {
                    state: state.clone(),
                });
            }
            if let Some(difference) = difference {
                self.report(Violation::IncompleteState {
                    first: earlier,
                    second: state.clone(),
                    difference,
                });
            }
        } else {
            let moves = first.clone();
            self.move_bytes += (moves.capacity() * size_of::<G::Move>()) as u64;
            self.seen.insert(
                state.clone(),
                Seen {
                    moves,
                    known,
                    payoff,
                    hash,
                },
            );
            self.order.push(state.clone());
            self.within_limits()?;
        }
        Ok(first)
    }

    /// The bytes the check holds now, about: the states met (in a hash map that may double,
    /// and in order) with their move lists, and the walk's line.
    fn held(&self) -> u64 {
        let entry = size_of::<G::State>() + size_of::<Seen<G::Move>>() + 1;
        let tables = self.seen.capacity() * entry + self.order.capacity() * size_of::<G::State>();
        (2 * tables) as u64 + self.move_bytes + self.line_bytes
    }

    /// Errors if the check holds more than its budget, or (looked at every 256 states) has
    /// passed its time limit.
    fn within_limits(&self) -> Result<(), SolveError> {
        let held = self.held();
        let budget = self.options.limits.memory_budget;
        if held > budget {
            return Err(SolveError::MemoryBudget {
                what: format!(
                    "the check ({} states met, with their move lists)",
                    self.seen.len()
                ),
                needed: held,
                budget,
            });
        }
        if self.seen.len().is_multiple_of(256)
            && let Some((deadline, limit)) = self.deadline
            && Instant::now() >= deadline
        {
            return Err(SolveError::TimeLimit {
                limit,
                progress: format!("{} states checked", self.seen.len()),
            });
        }
        Ok(())
    }

    /// What is left of the limits for the engine the check compares.
    fn engine_limits(&self) -> Result<Limits, SolveError> {
        let budget = self.options.limits.memory_budget;
        let left = budget
            .checked_sub(self.held())
            .ok_or(SolveError::MemoryBudget {
                what: "the check's states".into(),
                needed: self.held(),
                budget,
            })?;
        let mut limits = Limits::with_memory_budget(left);
        if let Some((deadline, limit)) = self.deadline {
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return Err(SolveError::TimeLimit {
                    limit,
                    progress: format!("{} states checked", self.seen.len()),
                });
            }
            limits = limits.time_limit(remaining);
        }
        Ok(limits)
    }

    /// Equal states stored apart: `seen` merges equal states whose hashes agree, so two equal
    /// states among those it holds had different hashes. Compares the first states met, pair
    /// by pair (a hash that counts something `Eq` ignores splits states everywhere).
    fn equal_states_apart(&mut self) {
        let sample = &self.order[..self.order.len().min(EQUALITY_SAMPLE)];
        let mut found = Vec::new();
        'pairs: for (at, first) in sample.iter().enumerate() {
            for second in &sample[at + 1..] {
                if first == second {
                    found.push((first.clone(), second.clone()));
                    if found.len() == MAX_PER_KIND {
                        break 'pairs;
                    }
                    break;
                }
            }
        }
        for (first, second) in found {
            self.report(Violation::EqualStatesApart { first, second });
        }
    }

    /// Plays `mv` twice and checks the step.
    fn step(&mut self, state: &G::State, mv: &G::Move) -> Step<G::State> {
        let first = self.game.play(state, mv);
        let second = self.game.play(state, mv);
        if first != second {
            self.report(Violation::PlayNotDeterministic {
                state: state.clone(),
                mv: mv.clone(),
                first: first.clone(),
                second,
            });
        }
        if first.gain == Score::MIN {
            self.report(Violation::InvalidScore {
                state: state.clone(),
                what: "gain",
            });
        }
        if let Some(range) = &self.options.points
            && !range.contains(&first.gain)
        {
            self.report(Violation::PointsOutOfRange {
                state: state.clone(),
                mv: mv.clone(),
                gain: first.gain,
            });
        }
        first
    }

    /// Depth-first from the start over at most `max_states` distinct states, on an explicit
    /// stack whose states are the current line (so a move back onto it is a cycle).
    fn walk(&mut self) -> Result<(), SolveError> {
        let start = self.game.start();
        let moves = self.visit(&start)?;
        // A frame's bytes: its state (on the line and in `on_line`, which may double), its
        // moves; then its state again in `expanded`.
        let frame = |moves: &Vec<G::Move>| {
            (4 * size_of::<G::State>() + 32 + moves.capacity() * size_of::<G::Move>()) as u64
        };
        self.line_bytes = frame(&moves);
        let mut line: Vec<(G::State, Vec<G::Move>, usize)> = vec![(start.clone(), moves, 0)];
        let mut on_line: HashSet<G::State> = HashSet::from([start]);
        let mut expanded: HashSet<G::State> = HashSet::new();
        while let Some((state, moves, next)) = line.last_mut() {
            // The walk has half of the moves, the playouts the rest.
            if self.generated > self.options.max_generated / 2 {
                break;
            }
            let Some(mv) = moves.get(*next).cloned() else {
                let (state, moves, _) = line.pop().expect("the loop runs while the line is open");
                self.line_bytes -= frame(&moves);
                self.line_bytes += 2 * size_of::<G::State>() as u64;
                on_line.remove(&state);
                expanded.insert(state);
                continue;
            };
            *next += 1;
            let state = state.clone();
            let step = self.step(&state, &mv);
            if on_line.contains(&step.next) {
                if !self.options.cyclic {
                    let from = line
                        .iter()
                        .position(|(s, _, _)| *s == step.next)
                        .unwrap_or(0);
                    let cycle = line[from..].iter().map(|(s, _, _)| s.clone()).collect();
                    self.report(Violation::Cycle { line: cycle });
                }
                continue;
            }
            let new = !self.seen.contains_key(&step.next);
            let moves = self.visit(&step.next)?;
            if new && self.seen.len() <= self.options.max_states && !expanded.contains(&step.next) {
                self.line_bytes += frame(&moves);
                self.within_limits()?;
                on_line.insert(step.next.clone());
                line.push((step.next, moves, 0));
            }
        }
        self.line_bytes = 0;
        Ok(())
    }

    /// Random lines from the start, checking every state and step on them.
    fn playouts(&mut self, done: &mut usize) -> Result<(), SolveError> {
        let mut random = self.options.seed;
        for _ in 0..self.options.playouts {
            if self.generated > self.options.max_generated {
                break;
            }
            let mut state = self.game.start();
            let mut on_line = HashSet::from([state.clone()]);
            for _ in 0..self.options.max_playout_moves {
                let moves = self.visit(&state)?;
                if moves.is_empty() {
                    break;
                }
                let pick = (split_mix(&mut random) % moves.len() as u64) as usize;
                let step = self.step(&state, &moves[pick]);
                if !on_line.insert(step.next.clone()) {
                    if !self.options.cyclic {
                        self.report(Violation::Cycle {
                            line: vec![step.next.clone(), state.clone()],
                        });
                    }
                    break;
                }
                state = step.next;
            }
            *done += 1;
        }
        Ok(())
    }

    /// Compares known values and the engine's values with an unmemoized negamax, on the states
    /// met last (usually the smallest subgames) whose subgame fits the node budget.
    fn values(&mut self, compared: &mut usize) -> Result<(), SolveError> {
        let mut table = HashTable::new();
        let states: Vec<G::State> = self.order.iter().rev().cloned().collect();
        for state in states {
            if *compared >= self.options.value_checks {
                break;
            }
            let limits = self.engine_limits()?;
            let mut budget = self.options.reference_nodes;
            let Some(actual) = reference(self.game, &state, &mut budget, 0) else {
                continue;
            };
            *compared += 1;
            if let Some(claimed) = self.game.known_value(&state)
                && i128::from(claimed) != actual
            {
                self.report(Violation::KnownValueWrong {
                    state: state.clone(),
                    claimed,
                    actual,
                });
            }
            let has_moves = self.game.moves(&state).next().is_some();
            if let Some(decided) = has_moves.then(|| self.game.decided(&state)).flatten() {
                let refused = self.game.verify_decided(&state, &decided).err();
                if i128::from(decided.value) != actual || refused.is_some() {
                    self.report(Violation::DecidedWrong {
                        state: state.clone(),
                        claimed: decided.value,
                        actual,
                        refused,
                    });
                }
            }
            self.forced_move_value(&state, actual);
            match value_at(self.game, &mut table, &state, limits) {
                Ok(engine) if i128::from(engine) != actual => {
                    self.report(Violation::EngineDisagrees {
                        state,
                        engine,
                        reference: actual,
                    });
                }
                Ok(_) => {}
                // The check's own limits stop the check; anything else is the game's.
                Err(error @ (SolveError::MemoryBudget { .. } | SolveError::TimeLimit { .. })) => {
                    return Err(error);
                }
                Err(error) => self.report(Violation::EngineFailed {
                    state,
                    error,
                    reference: Some(actual),
                }),
            }
        }
        *compared += self.start_known_value(&mut table)?;
        Ok(())
    }

    /// The value of playing the state's forced move, if the game names one, against the
    /// state's value `actual` (skipped when the move is illegal, reported by the walk, or its
    /// subgame is over the node budget).
    fn forced_move_value(&mut self, state: &G::State, actual: i128) {
        let Some(mv) = self.game.forced_move(state) else {
            return;
        };
        let mut moves = Vec::new();
        self.game.moves_into(state, &mut moves);
        if !moves.contains(&mv) {
            return;
        }
        let step = self.game.play(state, &mv);
        let mut budget = self.options.reference_nodes;
        let Some(child) = reference(self.game, &step.next, &mut budget, 0) else {
            return;
        };
        let forced = i128::from(step.gain)
            + match step.turn {
                Turn::Pass => -child,
                Turn::Keep => child,
            };
        if forced != actual {
            self.report(Violation::ForcedMoveWrong {
                state: state.clone(),
                mv,
                forced,
                actual,
            });
        }
    }

    /// The start's `known_value`, if it has one, against one level of search: the best of its
    /// moves, each valued by the engine. (Its whole subgame is usually too large for the
    /// unmemoized negamax, so the sampled comparisons above rarely reach it.) Returns 1 if it
    /// compared.
    fn start_known_value(&mut self, table: &mut HashTable<G::State>) -> Result<usize, SolveError> {
        let start = self.game.start();
        let Some(claimed) = self.game.known_value(&start) else {
            return Ok(0);
        };
        let limits = self.engine_limits()?;
        let mut moves = Vec::new();
        self.game.moves_into(&start, &mut moves);
        let mut best: Option<i128> = None;
        for mv in &moves {
            let step = self.game.play(&start, mv);
            let child = match value_at(self.game, table, &step.next, limits) {
                Ok(child) => i128::from(child),
                Err(error @ (SolveError::MemoryBudget { .. } | SolveError::TimeLimit { .. })) => {
                    return Err(error);
                }
                Err(error) => {
                    self.report(Violation::EngineFailed {
                        state: step.next,
                        error,
                        reference: None,
                    });
                    return Ok(1);
                }
            };
            let value = i128::from(step.gain)
                + match step.turn {
                    Turn::Pass => -child,
                    Turn::Keep => child,
                };
            best = Some(best.map_or(value, |best| best.max(value)));
        }
        let actual = best.unwrap_or_else(|| i128::from(self.game.payoff(&start)));
        if actual != i128::from(claimed) {
            self.report(Violation::KnownValueWrong {
                state: start,
                claimed,
                actual,
            });
        }
        Ok(1)
    }
}

/// How many of the first states met are compared pair by pair for equal states stored apart.
pub(super) const EQUALITY_SAMPLE: usize = 2_000;

/// The deepest an unmemoized negamax goes (it recurses natively).
pub(super) const REFERENCE_DEPTH: usize = 2_000;

/// Plain negamax over the literal moves, ignoring `known_value`, in `i128` (no overflow);
/// `None` once `budget` nodes are spent or the line gets too deep.
pub(super) fn reference<G: Game>(
    game: &G,
    state: &G::State,
    budget: &mut usize,
    depth: usize,
) -> Option<i128> {
    if *budget == 0 || depth > REFERENCE_DEPTH {
        return None;
    }
    *budget -= 1;
    let mut moves = Vec::new();
    game.moves_into(state, &mut moves);
    // Work is counted in moves too: a state with 10⁴ moves is 10⁴ times the work.
    *budget = budget.checked_sub(moves.len())?;
    if moves.is_empty() {
        return Some(i128::from(game.payoff(state)));
    }
    let mut best = None;
    for mv in &moves {
        let step = game.play(state, mv);
        let child = reference(game, &step.next, budget, depth + 1)?;
        let value = i128::from(step.gain)
            + match step.turn {
                Turn::Pass => -child,
                Turn::Keep => child,
            };
        best = Some(best.map_or(value, |best: i128| best.max(value)));
    }
    best
}

/// SplitMix64: a small, seedable generator for the playouts.
pub(crate) fn split_mix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
