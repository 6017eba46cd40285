//! Propagation: outcomes spread back from the decided states, one remoteness level at a time,
//! on one thread or on the rayon pool.

use super::*;

/// Where propagation finds a state's predecessors: each is given as its number with the keep
/// bit of its move.
pub(super) trait Parents {
    /// Calls `visit(parent, keeps)` for every move into `child` (`keeps`: the mover moves
    /// again).
    fn each(&self, child: usize, visit: impl FnMut(usize, bool));
}

/// The reverse moves, stored.
pub(super) struct Stored<'a> {
    pub(super) first: &'a [u32],
    pub(super) preds: &'a [u32],
}

impl Parents for Stored<'_> {
    #[inline]
    fn each(&self, child: usize, mut visit: impl FnMut(usize, bool)) {
        let range = self.first[child] as usize..self.first[child + 1] as usize;
        for &edge in &self.preds[range] {
            visit((edge & !KEEP) as usize, edge & KEEP != 0);
        }
    }
}

/// The game's predecessors, numbered (unreachable ones skipped).
pub(super) struct Unmoves<'a, G: Game, I> {
    pub(super) game: &'a G,
    pub(super) ids: &'a I,
    pub(super) states: &'a [G::State],
}

impl<G: Predecessors, I: StateIds<G>> Parents for Unmoves<'_, G, I> {
    #[inline]
    fn each(&self, child: usize, mut visit: impl FnMut(usize, bool)) {
        self.game.predecessors(&self.states[child], |parent, turn| {
            if let Some(id) = self.ids.id(self.game, &parent) {
                visit(id as usize, turn == Turn::Keep);
            }
        });
    }
}

/// The game's predecessors, by their index (the whole index space is solved).
pub(super) struct IndexSpace<'a, G>(pub(super) &'a G);

impl<G: StateAt + Predecessors> Parents for IndexSpace<'_, G> {
    #[inline]
    fn each(&self, child: usize, mut visit: impl FnMut(usize, bool)) {
        self.0
            .predecessor_indices(child, |parent, turn| visit(parent, turn == Turn::Keep));
    }
}

/// A number with the keep bit of a move.
#[inline]
pub(super) fn keep_bit(id: u32, turn: Turn) -> u32 {
    match turn {
        Turn::Pass => id,
        Turn::Keep => id | KEEP,
    }
}

/// [`SolveError::TimeLimit`] past the limit, saying how far propagation got.
pub(super) fn solved_time(limits: Limits, clock: Instant, level: u32) -> Result<(), SolveError> {
    if let Some(progress) = limits.progress {
        progress.go_on()?;
    }
    match limits.time_limit {
        Some(limit) if clock.elapsed() > limit => Err(SolveError::TimeLimit {
            limit,
            progress: format!("retrograde analysis propagated to remoteness {level}"),
        }),
        _ => Ok(()),
    }
}

/// How propagation runs: on the calling thread ([`propagate`]), or each level on the current
/// rayon pool ([`par_propagate`]). The sequential and parallel solvers differ only in this.
pub(super) trait Spread<P: Parents> {
    /// Propagates from the frontier (with each state's count of undecided moves) through
    /// `parents`; returns the largest remoteness.
    fn spread(
        &self,
        outcome: &mut Vec<i8>,
        remoteness: &mut [u32],
        counts_and_frontier: (Vec<u32>, Vec<u32>),
        parents: &P,
        check: impl Fn(u32) -> Result<(), SolveError>,
    ) -> Result<u32, SolveError>;
}

/// Propagation on the calling thread.
pub(super) struct OneThread;

impl<P: Parents> Spread<P> for OneThread {
    fn spread(
        &self,
        outcome: &mut Vec<i8>,
        remoteness: &mut [u32],
        (counts, frontier): (Vec<u32>, Vec<u32>),
        parents: &P,
        check: impl Fn(u32) -> Result<(), SolveError>,
    ) -> Result<u32, SolveError> {
        propagate(outcome, remoteness, counts, frontier, parents, check)
    }
}

/// Propagation of each level on the current rayon pool.
pub(super) struct Pool;

impl<P: Parents + Sync> Spread<P> for Pool {
    fn spread(
        &self,
        outcome: &mut Vec<i8>,
        remoteness: &mut [u32],
        (counts, frontier): (Vec<u32>, Vec<u32>),
        parents: &P,
        check: impl Fn(u32) -> Result<(), SolveError>,
    ) -> Result<u32, SolveError> {
        par_propagate(outcome, remoteness, counts, frontier, parents, check)
    }
}

/// Sequential propagation from the final states, level by level, finding predecessors through
/// `parents`. Returns the largest remoteness.
pub(super) fn propagate(
    outcome: &mut [i8],
    remoteness: &mut [u32],
    mut counts: Vec<u32>,
    mut frontier: Vec<u32>,
    parents: &impl Parents,
    check: impl Fn(u32) -> Result<(), SolveError>,
) -> Result<u32, SolveError> {
    let mut level = 0u32;
    let mut next = Vec::new();
    while !frontier.is_empty() {
        check(level)?;
        for &child in &frontier {
            let decided = outcome[child as usize];
            parents.each(child as usize, |parent, keeps| {
                if outcome[parent] != UNDECIDED {
                    return;
                }
                // The child's outcome for the parent's mover.
                let seen = if keeps { decided } else { -decided };
                if seen == WIN {
                    outcome[parent] = WIN;
                    remoteness[parent] = level + 1;
                    next.push(parent as u32);
                } else {
                    counts[parent] -= 1;
                    if counts[parent] == 0 {
                        outcome[parent] = LOSS;
                        remoteness[parent] = level + 1;
                        next.push(parent as u32);
                    }
                }
            });
        }
        std::mem::swap(&mut frontier, &mut next);
        next.clear();
        level += 1;
    }
    Ok(level.saturating_sub(1))
}

/// Parallel propagation: each level's states tell their predecessors in parallel (a state is
/// won by whichever worker gets there first, at the same remoteness, and lost by the worker
/// whose decrement empties its count). Returns the largest remoteness.
pub(super) fn par_propagate(
    outcome: &mut Vec<i8>,
    remoteness: &mut [u32],
    counts: Vec<u32>,
    mut frontier: Vec<u32>,
    parents: &(impl Parents + Sync),
    check: impl Fn(u32) -> Result<(), SolveError>,
) -> Result<u32, SolveError> {
    let shared: Vec<AtomicI8> = outcome.iter().map(|&o| AtomicI8::new(o)).collect();
    let counts: Vec<AtomicU32> = counts.into_iter().map(AtomicU32::new).collect();
    let mut level = 0u32;
    while !frontier.is_empty() {
        check(level)?;
        let next = frontier
            .par_iter()
            .with_min_len(256)
            .fold(Vec::new, |mut next: Vec<u32>, &child| {
                let decided = shared[child as usize].load(Ordering::Relaxed);
                parents.each(child as usize, |parent, keeps| {
                    if shared[parent].load(Ordering::Relaxed) != UNDECIDED {
                        return;
                    }
                    let seen = if keeps { decided } else { -decided };
                    if seen == WIN {
                        let won = shared[parent].compare_exchange(
                            UNDECIDED,
                            WIN,
                            Ordering::Relaxed,
                            Ordering::Relaxed,
                        );
                        if won.is_ok() {
                            next.push(parent as u32);
                        }
                    } else if counts[parent].fetch_sub(1, Ordering::Relaxed) == 1 {
                        // Every child is lost for the parent's mover: none can win it.
                        shared[parent].store(LOSS, Ordering::Relaxed);
                        next.push(parent as u32);
                    }
                });
                next
            })
            .reduce(Vec::new, |mut left, mut right| {
                left.append(&mut right);
                left
            });
        for &state in &next {
            remoteness[state as usize] = level + 1;
        }
        frontier = next;
        level += 1;
    }
    *outcome = shared.into_iter().map(AtomicI8::into_inner).collect();
    Ok(level.saturating_sub(1))
}
