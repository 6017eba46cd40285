//! The dense layout valued index by index, for a game whose index orders it (every move leads
//! to a smaller index: [`Capabilities::ordered_index`](crate::Capabilities::ordered_index)):
//! the order of a hand-written sweep over bitmasks, where a move's value is read next to where
//! the state before read its own (by tiers, each tier's pass reads the whole array again).
//!
//! One thread values the indices from 0 up ([`sequential`]). More threads need more than an
//! order: a pipeline over ranges of indices (each worker waiting for the ranges below its own
//! to pass the indices its moves read) was tried, and was no faster on two threads than tiers
//! (docs/performance.md). A [subset](crate::Capabilities::subset_index) index gives them
//! independence instead ([`by_blocks`]): cut into blocks of [`CHUNK`] indices by their high
//! bits, a block's moves lead into the block itself (to a smaller index) or into a block whose
//! high bits are a proper subset of its own, which has fewer ones. So the blocks are valued
//! level by level, level `k` holding the blocks whose high bits have `k` ones: a level's blocks
//! on every thread at once, each block from its first index up on one.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::dense::{Fault, Slot, Valuing, store, valued};
use super::{CHUNK, Clock, Counts};
use crate::error::SolveError;
use crate::game::{StateAt, Tiered};

/// Tells the progress how many blocks of how many are valued.
pub(super) type Record<'a> = &'a (dyn Fn(u64, u64) + Sync);

/// Values every index of `values`, in order, on the calling thread.
pub(super) fn sequential<G: Tiered + StateAt, A: Slot>(
    game: &G,
    values: &[A],
    clock: &Clock,
    record: Record<'_>,
) -> Result<Counts, SolveError> {
    let len = values.len();
    let chunks = len.div_ceil(CHUNK);
    let (mut gapless, mut counts) = (true, Counts::default());
    for chunk in 0..chunks {
        let first = chunk * CHUNK;
        let indices = first..len.min(first + CHUNK);
        counts.add(sweep_chunk::<G, A, false>(
            game,
            indices,
            values,
            &mut gapless,
        )?);
        clock.check_with(|| left(len, first + CHUNK))?;
        record(chunk as u64 + 1, chunks as u64);
    }
    Ok(counts)
}

/// Values every index of `values` of a game with a subset index, on the current rayon pool:
/// blocks of [`CHUNK`] indices level by level (the count of ones in the block's number), a
/// level's blocks in parallel, each block's indices in order.
pub(super) fn by_blocks<G: Tiered + StateAt + Sync, A: Slot>(
    game: &G,
    values: &[A],
    clock: &Clock,
    record: Record<'_>,
) -> Result<Counts, SolveError> {
    let len = values.len();
    let blocks = len.div_ceil(CHUNK);
    // Whether an index with no state (or a state stored elsewhere) was met in a level before:
    // until one is, every slot a move reads holds its value, and reads skip the empty test.
    let holes = AtomicBool::new(false);
    let done = AtomicU64::new(0);
    let mut counts = Counts::default();
    for level in 0..=block_bits(blocks) {
        let these = with_ones(level, blocks);
        let gapless = !holes.load(Relaxed);
        let (before, all) = (done.load(Relaxed) as usize * CHUNK, blocks as u64);
        let level_counts = these
            .into_par_iter()
            .map(|block| {
                let first = block * CHUNK;
                let mut block_gapless = gapless;
                let indices = first..len.min(first + CHUNK);
                let counts = sweep_chunk::<G, A, true>(game, indices, values, &mut block_gapless)?;
                if !block_gapless {
                    holes.store(true, Relaxed);
                }
                record(done.fetch_add(1, Relaxed) + 1, all);
                clock.check_with(|| left(len, before))?;
                Ok(counts)
            })
            .try_reduce(Counts::default, |mut all, counts| {
                all.add(counts);
                Ok(all)
            })?;
        counts.add(level_counts);
        // Again on this thread: the workers' records may land out of order.
        record(done.load(Relaxed), all);
    }
    Ok(counts)
}

/// How many bits the numbers of `blocks` blocks take (0 for one block).
pub(super) fn block_bits(blocks: usize) -> u32 {
    usize::BITS - blocks.saturating_sub(1).leading_zeros()
}

/// The numbers below `blocks` with `ones` bits set, in increasing order (Gosper's hack: from
/// one such number, the next).
pub(super) fn with_ones(ones: u32, blocks: usize) -> Vec<usize> {
    if ones == 0 {
        return vec![0];
    }
    let mut these = Vec::new();
    let Some(mut number) = 1usize.checked_shl(ones).map(|bit| bit - 1) else {
        return these;
    };
    while number < blocks {
        these.push(number);
        let lowest = number & number.wrapping_neg();
        let Some(ripple) = number.checked_add(lowest) else {
            break;
        };
        number = ripple | (((number ^ ripple) >> 2) / lowest);
    }
    these
}

/// What a time limit says is left: the indices from `next` on, of `len`.
fn left(len: usize, next: usize) -> String {
    format!(
        "{} of {len} indices still to value",
        len.saturating_sub(next)
    )
}

/// Values the states at `indices` into `values`, in order, each from its moves' values there.
/// `gapless` says whether every slot a move may read holds the value of the state `state_at`
/// gave there (every index below the first, or for `SUBSETS` every index in the blocks of the
/// levels before), and is kept up to date: while it holds, a move's slot needs one check (that
/// it is below the state's index), where a layout with gaps needs two (in the array, and
/// written). For `SUBSETS`, a state whose moves' indices are not all subsets of its own is
/// refused.
pub(super) fn sweep_chunk<G: Tiered + StateAt, A: Slot, const SUBSETS: bool>(
    game: &G,
    indices: std::ops::Range<usize>,
    values: &[A],
    gapless: &mut bool,
) -> Result<Counts, SolveError> {
    let (mut holes, mut looked, len) = (0, 0, indices.len() as u64);
    // For a subset index, a move to an index that is not a subset of the state's may lead to
    // a block no thread has valued yet: refused, whatever its slot holds. (Checking the union
    // of a state's moves' indices once instead took as long, in more instructions.)
    let outside = |child: usize, index: usize| SUBSETS && child & !index != 0;
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
            valued(game, &state, |child| {
                if outside(child, index) {
                    return None;
                }
                below.get(child).map(A::written)
            })
        } else {
            valued(game, &state, |child| {
                if outside(child, index) {
                    return None;
                }
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
        return Err(refused(game, fault, index, SUBSETS));
    }
    Ok(Counts {
        states: len - holes,
        holes,
        moves: looked,
    })
}

/// The error for `fault` at `index`, swept as an ordered index or (`subsets`) a subset one.
#[cold]
fn refused<G: Tiered + StateAt>(game: &G, fault: Fault, index: usize, subsets: bool) -> SolveError {
    let at = format!("the state at index {index}");
    match fault {
        Fault::Unvalued(next) if subsets && next & !index != 0 => {
            Fault::NotSubset(next).error(game, &at, Valuing::Subsets)
        }
        fault if subsets => fault.error(game, &at, Valuing::Subsets),
        fault => fault.error(game, &at, Valuing::Index),
    }
}

#[cfg(test)]
mod tests {
    use super::{block_bits, with_ones};

    #[test]
    fn the_levels_hold_every_block_once_with_its_count_of_ones() {
        for blocks in [1usize, 2, 3, 7, 8, 9, 100, 4096] {
            let mut all: Vec<usize> = (0..=block_bits(blocks))
                .flat_map(|ones| {
                    let these = with_ones(ones, blocks);
                    assert!(these.windows(2).all(|pair| pair[0] < pair[1]));
                    assert!(these.iter().all(|block| block.count_ones() == ones));
                    these
                })
                .collect();
            all.sort_unstable();
            assert_eq!(all, (0..blocks).collect::<Vec<_>>(), "{blocks} blocks");
        }
        assert_eq!(block_bits(1), 0);
        assert_eq!(block_bits(4096), 12);
        assert_eq!(with_ones(63, usize::MAX).len(), 64);
        assert!(with_ones(64, usize::MAX).is_empty());
    }
}
