//! Fixed-capacity bound tables: one 64-bit word per entry, two words a bucket, set up once,
//! never grown.
//!
//! Each entry is one word that holds the rest of its key's exact bits ([`layout`] says how),
//! so a concurrent reader sees either a whole old entry or a whole new one
//! ([`AtomicBoundTable`]): a torn entry cannot exist, so it cannot be read as a hit.
//!
//! A key has two words to go in, side by side in one cache line. An entry of the same state is
//! merged with what is there; a new state takes the word whose entry cost less to compute (the
//! work its search expanded, an exact entry counting a little more): the costly entries near
//! the root of a search survive the many cheap ones below them, and the newest entry always
//! finds room.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

mod layout;

use super::bounds::{BoundTable, ConcurrentBoundTable, Entry};
use super::prefetch;
use super::zeroed::{Words, ZeroWord};
use crate::CompactKey;
use crate::error::SolveError;
use layout::Layout;

/// A fixed-capacity bound table for the sequential pruning engine: its memory is set when it is
/// made, and a search never makes it grow (it forgets old entries instead). Needs the game's
/// [`CompactKey`].
///
/// ```
/// use gamesolver::{engines::pruning, games::ConnectFour, memo::FixedBoundTable};
///
/// let game = ConnectFour::new(4, 4).unwrap();
/// let table = FixedBoundTable::for_game(&game, 1 << 20).unwrap(); // 1 MiB
/// assert_eq!(table.bytes(), 1 << 20);
/// assert_eq!(pruning::solve(&game, table, pruning::Options::new()).unwrap().value(), 0); // 4×4 is a draw
/// ```
#[derive(Debug, Clone)]
pub struct FixedBoundTable {
    layout: Layout,
    words: Words<u64>,
    occupied: usize,
}

impl FixedBoundTable {
    /// Whether a table of at most `bytes` bytes holds keys of `key_bits` bits: each word keeps
    /// what its bucket's number does not say of the key, in at most 61 bits, so a key of
    /// `b` bits needs at least 2^(b − 60) words.
    ///
    /// ```
    /// use gamesolver::memo::FixedBoundTable;
    ///
    /// assert!(FixedBoundTable::holds_keys(49, 64 << 20)); // 7×6 Connect Four
    /// assert!(FixedBoundTable::holds_keys(83, 64 << 20)); // 2^23 words: 61 + 22 bits
    /// assert!(!FixedBoundTable::holds_keys(90, 64 << 20)); // 10×8: 2^30 words needed
    /// ```
    pub fn holds_keys(key_bits: u32, bytes: u64) -> bool {
        Layout::new(key_bits, bytes / 8).is_ok()
    }

    /// A table of at most `bytes` bytes (the largest power-of-two number of 8-byte words that
    /// fits, at least 16, and no more than `game`'s keys can fill), for `game`'s keys. Refused
    /// if the allocation fails.
    pub fn for_game<G: CompactKey + ?Sized>(game: &G, bytes: u64) -> Result<Self, SolveError> {
        let layout = Layout::new(game.key_bits(), bytes / 8)?;
        let words = Words::zeroed(layout.slots(), "a fixed bound table")?;
        Ok(FixedBoundTable {
            layout,
            words,
            occupied: 0,
        })
    }

    /// The table's size in bytes (fixed).
    pub fn bytes(&self) -> u64 {
        self.words.len() as u64 * 8
    }

    /// The number of slots.
    pub fn slots(&self) -> usize {
        self.words.len()
    }

    /// Forgets every entry, keeping the memory.
    pub fn clear(&mut self) {
        self.words.fill(0);
        self.occupied = 0;
    }

    /// A table of at most `bytes` bytes (as [`for_game`](Self::for_game), for the same game)
    /// holding this table's entries: all of them in a table at least as large; in a smaller
    /// one, where two meet in a slot, the later one. For a search that outgrew its table.
    ///
    /// ```
    /// use gamesolver::{
    ///     engines::pruning::{self, Pruner}, games::ConnectFour,
    ///     memo::{BoundTable, FixedBoundTable},
    /// };
    ///
    /// let game = ConnectFour::new(5, 4).unwrap();
    /// let mut pruner =
    ///     Pruner::new(&game, FixedBoundTable::for_game(&game, 1 << 16).unwrap(), pruning::Options::new())
    ///         .unwrap();
    /// pruner.value_of(&game.position("33").unwrap()).unwrap();
    /// let small = pruner.into_table();
    /// let large = small.resized(1 << 20).unwrap();
    /// let entries = |table: &FixedBoundTable| BoundTable::<ConnectFour>::len(table);
    /// assert_eq!(large.bytes(), 1 << 20);
    /// assert_eq!(entries(&large), entries(&small)); // every entry, in a larger table
    /// ```
    pub fn resized(&self, bytes: u64) -> Result<Self, SolveError> {
        let (layout, words, occupied) =
            carried(self.layout, self.words.iter().copied(), bytes, |word| word)?;
        Ok(FixedBoundTable {
            layout,
            words,
            occupied,
        })
    }
}

/// The words of a table of at most `bytes` bytes (its layout for `from`'s keys) holding the
/// entries of `old`, a table laid out as `from`, and how many words they fill: what both
/// tables' `resized` do, over their own kind of word (`word` gives its bits to write).
fn carried<W: ZeroWord>(
    from: Layout,
    old: impl Iterator<Item = u64>,
    bytes: u64,
    word: impl Fn(&mut W) -> &mut u64,
) -> Result<(Layout, Words<W>, usize), SolveError> {
    let layout = Layout::new(from.key_bits, bytes / 8)?;
    let mut words = Words::zeroed(layout.slots(), "a fixed bound table")?;
    let mut occupied = 0;
    for (slot, old) in old.enumerate() {
        if let Some((mixed, entry, work)) = from.entry(slot, old) {
            let (bucket, quotient) = layout.place_mixed(mixed);
            let pair = [*word(&mut words[bucket]), *word(&mut words[bucket + 1])];
            if let Some((which, new)) = layout.store(pair, quotient, entry, work) {
                let target = word(&mut words[bucket + which]);
                occupied += usize::from(*target == 0);
                *target = new;
            }
        }
    }
    Ok((layout, words, occupied))
}

impl<G: CompactKey + ?Sized> BoundTable<G> for FixedBoundTable {
    #[inline]
    fn get(&self, game: &G, state: &G::State) -> Option<Entry> {
        let (bucket, quotient) = self.layout.place(game.key(state));
        let read = |word| self.layout.read(word, quotient).map(|(entry, _)| entry);
        read(self.words[bucket]).or_else(|| read(self.words[bucket + 1]))
    }

    #[inline]
    fn store(&mut self, game: &G, state: &G::State, entry: Entry, work: u64) {
        let (bucket, quotient) = self.layout.place(game.key(state));
        let pair = [self.words[bucket], self.words[bucket + 1]];
        let work = self.layout.work_of(work);
        if let Some((which, word)) = self.layout.store(pair, quotient, entry, work) {
            self.occupied += usize::from(pair[which] == 0);
            self.words[bucket + which] = word;
        }
    }

    fn len(&self) -> usize {
        self.occupied
    }

    fn fingerprint(&self, game: &G, state: &G::State) -> Option<u64> {
        Some(folded(game.key(state)))
    }

    fn same(&self, game: &G, a: &G::State, b: &G::State) -> bool {
        game.key(a) == game.key(b)
    }

    fn peak_bytes(&self, _upcoming: usize) -> u64 {
        self.bytes()
    }

    const PREFETCH: bool = true;

    #[inline]
    fn prefetch(&self, game: &G, state: &G::State) {
        prefetch(&self.words[self.layout.place(game.key(state)).0]);
    }
}

/// A key folded to 64 bits, as a fingerprint.
#[inline]
fn folded(key: u128) -> u64 {
    key as u64 ^ (key >> 64) as u64
}

/// A counter on cache lines of its own (two: a core may fetch lines in pairs), so that threads
/// counting on different counters never pass a line between them.
#[repr(align(128))]
#[derive(Debug, Default)]
struct Counter(AtomicUsize);

const COUNTERS: usize = 16;

/// The counter the calling thread counts on: each thread its own (the first [`COUNTERS`]
/// threads to ask), since a counter chosen by slot would be written by every thread, and on a
/// fresh table nearly every store fills a slot: the line then moved between cores at each
/// store, which doubled the time of a parallel search per state.
fn my_counter() -> usize {
    use std::sync::atomic::AtomicUsize as Next;
    static NEXT: Next = Next::new(0);
    thread_local! {
        static MINE: usize = NEXT.fetch_add(1, Ordering::Relaxed) % COUNTERS;
    }
    MINE.with(|mine| *mine)
}

/// The fixed-capacity bound table shared by the workers of
/// [`par_solve`](crate::engines::pruning::par_solve): the layout of [`FixedBoundTable`] in atomic words, read and
/// written with relaxed loads and stores. Each entry is one word, so a read that races a write
/// sees one whole entry or the other; no `unsafe` is involved. Its entry count
/// ([`len`](ConcurrentBoundTable::len)) counts a slot that two threads filled at the same
/// moment twice (never past the slots there are): a figure for statistics only.
///
/// ```
/// use gamesolver::{engines::pruning, games::ConnectFour, memo::AtomicBoundTable};
///
/// let game = ConnectFour::new(5, 4).unwrap();
/// let table = AtomicBoundTable::for_game(&game, 1 << 20).unwrap();
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let value = pool.install(|| pruning::par_solve(&game, &table, pruning::Options::new())).unwrap().value();
/// assert_eq!(value, 0); // 5 wide, 4 high: a draw (Tromp)
/// ```
#[derive(Debug)]
pub struct AtomicBoundTable {
    layout: Layout,
    words: Words<AtomicU64>,
    occupied: [Counter; COUNTERS],
}

impl AtomicBoundTable {
    /// A table of at most `bytes` bytes (as [`FixedBoundTable::for_game`]).
    pub fn for_game<G: CompactKey + ?Sized>(game: &G, bytes: u64) -> Result<Self, SolveError> {
        let layout = Layout::new(game.key_bits(), bytes / 8)?;
        let words = Words::zeroed(layout.slots(), "a fixed bound table")?;
        Ok(AtomicBoundTable {
            layout,
            words,
            occupied: Default::default(),
        })
    }

    /// The table's size in bytes (fixed).
    pub fn bytes(&self) -> u64 {
        self.words.len() as u64 * 8
    }

    /// Forgets every entry, keeping the memory (needs the table to itself).
    pub fn clear(&mut self) {
        for word in self.words.iter_mut() {
            *word.get_mut() = 0;
        }
        for counter in &mut self.occupied {
            *counter.0.get_mut() = 0;
        }
    }

    /// A table of at most `bytes` bytes holding this table's entries, as
    /// [`FixedBoundTable::resized`]. Entries stored while it runs may or may not be carried.
    pub fn resized(&self, bytes: u64) -> Result<Self, SolveError> {
        let old = self.words.iter().map(|word| word.load(Ordering::Relaxed));
        let (layout, words, occupied) = carried(self.layout, old, bytes, AtomicU64::get_mut)?;
        let table = AtomicBoundTable {
            layout,
            words,
            occupied: Default::default(),
        };
        table.occupied[0].0.store(occupied, Ordering::Relaxed);
        Ok(table)
    }
}

impl<G: CompactKey + ?Sized> ConcurrentBoundTable<G> for AtomicBoundTable {
    #[inline]
    fn get(&self, game: &G, state: &G::State) -> Option<Entry> {
        let (bucket, quotient) = self.layout.place(game.key(state));
        let read = |word: &AtomicU64| {
            self.layout
                .read(word.load(Ordering::Relaxed), quotient)
                .map(|(entry, _)| entry)
        };
        read(&self.words[bucket]).or_else(|| read(&self.words[bucket + 1]))
    }

    #[inline]
    fn store(&self, game: &G, state: &G::State, entry: Entry, work: u64) {
        let (bucket, quotient) = self.layout.place(game.key(state));
        let pair = [
            self.words[bucket].load(Ordering::Relaxed),
            self.words[bucket + 1].load(Ordering::Relaxed),
        ];
        let work = self.layout.work_of(work);
        let Some((which, new)) = self.layout.store(pair, quotient, entry, work) else {
            return;
        };
        // A plain store, never a compare-and-swap: on a fresh table nearly every store fills
        // an empty word, and a locked instruction waits for the word's line where a store
        // does not. A store racing another may undo it (each word is always a whole, true
        // entry), and two threads that fill one empty word at once both count it: `len` may
        // then run ahead.
        self.words[bucket + which].store(new, Ordering::Relaxed);
        if pair[which] == 0 {
            self.occupied[my_counter()]
                .0
                .fetch_add(1, Ordering::Relaxed);
        }
    }

    fn len(&self) -> usize {
        let counted: usize = self
            .occupied
            .iter()
            .map(|counter| counter.0.load(Ordering::Relaxed))
            .sum();
        counted.min(self.words.len())
    }

    fn fingerprint(&self, game: &G, state: &G::State) -> Option<u64> {
        Some(folded(game.key(state)))
    }

    fn same(&self, game: &G, a: &G::State, b: &G::State) -> bool {
        game.key(a) == game.key(b)
    }

    fn peak_bytes(&self, _upcoming: usize) -> u64 {
        self.bytes()
    }

    const PREFETCH: bool = true;

    #[inline]
    fn prefetch(&self, game: &G, state: &G::State) {
        prefetch(&self.words[self.layout.place(game.key(state)).0]);
    }
}
