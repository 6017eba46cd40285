//! `gamesolver`: solve a bundled game from the command line, or check it
//! (`gamesolver check <GAME> [VALUES]...`).
//!
//! Any rejected input gives one `error: …` line on stderr, nothing on stdout, and a non-zero
//! exit: 2 for a wrong command line, 1 for rejected values or a solve that cannot proceed.

mod cli;

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;

use cli::args::{Cli, protect_negative_values};
use cli::run::{Failure, run, run_check};

fn main() -> ExitCode {
    // A panic is a bug, but it too ends in one `error:` line (no backtrace), once.
    std::panic::set_hook(Box::new(|info| {
        static REPORTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
        if !REPORTED.swap(true, std::sync::atomic::Ordering::Relaxed) {
            let message = info.payload_as_str().unwrap_or("a panic");
            let place = info
                .location()
                .map_or_else(String::new, |at| format!(" at {at}"));
            eprintln!("error: internal error{place}: {message} (please report it)");
        }
    }));
    // `gamesolver check <GAME> [VALUES]...` runs the conformance checker instead of solving.
    let mut arguments: Vec<_> = std::env::args_os().collect();
    let check = arguments.get(1).is_some_and(|word| word == "check");
    if check {
        arguments.remove(1);
    }
    let cli = match Cli::try_parse_from(protect_negative_values(arguments)) {
        Ok(cli) => cli,
        Err(error)
            if matches!(
                error.kind(),
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
            ) =>
        {
            return match error.print() {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::FAILURE,
            };
        }
        Err(error) => {
            // clap's message spans several lines; keep its first, which names the problem.
            let rendered = error.render().to_string();
            let first = rendered.lines().next().unwrap_or("invalid command line");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            return fail(&format!("{first} (see 'gamesolver --help')"), 2);
        }
    };
    if check {
        return match run_check(&cli) {
            Ok(summary) => {
                let ok = summary.violations.is_empty();
                let mut out = io::stdout().lock();
                let written = if cli.json {
                    cli::report::check_json(&summary, &mut out)
                } else {
                    cli::report::check_text(&summary, &mut out)
                };
                match written {
                    Ok(()) if ok => ExitCode::SUCCESS,
                    Ok(()) => ExitCode::FAILURE,
                    Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                    Err(error) => fail(&format!("cannot write the output: {error}"), 1),
                }
            }
            Err(failure) => failed(failure),
        };
    }
    if cli.batch.is_some() {
        // Standard output is line-buffered: each score is out as soon as it is known.
        return match cli::connect_four::batch(&cli, &mut io::stdout().lock()) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::FAILURE,
            Err(failure) => failed(failure),
        };
    }
    let report = match run(&cli) {
        Ok(report) => report,
        Err(failure) => return failed(failure),
    };
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let written = if cli.json {
        cli::report::json(&report, &mut out)
    } else {
        cli::report::text(&report, &mut out)
    };
    match written.and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that closed the pipe early (`| head`) wanted no more.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => fail(&format!("cannot write the output: {error}"), 1),
    }
}

fn failed(failure: Failure) -> ExitCode {
    match cli::run::whole_budget(failure) {
        Failure::Usage(message) => fail(&message, 2),
        Failure::Rejected(error) => fail(&error.to_string(), 1),
        Failure::AtLine(line, error) => fail(&format!("line {line}: {error}"), 1),
    }
}

fn fail(message: &str, code: u8) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(code)
}
