//! The dense layout valued index by index from 0 up, for a game whose index orders it (every
//! move leads to a smaller index: [`Capabilities::ordered_index`](crate::Capabilities::ordered_index)):
//! the order of a hand-written sweep over bitmasks, where a move's value is read next to where
//! the state before read its own (by tiers, each tier's pass reads the whole array again).
//!
//! One thread values the indices in order. More threads solve by tiers: a pipeline over
//! ranges of indices (each worker waiting for the ranges below its own to pass the indices its
//! moves read) was tried, and was no faster on two threads than tiers (docs/performance.md).

use super::dense::{Slot, store, valued};
use super::{CHUNK, Clock, Counts};
use crate::error::Error;
use crate::game::{StateAt, Tiered};

/// Values every index of `values`, in order, on the calling thread.
pub(super) fn sequential<G: Tiered + StateAt, A: Slot>(
    game: &G,
    values: &[A],
    clock: &Clock,
    record: &dyn Fn(u64, u64),
) -> Result<Counts, Error> {
    let len = values.len();
    let chunks = len.div_ceil(CHUNK);
    let (mut moves, mut gapless, mut counts) = (Vec::new(), true, Counts::default());
    for chunk in 0..chunks {
        let first = chunk * CHUNK;
        let indices = first..len.min(first + CHUNK);
        counts.add(sweep_chunk(
            game,
            indices,
            values,
            &mut moves,
            &mut gapless,
        )?);
        clock.check_with(|| left(len, first + CHUNK))?;
        record(chunk as u64 + 1, chunks as u64);
    }
    Ok(counts)
}

/// What a time limit says is left: the indices from `next` on, of `len`.
fn left(len: usize, next: usize) -> String {
    format!(
        "{} of {len} indices still to value",
        len.saturating_sub(next)
    )
}

/// Values the states at `indices` into `values`, in order, each from its moves' values there.
/// `gapless` says whether every slot below the first index holds the value of the state
/// `state_at` gave there, and is kept up to date: while it holds, a move's slot needs one check
/// (that it is below the state's index), where a layout with gaps needs two (in the array, and
/// written).
fn sweep_chunk<G: Tiered + StateAt, A: Slot>(
    game: &G,
    indices: std::ops::Range<usize>,
    values: &[A],
    moves: &mut Vec<G::Move>,
    gapless: &mut bool,
) -> Result<Counts, Error> {
    let (mut holes, mut looked, len) = (0, 0, indices.len() as u64);
    for index in indices {
        let Some(state) = game.state_at(index) else {
            holes += 1;
            *gapless = false;
            continue;
        };
        // Two calls, not one with a choice made here: each inlined loop then knows its reads,
        // and the gapless one has no check of the other's.
        let valued = if *gapless {
            let below = &values[..index];
            valued(game, &state, moves, |child| {
                below.get(child).map(A::written)
            })
        } else {
            valued(game, &state, moves, |child| {
                values.get(child).and_then(A::value)
            })
        };
        let fault = match valued {
            Ok((value, count)) => match store(game, &state, value, values) {
                Ok(slot) => {
                    // The slot written is the index swept (one call of `index`, so a game
                    // whose `index` answers differently on two calls cannot break this).
                    *gapless &= slot == index;
                    looked += count;
                    continue;
                }
                Err(fault) => fault,
            },
            Err(fault) => fault,
        };
        return Err(fault.error(game, &at(index), true));
    }
    Ok(Counts {
        states: len - holes,
        holes,
        moves: looked,
    })
}

/// A state named by its index, for an error.
fn at(index: usize) -> String {
    format!("the state at index {index}")
}
