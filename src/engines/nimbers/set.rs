//! [`NimberSet`]: the candidates for a part's nimber, and the nimbers a search asks about.

use crate::game::Nimber;

/// A set of nimbers below 256, as bits: the candidates for a part's nimber, and the nimbers a
/// search asks about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct NimberSet(pub(super) [u64; 4]);

impl NimberSet {
    /// Every nimber the sets hold.
    pub(super) const ALL: NimberSet = NimberSet([u64::MAX; 4]);

    /// `{nimber}`, if the sets hold it.
    pub(super) fn single(nimber: Nimber) -> Option<NimberSet> {
        let mut set = NimberSet([0; 4]);
        (nimber < 256).then(|| {
            set.0[nimber as usize / 64] |= 1 << (nimber % 64);
            set
        })
    }

    /// `0..=top`, if the sets hold it.
    pub(super) fn up_to(top: Nimber) -> Option<NimberSet> {
        (top < 256).then(|| NimberSet::ALL.up_to_and_with(top))
    }

    /// The members up to `top`.
    pub(super) fn up_to_and_with(self, top: Nimber) -> NimberSet {
        let mut set = self;
        for (word, bits) in set.0.iter_mut().enumerate() {
            let low = word as Nimber * 64;
            if top < low {
                *bits = 0;
            } else if top - low < 63 {
                *bits &= (1u64 << (top - low + 1)) - 1;
            }
        }
        set
    }

    pub(super) fn contains(self, nimber: Nimber) -> bool {
        nimber < 256 && self.0[nimber as usize / 64] >> (nimber % 64) & 1 == 1
    }

    pub(super) fn remove(&mut self, nimber: Nimber) {
        if nimber < 256 {
            self.0[nimber as usize / 64] &= !(1 << (nimber % 64));
        }
    }

    pub(super) fn is_empty(self) -> bool {
        self.0 == [0; 4]
    }

    pub(super) fn and(self, other: NimberSet) -> NimberSet {
        let mut set = self;
        for (bits, other) in set.0.iter_mut().zip(other.0) {
            *bits &= other;
        }
        set
    }

    pub(super) fn min(self) -> Option<Nimber> {
        let word = self.0.iter().position(|&bits| bits != 0)?;
        Some(word as Nimber * 64 + self.0[word].trailing_zeros())
    }

    pub(super) fn max(self) -> Option<Nimber> {
        let word = self.0.iter().rposition(|&bits| bits != 0)?;
        Some(word as Nimber * 64 + 63 - self.0[word].leading_zeros())
    }

    /// `{n ^ x : n in self}`, if every member's image stays below 256.
    pub(super) fn xor(self, x: Nimber) -> Option<NimberSet> {
        if x == 0 {
            return Some(self);
        }
        if x >= 256 {
            return None;
        }
        let mut set = NimberSet([0; 4]);
        for word in 0..4 {
            let mut bits = self.0[word];
            while bits != 0 {
                let nimber = word as Nimber * 64 + bits.trailing_zeros();
                bits &= bits - 1;
                let image = nimber ^ x;
                set.0[image as usize / 64] |= 1 << (image % 64);
            }
        }
        Some(set)
    }
}
