//! Keys of one slot map gathered in any order, with repeats, and read back
//! once each in the map's own order: the order of its slots, in which the
//! step walks every map.
//!
//! A world mostly asleep lists its awake bodies, and their contacts and
//! joints, from the awake islands and the bodies' own lists rather than by
//! walking every slot of every map. The lists must come out in the order a
//! walk would give (the solver colours constraints in that order, and a
//! different order changes the bits), and a contact between two awake bodies
//! is found from both. A bit per slot marks a key once; reading the words
//! in order gives the keys sorted, in time proportional to the keys plus a
//! word per 64 slots, with no sort.

use slotmap::Key;

use crate::free_slots::index_and_version;

/// Keys of one map marked by slot, read back in slot order.
#[derive(Clone, Debug, Default)]
pub(crate) struct KeySet<K> {
    /// Bit `i % 64` of word `i / 64`: slot `i` is marked.
    words: Vec<u64>,
    /// The key marked at each slot (valid where its bit is set).
    keys: Vec<K>,
}

impl<K: Key> KeySet<K> {
    /// Marks `key`; marking it again changes nothing.
    #[inline]
    pub fn insert(&mut self, key: K) {
        let slot = index_and_version(key).0 as usize;
        if slot >= self.keys.len() {
            self.keys.resize(slot + 1, K::null());
            self.words.resize(slot / 64 + 1, 0);
        }
        self.words[slot / 64] |= 1 << (slot % 64);
        self.keys[slot] = key;
    }

    /// Appends the marked keys to `out` in slot order and unmarks them all.
    pub fn drain_sorted_into(&mut self, out: &mut Vec<K>) {
        for (w, word) in self.words.iter_mut().enumerate() {
            let mut bits = std::mem::take(word);
            while bits != 0 {
                let slot = w * 64 + bits.trailing_zeros() as usize;
                out.push(self.keys[slot]);
                bits &= bits - 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slotmap::SlotMap;

    slotmap::new_key_type! { struct TestKey; }

    /// Keys of a map with freed and reused slots (so versions differ),
    /// marked in a scrambled order with repeats, come back once each in the
    /// order the map walks its slots (the oracle), twice over.
    #[test]
    fn keys_come_back_once_each_in_the_maps_order() {
        let mut map: SlotMap<TestKey, u32> = SlotMap::with_key();
        let keys: Vec<TestKey> = (0..300).map(|i| map.insert(i)).collect();
        for (i, &k) in keys.iter().enumerate() {
            if i % 3 == 0 {
                map.remove(k);
            }
        }
        for i in 0..50 {
            map.insert(1000 + i);
        }
        let mut rng = crate::test_rng::Rng(0x5851_f42d_4c95_7f2d);
        let mut set = KeySet::default();
        for _ in 0..2 {
            let chosen: Vec<TestKey> = map.keys().filter(|_| rng.next().is_multiple_of(2)).collect();
            let mut scrambled = chosen.clone();
            scrambled.extend(chosen.iter().rev().step_by(3));
            for i in (1..scrambled.len()).rev() {
                scrambled.swap(i, (rng.next() % (i as u64 + 1)) as usize);
            }
            for &k in &scrambled {
                set.insert(k);
            }
            let mut out = Vec::new();
            set.drain_sorted_into(&mut out);
            assert_eq!(out, chosen);
        }
    }
}
