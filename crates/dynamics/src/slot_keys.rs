//! The live keys of one slot map, by slot, in a dense array of their own.
//!
//! The narrow phase visits every contact of the world each step, in key
//! order, on several threads. Listing them by walking the contact map reads
//! the version word of every slot, a cache miss per contact (a contact's
//! slot is about 180 bytes), on the calling thread alone: in a world of tens
//! of thousands of contacts that walk was a serial part of the step as long
//! as a tenth of the parallel refresh after it. Here the same keys lie eight
//! bytes apart, mirrored at every insertion and removal, so the walk reads a
//! short array and each contact is first touched by the thread that
//! refreshes it.

use slotmap::{Key, SlotMap};

use crate::free_slots::index_and_version;

/// The live keys of one slot map, by slot index; the null key at a free slot.
#[derive(Clone, Debug)]
pub(crate) struct SlotKeys<K> {
    by_slot: Vec<K>,
    live: usize,
}

impl<K> Default for SlotKeys<K> {
    fn default() -> Self {
        Self { by_slot: Vec::new(), live: 0 }
    }
}

impl<K: Key> SlotKeys<K> {
    /// The live keys of a map, `keys`.
    #[cfg(any(test, feature = "serde"))]
    pub fn of_keys(keys_of_map: impl Iterator<Item = K>) -> Self {
        let mut keys = Self::default();
        for key in keys_of_map {
            keys.inserted(key);
        }
        keys
    }

    /// Notes that the map just handed out `key`.
    #[inline]
    pub fn inserted(&mut self, key: K) {
        let slot = index_and_version(key).0 as usize;
        if slot >= self.by_slot.len() {
            self.by_slot.resize(slot + 1, K::null());
        }
        debug_assert!(self.by_slot[slot].is_null(), "a slot handed out twice");
        self.by_slot[slot] = key;
        self.live += 1;
    }

    /// Notes that the map just removed `key`.
    #[inline]
    pub fn removed(&mut self, key: K) {
        let slot = index_and_version(key).0 as usize;
        debug_assert!(self.by_slot[slot] == key, "a key removed that was not live");
        self.by_slot[slot] = K::null();
        self.live -= 1;
    }

    /// The keys by slot, the null key at a free slot.
    pub fn by_slot(&self) -> &[K] {
        &self.by_slot
    }

    /// How many keys are live.
    pub fn len(&self) -> usize {
        self.live
    }

    /// The live keys in slot order: the order of the map's own iteration.
    pub fn keys(&self) -> impl Iterator<Item = K> + '_ {
        self.by_slot.iter().copied().filter(|k| !k.is_null())
    }

    /// Appends the live keys to `out` in slot order, as [`SlotKeys::keys`]
    /// gives them, without a branch per slot: every key is written and the
    /// end moves past the live ones only. A map whose entries come and go
    /// (contacts in a stirred pile) has free slots at random among the live
    /// ones, and a test per slot would be guessed wrong at each change.
    pub fn extend_into(&self, out: &mut Vec<K>) {
        let start = out.len();
        out.resize(start + self.by_slot.len(), K::null());
        let mut end = start;
        for &key in &self.by_slot {
            out[end] = key;
            end += usize::from(!key.is_null());
        }
        out.truncate(end);
    }

    /// True when these are exactly `map`'s keys (for checks: it reads every
    /// slot of the map).
    pub fn agree_with<V>(&self, map: &SlotMap<K, V>) -> bool {
        self.live == map.len() && self.keys().eq(map.keys())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    slotmap::new_key_type! { struct TestKey; }

    /// Random insertions and removals, which free slots and hand them out
    /// again with new versions: the mirrored keys are the map's after each.
    #[test]
    fn mirrored_keys_are_the_maps_keys() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut map = SlotMap::<TestKey, u32>::with_key();
        let mut keys = SlotKeys::default();
        let mut live = Vec::new();
        for step in 0..2_000u32 {
            if live.is_empty() || !rng.next().is_multiple_of(3) {
                let key = map.insert(step);
                keys.inserted(key);
                live.push(key);
            } else {
                let key = live.swap_remove((rng.next() % live.len() as u64) as usize);
                map.remove(key);
                keys.removed(key);
            }
            assert!(keys.agree_with(&map), "after step {step}");
            let mut listed = vec![TestKey::null()];
            keys.extend_into(&mut listed);
            assert!(listed[1..].iter().copied().eq(map.keys()), "listed after step {step}");
        }
        assert!(SlotKeys::of_keys(map.keys()).agree_with(&map));
        let removed = live[0];
        map.remove(removed);
        assert!(!keys.agree_with(&map), "a removal not mirrored is told");
    }
}
