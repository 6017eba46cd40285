//! Tables of words that start all zero, taken from the allocator already zeroed.
//!
//! A fixed bound table's empty slot is the word 0. Filling a fresh table with zeros writes every
//! page of it before the first probe (64 MiB: about 30 ms, most of a short batch's run, and all
//! of it resident). Asking the allocator for zeroed memory instead lets the system hand out
//! pages that read as zero and are only backed when first written, so a search that touches a
//! few thousand slots pays for those pages only.

use std::alloc::{Layout, alloc_zeroed};
use std::sync::atomic::{AtomicI8, AtomicI16, AtomicI32, AtomicI64, AtomicU64};

use crate::error::Error;

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

/// `len` words, all zero, or `Error::Allocation` (naming `what`) if the allocation fails.
pub(crate) fn zeroed_words<T: ZeroWord>(len: usize, what: &str) -> Result<Vec<T>, Error> {
    let refuse = || Error::Allocation {
        what: format!("{what} of {len} slots"),
        bytes: (len as u64).saturating_mul(std::mem::size_of::<T>() as u64),
    };
    let layout = Layout::array::<T>(len).map_err(|_| refuse())?;
    if layout.size() == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: `layout` has a non-zero size (checked just above), as `alloc_zeroed` requires.
    let pointer = unsafe { alloc_zeroed(layout) }.cast::<T>();
    if pointer.is_null() {
        return Err(refuse());
    }
    advise_huge_pages(pointer.cast::<u8>(), layout.size());
    // SAFETY: `pointer` was allocated by the global allocator (the one `Vec` uses) with the
    // layout of an array of `len` values of `T`, which is the layout `Vec` frees a capacity of
    // `len` with; it is not null; its `len` elements are initialised, since every byte is zero
    // and zero bytes are a valid `T` (`ZeroWord`'s contract); length and capacity are both
    // `len`, so the length does not exceed the capacity. The `Vec` is the pointer's only owner.
    Ok(unsafe { Vec::from_raw_parts(pointer, len, len) })
}

/// Asks Linux to back the whole 2 MiB blocks of `bytes` bytes at `start` with huge pages: a
/// bound table is probed at random all over, so with 4 KiB pages nearly every probe of a large
/// table misses the TLB and the first touch of each page is a fault (16 384 of them for 64 MiB).
/// Advice only: if the system has transparent huge pages off, nothing changes.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut u8, bytes: usize) {
    /// `MADV_HUGEPAGE` in Linux's mman-common.h.
    const MADV_HUGEPAGE: i32 = 14;
    const HUGE: usize = 2 << 20;
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
        // Exercised by every table of 4 MiB or more, as in `zeroed_words`' test below.
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
    fn zeroed_words_read_zero_and_take_writes() {
        let mut words = zeroed_words::<u64>(1 << 20, "a test table").unwrap();
        assert_eq!(words.len(), 1 << 20);
        assert_eq!(words.capacity(), 1 << 20);
        assert!(words.iter().all(|&word| word == 0));
        words[12345] = 7;
        words.push(9); // grows: the allocation is Vec's own
        assert_eq!((words[12345], words[1 << 20]), (7, 9));
        let atomics = zeroed_words::<AtomicU64>(1000, "a test table").unwrap();
        assert!(atomics.iter().all(|word| word.load(Ordering::Relaxed) == 0));
        atomics[999].store(5, Ordering::Relaxed);
        assert_eq!(atomics[999].load(Ordering::Relaxed), 5);
        assert!(zeroed_words::<u64>(0, "an empty table").unwrap().is_empty());
        let bytes = zeroed_words::<std::sync::atomic::AtomicI8>(5 << 20, "a test table").unwrap();
        assert!(bytes.iter().all(|byte| byte.load(Ordering::Relaxed) == 0));
        bytes[(5 << 20) - 1].store(-3, Ordering::Relaxed);
        assert_eq!(bytes[(5 << 20) - 1].load(Ordering::Relaxed), -3);
        let halves = zeroed_words::<std::sync::atomic::AtomicI16>(3, "a test table").unwrap();
        let quads = zeroed_words::<std::sync::atomic::AtomicI32>(3, "a test table").unwrap();
        let longs = zeroed_words::<std::sync::atomic::AtomicI64>(3, "a test table").unwrap();
        assert_eq!(halves[2].load(Ordering::Relaxed), 0);
        assert_eq!(quads[2].load(Ordering::Relaxed), 0);
        assert_eq!(longs[2].load(Ordering::Relaxed), 0);
    }

    #[test]
    fn a_table_too_large_to_lay_out_is_refused_with_its_name() {
        let error = zeroed_words::<u64>(usize::MAX / 4, "a huge table").unwrap_err();
        assert!(error.to_string().contains("a huge table"), "{error}");
    }
}
