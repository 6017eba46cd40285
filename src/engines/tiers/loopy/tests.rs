//! The loopy tier solver against one table's retrograde analysis, and resumed solves.

use super::*;
use crate::engines::retrograde::{self, HashIds};
use crate::games::Quixo;
use crate::{Game, Tiered};

/// Every position of 3×3 Quixo reachable from the start, against one table's retrograde
/// analysis: with and without symmetry, on one thread and on two.
#[test]
fn quixo_three_agrees_with_one_table() {
    let game = Quixo::new(3).unwrap();
    let one_table =
        retrograde::solve(&game, HashIds::default(), retrograde::Options::new()).unwrap();
    let options = Options::new().keep(KeepTiers::All);
    let every = solve(&game, EveryState, options).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let classes = pool
        .install(|| par_solve(&game, BySymmetry, options))
        .unwrap();
    assert!(classes.stats().states * 6 < every.stats().states);
    let mut checked = 0;
    let mut seen = hashbrown::HashSet::new();
    let mut todo = vec![game.start()];
    while let Some(state) = todo.pop() {
        if !seen.insert(state) {
            continue;
        }
        todo.extend(game.moves(&state).map(|push| game.play(&state, &push).next));
        let found = one_table.outcome_of(&state).unwrap();
        assert_eq!(
            every.outcome_of(&state),
            Some(found),
            "{}",
            game.formal(&state)
        );
        assert_eq!(
            classes.outcome_of(&state),
            Some(found),
            "{}",
            game.formal(&state)
        );
        checked += 1;
    }
    assert_eq!(checked, one_table.states());
}

/// `count` places to cut a tier file of `len` bytes (a solve stopped there), past its first 60
/// bytes, drawn by xorshift from `seed`.
#[cfg(feature = "database")]
fn cuts(len: usize, count: usize, mut seed: u64) -> Vec<usize> {
    (0..count)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            60 + (seed % (len as u64 - 60)) as usize
        })
        .collect()
}

/// A saved solve cut at random places (as a kill mid-write leaves it) resumes to the same
/// codes as a solve never stopped; a flipped byte in a complete tier is refused.
#[cfg(feature = "database")]
#[test]
fn resumed_solves_end_the_same() {
    use super::super::file::TierFile;
    let game = Quixo::new(3).unwrap();
    let options = Options::new().keep(KeepTiers::All);
    let whole = solve(&game, BySymmetry, options).unwrap();
    let dir = std::env::temp_dir().join(format!("loopy-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("quixo3.tiers");
    let save = Save::new(&path, "quixo 3");
    par_solve_saved(&game, BySymmetry, options, &save).unwrap();
    let full = std::fs::read(&path).unwrap();
    assert!(matches!(
        par_solve_saved(&game, BySymmetry, options, &save),
        Err(SolveError::TierFile { .. })
    ));
    for cut in cuts(full.len(), 12, 0x2545_F491_4F6C_DD1D) {
        std::fs::write(&path, &full[..cut]).unwrap();
        let held = TierFile::open(&path).unwrap().tiers_held();
        let resume = save.clone().resumed();
        let resumed = par_solve_saved(&game, BySymmetry, options, &resume).unwrap();
        assert_eq!(resumed.stats().resumed, held);
        assert_eq!(resumed.stats().tiers + held, game.tier_count());
        assert_eq!(resumed.tiers(), whole.tiers(), "cut at byte {cut}");
        assert_eq!(std::fs::read(&path).unwrap().len(), full.len());
    }
    // A byte flipped in the middle of the file: the tier it falls in is named.
    let mut damaged = full.clone();
    damaged[full.len() / 2] ^= 0x40;
    std::fs::write(&path, &damaged).unwrap();
    let resume = save.clone().resumed();
    let refused = par_solve_saved(&game, BySymmetry, options, &resume).unwrap_err();
    assert!(refused.to_string().contains("damaged"), "{refused}");
    // Another game's file.
    std::fs::write(&path, &full).unwrap();
    let other = Save::new(&path, "quixo 4").resumed();
    let refused = par_solve_saved(&game, BySymmetry, options, &other).unwrap_err();
    assert!(refused.to_string().contains("not of quixo 4"), "{refused}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A question read from a tier file reads only the blocks that hold the positions it asks
/// about: one for a position, at most one a move for its moves; every answer agrees with the
/// solve in memory.
#[cfg(feature = "database")]
#[test]
fn a_database_reads_only_the_blocks_it_needs() {
    use super::LoopyDatabase;
    let game = Quixo::new(3).unwrap();
    let whole = solve(&game, BySymmetry, Options::new().keep(KeepTiers::All)).unwrap();
    let path = std::env::temp_dir().join(format!("loopy-blocks-{}.tiers", std::process::id()));
    let _ = std::fs::remove_file(&path);
    // 64-byte blocks: the 3×3 file holds hundreds of them.
    let save = Save::new(&path, "quixo 3").block_bytes(64);
    par_solve_saved(&game, BySymmetry, Options::new(), &save).unwrap();
    let blocks: u64 = (0..game.tier_count())
        .map(|tier| game.tier_len(tier).div_ceil(64))
        .sum();
    assert!(blocks > 300);
    let mut seed = 7u64;
    let mut board = game.start();
    for _ in 0..200 {
        let database = LoopyDatabase::open(&game, BySymmetry, &path, "quixo 3").unwrap();
        assert_eq!(
            database.outcome_of(&board).unwrap(),
            whole.outcome_of(&board)
        );
        assert_eq!(database.blocks_read(), 1);
        let moves = database.move_outcomes(&board).unwrap().unwrap();
        assert_eq!(Some(moves.clone()), whole.move_outcomes(&board));
        assert!(database.blocks_read() <= 1 + moves.len() as u64);
        if moves.is_empty() {
            board = game.start();
            continue;
        }
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let (push, ..) = moves[(seed >> 33) as usize % moves.len()];
        board = game.play(&board, &push).next;
    }
    std::fs::remove_file(&path).unwrap();
}

/// Value iteration gives every rank of every tier the code backward induction gives it, on
/// Quixo 3×3 (every state, and one a class on two threads) and on Six Men's Morris with three
/// men (flying and not); a budget between the two methods' needs mixes them tier by tier, to
/// the same codes.
#[test]
fn value_iteration_agrees_with_backward_induction() {
    use crate::games::SixMensMorris;
    fn both<G, C>(game: &G, classes: C, threads: usize)
    where
        G: Tiered + Sync,
        G::State: Send + PartialEq,
        C: Classes<G> + Copy,
    {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let options = Options::new().keep(KeepTiers::All);
        let by = |options: Options, method| {
            pool.install(|| par_solve_with(game, classes, options, method))
                .unwrap()
        };
        let induction = by(options, Method::BackwardInduction);
        let iteration = by(options, Method::ValueIteration);
        assert_eq!(iteration.tiers(), induction.tiers());
        let (i, b) = (iteration.stats(), induction.stats());
        assert_eq!((i.iterated, b.iterated), (i.tiers, 0));
        assert_eq!(
            (i.states, i.wins, i.losses, i.draws),
            (b.states, b.wins, b.losses, b.draws)
        );
        assert!(i.peak_bytes < b.peak_bytes);
        // Between the two needs: backward induction where a tier fits, value iteration where not.
        let budget = (i.peak_bytes + b.peak_bytes) / 2;
        let limits = crate::Limits::with_memory_budget(budget);
        let mixed = by(options.limits(limits), Method::ByBudget);
        assert_eq!(mixed.tiers(), induction.tiers());
        let m = mixed.stats();
        assert!(m.iterated > 0 && m.iterated < m.tiers, "{m:?}");
        assert!(m.peak_bytes <= budget);
        // Under value iteration's need, refused before any tier.
        let short = crate::Limits::with_memory_budget(i.peak_bytes - 1);
        let refused = pool.install(|| par_solve(game, classes, options.limits(short)));
        assert!(matches!(refused, Err(SolveError::MemoryBudget { .. })));
    }
    let quixo = Quixo::new(3).unwrap();
    both(&quixo, EveryState, 1);
    both(&quixo, BySymmetry, 2);
    for flying in [true, false] {
        let mut morris = SixMensMorris::new(3).unwrap();
        if !flying {
            morris = morris.without_flying();
        }
        both(&morris, BySymmetry, 2);
    }
}

/// The distributed solve gives every rank of every tier the code the solve in one process
/// gives it, for one to four workers (more workers than some tiers have ranks), with and
/// without symmetry; keeping only the tiers still needed, the start's outcome and remoteness.
#[cfg(feature = "distributed")]
#[test]
fn distributed_workers_agree_with_one_process() {
    use crate::games::SixMensMorris;
    use std::sync::Arc;
    fn agree<G, C>(game: &G, classes: C)
    where
        G: Tiered + Clone + Send + Sync + 'static,
        G::State: Send + PartialEq,
        C: Classes<G> + Copy + 'static,
    {
        let options = Options::new().keep(KeepTiers::All);
        let local = par_solve(game, classes, options).unwrap();
        for workers in 1..=4 {
            let config = distributed::Config::process(workers);
            let solved =
                distributed::solve(Arc::new(game.clone()), classes, config, options).unwrap();
            assert_eq!(solved.workers, workers);
            let (states, tiers) = (solved.stats.states, solved.stats.tiers);
            assert_eq!((states, tiers), (local.stats().states, local.stats().tiers));
            let solution = solved.into_solution(game, classes).unwrap();
            assert_eq!(solution.tiers(), local.tiers(), "{workers} workers");
        }
        let needed = Options::new();
        let config = distributed::Config::process(2);
        let solved = distributed::solve(Arc::new(game.clone()), classes, config, needed).unwrap();
        let solution = solved.into_solution(game, classes).unwrap();
        assert_eq!(
            (solution.outcome(), solution.remoteness()),
            (local.outcome(), local.remoteness())
        );
    }
    let quixo = Quixo::new(3).unwrap();
    agree(&quixo, EveryState);
    agree(&quixo, BySymmetry);
    agree(&SixMensMorris::new(3).unwrap().without_flying(), BySymmetry);
}

/// A distributed solve that saves writes the file the solve in one process writes, byte for
/// byte, from any number of workers; cut at random bytes (a solve stopped), it resumes to the
/// same codes and the same file; a damaged file is refused by name, and an existing one without
/// `resume`.
#[cfg(all(feature = "distributed", feature = "database"))]
#[test]
fn distributed_saving_resumes_as_one_process_does() {
    use super::super::file::TierFile;
    use std::sync::Arc;
    let game = Quixo::new(3).unwrap();
    let options = Options::new().keep(KeepTiers::All);
    let dir = std::env::temp_dir().join(format!("loopy-timely-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (one, path) = (dir.join("one.tiers"), dir.join("timely.tiers"));
    let whole = par_solve_saved(&game, BySymmetry, options, &Save::new(&one, "quixo 3")).unwrap();
    let full = std::fs::read(&one).unwrap();
    let save = Save::new(&path, "quixo 3");
    let solve = |workers: usize, save: &Save| {
        let config = distributed::Config::process(workers);
        distributed::solve_saving(Arc::new(game.clone()), BySymmetry, config, options, save)
    };
    let solved = solve(3, &save).unwrap();
    assert_eq!(solved.stats.tiers, game.tier_count());
    assert_eq!(
        std::fs::read(&path).unwrap(),
        full,
        "the same file as one process writes"
    );
    let refused = solve(2, &save).unwrap_err();
    assert!(refused.to_string().contains("exists"), "{refused}");
    for (round, cut) in cuts(full.len(), 8, 0x9E37_79B9_7F4A_7C15)
        .into_iter()
        .enumerate()
    {
        std::fs::write(&path, &full[..cut]).unwrap();
        let held = TierFile::open(&path).unwrap().tiers_held();
        let workers = 1 + round % 4;
        let resumed = solve(workers, &save.clone().resumed()).unwrap();
        assert_eq!(resumed.stats.resumed, held, "cut at byte {cut}");
        assert_eq!(resumed.stats.tiers + held, game.tier_count());
        let solution = resumed.into_solution(&game, BySymmetry).unwrap();
        assert_eq!(
            solution.tiers(),
            whole.tiers(),
            "{workers} workers, cut at byte {cut}"
        );
        assert_eq!(
            std::fs::read(&path).unwrap(),
            full,
            "{workers} workers, cut at byte {cut}"
        );
    }
    let mut damaged = full.clone();
    damaged[full.len() / 2] ^= 0x40;
    std::fs::write(&path, &damaged).unwrap();
    let refused = solve(3, &save.clone().resumed()).unwrap_err();
    assert!(refused.to_string().contains("damaged"), "{refused}");
    std::fs::remove_dir_all(&dir).unwrap();
}
