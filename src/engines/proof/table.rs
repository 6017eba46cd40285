//! The table of proof and disproof numbers: whole questions as keys, growing up to a limit of
//! bytes and then replacing by work.
//!
//! A key is a whole question (a state and the value asked of it), so two questions are never
//! confused. Past its limit, a store that would make the map grow first empties it of its
//! cheaper half: the entries whose search did the least work (in bits), proofs and disproofs
//! kept before open numbers of the same work. A lost entry costs its search again, never a
//! wrong answer: the numbers of an open question only order the search, and a proof or
//! disproof lost is found again.

use std::hash::{Hash, Hasher};
use std::mem::size_of;

use hashbrown::{Equivalent, HashMap};

use crate::game::Score;
use crate::memo::hashbrown_bytes;

/// Proof and disproof numbers: the proof number is 0 for a question proved, the disproof
/// number 0 for one disproved, and either may be [`INFINITE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Numbers {
    /// The least work (leaves to expand) that could prove the question.
    pub(crate) proof: u64,
    /// The least work that could disprove it.
    pub(crate) disproof: u64,
}

/// A proof or disproof number that cannot be met: the question is settled the other way.
pub(crate) const INFINITE: u64 = 1 << 62;

impl Numbers {
    /// A question proved.
    pub(crate) const PROVED: Numbers = Numbers {
        proof: 0,
        disproof: INFINITE,
    };
    /// A question disproved.
    pub(crate) const DISPROVED: Numbers = Numbers {
        proof: INFINITE,
        disproof: 0,
    };

    /// Thresholds that only a settled question reaches.
    pub(crate) const UNBOUNDED: Numbers = Numbers {
        proof: INFINITE,
        disproof: INFINITE,
    };

    /// Whether the question is settled (proved or disproved).
    pub(crate) fn settled(self) -> bool {
        self.proof == 0 || self.disproof == 0
    }

    /// The numbers seen from the other side of a move that passes the turn: proving the
    /// child's question disproves the move, and the other way round.
    pub(crate) fn swapped(self) -> Numbers {
        Numbers {
            proof: self.disproof,
            disproof: self.proof,
        }
    }
}

/// A question looked up by reference: hashed as the key `(state, at_least)` is (a tuple
/// hashes its fields in order), so that a lookup clones no state.
struct Asked<'a, S>(&'a S, Score);

impl<S: Hash> Hash for Asked<'_, S> {
    fn hash<H: Hasher>(&self, hasher: &mut H) {
        self.0.hash(hasher);
        self.1.hash(hasher);
    }
}

impl<S: Eq> Equivalent<(S, Score)> for Asked<'_, S> {
    fn equivalent(&self, key: &(S, Score)) -> bool {
        *self.0 == key.0 && self.1 == key.1
    }
}

/// An entry: the numbers, and the work (states expanded) of the search that found them.
#[derive(Debug, Clone, Copy)]
struct Held {
    numbers: Numbers,
    work: u64,
}

/// What keeping an entry is worth: the bits of its work, doubled, and one more if it is
/// settled.
fn worth(held: &Held) -> usize {
    2 * (64 - held.work.leading_zeros() as usize) + usize::from(held.numbers.settled())
}

/// The most a worth can be.
const MOST_WORTH: usize = 129;

/// The table: questions `(state, at_least)` to their numbers.
pub(crate) struct ProofTable<S> {
    map: HashMap<(S, Score), Held>,
    limit: u64,
    /// Entries dropped to make room.
    pub(crate) dropped: u64,
}

impl<S: Eq + Hash + Clone> ProofTable<S> {
    /// An empty table that never holds more than `limit` bytes.
    pub(crate) fn new(limit: u64) -> Self {
        ProofTable {
            map: HashMap::new(),
            limit,
            dropped: 0,
        }
    }

    /// Heap bytes of a map with room for `capacity` entries.
    fn bytes_for(capacity: usize) -> u64 {
        hashbrown_bytes(capacity as u64, size_of::<((S, Score), Held)>())
    }

    /// Heap bytes now.
    pub(crate) fn bytes(&self) -> u64 {
        Self::bytes_for(self.map.capacity())
    }

    /// Entries held.
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }

    /// The numbers of `(state, at_least)`, if held.
    pub(crate) fn get(&self, state: &S, at_least: Score) -> Option<Numbers> {
        self.map
            .get(&Asked(state, at_least))
            .map(|held| held.numbers)
    }

    /// Stores `numbers` for `(state, at_least)`, found by `work` expansions.
    pub(crate) fn store(&mut self, state: &S, at_least: Score, numbers: Numbers, work: u64) {
        let held = Held { numbers, work };
        if let Some(entry) = self.map.get_mut(&Asked(state, at_least)) {
            *entry = held;
            return;
        }
        if self.map.len() == self.map.capacity() && !self.may_grow() {
            self.drop_cheaper_half();
        }
        self.map.insert((state.clone(), at_least), held);
    }

    /// Whether the map, full, may grow: its next size and its present one (alive while it is
    /// rebuilt) fit the limit.
    fn may_grow(&self) -> bool {
        let next = (2 * self.map.capacity()).max(4);
        self.bytes().saturating_add(Self::bytes_for(next)) <= self.limit
    }

    /// Drops the entries worth least until at most half the map is left.
    fn drop_cheaper_half(&mut self) {
        let mut count = [0usize; MOST_WORTH + 1];
        for held in self.map.values() {
            count[worth(held)] += 1;
        }
        // The least worth kept: the entries worth it or more are at most half the map.
        let half = self.map.len() / 2;
        let mut kept = 0;
        let mut cut = MOST_WORTH + 1;
        while cut > 0 && kept + count[cut - 1] <= half {
            cut -= 1;
            kept += count[cut];
        }
        let before = self.map.len();
        self.map.retain(|_, held| worth(held) >= cut);
        self.dropped += (before - self.map.len()) as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_table_keeps_its_costly_and_settled_entries() {
        let mut table = ProofTable::new(ProofTable::<u32>::bytes_for(64));
        table.store(&0, 1, Numbers::PROVED, 1 << 20);
        assert_eq!(table.get(&0, 1), Some(Numbers::PROVED));
        for state in 1..10_000u32 {
            let numbers = Numbers {
                proof: 3,
                disproof: 4,
            };
            table.store(&state, 1, numbers, 1);
        }
        assert!(table.bytes() <= ProofTable::<u32>::bytes_for(64));
        assert!(table.dropped > 0);
        assert_eq!(table.get(&0, 1), Some(Numbers::PROVED));
        assert_eq!(table.get(&0, 2), None);
    }
}
