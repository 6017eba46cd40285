//! `ShardedTable` on its own: stores and lookups from many threads while its shards grow, the
//! states it holds (and drops), and its memory accounts against what it really allocates.
//!
//! A counting allocator wraps the system one and counts each thread's bytes apart: the test
//! harness's own threads allocate while a test runs (a finished test's result is printed), and
//! a count of every thread's bytes once took such an allocation for the table's (CI saw a peak
//! 127 bytes over the plan). The table under measurement is used by its test's thread alone.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::{Arc, Mutex};

use gamesolver::memo::{ConcurrentMemoTable, ShardedTable};
use gamesolver::{Game, Score, Step, Turn};

/// The system allocator, counting the bytes each thread allocates less those it frees.
struct Counting;

thread_local! {
    /// This thread's allocations less its frees, in bytes (a const initializer and no
    /// destructor, so the allocator may touch it at any point of the thread's life).
    static HELD: Cell<isize> = const { Cell::new(0) };
}

/// Adds `bytes` to this thread's count (nothing once the thread's locals are gone).
fn count(bytes: isize) {
    let _ = HELD.try_with(|held| held.set(held.get() + bytes));
}

/// This thread's count since `before` (a thread may free what another allocated, so a count
/// alone may be negative; a difference over the table's life is what the table holds).
fn held_since(before: isize) -> usize {
    (HELD.with(Cell::get) - before).max(0) as usize
}

// SAFETY: every call goes to the system allocator unchanged; the counter only observes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as isize - layout.size() as isize);
        // SAFETY: forwarded with the caller's pointer, layout and size.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Taken by every test here, so that they run one at a time.
static ALONE: Mutex<()> = Mutex::new(());

/// A game whose states are keys of type `K`; only the table's calls use it.
struct Keys<K>(std::marker::PhantomData<K>);

impl<K: Clone + Default + Eq + std::hash::Hash> Game for Keys<K> {
    type State = K;
    type Move = ();
    fn start(&self) -> K {
        K::default()
    }
    fn moves(&self, _: &K) -> impl Iterator<Item = ()> {
        std::iter::empty()
    }
    fn play(&self, state: &K, _: &()) -> Step<K> {
        Step {
            next: state.clone(),
            gain: 0,
            turn: Turn::Pass,
        }
    }
    fn payoff(&self, _: &K) -> Score {
        0
    }
}

/// A value for key `key` that no other key near it shares, of either sign.
fn value_of(key: u64) -> Score {
    (key.wrapping_mul(0x9e37_79b9) % 2_000_003) as Score - 1_000_001
}

#[test]
fn every_state_survives_concurrent_stores_and_growth_and_reads_never_see_a_wrong_value() {
    let _alone = ALONE.lock().unwrap_or_else(|poison| poison.into_inner());
    let game = Keys::<u64>(std::marker::PhantomData);
    for shards in [2, 64] {
        let table = ShardedTable::with_shards(shards);
        let keys = 120_000u64;
        std::thread::scope(|scope| {
            for thread in 0..4u64 {
                let (table, game) = (&table, &game);
                scope.spawn(move || {
                    // Each thread stores a quarter of the keys, and every thread every 8th
                    // key (two threads storing one new state at once); it reads back what it
                    // stored, and keys the others store, whose value must be right if found.
                    for key in 0..keys {
                        let mine = key % 4 == thread || key % 8 == 0;
                        if mine {
                            table.insert(game, key * 7919, value_of(key));
                            assert_eq!(table.get(game, &(key * 7919)), Some(value_of(key)));
                        }
                        let other = (key * 31 + thread) % keys;
                        if let Some(found) = table.get(game, &(other * 7919)) {
                            assert_eq!(found, value_of(other), "key {other}");
                        }
                    }
                });
            }
        });
        assert_eq!(ConcurrentMemoTable::<Keys<u64>>::len(&table), keys as usize);
        for key in 0..keys {
            assert_eq!(table.get(&game, &(key * 7919)), Some(value_of(key)));
        }
        assert_eq!(table.get(&game, &1), None);
    }
}

#[test]
fn a_table_drops_every_state_it_was_given_once() {
    let _alone = ALONE.lock().unwrap_or_else(|poison| poison.into_inner());
    let game = Keys::<Arc<u64>>(std::marker::PhantomData);
    let keys: Vec<Arc<u64>> = (0..20_000).map(Arc::new).collect();
    let table = ShardedTable::with_shards(4);
    for (rank, key) in keys.iter().enumerate() {
        table.insert(&game, key.clone(), rank as Score);
    }
    // Stored again: the value is replaced, the state given is dropped, not kept.
    table.insert(&game, keys[0].clone(), -7);
    assert_eq!(table.get(&game, &keys[0]), Some(-7));
    // The table holds each state, in its newest table and in those it grew from.
    assert!(keys.iter().all(|key| Arc::strong_count(key) >= 2));
    drop(table);
    assert!(keys.iter().all(|key| Arc::strong_count(key) == 1));
}

#[test]
fn the_memory_accounts_cover_what_the_table_allocates() {
    let _alone = ALONE.lock().unwrap_or_else(|poison| poison.into_inner());
    let game = Keys::<u64>(std::marker::PhantomData);
    for states in [0u64, 1, 1_000, 50_000, 300_000] {
        let before = HELD.with(Cell::get);
        let table = ShardedTable::new();
        let mut most = held_since(before);
        for key in 0..states {
            table.insert(&game, key, 1);
            most = most.max(held_since(before));
        }
        let used = held_since(before);
        let peak = ConcurrentMemoTable::<Keys<u64>>::peak_bytes(&table, 0);
        let planned = ConcurrentMemoTable::<Keys<u64>>::bytes_for(&table, states);
        // What it holds, what it held at its peak, and what it said it would need: the
        // accounts are never below the truth, and not far above it.
        assert!(peak as usize >= used, "{states}: holds {used}, says {peak}");
        assert!(
            planned as usize >= most,
            "{states}: peaked at {most}, planned {planned}"
        );
        assert!(
            planned as usize <= 4 * most.max(1 << 16),
            "{states}: peaked at {most}, planned {planned}"
        );
        drop(table);
    }
}
