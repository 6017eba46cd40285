//! How a tier's ranks are shared out: every chunk in turn on the calling thread
//! ([`Sequential`]), or chunks on the current rayon pool ([`Parallel`]).

use rayon::prelude::*;

use super::by_index::{self, Record};
use super::dense::{self, Slot};
use super::{CHUNK, Cell, Clock, Counts, solve_chunk};
use crate::error::SolveError;
use crate::game::Tiered;

/// How a tier's ranks are shared out: on this thread, or on the rayon pool.
pub(crate) trait Chunks<G: Tiered> {
    /// Values `cells` (ranks `first..`) of `tier` from the `kept` tiers, checking `clock`
    /// between chunks.
    fn tier<V: Cell>(
        &self,
        game: &G,
        tier: usize,
        cells: &mut [V],
        kept: &[Option<Vec<V>>],
        clock: &Clock,
    ) -> Result<Counts, SolveError>;

    /// Values every rank of `tier` into the dense layout's `values`, checking `clock` between
    /// chunks.
    fn dense<A: Slot>(
        &self,
        game: &G,
        tier: usize,
        values: &[A],
        clock: &Clock,
    ) -> Result<Counts, SolveError>
    where
        G: crate::DenseIndex;

    /// Values every index of the dense layout's `values` by index, for a game whose index
    /// orders it (`subsets`: is a subset index), checking `clock` between chunks and telling
    /// `record` how many chunks of how many are done; `None` (nothing done) if the sweep
    /// solves such a game by tiers.
    fn by_index<A: Slot>(
        &self,
        game: &G,
        values: &[A],
        subsets: bool,
        clock: &Clock,
        record: Record<'_>,
    ) -> Option<Result<Counts, SolveError>>
    where
        G: crate::game::StateAt;
}

/// How many chunks a tier of `len` ranks has.
fn chunk_count(len: u64) -> u64 {
    len.div_ceil(CHUNK as u64)
}

/// Chunk `chunk` of a tier of `len` ranks: its first rank and its length.
fn span(len: u64, chunk: u64) -> (u64, u64) {
    let first = chunk * CHUNK as u64;
    (first, (CHUNK as u64).min(len - first))
}

/// Every chunk in turn, on the calling thread.
pub(super) struct Sequential;

impl Sequential {
    /// `work` on each of a tier's `chunks` in turn, with one list of moves, checking `clock`
    /// after each; the counts added up.
    fn each<T>(
        chunks: impl Iterator<Item = T>,
        tier: usize,
        clock: &Clock,
        mut work: impl FnMut(T) -> Result<Counts, SolveError>,
    ) -> Result<Counts, SolveError> {
        let mut counts = Counts::default();
        for chunk in chunks {
            counts.add(work(chunk)?);
            clock.check(tier)?;
        }
        Ok(counts)
    }
}

impl<G: Tiered> Chunks<G> for Sequential {
    fn tier<V: Cell>(
        &self,
        game: &G,
        tier: usize,
        cells: &mut [V],
        kept: &[Option<Vec<V>>],
        clock: &Clock,
    ) -> Result<Counts, SolveError> {
        let chunks = cells.chunks_mut(CHUNK).enumerate();
        Sequential::each(chunks, tier, clock, |(index, chunk)| {
            solve_chunk(game, tier, (index * CHUNK) as u64, chunk, kept)
        })
    }

    fn dense<A: Slot>(
        &self,
        game: &G,
        tier: usize,
        values: &[A],
        clock: &Clock,
    ) -> Result<Counts, SolveError>
    where
        G: crate::DenseIndex,
    {
        let len = game.tier_len(tier);
        Sequential::each(0..chunk_count(len), tier, clock, |chunk| {
            dense::solve_chunk(game, tier, span(len, chunk), values)
        })
    }

    /// From 0 up (a subset index is ordered too).
    fn by_index<A: Slot>(
        &self,
        game: &G,
        values: &[A],
        _: bool,
        clock: &Clock,
        record: Record<'_>,
    ) -> Option<Result<Counts, SolveError>>
    where
        G: crate::game::StateAt,
    {
        Some(by_index::sequential(game, values, clock, record))
    }
}

/// Chunks shared out on the current rayon pool.
pub(super) struct Parallel;

impl Parallel {
    /// `work` on each of a tier's `chunks` on the pool, a list of moves per thread, checking
    /// `clock` after each; the counts added up (the first error instead, if any).
    fn each<I>(
        chunks: I,
        tier: usize,
        clock: &Clock,
        work: impl Fn(I::Item) -> Result<Counts, SolveError> + Sync + Send,
    ) -> Result<Counts, SolveError>
    where
        I: IntoParallelIterator,
    {
        chunks
            .into_par_iter()
            .map(|chunk| {
                let counts = work(chunk)?;
                clock.check(tier)?;
                Ok(counts)
            })
            .try_reduce(Counts::default, |mut all, counts| {
                all.add(counts);
                Ok(all)
            })
    }
}

impl<G: Tiered + Sync> Chunks<G> for Parallel {
    fn tier<V: Cell>(
        &self,
        game: &G,
        tier: usize,
        cells: &mut [V],
        kept: &[Option<Vec<V>>],
        clock: &Clock,
    ) -> Result<Counts, SolveError> {
        let chunks = cells.par_chunks_mut(CHUNK).enumerate();
        Parallel::each(chunks, tier, clock, |(index, chunk)| {
            solve_chunk(game, tier, (index * CHUNK) as u64, chunk, kept)
        })
    }

    fn dense<A: Slot>(
        &self,
        game: &G,
        tier: usize,
        values: &[A],
        clock: &Clock,
    ) -> Result<Counts, SolveError>
    where
        G: crate::DenseIndex,
    {
        let len = game.tier_len(tier);
        Parallel::each(0..chunk_count(len), tier, clock, |chunk| {
            dense::solve_chunk(game, tier, span(len, chunk), values)
        })
    }

    /// A subset index by blocks, level by level; an index that is only ordered by tiers (a
    /// pipeline by index was no faster on two threads).
    fn by_index<A: Slot>(
        &self,
        game: &G,
        values: &[A],
        subsets: bool,
        clock: &Clock,
        record: Record<'_>,
    ) -> Option<Result<Counts, SolveError>>
    where
        G: crate::game::StateAt,
    {
        subsets.then(|| by_index::by_blocks(game, values, clock, record))
    }
}
