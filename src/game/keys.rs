//! Capabilities for tables that store keys or classes instead of states: [`CompactKey`] and
//! [`Symmetry`].

use super::Game;

/// An optional capability: an exact key of at most [`key_bits`](CompactKey::key_bits) bits for
/// every state.
///
/// The fixed-capacity bound tables ([`FixedBoundTable`](crate::memo::FixedBoundTable),
/// [`AtomicBoundTable`](crate::memo::AtomicBoundTable)) store the key instead of the state, in
/// one 64-bit word per entry together with the bounds: the bucket an entry lies in keeps part of
/// the key, the word the rest. Fewer key bits leave more room for the bounds: with keys of 49
/// bits (Connect Four on 7×6) and 2²³ slots, values up to ±(2¹⁷ − 1) are kept exactly, and
/// larger values as weaker (still correct) bounds. Keys of more than 64 bits (up to 128) need a
/// table of at least `2^(key_bits − 60)` slots (a table too small is refused): up to about 90
/// bits in practice; wider keys suit a hash table.
///
/// # Contract
///
/// Two states with the same key are the same state (or, with [`Symmetry`], states with the same
/// value); every key is below `2^key_bits()`. A lossy key that maps two different states to
/// one key makes one read the other's bounds: a wrong answer.
pub trait CompactKey: Game {
    /// Every key is below `2^key_bits()` (at most 128; the default, 64, suits a key that is
    /// any `u64`).
    fn key_bits(&self) -> u32 {
        64
    }

    /// The state's key (a `u128`, for states of more than 64 bits; a game whose keys fit a
    /// `u64` returns `u128::from` of it).
    fn key(&self, state: &Self::State) -> u128;
}

/// An optional capability: a canonical representative among states that have the same value
/// (mirror images, rotations, relabellings).
///
/// Wrap any table in [`Canonical`](crate::memo::Canonical) to store each class of symmetric
/// states once: the table is then asked and told about `canonical(state)` instead of `state`.
/// Only the table sees canonical states; engines still play and report the real ones, so lines
/// and move values are in the position's own terms.
///
/// # Contract
///
/// `canonical(canonical(s)) == canonical(s)`, and `s` and `canonical(s)` have the same value.
pub trait Symmetry: Game {
    /// The representative of `state`'s class.
    fn canonical(&self, state: &Self::State) -> Self::State;
}
