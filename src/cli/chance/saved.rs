//! `--save` and `--load` for a game with chance: every value a solve holds, by the game's
//! dense index, exact fractions as their digits and estimates as their two bounds, in a file
//! with a header and a checksum (docs/saved-solutions.md has the layout). A file for another
//! game, other values or another index, truncated, or whose checksum does not match is
//! refused, never used.

use std::fs::File;
use std::hash::Hash;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;

use hashbrown::HashMap;
use num_bigint::BigInt;
use num_rational::BigRational;

use crate::engines::chance::{self, ChanceSolution, Held, Rational, Value};
use crate::game::{Chance, DenseIndex};
use crate::{Engine, Limits, Solved};

use super::super::args::Cli;
use super::super::model::{CliError, Failure, GameName, Report};
use super::super::present::Presented;
use super::super::saved::{Checked, Fnv, Summing, corrupt, temporary_beside};

/// The file's first eight bytes.
const MAGIC: &[u8; 8] = b"GSOLVCHN";
/// The format's version.
const VERSION: u32 = 1;

/// A value's tag: an exact fraction, or two bounds.
const EXACT: u8 = 1;
const BOUNDS: u8 = 2;

/// `--save` (solve, then write every value held) or `--load` (answer from the file) for a
/// game with chance, and the report.
pub(super) fn solved_or_loaded<G>(
    cli: &Cli,
    game: &G,
    params: &[i64],
    limits: Limits,
) -> Result<Report, Failure>
where
    G: Presented + Chance + DenseIndex + Sync,
    G::State: Eq + Hash + Send + Sync,
    G::Move: Send,
{
    if cli.load.is_some() {
        let mut solved = loaded_dense(cli, game, params, limits)?;
        return super::report(cli, game, params.len(), &mut solved);
    }
    let mut solved = super::chance_solver(cli, game)?
        .limits(limits)
        .solve_chance()?;
    let report = super::report(cli, game, params.len(), &mut solved)?;
    if let Some(path) = &cli.save {
        save(path, cli.game, params, game, &solved)?;
    }
    Ok(report)
}

/// The solution `--load` reads, for a game that declares its dense index (else refused).
pub(super) fn loaded_solution<'g, G>(
    cli: &Cli,
    game: &'g G,
    params: &[i64],
    limits: Limits,
) -> Result<ChanceSolution<'g, G>, Failure>
where
    G: Presented + Chance,
{
    struct Loading<'a, 'g, G> {
        cli: &'a Cli,
        game: &'g G,
        params: &'a [i64],
        limits: Limits,
    }
    impl<'g, G: Presented + Chance> crate::game::declaration::OnIndex<G> for Loading<'_, 'g, G> {
        type Output = Result<ChanceSolution<'g, G>, Failure>;
        fn declared(self) -> Self::Output
        where
            G: DenseIndex,
        {
            loaded_dense(self.cli, self.game, self.params, self.limits)
        }
        fn undeclared(self) -> Self::Output {
            Err(super::super::saved::needs_dense_index(self.cli.game))
        }
    }
    super::visit_index(
        game,
        Loading {
            cli,
            game,
            params,
            limits,
        },
    )
}

/// The solution from `--load`'s file.
fn loaded_dense<'g, G>(
    cli: &Cli,
    game: &'g G,
    params: &[i64],
    limits: Limits,
) -> Result<ChanceSolution<'g, G>, Failure>
where
    G: Presented + Chance + DenseIndex,
{
    let path = cli.load.as_ref().expect("--load");
    let (values, engine) = load(path, cli.game, params, game, limits.memory_budget)?;
    Ok(chance::loaded(game, chance::Rolls, values, engine, 0)?)
}

/// Writes `solved`'s values to `path`: to a temporary file beside it first, renamed into
/// place once complete.
fn save<G>(
    path: &Path,
    name: GameName,
    params: &[i64],
    game: &G,
    solved: &ChanceSolution<'_, G>,
) -> Result<(), CliError>
where
    G: Presented + DenseIndex,
{
    let temporary = temporary_beside(path);
    let written = write_to(&temporary, name, params, game, solved)
        .and_then(|()| std::fs::rename(&temporary, path));
    written.map_err(|error| {
        let _ = std::fs::remove_file(&temporary);
        CliError::write(path.display().to_string(), error)
    })
}

/// A whole number as a length and its little-endian two's complement bytes.
fn put_integer<W: Write>(out: &mut Summing<W>, value: &BigInt) -> io::Result<()> {
    let bytes = value.to_signed_bytes_le();
    out.varint(bytes.len() as u64)?;
    out.put(&bytes)
}

fn write_to<G>(
    path: &Path,
    name: GameName,
    params: &[i64],
    game: &G,
    solved: &ChanceSolution<'_, G>,
) -> io::Result<()>
where
    G: Presented + DenseIndex,
{
    let file = File::create(path)?;
    let mut out = Summing {
        inner: BufWriter::with_capacity(1 << 16, file),
        sum: Fnv::new(),
    };
    out.put(MAGIC)?;
    out.put(&VERSION.to_le_bytes())?;
    let id = name.id().as_bytes();
    out.put(&(id.len() as u64).to_le_bytes())?;
    out.put(id)?;
    out.put(&(params.len() as u64).to_le_bytes())?;
    for value in params {
        out.put(&value.to_le_bytes())?;
    }
    out.put(&(game.index_len() as u64).to_le_bytes())?;
    let engine = u8::from(solved.engine() == Engine::ValueIteration);
    out.put(&[engine])?;
    let mut entries: Vec<(usize, Value)> = Vec::new();
    solved.held(&mut |place, value| {
        let index = match place {
            Held::State(state) => game.index(state),
            Held::Index(index) => index,
        };
        entries.push((index, value));
    });
    entries.sort_unstable_by_key(|(index, _)| *index);
    entries.dedup_by_key(|(index, _)| *index);
    out.put(&(entries.len() as u64).to_le_bytes())?;
    for (index, value) in &entries {
        out.varint(*index as u64)?;
        match value.exact() {
            Some(exact) => {
                out.put(&[EXACT])?;
                put_integer(&mut out, exact.0.numer())?;
                put_integer(&mut out, exact.0.denom())?;
            }
            None => {
                let (low, high) = value.bounds();
                out.put(&[BOUNDS])?;
                out.put(&low.to_le_bytes())?;
                out.put(&high.to_le_bytes())?;
            }
        }
    }
    let sum = out.sum.0.to_le_bytes();
    out.inner.write_all(&sum)?;
    let file = out
        .inner
        .into_inner()
        .map_err(io::IntoInnerError::into_error)?;
    file.sync_all()
}

/// Reads the values saved in `path` for `game` with `params`, within `budget` bytes, and the
/// engine that gave them.
fn load<G: DenseIndex>(
    path: &Path,
    name: GameName,
    params: &[i64],
    game: &G,
    budget: u64,
) -> Result<(HashMap<usize, Value>, Engine), Failure> {
    let file =
        File::open(path).map_err(|error| CliError::read(path.display().to_string(), error))?;
    let mut input = Checked {
        inner: BufReader::with_capacity(1 << 16, file),
        sum: Fnv::new(),
        path,
        at: 0,
    };
    let refuse = |problem: String| Failure::Cli(corrupt(path, problem));
    let magic = input.take::<8>("the header")?;
    if &magic == b"GSOLVTBL" {
        return Err(refuse(
            "it holds a game without chance's table, not a game with chance's values".into(),
        ));
    }
    if &magic != MAGIC {
        return Err(refuse("it is not a saved gamesolver solution".into()));
    }
    let version = u32::from_le_bytes(input.take::<4>("the header")?);
    if version != VERSION {
        return Err(refuse(format!(
            "it is in format version {version}; this gamesolver reads version {VERSION}"
        )));
    }
    let length = input.u64("the game's name")?;
    if length > 64 {
        return Err(refuse("its header is damaged: the file is corrupt".into()));
    }
    let mut saved = vec![0; length as usize];
    for byte in &mut saved {
        *byte = input.take::<1>("the game's name")?[0];
    }
    if saved != name.id().as_bytes() {
        let saved = String::from_utf8_lossy(&saved);
        return Err(refuse(format!("it holds {saved}, not {}", name.id())));
    }
    let count = input.u64("the game's values")?;
    if count != params.len() as u64 {
        return Err(refuse(format!(
            "it holds {} with {count} values, not {}",
            name.id(),
            params.len()
        )));
    }
    for &value in params {
        if i64::from_le_bytes(input.take::<8>("the game's values")?) != value {
            return Err(refuse(format!(
                "it holds {} with other values than these",
                name.id()
            )));
        }
    }
    let slots = input.u64("the index's size")?;
    if slots != game.index_len() as u64 {
        return Err(refuse(format!(
            "its index has {slots} slots, but this game has {}",
            game.index_len()
        )));
    }
    let engine = match input.take::<1>("the header")?[0] {
        0 => Engine::Expectimax,
        1 => Engine::ValueIteration,
        _ => return Err(refuse("its header is damaged: the file is corrupt".into())),
    };
    let entries = input.u64("the values' count")?;
    let damaged = |at: u64| {
        refuse(format!(
            "its values are damaged at byte {at}: the file is corrupt"
        ))
    };
    let mut values = HashMap::new();
    let integer = |input: &mut Checked<'_, _>| -> Result<BigInt, Failure> {
        let length = input.varint("a value")?;
        if length > 1 << 20 {
            return Err(damaged(input.at));
        }
        let mut bytes = vec![0u8; length as usize];
        for byte in &mut bytes {
            *byte = input.take::<1>("a value")?[0];
        }
        Ok(BigInt::from_signed_bytes_le(&bytes))
    };
    for _ in 0..entries {
        let index = input.varint("a value's index")?;
        if index >= slots {
            return Err(damaged(input.at));
        }
        let value = match input.take::<1>("a value")?[0] {
            EXACT => {
                let numerator = integer(&mut input)?;
                let denominator = integer(&mut input)?;
                if denominator <= BigInt::from(0) {
                    return Err(damaged(input.at));
                }
                Value::from_exact(Rational(BigRational::new(numerator, denominator)))
            }
            BOUNDS => {
                let low = f64::from_le_bytes(input.take::<8>("a value")?);
                let high = f64::from_le_bytes(input.take::<8>("a value")?);
                if low.partial_cmp(&high).is_none_or(std::cmp::Ordering::is_gt) {
                    return Err(damaged(input.at));
                }
                Value::bounded(low, high)
            }
            _ => return Err(damaged(input.at)),
        };
        values.insert(index as usize, value);
        let bytes = (values.len() as u64).saturating_mul(96);
        if bytes > budget {
            return Err(Failure::from(crate::SolveError::MemoryBudget {
                what: format!("the saved values of {}", path.display()),
                needed: bytes,
                budget,
            }));
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
    Ok((values, engine))
}
