//! The loopy tier solver behind [`Solver`]: its tier files (written tier by tier, or read
//! without solving), and the visits that pick its classes of states from the declaration.

use std::hash::Hash;
use std::marker::PhantomData;

use super::Solver;
#[cfg(feature = "database")]
use super::plan::Facts;
use super::solved::Boxed;
#[cfg(feature = "database")]
use super::{Answer, Engine};
use crate::engines::tiers::{KeepTiers, loopy};
use crate::error::SolveError;
use crate::game::declaration::{OnSymmetry, OnTiers, SymmetrySlot};
use crate::game::{Declares, Game, Symmetry, Tiered};

impl<'g, G> Solver<'g, G>
where
    G: Game + Sync + 'g,
    G::State: Eq + Hash + Send + Sync + 'g,
    G::Move: Send + 'g,
{
    /// [`solve`](Solver::solve), writing each tier to `save`'s tier file as it completes, or
    /// going on from the complete tiers the file holds (`save.resume`): for a game a tier
    /// solver solves ([`Engine::Tiers`], [`Engine::LoopyTiers`]); another plan is refused. The
    /// solve keeps only the tiers it still needs: its answer's questions beyond the start's
    /// value are for [`load_tiers`](Solver::load_tiers), which reads them from the file.
    ///
    /// ```
    /// use gamesolver::{Game, Solved, Solver, engines::tiers::loopy::Save, games::Quixo};
    ///
    /// let game = Quixo::new(3).unwrap();
    /// let path = std::env::temp_dir().join(format!("solver-save-{}.tiers", std::process::id()));
    /// let save = Save::new(&path, "quixo 3");
    /// let solved = Solver::new(&game).solve_saving(&save)?;
    /// assert_eq!((solved.value(), solved.outcome()), (1, Some(gamesolver::engines::retrograde::Outcome::Win)));
    /// let mut loaded = Solver::new(&game).load_tiers(&path, "quixo 3")?;
    /// assert_eq!(loaded.remoteness(&game.start())?, Some(7));
    /// std::fs::remove_file(&path).unwrap();
    /// # Ok::<(), gamesolver::Error>(())
    /// ```
    #[cfg(feature = "database")]
    pub fn solve_saving(
        self,
        save: &crate::engines::tiers::loopy::Save,
    ) -> Result<Answer<'g, G>, SolveError> {
        self.with_tier_file(TierFileJob::Save(save))
    }

    /// Answers from the tier file at `path` of a solve of this game (`words`: the game in words,
    /// as the solve named it), reading only the blocks each question needs: for a game a tier
    /// solver solves; a file of another game, or a damaged one, is refused.
    ///
    /// ```
    /// use gamesolver::{Engine, Game, Solved, Solver, engines::tiers::file::Save};
    /// use gamesolver::games::DotsAndBoxes;
    ///
    /// let game = DotsAndBoxes::new(2, 2)?;
    /// let path = std::env::temp_dir().join(format!("solver-dots-{}.tiers", std::process::id()));
    /// let tiers = || Solver::new(&game).engine(Engine::Tiers);
    /// tiers().solve_saving(&Save::new(&path, "dots-and-boxes 2 2"))?;
    /// let mut loaded = tiers().load_tiers(&path, "dots-and-boxes 2 2")?;
    /// assert_eq!((loaded.value(), loaded.plan().engine), (2, Engine::Tiers));
    /// assert_eq!(loaded.line()?.len(), 12);
    /// std::fs::remove_file(&path).unwrap();
    /// # Ok::<(), gamesolver::Error>(())
    /// ```
    #[cfg(feature = "database")]
    pub fn load_tiers(
        self,
        path: &std::path::Path,
        words: &str,
    ) -> Result<Answer<'g, G>, SolveError> {
        self.with_tier_file(TierFileJob::Load(path, words))
    }

    #[cfg(feature = "database")]
    fn with_tier_file(self, job: TierFileJob<'_>) -> Result<Answer<'g, G>, SolveError> {
        let declared = self.game.capabilities();
        let facts = Facts::of(self.game, &declared);
        let plan = self.plan_for(facts)?;
        if !matches!(plan.engine, Engine::Tiers | Engine::LoopyTiers) {
            return Err(SolveError::Unsupported(format!(
                "tier files are written and read by the tier solvers, and this game's plan runs \
                 {:?}",
                plan.engine
            )));
        }
        self.run_plan_with(&declared, facts, plan, job, None)
    }
}

/// What the loopy tier solver does with a tier file: nothing, write each tier to one (or go on
/// from it), or answer from one without solving.
#[derive(Clone, Copy)]
pub(super) enum TierFileJob<'a> {
    /// Solve in memory.
    None,
    /// Solve, writing each tier as it completes.
    #[cfg(feature = "database")]
    Save(&'a loopy::Save),
    /// Answer from the file (the path, and the game in words).
    #[cfg(feature = "database")]
    Load(&'a std::path::Path, &'a str),
    #[cfg(not(feature = "database"))]
    #[allow(dead_code)]
    Never(PhantomData<&'a ()>),
}

/// The loopy tier solver, valuing one state of each class where the game declares a symmetry.
pub(super) struct Loopy<'a, 'g, G, D>(pub(super) LoopyRun<'a, 'g, G>, pub(super) PhantomData<D>);

/// [`Loopy`] once the tiers are known: which states it values.
struct LoopyClasses<'a, 'g, G>(LoopyRun<'a, 'g, G>);

/// A loopy tier solve under way: the options, the pool for more than one thread, and what to do
/// with a tier file.
pub(super) struct LoopyRun<'a, 'g, G> {
    pub(super) solver: Solver<'g, G>,
    pub(super) pool: Option<&'a rayon::ThreadPool>,
    pub(super) tier_file: TierFileJob<'a>,
}

impl<G> LoopyRun<'_, '_, G> {
    /// Runs `job` on the pool, or on a pool of one thread (the solver's levels and the tier
    /// file's blocks are rayon work: without a pool of its own they would take every core).
    fn on_pool<T: Send>(
        &self,
        job: impl FnOnce() -> Result<T, SolveError> + Send,
    ) -> Result<T, SolveError> {
        match self.pool {
            Some(pool) => pool.install(job),
            None => loopy::one_thread()?.install(job),
        }
    }
}

impl<'g, G, D> OnTiers<G> for Loopy<'_, 'g, G, D>
where
    G: Game + Sync + 'g,
    G::State: Eq + Hash + Send + 'g,
    G::Move: 'g,
    D: Declares<G>,
{
    type Output = Boxed<'g, G>;

    fn declared(self) -> Self::Output
    where
        G: Tiered,
    {
        <D::Symmetry as SymmetrySlot<G>>::visit(LoopyClasses(self.0))
    }

    fn undeclared(self) -> Self::Output {
        unreachable!("the plan runs the loopy tier solver only on a game that declares tiers")
    }
}

impl<'g, G> LoopyClasses<'_, 'g, G>
where
    G: Tiered + Sync + 'g,
    G::State: Eq + Hash + Send + 'g,
    G::Move: 'g,
{
    fn solve<C: loopy::Classes<G> + 'g>(self, classes: C) -> Boxed<'g, G> {
        let Solver { game, limits, .. } = self.0.solver;
        // Every tier where they fit the budget (the line of play and any position's outcome),
        // unless a tier file keeps them.
        let from = game.tier(&game.start());
        let all_fit = loopy::peak_bytes(game, from, KeepTiers::All) <= limits.memory_budget;
        let keep = match self.0.tier_file {
            TierFileJob::None if self.0.solver.every_tier || all_fit => KeepTiers::All,
            _ => KeepTiers::Needed,
        };
        let options = loopy::Options::new().limits(limits).keep(keep);
        Ok(match self.0.tier_file {
            TierFileJob::None => Box::new(
                self.0
                    .on_pool(|| loopy::par_solve(game, classes, options))?,
            ),
            #[cfg(feature = "database")]
            TierFileJob::Save(save) => Box::new(
                self.0
                    .on_pool(|| loopy::par_solve_saved(game, classes, options, save))?,
            ),
            #[cfg(feature = "database")]
            TierFileJob::Load(path, words) => {
                Box::new(loopy::LoopyDatabase::open(game, classes, path, words)?)
            }
            #[cfg(not(feature = "database"))]
            TierFileJob::Never(_) => unreachable!("no tier file without the database feature"),
        })
    }
}

impl<'g, G> OnSymmetry<G> for LoopyClasses<'_, 'g, G>
where
    G: Tiered + Sync + 'g,
    G::State: Eq + Hash + Send + 'g,
    G::Move: 'g,
{
    type Output = Boxed<'g, G>;

    fn declared(self) -> Self::Output
    where
        G: Symmetry,
    {
        self.solve(loopy::BySymmetry)
    }

    fn undeclared(self) -> Self::Output {
        self.solve(loopy::EveryState)
    }
}
