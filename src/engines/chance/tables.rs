//! The tables of exact values the expectimax engine keeps: by hash or by the game's dense
//! index, for one thread or shared by several. Each knows its size and the bytes it holds.

use std::cell::{Cell, OnceCell, RefCell};
use std::hash::Hash;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

use dashmap::DashMap;

use super::scaled::Scaled;
#[cfg(feature = "cli")]
use super::solution::Held;
use crate::game::{DenseIndex, Game};
use crate::memo::FastHashBuilder;

/// A state's exact value, with its nearest `f64` (compared first: the fractions only when the
/// two are too close to tell apart).
#[derive(Clone, Debug)]
pub(crate) struct Exact {
    pub(crate) approx: f64,
    pub(crate) value: Scaled,
}

impl Exact {
    /// `value`, with its nearest `f64`.
    pub(crate) fn new(value: Scaled) -> Exact {
        Exact {
            approx: value.approx(),
            value,
        }
    }

    /// The heap bytes it holds.
    fn heap_bytes(&self) -> u64 {
        self.value.heap_bytes()
    }
}

/// A table of exact values, read and written through `&self` (so that the search and the
/// queries share one code whether the table is one thread's or every worker's).
pub(crate) trait ExactTable<G: Game> {
    /// `read(value)` of `state`'s value, if stored.
    fn read<R>(&self, game: &G, state: &G::State, read: impl FnOnce(&Exact) -> R) -> Option<R>;
    /// Stores `state`'s value (a value already stored stays: values are exact, so equal).
    fn insert(&self, game: &G, state: &G::State, value: Exact);
    /// How many values it holds.
    fn len(&self) -> usize;
    /// The bytes it holds, about.
    fn bytes(&self) -> u64;
    /// Its name, for plans and messages.
    fn kind(&self) -> &'static str;
    /// Calls `each` with every value it holds, with its state or index.
    #[cfg(feature = "cli")]
    fn each(&self, each: &mut dyn FnMut(Held<'_, G::State>, &Exact));
}

/// A hash map, for one thread.
pub(crate) struct Hashed<S> {
    map: RefCell<hashbrown::HashMap<S, Exact>>,
    heap: Cell<u64>,
}

impl<S> Hashed<S> {
    pub(crate) fn new() -> Self {
        Hashed {
            map: RefCell::new(hashbrown::HashMap::new()),
            heap: Cell::new(0),
        }
    }
}

impl<G: Game> ExactTable<G> for Hashed<G::State>
where
    G::State: Eq + Hash,
{
    fn read<R>(&self, _: &G, state: &G::State, read: impl FnOnce(&Exact) -> R) -> Option<R> {
        self.map.borrow().get(state).map(read)
    }
    fn insert(&self, _: &G, state: &G::State, value: Exact) {
        self.heap.set(self.heap.get() + value.heap_bytes());
        self.map.borrow_mut().entry(state.clone()).or_insert(value);
    }
    fn len(&self) -> usize {
        self.map.borrow().len()
    }
    fn bytes(&self) -> u64 {
        let map = self.map.borrow();
        (map.capacity() * (size_of::<(G::State, Exact)>() + 1)) as u64 + self.heap.get()
    }
    fn kind(&self) -> &'static str {
        "hash"
    }
    #[cfg(feature = "cli")]
    fn each(&self, each: &mut dyn FnMut(Held<'_, G::State>, &Exact)) {
        for (state, value) in self.map.borrow().iter() {
            each(Held::State(state), value);
        }
    }
}

/// A flat array by the game's dense index, for one thread.
pub(crate) struct Dense {
    slots: Vec<OnceCell<Exact>>,
    heap: Cell<u64>,
    len: Cell<usize>,
}

impl Dense {
    pub(crate) fn for_game<G: DenseIndex>(game: &G) -> Self {
        Dense {
            slots: (0..game.index_len()).map(|_| OnceCell::new()).collect(),
            heap: Cell::new(0),
            len: Cell::new(0),
        }
    }

    /// The bytes of the array for `game`, before it is allocated.
    pub(crate) fn bytes_for<G: DenseIndex>(game: &G) -> u64 {
        (game.index_len() as u64).saturating_mul(size_of::<OnceCell<Exact>>() as u64)
    }
}

impl<G: DenseIndex> ExactTable<G> for Dense {
    fn read<R>(&self, game: &G, state: &G::State, read: impl FnOnce(&Exact) -> R) -> Option<R> {
        self.slots[game.index(state)].get().map(read)
    }
    fn insert(&self, game: &G, state: &G::State, value: Exact) {
        let bytes = value.heap_bytes();
        if self.slots[game.index(state)].set(value).is_ok() {
            self.heap.set(self.heap.get() + bytes);
            self.len.set(self.len.get() + 1);
        }
    }
    fn len(&self) -> usize {
        self.len.get()
    }
    fn bytes(&self) -> u64 {
        (self.slots.len() * size_of::<OnceCell<Exact>>()) as u64 + self.heap.get()
    }
    fn kind(&self) -> &'static str {
        "dense"
    }
    #[cfg(feature = "cli")]
    fn each(&self, each: &mut dyn FnMut(Held<'_, G::State>, &Exact)) {
        for (index, slot) in self.slots.iter().enumerate() {
            if let Some(value) = slot.get() {
                each(Held::Index(index), value);
            }
        }
    }
}

/// A sharded hash map (DashMap), shared by every worker. No guard is held past a read.
pub(crate) struct Shared<S: Eq + Hash> {
    map: DashMap<S, Exact, FastHashBuilder>,
    heap: AtomicU64,
}

impl<S: Eq + Hash + Clone> Shared<S> {
    pub(crate) fn new() -> Self {
        Shared {
            map: DashMap::with_hasher_and_shard_amount(FastHashBuilder::default(), 64),
            heap: AtomicU64::new(0),
        }
    }
}

impl<G: Game> ExactTable<G> for Shared<G::State>
where
    G::State: Eq + Hash,
{
    fn read<R>(&self, _: &G, state: &G::State, read: impl FnOnce(&Exact) -> R) -> Option<R> {
        self.map.get(state).map(|entry| read(entry.value()))
    }
    fn insert(&self, _: &G, state: &G::State, value: Exact) {
        let bytes = value.heap_bytes();
        if self.map.insert(state.clone(), value).is_none() {
            self.heap.fetch_add(bytes, Relaxed);
        }
    }
    fn len(&self) -> usize {
        self.map.len()
    }
    fn bytes(&self) -> u64 {
        (self.map.capacity() * (size_of::<(G::State, Exact)>() + 8)) as u64
            + self.heap.load(Relaxed)
    }
    fn kind(&self) -> &'static str {
        "sharded"
    }
    #[cfg(feature = "cli")]
    fn each(&self, each: &mut dyn FnMut(Held<'_, G::State>, &Exact)) {
        for entry in self.map.iter() {
            each(Held::State(entry.key()), entry.value());
        }
    }
}

/// A flat array by the game's dense index, shared by every worker (each slot written once).
pub(crate) struct SharedDense {
    slots: Vec<OnceLock<Exact>>,
    heap: AtomicU64,
    len: AtomicUsize,
}

impl SharedDense {
    pub(crate) fn for_game<G: DenseIndex>(game: &G) -> Self {
        SharedDense {
            slots: (0..game.index_len()).map(|_| OnceLock::new()).collect(),
            heap: AtomicU64::new(0),
            len: AtomicUsize::new(0),
        }
    }

    /// The bytes of the array for `game`, before it is allocated.
    pub(crate) fn bytes_for<G: DenseIndex>(game: &G) -> u64 {
        (game.index_len() as u64).saturating_mul(size_of::<OnceLock<Exact>>() as u64)
    }
}

impl<G: DenseIndex> ExactTable<G> for SharedDense {
    fn read<R>(&self, game: &G, state: &G::State, read: impl FnOnce(&Exact) -> R) -> Option<R> {
        self.slots[game.index(state)].get().map(read)
    }
    fn insert(&self, game: &G, state: &G::State, value: Exact) {
        let bytes = value.heap_bytes();
        if self.slots[game.index(state)].set(value).is_ok() {
            self.heap.fetch_add(bytes, Relaxed);
            self.len.fetch_add(1, Relaxed);
        }
    }
    fn len(&self) -> usize {
        self.len.load(Relaxed)
    }
    fn bytes(&self) -> u64 {
        (self.slots.len() * size_of::<OnceLock<Exact>>()) as u64 + self.heap.load(Relaxed)
    }
    fn kind(&self) -> &'static str {
        "atomic-dense"
    }
    #[cfg(feature = "cli")]
    fn each(&self, each: &mut dyn FnMut(Held<'_, G::State>, &Exact)) {
        for (index, slot) in self.slots.iter().enumerate() {
            if let Some(value) = slot.get() {
                each(Held::Index(index), value);
            }
        }
    }
}
