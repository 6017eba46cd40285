//! The command line's entry point, [`main_with`]: what the `gamesolver` binary's `main` runs
//! with the bundled games, and a user's own binary with its own. It solves a game, checks it
//! (`check <GAME> [VALUES]...`), analyzes a position, plays, or prints shell completions.
//!
//! Any rejected input gives an error on stderr, nothing on stdout, and a non-zero exit: 2 for a
//! wrong command line (clap's message in full: the problem, the possible values or a similar
//! one, the usage line), 1 for rejected values or a solve that cannot proceed (one `error: …`
//! line). With `--json`, every error is one JSON object on one line, `{"error": …, "kind": …}`.

use std::ffi::OsString;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::CommandFactory;
use clap::error::ErrorKind;

use super::args::{AnalyzeArgs, Cli, Command, CommandLine, protect_negative_values};
use super::budget::run_budget;
use super::check::run_check;
use super::model::Failure;
use super::progress::Reporter;
use super::registry::Bundled;
use super::solve::run;

/// Makes glibc's allocator serve every thread from one arena.
///
/// By default glibc gives each thread that allocates an arena of its own, reserving 64 MiB of
/// address space for it (128 MiB for a moment, to align it). The memory budget cannot see those
/// reservations, and under an address-space cap (`ulimit -v`) they decided whether a run of 16
/// worker threads ended with the budget error or was killed by a failed allocation, even when
/// the solve itself held a few MiB (tests/memory_cap.rs: caps of 148 and 160 MiB aborted where
/// 136 and 176 MiB did not). The engines allocate only when a table or a stack grows, not per
/// state, so one arena's lock costs nothing measurable.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn one_malloc_arena() {
    /// `M_ARENA_MAX` in glibc's malloc.h.
    const M_ARENA_MAX: i32 = -8;
    unsafe extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    // SAFETY: `mallopt` is glibc's documented tuning entry point, declared here with its C
    // signature (`int mallopt(int, int)`), and this target links glibc. It is called first in
    // `main`, before any other thread exists, and `M_ARENA_MAX` only bounds how many arenas
    // later allocations may create: memory already allocated is untouched. A value glibc
    // refused would leave the default (its return value, 0, is then nothing to act on).
    // Exercised by every test that runs the binary, and measured by tests/memory_cap.rs.
    unsafe {
        mallopt(M_ARENA_MAX, 1);
    }
}

/// Elsewhere the allocator's own arenas are left as they are.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn one_malloc_arena() {}

/// Whether errors are written as one JSON object (`--json` on the command line).
static JSON_ERRORS: AtomicBool = AtomicBool::new(false);

/// Runs the command line with `games` (its arguments from the process): what a binary's `main`
/// returns. The first call installs `games`; the process's allocator is set to one arena
/// first (see below), so call it first in `main`, before any other thread starts.
pub fn main_with(games: &'static [&'static Bundled]) -> ExitCode {
    one_malloc_arena();
    // A panic is a bug, but it too ends in one error (no backtrace), once.
    std::panic::set_hook(Box::new(|info| {
        static REPORTED: AtomicBool = AtomicBool::new(false);
        if !REPORTED.swap(true, Ordering::Relaxed) {
            let payload = info.payload();
            let message = (payload.downcast_ref::<&str>().copied())
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("a panic");
            let place = info
                .location()
                .map_or_else(String::new, |at| format!(" at {at}"));
            report_error(
                &format!("internal error{place}: {message} (please report it)"),
                "internal",
            );
        }
    }));
    // The games, before the command line that names one is read.
    super::registry::install(games);
    let arguments = protect_negative_values(std::env::args_os());
    // The name the shell knows the program by (a user's binary is not `gamesolver`).
    let program = arguments
        .first()
        .and_then(|path| std::path::Path::new(path).file_name())
        .map_or_else(|| "gamesolver".into(), |name| name.to_string_lossy());
    let program = program.into_owned();
    JSON_ERRORS.store(asks_for_json(&arguments), Ordering::Relaxed);
    let line = match parse(&program, games, arguments) {
        Ok(line) => line,
        Err(error) => return usage_error(&error),
    };
    match (line.command, line.solve) {
        (None, Some(cli)) => solve(&cli),
        // clap requires the game when no command is given.
        (None, None) => fail(
            &format!("no game given (see '{program} --help')"),
            "usage",
            2,
        ),
        (Some(Command::Completions { shell }), _) => completions(shell, &program),
        (Some(Command::Check(cli)), _) => check(&cli),
        (Some(Command::Analyze(args)), _) => analyze(&args),
        (Some(Command::Play(args)), _) => match super::play::run(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(failure) => failed(failure),
        },
        #[cfg(feature = "serve")]
        (Some(Command::Serve(args)), _) => match super::serve::run(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(failure) => failed(failure),
        },
    }
}

/// The command line, read under the program's own name: a user's tool (a binary not named
/// `gamesolver`) says what it is in `--help` from its games, not as `gamesolver`. (The name,
/// not the list: the command line does not know the bundled games, which import it.)
fn parse(
    program: &str,
    games: &'static [&'static Bundled],
    arguments: Vec<std::ffi::OsString>,
) -> Result<CommandLine, clap::Error> {
    use clap::FromArgMatches;
    let mut command = CommandLine::command();
    let stem = std::path::Path::new(program).file_stem();
    if stem != Some(std::ffi::OsStr::new(env!("CARGO_PKG_NAME"))) {
        let names: Vec<&str> = games.iter().map(|game| game.name()).collect();
        let listed = match names.as_slice() {
            [] => "no game".to_string(),
            [one] => (*one).to_string(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        };
        command = command.about(format!(
            "Exact solutions of {listed}, with the optimal line of play ({program}, built on \
             gamesolver {})",
            env!("CARGO_PKG_VERSION")
        ));
    }
    let matches = command.try_get_matches_from(arguments)?;
    CommandLine::from_arg_matches(&matches)
}

/// Solves the game and prints the report (or, with `--batch`, a score per position).
fn solve(cli: &Cli) -> ExitCode {
    if cli.batch.is_some() {
        // Standard output is line-buffered: each score is out as soon as it is known.
        let Some(batch) = cli.game.own().and_then(|own| own.batch) else {
            return failed(
                super::options::refuse_misplaced_options(cli)
                    .err()
                    .unwrap_or_else(|| {
                        Failure::Usage(format!("--batch does not apply to {}", cli.game.id()))
                    }),
            );
        };
        return match batch(cli, &mut io::stdout().lock()) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::FAILURE,
            Err(failure) => failed(failure),
        };
    }
    let reporter = Reporter::start(run_budget);
    let result = run(cli);
    drop(reporter); // The progress line is cleared before anything is printed.
    let report = match result {
        Ok(report) => report,
        Err(failure) => return failed(failure),
    };
    if let Some(helped) = &report.helper {
        eprintln!("{helped}");
        return ExitCode::SUCCESS;
    }
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let written = if cli.json {
        super::report::json(&report, &mut out)
    } else {
        super::report::text(&report, &mut out)
    };
    finished(written.and_then(|()| out.flush()), ExitCode::SUCCESS)
}

/// Runs the conformance checker; exit 1 if it found a violation.
fn check(cli: &Cli) -> ExitCode {
    let reporter = Reporter::start(run_budget);
    let result = run_check(cli);
    drop(reporter);
    let summary = match result {
        Ok(summary) => summary,
        Err(failure) => return failed(failure),
    };
    let mut out = io::stdout().lock();
    let written = if cli.json {
        super::report::check_json(&summary, &mut out)
    } else {
        super::report::check_text(&summary, &mut out)
    };
    let verdict = if summary.violations.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    };
    finished(written, verdict)
}

/// Values every move at a position and prints them, best first.
fn analyze(args: &AnalyzeArgs) -> ExitCode {
    let reporter = Reporter::start(run_budget);
    let result = super::analyze::run(args);
    drop(reporter);
    let analysis = match result {
        Ok(analysis) => analysis,
        Err(failure) => return failed(failure),
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let json = args.game.json;
    let written = if json {
        super::analyze::json(&analysis, &mut out)
    } else {
        super::analyze::text(&analysis, &mut out)
    };
    finished(written.and_then(|()| out.flush()), ExitCode::SUCCESS)
}

/// Prints the completion script of `program` for `shell`. Generated whole first, so that a closed pipe is
/// an ordinary write error, not a panic in the generator.
fn completions(shell: clap_complete::Shell, program: &str) -> ExitCode {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut CommandLine::command(), program, &mut script);
    finished(io::stdout().lock().write_all(&script), ExitCode::SUCCESS)
}

/// `verdict` once the output is written. A reader that closed the pipe early (`| head`)
/// wanted no more: that is a success too.
fn finished(written: io::Result<()>, verdict: ExitCode) -> ExitCode {
    match written {
        Ok(()) => verdict,
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => fail(&format!("cannot write the output: {error}"), "io", 1),
    }
}

/// Whether `--json` is among the options (before any `--`), so that even an error in the
/// command line itself is reported as JSON.
fn asks_for_json(arguments: &[OsString]) -> bool {
    arguments
        .iter()
        .skip(1)
        .take_while(|argument| *argument != "--")
        .any(|argument| argument == "--json")
}

/// clap's own message in full (the problem, the possible values, a similar value, the usage
/// line; coloured only on a terminal and never with `NO_COLOR`), or as JSON; help and the
/// version go to stdout with success.
fn usage_error(error: &clap::Error) -> ExitCode {
    let code = u8::try_from(error.exit_code()).unwrap_or(2);
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) || !JSON_ERRORS.load(Ordering::Relaxed)
    {
        return match error.print() {
            Ok(()) => ExitCode::from(code),
            Err(_) => ExitCode::FAILURE,
        };
    }
    let rendered = error.render().to_string();
    let message = rendered.trim_end();
    report_error(message.strip_prefix("error: ").unwrap_or(message), "usage");
    ExitCode::from(code)
}

fn failed(failure: Failure) -> ExitCode {
    let (message, kind, code) = super::budget::worded(failure);
    fail(&message, kind, code)
}

fn fail(message: &str, kind: &str, code: u8) -> ExitCode {
    report_error(message, kind);
    ExitCode::from(code)
}

/// One `error: …` line on stderr, or with `--json` one JSON object
/// (`{"error": message, "kind": kind}`) on a line of its own.
fn report_error(message: &str, kind: &str) {
    if JSON_ERRORS.load(Ordering::Relaxed) {
        eprintln!("{}", super::report::error_json(message, kind));
    } else {
        eprintln!("error: {message}");
    }
}
