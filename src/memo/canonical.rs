//! Storing symmetric states once: any table, asked about canonical states only.

use super::bounds::{BoundTable, ConcurrentBoundTable, Entry};
use super::{ConcurrentMemoTable, MemoTable, TableJob};
use crate::Symmetry;
use crate::game::Score;

/// Wraps a table so that it is asked and told only about
/// [`canonical`](crate::Symmetry::canonical) states: a state and its mirror image share one
/// entry. Works for every memo and bound table, sequential or concurrent.
///
/// ```
/// use gamesolver::{engines::pruning, games::ConnectFour, memo::{Canonical, HashBoundTable}};
///
/// let game = ConnectFour::new(4, 4).unwrap();
/// let mirrored = pruning::solve(&game, Canonical(HashBoundTable::new()), pruning::Options::new()).unwrap();
/// let plain = pruning::solve(&game, HashBoundTable::new(), pruning::Options::new()).unwrap();
/// assert_eq!(mirrored.value(), plain.value());
/// assert!(mirrored.stats().stored < plain.stats().stored);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Canonical<T>(pub T);

impl<G: Symmetry + ?Sized, T: MemoTable<G>> MemoTable<G> for Canonical<T> {
    #[inline]
    fn get(&self, game: &G, state: &G::State) -> Option<Score> {
        self.0.get(game, &game.canonical(state))
    }

    #[inline]
    fn insert(&mut self, game: &G, state: G::State, value: Score) {
        self.0.insert(game, game.canonical(&state), value)
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    fn peak_bytes(&self, upcoming: usize) -> u64 {
        self.0.peak_bytes(upcoming)
    }

    fn bytes_for(&self, states: u64) -> u64 {
        self.0.bytes_for(states)
    }

    fn fingerprint(&self, game: &G, state: &G::State) -> Option<u64> {
        self.0.fingerprint(game, &game.canonical(state))
    }

    fn same(&self, game: &G, a: &G::State, b: &G::State) -> bool {
        self.0.same(game, &game.canonical(a), &game.canonical(b))
    }
}

impl<G: Symmetry + ?Sized, T: ConcurrentMemoTable<G>> ConcurrentMemoTable<G> for Canonical<T> {
    #[inline]
    fn get(&self, game: &G, state: &G::State) -> Option<Score> {
        self.0.get(game, &game.canonical(state))
    }

    #[inline]
    fn insert(&self, game: &G, state: G::State, value: Score) {
        self.0.insert(game, game.canonical(&state), value)
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    fn peak_bytes(&self, upcoming: usize) -> u64 {
        self.0.peak_bytes(upcoming)
    }

    fn bytes_for(&self, states: u64) -> u64 {
        self.0.bytes_for(states)
    }

    fn fingerprint(&self, game: &G, state: &G::State) -> Option<u64> {
        self.0.fingerprint(game, &game.canonical(state))
    }

    fn same(&self, game: &G, a: &G::State, b: &G::State) -> bool {
        self.0.same(game, &game.canonical(a), &game.canonical(b))
    }

    /// The inner table's exclusive view, asked about canonical states only.
    fn exclusive<J: TableJob<G>>(&self, job: J) -> J::Output {
        self.0.exclusive(InCanonical(job))
    }
}

/// A job handed its table wrapped in [`Canonical`].
struct InCanonical<J>(J);

impl<G: Symmetry + ?Sized, J: TableJob<G>> TableJob<G> for InCanonical<J> {
    type Output = J::Output;

    fn run<T: MemoTable<G>>(self, table: T) -> J::Output {
        self.0.run(Canonical(table))
    }
}

impl<G: Symmetry + ?Sized, T: BoundTable<G>> BoundTable<G> for Canonical<T> {
    #[inline]
    fn get(&self, game: &G, state: &G::State) -> Option<Entry> {
        self.0.get(game, &game.canonical(state))
    }

    #[inline]
    fn store(&mut self, game: &G, state: &G::State, entry: Entry, work: u64) {
        self.0.store(game, &game.canonical(state), entry, work)
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    fn fingerprint(&self, game: &G, state: &G::State) -> Option<u64> {
        self.0.fingerprint(game, &game.canonical(state))
    }

    fn same(&self, game: &G, a: &G::State, b: &G::State) -> bool {
        self.0.same(game, &game.canonical(a), &game.canonical(b))
    }

    fn peak_bytes(&self, upcoming: usize) -> u64 {
        self.0.peak_bytes(upcoming)
    }

    fn limit(&mut self, bytes: u64) {
        self.0.limit(bytes)
    }

    const PREFETCH: bool = T::PREFETCH;

    #[inline]
    fn prefetch(&self, game: &G, state: &G::State) {
        self.0.prefetch(game, &game.canonical(state))
    }
}

impl<G: Symmetry + ?Sized, T: ConcurrentBoundTable<G>> ConcurrentBoundTable<G> for Canonical<T> {
    #[inline]
    fn get(&self, game: &G, state: &G::State) -> Option<Entry> {
        self.0.get(game, &game.canonical(state))
    }

    #[inline]
    fn store(&self, game: &G, state: &G::State, entry: Entry, work: u64) {
        self.0.store(game, &game.canonical(state), entry, work)
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    fn fingerprint(&self, game: &G, state: &G::State) -> Option<u64> {
        self.0.fingerprint(game, &game.canonical(state))
    }

    fn same(&self, game: &G, a: &G::State, b: &G::State) -> bool {
        self.0.same(game, &game.canonical(a), &game.canonical(b))
    }

    fn peak_bytes(&self, upcoming: usize) -> u64 {
        self.0.peak_bytes(upcoming)
    }

    fn limit(&self, bytes: u64) {
        self.0.limit(bytes)
    }

    const PREFETCH: bool = T::PREFETCH;

    #[inline]
    fn prefetch(&self, game: &G, state: &G::State) {
        self.0.prefetch(game, &game.canonical(state))
    }
}
