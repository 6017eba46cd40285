//! The engine core that every engine shares, and that imports no engine: the run guard
//! (memory budget, time limit, cancellation), cycle detection, score arithmetic, range sources,
//! limits, progress, [`Stats`], and a move with its value. The engines (`exhaustive`, `prune`,
//! `retrograde`, `tiers`) and the checker import this module and not each other.

mod cycle;
mod guard;
pub(crate) mod limits;
mod moves;
mod progress;
mod range;
mod score;
mod stats;

pub(crate) use cycle::{CYCLE_DEPTH, cycle_on};
pub(crate) use guard::{CHECK_EVERY, KEPT_FRAMES, Lane, RunGuard, buffer_bytes};
pub use limits::Limits;
pub use moves::{MoveValue, Ply};
pub(crate) use moves::{best_of, valued_moves};
pub use progress::Progress;
pub use range::{AnyValue, DeclaredRange, OutcomeRange, RangeSource};
pub(crate) use score::{child_value, combine, signed, valid};
pub use stats::Stats;
