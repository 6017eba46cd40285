//! Nim: heaps of counters; a move takes any positive number of counters from one heap; the
//! player who cannot move (every heap empty) loses. A win/loss game: the value is +1 if the
//! player to move wins, −1 if they lose.

use crate::error::InputError;
use crate::game::{
    Capabilities, Declares, DenseIndex, Game, Impartial, Nimber, Score, Step, Turn, ValueRange,
};

/// The most positions a Nim instance may have (the product of `heap + 1`): 2⁴⁰.
pub const MAX_NIM_POSITIONS: u64 = 1 << 40;

/// A validated Nim instance. A position is the heap sizes packed into one number (mixed
/// radix: heap `k` is digit `k` in base `heap_k + 1`), so moves never allocate.
///
/// ```
/// use gamesolver::{engines::exhaustive, games::Nim, memo::DenseTable};
///
/// let game = Nim::new(vec![3, 4, 5]).unwrap();
/// let mut solution = exhaustive::solve(&game, DenseTable::for_game(&game), exhaustive::Options::new()).unwrap();
/// assert_eq!(solution.value(), 1); // 3 ^ 4 ^ 5 = 2 ≠ 0: the first player wins
/// let start = solution.start().clone();
/// // The winning move: take 2 from the first heap (leaving 1 ^ 4 ^ 5 = 0).
/// assert_eq!(solution.best_moves(&start).unwrap()[0], (0, 2));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nim {
    heaps: Vec<u32>,
    /// `stride[k]` = the product of `heap_j + 1` for `j < k`.
    stride: Vec<u64>,
    positions: u64,
}

impl Nim {
    /// Checks the heaps: at least one, none negative, at most [`MAX_NIM_POSITIONS`] positions.
    pub fn new(heaps: Vec<i64>) -> Result<Self, InputError> {
        const NAME: &str = "Nim";
        super::check_count(NAME, "heap", "heaps", heaps.len(), 1)?;
        let mut sizes = Vec::with_capacity(heaps.len());
        let mut stride = Vec::with_capacity(heaps.len());
        let mut positions = 1u64;
        for (index, &heap) in heaps.iter().enumerate() {
            let size = u32::try_from(heap).map_err(|_| InputError::OutOfRange {
                unit: "heap",
                position: index + 1,
                value: heap,
                rule: "heaps must be between 0 and 4294967295 counters",
            })?;
            stride.push(positions);
            positions = positions
                .checked_mul(u64::from(size) + 1)
                .filter(|&product| product <= MAX_NIM_POSITIONS)
                .ok_or_else(|| {
                    InputError::InvalidGame(format!(
                        "Nim with these heaps has more than 2^40 positions (the product of \
                         heap + 1 passes it at heap {}): too many to solve",
                        index + 1
                    ))
                })?;
            sizes.push(size);
        }
        Ok(Nim {
            heaps: sizes,
            stride,
            positions,
        })
    }

    /// The heap sizes at the start.
    pub fn heaps(&self) -> &[u32] {
        &self.heaps
    }

    /// The position with these heap sizes (one per heap, each at most the heap's size at the
    /// start).
    ///
    /// ```
    /// use gamesolver::games::Nim;
    /// let game = Nim::new(vec![3, 4, 5]).unwrap();
    /// let position = game.position(&[1, 4, 5]).unwrap();
    /// assert_eq!((game.heap(position, 0), game.heap(position, 2)), (1, 5));
    /// assert!(game.position(&[4, 0, 0]).is_err()); // heap 1 starts with 3
    /// assert!(game.position(&[1, 2]).is_err());    // three heaps
    /// ```
    pub fn position(&self, heaps: &[i64]) -> Result<u64, InputError> {
        if heaps.len() != self.heaps.len() {
            return Err(InputError::InvalidState(format!(
                "this Nim has {} heaps, and the position gives {}",
                self.heaps.len(),
                heaps.len()
            )));
        }
        let mut position = 0;
        for (k, &size) in heaps.iter().enumerate() {
            let start = self.heaps[k];
            let size = u32::try_from(size)
                .ok()
                .filter(|&size| size <= start)
                .ok_or_else(|| {
                    InputError::InvalidState(format!(
                        "heap {} is {size}, but it starts with {start} counters and can only \
                         shrink",
                        k + 1
                    ))
                })?;
            position += u64::from(size) * self.stride[k];
        }
        Ok(position)
    }

    /// The size of heap `k` in `position`.
    pub fn heap(&self, position: u64, k: usize) -> u32 {
        ((position / self.stride[k]) % (u64::from(self.heaps[k]) + 1)) as u32
    }
}

/// How many moves [`Nim::moves_batch`](Game::moves_batch) gives at a time.
const MOVE_BATCH: u64 = 64;

impl Game for Nim {
    /// The heap sizes, packed.
    type State = u64;
    /// (heap index, counters taken).
    type Move = (u32, u32);
    fn start(&self) -> u64 {
        self.positions - 1 // every heap at its full size
    }
    /// Heap by heap, the largest take first: a winning move (to heaps whose XOR is 0) is
    /// usually found early, and the search with the declared range ([`ValueRange`]) stops
    /// there. (`1,65535`: smallest first, 4.6 · 10⁹ table hits; largest first, 7.)
    fn moves(&self, position: &u64) -> impl Iterator<Item = (u32, u32)> {
        (0..self.heaps.len()).flat_map(move |k| {
            let size = self.heap(*position, k);
            (1..=size).rev().map(move |take| (k as u32, take))
        })
    }
    /// Lazy moves: [`moves`](Game::moves)' order, 64 moves a batch, so that a
    /// position whose winning move comes early (the largest take of a heap, often) never
    /// lists the heaps' other takes.
    fn moves_batch(&self, position: &u64, batch: usize, moves: &mut Vec<(u32, u32)>) -> bool {
        let mut skip = batch as u64 * MOVE_BATCH;
        let mut room = MOVE_BATCH;
        let mut rest = 0;
        for k in 0..self.heaps.len() {
            let size = u64::from(self.heap(*position, k));
            if room == 0 {
                rest += size;
            } else if skip >= size {
                skip -= size;
            } else {
                // This heap's takes from `size - skip` down, as many as the batch has room.
                let first = size - skip;
                let count = first.min(room);
                let heap = k as u32;
                moves.extend(
                    (first + 1 - count..=first)
                        .rev()
                        .map(|take| (heap, take as u32)),
                );
                (skip, room, rest) = (0, room - count, first - count);
            }
        }
        rest > 0
    }
    fn play(&self, position: &u64, &(k, take): &(u32, u32)) -> Step<u64> {
        Step {
            next: position - u64::from(take) * self.stride[k as usize],
            gain: 0,
            turn: Turn::Pass,
        }
    }
    /// Every heap is empty: the player to move cannot move and loses.
    fn payoff(&self, _: &u64) -> Score {
        -1
    }
    fn state_bound(&self) -> Option<u64> {
        Some(self.positions)
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().value_range().dense_index().impartial()
    }
}

/// Each heap is a part: the position with that heap alone (the others empty), worth its size
/// (Bouton, 1901: a heap of n counters has the options 0, …, n − 1).
impl Impartial for Nim {
    fn split(&self, position: &u64, parts: &mut Vec<u64>) {
        for k in 0..self.heaps.len() {
            let size = self.heap(*position, k);
            if size > 0 {
                parts.push(u64::from(size) * self.stride[k]);
            }
        }
    }

    fn known_nimber(&self, part: &u64) -> Option<Nimber> {
        let heaps = (0..self.heaps.len()).map(|k| self.heap(*part, k));
        Some(heaps.fold(0, |xor, size| xor ^ size))
    }
}

/// Every position is won or lost: values lie in `-1..=1`, so the search of a position stops
/// at its first winning move.
impl ValueRange for Nim {
    fn value_range(&self, _: &u64) -> (Score, Score) {
        (-1, 1)
    }
}

impl DenseIndex for Nim {
    fn index_len(&self) -> usize {
        self.positions as usize
    }
    fn index(&self, position: &u64) -> usize {
        *position as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The batches, concatenated, are the moves, at every position of a few games (batch
    /// boundaries inside a heap, at its end, and across empty heaps).
    #[test]
    fn batches_are_the_moves_in_order() {
        for heaps in [
            vec![1, 16000],
            vec![64, 0, 63],
            vec![100, 100, 28],
            vec![3, 4, 5],
        ] {
            let game = Nim::new(heaps).unwrap();
            let step = (game.positions / 997).max(1);
            for position in (0..game.positions).step_by(step as usize) {
                let mut all = Vec::new();
                game.moves_into(&position, &mut all);
                let mut batched = Vec::new();
                let mut batch = 0;
                while game.moves_batch(&position, batch, &mut batched) {
                    batch += 1;
                    assert!(batch <= all.len(), "batches past the moves at {position}");
                }
                assert_eq!(batched, all, "position {position}");
            }
        }
    }
}

#[cfg(feature = "cli")]
pub(super) mod cli {
    //! Nim: the VALUES are the heap sizes; who wins, and a winning move.

    use crate::InputError;
    use crate::games::Nim;
    use crate::{Score, engines::Ply};

    use crate::cli::serde_json;

    use crate::cli::model::{Answer, Entry, Fields, Line};
    use crate::cli::present::{Presented, alice_or_bob, integers, winner};
    use crate::cli::{Bundled, FromValues};

    /// Nim on the command line.
    pub const GAME: Bundled = Bundled::game::<Nim>(
        "nim",
        "Nim: the VALUES are the heap sizes; who wins, and a winning move",
    );

    impl FromValues for Nim {
        const EXAMPLE: &'static str = "3 4 5";
        const POSITION: Option<&'static str> = Some("'H1,H2,...': the heaps");
        fn from_values(values: &[i64]) -> Result<Self, InputError> {
            Nim::new(values.to_vec())
        }
    }

    impl Presented for Nim {
        fn position(&self, position: &str) -> Result<Self::State, InputError> {
            Nim::position(self, &integers(position)?)
        }
        fn show(&self, position: &u64) -> String {
            let heaps: Vec<String> = (0..self.heaps().len())
                .map(|k| format!("heap {}: {}", k + 1, self.heap(*position, k)))
                .collect();
            format!("Heaps: {}", heaps.join(", "))
        }
        fn view(&self, position: &u64) -> serde_json::Value {
            let heaps: Vec<u32> = (0..self.heaps().len())
                .map(|k| self.heap(*position, k))
                .collect();
            serde_json::json!({"kind": "heaps", "heaps": heaps})
        }
        fn move_name(&self, _: &u64, &(heap, take): &(u32, u32)) -> String {
            format!("{},{take}", heap + 1)
        }
        fn move_hint(&self) -> Option<&'static str> {
            Some("HEAP,TAKE: 2,3 takes 3 counters from heap 2")
        }
        fn answer(&self, value: Score) -> Answer {
            winner(value, "Alice", "Bob", "Tie")
        }
        fn headline(&self, value: Score) -> String {
            let who = if value > 0 {
                "Alice (moving first)"
            } else {
                "Bob (moving second)"
            };
            format!(
                "Nim with heaps {:?}: {who} wins with perfect play.",
                self.heaps()
            )
        }
        fn entries(&self, line: &[Ply<Self>]) -> Line {
            line.iter()
                .map(|ply| {
                    let player = alice_or_bob(ply.player);
                    let (heap, take) = (ply.mv.0 + 1, ply.mv.1);
                    let from = self.heap(ply.state, ply.mv.0 as usize);
                    Entry {
                        player,
                        text: format!(
                            "{player} takes {take} from heap {heap} ({from} → {})",
                            from - take
                        ),
                        fields: Fields::new().with("heap", heap).with("take", take),
                    }
                })
                .collect()
        }
    }
}
