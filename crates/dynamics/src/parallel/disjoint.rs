//! Many values of one slot map borrowed mutably at once, to be handed to
//! several threads: the narrow phase refreshes the contacts this way, the
//! solver lists a large world's bodies and writes the contacts' impulses
//! back, and the end of the step writes the bodies (and their lone
//! colliders' bounds) back. [`update_each`] does the common case whole: a
//! value per key updated from an item, in chunks on the pool (the joints'
//! impulses, the colliders told of their proxies' moves).
//!
//! A walk of the map (`iter_mut`) would borrow them safely, but it reads
//! every slot on the calling thread, a cache miss per value in a large map,
//! before any thread starts. Borrowing by key computes each reference from
//! the slot's address alone, so a value is first touched by the thread that
//! works on it. The price is the caller's promise, made once here.

use rayon::prelude::*;
use slotmap::{Key, SlotMap};

use crate::keys::WorldKey;
use crate::parallel::pace::Threads;
use crate::tagged_map::TaggedMap;

/// Appends to `out` a mutable reference to the value of each key of `keys`,
/// in order.
///
/// # Safety
///
/// Every key must be live in `map`, and no key may come twice: the
/// references are made without checking either. slotmap 1.1.1 (the version
/// the workspace pins with `=1.1.1`; the tests below fail if the lockfile or
/// the layout move) keeps every slot, its value inside, in one buffer
/// indexed by the key's slot index, and makes each reference from that
/// buffer's `as_mut_ptr` alone, never a reference to the whole buffer that
/// would overlap the others, so references to distinct live slots do not
/// alias. The map is borrowed for as long as they live.
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

/// Calls `update` with the value of each key of `keys` in `map` (`None`:
/// no value) and its item of `items`, the two in step. Each value is a
/// cache miss of its own, so from two chunks' worth on, where `threads`
/// share, the values are borrowed through `buffer` (kept empty between
/// steps, see [`recycle`]) and updated on the pool in chunks of `chunk`:
/// the joints' impulses stored after the solve, the colliders told of
/// their proxies' moves.
///
/// # Safety
///
/// As for [`borrow_each`]: every key of `keys` is live in `map` (checked
/// in debug builds) and none comes twice.
pub(crate) unsafe fn update_each<K: WorldKey, V: Send, T: Sync>(
    map: &mut TaggedMap<K, V>,
    keys: impl Iterator<Item = Option<K>> + Clone,
    items: &[T],
    (buffer, threads, chunk): (&mut Vec<usize>, Threads, usize),
    update: impl Fn(&mut V, &T) + Sync,
) {
    if !threads.share(items.len(), 2 * chunk) {
        for (item, key) in items.iter().zip(keys) {
            if let Some(key) = key {
                update(&mut map[key], item);
            }
        }
        return;
    }
    debug_assert!(keys.clone().flatten().all(|key| map.contains_key(key)));
    let mut borrowed: Vec<Option<&mut V>> = recycle(std::mem::take(buffer));
    // SAFETY: the caller's promise; the map is left alone until the
    // references are dropped, when `borrowed` is recycled below.
    unsafe { borrow_some(map.raw_mut(), keys, &mut borrowed) };
    borrowed.par_chunks_mut(chunk).zip(items.par_chunks(chunk)).for_each(|(values, items)| {
        for (value, item) in values.iter_mut().zip(items) {
            if let Some(value) = value {
                update(value, item);
            }
        }
    });
    *buffer = recycle(borrowed);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::free_slots::index_and_version;

    slotmap::new_key_type! { struct TestKey; }

    /// The version `borrow_each`'s safety argument was checked against.
    const CHECKED_VERSION: &str = "1.1.1";

    /// The lockfile resolves slotmap to the checked version: a new one must
    /// be read again before the pin in the workspace's Cargo.toml moves.
    #[test]
    fn slotmap_is_the_version_the_safety_argument_was_checked_against() {
        let lockfile = concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.lock");
        let Ok(lock) = std::fs::read_to_string(lockfile) else {
            // The crate built on its own, outside the workspace: the pin in
            // its manifest still holds the version.
            return;
        };
        let entry = lock
            .split("[[package]]")
            .find(|p| p.contains("name = \"slotmap\""))
            .expect("slotmap in the lockfile");
        assert!(entry.contains(&format!("version = \"{CHECKED_VERSION}\"")), "slotmap moved: {entry}");
    }

    /// The layout the argument relies on: a key's value lies at a fixed
    /// stride per slot index from slot 0's, in one buffer, and the key's
    /// slot index is the low half of its FFI form (`index_and_version`).
    #[test]
    fn values_lie_in_one_buffer_by_slot_index() {
        let mut map: SlotMap<TestKey, [u64; 3]> = SlotMap::with_key();
        let keys: Vec<TestKey> = (0..64).map(|i| map.insert([i; 3])).collect();
        for (i, &key) in keys.iter().enumerate() {
            // Slot 0 is slotmap's sentinel: a fresh map hands out 1, 2, ...
            assert_eq!(
                index_and_version(key),
                (i as u32 + 1, 1),
                "a fresh map's keys: slot i + 1, version 1"
            );
        }
        let address = |key: TestKey| map.get(key).map(|v| v as *const _ as usize).expect("live");
        let base = address(keys[0]);
        let stride = address(keys[1]) - base;
        assert!(stride >= size_of::<[u64; 3]>(), "slots overlap: stride {stride}");
        for &key in &keys {
            let slot = index_and_version(key).0 as usize;
            assert_eq!(address(key), base + (slot - 1) * stride, "slot {slot} out of place");
        }
        // What `borrow_each` hands out are those same values.
        let expected: Vec<usize> = keys.iter().map(|&k| address(k)).collect();
        let mut out = Vec::new();
        // SAFETY: every key is live and none comes twice.
        unsafe { borrow_each(&mut map, keys.iter().copied(), &mut out) };
        let got: Vec<usize> = out.iter().map(|v| &**v as *const _ as usize).collect();
        assert_eq!(got, expected);
        for (i, v) in out.iter().enumerate() {
            assert_eq!(**v, [i as u64; 3]);
        }
    }
}
