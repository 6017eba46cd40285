//! `--solver distributed`: timely's configuration from the command line's named options, and
//! its chatter kept off stdout.

use std::io::Write;

use super::args::Cli;
use super::model::Failure;

/// timely's configuration from `--workers`, `--processes`, `--process` and `--hostfile`: one
/// process of `--workers` threads, or process `--process` of a cluster of `--processes`, whose
/// addresses are the hostfile's first lines (without one, process `i` listens on
/// `localhost:2101+i`, timely's convention).
pub fn config(cli: &Cli) -> Result<timely::Config, Failure> {
    let threads = usize::from(cli.workers.unwrap_or(1));
    let processes = usize::from(cli.processes.unwrap_or(1));
    let process = usize::from(cli.process.unwrap_or(0));
    if process >= processes {
        return Err(Failure::Usage(format!(
            "--process {process} is not a process of {processes} (give an index from 0 to {})",
            processes - 1
        )));
    }
    let communication = if processes > 1 {
        let addresses = match &cli.hostfile {
            Some(path) => hosts(path, processes)?,
            None => (0..processes)
                .map(|index| format!("localhost:{}", 2101 + index))
                .collect(),
        };
        timely::CommunicationConfig::Cluster {
            threads,
            process,
            addresses,
            report: false,
            zerocopy: false,
        }
    } else if cli.hostfile.is_some() {
        return Err(Failure::Usage(
            "--hostfile needs --processes 2 or more (one process needs no addresses)".into(),
        ));
    } else if threads > 1 {
        timely::CommunicationConfig::Process(threads)
    } else {
        timely::CommunicationConfig::Thread
    };
    Ok(timely::Config {
        communication,
        worker: timely::WorkerConfig::default(),
    })
}

/// The first `processes` addresses of a hostfile (one `host:port` per line; blank lines are
/// skipped).
fn hosts(path: &std::path::Path, processes: usize) -> Result<Vec<String>, Failure> {
    let shown = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|error| Failure::Usage(format!("--hostfile {shown}: {error}")))?;
    let addresses: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .take(processes)
        .map(str::to_string)
        .collect();
    if addresses.len() < processes {
        return Err(Failure::Usage(format!(
            "--hostfile {shown} has {} addresses, and --processes {processes} needs one per \
             process",
            addresses.len()
        )));
    }
    Ok(addresses)
}

/// Runs `solve` with this process's stdout (file descriptor 1) pointed at stderr, then points
/// it back: timely prints some of its failures on stdout (a connection that ends inside a
/// message's header), and stdout is for the report alone (one line under `--json`).
#[cfg(unix)]
pub fn stdout_to_stderr<T>(solve: impl FnOnce() -> T) -> T {
    unsafe extern "C" {
        fn dup(fd: i32) -> i32;
        fn dup2(from: i32, to: i32) -> i32;
        fn close(fd: i32) -> i32;
    }
    const STDOUT: i32 = 1;
    const STDERR: i32 = 2;
    // Nothing of ours may sit in std's buffer when the descriptor changes under it.
    std::io::stdout().flush().ok();
    // SAFETY: `dup`, `dup2` and `close` are POSIX calls on plain integers, declared with their C
    // signatures (`int dup(int)`, `int dup2(int, int)`, `int close(int)`); they touch no memory
    // of ours. `saved` is a new descriptor that only this function knows and closes once. While
    // it is open, descriptor 1 is a copy of descriptor 2, so whatever any thread writes to stdout
    // goes to stderr; std's `Stdout` writes by descriptor number, so it follows. A failed `dup`
    // (-1) leaves stdout as it was: `solve` then runs unredirected. Exercised by
    // tests/distributed.rs, which requires exactly one line on stdout from two processes.
    let saved = unsafe { dup(STDOUT) };
    if saved < 0 || unsafe { dup2(STDERR, STDOUT) } < 0 {
        if saved >= 0 {
            unsafe { close(saved) };
        }
        return solve();
    }
    let result = solve();
    std::io::stdout().flush().ok();
    // SAFETY: as above; `saved` is still open and is closed once, here.
    unsafe {
        dup2(saved, STDOUT);
        close(saved);
    }
    result
}

/// Elsewhere timely's chatter stays where timely writes it.
#[cfg(not(unix))]
pub fn stdout_to_stderr<T>(solve: impl FnOnce() -> T) -> T {
    solve()
}
