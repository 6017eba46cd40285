//! LeetCode 1406, "Stone Game III": stones with integer values in a row; each turn takes the
//! first 1, 2 or 3 stones and scores their sum. The answer is who wins ("Alice", "Bob" or
//! "Tie") and by how much.

use crate::error::InputError;
use crate::game::{Capabilities, Declares, DenseIndex, Game, Score, Step, Turn};

/// A validated Stone Game III instance: at least one stone, and `Σ |values|` within `i64`.
///
/// ```
/// use gamesolver::{engines::exhaustive, games::StoneGameIII, memo::HashTable};
///
/// let game = StoneGameIII::new(vec![1, 2, 3, 7]).unwrap();
/// assert_eq!(exhaustive::solve(&game, HashTable::new(), exhaustive::Options::new()).unwrap().value(), -1); // Bob wins by 1
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoneGameIII {
    values: Vec<i64>,
    /// `suffix[i]` = `values[i] + … + values[n − 1]`.
    suffix: Vec<i64>,
}

impl StoneGameIII {
    /// Checks the values: at least one, and every score within `i64`.
    pub fn new(values: Vec<i64>) -> Result<Self, InputError> {
        const NAME: &str = "Stone Game III";
        super::check_count(NAME, "stone", "stones", values.len(), 1)?;
        let mut bound = 0i64;
        for (index, value) in values.iter().enumerate() {
            bound = value
                .checked_abs()
                .and_then(|size| bound.checked_add(size))
                .ok_or(InputError::TotalOverflow {
                    what: "the bound on the scores (Σ |values|)",
                    unit: "stone",
                    position: index + 1,
                })?;
        }
        let mut suffix = vec![0i64; values.len() + 1];
        for index in (0..values.len()).rev() {
            suffix[index] = suffix[index + 1] + values[index];
        }
        Ok(StoneGameIII { values, suffix })
    }

    /// The stones' values.
    pub fn values(&self) -> &[i64] {
        &self.values
    }
}

impl Game for StoneGameIII {
    /// The first stone left (from 0).
    type State = u32;
    /// How many stones to take (1 to 3).
    type Move = u32;
    fn start(&self) -> u32 {
        0
    }
    fn moves(&self, next: &u32) -> impl Iterator<Item = u32> {
        let left = self.values.len() as u32 - next;
        1..=left.min(3)
    }
    fn play(&self, next: &u32, take: &u32) -> Step<u32> {
        let after = next + take;
        Step {
            next: after,
            gain: self.suffix[*next as usize] - self.suffix[after as usize],
            turn: Turn::Pass,
        }
    }
    fn payoff(&self, _: &u32) -> Score {
        0
    }
    fn state_bound(&self) -> Option<u64> {
        Some(self.values.len() as u64)
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().dense_index()
    }
}

impl DenseIndex for StoneGameIII {
    fn index_len(&self) -> usize {
        self.values.len() + 1
    }
    fn index(&self, next: &u32) -> usize {
        *next as usize
    }
}

#[cfg(feature = "cli")]
pub(super) mod cli {
    //! LeetCode 1406, Stone Game III: take 1 to 3 stones from the front; who wins.

    use crate::InputError;
    use crate::games::StoneGameIII;
    use crate::{Score, engines::Ply};

    use crate::cli::serde_json;

    use crate::cli::model::{Answer, Entry, Fields, Line};
    use crate::cli::present::{Presented, alice_or_bob, integers, piles_view, result, row, winner};
    use crate::cli::{Bundled, FromValues};

    /// Stone Game III on the command line.
    pub const GAME: Bundled = Bundled::game::<StoneGameIII>(
        "stone-game-iii",
        "LeetCode 1406: take 1 to 3 stones from the front; who wins (Alice, Bob or Tie)",
    );

    impl FromValues for StoneGameIII {
        const EXAMPLE: &'static str = "1,2,3,7";
        const POSITION: Option<&'static str> = Some("'STONE': the next stone, from 1");
        fn from_values(values: &[i64]) -> Result<Self, InputError> {
            StoneGameIII::new(values.to_vec())
        }
    }

    impl Presented for StoneGameIII {
        fn position(&self, position: &str) -> Result<Self::State, InputError> {
            let n = self.values().len() as i64;
            match *integers(position)? {
                [next] if (1..=n + 1).contains(&next) => Ok(next as u32 - 1),
                _ => Err(InputError::InvalidState(format!(
                    "a Stone Game III position is 'STONE': the next stone, from 1 to {} ({} is \
                 the end)",
                    n + 1,
                    n + 1
                ))),
            }
        }
        fn show(&self, next: &u32) -> String {
            let left = &self.values()[*next as usize..];
            format!(
                "Stones left (from stone {}): {}",
                next + 1,
                row(left.iter().copied())
            )
        }
        fn view(&self, next: &u32) -> serde_json::Value {
            piles_view(self.values(), *next as usize, self.values().len())
        }
        fn move_name(&self, _: &u32, stones: &u32) -> String {
            stones.to_string()
        }
        fn move_hint(&self) -> Option<&'static str> {
            Some("how many stones to take from the front")
        }
        fn answer(&self, value: Score) -> Answer {
            winner(value, "Alice", "Bob", "Tie")
        }
        fn headline(&self, value: Score) -> String {
            format!(
                "Stone Game III with {} stones: {} with both playing optimally.",
                self.values().len(),
                result(value)
            )
        }
        fn entries(&self, line: &[Ply<Self>]) -> Line {
            line.iter()
                .map(|ply| {
                    let player = alice_or_bob(ply.player);
                    let first = ply.state + 1;
                    Entry {
                        player,
                        text: format!(
                            "{player} takes {} stone{} from stone {first} (worth {})",
                            ply.mv,
                            if ply.mv == 1 { "" } else { "s" },
                            ply.gain
                        ),
                        fields: Fields::new()
                            .with("first_stone", first)
                            .with("stones", ply.mv)
                            .with("gain", ply.gain),
                    }
                })
                .collect()
        }
    }
}
