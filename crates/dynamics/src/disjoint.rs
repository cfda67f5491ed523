//! Many values of one slot map borrowed mutably at once, to be handed to
//! several threads: the narrow phase refreshes the contacts this way, the
//! solver lists a large world's bodies and writes the contacts' impulses
//! back, and the end of the step writes the bodies (and their lone
//! colliders' bounds) back.
//!
//! A walk of the map (`iter_mut`) would borrow them safely, but it reads
//! every slot on the calling thread, a cache miss per value in a large map,
//! before any thread starts. Borrowing by key computes each reference from
//! the slot's address alone, so a value is first touched by the thread that
//! works on it. The price is the caller's promise, made once here.

use slotmap::{Key, SlotMap};

/// Appends to `out` a mutable reference to the value of each key of `keys`,
/// in order.
///
/// # Safety
///
/// Every key must be live in `map`, and no key may come twice: the
/// references are made without checking either. slotmap 1.1.1 (the version
/// the workspace requires) makes each from its buffer's `as_mut_ptr` alone,
/// never a reference to the whole buffer that would overlap the others, so
/// references to distinct live slots do not alias. The map is borrowed for
/// as long as they live.
pub(crate) unsafe fn borrow_each<'a, K: Key, V>(
    map: &'a mut SlotMap<K, V>,
    keys: impl Iterator<Item = K>,
    out: &mut Vec<&'a mut V>,
) {
    // SAFETY: the caller's promise (above).
    out.extend(keys.map(|key| unsafe { borrow(map, key) }));
}

/// [`borrow_each`] for keys that may be missing: `None` for each `None`.
///
/// # Safety
///
/// As for [`borrow_each`], for the keys given.
pub(crate) unsafe fn borrow_some<'a, K: Key, V>(
    map: &'a mut SlotMap<K, V>,
    keys: impl Iterator<Item = Option<K>>,
    out: &mut Vec<Option<&'a mut V>>,
) {
    // SAFETY: the caller's promise, as in `borrow_each`.
    out.extend(keys.map(|key| key.map(|key| unsafe { borrow(map, key) })));
}

/// The value of `key`, for a lifetime the caller chooses.
///
/// # Safety
///
/// `key` is live in `map`; no other reference to its value is made while
/// this one lives; and `'a` ends before `map` is next used otherwise (the
/// two functions above tie it to their own borrow of the map).
unsafe fn borrow<'a, K: Key, V>(map: &mut SlotMap<K, V>, key: K) -> &'a mut V {
    // SAFETY: the caller's promise; see `borrow_each` for why references
    // made one at a time this way do not overlap.
    let [value] = unsafe { map.get_disjoint_unchecked_mut([key]) };
    // SAFETY: the value lives in the map's buffer, which the callers' borrow
    // of `map` for 'a keeps in place.
    unsafe { &mut *(value as *mut V) }
}

/// An empty vector with `v`'s allocation, for elements of the same size and
/// alignment: a buffer of references can be kept between steps, empty, as a
/// buffer of `usize`, and borrowed again without allocating.
pub(crate) fn recycle<T, U>(v: Vec<T>) -> Vec<U> {
    const { assert!(size_of::<T>() == size_of::<U>() && align_of::<T>() == align_of::<U>()) };
    let mut v = std::mem::ManuallyDrop::new(v);
    v.clear();
    // SAFETY: the allocation was made for `capacity` elements of `T`, whose
    // size and alignment `U` shares (asserted above), so it has the layout
    // `capacity` elements of `U` need; the length is zero, so no element of
    // either type is read or dropped, and the old vector is never dropped.
    unsafe { Vec::from_raw_parts(v.as_mut_ptr().cast::<U>(), 0, v.capacity()) }
}
