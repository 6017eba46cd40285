//! Grundy's game: heaps of counters; a move splits one heap into two heaps of different
//! sizes; the player who cannot move (every heap 1 or 2) loses. Impartial: each heap is a game
//! of its own, and the position's value is the XOR of the heaps' nimbers.
//!
//! The whole game is this file: the rules, and (with the `cli` feature) how the command line
//! and the analysis page read it.

use crate::error::InputError;
use crate::game::{Capabilities, Declares, Game, Impartial, Score, Step, Turn};

/// The largest heap: 2²⁰ counters (the nimbers of heaps up to n take about n²/4 steps).
pub const MAX_HEAP: u32 = 1 << 20;

/// Heaps of counters. A position is the heaps' sizes, in the order they stand (a heap split by
/// a move becomes two heaps in its place, the larger first).
///
/// ```
/// use gamesolver::{games::GrundysGame, Solved, Solver};
///
/// // A heap of 7 has nimber 0 (a loss for the player to move: 6+1, 5+2 and 4+3 all win),
/// // and 8 has 2.
/// let game = GrundysGame::new(&[7])?;
/// assert_eq!(Solver::new(&game).solve()?.nimber(), Some(0));
/// let game = GrundysGame::new(&[7, 8])?;
/// let solved = Solver::new(&game).solve()?;
/// assert_eq!((solved.value(), solved.nimber()), (1, Some(2)));
/// # Ok::<(), gamesolver::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrundysGame {
    heaps: Vec<u32>,
}

/// A move: split heap `heap` (from 0), taking `take` counters off it into a heap of their own
/// (fewer than it leaves).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Split {
    /// The heap.
    pub heap: u32,
    /// The smaller heap's size.
    pub take: u32,
}

impl GrundysGame {
    /// Heaps of the given sizes (each 1 to [`MAX_HEAP`] counters; at least one heap).
    pub fn new(heaps: &[i64]) -> Result<Self, InputError> {
        let heaps = super::sizes(
            "Grundy's game",
            ("heap", "heaps"),
            heaps,
            MAX_HEAP,
            "a heap has 1 to 1048576 counters",
        )?;
        Ok(GrundysGame { heaps })
    }

    /// The heaps the game starts with.
    pub fn start_state(&self) -> Vec<u32> {
        self.heaps.clone()
    }
}

impl Game for GrundysGame {
    type State = Vec<u32>;
    type Move = Split;

    fn start(&self) -> Vec<u32> {
        self.heaps.clone()
    }

    /// Heap by heap, the smaller part from 1 up.
    fn moves(&self, heaps: &Vec<u32>) -> impl Iterator<Item = Split> {
        heaps.iter().enumerate().flat_map(|(heap, &counters)| {
            (1..counters.div_ceil(2)).map(move |take| Split {
                heap: heap as u32,
                take,
            })
        })
    }

    fn play(&self, heaps: &Vec<u32>, split: &Split) -> Step<Vec<u32>> {
        let heap = split.heap as usize;
        let mut next = Vec::with_capacity(heaps.len() + 1);
        next.extend_from_slice(&heaps[..heap]);
        next.extend([heaps[heap] - split.take, split.take]);
        next.extend_from_slice(&heaps[heap + 1..]);
        Step {
            next,
            gain: 0,
            turn: Turn::Pass,
        }
    }

    /// Every heap 1 or 2: the player to move has lost.
    fn payoff(&self, _: &Vec<u32>) -> Score {
        -1
    }

    fn capabilities(&self) -> impl Declares<Self> {
        Capabilities::none().impartial()
    }
}

/// Each heap of at least 3 counters is a part: the heap alone.
impl Impartial for GrundysGame {
    fn split(&self, heaps: &Vec<u32>, parts: &mut Vec<Vec<u32>>) {
        parts.extend(
            heaps
                .iter()
                .filter(|&&counters| counters >= 3)
                .map(|&counters| vec![counters]),
        );
    }
}

/// How the command line and the analysis page read Grundy's game.
#[cfg(feature = "cli")]
mod cli {
    use super::{GrundysGame, MAX_HEAP, Split};
    use crate::InputError;
    use crate::cli::serde_json::{Value, json};
    use crate::cli::{Bundled, Entry, Fields, FromValues, Line, Presented};
    use crate::engines::Ply;

    /// Grundy's game on the command line: `gamesolver grundys-game 10` (one heap of 10).
    pub const GAME: Bundled = Bundled::game::<GrundysGame>(
        "grundys-game",
        "Grundy's game: the VALUES are heaps of counters; split a heap into two unequal heaps; \
         who cannot move loses (the answer gives the position's nimber)",
    );

    impl Presented for GrundysGame {
        fn show(&self, heaps: &Vec<u32>) -> String {
            let heaps: Vec<String> = heaps
                .iter()
                .enumerate()
                .map(|(heap, &counters)| format!("heap {}: {counters}", heap + 1))
                .collect();
            format!("Heaps: {}", heaps.join(", "))
        }

        /// `2,3`: split 3 counters off heap 2 (from 1) into a heap of their own.
        fn move_name(&self, _: &Vec<u32>, split: &Split) -> String {
            format!("{},{}", split.heap + 1, split.take)
        }

        fn move_hint(&self) -> Option<&'static str> {
            Some("HEAP,TAKE: 2,3 splits 3 counters off heap 2 (fewer than it leaves)")
        }

        /// `--at`: the heaps' sizes, as `7,3,2`.
        fn position(&self, text: &str) -> Result<Vec<u32>, InputError> {
            super::super::sizes_at(text, "heap", "counters", MAX_HEAP)
        }

        /// "Alice splits heap 1 (10) into 7 and 3"; in JSON `{"player", "heap", "take"}`.
        fn entries(&self, line: &[Ply<Self>]) -> Line {
            line.iter()
                .map(|ply| {
                    let player = self.player_name(ply.player);
                    let heap = ply.mv.heap as usize;
                    let from = ply.state[heap];
                    Entry {
                        player,
                        text: format!(
                            "{player} splits heap {} ({from}) into {} and {}",
                            heap + 1,
                            from - ply.mv.take,
                            ply.mv.take
                        ),
                        fields: Fields::new()
                            .with("heap", heap + 1)
                            .with("take", ply.mv.take),
                    }
                })
                .collect()
        }

        /// The heaps; a click on a counter splits it and those after it off its heap.
        fn view(&self, heaps: &Vec<u32>) -> Value {
            json!({"kind": "heaps", "heaps": heaps})
        }
    }

    impl FromValues for GrundysGame {
        const EXAMPLE: &'static str = "10";
        const POSITION: Option<&'static str> = Some("'H1,H2,...': the heaps");
        fn from_values(values: &[i64]) -> Result<Self, InputError> {
            GrundysGame::new(values)
        }
    }
}

#[cfg(feature = "cli")]
pub use cli::GAME;
