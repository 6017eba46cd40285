//! The loopy tier solver against one table's retrograde analysis, and resumed solves.

use super::*;
use crate::engines::retrograde::{self, HashIds};
use crate::games::Quixo;

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
    let save = Save {
        path: path.clone(),
        game: "quixo 3".into(),
        resume: false,
    };
    par_solve_saved(&game, BySymmetry, options, &save).unwrap();
    let full = std::fs::read(&path).unwrap();
    assert!(matches!(
        par_solve_saved(&game, BySymmetry, options, &save),
        Err(SolveError::TierFile { .. })
    ));
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..12 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let cut = 60 + (seed % (full.len() as u64 - 60)) as usize;
        std::fs::write(&path, &full[..cut]).unwrap();
        let held = TierFile::open(&path).unwrap().tiers_held();
        let resume = Save {
            resume: true,
            ..save.clone()
        };
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
    let resume = Save {
        resume: true,
        ..save.clone()
    };
    let refused = par_solve_saved(&game, BySymmetry, options, &resume).unwrap_err();
    assert!(refused.to_string().contains("damaged"), "{refused}");
    // Another game's file.
    std::fs::write(&path, &full).unwrap();
    let other = Save {
        game: "quixo 4".into(),
        resume: true,
        path: path.clone(),
    };
    let refused = par_solve_saved(&game, BySymmetry, options, &other).unwrap_err();
    assert!(refused.to_string().contains("not of quixo 4"), "{refused}");
    std::fs::remove_dir_all(&dir).unwrap();
}
