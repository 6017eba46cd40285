//! How a fixed table packs an entry into one 64-bit word, and which of a bucket's two words a
//! new entry takes.
//!
//! A game's [compact key](crate::CompactKey) of `k` bits (up to 128) is first mixed by a
//! bijection of `0..2^k` (multiplication by an odd constant modulo `2^k`). Of the mixed key, the
//! top `b` bits choose one of the `2^b` buckets, two words each, and the other `k − b` bits (the
//! *quotient*, at most 61: a key of more than 64 bits needs a table of enough buckets) are
//! stored in the word. Bucket and quotient together give back the mixed key, and so the
//! key: two states share an entry only if they have the same key. Below the quotient a word
//! holds, from its lowest bit: an "occupied" bit, the lower and the upper bound (signed fields;
//! a bound too large for its field is stored weaker, a lower bound rounded down and an upper
//! bound rounded up, which is still true), the index of the best move (all ones: none), and the
//! work the entry cost, as a small logarithm of the states its search expanded.

use crate::error::SolveError;
use crate::game::Score;
use crate::memo::bounds::{Bound, Entry};

/// The odd multiplier that mixes keys of up to 64 bits (2⁶⁴ divided by the golden ratio, made
/// odd).
const MIX: u64 = 0x9E37_79B9_7F4A_7C15;

/// The odd multiplier that mixes wider keys (2¹²⁸ divided by the golden ratio, made odd).
const MIX_WIDE: u128 = 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835;

/// The widest key a table takes.
pub(super) const MAX_KEY_BITS: u32 = 128;

/// The most bits of a key a word keeps (the rest are the bucket's): three are left for the
/// "occupied" bit and two one-bit bounds at least.
const MAX_QUOTIENT_BITS: u32 = 61;

/// The fewest words a fixed table has.
pub(super) const MIN_SLOTS: u64 = 16;

/// How keys, bounds, moves and work are packed into a word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Layout {
    pub(super) key_bits: u32,
    /// Buckets are `2^bucket_bits`, of two words each.
    bucket_bits: u32,
    quotient_bits: u32,
    pub(super) lower_bits: u32,
    pub(super) upper_bits: u32,
    best_bits: u32,
    work_bits: u32,
    /// The low `key_bits` and `quotient_bits` bits, for keys of up to 64 bits (masks worked out
    /// once: a probe otherwise shifts by an amount held in a register, twice).
    key_mask: u64,
    quotient_mask: u64,
}

/// `x` with only its low `bits` bits (all of them for 64).
#[inline]
pub(super) fn low(x: u64, bits: u32) -> u64 {
    if bits >= 64 { x } else { x & ((1 << bits) - 1) }
}

/// `x` with only its low `bits` bits (all of them for 128).
#[inline]
fn low_wide(x: u128, bits: u32) -> u128 {
    if bits >= 128 {
        x
    } else {
        x & ((1 << bits) - 1)
    }
}

/// A bucket of a table: the index of its first word (the second follows it).
pub(super) type Bucket = usize;

impl Layout {
    /// The layout of a table of at most `slots_wanted` words (a power of two, at least
    /// [`MIN_SLOTS`]) for keys of `key_bits` bits; refused where the words are too few for the
    /// key: a key of `k > 64` bits needs at least `2^(k − 60)` words.
    pub(super) fn new(key_bits: u32, slots_wanted: u64) -> Result<Layout, SolveError> {
        let key_bits = key_bits.clamp(1, MAX_KEY_BITS);
        let slot_bits = 63 - slots_wanted.max(MIN_SLOTS).leading_zeros();
        let bucket_bits = (slot_bits - 1).min(key_bits);
        let quotient_bits = key_bits - bucket_bits;
        if quotient_bits > MAX_QUOTIENT_BITS {
            let needed = key_bits - MAX_QUOTIENT_BITS + 1;
            return Err(SolveError::Unsupported(format!(
                "a fixed bound table of {} words is too small for keys of {key_bits} bits: \
                 it needs at least 2^{needed} words (the bucket keeps what the word cannot)",
                1u64 << slot_bits
            )));
        }
        let data_bits = 64 - quotient_bits;
        // The move and the work where the word has room for them beside two useful bounds.
        let (best_bits, work_bits) = if data_bits >= 1 + 6 + 5 + 2 * 8 {
            (6, 5)
        } else if data_bits >= 1 + 4 + 3 + 2 * 6 {
            (4, 3)
        } else {
            (0, 0)
        };
        let bound_bits = data_bits - 1 - best_bits - work_bits;
        let lower_bits = bound_bits / 2;
        Ok(Layout {
            key_bits,
            bucket_bits,
            quotient_bits,
            lower_bits,
            upper_bits: bound_bits - lower_bits,
            best_bits,
            work_bits,
            key_mask: low(u64::MAX, key_bits),
            quotient_mask: low(u64::MAX, quotient_bits),
        })
    }

    /// The number of words.
    pub(super) fn slots(self) -> usize {
        2 << self.bucket_bits
    }

    /// Where the quotient starts in a word.
    #[inline]
    fn data_bits(self) -> u32 {
        64 - self.quotient_bits
    }

    /// The bucket and the quotient of `key`.
    #[inline]
    pub(super) fn place(self, key: u128) -> (Bucket, u64) {
        debug_assert!(
            self.key_bits == MAX_KEY_BITS || key >> self.key_bits == 0,
            "a compact key of {key:#x} is wider than the game's key_bits() = {}",
            self.key_bits
        );
        if self.key_bits <= 64 {
            // The common case in one 64-bit multiplication.
            let mixed = (key as u64).wrapping_mul(MIX) & self.key_mask;
            let bucket = mixed.checked_shr(self.quotient_bits).unwrap_or(0) as usize;
            (
                (bucket & ((1 << self.bucket_bits) - 1)) << 1,
                mixed & self.quotient_mask,
            )
        } else {
            self.place_mixed(low_wide(key.wrapping_mul(MIX_WIDE), self.key_bits))
        }
    }

    /// The bucket and the quotient of a mixed key.
    #[inline]
    pub(super) fn place_mixed(self, mixed: u128) -> (Bucket, u64) {
        let bucket = mixed.checked_shr(self.quotient_bits).unwrap_or(0) as usize;
        (
            (bucket & ((1 << self.bucket_bits) - 1)) << 1,
            low_wide(mixed, self.quotient_bits) as u64,
        )
    }

    /// The mixed key, the entry and the work that `word`, found at `slot`, holds (`None` for
    /// an empty word): bucket and quotient give back the mixed key, so a table can move its
    /// entries to one of another size without knowing the states.
    pub(super) fn entry(self, slot: usize, word: u64) -> Option<(u128, Entry, u32)> {
        let quotient = word.checked_shr(self.data_bits()).unwrap_or(0);
        let (entry, work) = self.read(word, quotient)?;
        let mixed = ((slot >> 1) as u128)
            .checked_shl(self.quotient_bits)
            .unwrap_or(0)
            | u128::from(quotient);
        Some((mixed, entry, work))
    }

    /// The entry and the work a word holds for `quotient`, if it holds one for it.
    #[inline]
    pub(super) fn read(self, word: u64, quotient: u64) -> Option<(Entry, u32)> {
        if word & 1 == 0 || word.checked_shr(self.data_bits()).unwrap_or(0) != quotient {
            return None;
        }
        let lower = field_value(word >> 1, self.lower_bits, -Score::MAX);
        let upper = field_value(word >> (1 + self.lower_bits), self.upper_bits, Score::MAX);
        let at = 1 + self.lower_bits + self.upper_bits;
        let best = low(word >> at, self.best_bits);
        let best = (best != low(u64::MAX, self.best_bits)).then_some(best as u16);
        let work = low(word >> (at + self.best_bits), self.work_bits) as u32;
        Some((
            Entry {
                bound: Bound::new(lower, upper),
                best,
            },
            work,
        ))
    }

    /// The work field for a search that expanded `states`: about a base-4 logarithm, as large
    /// as the field holds.
    #[inline]
    pub(super) fn work_of(self, states: u64) -> u32 {
        let code = (64 - states.leading_zeros()).div_ceil(2);
        code.min(low(u64::MAX, self.work_bits) as u32)
    }

    /// The word that holds `entry` and `work` (as much of it as the field holds) for
    /// `quotient`; `None` if the entry says nothing that fits (no bound and no move).
    #[inline]
    pub(super) fn write(self, quotient: u64, entry: Entry, work: u32) -> Option<u64> {
        let lower = lower_field(entry.bound.lower, self.lower_bits);
        let upper = upper_field(entry.bound.upper, self.upper_bits);
        let none = low(u64::MAX, self.best_bits);
        let best = entry
            .best
            .map(u64::from)
            .filter(|&best| best < none)
            .unwrap_or(none);
        if lower.is_none() && upper.is_none() && best == none {
            return None;
        }
        let lower = lower.unwrap_or(1 << (self.lower_bits - 1));
        let upper = upper.unwrap_or(1 << (self.upper_bits - 1));
        let at = 1 + self.lower_bits + self.upper_bits;
        let data = 1
            | (lower << 1)
            | (upper << (1 + self.lower_bits))
            | (best << at)
            | (low(u64::from(work), self.work_bits) << (at + self.best_bits));
        Some(quotient.checked_shl(self.data_bits()).unwrap_or(0) | data)
    }

    /// Which of a bucket's words (`0` or `1`) takes `entry` of the key with `quotient`, and the
    /// word to write there; `None` if nothing is to be written. An entry of the same key is
    /// merged into its word; otherwise an empty word is taken, else the word whose entry cost
    /// less work (an exact entry counting as a little more), the second on a tie: the first word
    /// keeps the costlier entries, the second the newest.
    #[inline]
    pub(super) fn store(
        self,
        words: [u64; 2],
        quotient: u64,
        entry: Entry,
        work: u32,
    ) -> Option<(usize, u64)> {
        for (which, word) in words.into_iter().enumerate() {
            if let Some((old, old_work)) = self.read(word, quotient) {
                let merged = old.merged(entry);
                return self
                    .write(quotient, merged, old_work.max(work))
                    .map(|word| (which, word));
            }
        }
        let victim = if words[0] == 0 {
            0
        } else if words[1] == 0 {
            1
        } else {
            usize::from(self.worth(words[1]) <= self.worth(words[0]))
        };
        self.write(quotient, entry, work).map(|word| (victim, word))
    }

    /// What keeping an occupied word is worth: its work, and a little more if it is exact.
    #[inline]
    fn worth(self, word: u64) -> u32 {
        let quotient = word.checked_shr(self.data_bits()).unwrap_or(0);
        self.read(word, quotient).map_or(0, |(entry, work)| {
            2 * work + u32::from(entry.bound.is_exact())
        })
    }
}

/// The largest magnitude a signed field of `bits` bits holds (its most negative pattern marks
/// "nothing known").
#[inline]
pub(super) fn field_max(bits: u32) -> i64 {
    (1i64 << (bits - 1)) - 1
}

/// A lower bound as a field, rounded down to what fits; `None` if nothing useful fits.
#[inline]
pub(super) fn lower_field(value: Score, bits: u32) -> Option<u64> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(bits: u32) -> impl Iterator<Item = u128> {
        (0..3000u128).map(move |k| {
            low_wide(
                k.wrapping_mul(0x2545_F491_4F6C_DD1D_D3C2_9F4A_0B3D_11E7) ^ k,
                bits,
            )
        })
    }

    #[test]
    fn different_keys_never_share_bucket_and_quotient() {
        for key_bits in [1, 5, 17, 49, 63, 64, 65, 70, 90, 128] {
            for slots in [1u64, 16, 1000, 1 << 20, 1 << 30, 1 << 40] {
                let Ok(layout) = Layout::new(key_bits, slots) else {
                    // Refused only where the words cannot keep what the bucket does not.
                    assert!(key_bits > 64 && u128::from(slots) < 1 << (key_bits - 60));
                    continue;
                };
                let mut owner = std::collections::HashMap::new();
                for key in keys(key_bits) {
                    let (bucket, quotient) = layout.place(key);
                    assert!(bucket + 1 < layout.slots() && bucket % 2 == 0);
                    let first = *owner.entry((bucket, quotient)).or_insert(key);
                    assert_eq!(first, key, "k={key_bits} slots={slots}");
                }
            }
        }
    }

    #[test]
    fn stored_entries_read_back_exact_or_weaker_and_only_for_their_key() {
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
            (70, 1 << 23),
            (70, 1 << 27),
            (72, 1 << 12),
        ] {
            let layout = Layout::new(key_bits, slots).unwrap();
            for bound in bounds {
                for best in [None, Some(0), Some(5), Some(200)] {
                    let quotient = keys(key_bits).map(|k| layout.place(k).1).max().unwrap();
                    let entry = Entry { bound, best };
                    let Some(word) = layout.write(quotient, entry, layout.work_of(1000)) else {
                        // Nothing that fits: both sides round to "unknown", and no move.
                        assert!(lower_field(bound.lower, layout.lower_bits).is_none());
                        continue;
                    };
                    let (read, work) = layout.read(word, quotient).unwrap();
                    assert!(
                        read.bound.lower <= bound.lower && read.bound.upper >= bound.upper,
                        "{bound:?} {read:?}"
                    );
                    if bound.lower.abs() <= field_max(layout.lower_bits)
                        && bound.upper.abs() <= field_max(layout.upper_bits)
                    {
                        assert_eq!(read.bound, bound, "fits, so kept exactly");
                    }
                    // A move is kept where it fits, and only then.
                    assert!(
                        read.best.is_none() || read.best == best,
                        "{best:?} {read:?}"
                    );
                    if layout.best_bits >= 6 && best.is_some_and(|best| best < 63) {
                        assert_eq!(read.best, best);
                    }
                    assert_eq!(work, layout.work_of(1000));
                    if quotient > 0 {
                        assert_eq!(layout.read(word, quotient - 1), None);
                    }
                }
            }
        }
    }

    #[test]
    fn entries_move_to_a_table_of_another_size_under_their_own_keys() {
        for key_bits in [1, 5, 20, 49, 64, 70] {
            for (from, to) in [(16u64, 1 << 12), (1 << 12, 16), (1 << 10, 1 << 10)] {
                let (from, to) = (from << 10, to << 10);
                let (old, new) = (
                    Layout::new(key_bits, from).unwrap(),
                    Layout::new(key_bits, to).unwrap(),
                );
                for (i, key) in keys(key_bits).enumerate() {
                    let entry = Entry::new(Bound::new(-(i as Score % 50), i as Score % 70));
                    let (bucket, quotient) = old.place(key);
                    let Some(word) = old.write(quotient, entry, 3) else {
                        continue; // nothing that fits in fields this narrow
                    };
                    for slot in [bucket, bucket + 1] {
                        let (mixed, read, _) = old.entry(slot, word).unwrap();
                        // What the word holds for the key (weaker where the fields are narrow).
                        assert_eq!(Some(read), old.read(word, quotient).map(|(entry, _)| entry));
                        assert_eq!(new.place_mixed(mixed), new.place(key), "k={key_bits}");
                    }
                }
                assert_eq!(old.entry(3, 0), None);
            }
        }
    }

    #[test]
    fn a_bucket_keeps_the_costlier_entry_and_merges_its_own() {
        let layout = Layout::new(49, 1 << 23).unwrap();
        let (q1, q2, q3) = (1, 2, 3);
        let exact = Entry::new(Bound::exactly(4));
        let lower = Entry::new(Bound::at_least(-2)).with_best(3);
        // An empty bucket: the first word, then the second.
        let (which, w1) = layout.store([0, 0], q1, exact, 9).unwrap();
        assert_eq!(which, 0);
        let (which, w2) = layout.store([w1, 0], q2, lower, 2).unwrap();
        assert_eq!(which, 1);
        // A third key replaces the cheaper entry (the second word), whatever its own work.
        let (which, _) = layout.store([w1, w2], q3, lower, 1).unwrap();
        assert_eq!(which, 1);
        let (which, _) = layout.store([w2, w1], q3, lower, 1).unwrap();
        assert_eq!(which, 0);
        // The same key is merged where it is: both bounds, the newer move, the larger work.
        let (which, merged) = layout
            .store([w1, w2], q2, Entry::new(Bound::at_most(6)), 5)
            .unwrap();
        assert_eq!(which, 1);
        let (entry, work) = layout.read(merged, q2).unwrap();
        assert_eq!(
            (entry.bound, entry.best, work),
            (Bound::new(-2, 6), Some(3), 5)
        );
        // On equal work an exact entry is kept over a bound.
        let (_, bound_word) = layout.store([0, 0], q2, lower, 4).unwrap();
        let (_, exact_word) = layout.store([0, 0], q1, exact, 4).unwrap();
        assert_eq!(
            layout
                .store([exact_word, bound_word], q3, lower, 0)
                .unwrap()
                .0,
            1
        );
        assert_eq!(
            layout
                .store([bound_word, exact_word], q3, lower, 0)
                .unwrap()
                .0,
            0
        );
    }

    #[test]
    fn connect_four_layout_keeps_its_scores_moves_and_work() {
        // 7×6: 49-bit keys; 64 MiB: 2²³ words.
        let layout = Layout::new(49, 1 << 23).unwrap();
        assert_eq!((layout.best_bits, layout.work_bits), (6, 5));
        assert!(field_max(layout.lower_bits) >= (1 << 11) - 1);
        assert!(field_max(layout.upper_bits) >= (1 << 11) - 1);
        assert_eq!(layout.work_of(0), 0);
        assert!(layout.work_of(1 << 20) < layout.work_of(1 << 30));
        assert_eq!(layout.work_of(u64::MAX), 31);
        // 10×6: 70-bit keys; 1 GiB keeps a move and the work, 64 MiB bounds up to ±63.
        let wide = Layout::new(70, 1 << 27).unwrap();
        assert_eq!((wide.best_bits, wide.work_bits), (4, 3));
        assert!(field_max(wide.lower_bits) >= 30 && field_max(wide.upper_bits) >= 30);
        let small = Layout::new(70, 1 << 23).unwrap();
        assert!(field_max(small.lower_bits) >= 63 && field_max(small.upper_bits) >= 63);
        assert!(Layout::new(70, 1 << 9).is_err());
    }
}
