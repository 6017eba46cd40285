//! The game graph: the states discovered from the start, numbered, with their moves stored and
//! reversed, or reached through the game's own predecessors, or its whole index space.

use super::propagation::{IndexSpace, Stored, Unmoves, solved_time};
use super::*;

/// [`solve`](super::solve) and [`par_solve`](super::par_solve): the moves stored, and their reverse.
pub(super) fn with_stored_moves<G, I, S>(
    game: &G,
    ids: I,
    limits: Limits,
    spread: S,
) -> Result<Retrograde<'_, G, I>, SolveError>
where
    G: Game,
    I: StateIds<G>,
    S: for<'a> Spread<Stored<'a>>,
{
    let clock = Instant::now();
    let mut solved = Retrograde::discover(game, ids, limits, clock, true)?;
    let (first, preds) = solved.reverse()?;
    let (frontier, counts) = solved.finals();
    let parents = Stored {
        first: &first,
        preds: &preds,
    };
    let levels = spread.spread(
        &mut solved.outcome,
        &mut solved.remoteness,
        (counts, frontier),
        &parents,
        |level| solved_time(limits, clock, level),
    )?;
    solved.finish(clock, levels);
    Ok(solved)
}

/// [`solve_with_predecessors`](super::solve_with_predecessors) and its parallel mirror: no moves stored.
pub(super) fn with_unmoves<G, I, S>(
    game: &G,
    ids: I,
    limits: Limits,
    spread: S,
) -> Result<Retrograde<'_, G, I>, SolveError>
where
    G: Predecessors,
    I: StateIds<G>,
    S: for<'a> Spread<Unmoves<'a, G, I>>,
{
    let clock = Instant::now();
    let mut solved = Retrograde::discover(game, ids, limits, clock, false)?;
    let (frontier, counts) = solved.finals();
    let Retrograde {
        outcome,
        remoteness,
        states,
        ids,
        ..
    } = &mut solved;
    let parents = Unmoves {
        game,
        ids: &*ids,
        states: &*states,
    };
    let levels = spread.spread(outcome, remoteness, (counts, frontier), &parents, |level| {
        solved_time(limits, clock, level)
    })?;
    solved.finish(clock, levels);
    Ok(solved)
}

/// [`solve_indexed`](super::solve_indexed) and its parallel mirror: the whole index space, no discovery.
pub(super) fn over_index_space<G, S>(
    game: &G,
    limits: Limits,
    spread: S,
) -> Result<Retrograde<'_, G, Indexed>, SolveError>
where
    G: StateAt + Predecessors,
    S: for<'a> Spread<IndexSpace<'a, G>>,
{
    let clock = Instant::now();
    let (mut solved, frontier, counts) = Retrograde::index_space(game, limits)?;
    let levels = spread.spread(
        &mut solved.outcome,
        &mut solved.remoteness,
        (counts, frontier),
        &IndexSpace(game),
        |level| solved_time(limits, clock, level),
    )?;
    solved.finish(clock, levels);
    Ok(solved)
}
