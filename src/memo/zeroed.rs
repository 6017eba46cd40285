//! Tables of words that start all zero, taken from the allocator already zeroed.
//!
//! A fixed bound table's empty slot is the word 0. Filling a fresh table with zeros writes every
//! page of it before the first probe (most of a short batch's run, and all of it resident). Asking the allocator for zeroed memory instead lets the system hand out
//! pages that read as zero and are only backed when first written, so a search that touches a
//! few thousand slots pays for those pages only.
//!
//! A bound table (and the tier solver's dense values) is probed all over, so it is best backed
//! by huge pages (2 MiB) throughout:
//! [`Words`] starts a large table on a 2 MiB boundary. With 4 KiB pages at its ends instead
//! (an allocation starts anywhere), each of those pages faults twice: a read maps the shared
//! zero page, and the first write replaces it, which on a process with several threads
//! interrupts every other core to flush its TLB. An 8 MiB table's unaligned megabytes cost a
//! batch solved on two threads a fifth of its time (docs/performance.md).

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicI8, AtomicI16, AtomicI32, AtomicI64, AtomicU64};

use crate::error::SolveError;

/// A word type whose all-zero bit pattern is a valid value.
///
/// # Safety
///
/// Implement only for types for which every byte being zero is a valid, initialised value.
pub(crate) unsafe trait ZeroWord {}

// SAFETY: 0 is a `u64`.
unsafe impl ZeroWord for u64 {}
// SAFETY: `AtomicU64` has the same size and bit validity as `u64` (its documentation says so),
// so zero bytes are the atomic holding 0.
unsafe impl ZeroWord for AtomicU64 {}
// SAFETY: each atomic integer has the same size and bit validity as its integer (their
// documentation says so), so zero bytes are the atomic holding 0. The tier solver's dense
// layout keeps its values in these.
unsafe impl ZeroWord for AtomicI8 {}
// SAFETY: as for `AtomicI8`.
unsafe impl ZeroWord for AtomicI16 {}
// SAFETY: as for `AtomicI8`.
unsafe impl ZeroWord for AtomicI32 {}
// SAFETY: as for `AtomicI8`.
unsafe impl ZeroWord for AtomicI64 {}

/// A huge page: where a large table of [`Words`] starts.
const HUGE: usize = 2 << 20;

/// A fixed number of words, all zero at first, in an allocation of their own that starts on a
/// 2 MiB boundary when they take 2 MiB or more (so that huge pages back all of them: the module
/// docs say why). Used as a slice.
pub(crate) struct Words<T: ZeroWord> {
    /// The first word (dangling when there are none).
    start: NonNull<T>,
    len: usize,
    /// The allocation the words lie in, as allocated (none for no words).
    allocation: Option<(NonNull<u8>, Layout)>,
}

impl<T: ZeroWord> Words<T> {
    /// `len` words, all zero, or `SolveError::Allocation` (naming `what`) if the allocation fails.
    pub(crate) fn zeroed(len: usize, what: &str) -> Result<Self, SolveError> {
        let refuse = || SolveError::Allocation {
            what: format!("{what} of {len} slots"),
            bytes: (len as u64).saturating_mul(std::mem::size_of::<T>() as u64),
        };
        let words = Layout::array::<T>(len).map_err(|_| refuse())?;
        if words.size() == 0 {
            return Ok(Words {
                len,
                ..Words::default()
            });
        }
        // Room to start on a huge page's boundary: never touched, so never backed.
        let slack = if words.size() >= HUGE { HUGE } else { 0 };
        let size = words.size().checked_add(slack).ok_or_else(refuse)?;
        let layout = Layout::from_size_align(size, words.align()).map_err(|_| refuse())?;
        // SAFETY: `layout` has a non-zero size (`words.size()` is not zero), as `alloc_zeroed`
        // requires.
        let base = NonNull::new(unsafe { alloc_zeroed(layout) }).ok_or_else(refuse)?;
        let skip = if slack == 0 {
            0
        } else {
            base.as_ptr().align_offset(HUGE)
        };
        debug_assert!(skip <= slack && skip.is_multiple_of(words.align()));
        // SAFETY: `skip ≤ slack` (`align_offset` of a power-of-two alignment within its own
        // size is below it; 0 without slack), so `base + skip` is inside the allocation, and
        // `skip + words.size() ≤ size`: the words fit after it.
        let start = unsafe { base.add(skip) }.cast::<T>();
        advise_huge_pages(start.as_ptr().cast::<u8>(), words.size());
        Ok(Words {
            start,
            len,
            allocation: Some((base, layout)),
        })
    }
}

/// No words.
impl<T: ZeroWord> Default for Words<T> {
    fn default() -> Self {
        Words {
            start: NonNull::dangling(),
            len: 0,
            allocation: None,
        }
    }
}

impl<T: ZeroWord> Deref for Words<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: `start` points to `len` values of `T` inside an allocation this value owns
        // (or dangles, suitably aligned, when `len` is 0; with a zero-sized `T` it is not read),
        // aligned for `T` (the allocation's alignment is `T`'s and the offset a multiple of
        // it) and initialised (zero bytes are a valid `T`: `ZeroWord`'s contract; writes since
        // went through this slice). The slice borrows `self`, so it cannot outlive the
        // allocation, and `&self` rules out a `&mut` slice at the same time.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }
}

impl<T: ZeroWord> DerefMut for Words<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`; `&mut self` makes this the only reference to the words.
        unsafe { std::slice::from_raw_parts_mut(self.start.as_ptr(), self.len) }
    }
}

impl<T: ZeroWord> Drop for Words<T> {
    fn drop(&mut self) {
        // SAFETY: the words are initialised and owned by this value alone; dropped once, here.
        unsafe { std::ptr::drop_in_place(&mut **self as *mut [T]) };
        if let Some((base, layout)) = self.allocation {
            // SAFETY: `base` was allocated by the global allocator with `layout`, is freed only
            // here (`drop` runs once), and nothing refers to it after.
            unsafe { dealloc(base.as_ptr(), layout) };
        }
    }
}

// SAFETY: `Words<T>` owns its values as a `Vec<T>` or `Box<[T]>` does (no sharing of the
// allocation, no interior state of its own), so it may move to another thread when `T` may.
unsafe impl<T: ZeroWord + Send> Send for Words<T> {}
// SAFETY: a `&Words<T>` gives only `&[T]`, so sharing it is sharing `&[T]`: sound when `T` is
// `Sync`.
unsafe impl<T: ZeroWord + Sync> Sync for Words<T> {}

impl<T: ZeroWord + Copy> Clone for Words<T> {
    fn clone(&self) -> Self {
        // As a `Vec`'s clone does, a failed allocation ends the process.
        let Ok(mut copy) = Words::zeroed(self.len, "a copy of a table") else {
            std::alloc::handle_alloc_error(Layout::new::<T>())
        };
        copy.copy_from_slice(self);
        copy
    }
}

impl<T: ZeroWord> std::fmt::Debug for Words<T> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "{} words", self.len)
    }
}

/// Asks Linux to back the whole 2 MiB blocks of `bytes` bytes at `start` with huge pages: a
/// bound table is probed at random all over, so with 4 KiB pages nearly every probe of a large
/// table misses the TLB and the first touch of each page is a fault (16 384 of them for 64 MiB).
/// Advice only: if the system has transparent huge pages off, nothing changes.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut u8, bytes: usize) {
    /// `MADV_HUGEPAGE` in Linux's mman-common.h.
    const MADV_HUGEPAGE: i32 = 14;
    unsafe extern "C" {
        fn madvise(addr: *mut u8, length: usize, advice: i32) -> i32;
    }
    let address = start as usize;
    let (Some(first), Some(end)) = (
        address.checked_next_multiple_of(HUGE),
        address.checked_add(bytes),
    ) else {
        return;
    };
    let last = end - end % HUGE;
    if last > first {
        // SAFETY: `madvise` is the C library's system call wrapper, declared with its C
        // signature (`int madvise(void *, size_t, int)`). The range `first..last` is
        // page-aligned (2 MiB-aligned) and lies inside the allocation of `bytes` bytes at
        // `start`, which this function's caller owns and nothing else refers to yet.
        // `MADV_HUGEPAGE` changes only how the kernel backs those pages, never their contents
        // (zero, as allocated) nor their validity; a refusal (an error return, say with
        // huge pages off) leaves the memory as it was, so the result is not needed.
        // Exercised by every table of 2 MiB or more, as in the tests below.
        unsafe {
            madvise(
                start.wrapping_add(first - address),
                last - first,
                MADV_HUGEPAGE,
            );
        }
    }
}

/// Elsewhere the pages are left as the allocator gives them.
#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *mut u8, _bytes: usize) {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn words_of_every_kind_read_zero_and_take_writes() {
        let mut words = Words::<u64>::zeroed(1 << 20, "a test table").unwrap();
        assert_eq!(words.len(), 1 << 20);
        assert!(words.iter().all(|&word| word == 0));
        words[12345] = 7;
        assert_eq!(words[12345], 7);
        let atomics = Words::<AtomicU64>::zeroed(1000, "a test table").unwrap();
        assert!(atomics.iter().all(|word| word.load(Ordering::Relaxed) == 0));
        atomics[999].store(5, Ordering::Relaxed);
        assert_eq!(atomics[999].load(Ordering::Relaxed), 5);
        assert!(
            Words::<u64>::zeroed(0, "an empty table")
                .unwrap()
                .is_empty()
        );
        assert!(Words::<u64>::default().is_empty());
        let bytes = Words::<std::sync::atomic::AtomicI8>::zeroed(5 << 20, "a test table").unwrap();
        assert!(bytes.iter().all(|byte| byte.load(Ordering::Relaxed) == 0));
        bytes[(5 << 20) - 1].store(-3, Ordering::Relaxed);
        assert_eq!(bytes[(5 << 20) - 1].load(Ordering::Relaxed), -3);
        let halves = Words::<std::sync::atomic::AtomicI16>::zeroed(3, "a test table").unwrap();
        let quads = Words::<std::sync::atomic::AtomicI32>::zeroed(3, "a test table").unwrap();
        let longs = Words::<std::sync::atomic::AtomicI64>::zeroed(3, "a test table").unwrap();
        assert_eq!(halves[2].load(Ordering::Relaxed), 0);
        assert_eq!(quads[2].load(Ordering::Relaxed), 0);
        assert_eq!(longs[2].load(Ordering::Relaxed), 0);
    }

    #[test]
    fn a_table_too_large_to_lay_out_is_refused_with_its_name() {
        let error = Words::<u64>::zeroed(usize::MAX / 4, "a huge table").unwrap_err();
        assert!(error.to_string().contains("a huge table"), "{error}");
    }

    #[test]
    fn words_start_on_a_huge_page_read_zero_take_writes_and_clone() {
        for len in [0usize, 1, 1000, (2 << 20) / 8, (5 << 20) / 8 + 3] {
            let mut words = Words::<u64>::zeroed(len, "a test table").unwrap();
            assert_eq!(words.len(), len);
            assert!(words.iter().all(|&word| word == 0));
            if len * 8 >= HUGE {
                assert!(words.as_ptr().cast::<u8>().align_offset(HUGE) == 0, "{len}");
            }
            if len > 0 {
                words[0] = 3;
                words[len - 1] = 9;
                let copy = words.clone();
                assert_eq!((copy[0], copy[len - 1]), (if len > 1 { 3 } else { 9 }, 9));
                assert_eq!(copy.len(), len);
            }
            assert_eq!(format!("{words:?}"), format!("{len} words"));
        }
        // Shared between threads as a slice of atomics: every thread's writes are seen.
        let atomics = Words::<AtomicU64>::zeroed(4 << 20, "a test table").unwrap();
        std::thread::scope(|scope| {
            for thread in 0..4u64 {
                let atomics = &atomics;
                scope.spawn(move || {
                    for index in (thread as usize..atomics.len()).step_by(4 * 4099) {
                        atomics[index].store(thread + 1, Ordering::Relaxed);
                    }
                });
            }
        });
        let written = atomics
            .iter()
            .filter(|word| word.load(Ordering::Relaxed) != 0);
        let expected: usize = (0..4)
            .map(|thread| (atomics.len() - thread).div_ceil(4 * 4099))
            .sum();
        assert_eq!(written.count(), expected);
        // Moved to another thread and dropped there.
        std::thread::spawn(move || drop(atomics)).join().unwrap();
    }
}
