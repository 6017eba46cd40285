//! Fixed-capacity bound tables: one 64-bit word per entry, set up once, never grown.
//!
//! # Exact keys in one word
//!
//! A game's [compact key](crate::CompactKey) of `k` bits is first mixed by a bijection of
//! `0..2^k` (multiplication by an odd constant modulo `2^k`). Of the mixed key, the top `b` bits
//! choose one of the `2^b` slots and the other `k − b` bits (the *quotient*) are stored in the
//! slot. Slot and quotient together give back the mixed key, and so the key: two states share
//! an entry only if they have the same key. The rest of the word holds an "occupied" bit and the
//! two bounds, each as a signed field of about `(63 − k + b) / 2` bits. A bound too large for
//! its field is stored weaker (a lower bound rounded down, an upper bound rounded up), which is
//! still true; a bound that would say nothing is not stored.
//!
//! Because an entry is one word, a concurrent reader sees either a whole old entry or a whole
//! new one ([`AtomicBoundTable`]): a torn entry cannot exist, so it cannot be read as a hit.
//!
//! A new entry replaces whatever the slot held (the newest result is usually the most useful
//! to the search that is running); an entry of the same state is merged with it.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use super::bounds::{Bound, BoundTable, ConcurrentBoundTable};
use super::prefetch;
use super::zeroed::{Words, ZeroWord};
use crate::CompactKey;
use crate::error::Error;
use crate::game::Score;

/// The odd multiplier that mixes keys (2⁶⁴ divided by the golden ratio, made odd).
const MIX: u64 = 0x9E37_79B9_7F4A_7C15;

/// The fewest slots a fixed table has.
const MIN_INDEX_BITS: u32 = 4;

/// How keys and bounds are packed into a slot's word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Layout {
    key_bits: u32,
    index_bits: u32,
    /// Bits below the quotient: occupied bit, lower field, upper field.
    data_bits: u32,
    lower_bits: u32,
    upper_bits: u32,
}

/// `x` with only its low `bits` bits (all of them for 64).
#[inline]
fn low(x: u64, bits: u32) -> u64 {
    if bits >= 64 { x } else { x & ((1 << bits) - 1) }
}

impl Layout {
    fn new(key_bits: u32, slots_wanted: u64) -> Layout {
        let key_bits = key_bits.clamp(1, 64);
        let index_bits = (63 - slots_wanted.max(1).leading_zeros())
            .max(MIN_INDEX_BITS)
            .min(key_bits.max(MIN_INDEX_BITS));
        let quotient_bits = key_bits.saturating_sub(index_bits);
        let data_bits = 64 - quotient_bits;
        let lower_bits = (data_bits - 1) / 2;
        Layout {
            key_bits,
            index_bits,
            data_bits,
            lower_bits,
            upper_bits: data_bits - 1 - lower_bits,
        }
    }

    fn slots(self) -> usize {
        1 << self.index_bits
    }

    /// The slot and the quotient of `key`.
    #[inline]
    fn place(self, key: u64) -> (usize, u64) {
        debug_assert!(
            self.key_bits == 64 || key >> self.key_bits == 0,
            "a compact key of {key:#x} is wider than the game's key_bits() = {}",
            self.key_bits
        );
        self.place_mixed(low(key.wrapping_mul(MIX), self.key_bits))
    }

    /// The slot and the quotient of a mixed key.
    #[inline]
    fn place_mixed(self, mixed: u64) -> (usize, u64) {
        let quotient_bits = self.key_bits.saturating_sub(self.index_bits);
        let slot = (mixed >> quotient_bits) as usize & (self.slots() - 1);
        (slot, low(mixed, quotient_bits))
    }

    /// The mixed key and the bound that `word`, found in `slot`, holds (`None` for an empty
    /// slot): slot and quotient give back the mixed key, so a table can move its entries to
    /// one of another size without knowing the states.
    fn entry(self, slot: usize, word: u64) -> Option<(u64, Bound)> {
        let quotient = word.checked_shr(self.data_bits).unwrap_or(0);
        let bound = self.read(word, quotient)?;
        let quotient_bits = self.key_bits.saturating_sub(self.index_bits);
        let mixed = (slot as u64).checked_shl(quotient_bits).unwrap_or(0) | quotient;
        Some((mixed, bound))
    }

    /// The bound a word holds for `quotient`, if it holds one for it.
    #[inline]
    fn read(self, word: u64, quotient: u64) -> Option<Bound> {
        if word & 1 == 0 || word.checked_shr(self.data_bits).unwrap_or(0) != quotient {
            return None;
        }
        let lower = field_value(word >> 1, self.lower_bits, -Score::MAX);
        let upper = field_value(word >> (1 + self.lower_bits), self.upper_bits, Score::MAX);
        Some(Bound::new(lower, upper))
    }

    /// The word to store for `bound` of the key with `quotient` in a slot that holds `old`:
    /// merged with `old`'s bound if that is the same key's; `None` if it says nothing that fits.
    #[inline]
    fn update(self, old: u64, quotient: u64, bound: Bound) -> Option<u64> {
        let bound = match self.read(old, quotient) {
            Some(known) => known.intersect(bound),
            None => bound,
        };
        self.write(quotient, bound)
    }

    /// The word that holds `bound` for `quotient`; `None` if the bound says nothing that fits.
    #[inline]
    fn write(self, quotient: u64, bound: Bound) -> Option<u64> {
        let lower = lower_field(bound.lower, self.lower_bits);
        let upper = upper_field(bound.upper, self.upper_bits);
        if lower.is_none() && upper.is_none() {
            return None;
        }
        let lower = lower.unwrap_or(1 << (self.lower_bits - 1));
        let upper = upper.unwrap_or(1 << (self.upper_bits - 1));
        let data = 1 | (lower << 1) | (upper << (1 + self.lower_bits));
        Some(quotient.checked_shl(self.data_bits).unwrap_or(0) | data)
    }
}

/// The largest magnitude a signed field of `bits` bits holds (its most negative pattern marks
/// "nothing known").
#[inline]
fn field_max(bits: u32) -> i64 {
    (1i64 << (bits - 1)) - 1
}

/// A lower bound as a field, rounded down to what fits; `None` if nothing useful fits.
#[inline]
fn lower_field(value: Score, bits: u32) -> Option<u64> {
    let max = field_max(bits);
    (value >= -max).then(|| low(value.min(max) as u64, bits))
}

/// An upper bound as a field, rounded up to what fits; `None` if nothing useful fits.
#[inline]
fn upper_field(value: Score, bits: u32) -> Option<u64> {
    let max = field_max(bits);
    (value <= max).then(|| low(value.max(-max) as u64, bits))
}

/// The value of a field (`unknown` for the "nothing known" pattern).
#[inline]
fn field_value(raw: u64, bits: u32, unknown: Score) -> Score {
    let raw = low(raw, bits);
    let shift = 64 - bits;
    let value = ((raw << shift) as i64) >> shift;
    if value == -field_max(bits) - 1 {
        unknown
    } else {
        value
    }
}

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
    /// A table of at most `bytes` bytes (the largest power-of-two number of 8-byte slots that
    /// fits, at least 16), for `game`'s keys. Refused if the allocation fails.
    pub fn for_game<G: CompactKey + ?Sized>(game: &G, bytes: u64) -> Result<Self, Error> {
        let layout = Layout::new(game.key_bits(), bytes / 8);
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
    pub fn resized(&self, bytes: u64) -> Result<Self, Error> {
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
/// entries of `old`, a table laid out as `from`, and how many slots they fill: what both
/// tables' `resized` do, over their own kind of word (`word` gives its bits to write).
fn carried<W: ZeroWord>(
    from: Layout,
    old: impl Iterator<Item = u64>,
    bytes: u64,
    word: impl Fn(&mut W) -> &mut u64,
) -> Result<(Layout, Words<W>, usize), Error> {
    let layout = Layout::new(from.key_bits, bytes / 8);
    let mut words = Words::zeroed(layout.slots(), "a fixed bound table")?;
    let mut occupied = 0;
    for (slot, old) in old.enumerate() {
        if let Some((mixed, bound)) = from.entry(slot, old) {
            let (slot, quotient) = layout.place_mixed(mixed);
            if let Some(new) = layout.write(quotient, bound) {
                let target = word(&mut words[slot]);
                occupied += usize::from(*target == 0);
                *target = new;
            }
        }
    }
    Ok((layout, words, occupied))
}

impl<G: CompactKey + ?Sized> BoundTable<G> for FixedBoundTable {
    #[inline]
    fn get(&self, game: &G, state: &G::State) -> Option<Bound> {
        let (slot, quotient) = self.layout.place(game.key(state));
        self.layout.read(self.words[slot], quotient)
    }

    #[inline]
    fn store(&mut self, game: &G, state: &G::State, bound: Bound) {
        let (slot, quotient) = self.layout.place(game.key(state));
        let old = self.words[slot];
        if let Some(word) = self.layout.update(old, quotient, bound) {
            self.occupied += usize::from(old == 0);
            self.words[slot] = word;
        }
    }

    fn len(&self) -> usize {
        self.occupied
    }

    fn fingerprint(&self, game: &G, state: &G::State) -> Option<u64> {
        Some(game.key(state))
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
    pub fn for_game<G: CompactKey + ?Sized>(game: &G, bytes: u64) -> Result<Self, Error> {
        let layout = Layout::new(game.key_bits(), bytes / 8);
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
    pub fn resized(&self, bytes: u64) -> Result<Self, Error> {
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
    fn get(&self, game: &G, state: &G::State) -> Option<Bound> {
        let (slot, quotient) = self.layout.place(game.key(state));
        self.layout
            .read(self.words[slot].load(Ordering::Relaxed), quotient)
    }

    #[inline]
    fn store(&self, game: &G, state: &G::State, bound: Bound) {
        let (slot, quotient) = self.layout.place(game.key(state));
        let word = &self.words[slot];
        let old = word.load(Ordering::Relaxed);
        let Some(new) = self.layout.update(old, quotient, bound) else {
            return;
        };
        // A plain store, never a compare-and-swap: on a fresh table nearly every store fills
        // an empty slot, and a locked instruction waits for the slot's line where a store
        // does not (it cost a search on two threads a fifth of its time). Two threads that
        // fill one empty slot at once both count it: `len` may then run ahead by one.
        word.store(new, Ordering::Relaxed);
        if old == 0 {
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
        Some(game.key(state))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(bits: u32) -> impl Iterator<Item = u64> {
        (0..3000u64).map(move |k| low(k.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ k, bits))
    }

    #[test]
    fn different_keys_never_share_slot_and_quotient() {
        for key_bits in [1, 5, 17, 49, 63, 64] {
            for slots in [1u64, 16, 1000, 1 << 20] {
                let layout = Layout::new(key_bits, slots);
                let mut owner = std::collections::HashMap::new();
                for key in keys(key_bits) {
                    let (slot, quotient) = layout.place(key);
                    assert!(slot < layout.slots());
                    let first = *owner.entry((slot, quotient)).or_insert(key);
                    assert_eq!(first, key, "k={key_bits} slots={slots}");
                }
            }
        }
    }

    #[test]
    fn stored_bounds_read_back_exact_or_weaker_and_only_for_their_key() {
        let bounds = [
            Bound::exactly(0),
            Bound::exactly(-5),
            Bound::new(-3, 7),
            Bound::at_least(12),
            Bound::at_most(-40),
            Bound::exactly(1 << 40),
            Bound::new(-(1 << 50), 1 << 50),
            Bound::exactly(Score::MAX),
            Bound::exactly(-Score::MAX),
        ];
        for (key_bits, slots) in [
            (49, 1 << 23),
            (64, 1 << 23),
            (64, 16),
            (20, 1 << 20),
            (8, 16),
        ] {
            let layout = Layout::new(key_bits, slots);
            for bound in bounds {
                let quotient = keys(key_bits).map(|k| layout.place(k).1).max().unwrap();
                let Some(word) = layout.write(quotient, bound) else {
                    // Nothing that fits: both sides round to "unknown".
                    assert!(lower_field(bound.lower, layout.lower_bits).is_none());
                    continue;
                };
                let read = layout.read(word, quotient).unwrap();
                assert!(
                    read.lower <= bound.lower && read.upper >= bound.upper,
                    "{bound:?} {read:?}"
                );
                if bound.lower.abs() <= field_max(layout.lower_bits)
                    && bound.upper.abs() <= field_max(layout.upper_bits)
                {
                    assert_eq!(read, bound, "fits, so kept exactly");
                }
                if quotient > 0 {
                    assert_eq!(layout.read(word, quotient - 1), None);
                }
            }
        }
    }

    #[test]
    fn entries_move_to_a_table_of_another_size_under_their_own_keys() {
        for key_bits in [1, 5, 20, 49, 64] {
            for (from, to) in [(16u64, 1 << 12), (1 << 12, 16), (1 << 10, 1 << 10)] {
                let (old, new) = (Layout::new(key_bits, from), Layout::new(key_bits, to));
                for (i, key) in keys(key_bits).enumerate() {
                    let bound = Bound::new(-(i as Score % 50), i as Score % 70);
                    let (slot, quotient) = old.place(key);
                    let Some(word) = old.write(quotient, bound) else {
                        continue; // nothing that fits in fields this narrow
                    };
                    let (mixed, read) = old.entry(slot, word).unwrap();
                    // What the slot holds for the key (weaker where the fields are narrow).
                    assert_eq!(Some(read), old.read(word, quotient));
                    assert_eq!(new.place_mixed(mixed), new.place(key), "k={key_bits}");
                }
                assert_eq!(old.entry(3, 0), None);
            }
        }
    }

    #[test]
    fn connect_four_layout_keeps_its_scores_exactly() {
        let layout = Layout::new(49, 1 << 23);
        assert_eq!(field_max(layout.lower_bits), (1 << 17) - 1);
        assert!(field_max(layout.upper_bits) >= (1 << 17) - 1);
    }
}
