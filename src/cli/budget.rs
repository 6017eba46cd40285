//! The memory budget of a run and its threads: the limits from the command line, what stays
//! held for the whole run, the worker pool and its stacks, and the values read within it.

use crate::SolveError;
use std::io::Read;
use std::path::Path;

use crate::error::Bytes;
use crate::{Error, Limits, input};

use super::args::{Cli, strip_protection};
use super::model::{CliError, Failure};
use super::options::refuse_misplaced_options;
use super::registry::Reads;

/// The bytes a game built from `n` values holds: the values and a running sum per value
/// (Stone Game II's suffix sums, Stone Game VIII's prefix sums), and a little more.
pub(super) fn game_bytes(n: usize) -> u64 {
    (n as u64).saturating_mul(16).saturating_add(256)
}

/// A refusal in terms of the whole budget: the solver that refused was given what was left
/// after the input, the threads and the line took their share, so that share is added back
/// to both what is needed and the budget.
pub(crate) fn whole_budget(failure: Failure) -> Failure {
    let whole = |error: Error| match error {
        Error::Solve(SolveError::MemoryBudget {
            what,
            needed,
            budget,
        }) => {
            let total = run_budget();
            let taken = total.saturating_sub(budget);
            SolveError::MemoryBudget {
                what,
                needed: needed.saturating_add(taken),
                budget: budget.saturating_add(taken),
            }
            .into()
        }
        other => other,
    };
    match failure {
        Failure::Rejected(error) => Failure::Rejected(whole(error)),
        Failure::AtLine(line, error) => Failure::AtLine(line, whole(error)),
        Failure::Advised(error, advice) => Failure::Advised(whole(error), advice),
        usage => usage,
    }
}

/// A failure as the command line words it: the message, its kind (`--json`'s `kind`), and the
/// exit code (2 for a wrong command line, 1 for the rest).
pub(crate) fn worded(failure: Failure) -> (String, &'static str, u8) {
    match whole_budget(failure) {
        Failure::Usage(message) => (message, "usage", 2),
        Failure::Rejected(error) => (error.to_string(), error.kind(), 1),
        Failure::AtLine(line, error) => (format!("line {line}: {error}"), error.kind(), 1),
        Failure::Advised(error, advice) => (format!("{error} ({advice})"), error.kind(), 1),
        Failure::Cli(error) => (error.to_string(), error.kind(), 1),
    }
}

/// What the program holds beyond its budget, at most (README): the binary, its main stack,
/// the allocator's arenas and the output's buffer.
pub(crate) const MEMORY_CONSTANT: u64 = 64 << 20;

/// The whole memory budget of this run (set by [`limits`]).
static RUN_BUDGET: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The whole memory budget of this run (0 until the limits are read).
pub(crate) fn run_budget() -> u64 {
    RUN_BUDGET.load(std::sync::atomic::Ordering::Relaxed)
}

/// `limits` with `bytes` of its budget taken by something that stays for the whole run
/// (refused if they do not fit).
pub fn held(
    limits: Limits,
    bytes: u64,
    what: impl FnOnce() -> String,
) -> Result<Limits, SolveError> {
    match limits.memory_budget.checked_sub(bytes) {
        Some(left) => Ok(Limits {
            memory_budget: left,
            ..limits
        }),
        None => Err(SolveError::MemoryBudget {
            what: what(),
            needed: bytes,
            budget: limits.memory_budget,
        }),
    }
}

/// The limits the command line asks for: `--memory-limit` (by default the budget
/// [`Limits::default`] gives), never above a cap the system enforces, and `--time-limit`.
pub fn limits(cli: &Cli) -> Limits {
    let mut limits = cli
        .memory_limit
        .map_or_else(Limits::default, Limits::with_memory_budget);
    // A budget above a cap the system enforces would end in a crash, not a refusal.
    if let Some(cap) = Limits::system_memory_limit() {
        let usable = cap.saturating_sub(MEMORY_CONSTANT);
        limits.memory_budget = limits.memory_budget.min(usable);
    }
    RUN_BUDGET.store(limits.memory_budget, std::sync::atomic::Ordering::Relaxed);
    if super::progress::attached() {
        limits = limits.progress(&super::progress::PROGRESS);
    }
    match cli.time_limit {
        Some(limit) => limits.time_limit(limit),
        None => limits,
    }
}

/// The native stack of each worker thread. The engines keep their own stacks on the heap, so
/// a worker needs little; a small stack keeps many threads within a process memory cap.
pub(crate) const WORKER_STACK: usize = 1 << 20;

/// A pool of `threads` threads when there are more than one (see [`pool`]); `None` for one.
pub fn pool_if_parallel(
    threads: usize,
    limits: &mut Limits,
) -> Result<Option<rayon::ThreadPool>, SolveError> {
    (threads > 1).then(|| pool(threads, limits)).transpose()
}

/// A rayon pool of `threads` threads, their stacks (and the guard and signal stacks beside
/// them) taken from the budget in `limits`.
pub fn pool(threads: usize, limits: &mut Limits) -> Result<rayon::ThreadPool, SolveError> {
    *limits = stacks_held(threads, *limits)?;
    builder(threads)
        .build()
        .map_err(|error| SolveError::ThreadStart {
            threads,
            message: error.to_string(),
        })
}

/// The command line's pools: `threads` threads of [`WORKER_STACK`] each.
fn builder(threads: usize) -> rayon::ThreadPoolBuilder {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(WORKER_STACK)
}

/// [`pool`], with the calling thread as one of its `threads` (so that `install` from this
/// thread runs at once, with no thread to wake and none to wake it back: a batch solved one
/// position at a time enters the pool once per position). A thread that is already a pool's
/// gets a pool of its own threads, as [`pool`] builds.
pub fn pool_with_this_thread(
    threads: usize,
    limits: &mut Limits,
) -> Result<rayon::ThreadPool, SolveError> {
    let counted = stacks_held(threads, *limits)?;
    match builder(threads).use_current_thread().build() {
        Ok(pool) => {
            *limits = counted;
            Ok(pool)
        }
        Err(_) => pool(threads, limits),
    }
}

/// `limits` with the stacks of `threads` worker threads (and the guard and signal stacks
/// beside them) taken from the budget.
pub(super) fn stacks_held(threads: usize, limits: Limits) -> Result<Limits, SolveError> {
    let stacks = threads as u64 * (WORKER_STACK as u64 + (64 << 10));
    held(limits, stacks, || {
        format!(
            "the stacks of {threads} threads ({} each)",
            Bytes(WORKER_STACK as u64)
        )
    })
}

/// The game's values (from the arguments or `--input`), and the limits left to the solver once
/// they and the game built from them are held.
pub(super) fn values_and_limits(cli: &Cli) -> Result<(Vec<i64>, Limits), Failure> {
    refuse_misplaced_options(cli)?;
    let values = read_values(cli, limits(cli).memory_budget)?;
    let n = values.len();
    // The values live on in the game, beside its running sums: what is left of the budget is
    // the solver's.
    let limits = held(limits(cli), game_bytes(n), || {
        format!("the game's {n} values and their running sums")
    })?;
    Ok((values, limits))
}

/// The values from the arguments or from `--input`, never both, within `budget` bytes.
/// Tic-tac-toe takes none.
pub(super) fn read_values(cli: &Cli, budget: u64) -> Result<Vec<i64>, Failure> {
    let example = match cli.game.engine().map(|engine| &engine.reads) {
        Some(Reads::Integers { example }) => *example,
        _ if cli.values.is_empty() && cli.input.is_none() => return Ok(Vec::new()),
        _ => {
            return Err(Failure::Usage(format!(
                "{} takes no values: it is solved from its start",
                cli.game.id()
            )));
        }
    };
    match &cli.input {
        Some(_) if !cli.values.is_empty() => Err(Failure::Usage(
            "give the values either as arguments or with --input, not both".into(),
        )),
        Some(path) => {
            let text = read_input(path, budget)?;
            Ok(input::parse_text_within(&text, budget)?)
        }
        None if cli.values.is_empty() => Err(Failure::Usage(format!(
            "no values given: pass the integers as arguments (gamesolver {} {example}) or \
             with --input FILE ('-' for standard input)",
            cli.game.id(),
        ))),
        None => {
            let values: Vec<&str> = cli.values.iter().map(|v| strip_protection(v)).collect();
            Ok(input::parse_arguments(&values)?)
        }
    }
}

/// The bytes of a file, or of standard input for `-`: refused once they pass `budget` (the
/// buffer's old and new allocations, both live while it grows, are counted).
pub fn read_input(path: &Path, budget: u64) -> Result<Vec<u8>, Failure> {
    let shown = path.display().to_string();
    let named = if shown == "-" {
        "standard input".to_string()
    } else {
        shown.clone()
    };
    let io_error = |error: std::io::Error| Failure::Cli(CliError::read(named.clone(), error));
    let mut source: Box<dyn Read> = if shown == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(path).map_err(io_error)?)
    };
    let mut bytes: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let read = match source.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(read) => read,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(io_error(error)),
        };
        if bytes.capacity() - bytes.len() < read {
            let grown = bytes.capacity().saturating_mul(2).max(bytes.len() + read);
            let needed = (bytes.capacity() as u64)
                .saturating_add(grown as u64)
                .saturating_add(chunk.len() as u64);
            if needed > budget {
                return Err(SolveError::MemoryBudget {
                    what: format!("the input ({named}: more than {} bytes)", bytes.len()),
                    needed,
                    budget,
                }
                .into());
            }
            bytes
                .try_reserve_exact(grown - bytes.len())
                .map_err(|_| SolveError::Allocation {
                    what: format!("the input ({named})"),
                    bytes: grown as u64,
                })?;
        }
        bytes.extend_from_slice(&chunk[..read]);
    }
}
