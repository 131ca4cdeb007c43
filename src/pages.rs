//! Big read-only arrays of plain data kept in memory the OS is asked to back with huge pages.
//!
//! A ray through a million-triangle mesh visits a dozen nodes scattered over tens of megabytes: with 4 KiB
//! pages nearly every visit also misses the TLB. On Linux an array of at least [`HUGE_MIN_BYTES`] is copied
//! into an anonymous mapping advised `MADV_HUGEPAGE` before it is first touched (what Embree does for its
//! BVHs), so transparent huge pages back it whenever the system allows them (`enabled` = `always` or
//! `madvise`). Elsewhere, or when the mapping fails, the array stays an ordinary `Vec`.

use bytemuck::Pod;

/// Arrays smaller than this stay on the heap (one huge page).
pub(crate) const HUGE_MIN_BYTES: usize = 2 << 20;

/// A read-only array, possibly in huge-page memory. Dereferences to `[T]`.
pub(crate) struct Pages<T: Pod> {
    store: Store<T>,
}

enum Store<T> {
    Heap(Vec<T>),
    #[cfg(target_os = "linux")]
    Mapped(memmap2::MmapMut),
}

impl<T: Pod> Pages<T> {
    /// Take `items`, moving them into huge-page memory when they are big enough.
    pub(crate) fn new(items: Vec<T>) -> Self {
        #[cfg(target_os = "linux")]
        {
            let bytes: &[u8] = bytemuck::cast_slice(&items);
            if bytes.len() >= HUGE_MIN_BYTES
                && let Ok(mut map) = memmap2::MmapOptions::new().len(bytes.len()).map_anon()
            {
                // Advise before the first write, so the page faults allocate huge pages directly. Failure
                // (an old kernel, THP disabled) only means small pages.
                let _ = map.advise(memmap2::Advice::HugePage);
                map.copy_from_slice(bytes);
                // A mapping is page-aligned, so this cannot fail; keep the heap copy if it somehow does.
                if bytemuck::try_cast_slice::<u8, T>(&map).is_ok() {
                    return Self {
                        store: Store::Mapped(map),
                    };
                }
            }
        }
        Self {
            store: Store::Heap(items),
        }
    }

    /// Whether the array lives in a mapping advised for huge pages.
    #[cfg(test)]
    pub(crate) fn is_mapped(&self) -> bool {
        !matches!(self.store, Store::Heap(_))
    }
}

impl<T: Pod> std::ops::Deref for Pages<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        match &self.store {
            Store::Heap(v) => v,
            // Checked at construction: the mapping holds whole, aligned `T`s.
            #[cfg(target_os = "linux")]
            Store::Mapped(map) => bytemuck::try_cast_slice(map).unwrap_or_default(),
        }
    }
}

impl<T: Pod> Clone for Pages<T> {
    fn clone(&self) -> Self {
        Self::new(self.to_vec())
    }
}

impl<T: Pod + std::fmt::Debug> std::fmt::Debug for Pages<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Ask the CPU to start loading every cache line of `items` into L1, without waiting for it: a BVH traversal
/// calls this for all the children a ray hits, so their cache misses overlap instead of coming one after the
/// other (Embree's traversal prefetches its hit children the same way). Only a hint: it changes no value and
/// does nothing on targets other than x86_64.
#[inline(always)]
pub(crate) fn prefetch<T>(items: &[T]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let start = items.as_ptr().cast::<i8>();
        for offset in (0..std::mem::size_of_val(items)).step_by(64) {
            // SAFETY: `prefetch` is an SSE instruction, part of every x86_64 CPU (the baseline target
            // features include SSE and SSE2). It reads nothing architecturally and never faults, whatever the
            // address; these addresses are inside `items` anyway (`wrapping_add` stays within the slice).
            #[expect(unsafe_code)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(offset));
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = items;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefetch_changes_nothing() {
        // Empty, one byte, one line, lines and a partial line, and a slice starting mid-line.
        let data: Vec<u64> = (0..1000).collect();
        for range in [0..0, 0..1, 0..8, 0..1000, 3..11, 999..1000] {
            prefetch(&data[range]);
        }
        prefetch::<u8>(&[]);
        assert!(data.iter().enumerate().all(|(i, &x)| x == i as u64));
    }

    #[test]
    fn small_arrays_stay_on_the_heap_and_big_ones_keep_their_contents() {
        let small = Pages::new(vec![1u32, 2, 3]);
        assert!(!small.is_mapped());
        assert_eq!(&*small, &[1, 2, 3]);
        let n = HUGE_MIN_BYTES / 4 + 5;
        let big = Pages::new((0..n as u32).collect());
        #[cfg(target_os = "linux")]
        assert!(big.is_mapped());
        assert_eq!(big.len(), n);
        assert!(big.iter().enumerate().all(|(i, &x)| x == i as u32));
        let copy = big.clone();
        assert_eq!(&*copy, &*big);
        assert_eq!(format!("{:?}", Pages::new(vec![7u8])), "[7]");
    }
}
