//! Saved solutions (`--save FILE`, `--load FILE`): a solved game's dense table in a file, with
//! the game and its values, so that a later run answers from it without searching. The format
//! is in docs/saved-solutions.md.

use std::fs::File;
use std::hash::Hash;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::{Limits, engines::exhaustive};

use crate::memo::DenseTable;
use crate::{
    DenseIndex, Score,
    engines::{RangeJob, RangeSource, with_declared_range},
};

use super::args::Cli;
use super::budget::{game_bytes, held};
use super::engines::{EngineRun, finish_then, presented};
use super::model::{CliError, Failure, GameName, Report};
use super::present::Presented;
use super::registry::{Done, Saved, Task, with_engine_game};

/// The file's first eight bytes.
const MAGIC: &[u8; 8] = b"GSOLVTBL";
/// The format's version; a file of another version is refused, but for version 1, which has
/// the same layout and is read for every game but [`REINDEXED`].
const VERSION: u32 = 2;

/// The games whose dense index changed since format version 1 (Dots and Boxes indexes a board
/// by the edges not drawn since version 2): a version 1 file of one would give other boards'
/// values, and is refused.
const REINDEXED: [&str; 1] = ["dots-and-boxes"];

/// FNV-1a, 64 bits: the checksum over every byte before it (a guard against corruption, not
/// against tampering).
pub(super) struct Fnv(pub(super) u64);

impl Fnv {
    pub(super) fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    pub(super) fn add(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// A writer that checksums what passes through it.
pub(super) struct Summing<W> {
    pub(super) inner: W,
    pub(super) sum: Fnv,
}

impl<W: Write> Summing<W> {
    pub(super) fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.sum.add(bytes);
        self.inner.write_all(bytes)
    }
    pub(super) fn varint(&mut self, mut value: u64) -> io::Result<()> {
        let mut bytes = [0u8; 10];
        let mut used = 0;
        loop {
            let low = (value & 0x7f) as u8;
            value >>= 7;
            if value == 0 {
                bytes[used] = low;
                used += 1;
                break;
            }
            bytes[used] = low | 0x80;
            used += 1;
        }
        self.put(&bytes[..used])
    }
}

/// A signed value as an unsigned one, small magnitudes small: 0, −1, 1, −2 … → 0, 1, 2, 3 …
/// (`Score::MIN` never is a value, so `zigzag + 1` never overflows).
fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

fn unzigzag(value: u64) -> i64 {
    ((value >> 1) as i64) ^ -((value & 1) as i64)
}

/// A reader that checksums what it reads, and says where the file ended too soon.
pub(super) struct Checked<'p, R> {
    pub(super) inner: R,
    pub(super) sum: Fnv,
    pub(super) path: &'p Path,
    /// The bytes read so far: where a damage is found.
    pub(super) at: u64,
}

impl<R: Read> Checked<'_, R> {
    pub(super) fn take<const N: usize>(&mut self, what: &str) -> Result<[u8; N], CliError> {
        let mut bytes = [0; N];
        self.inner.read_exact(&mut bytes).map_err(|error| {
            if error.kind() == io::ErrorKind::UnexpectedEof {
                corrupt(
                    self.path,
                    format!(
                        "the file ends at byte {} in the middle of {what}: it is truncated",
                        self.at
                    ),
                )
            } else {
                CliError::read(self.path.display().to_string(), error)
            }
        })?;
        self.sum.add(&bytes);
        self.at += N as u64;
        Ok(bytes)
    }
    pub(super) fn u64(&mut self, what: &str) -> Result<u64, CliError> {
        self.take::<8>(what).map(u64::from_le_bytes)
    }
    pub(super) fn varint(&mut self, what: &str) -> Result<u64, CliError> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.take::<1>(what)?[0];
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(corrupt(
            self.path,
            format!(
                "a number in {what} ending at byte {} is too long: the file is corrupt",
                self.at
            ),
        ))
    }
}

/// A file that is not the saved solution it should be.
pub(super) fn corrupt(path: &Path, problem: impl Into<String>) -> CliError {
    CliError::Corrupt {
        path: path.display().to_string(),
        problem: problem.into(),
    }
}

/// Writes `slots` (a dense table's values, one per index of the game's dense index: a
/// [`DenseTable`]'s, or a tier solution's laid out by that index), solved for `game` with
/// `values`, to `path`: to a temporary file beside it first, renamed into place once complete,
/// so an interrupted save leaves any older file whole.
pub fn save(
    path: &Path,
    game: GameName,
    values: &[i64],
    slots: impl ExactSizeIterator<Item = Option<Score>>,
) -> Result<(), CliError> {
    let temporary = temporary_beside(path);
    let written =
        write_to(&temporary, game, values, slots).and_then(|()| std::fs::rename(&temporary, path));
    written.map_err(|error| {
        let _ = std::fs::remove_file(&temporary);
        CliError::write(path.display().to_string(), error)
    })
}

pub(super) fn temporary_beside(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.tmp", std::process::id()));
    path.with_file_name(name)
}

fn write_to(
    path: &Path,
    game: GameName,
    values: &[i64],
    slots: impl ExactSizeIterator<Item = Option<Score>>,
) -> io::Result<()> {
    let file = File::create(path)?;
    let mut out = Summing {
        inner: BufWriter::with_capacity(1 << 16, file),
        sum: Fnv::new(),
    };
    out.put(MAGIC)?;
    out.put(&VERSION.to_le_bytes())?;
    let name = game.id().as_bytes();
    out.put(&(name.len() as u64).to_le_bytes())?;
    out.put(name)?;
    out.put(&(values.len() as u64).to_le_bytes())?;
    for value in values {
        out.put(&value.to_le_bytes())?;
    }
    out.put(&(slots.len() as u64).to_le_bytes())?;
    // Empty slots come in runs and values are small: a run of empties is `0, length`, a value
    // is `zigzag(value) + 1`, both as LEB128 varints.
    let mut empties = 0u64;
    for slot in slots {
        match slot {
            None => empties += 1,
            Some(value) => {
                if empties > 0 {
                    out.varint(0)?;
                    out.varint(empties)?;
                    empties = 0;
                }
                out.varint(zigzag(value) + 1)?;
            }
        }
    }
    if empties > 0 {
        out.varint(0)?;
        out.varint(empties)?;
    }
    let sum = out.sum.0.to_le_bytes();
    out.inner.write_all(&sum)?;
    let file = out
        .inner
        .into_inner()
        .map_err(io::IntoInnerError::into_error)?;
    file.sync_all()
}

/// Reads the table saved in `path` for `game` with `values`, within `budget` bytes. A file for
/// another game or other values, of another version, truncated, or whose checksum does not
/// match is refused, never used.
pub fn load<G: DenseIndex>(
    path: &Path,
    name: GameName,
    values: &[i64],
    game: &G,
    budget: u64,
) -> Result<DenseTable, Failure> {
    let file =
        File::open(path).map_err(|error| CliError::read(path.display().to_string(), error))?;
    let mut input = Checked {
        inner: BufReader::with_capacity(1 << 16, file),
        sum: Fnv::new(),
        path,
        at: 0,
    };
    let refuse = |problem: String| Failure::Cli(corrupt(path, problem));
    if &input.take::<8>("the header")? != MAGIC {
        return Err(refuse("it is not a saved gamesolver solution".into()));
    }
    let version = u32::from_le_bytes(input.take::<4>("the header")?);
    if version != VERSION && version != 1 {
        return Err(refuse(format!(
            "it is in format version {version}; this gamesolver reads versions 1 and {VERSION}"
        )));
    }
    let length = input.u64("the game's name")?;
    let wanted = name.id();
    if version == 1 && REINDEXED.contains(&wanted) {
        return Err(refuse(format!(
            "it was saved in format version 1, when {wanted} numbered its positions \
             otherwise: solve it again with --save"
        )));
    }
    // Game names are short: a long one is a damaged header.
    if length > 64 {
        return Err(refuse("its header is damaged: the file is corrupt".into()));
    }
    let mut saved = vec![0; length as usize];
    for byte in &mut saved {
        *byte = input.take::<1>("the game's name")?[0];
    }
    let is_name = |byte: &u8| byte.is_ascii_lowercase() || byte.is_ascii_digit() || *byte == b'-';
    if saved.is_empty() || !saved.iter().all(is_name) {
        return Err(refuse("its header is damaged: the file is corrupt".into()));
    }
    if saved != wanted.as_bytes() {
        let saved = String::from_utf8_lossy(&saved);
        return Err(refuse(format!("it holds {saved}, not {wanted}")));
    }
    let count = input.u64("the game's values")?;
    let mismatch = || refuse(format!("it holds {wanted} with other values than these"));
    if count != values.len() as u64 {
        return Err(refuse(format!(
            "it holds {wanted} with {count} values, not {}",
            values.len()
        )));
    }
    for &value in values {
        if i64::from_le_bytes(input.take::<8>("the game's values")?) != value {
            return Err(mismatch());
        }
    }
    let slots = input.u64("the table's size")?;
    if slots != game.index_len() as u64 {
        return Err(refuse(format!(
            "its table has {slots} slots, but this game has {}",
            game.index_len()
        )));
    }
    let mut table = DenseTable::try_for_game(game, budget)?;
    let corrupt = |at: u64| {
        refuse(format!(
            "its table does not fill its slots exactly (at byte {at}): the file is corrupt"
        ))
    };
    let mut index = 0u64;
    while index < slots {
        match input.varint("the table")? {
            0 => {
                let run = input.varint("the table")?;
                index = index
                    .checked_add(run)
                    .filter(|&end| end <= slots && run > 0)
                    .ok_or_else(|| corrupt(input.at))?;
            }
            tag => {
                let value: Score = unzigzag(tag - 1);
                table
                    .set_slot(index as usize, value)
                    .map_err(|_| corrupt(input.at))?;
                index += 1;
            }
        }
    }
    let expected = input.sum.0;
    let mut sum = [0; 8];
    input
        .inner
        .read_exact(&mut sum)
        .map_err(|_| refuse("the file ends before its checksum: it is truncated".into()))?;
    if u64::from_le_bytes(sum) != expected {
        return Err(refuse(format!(
            "its checksum (at byte {}) does not match: the file is corrupt",
            input.at
        )));
    }
    let trailing = input
        .inner
        .read(&mut [0])
        .map_err(|error| CliError::read(path.display().to_string(), error))?;
    if trailing != 0 {
        return Err(refuse(
            "it has bytes after its checksum: the file is corrupt".into(),
        ));
    }
    Ok(table)
}

/// `--save` / `--load`: the engine with a dense table, saved after the solve or loaded
/// instead of it.
pub(super) fn saved_report(cli: &Cli, values: Vec<i64>, limits: Limits) -> Result<Report, Failure> {
    let n = values.len();
    // The values are written to, or compared with, the file: kept beside the game.
    let limits = held(limits, game_bytes(n), || {
        format!("a copy of the game's {n} values for the saved file")
    })?;
    let params = values.clone();
    let task = Task::Saved(Saved {
        cli,
        params: &params,
        limits,
    });
    with_engine_game(cli.game, values, task).map(Done::report)
}

/// Solves `game` on a dense table (loaded from `--load`, or empty), saves it to `--save`
/// after the line is known, and presents the result.
pub(super) fn with_saved<G>(
    cli: &Cli,
    game: &G,
    params: &[i64],
    limits: Limits,
) -> Result<Report, Failure>
where
    G: Presented + DenseIndex,
    G::State: Eq + Hash,
{
    let (table, name) = match &cli.load {
        Some(path) => (
            super::saved::load(path, cli.game, params, game, limits.memory_budget)?,
            "loaded",
        ),
        None => (
            DenseTable::try_for_game(game, limits.memory_budget)?,
            "dense",
        ),
    };
    let run = with_declared_range(
        game,
        Saving {
            cli,
            game,
            params,
            table,
            name,
            limits,
        },
    )?;
    Ok(presented(cli, game, params.len(), run, limits)?)
}

/// [`with_saved`]'s solve, with the range source the game declares, and the table saved.
struct Saving<'a, G> {
    cli: &'a Cli,
    game: &'a G,
    params: &'a [i64],
    table: DenseTable,
    name: &'static str,
    limits: Limits,
}

impl<G> RangeJob<G> for Saving<'_, G>
where
    G: Presented + DenseIndex,
    G::State: Eq + Hash,
{
    type Output = Result<EngineRun<G>, Failure>;

    fn run<R: RangeSource<G> + 'static>(self, range: R) -> Self::Output {
        let solution = exhaustive::solve(
            self.game,
            self.table,
            exhaustive::Options::new().limits(self.limits).range(range),
        )?;
        let (cli, params) = (self.cli, self.params);
        finish_then(solution, ("engine", self.name, 1), |table| {
            match &cli.save {
                Some(path) => Ok(super::saved::save(
                    path,
                    cli.game,
                    params,
                    table.slot_values(),
                )?),
                None => Ok(()),
            }
        })
    }
}

/// `--save` or `--load` for a game that declares no dense index: a saved table is one value
/// per index.
pub(super) fn needs_dense_index(game: GameName) -> Failure {
    Failure::Usage(format!(
        "--save and --load keep one value per index of the game's dense index, and {} declares \
         none (Capabilities::dense_index)",
        game.id()
    ))
}

impl Saved<'_> {
    /// `--save` or `--load` with `game`, which declares no dense index: refused.
    pub fn hashed(self) -> Result<Report, Failure> {
        Err(needs_dense_index(self.cli.game))
    }
}
