//! How the retrograde solver numbers the states it discovers: by hashing, or by a dense index.

use super::*;

/// How the retrograde solver numbers the states it discovers: [`HashIds`] for any game whose
/// states are `Eq + Hash`, [`DenseIds`] for a game with a [`DenseIndex`] (an array of numbers
/// instead of a hash map: no hashing per move, 4 bytes per index).
pub trait StateIds<G: Game + ?Sized> {
    /// The number of `state`, if it has one.
    fn id(&self, game: &G, state: &G::State) -> Option<u32>;
    /// The number of `state`, and `false`; or, if it had none, `fresh` (now its number) and
    /// `true`.
    fn id_or(&mut self, game: &G, state: &G::State, fresh: u32) -> (u32, bool);
    /// The heap bytes held.
    fn bytes(&self) -> u64;
    /// Each index's state number in the order of the game's dense index (`None` where no state
    /// was numbered), where states are numbered by that index ([`DenseIds`]); `None` (the
    /// default) where they are not.
    fn by_index(&self) -> Option<Box<dyn ExactSizeIterator<Item = Option<u32>> + '_>> {
        None
    }
}

/// States numbered in a hash map (the crate's fast hasher).
#[derive(Debug, Clone)]
pub struct HashIds<S> {
    map: HashMap<S, u32, FastHashBuilder>,
}

impl<S> HashIds<S> {
    /// An empty numbering.
    pub fn new() -> Self {
        HashIds {
            map: HashMap::with_hasher(FastHashBuilder::default()),
        }
    }
}

impl<S> Default for HashIds<S> {
    fn default() -> Self {
        HashIds::new()
    }
}

impl<G, S> StateIds<G> for HashIds<S>
where
    G: Game<State = S> + ?Sized,
    S: Eq + Hash + Clone,
{
    #[inline]
    fn id(&self, _: &G, state: &S) -> Option<u32> {
        self.map.get(state).copied()
    }

    #[inline]
    fn id_or(&mut self, _: &G, state: &S, fresh: u32) -> (u32, bool) {
        match self.map.entry_ref(state) {
            hashbrown::hash_map::EntryRef::Occupied(entry) => (*entry.get(), false),
            hashbrown::hash_map::EntryRef::Vacant(entry) => {
                entry.insert(fresh);
                (fresh, true)
            }
        }
    }

    fn bytes(&self) -> u64 {
        self.map.capacity() as u64 * (size_of::<S>() as u64 + 4 + 1)
    }
}

/// States numbered in an array over the game's [`DenseIndex`].
#[derive(Debug, Clone)]
pub struct DenseIds {
    ids: Vec<u32>,
}

/// No number yet.
pub(super) const UNNUMBERED: u32 = u32::MAX;

impl DenseIds {
    /// An array for every index of `game` (4 bytes each).
    pub fn for_game<G: DenseIndex + ?Sized>(game: &G) -> Self {
        DenseIds {
            ids: vec![UNNUMBERED; game.index_len()],
        }
    }

    /// [`DenseIds::for_game`], refused if it would pass `budget` bytes.
    pub fn try_for_game<G: DenseIndex + ?Sized>(game: &G, budget: u64) -> Result<Self, SolveError> {
        let len = game.index_len();
        let bytes = (len as u64).saturating_mul(4);
        if bytes > budget {
            return Err(SolveError::MemoryBudget {
                what: format!("the retrograde solver's numbering of {len} indices"),
                needed: bytes,
                budget,
            });
        }
        Ok(DenseIds {
            ids: fallible(len, UNNUMBERED)?,
        })
    }
}

impl<G: DenseIndex + ?Sized> StateIds<G> for DenseIds {
    #[inline]
    fn id(&self, game: &G, state: &G::State) -> Option<u32> {
        let id = self.ids[game.index(state)];
        (id != UNNUMBERED).then_some(id)
    }

    #[inline]
    fn id_or(&mut self, game: &G, state: &G::State, fresh: u32) -> (u32, bool) {
        let slot = &mut self.ids[game.index(state)];
        if *slot == UNNUMBERED {
            *slot = fresh;
            (fresh, true)
        } else {
            (*slot, false)
        }
    }

    fn bytes(&self) -> u64 {
        self.ids.capacity() as u64 * 4
    }

    fn by_index(&self) -> Option<Box<dyn ExactSizeIterator<Item = Option<u32>> + '_>> {
        Some(Box::new(
            self.ids.iter().map(|&id| (id != UNNUMBERED).then_some(id)),
        ))
    }
}

/// A vector of `len` copies of `value`, allocated fallibly (its bytes were counted in the
/// budget as the states were discovered).
pub(super) fn fallible<T: Clone>(len: usize, value: T) -> Result<Vec<T>, SolveError> {
    let mut vector = Vec::new();
    vector
        .try_reserve_exact(len)
        .map_err(|_| SolveError::Allocation {
            what: "the retrograde solver's reverse moves".into(),
            bytes: (len * size_of::<T>()) as u64,
        })?;
    vector.resize(len, value);
    Ok(vector)
}
