//! The free slots of the world's slot maps, in the order each map hands them
//! out again.
//!
//! `slotmap` reuses the slot freed last first, with its version one higher,
//! and does not expose that order. A snapshot must write it, so that a world
//! read back gives the bodies, colliders, joints, chains and contacts added
//! later the same keys as the original would (a different contact key would
//! change the order constraints are solved in). Every insertion into and
//! removal from the world's maps is mirrored here, at a push or a pop, so
//! that a snapshot finds the order without copying a map to probe it.

use slotmap::Key;

/// One map's free slots: `(index, version)` of each, the one handed out next
/// last.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct FreeList {
    slots: Vec<(u32, u32)>,
}

/// A key's slot index and version.
pub(crate) fn index_and_version<K: Key>(key: K) -> (u32, u32) {
    let ffi = key.data().as_ffi();
    (ffi as u32, (ffi >> 32) as u32)
}

impl FreeList {
    /// Notes that the map just handed out `key`: the slot freed last, or a
    /// new one when none is free.
    #[inline]
    pub(crate) fn inserted<K: Key>(&mut self, key: K) {
        let reused = self.slots.pop();
        let (index, version) = index_and_version(key);
        debug_assert_eq!(
            reused.map(|(i, v)| (i, v + 1)).unwrap_or((index, 1)),
            (index, version),
            "a slot map handed out a key its free list did not expect"
        );
    }

    /// Notes that the map just removed the value of `key`, freeing its slot.
    #[inline]
    pub(crate) fn removed<K: Key>(&mut self, key: K) {
        let (index, version) = index_and_version(key);
        self.slots.push((index, version.wrapping_add(1)));
    }

    /// `(index, version)` of each free slot, the one handed out next first.
    #[cfg(feature = "serde")]
    pub(crate) fn next_first(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.slots.iter().rev().copied()
    }

    /// The list of a map whose free slots, the one handed out next first,
    /// are `slots`.
    #[cfg(feature = "serde")]
    pub(crate) fn from_next_first(slots: impl DoubleEndedIterator<Item = (u32, u32)>) -> Self {
        FreeList { slots: slots.rev().collect() }
    }
}

/// The free lists of the world's slot maps of bodies, colliders, joints and
/// chains (the contacts' is the contact set's own).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct FreeSlots {
    pub(crate) bodies: FreeList,
    pub(crate) colliders: FreeList,
    pub(crate) joints: FreeList,
    pub(crate) chains: FreeList,
}
