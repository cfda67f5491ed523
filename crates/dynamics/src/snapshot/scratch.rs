//! Buffers that reading a snapshot fills and throws away, kept by each
//! thread for its next restore.
//!
//! Reading a snapshot of a large world passes through megabytes of such
//! buffers: the decompressed parts and each column decoded. Allocations that
//! large come straight from the operating system, which hands the pages over
//! zeroed, one fault at a time, and takes them back when they are freed, so
//! that the next restore pays again: reading the pyramid of benches/compare
//! spent about a third of its time in the kernel. A [`Scratch`] buffer goes
//! back to its thread's pool when dropped, and the next buffer asked for on
//! that thread is taken from the pool. (Writing keeps plain vectors: pooled,
//! its columns made two-thread writing slower.)
//!
//! What a pool keeps is bounded ([`KEPT`] buffers, [`KEPT_BYTES`] in all): a
//! thread holds on to about what the largest snapshot it read needed.

use std::cell::RefCell;
use std::ops::{Deref, DerefMut};
use std::thread::LocalKey;

use lamina_geometry::Real;

/// Buffers a thread keeps of each kind, at most.
const KEPT: usize = 64;

/// Bytes a thread keeps in buffers of each kind, at most.
const KEPT_BYTES: usize = 32 << 20;

/// A thread's buffers of one kind, and the bytes they hold.
pub(crate) struct Pool<T> {
    buffers: Vec<Vec<T>>,
    bytes: usize,
}

/// Element types with a pool of buffers per thread.
pub(crate) trait Pooled: Copy + 'static {
    /// This thread's pool of buffers of `Self`.
    fn pool() -> &'static LocalKey<RefCell<Pool<Self>>>;
}

/// Gives `$t` a pool per thread, in the thread-local `$name`.
macro_rules! pooled {
    ($t:ty, $name:ident) => {
        thread_local! {
            static $name: RefCell<Pool<$t>> = RefCell::new(Pool { buffers: Vec::new(), bytes: 0 });
        }
        impl Pooled for $t {
            fn pool() -> &'static LocalKey<RefCell<Pool<Self>>> {
                &$name
            }
        }
    };
}

pooled!(u8, BYTES);
pooled!(u64, INTEGERS);
pooled!(Real, REALS);

/// A vector taken from its thread's pool, and given back when dropped.
pub(crate) struct Scratch<T: Pooled>(Vec<T>);

impl<T: Pooled> Scratch<T> {
    /// An empty buffer with room for `capacity` values: the smallest kept
    /// one that has the room, else a new one.
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        let kept = T::pool()
            .try_with(|pool| {
                let mut pool = pool.borrow_mut();
                let buffers = &pool.buffers;
                let fits = (0..buffers.len())
                    .filter(|&i| buffers[i].capacity() >= capacity)
                    .min_by_key(|&i| buffers[i].capacity());
                let buffer = pool.buffers.swap_remove(fits?);
                pool.bytes -= bytes_of(&buffer);
                Some(buffer)
            })
            .ok()
            .flatten();
        // None kept is large enough: a new allocation, rather than a kept
        // one grown with a copy of bytes no one needs.
        let mut buffer = kept.unwrap_or_else(|| Vec::with_capacity(capacity));
        buffer.clear();
        Scratch(buffer)
    }
}

impl<T: Pooled> Scratch<T> {
    /// The vector itself, to keep: it does not go back to the pool.
    pub(crate) fn into_vec(mut self) -> Vec<T> {
        std::mem::take(&mut self.0)
    }
}

/// The bytes `buffer`'s allocation holds.
fn bytes_of<T>(buffer: &Vec<T>) -> usize {
    buffer.capacity() * size_of::<T>()
}

impl<T: Pooled> Drop for Scratch<T> {
    fn drop(&mut self) {
        give_back(std::mem::take(&mut self.0));
    }
}

/// Puts `buffer` in this thread's pool if the pool has room for it, and
/// frees it otherwise (or in a thread tearing down its locals).
pub(crate) fn give_back<T: Pooled>(buffer: Vec<T>) {
    let bytes = bytes_of(&buffer);
    if bytes == 0 {
        return;
    }
    let _ = T::pool().try_with(|pool| {
        let mut pool = pool.borrow_mut();
        if pool.buffers.len() < KEPT && pool.bytes + bytes <= KEPT_BYTES {
            pool.bytes += bytes;
            pool.buffers.push(buffer);
        }
    });
}

impl<T: Pooled> Deref for Scratch<T> {
    type Target = Vec<T>;
    #[inline]
    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<T: Pooled> DerefMut for Scratch<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dropped buffer is handed out again: the smallest that fits, else a
    /// new one; the pool keeps no more than its bounds.
    #[test]
    fn buffers_come_back_within_bounds() {
        std::thread::spawn(|| {
            let (small, large) = (Scratch::<u64>::with_capacity(10), Scratch::<u64>::with_capacity(1000));
            let small_at = small.as_ptr();
            drop((small, large));
            let fit = Scratch::<u64>::with_capacity(5);
            assert_eq!(fit.as_ptr(), small_at, "the smallest buffer that fits");
            // Larger than any kept: a new buffer, the kept ones left in the pool.
            let new = Scratch::<u64>::with_capacity(2000);
            assert!(new.capacity() >= 2000 && new.is_empty());
            assert_eq!(u64::pool().with(|pool| pool.borrow().buffers.len()), 1, "the large one stays kept");
            drop((fit, new));
            let huge = Scratch::<u8>::with_capacity(KEPT_BYTES + 1);
            drop(huge);
            let bytes = u8::pool().with(|pool| pool.borrow().bytes);
            assert_eq!(bytes, 0, "a buffer past the bound is freed");
            let many: Vec<_> = (0..KEPT + 5).map(|_| Scratch::<u8>::with_capacity(16)).collect();
            drop(many);
            assert_eq!(u8::pool().with(|pool| pool.borrow().buffers.len()), KEPT);
        })
        .join()
        .unwrap();
    }
}
