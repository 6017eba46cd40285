//! Fuzz targets: every reader of what a user hands the command line, driven by arbitrary bytes
//! through the same code the command line, the page and Python run ([`run_json`]): the five
//! kinds of file (`--load`, `--resume`), the positions of every bundled game (`analyze --at`,
//! `--after`), `--input` files and Connect Four's `--batch`, and the page's analysis requests;
//! and proof files, through the library's reader and checker.
//!
//! Each [`Target`] checks what must hold whatever the bytes: no panic, a refusal of a file
//! that names the file, no refusal of kind `"internal"`, and (where the fuzzing process caps
//! its allocations, as `fuzz/` and `tests/fuzz.rs` do) no allocation past the small memory
//! budget every command here runs under. A broken rule panics, which a fuzzer reports as a
//! crash. `fuzz/` drives them with libFuzzer, `tests/fuzz.rs` with a short mutation pass on
//! every `cargo test`; the seed corpora are `fuzz/corpus/<target>/`.
//!
//! ```
//! use gamesolver::games::fuzz::{Outcome, Target};
//!
//! // A saved table that is not one: refused, naming the file.
//! match Target::SavedTable.run(b"GSOLVTBL\xff\xff") {
//!     Outcome::Refused(refusal) => assert!(refusal.message.contains("gamesolver-fuzz")),
//!     Outcome::Answered(json) => panic!("answered {json}"),
//! }
//! // A position that is not one: refused.
//! assert!(matches!(Target::Position.run(b"\x00XXXX/OOO"), Outcome::Refused(_)));
//! ```

use std::path::PathBuf;

use super::BUNDLED;
use crate::cli::serde_json;
use crate::cli::{Refusal, run_json};

/// The memory budget each target's command runs under (`--memory-limit`): a reader that
/// reserves memory from a count it read asks the budget first, so a damaged count is refused
/// well below what a fuzzer's process may allocate.
pub const MEMORY_LIMIT: &str = "256M";

/// The time each target's command may take (`--time-limit`): a position deep in a large game
/// is refused for time, not searched for minutes.
pub const TIME_LIMIT: &str = "2s";

/// A reader the fuzzers drive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// A saved table (`GSOLVTBL`): `nim 3,4,5 --load FILE`.
    SavedTable,
    /// A chance solution (`GSOLVCHN`): `piglet 6 --load FILE`.
    ChanceSolution,
    /// A tier file (`GSTIERS`, the tier solver's): `dots-and-boxes 1 2 --load FILE`.
    TierFile,
    /// A loopy database (`GSTIERS`, the loopy tier solver's): `quixo 3 --load FILE`.
    LoopyDatabase,
    /// A journal of parts' nimbers: `cram 3 4 --save FILE --resume`.
    NimberJournal,
    /// A position of a bundled game (the first byte picks the game and whether the rest is
    /// `--at`'s position or `--after`'s moves; the rest is the text).
    Position,
    /// An `--input` file of integers or of JSON, or Connect Four's `--batch` of positions (the
    /// first byte picks the command).
    InputFile,
    /// A request to the page's `/api/analyze` (the first byte picks a query string or a JSON
    /// body; the rest is it).
    #[cfg(feature = "serve")]
    Request,
    /// A proof file (`GSPROOF1`) as [`read_proof`](crate::engines::proof::read_proof) reads
    /// it for Hex on 3×3 from the empty board, then checked by
    /// [`check_proof`](crate::check::check_proof) where it reads.
    ProofFile,
}

/// What a command did with a target's bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// It answered: what `--json` prints.
    Answered(String),
    /// It refused, with this message and kind.
    Refused(Refusal),
}

impl Outcome {
    /// The answer's `"value"`, as JSON text (`None` for a refusal, or an answer without one).
    pub fn value(&self) -> Option<String> {
        let Outcome::Answered(json) = self else {
            return None;
        };
        let answer: serde_json::Value = serde_json::from_str(json).ok()?;
        let value = answer.get("value")?;
        Some(value.to_string())
    }
}

/// The commands `Target::InputFile` runs on its file (`FILE`): `--input` of integers, then of
/// JSON, then Connect Four's `--batch` (a position a line).
const INPUT_COMMANDS: &[&[&str]] = &[
    &["stone-game-ii", "--input", "FILE"],
    &["stone-game-viii", "--input", "FILE"],
    &["stone-game-vii", "--input", "FILE"],
    &["nim", "--input", "FILE"],
    &["cat-and-mouse", "--input", "FILE"],
    &["cat-and-mouse-ii", "--input", "FILE"],
    &[
        "connect-four",
        "--width",
        "4",
        "--height",
        "4",
        "--batch",
        "FILE",
    ],
];

impl Target {
    /// Every target.
    pub const ALL: &'static [Target] = &[
        Target::SavedTable,
        Target::ChanceSolution,
        Target::TierFile,
        Target::LoopyDatabase,
        Target::NimberJournal,
        Target::Position,
        Target::InputFile,
        #[cfg(feature = "serve")]
        Target::Request,
        Target::ProofFile,
    ];

    /// Its name, as `fuzz/`'s target and corpus are named (`saved_table`).
    pub fn name(self) -> &'static str {
        match self {
            Target::SavedTable => "saved_table",
            Target::ChanceSolution => "chance_solution",
            Target::TierFile => "tier_file",
            Target::LoopyDatabase => "loopy_database",
            Target::NimberJournal => "nimber_journal",
            Target::Position => "position",
            Target::InputFile => "input_file",
            #[cfg(feature = "serve")]
            Target::Request => "request",
            Target::ProofFile => "proof_file",
        }
    }

    /// The command that reads a file of this kind at `file` (`None` for a target that is no
    /// file of ours).
    pub fn command(self, file: &str) -> Option<Vec<String>> {
        let words: &[&str] = match self {
            Target::SavedTable => &["nim", "3,4,5", "--load"],
            Target::ChanceSolution => &["piglet", "6", "--load"],
            Target::TierFile => &["dots-and-boxes", "1", "2", "--load"],
            Target::LoopyDatabase => &["quixo", "3", "--load"],
            Target::NimberJournal => &["cram", "3", "4", "--resume", "--save"],
            _ => return None,
        };
        let mut command: Vec<String> = words.iter().map(|word| word.to_string()).collect();
        command.push(file.into());
        command.extend(limits());
        Some(command)
    }

    /// Runs the target on `bytes`, and checks what must hold (a broken rule panics).
    pub fn run(self, bytes: &[u8]) -> Outcome {
        match self {
            Target::Position => position(bytes),
            Target::InputFile => input_file(bytes),
            #[cfg(feature = "serve")]
            Target::Request => request(bytes),
            Target::ProofFile => proof_file(bytes),
            _ => self.file(bytes),
        }
    }

    /// A file target: `bytes` written to a scratch file, read by the command.
    fn file(self, bytes: &[u8]) -> Outcome {
        let scratch = Scratch::new(self.name());
        std::fs::write(&scratch.0, bytes).expect("the scratch file is written");
        let path = scratch.0.display().to_string();
        let command = self.command(&path).expect("a file's target");
        let outcome = outcome(run_json(BUNDLED, command));
        if let Outcome::Refused(refusal) = &outcome {
            assert!(
                refusal.kind == "time-limit" || refusal.message.contains(&path),
                "a refusal of a file that does not name it: {refusal:?}"
            );
        }
        outcome
    }
}

/// A proof file read for Hex on 3×3 from its start: refused by the reader (kind
/// `"proof-file"`, with the byte where it went wrong) or by the checker (kind `"proof"`), or
/// answered with its size.
fn proof_file(bytes: &[u8]) -> Outcome {
    let hex = super::Hex::new(3).expect("3 is a side");
    let refused = |message: String, kind: &str| {
        Outcome::Refused(Refusal {
            message,
            kind: kind.into(),
        })
    };
    match crate::engines::proof::read_proof(&hex, crate::Game::start(&hex), bytes) {
        Err(error) => refused(error.to_string(), "proof-file"),
        Ok((_, proof)) => match crate::check::check_proof(&hex, &proof) {
            Ok(()) => Outcome::Answered(format!("{{\"proof_size\":{}}}", proof.len())),
            Err(fault) => refused(fault.to_string(), "proof"),
        },
    }
}

/// The limits every target's command runs under.
fn limits() -> [String; 4] {
    [
        "--memory-limit".into(),
        MEMORY_LIMIT.into(),
        "--time-limit".into(),
        TIME_LIMIT.into(),
    ]
}

/// What `run_json` returned, checked: never an internal error.
fn outcome(result: Result<String, Refusal>) -> Outcome {
    match result {
        Ok(json) => Outcome::Answered(json),
        Err(refusal) => {
            assert!(refusal.kind != "internal", "an internal error: {refusal:?}");
            Outcome::Refused(refusal)
        }
    }
}

/// A scratch file of this process and thread, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let thread = format!("{:?}", std::thread::current().id());
        let digits: String = thread.chars().filter(char::is_ascii_digit).collect();
        Scratch(std::env::temp_dir().join(format!(
            "gamesolver-fuzz-{}-{digits}-{name}",
            std::process::id()
        )))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Small instances of the bundled games, whose positions the fuzzers try: a position of each
/// is answered in milliseconds (a game not listed is tried with no values).
const POSITION_GAMES: &[(&str, &[&str])] = &[
    ("stone-game", &["5,3,4,5"]),
    ("stone-game-ii", &["2,7,9,4,4"]),
    ("stone-game-iii", &["1,2,3,7"]),
    ("stone-game-vii", &["5,3,1,4,2"]),
    ("stone-game-viii", &["-1,2,-3,4,-5"]),
    ("nim", &["3,4,5"]),
    ("kayles", &["7"]),
    ("dawsons-kayles", &["7"]),
    ("grundys-game", &["9"]),
    ("cram", &["3", "3"]),
    ("tic-tac-toe", &[]),
    ("hex", &["3"]),
    ("mnk", &["4", "3", "3"]),
    ("quixo", &["3"]),
    ("six-mens-morris", &["3"]),
    ("dots-and-boxes", &["1", "2"]),
    ("connect-four", &["--width", "4", "--height", "4"]),
    ("cat-and-mouse", &["[[1,3],[0],[3],[0,2]]"]),
    (
        "cat-and-mouse-ii",
        &[r#"{"grid":["M.C...F"],"catJump":1,"mouseJump":4}"#],
    ),
    ("pig", &["10"]),
    ("piglet", &["6"]),
    ("bear-off", &["3", "2"]),
];

/// The text after the first byte, as an argument (a NUL, which no argument holds, dropped).
fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes.get(1..).unwrap_or_default()).replace('\0', "")
}

/// `analyze GAME VALUES --at TEXT` (or `--after TEXT`) for the game the first byte picks, of
/// [`POSITION_GAMES`].
fn position(bytes: &[u8]) -> Outcome {
    let pick = usize::from(bytes.first().copied().unwrap_or(0));
    let (game, values) = POSITION_GAMES[(pick / 2) % POSITION_GAMES.len()];
    let option = if pick % 2 == 0 { "--at" } else { "--after" };
    let mut command = vec!["analyze".to_string(), game.into()];
    command.extend(values.iter().map(|value| value.to_string()));
    command.extend([option.to_string(), text(bytes)]);
    command.extend(limits());
    outcome(run_json(BUNDLED, command))
}

/// The command of [`INPUT_COMMANDS`] the first byte picks, on a file of the rest of the bytes.
fn input_file(bytes: &[u8]) -> Outcome {
    let pick = usize::from(bytes.first().copied().unwrap_or(0));
    let scratch = Scratch::new("input");
    std::fs::write(&scratch.0, bytes.get(1..).unwrap_or_default())
        .expect("the scratch file is written");
    let path = scratch.0.display().to_string();
    let mut command: Vec<String> = INPUT_COMMANDS[pick % INPUT_COMMANDS.len()]
        .iter()
        .map(|word| {
            if *word == "FILE" {
                path.clone()
            } else {
                word.to_string()
            }
        })
        .collect();
    command.extend(limits());
    outcome(run_json(BUNDLED, command))
}

/// A request to `/api/analyze` made of the bytes (`serve`'s own reading of them): never a 500.
#[cfg(feature = "serve")]
fn request(bytes: &[u8]) -> Outcome {
    let (status, json) = crate::cli::answer_request(BUNDLED, bytes, &limits());
    assert!(status != 500, "an internal error: {json}");
    if status == 200 {
        return Outcome::Answered(json);
    }
    let value: serde_json::Value = serde_json::from_str(&json).expect("an error is JSON");
    Outcome::Refused(Refusal {
        message: value["error"].as_str().unwrap_or_default().into(),
        kind: value["kind"].as_str().unwrap_or_default().into(),
    })
}

#[cfg(test)]
mod tests {
    use super::{BUNDLED, POSITION_GAMES};

    #[test]
    fn every_bundled_game_has_its_positions_fuzzed() {
        for game in BUNDLED {
            assert!(
                POSITION_GAMES.iter().any(|(name, _)| *name == game.name()),
                "{} is not in POSITION_GAMES",
                game.name()
            );
        }
    }
}
