//! The memory budget and the time limit a solve must stay within.

use std::time::Duration;

/// Limits a solve must respect; exceeding one is an error, never a crash.
///
/// ```
/// use std::time::Duration;
/// use gamesolver::Limits;
/// let limits = Limits::with_memory_budget(1 << 30).time_limit(Duration::from_secs(10));
/// assert_eq!(limits.memory_budget, 1 << 30);
/// assert_eq!(limits.time_limit, Some(Duration::from_secs(10)));
/// assert!(Limits::default().memory_budget > 0);
/// assert_eq!(Limits::default().time_limit, None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The most heap bytes the engine may use for its memo table and its stack.
    pub memory_budget: u64,
    /// The longest one solve (or one query on a solution) may search; `None`: no limit. Past
    /// it, the engines stop with [`Error::TimeLimit`](crate::Error::TimeLimit), checked every
    /// 1024 stored states.
    pub time_limit: Option<Duration>,
}

impl Limits {
    /// No limit beyond what the machine has.
    pub fn unlimited() -> Self {
        Limits::with_memory_budget(u64::MAX)
    }

    /// A budget of `bytes`, and no time limit.
    pub fn with_memory_budget(bytes: u64) -> Self {
        Limits {
            memory_budget: bytes,
            time_limit: None,
        }
    }

    /// The same limits with a time limit of `limit`.
    pub fn time_limit(self, limit: Duration) -> Self {
        Limits {
            time_limit: Some(limit),
            ..self
        }
    }

    /// The default budget: half of the machine's physical memory where it can be read
    /// (`/proc/meminfo` on Linux), else no limit.
    pub fn default_memory_budget() -> u64 {
        physical_memory().map_or(u64::MAX, |bytes| bytes / 2)
    }
}

impl Default for Limits {
    /// [`Limits::default_memory_budget`].
    fn default() -> Self {
        Limits::with_memory_budget(Limits::default_memory_budget())
    }
}

/// The machine's physical memory in bytes, if the system says.
fn physical_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|line| line.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn physical_memory_is_plausible_where_readable() {
        if let Some(bytes) = physical_memory() {
            assert!(bytes > 64 << 20, "{bytes}");
            assert_eq!(Limits::default().memory_budget, bytes / 2);
        }
    }
}
