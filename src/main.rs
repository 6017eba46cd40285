//! `gamesolver`: solve a bundled game from the command line.
//!
//! Any rejected input gives one `error: …` line on stderr, nothing on stdout, and a non-zero
//! exit: 2 for a wrong command line, 1 for rejected values or a solve that cannot proceed.

mod cli;

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;

use cli::args::{Cli, protect_negative_values};
use cli::run::{Failure, run};

fn main() -> ExitCode {
    let cli = match Cli::try_parse_from(protect_negative_values(std::env::args_os())) {
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
    let report = match run(&cli) {
        Ok(report) => report,
        Err(Failure::Usage(message)) => return fail(&message, 2),
        Err(Failure::Rejected(error)) => return fail(&error.to_string(), 1),
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

fn fail(message: &str, code: u8) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(code)
}
