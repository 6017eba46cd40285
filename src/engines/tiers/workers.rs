//! What the distributed tier solver's workers report, shared by its two ways (requests, and
//! every value in every process).

use crate::game::Score;

/// What one worker did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkerStats {
    /// The worker's index among all workers.
    pub worker: usize,
    /// States it valued.
    pub states: u64,
    /// Moves it looked at.
    pub moves: u64,
    /// Moves whose next state another worker owns.
    pub remote_moves: u64,
    /// Requests it sent to other workers: one per next state another worker owns, per round
    /// (at most `remote_moves`).
    pub remote_requests: u64,
    /// Answers it sent to other workers.
    pub remote_replies: u64,
    /// Bytes it sent to other workers (with every value in every process: to other
    /// processes), per tier solved, last tier first: `(tier, bytes)`; for
    /// a solve [by blocks](WorkerStats::by_blocks), per level of blocks, the first level first:
    /// `(level, bytes)`.
    pub bytes_per_tier: Vec<(usize, u64)>,
    /// The most bytes of values it held at once (with every value in every process, the
    /// process's one copy, which its workers share).
    pub peak_bytes: u64,
    /// Whether every process held every state's value (the game's dense index fits the
    /// budget), one copy shared by its workers: they value the process's share of each round
    /// into it and send those values once to each other process, with no requests.
    pub replicated: bool,
    /// Tiers read back from the tier file a saving solve resumes (worker 0 reads them and
    /// sends each worker its share; every worker counts them), not solved.
    pub resumed: usize,
    /// Whether, every value in every process, the values were swept by blocks of a
    /// [subset index](crate::Capabilities::subset_index) level by level (each process its
    /// share of a level's blocks, sent whole to the others) rather than by tiers.
    pub by_blocks: bool,
}

impl WorkerStats {
    /// Bytes it sent to other workers in all.
    pub fn remote_bytes(&self) -> u64 {
        self.bytes_per_tier.iter().map(|(_, bytes)| bytes).sum()
    }
}

/// What one worker returns.
pub(super) struct Done {
    pub(super) value: Option<Score>,
    pub(super) workers: usize,
    pub(super) tiers: usize,
    pub(super) stats: WorkerStats,
}

/// The ranks of a tier each worker owns: `ceil(len / workers)`, at least 1.
pub(super) fn block(len: u64, workers: usize) -> u64 {
    len.div_ceil(workers as u64).max(1)
}
