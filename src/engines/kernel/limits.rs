//! The memory budget and the time limit a solve must stay within.

use std::time::Duration;

use super::Progress;
use crate::error::SolveError;

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
    /// it, the engines stop with [`SolveError::TimeLimit`](crate::SolveError::TimeLimit), checked every
    /// 1024 stored states.
    pub time_limit: Option<Duration>,
    /// Where the solve publishes its progress, if anywhere ([`Progress`]).
    pub progress: Option<&'static Progress>,
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
            progress: None,
        }
    }

    /// The same limits with a time limit of `limit`.
    pub fn time_limit(self, limit: Duration) -> Self {
        Limits {
            time_limit: Some(limit),
            ..self
        }
    }

    /// The same limits, publishing the solve's progress to `progress`.
    pub fn progress(self, progress: &'static Progress) -> Self {
        Limits {
            progress: Some(progress),
            ..self
        }
    }

    /// The most memory the system lets this process have, where it says: the least of the
    /// cgroup's limit and the address-space limit (not the physical memory: a budget above
    /// half of it is the user's choice, a budget above a cap is a crash). Read once per process.
    pub fn system_memory_limit() -> Option<u64> {
        static LIMIT: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();
        *LIMIT.get_or_init(|| {
            [cgroup_limit(), address_space_limit()]
                .into_iter()
                .flatten()
                .min()
        })
    }

    /// The default budget: half of the memory this process may have, where the system says
    /// (on Linux: the least of the physical memory in `/proc/meminfo`, the cgroup's
    /// `memory.max` or `memory.limit_in_bytes`, and the address-space limit in
    /// `/proc/self/limits`), else no limit. Read once per process.
    pub fn default_memory_budget() -> u64 {
        // Read once per process: `solve` asks for it on every call.
        static BUDGET: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
        *BUDGET.get_or_init(|| {
            [physical_memory(), cgroup_limit(), address_space_limit()]
                .into_iter()
                .flatten()
                .min()
                .map_or(u64::MAX, |bytes| bytes / 2)
        })
    }
}

impl Default for Limits {
    /// [`Limits::default_memory_budget`].
    fn default() -> Self {
        Limits::with_memory_budget(Limits::default_memory_budget())
    }
}

/// Makes room for at least one more item in `items`, fallibly and within the budget: the
/// vector's old and new buffers (both live while it grows) plus `others` bytes held elsewhere
/// must fit `budget`. `what` names the vector for the error.
pub(crate) fn reserve_within<T>(
    items: &mut Vec<T>,
    others: u64,
    budget: u64,
    what: impl Fn() -> String,
) -> Result<(), SolveError> {
    if items.len() < items.capacity() {
        return Ok(());
    }
    let grown = items.capacity().saturating_mul(2).max(4);
    let item = size_of::<T>() as u64;
    let old = (items.capacity() as u64).saturating_mul(item);
    let new = (grown as u64).saturating_mul(item);
    growth_fits(others, old, new, budget, &what)?;
    items
        .try_reserve_exact(grown - items.len())
        .map_err(|_| SolveError::Allocation {
            what: what(),
            bytes: new,
        })
}

/// Errors with [`SolveError::MemoryBudget`] if a buffer growing from `old` to `new` bytes (both live
/// while it grows) beside `others` bytes would pass `budget`.
pub(crate) fn growth_fits(
    others: u64,
    old: u64,
    new: u64,
    budget: u64,
    what: &impl Fn() -> String,
) -> Result<(), SolveError> {
    let needed = others.saturating_add(old).saturating_add(new);
    if needed > budget {
        return Err(SolveError::MemoryBudget {
            what: what(),
            needed,
            budget,
        });
    }
    Ok(())
}

/// The machine's physical memory in bytes, if the system says.
fn physical_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|line| line.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The memory limit of this process's cgroup (v2 `memory.max`, else v1
/// `memory.limit_in_bytes`), if there is one.
fn cgroup_limit() -> Option<u64> {
    let membership = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let mut limits = Vec::new();
    for line in membership.lines() {
        // "0::/path" (v2) or "4:memory:/path" (v1).
        let mut fields = line.splitn(3, ':');
        let (_, controllers, path) = (fields.next()?, fields.next()?, fields.next()?);
        let file = if controllers.is_empty() {
            format!("/sys/fs/cgroup{path}/memory.max")
        } else if controllers.split(',').any(|c| c == "memory") {
            format!("/sys/fs/cgroup/memory{path}/memory.limit_in_bytes")
        } else {
            continue;
        };
        if let Some(limit) = read_limit(&file) {
            limits.push(limit);
        }
    }
    // A container may see its own cgroup as the root.
    limits.extend(read_limit("/sys/fs/cgroup/memory.max"));
    limits.into_iter().min()
}

/// A limit file's value in bytes; `None` for "max", or a v1 "no limit" (near `i64::MAX`).
fn read_limit(file: &str) -> Option<u64> {
    let text = std::fs::read_to_string(file).ok()?;
    let bytes: u64 = text.trim().parse().ok()?;
    (bytes < 1 << 60).then_some(bytes)
}

/// The address-space limit (`ulimit -v`, `prlimit --as`) from `/proc/self/limits`, if set.
fn address_space_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|line| line.starts_with("Max address space"))?;
    // "Max address space  <soft> <hard> bytes": the soft limit is the one enforced.
    line.trim_start_matches("Max address space")
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn physical_memory_is_plausible_where_readable() {
        if let Some(bytes) = physical_memory() {
            assert!(bytes > 64 << 20, "{bytes}");
            assert!(Limits::default().memory_budget <= bytes / 2);
        }
    }
}
