//! A hint to the processor to bring memory into the cache before it is read.
//!
//! Stages that visit records in an order the hardware cannot guess (contacts
//! in colour order, say) name the records they will read a little later, so
//! that the wait for memory overlaps the work on the ones at hand. A hint
//! never faults and never changes a result; where the target has no stable
//! prefetch instruction it does nothing.

/// Asks for every cache line of `*value` to be fetched.
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        const LINE: usize = 64;
        let start = value as *const T as usize;
        let first = start & !(LINE - 1);
        let last = (start + size_of::<T>().max(1) - 1) & !(LINE - 1);
        for line in (first..=last).step_by(LINE) {
            // SAFETY: a prefetch reads nothing the program sees and cannot
            // fault, whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line as *const i8) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
