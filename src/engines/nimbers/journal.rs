//! A long nimber solve's table on disk: a [`Journal`] of parts' nimbers, appended as the
//! search finds them, that a later solve resumes from.
//!
//! Every entry is a part's exact nimber, so any set of them is a correct start: a solve killed
//! between two writes loses only what it found since the last. The file is a header (the
//! format and the game in words) and blocks, each its count of entries, the entries (the
//! part's key, 16 bytes, and its nimber, 4, little-endian) and a checksum of both. Resumed,
//! the blocks are read up to the first that is cut short or damaged, and the file is cut
//! there before the solve appends to it.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use hashbrown::HashMap;

use crate::error::SolveError;
use crate::game::Nimber;
use crate::memo::FastHashBuilder;

/// The first bytes of every journal.
const MAGIC: &[u8] = b"gamesolver nimbers 1\n";

/// An entry's bytes: the key (16) and the nimber (4).
const ENTRY: usize = 20;

/// The most entries a block holds ([`Writer::append`] writes no larger one): a count past it
/// is damage, not a block.
const BLOCK_ENTRIES: usize = 1 << 20;

/// The parts' nimbers read back from a journal, by key.
pub(super) type Resumed = HashMap<u128, Nimber, FastHashBuilder>;

/// Where a nimber solve keeps the parts' nimbers it finds, to resume from after a stop. The
/// game must give its parts keys ([`Impartial::part_key`](crate::game::Impartial::part_key)).
///
/// ```
/// use gamesolver::engines::nimbers::{self, Journal, Options};
/// use gamesolver::games::Cram;
/// use gamesolver::Solved;
///
/// let game = Cram::new(4, 7)?;
/// let path = std::env::temp_dir().join(format!("cram-doc-{}.nimbers", std::process::id()));
/// let journal = Journal::new(&path, "cram 4 7");
/// let first = nimbers::solve_saving(&game, Options::new(), &journal)?;
/// assert_eq!(first.nimber(), Some(3));
/// // Resumed, the parts' nimbers come from the file: far fewer parts are searched.
/// let again = nimbers::solve_saving(&game, Options::new(), &journal.clone().resumed())?;
/// assert_eq!(again.nimber(), Some(3));
/// assert!(again.stats().expanded * 10 < first.stats().expanded);
/// // Another game's file is refused.
/// let other = Journal::new(&path, "cram 4 8").resumed();
/// assert!(nimbers::solve_saving(&Cram::new(4, 8)?, Options::new(), &other).is_err());
/// std::fs::remove_file(&path).unwrap();
/// # Ok::<(), gamesolver::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Journal {
    /// The file.
    pub path: PathBuf,
    /// The game and its parameters in words (`cram 6 7`), kept in the file's header: a file
    /// for another game is refused.
    pub game: String,
    /// Whether to go on from the nimbers the file holds (else the file must not exist yet).
    pub resume: bool,
    /// How often a search appends what it found since its last write (each worker of a
    /// parallel search its own): 30 seconds by default.
    pub every: Duration,
}

impl Journal {
    /// A new journal at `path` for the game `game` (in words, as `cram 6 7`).
    pub fn new(path: impl Into<PathBuf>, game: impl Into<String>) -> Journal {
        Journal {
            path: path.into(),
            game: game.into(),
            resume: false,
            every: Duration::from_secs(30),
        }
    }

    /// Goes on from the nimbers the file holds.
    pub fn resumed(self) -> Journal {
        Journal {
            resume: true,
            ..self
        }
    }

    /// Appends every `every`.
    pub fn every(self, every: Duration) -> Journal {
        Journal { every, ..self }
    }

    /// Opens the file for appending: created afresh (refused where it exists), or resumed (its
    /// game checked, its nimbers read back within `budget` bytes, a damaged tail cut off).
    pub(super) fn open(&self, budget: u64) -> Result<(Writer, Resumed), SolveError> {
        let refuse = |what: String| problem(&self.path, what);
        if !self.resume {
            let mut file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&self.path)
                .map_err(|error| {
                    refuse(match error.kind() {
                        std::io::ErrorKind::AlreadyExists => {
                            "exists already: resume it (--resume), or name another file".into()
                        }
                        _ => format!("cannot be created: {error}"),
                    })
                })?;
            let mut header = MAGIC.to_vec();
            header.extend_from_slice(&(self.game.len() as u32).to_le_bytes());
            header.extend_from_slice(self.game.as_bytes());
            file.write_all(&header)
                .map_err(|error| refuse(format!("cannot be written: {error}")))?;
            let writer = Writer {
                file,
                path: self.path.clone(),
            };
            return Ok((writer, Resumed::default()));
        }
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&self.path)
            .map_err(|error| refuse(format!("cannot be opened to resume: {error}")))?;
        let (resumed, end) = read_back(&mut file, &self.path, &self.game, budget)?;
        file.set_len(end)
            .and_then(|()| file.seek(SeekFrom::Start(end)).map(|_| ()))
            .map_err(|error| {
                refuse(format!("cannot be cut after its last whole block: {error}"))
            })?;
        let writer = Writer {
            file,
            path: self.path.clone(),
        };
        Ok((writer, resumed))
    }
}

/// A journal's error: the path and the problem.
fn problem(path: &Path, what: impl Into<String>) -> SolveError {
    SolveError::TierFile {
        path: path.display().to_string(),
        problem: what.into(),
    }
}

/// FNV-1a over `bytes`: a block's checksum.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Reads exactly `bytes.len()` bytes; `false` where the file ends first.
fn fill(file: &mut impl Read, bytes: &mut [u8]) -> std::io::Result<bool> {
    let mut got = 0;
    while got < bytes.len() {
        match file.read(&mut bytes[got..])? {
            0 => return Ok(false),
            read => got += read,
        }
    }
    Ok(true)
}

/// The bytes a table of `entries` resumed nimbers takes (hashbrown's slot and control byte
/// each, at its least load of seven eighths).
fn resumed_bytes(entries: u64) -> u64 {
    let slot = size_of::<(u128, Nimber)>() as u64 + 1;
    entries.saturating_mul(8).div_ceil(7).saturating_mul(slot)
}

/// The nimbers of a journal for `game`, and where its last whole block ends: the blocks are
/// read up to the first that is cut short, damaged or followed by anything that is not a
/// block (a count past [`BLOCK_ENTRIES`] or past the file's end, a checksum that differs),
/// and no memory is taken for more entries than the file's bytes can hold, nor past
/// `budget`.
fn read_back(
    file: &mut File,
    path: &Path,
    game: &str,
    budget: u64,
) -> Result<(Resumed, u64), SolveError> {
    let unreadable = |error: std::io::Error| problem(path, format!("cannot be read: {error}"));
    // Room for every entry the file can hold, at once (not block by block, which would hold
    // the table and its doubled copy while it grows).
    let length = file.metadata().map_err(unreadable)?.len();
    let most = length / ENTRY as u64;
    let needed = resumed_bytes(most);
    if needed > budget {
        return Err(SolveError::MemoryBudget {
            what: format!(
                "the nimbers of the journal {} ({length} bytes, up to {most} entries)",
                path.display()
            ),
            needed,
            budget,
        });
    }
    let mut resumed = Resumed::default();
    resumed
        .try_reserve(most as usize)
        .map_err(|_| problem(path, "holds more nimbers than memory allows"))?;
    let mut reader = BufReader::new(file);
    let mut magic = vec![0; MAGIC.len()];
    let mut words_length = [0; 4];
    if !fill(&mut reader, &mut magic).map_err(unreadable)?
        || magic != MAGIC
        || !fill(&mut reader, &mut words_length).map_err(unreadable)?
    {
        return Err(problem(path, "is no journal of parts' nimbers"));
    }
    let mut words = vec![0; u32::from_le_bytes(words_length).min(4096) as usize];
    if !fill(&mut reader, &mut words).map_err(unreadable)? {
        return Err(problem(path, "is no journal of parts' nimbers"));
    }
    if words != game.as_bytes() {
        return Err(problem(
            path,
            format!(
                "holds the nimbers of {:?}, not of {game:?}",
                String::from_utf8_lossy(&words)
            ),
        ));
    }
    let mut end = (MAGIC.len() + 4 + words.len()) as u64;
    let mut block = Vec::new();
    loop {
        let mut count = [0; 4];
        if !fill(&mut reader, &mut count).map_err(unreadable)? {
            break;
        }
        let entries = u32::from_le_bytes(count) as usize;
        let bytes = 4 + entries * ENTRY + 8;
        if entries > BLOCK_ENTRIES || end + bytes as u64 > length {
            break;
        }
        block.clear();
        block.extend_from_slice(&count);
        block.resize(bytes, 0);
        if !fill(&mut reader, &mut block[4..]).map_err(unreadable)? {
            break;
        }
        let (body, sum) = block.split_at(4 + entries * ENTRY);
        if checksum(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            break;
        }
        for entry in body[4..].chunks_exact(ENTRY) {
            let key = u128::from_le_bytes(entry[..16].try_into().expect("16 bytes"));
            let nimber = Nimber::from_le_bytes(entry[16..].try_into().expect("4 bytes"));
            resumed.insert(key, nimber);
        }
        end += bytes as u64;
    }
    Ok((resumed, end))
}

/// A journal open for appending.
#[derive(Debug)]
pub(super) struct Writer {
    file: File,
    path: PathBuf,
}

impl Writer {
    /// Appends `entries`, in blocks of at most [`BLOCK_ENTRIES`], each flushed to the disk.
    pub(super) fn append(&mut self, entries: &[(u128, Nimber)]) -> Result<(), SolveError> {
        for piece in entries.chunks(BLOCK_ENTRIES) {
            self.append_block(piece)?;
        }
        Ok(())
    }

    /// Appends `entries` (at most [`BLOCK_ENTRIES`]) as one block.
    fn append_block(&mut self, entries: &[(u128, Nimber)]) -> Result<(), SolveError> {
        let mut block = Vec::with_capacity(4 + entries.len() * ENTRY + 8);
        block.extend_from_slice(&(entries.len() as u32).to_le_bytes());
        for &(key, nimber) in entries {
            block.extend_from_slice(&key.to_le_bytes());
            block.extend_from_slice(&nimber.to_le_bytes());
        }
        let sum = checksum(&block);
        block.extend_from_slice(&sum.to_le_bytes());
        self.file
            .write_all(&block)
            .and_then(|()| self.file.sync_data())
            .map_err(|error| problem(&self.path, format!("cannot be written: {error}")))?;
        Ok(())
    }
}
