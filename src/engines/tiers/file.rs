//! Tier files: a tier solve's tiers written one by one as they complete, each in blocks
//! compressed with zstd that can be read at random; read back whole to resume a solve, or a
//! block at a time to answer a position without solving. docs/tier-files.md has the format.
//!
//! A file is a header (the game it holds and a checksum), then one record per solved tier, in
//! the order they completed: the tier, its ranks, the bytes per cell, each block's compressed
//! length and a checksum of all that; then the blocks (zstd frames, each with zstd's own
//! checksum of its content), then a checksum of the blocks. A record cut short (the solve
//! stopped while writing it) is dropped when the file is resumed; a complete record whose
//! checksum does not match is refused, naming the tier, and never used.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::error::SolveError;

/// The file's first eight bytes.
const MAGIC: &[u8; 8] = b"GSTIERS\0";
/// The format's version.
const VERSION: u32 = 1;
/// A record's first four bytes.
const RECORD: &[u8; 4] = b"TIER";
/// Raw bytes per block: a query decompresses one (a quarter of a millisecond); larger blocks
/// compress better (docs/tier-files.md has the measurements).
pub const BLOCK_BYTES: usize = 1 << 18;
/// zstd's level for a database to query (the loopy tier solver's files): the smallest that
/// keeps Quixo 4×4 under GamesmanOne's xz database (docs/tier-files.md).
pub const QUERY_LEVEL: i32 = 19;
/// zstd's level for the acyclic tier solver's files, written to resume a long solve, where the
/// time to write counts more than the bytes (docs/tier-files.md).
pub const RESUME_LEVEL: i32 = 9;

/// FNV-1a, 64 bits: a guard against damage, not tampering.
fn fnv(mut sum: u64, bytes: &[u8]) -> u64 {
    for &byte in bytes {
        sum = (sum ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    sum
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// What a tier file holds, as its header says: the kind of cells, the game and its tiers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// What the cells are: `1` outcome codes of the loopy tier solver, `2` values of the tier
    /// solver.
    pub kind: u8,
    /// The game and its parameters in words (`quixo 4`): a file for another game is refused.
    pub game: String,
    /// How many tiers the game has.
    pub tiers: u32,
    /// A checksum of every tier's length: a file for a game whose tiers differ is refused.
    pub lengths: u64,
    /// Raw bytes per block ([`BLOCK_BYTES`] unless set otherwise): what one query reads and
    /// decompresses at most.
    pub block_bytes: u32,
}

impl Identity {
    /// The identity of a game of `tiers` tiers whose lengths are `length(tier)`.
    pub fn new(
        kind: u8,
        game: impl Into<String>,
        tiers: usize,
        length: impl Fn(usize) -> u64,
    ) -> Self {
        let lengths = (0..tiers).fold(FNV_START, |sum, tier| fnv(sum, &length(tier).to_le_bytes()));
        Identity {
            kind,
            game: game.into(),
            tiers: tiers as u32,
            lengths,
            block_bytes: BLOCK_BYTES as u32,
        }
    }

    /// Whether `other` is the same game (whatever its blocks' size).
    pub fn same_game(&self, other: &Identity) -> bool {
        (self.kind, &self.game, self.tiers, self.lengths)
            == (other.kind, &other.game, other.tiers, other.lengths)
    }

    fn bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.push(self.kind);
        bytes.extend_from_slice(&self.block_bytes.to_le_bytes());
        bytes.extend_from_slice(&self.tiers.to_le_bytes());
        bytes.extend_from_slice(&self.lengths.to_le_bytes());
        bytes.extend_from_slice(&(self.game.len() as u32).to_le_bytes());
        bytes.extend_from_slice(self.game.as_bytes());
        let sum = fnv(FNV_START, &bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes
    }
}

/// Where one saved tier lies in the file.
#[derive(Debug, Clone)]
struct Record {
    ranks: u64,
    width: u8,
    /// The file offset of each block, and one past the last.
    offsets: Vec<u64>,
}

/// A tier file open for reading: which tiers it holds, and their blocks on demand.
#[derive(Debug)]
pub struct TierFile {
    path: PathBuf,
    identity: Identity,
    file: Mutex<File>,
    records: BTreeMap<usize, Record>,
    /// Where the complete records end (a resumed file is cut there).
    end: u64,
    blocks_read: AtomicU64,
    /// The block read last: (tier, block, its bytes).
    last: Mutex<Option<(usize, usize, Vec<u8>)>>,
}

/// A tier file's error: the path and the problem.
fn problem(path: &Path, what: impl Into<String>) -> SolveError {
    SolveError::TierFile {
        path: path.display().to_string(),
        problem: what.into(),
    }
}

/// Reads exactly `len` bytes, or `None` where the file ends first.
fn take(file: &mut impl Read, len: usize) -> std::io::Result<Option<Vec<u8>>> {
    let mut bytes = vec![0; len];
    let mut got = 0;
    while got < len {
        match file.read(&mut bytes[got..])? {
            0 => return Ok(None),
            n => got += n,
        }
    }
    Ok(Some(bytes))
}

fn le_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes"))
}

fn le_u64(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("eight bytes"))
}

impl TierFile {
    /// Whether the file at `path` begins as a tier file does (its first eight bytes; nothing
    /// else is checked: [`open`](TierFile::open) checks the rest). `false` for a file that
    /// cannot be read.
    pub fn begins_as_one(path: &Path) -> bool {
        File::open(path)
            .and_then(|mut file| take(&mut file, MAGIC.len()))
            .is_ok_and(|head| head.as_deref() == Some(&MAGIC[..]))
    }

    /// Opens the tier file at `path` and reads which tiers it holds (each record's head and
    /// checksum; the blocks are read when asked for). A record cut short ends the file; a
    /// complete one that is damaged is an error naming its tier.
    pub fn open(path: &Path) -> Result<TierFile, SolveError> {
        let io = |error: std::io::Error| problem(path, format!("cannot read it: {error}"));
        let mut file = File::open(path).map_err(io)?;
        let size = file.metadata().map_err(io)?.len();
        let fixed = take(&mut file, 8 + 4 + 1 + 4 + 4 + 8 + 4)
            .map_err(io)?
            .filter(|head| &head[..8] == MAGIC)
            .ok_or_else(|| problem(path, "not a gamesolver tier file (no GSTIERS header)"))?;
        let version = le_u32(&fixed, 8);
        if version != VERSION {
            return Err(problem(
                path,
                format!(
                    "a tier file of format version {version}; this build reads version {VERSION}"
                ),
            ));
        }
        let name_len = le_u32(&fixed, 29) as usize;
        if name_len > 1 << 16 {
            return Err(problem(
                path,
                format!("the header is damaged (a game's name of {name_len} bytes, at byte 29)"),
            ));
        }
        let rest = take(&mut file, name_len + 8)
            .map_err(io)?
            .ok_or_else(|| problem(path, "the header is cut short"))?;
        let identity = Identity {
            kind: fixed[12],
            tiers: le_u32(&fixed, 17),
            lengths: le_u64(&fixed, 21),
            game: String::from_utf8_lossy(&rest[..name_len]).into_owned(),
            block_bytes: le_u32(&fixed, 13),
        };
        if !(1..=1 << 26).contains(&identity.block_bytes)
            || identity.bytes() != [&fixed[..], &rest[..]].concat()
        {
            return Err(problem(
                path,
                "the header is damaged (its checksum does not match)",
            ));
        }
        // By tier, as records are read: the header's count of tiers is not trusted with
        // memory (a tier past it is a damaged record).
        let mut records = BTreeMap::new();
        let mut at = (fixed.len() + rest.len()) as u64;
        loop {
            file.seek(SeekFrom::Start(at)).map_err(io)?;
            let Some(head) = take(&mut file, 4 + 4 + 8 + 1 + 4).map_err(io)? else {
                break;
            };
            if &head[..4] != RECORD {
                return Err(problem(
                    path,
                    format!("the record at byte {at} is damaged (no TIER mark)"),
                ));
            }
            let tier = le_u32(&head, 4) as usize;
            let blocks = le_u32(&head, 17) as usize;
            if blocks as u64 * 4 > size {
                return Err(problem(
                    path,
                    format!(
                        "the record of tier {tier} at byte {at} is damaged (it claims {blocks} blocks)"
                    ),
                ));
            }
            let Some(lengths) = take(&mut file, blocks * 4 + 8).map_err(io)? else {
                break;
            };
            let sum = fnv(fnv(FNV_START, &head), &lengths[..blocks * 4]);
            if sum != le_u64(&lengths, blocks * 4) || tier >= identity.tiers as usize {
                return Err(problem(
                    path,
                    format!(
                        "the record of tier {tier} at byte {at} is damaged (its head's checksum does not match); the file cannot be used"
                    ),
                ));
            }
            // Cells of one to eight bytes, in as many blocks as they fill: any other count
            // cannot be one this code wrote.
            let (ranks, width) = (le_u64(&head, 8), head[16]);
            let fills = ranks
                .checked_mul(u64::from(width))
                .map(|bytes| bytes.div_ceil(u64::from(identity.block_bytes)));
            if !(1..=8).contains(&width) || fills != Some(blocks as u64) {
                return Err(problem(
                    path,
                    format!(
                        "the record of tier {tier} at byte {at} is damaged ({ranks} cells of {width} bytes cannot fill {blocks} blocks)"
                    ),
                ));
            }
            let mut offsets = Vec::with_capacity(blocks + 1);
            let mut next = at + (head.len() + lengths.len()) as u64;
            for block in 0..blocks {
                offsets.push(next);
                next += u64::from(le_u32(&lengths, block * 4));
            }
            offsets.push(next);
            if next + 8 > size {
                break; // cut short while writing its blocks
            }
            let record = Record {
                ranks,
                width,
                offsets,
            };
            records.insert(tier, record);
            at = next + 8;
        }
        Ok(TierFile {
            path: path.to_owned(),
            identity,
            file: Mutex::new(file),
            records,
            end: at,
            blocks_read: AtomicU64::new(0),
            last: Mutex::new(None),
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What the file holds.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// The bytes per cell of tier `tier`, if it is saved whole.
    pub fn cell_width(&self, tier: usize) -> Option<usize> {
        self.records
            .get(&tier)
            .map(|record| usize::from(record.width))
    }

    /// Whether tier `tier` is saved whole.
    pub fn holds(&self, tier: usize) -> bool {
        self.records.contains_key(&tier)
    }

    /// How many tiers are saved whole.
    pub fn tiers_held(&self) -> usize {
        self.records.len()
    }

    fn block_bytes(&self) -> usize {
        self.identity.block_bytes as usize
    }

    /// How many blocks queries have read and decompressed so far.
    pub fn blocks_read(&self) -> u64 {
        self.blocks_read.load(Relaxed)
    }

    /// The file's size in bytes (its complete records).
    pub fn bytes(&self) -> u64 {
        self.end
    }

    fn read_range(&self, from: u64, to: u64) -> Result<Vec<u8>, SolveError> {
        let io = |error: std::io::Error| problem(&self.path, format!("cannot read it: {error}"));
        let mut file = self
            .file
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        file.seek(SeekFrom::Start(from)).map_err(io)?;
        take(&mut *file, (to - from) as usize)
            .map_err(io)?
            .ok_or_else(|| problem(&self.path, "the file ends early"))
    }

    /// Tier `tier`'s cells as `u64`s, every block read and checked; `None` if not saved.
    pub fn tier(&self, tier: usize) -> Result<Option<Vec<u64>>, SolveError> {
        let Some(record) = self.records.get(&tier) else {
            return Ok(None);
        };
        let (first, end) = (record.offsets[0], *record.offsets.last().expect("an end"));
        let bytes = self.read_range(first, end + 8)?;
        let sum = fnv(FNV_START, &bytes[..bytes.len() - 8]);
        if sum != le_u64(&bytes, bytes.len() - 8) {
            return Err(self.damaged(tier));
        }
        let frames: Vec<&[u8]> = record
            .offsets
            .windows(2)
            .map(|pair| &bytes[(pair[0] - first) as usize..(pair[1] - first) as usize])
            .collect();
        let raw: Vec<Vec<u8>> = frames
            .par_iter()
            .map(|frame| {
                zstd::bulk::decompress(frame, self.block_bytes()).map_err(|_| self.damaged(tier))
            })
            .collect::<Result<_, _>>()?;
        let raw = raw.concat();
        let width = usize::from(record.width);
        if raw.len() as u64 != record.ranks * width as u64 {
            return Err(self.damaged(tier));
        }
        Ok(Some(raw.chunks_exact(width).map(cell).collect()))
    }

    fn damaged(&self, tier: usize) -> SolveError {
        problem(
            &self.path,
            format!("tier {tier} is damaged (a checksum does not match); the file cannot be used"),
        )
    }

    /// The cell of rank `rank` of tier `tier`, reading (and checking) only the block that holds
    /// it; `None` if the tier is not saved or has no such rank.
    pub fn cell(&self, tier: usize, rank: u64) -> Result<Option<u64>, SolveError> {
        let Some(record) = self.records.get(&tier) else {
            return Ok(None);
        };
        if rank >= record.ranks {
            return Ok(None);
        }
        let width = u64::from(record.width);
        let at = rank * width;
        let block = (at / self.block_bytes() as u64) as usize;
        let within = (at % self.block_bytes() as u64) as usize;
        let mut last = self
            .last
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if !matches!(&*last, Some((t, b, _)) if *t == tier && *b == block) {
            let frame = self.read_range(record.offsets[block], record.offsets[block + 1])?;
            let raw = zstd::bulk::decompress(&frame, self.block_bytes())
                .map_err(|_| self.damaged(tier))?;
            self.blocks_read.fetch_add(1, Relaxed);
            *last = Some((tier, block, raw));
        }
        let raw = &last.as_ref().expect("a block read").2;
        Ok(raw.get(within..within + width as usize).map(cell))
    }
}

/// A little-endian cell of one to eight bytes.
fn cell(bytes: &[u8]) -> u64 {
    let mut wide = [0u8; 8];
    wide[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(wide)
}

/// Where a solve writes each tier as it completes: a tier file, created afresh or resumed.
#[derive(Debug, Clone)]
pub struct Save {
    /// The tier file.
    pub path: std::path::PathBuf,
    /// The game and its parameters in words (`quixo 4`), kept in the file's header: a file for
    /// another game is refused.
    pub game: String,
    /// Whether to go on from the tiers the file holds (else the file must not exist yet).
    pub resume: bool,
    /// Raw bytes per block of a new file ([`BLOCK_BYTES`]
    /// by default; a resumed file keeps its own).
    pub block_bytes: u32,
    /// zstd's level for the tiers written (`None`: the solver's own, [`QUERY_LEVEL`] for the
    /// loopy tier solver's database, [`RESUME_LEVEL`] for the acyclic tier solver's values).
    pub level: Option<i32>,
}

impl Save {
    /// A new tier file at `path` for the game `game` (in words, as `quixo 4`).
    pub fn new(path: impl Into<std::path::PathBuf>, game: impl Into<String>) -> Save {
        Save {
            path: path.into(),
            game: game.into(),
            resume: false,
            block_bytes: BLOCK_BYTES as u32,
            level: None,
        }
    }

    /// The tier file of a solve whose header is `identity` (the blocks' size this `Save`'s):
    /// created afresh, or with `resume` checked against it and opened to go on from its complete
    /// tiers; the writer compresses at this `Save`'s level, else at `level`.
    pub(super) fn open(
        &self,
        identity: Identity,
        level: i32,
    ) -> Result<(Option<TierFile>, TierWriter), SolveError> {
        let identity = Identity {
            block_bytes: self.block_bytes,
            ..identity
        };
        let (file, writer) = if self.resume {
            TierWriter::resume(&self.path, &identity)?
        } else {
            (None, TierWriter::create(&self.path, &identity)?)
        };
        Ok((file, writer.with_level(self.level.unwrap_or(level))))
    }

    /// Goes on from the tiers the file holds.
    pub fn resumed(self) -> Save {
        Save {
            resume: true,
            ..self
        }
    }

    /// Tiers compressed at zstd's `level` (1 to 22, clamped): higher is smaller and slower,
    /// and the values read back the same.
    ///
    /// ```
    /// use gamesolver::engines::tiers::{self, file::{Save, TierFile}};
    /// use gamesolver::games::DotsAndBoxes;
    ///
    /// let game = DotsAndBoxes::new(2, 3).unwrap();
    /// let at = |level: i32| std::env::temp_dir()
    ///     .join(format!("dots-level-{level}-{}.tiers", std::process::id()));
    /// for level in [1, 19] {
    ///     let save = Save::new(at(level), "dots-and-boxes 2 3").level(level);
    ///     assert_eq!(tiers::par_solve_saved(&game, tiers::Options::new(), &save).unwrap().value(), -2);
    /// }
    /// let (fast, small) = (TierFile::open(&at(1)).unwrap(), TierFile::open(&at(19)).unwrap());
    /// assert_eq!(fast.tiers_held(), 18); // 17 edges: tiers 0 to 17
    /// for tier in 0..18 {
    ///     assert_eq!(fast.tier(tier).unwrap(), small.tier(tier).unwrap());
    /// }
    /// let bytes = |level| std::fs::metadata(at(level)).unwrap().len();
    /// assert!(bytes(19) < bytes(1), "{} against {}", bytes(19), bytes(1));
    /// for level in [1, 19] {
    ///     std::fs::remove_file(at(level)).unwrap();
    /// }
    /// ```
    pub fn level(self, level: i32) -> Save {
        Save {
            level: Some(level),
            ..self
        }
    }

    /// Blocks of `bytes` raw bytes in a new file.
    pub fn block_bytes(self, bytes: u32) -> Save {
        Save {
            block_bytes: bytes,
            ..self
        }
    }
}

/// A tier file open for appending the tiers a solve completes.
#[derive(Debug)]
pub struct TierWriter {
    path: PathBuf,
    file: File,
    written: u64,
    block_bytes: usize,
    /// zstd's level for the tiers it appends.
    level: i32,
}

impl TierWriter {
    /// Creates the tier file at `path` for a game of `identity`. A file already there is
    /// refused (resume it, or remove it): a solve never overwrites saved tiers.
    pub fn create(path: &Path, identity: &Identity) -> Result<TierWriter, SolveError> {
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|error| {
                if error.kind() == std::io::ErrorKind::AlreadyExists {
                    problem(
                        path,
                        "the file exists: resume it (--resume), or remove it to solve afresh",
                    )
                } else {
                    problem(path, format!("cannot create it: {error}"))
                }
            })?;
        let header = identity.bytes();
        file.write_all(&header)
            .and_then(|()| file.sync_data())
            .map_err(|error| problem(path, format!("cannot write it: {error}")))?;
        Ok(TierWriter {
            path: path.to_owned(),
            file,
            written: header.len() as u64,
            block_bytes: identity.block_bytes as usize,
            level: QUERY_LEVEL,
        })
    }

    /// Opens the tier file at `path` to go on with a solve of a game of `identity`: the tiers it
    /// holds whole, and a writer that appends after them (a record cut short is dropped). A
    /// file for another game, or one that is damaged, is refused; a file that does not exist
    /// (or holds less than its header) is started afresh.
    pub fn resume(
        path: &Path,
        identity: &Identity,
    ) -> Result<(Option<TierFile>, TierWriter), SolveError> {
        // No file, or one cut short within its header (a solve stopped as it began): nothing
        // was saved, so the solve starts afresh.
        let header = identity.bytes();
        match std::fs::read(path) {
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Ok((None, TierWriter::create(path, identity)?));
            }
            Ok(bytes) if bytes.len() < header.len() && header.starts_with(&bytes) => {
                std::fs::remove_file(path)
                    .map_err(|error| problem(path, format!("cannot write it: {error}")))?;
                return Ok((None, TierWriter::create(path, identity)?));
            }
            _ => {}
        }
        let saved = TierFile::open(path)?;
        if !saved.identity.same_game(identity) {
            return Err(problem(
                path,
                format!(
                    "it holds tiers of {} (kind {}, {} tiers), not of {} (kind {}, {} tiers)",
                    saved.identity.game,
                    saved.identity.kind,
                    saved.identity.tiers,
                    identity.game,
                    identity.kind,
                    identity.tiers
                ),
            ));
        }
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|file| {
                file.set_len(saved.end)?;
                Ok(file)
            })
            .map_err(|error| problem(path, format!("cannot write it: {error}")))?;
        let mut writer = TierWriter {
            path: path.to_owned(),
            file,
            written: saved.end,
            block_bytes: saved.block_bytes(),
            level: QUERY_LEVEL,
        };
        writer
            .file
            .seek(SeekFrom::Start(saved.end))
            .map_err(|error| problem(path, format!("cannot write it: {error}")))?;
        Ok((Some(saved), writer))
    }

    /// Appends tier `tier`, its cells `width` bytes each (little-endian), compressed block by
    /// block on the current rayon pool, and makes it durable before returning.
    pub fn append(&mut self, tier: usize, width: u8, cells: &[u8]) -> Result<(), SolveError> {
        let ranks = (cells.len() / usize::from(width)) as u64;
        let frames: Vec<Vec<u8>> = cells
            .par_chunks(self.block_bytes)
            .map(|block| {
                let mut compressor = zstd::bulk::Compressor::new(self.level)?;
                compressor.set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(true))?;
                compressor.compress(block)
            })
            .collect::<Result<_, _>>()
            .map_err(|error| {
                problem(&self.path, format!("cannot compress tier {tier}: {error}"))
            })?;
        let mut head = Vec::with_capacity(21 + frames.len() * 4 + 8);
        head.extend_from_slice(RECORD);
        head.extend_from_slice(&(tier as u32).to_le_bytes());
        head.extend_from_slice(&ranks.to_le_bytes());
        head.push(width);
        head.extend_from_slice(&(frames.len() as u32).to_le_bytes());
        for frame in &frames {
            head.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        }
        let sum = fnv(FNV_START, &head);
        head.extend_from_slice(&sum.to_le_bytes());
        let data_sum = frames.iter().fold(FNV_START, |sum, frame| fnv(sum, frame));
        let mut write = || -> std::io::Result<()> {
            self.file.write_all(&head)?;
            for frame in &frames {
                self.file.write_all(frame)?;
            }
            self.file.write_all(&data_sum.to_le_bytes())?;
            self.file.sync_data()
        };
        write()
            .map_err(|error| problem(&self.path, format!("cannot write tier {tier}: {error}")))?;
        self.written +=
            head.len() as u64 + frames.iter().map(|frame| frame.len() as u64).sum::<u64>() + 8;
        Ok(())
    }

    /// Compresses the tiers it appends at zstd's `level` (clamped to zstd's 1 to 22;
    /// [`QUERY_LEVEL`] unless set): a reader needs no level, so a resumed file may mix them.
    pub fn with_level(self, level: i32) -> TierWriter {
        TierWriter {
            level: level.clamp(1, 22),
            ..self
        }
    }

    /// Bytes written so far.
    pub fn bytes(&self) -> u64 {
        self.written
    }
}
