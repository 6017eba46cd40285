//! Progress on stderr while a long solve runs, when stderr is a terminal (never on stdout).

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::Progress;
use crate::error::Bytes;
use indicatif::{ProgressBar, ProgressStyle};

/// What the solves of this run publish (attached to their limits by `budget::limits` when
/// stderr is a terminal).
pub static PROGRESS: Progress = Progress::new();

/// How long a solve runs in silence before the progress line appears.
const QUIET: Duration = Duration::from_secs(1);

/// How often the line is redrawn.
const EVERY: Duration = Duration::from_millis(200);

/// Its own stack: it only formats a line (charged to the program's 64 MiB constant).
const STACK: usize = 256 << 10;

/// Whether this run shows progress: stderr is a terminal.
pub fn wanted() -> bool {
    std::io::stderr().is_terminal()
}

/// Whether the solves attach [`PROGRESS`] to their limits even when no line is drawn: set for
/// good by the in-process commands (`embed`), whose caller stops a solve through it.
static ALWAYS_ATTACHED: AtomicBool = AtomicBool::new(false);

/// Attaches [`PROGRESS`] to every solve from now on.
pub fn attach_always() {
    ALWAYS_ATTACHED.store(true, Ordering::Relaxed);
}

/// Whether the solves of this run report to [`PROGRESS`]: a line is drawn, or a caller in the
/// same process may stop them.
pub fn attached() -> bool {
    ALWAYS_ATTACHED.load(Ordering::Relaxed) || wanted()
}

/// A thread that draws the progress line; dropping it clears the line and stops the thread.
pub struct Reporter {
    stop: Arc<(Mutex<bool>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

impl Reporter {
    /// Starts the reporter if stderr is a terminal (`None` otherwise, or if the thread cannot
    /// start: progress is a courtesy, never a reason to fail). `budget` reads the run's
    /// memory budget when the line is drawn.
    pub fn start(budget: fn() -> u64) -> Option<Reporter> {
        if !wanted() {
            return None;
        }
        let stop = Arc::new((Mutex::new(false), Condvar::new()));
        let stopped = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("progress".into())
            .stack_size(STACK)
            .spawn(move || report(&stopped, budget))
            .ok()?;
        Some(Reporter {
            stop,
            thread: Some(thread),
        })
    }
}

impl Drop for Reporter {
    fn drop(&mut self) {
        let (flag, wake) = &*self.stop;
        *flag.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = true;
        wake.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Waits `pause` or until told to stop; true if told.
fn stopped_within(stop: &(Mutex<bool>, Condvar), pause: Duration) -> bool {
    let (flag, wake) = stop;
    let guard = flag.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let (guard, _) = wake
        .wait_timeout_while(guard, pause, |stop| !*stop)
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    *guard
}

/// The reporter's loop: silent for [`QUIET`], then a spinner with the figures until stopped.
fn report(stop: &(Mutex<bool>, Condvar), budget: fn() -> u64) {
    let mut last = (Instant::now(), counted(&PROGRESS));
    if stopped_within(stop, QUIET) {
        return;
    }
    let bar = ProgressBar::new_spinner().with_elapsed(QUIET);
    if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed} {msg}") {
        bar.set_style(style);
    }
    loop {
        let now = (Instant::now(), counted(&PROGRESS));
        let seconds = now.0.duration_since(last.0).as_secs_f64();
        let rate = if seconds > 0.0 {
            now.1.saturating_sub(last.1) as f64 / seconds
        } else {
            0.0
        };
        last = now;
        bar.set_message(line(&PROGRESS, rate, budget()));
        bar.tick();
        if stopped_within(stop, EVERY) {
            break;
        }
    }
    bar.finish_and_clear();
}

/// What the rate counts: the states searched by the pruning engine, else the states stored.
fn counted(progress: &Progress) -> u64 {
    match progress.searched() {
        0 => progress.stored(),
        searched => searched,
    }
}

/// The figures in words, short enough for one line of a narrow terminal: rows or tiers for a
/// solver that works in steps, the states searched for the pruning engine (its table is fixed,
/// so what it stores stops growing), else the states stored; with how many a second; then the
/// memory held against the budget.
pub fn line(progress: &Progress, rate: f64, budget: u64) -> String {
    let work = match progress.steps() {
        Some((done, of)) => format!("{} {done} of {of}", progress.step_name()),
        None if progress.searched() > 0 => {
            format!("{} states searched, {}/s", progress.searched(), count(rate))
        }
        None => format!("{} states, {}/s", progress.stored(), count(rate)),
    };
    format!(
        "{work}, {} of {} budget",
        Bytes(progress.bytes()),
        Bytes(budget)
    )
}

/// A count as people read it at a glance: `950`, `12.3 K`, `4.1 M`.
fn count(value: f64) -> String {
    if value >= 1e6 {
        format!("{:.1} M", value / 1e6)
    } else if value >= 1e3 {
        format!("{:.1} K", value / 1e3)
    } else {
        format!("{value:.0}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_reads_at_a_glance() {
        let progress = Progress::new();
        assert_eq!(
            line(&progress, 0.0, 1 << 30),
            "0 states, 0/s, 0 B of 1.0 GiB budget"
        );
        progress.add_searched(3_000_000);
        assert_eq!(
            line(&progress, 2.5e6, 1 << 30),
            "3000000 states searched, 2.5 M/s, 0 B of 1.0 GiB budget"
        );
        assert_eq!(count(4_123_456.0), "4.1 M");
        assert_eq!(count(12_340.0), "12.3 K");
    }
}
