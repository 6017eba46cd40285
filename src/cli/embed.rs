//! The command line's commands run in the caller's process (what the Python package calls): the
//! same arguments, the same solvers and limits, and what `--json` would print, returned instead
//! of printed.

use std::ffi::OsString;

use clap::Parser;

use super::args::{Command, CommandLine, protect_negative_values};
use super::registry::Bundled;
use crate::Progress;

/// A command that did not run to its answer: the message the command line prints after
/// `error: `, and its kind, as in `--json`'s error object (`"usage"` for a wrong command line,
/// `"help"` for `--help`, whose text is the message; otherwise [`Error::kind`](crate::Error::kind):
/// `"memory-budget"`, `"time-limit"`, `"stopped"`, …).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// What went wrong, in the command line's words.
    pub message: String,
    /// The kind of failure.
    pub kind: String,
}

/// What every in-process command reports to. [`Progress::stop`] on it stops every solve that
/// [`run_json`] is running in this process (each returns a refusal of kind `"stopped"`), until
/// [`Progress::resume`].
pub fn run_progress() -> &'static Progress {
    &super::progress::PROGRESS
}

/// Runs one command of the command line with `games` installed (the first call installs them;
/// [`BUNDLED`](crate::games::BUNDLED) for the `gamesolver` binary's), as if `--json` were given, and
/// returns what it prints on stdout: one JSON object for a solve, `analyze` or `check`; one line
/// per position for a `--batch`. `arguments` are those after the program's name
/// (`["stone-game-ii", "2,7,9,4,4"]`). `play` and `completions`, which need a terminal or write
/// a script, are refused.
///
/// ```
/// use gamesolver::cli::run_json;
/// use gamesolver::games::BUNDLED;
///
/// let json = run_json(BUNDLED, ["stone-game-ii", "2,7,9,4,4"]).unwrap();
/// assert!(json.starts_with(r#"{"game":"stone-game-ii","#), "{json}");
/// assert!(json.contains(r#""answer":10,"#), "{json}");
///
/// let refused = run_json(BUNDLED, ["stone-game-ii", "2,x"]).unwrap_err();
/// assert_eq!(refused.kind, "parse");
/// ```
pub fn run_json<I, T>(games: &'static [&'static Bundled], arguments: I) -> Result<String, Refusal>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    super::registry::install(games);
    super::progress::attach_always();
    let arguments = protect_negative_values(
        std::iter::once(OsString::from("gamesolver")).chain(arguments.into_iter().map(Into::into)),
    );
    let line = CommandLine::try_parse_from(arguments).map_err(|error| {
        let help = matches!(
            error.kind(),
            clap::error::ErrorKind::DisplayHelp
                | clap::error::ErrorKind::DisplayVersion
                | clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
        );
        let rendered = error.render().to_string();
        let message = rendered.trim_end();
        Refusal {
            message: message.strip_prefix("error: ").unwrap_or(message).into(),
            kind: if help { "help" } else { "usage" }.into(),
        }
    })?;
    let mut out = Vec::new();
    let written = match (line.command, line.solve) {
        (None, Some(mut cli)) => {
            cli.json = true;
            match cli.game.own().and_then(|own| own.batch) {
                Some(batch) if cli.batch.is_some() => batch(&cli, &mut out).map(|_| Ok(())),
                _ => super::solve::run(&cli).map(|report| super::report::json(&report, &mut out)),
            }
        }
        (Some(Command::Check(mut cli)), _) => {
            cli.json = true;
            super::check::run_check(&cli)
                .map(|summary| super::report::check_json(&summary, &mut out))
        }
        (Some(Command::Analyze(mut args)), _) => {
            args.game.json = true;
            super::analyze::run(&args).map(|moves| super::analyze::json(&moves, &mut out))
        }
        (Some(Command::Play(_)), _) => return Err(usage("play needs a terminal: run it there")),
        #[cfg(feature = "serve")]
        (Some(Command::Serve(_)), _) => {
            return Err(usage("serve runs a server: run it from the command line"));
        }
        (Some(Command::Completions { .. }), _) => {
            return Err(usage(
                "completions are a script for a shell: run them there",
            ));
        }
        (None, None) => return Err(usage("no game given")),
    };
    match written {
        Ok(Ok(())) => String::from_utf8(out).map_err(|_| usage("the output is not UTF-8")),
        Ok(Err(error)) => Err(usage(&format!("cannot write the output: {error}"))),
        Err(failure) => {
            let (message, kind, _) = super::budget::worded(failure);
            Err(Refusal {
                message,
                kind: kind.into(),
            })
        }
    }
}

/// A refusal of the command line's use.
fn usage(message: &str) -> Refusal {
    Refusal {
        message: message.into(),
        kind: "usage".into(),
    }
}
