//! The words a Connect Four board is held in: [`u64`] for boards of up to 64 bits (7×6, 8×7 does
//! not fit), [`u128`] for larger ones (8×7, 8×8, 9×7, 10×6, …, up to 128 bits).

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr};

mod sealed {
    /// Only the two words below are boards.
    pub trait Sealed {}
    impl Sealed for u64 {}
    impl Sealed for u128 {}
}

/// A word that holds a board, one bit per cell plus a spare bit above every column: `u64` or
/// `u128` (sealed: no other). [`ConnectFour`](super::ConnectFour) is generic over it, so that
/// a board of up to 64 bits keeps 64-bit arithmetic and a larger one takes 128.
pub trait Bitboard:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
    + sealed::Sealed
{
    /// The bits in the word.
    const BITS: u32;
    /// No bit set.
    const ZERO: Self;
    /// Every bit set.
    const MAX: Self;
    /// Bit `index` alone.
    fn bit(index: u32) -> Self;
    /// `self + other`, wrapping.
    fn wrapping_add(self, other: Self) -> Self;
    /// `self − 1`, wrapping.
    fn less_one(self) -> Self;
    /// `self << shift`, and 0 where the shift passes the word.
    fn up(self, shift: u32) -> Self;
    /// `self >> shift`, and 0 where the shift passes the word.
    fn down(self, shift: u32) -> Self;
    /// The bits set.
    fn count_ones(self) -> u32;
    /// The index of the lowest bit set (`BITS` for none).
    fn trailing_zeros(self) -> u32;
    /// The word as a 128-bit number.
    fn wide(self) -> u128;
}

macro_rules! bitboard {
    ($word:ty) => {
        impl Bitboard for $word {
            const BITS: u32 = <$word>::BITS;
            const ZERO: Self = 0;
            const MAX: Self = <$word>::MAX;
            #[inline(always)]
            fn bit(index: u32) -> Self {
                1 << index
            }
            #[inline(always)]
            fn wrapping_add(self, other: Self) -> Self {
                <$word>::wrapping_add(self, other)
            }
            #[inline(always)]
            fn less_one(self) -> Self {
                <$word>::wrapping_sub(self, 1)
            }
            #[inline(always)]
            fn up(self, shift: u32) -> Self {
                <$word>::checked_shl(self, shift).unwrap_or(0)
            }
            #[inline(always)]
            fn down(self, shift: u32) -> Self {
                <$word>::checked_shr(self, shift).unwrap_or(0)
            }
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$word>::count_ones(self)
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$word>::trailing_zeros(self)
            }
            #[inline(always)]
            fn wide(self) -> u128 {
                u128::from(self)
            }
        }
    };
}

bitboard!(u64);
bitboard!(u128);

/// The cells (empty or not) that would complete four with three of `stones`: vertically (three
/// below), and across and on both diagonals (column strides of `h + 1`, `h` and `h + 2`).
#[inline(always)]
pub(super) fn lines<B: Bitboard>(
    stones: B,
    h: u32,
    up: impl Fn(B, u32) -> B,
    down: impl Fn(B, u32) -> B,
) -> B {
    let mut cells = (stones << 1) & (stones << 2) & (stones << 3);
    for shift in [h + 1, h, h + 2] {
        let pair = up(stones, shift) & up(stones, 2 * shift);
        cells |= pair & up(stones, 3 * shift);
        cells |= pair & down(stones, shift);
        let pair = down(stones, shift) & down(stones, 2 * shift);
        cells |= pair & up(stones, shift);
        cells |= pair & down(stones, 3 * shift);
    }
    cells
}
