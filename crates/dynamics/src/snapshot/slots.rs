//! The layout of a slot map: which slots hold a value, every slot's version,
//! and the order in which the free slots are handed out, so that a map read
//! back gives the same keys as the original, to the values it holds and to
//! the values inserted later.
//!
//! The values themselves are written elsewhere, in bulk and in slot order;
//! this module writes the layout and rebuilds a map from a layout and values.

use serde::Deserialize;
use serde::de::IntoDeserializer;
use serde::de::value::{Error as ValueError, MapDeserializer, SeqDeserializer};
use slotmap::{Key, SlotMap};

use super::SnapshotError;
use super::packing::{Packer, Unpacker};
use crate::free_slots::{FreeList, index_and_version};

/// A slot map's layout: the version of every slot after the first (which
/// `slotmap` keeps empty), odd where a value lives and even where the slot is
/// free, and the free slots, the next to be handed out first.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    versions: Vec<u32>,
    free: Vec<u32>,
}

impl Layout {
    /// The layout of `map`, whose free slots `free` lists.
    pub(crate) fn of<K: Key, V>(map: &SlotMap<K, V>, free: &FreeList) -> Self {
        let top = map.keys().map(|k| index_and_version(k).0).chain(free.next_first().map(|(i, _)| i)).max();
        let mut versions = vec![0; top.unwrap_or(0) as usize];
        for key in map.keys() {
            let (index, version) = index_and_version(key);
            versions[index as usize - 1] = version;
        }
        let mut order = Vec::new();
        for (index, version) in free.next_first() {
            versions[index as usize - 1] = version;
            order.push(index);
        }
        Layout { versions, free: order }
    }

    /// The layout of `map` found without a free list: a copy of the map is
    /// filled with values made by `filler` until it grows, which hands the
    /// free slots out in their order. Slow: a check of [`FreeList`] where
    /// debug assertions are on.
    pub(crate) fn probed<K: Key, V: Clone>(map: &SlotMap<K, V>, filler: impl Fn() -> V) -> Self {
        let mut probe = map.clone();
        let mut free = Vec::new();
        loop {
            let (index, version) = index_and_version(probe.insert(filler()));
            if version == 1 {
                break; // a slot never used before: the free slots are exhausted
            }
            free.push((index, version - 1));
        }
        Self::of(map, &FreeList::from_next_first(free.into_iter()))
    }

    /// The free list of the map this layout rebuilds.
    pub(crate) fn free_list(&self) -> FreeList {
        FreeList::from_next_first(self.free.iter().map(|&i| (i, self.versions[i as usize - 1])))
    }

    /// Writes the layout: two columns of integers.
    pub(crate) fn write(&self, packer: &mut Packer) {
        packer.ints(self.versions.iter().map(|&v| u64::from(v)));
        packer.ints(self.free.iter().map(|&i| u64::from(i)));
    }

    /// Reads a layout [`Layout::write`] wrote.
    pub(crate) fn read(unpacker: &mut Unpacker<'_>) -> Result<Self, String> {
        let read_all = |unpacker: &mut Unpacker<'_>| -> Result<Vec<u32>, String> {
            let values = unpacker.all_ints()?;
            values.iter().map(|&v| u32::try_from(v).map_err(|_| format!("a slot of {v}"))).collect()
        };
        let versions = read_all(unpacker)?;
        let free = read_all(unpacker)?;
        Ok(Layout { versions, free })
    }

    /// How many slots hold a value.
    pub(crate) fn len(&self) -> usize {
        self.versions.iter().filter(|&&v| v % 2 == 1).count()
    }

    /// The map of this layout whose occupied slots hold `value(0)`,
    /// `value(1)`, … in slot order (`value` is called once for each, in an
    /// order of its own). `filler` makes throwaway values for the free slots.
    ///
    /// `slotmap` sets a version other than 1 only as it reads a map through
    /// serde, so the slots up to the last one with another version (reused or
    /// free) are read first, every one free and a version short of the value
    /// it will hold (two short for a free slot). The map hands those out from
    /// the last to the first: each gets its value, or a filler, which brings
    /// its version to the written one. The slots after them, never reused,
    /// are made by plain insertion, in order. The fillers are removed at the
    /// end, last first, which frees their slots with the written versions, in
    /// the written order.
    pub(crate) fn rebuild<K, V>(
        &self,
        filler: impl Fn() -> V,
        mut value: impl FnMut(usize) -> Result<V, SnapshotError>,
    ) -> Result<SlotMap<K, V>, SnapshotError>
    where
        K: Key,
        V: for<'de> Deserialize<'de>,
    {
        self.check().map_err(SnapshotError::Inconsistent)?;
        let n = self.versions.len();
        let reused = self.versions.iter().rposition(|&v| v != 1).map_or(0, |slot| slot + 1);
        let vacant = std::iter::once(0)
            .chain(self.versions[..reused].iter().map(|&v| if v % 2 == 1 { v - 1 } else { v - 2 }));
        let slots = SeqDeserializer::<_, ValueError>::new(vacant.map(VacantSlot));
        let mut map =
            SlotMap::<K, V>::deserialize(slots).map_err(|e| SnapshotError::Malformed(e.to_string()))?;
        map.reserve(n);
        let mut next = self.versions[..reused].iter().filter(|&&v| v % 2 == 1).count();
        let first_new = next;
        let mut fillers = vec![K::null(); reused];
        for slot in (0..reused).rev() {
            if self.versions[slot] % 2 == 1 {
                next -= 1;
                map.insert(value(next)?);
            } else {
                fillers[slot] = map.insert(filler());
            }
        }
        for i in first_new..first_new + (n - reused) {
            map.insert(value(i)?);
        }
        for &index in self.free.iter().rev() {
            map.remove(fillers[index as usize - 1]);
        }
        Ok(map)
    }

    /// That every free slot is listed once, and only free slots are.
    fn check(&self) -> Result<(), String> {
        let n = self.versions.len();
        if n >= u32::MAX as usize - 1 {
            return Err("a slot map of more slots than it can hold".into());
        }
        let mut listed = vec![false; n];
        for &index in &self.free {
            let slot = (index as usize).wrapping_sub(1);
            match self.versions.get(slot) {
                Some(version)
                    if version % 2 == 0 && *version >= 2 && !std::mem::replace(&mut listed[slot], true) => {}
                _ => return Err(format!("free slot {index} is in use, listed twice or missing")),
            }
        }
        if self.free.len() + self.len() != n {
            return Err("a free slot is not listed".into());
        }
        Ok(())
    }
}

/// A free slot of the given version, as `slotmap` reads one through serde
/// (its value is left out, which serde reads as none).
struct VacantSlot(u32);

impl<'de> IntoDeserializer<'de, ValueError> for VacantSlot {
    type Deserializer = MapDeserializer<'de, std::iter::Once<(&'static str, u32)>, ValueError>;

    fn into_deserializer(self) -> Self::Deserializer {
        MapDeserializer::new(std::iter::once(("version", self.0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BodyKey;

    /// A map with values removed here and there, and slots reused, comes back
    /// with the same keys, values and free slots in the same order.
    #[test]
    fn a_rebuilt_map_hands_out_the_same_keys() {
        let mut map = SlotMap::<BodyKey, u32>::with_key();
        let keys: Vec<_> = (0..20).map(|i| map.insert(i)).collect();
        for &i in &[3, 17, 5, 11, 19] {
            map.remove(keys[i]);
        }
        let reused = map.insert(100);
        map.remove(keys[8]);
        map.remove(reused);
        let layout = Layout::probed(&map, || 0);
        let mut packer = Packer::default();
        layout.write(&mut packer);
        let (bytes, _) = packer.into_parts();
        let read = Layout::read(&mut Unpacker::new(&bytes, &[])).unwrap();
        let values: Vec<u32> = map.values().copied().collect();
        let mut copy: SlotMap<BodyKey, u32> = read.rebuild(|| 0, |i| Ok(values[i])).unwrap();
        assert!(map.iter().eq(copy.iter()));
        for i in 0..10 {
            assert_eq!(map.insert(i), copy.insert(i));
        }
    }

    /// A map whose slots were never reused is rebuilt by insertion alone,
    /// and one reused only early on partly so; both come back whole.
    #[test]
    fn slots_never_reused_are_inserted() {
        for reuse in [false, true] {
            let mut map = SlotMap::<BodyKey, u32>::with_key();
            let first = map.insert(7);
            if reuse {
                map.remove(first);
                map.insert(8);
            }
            for i in 0..50 {
                map.insert(i);
            }
            let layout = Layout::probed(&map, || 0);
            let values: Vec<u32> = map.values().copied().collect();
            let mut copy: SlotMap<BodyKey, u32> = layout.rebuild(|| 0, |i| Ok(values[i])).unwrap();
            assert!(map.iter().eq(copy.iter()));
            assert_eq!(map.insert(1), copy.insert(1));
        }
    }

    /// Layouts that do not fit their values are refused.
    #[test]
    fn a_layout_that_does_not_fit_is_refused() {
        let fit = |versions: Vec<u32>, free: Vec<u32>, values: usize| {
            let layout = Layout { versions, free };
            let value = |i: usize| {
                if i < values { Ok(0) } else { Err(SnapshotError::Malformed("past the end".into())) }
            };
            layout.len() == values && layout.rebuild::<BodyKey, u32>(|| 0, value).is_ok()
        };
        assert!(fit(vec![1, 2, 3], vec![2], 2));
        assert!(!fit(vec![1, 2, 3], vec![2], 1), "too few values");
        assert!(!fit(vec![1, 2, 3], vec![], 2), "a free slot not listed");
        assert!(!fit(vec![1, 2, 3], vec![2, 2], 2), "a free slot listed twice");
        assert!(!fit(vec![1, 2, 3], vec![1], 2), "an occupied slot listed as free");
        assert!(!fit(vec![1, 0, 3], vec![2], 2), "a free slot never used");
        assert!(!fit(vec![1, 2, 3], vec![0], 2), "no slot 0");
    }
}
