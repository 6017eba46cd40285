//! The fuzz targets (`gamesolver::games::fuzz`) on every `cargo test`, on stable Rust: a short
//! mutation pass per target over its seed corpus (fuzz/corpus/), and per file format the damage
//! a kill, a disk or a copy does (the file cut at every block boundary and at random bytes,
//! bytes appended, counts in the header set to their maximum), each of which answers as the
//! whole file does or is refused naming the file. `fuzz/run.sh` runs the same targets for long
//! under libFuzzer.
//!
//! Every allocation of this process is capped (`Capped`): a reader that reserved memory from a
//! count it read, past the budget the targets run under, would stop the test with the input
//! that made it.

#![cfg(feature = "serve")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use gamesolver::games::fuzz::{Outcome, Target};

/// The largest allocation the targets may make: the memory budget their commands run under
/// (`games::fuzz::MEMORY_LIMIT`, 256 MiB).
const CAP: usize = 256 << 20;

/// The input each thread runs now, printed if it asks for more than [`CAP`].
static CURRENT: Mutex<Vec<u8>> = Mutex::new(Vec::new());

/// The largest allocation made so far (within the cap).
static LARGEST: AtomicUsize = AtomicUsize::new(0);

/// The system's allocator, refusing (a null pointer, as the contract allows) any allocation
/// past [`CAP`], after printing the input that asked for it.
struct Capped;

// SAFETY: every call goes to the system allocator with the same arguments, or returns null,
// which `GlobalAlloc::alloc` allows for a failed allocation (the caller then reports it); no
// pointer is made here. `a_runaway_allocation_is_refused_by_the_cap` exercises the refusal.
unsafe impl GlobalAlloc for Capped {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if too_large(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's layout, passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if too_large(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: as in `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` with `layout` (this allocator made no other).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if too_large(new_size) {
            return std::ptr::null_mut();
        }
        // SAFETY: as in `dealloc`; `new_size` is the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Capped = Capped;

/// Whether `size` passes the cap; if so, the input that asked is printed (without allocating).
fn too_large(size: usize) -> bool {
    if size <= CAP {
        LARGEST.fetch_max(size, Ordering::Relaxed);
        return false;
    }
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(b"an allocation past the cap, asked by the input (hex): ");
    if let Ok(input) = CURRENT.try_lock() {
        for byte in input.iter() {
            let digits = b"0123456789abcdef";
            let _ = stderr.write_all(&[
                digits[usize::from(byte >> 4)],
                digits[usize::from(byte & 15)],
            ]);
        }
    }
    let _ = stderr.write_all(b"\n");
    true
}

/// Runs `target` on `bytes`, remembered as the current input.
fn run(target: Target, bytes: &[u8]) -> Outcome {
    {
        let mut current = CURRENT
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        current.clear();
        current.extend_from_slice(bytes);
    }
    target.run(bytes)
}

/// A small generator of random numbers (xorshift), seeded for each test.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The seed corpus of `target` (fuzz/corpus/NAME/): the whole file of the target's game first,
/// then the rest (a name ending in `-other` is another game's file).
fn seeds(target: Target) -> Vec<Vec<u8>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target.name());
    let mut seeds: Vec<(bool, PathBuf)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| {
            let path = entry.unwrap().path();
            (path.to_string_lossy().ends_with("-other"), path)
        })
        .collect();
    seeds.sort();
    assert!(!seeds.is_empty(), "no seeds in {}", dir.display());
    seeds
        .into_iter()
        .map(|(_, path)| std::fs::read(path).unwrap())
        .collect()
}

/// `input` changed once or a few times, as a damaged file or a typo is.
fn mutate(rng: &mut Rng, input: &[u8], others: &[Vec<u8>]) -> Vec<u8> {
    let mut bytes = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(bytes.len() + 1);
        let last = bytes.len().saturating_sub(1);
        match rng.below(9) {
            0 if !bytes.is_empty() => bytes[at.min(last)] ^= 1 << rng.below(8),
            1 if !bytes.is_empty() => bytes[at.min(last)] = rng.next() as u8,
            2 => bytes.truncate(at),
            3 => {
                let garbage: Vec<u8> = (0..1 + rng.below(300)).map(|_| rng.next() as u8).collect();
                bytes.extend_from_slice(&garbage);
            }
            4 if at + 4 <= bytes.len() => bytes[at..at + 4].fill(0xff),
            5 if at + 8 <= bytes.len() => {
                bytes[at..at + 8].fill(if rng.below(2) == 0 { 0xff } else { 0 })
            }
            6 => {
                let end = (at + 1 + rng.below(16)).min(bytes.len());
                bytes.drain(at..end);
            }
            7 => {
                let text = [
                    &b"0"[..],
                    b"-1",
                    b",",
                    b" ",
                    b"9999999999999999999",
                    b"[",
                    b"]",
                    b"\"",
                    b"{",
                    b"}",
                    b"x",
                    b"&",
                    b"=",
                ];
                let word = text[rng.below(text.len())];
                bytes.splice(at..at, word.iter().copied());
            }
            _ => {
                let other = &others[rng.below(others.len())];
                let from = rng.below(other.len());
                let end = (from + 1 + rng.below(64)).min(other.len());
                bytes.splice(at..at, other[from..end].iter().copied());
            }
        }
    }
    bytes
}

/// Inputs each target's mutation pass tries (`GAMESOLVER_FUZZ_INPUTS` for more).
fn inputs() -> usize {
    std::env::var("GAMESOLVER_FUZZ_INPUTS")
        .ok()
        .and_then(|inputs| inputs.parse().ok())
        .unwrap_or(300)
}

/// The short mutation pass of `target`: every seed, then mutations of them (the targets check
/// their rules; a broken one panics here).
fn mutation_pass(target: Target, seed: u64) {
    let seeds = seeds(target);
    let (mut answered, mut refused) = (0, 0);
    for seed in &seeds {
        run(target, seed);
    }
    let mut rng = Rng(seed);
    for _ in 0..inputs() {
        let pick = rng.below(seeds.len());
        let input = mutate(&mut rng, &seeds[pick], &seeds);
        match run(target, &input) {
            Outcome::Answered(_) => answered += 1,
            Outcome::Refused(_) => refused += 1,
        }
    }
    eprintln!(
        "{}: {} inputs, {answered} answered, {refused} refused; largest allocation {} bytes",
        target.name(),
        answered + refused,
        LARGEST.load(Ordering::Relaxed)
    );
}

#[test]
fn proof_files_survive_a_mutation_pass() {
    mutation_pass(Target::ProofFile, 0x6A5_9800F);
}

#[test]
fn saved_tables_survive_a_mutation_pass() {
    mutation_pass(Target::SavedTable, 0x5A7E_D7AB);
}

#[test]
fn chance_solutions_survive_a_mutation_pass() {
    mutation_pass(Target::ChanceSolution, 0x0C4A_2CE5);
}

#[test]
fn tier_files_survive_a_mutation_pass() {
    mutation_pass(Target::TierFile, 0x71E2_F11E);
}

#[test]
fn loopy_databases_survive_a_mutation_pass() {
    mutation_pass(Target::LoopyDatabase, 0x100B_D8A5);
}

#[test]
fn nimber_journals_survive_a_mutation_pass() {
    mutation_pass(Target::NimberJournal, 0x041B_32A1);
}

#[test]
fn positions_survive_a_mutation_pass() {
    mutation_pass(Target::Position, 0x9051_7103);
}

#[test]
fn input_files_survive_a_mutation_pass() {
    mutation_pass(Target::InputFile, 0x1A9B_7F11);
}

#[test]
fn page_requests_survive_a_mutation_pass() {
    mutation_pass(Target::Request, 0x2E9B_E575);
}

/// Where the blocks of a file of `target` begin and end (every boundary a kill can leave),
/// read from its layout: a tier file's records and their blocks, a journal's blocks; the other
/// formats are one stream, cut at every byte.
fn boundaries(target: Target, file: &[u8]) -> Vec<usize> {
    let le32 = |at: usize| u32::from_le_bytes(file[at..at + 4].try_into().unwrap()) as usize;
    match target {
        Target::TierFile | Target::LoopyDatabase => {
            // Header: magic, version, kind, block size, tiers, lengths, the name's length;
            // the name, its checksum. Each record: its head (mark, tier, ranks, width, blocks),
            // its blocks' lengths and checksum, the blocks, their checksum.
            let mut cuts = vec![0, 8, 33];
            let mut at = 33 + le32(29) + 8;
            cuts.push(at);
            while at + 21 <= file.len() {
                let blocks = le32(at + 17);
                let mut next = at + 21 + 4 * blocks + 8;
                cuts.extend([at + 4, at + 21, next]);
                for block in 0..blocks {
                    next += le32(at + 21 + 4 * block);
                    cuts.push(next);
                }
                at = next + 8;
                cuts.push(at);
            }
            cuts.retain(|&cut| cut <= file.len());
            cuts
        }
        Target::NimberJournal => {
            // Its words, then blocks: a count, the entries (20 bytes each), a checksum.
            let name = 21 + 4;
            let mut at = name + le32(21);
            let mut cuts = vec![0, 21, name, at];
            while at + 4 <= file.len() {
                at += 4 + 20 * le32(at) + 8;
                cuts.push(at.min(file.len()));
            }
            cuts
        }
        _ => (0..=file.len()).collect(),
    }
}

/// Every damaged form of `target`'s whole file answers with its value or is refused (naming
/// the file: the target checks it); returns how many answered and how many were refused.
fn damaged_files_answer_or_are_refused(target: Target) -> (usize, usize) {
    let whole = seeds(target).remove(0);
    let value = run(target, &whole).value();
    assert!(value.is_some(), "{}: the whole file answers", target.name());
    let mut rng = Rng(0x0DA3_A6ED + whole.len() as u64);
    let mut damaged: Vec<Vec<u8>> = Vec::new();
    let mut cuts = boundaries(target, &whole);
    cuts.extend((0..32).map(|_| rng.below(whole.len())));
    for cut in cuts {
        damaged.push(whole[..cut].to_vec());
    }
    for length in [1, 7, 64, 300, 4096] {
        let mut longer = whole.clone();
        longer.extend((0..length).map(|_| rng.next() as u8));
        damaged.push(longer);
    }
    // Counts at their maximum: every aligned word of the header (the first 64 bytes), then
    // random ones.
    for at in (0..64)
        .step_by(4)
        .chain((0..32).map(|_| rng.below(whole.len())))
    {
        for width in [4, 8] {
            if at + width <= whole.len() {
                let mut maxed = whole.clone();
                maxed[at..at + width].fill(0xff);
                damaged.push(maxed);
            }
        }
    }
    // A count at its maximum in a file long enough to seem to hold what it claims.
    for at in (0..64).step_by(4).filter(|at| at + 4 <= whole.len()) {
        let mut maxed = whole.clone();
        maxed[at..at + 4].fill(0xff);
        maxed.extend((0..70_000).map(|_| rng.next() as u8));
        damaged.push(maxed);
    }
    for _ in 0..32 {
        let mut flipped = whole.clone();
        let at = rng.below(whole.len());
        flipped[at] ^= 1 << rng.below(8);
        damaged.push(flipped);
    }
    let (mut answered, mut refused) = (0, 0);
    for bytes in &damaged {
        match run(target, bytes) {
            outcome @ Outcome::Answered(_) => {
                assert_eq!(
                    outcome.value(),
                    value,
                    "{}: a damaged file ({} bytes) answered otherwise",
                    target.name(),
                    bytes.len()
                );
                answered += 1;
            }
            Outcome::Refused(_) => refused += 1,
        }
    }
    (answered, refused)
}

#[test]
fn a_damaged_saved_table_answers_as_the_whole_or_is_refused_by_name() {
    let (_, refused) = damaged_files_answer_or_are_refused(Target::SavedTable);
    assert!(refused > 0);
}

#[test]
fn a_damaged_chance_solution_answers_as_the_whole_or_is_refused_by_name() {
    let (_, refused) = damaged_files_answer_or_are_refused(Target::ChanceSolution);
    assert!(refused > 0);
}

#[test]
fn a_damaged_tier_file_answers_as_the_whole_or_is_refused_by_name() {
    let (_, refused) = damaged_files_answer_or_are_refused(Target::TierFile);
    assert!(refused > 0);
}

#[test]
fn a_damaged_loopy_database_answers_as_the_whole_or_is_refused_by_name() {
    let (_, refused) = damaged_files_answer_or_are_refused(Target::LoopyDatabase);
    assert!(refused > 0);
}

/// A journal's torn end is normal: cut anywhere, or followed by anything, it resumes from its
/// last whole block to the same answer.
#[test]
fn a_journal_cut_or_followed_by_garbage_resumes_to_the_same_answer() {
    let whole = seeds(Target::NimberJournal).remove(0);
    let value = run(Target::NimberJournal, &whole).value();
    assert!(value.is_some());
    let mut rng = Rng(0x70A2_4E1D);
    let header = 21 + 4 + u32::from_le_bytes(whole[21..25].try_into().unwrap()) as usize;
    let mut cuts = boundaries(Target::NimberJournal, &whole);
    cuts.extend((0..32).map(|_| header + rng.below(whole.len() - header)));
    for cut in cuts.into_iter().filter(|&cut| cut >= header) {
        let outcome = run(Target::NimberJournal, &whole[..cut]);
        assert_eq!(outcome.value(), value, "cut at {cut}: {outcome:?}");
    }
    for length in [1, 19, 300, 5000] {
        let mut longer = whole.clone();
        longer.extend((0..length).map(|_| rng.next() as u8));
        let outcome = run(Target::NimberJournal, &longer);
        assert_eq!(
            outcome.value(),
            value,
            "{length} bytes appended: {outcome:?}"
        );
    }
    let (answered, _) = damaged_files_answer_or_are_refused(Target::NimberJournal);
    assert!(answered > 0);
}

/// The cap this process runs under refuses what passes it: a `try_reserve` past it fails
/// rather than allocating.
#[test]
fn a_runaway_allocation_is_refused_by_the_cap() {
    let mut bytes: Vec<u8> = Vec::new();
    assert!(bytes.try_reserve(CAP + 1).is_err());
    assert!(bytes.try_reserve(1 << 10).is_ok());
    assert!(LARGEST.load(Ordering::Relaxed) <= CAP);
}
