//! A slot map that stamps its world's tag on every key it hands out and
//! looks up only keys that carry it: the one place where a key of another
//! world is told apart (`keys.rs` says why keys carry their world).
//!
//! The world's bodies, colliders, joints and chains live in maps of this
//! kind. Every key that leaves one (inserted, or met walking the map) is
//! stamped, so every key stored anywhere in the world carries the world's
//! tag and passes the check; a key of another world, or one rebuilt from
//! raw `KeyData`, misses as a removed key does. Indexing (`map[key]`) is for
//! keys the world itself stored and checks the tag in debug builds only.

use std::ops::{Index, IndexMut};

use slotmap::SlotMap;

use crate::keys::{Untagged, WorldKey, WorldTag};

/// A slot map of one world: its keys carry the world's tag.
#[derive(Clone, Debug)]
pub(crate) struct TaggedMap<K: WorldKey, V> {
    map: SlotMap<K, V>,
    tag: WorldTag,
}

impl<K: WorldKey, V> TaggedMap<K, V> {
    /// An empty map whose keys carry `tag`.
    pub fn new(tag: WorldTag) -> Self {
        Self { map: SlotMap::with_key(), tag }
    }

    /// `map`, its keys (and the keys it hands out from now on) carrying `tag`.
    #[cfg(feature = "serde")]
    pub fn from_map(map: SlotMap<K, V>, tag: WorldTag) -> Self {
        Self { map, tag }
    }

    /// The tag the map's keys carry.
    #[inline]
    pub fn tag(&self) -> WorldTag {
        self.tag
    }

    /// Whether `key` carries this map's tag (live or not).
    #[inline]
    pub fn owns(&self, key: K) -> bool {
        key.world() == self.tag
    }

    /// Adds `value`, returning its key, stamped.
    pub fn insert(&mut self, value: V) -> K {
        self.map.insert(value).in_world(self.tag)
    }

    /// Removes the value of `key`, if it is live here.
    pub fn remove(&mut self, key: K) -> Option<V> {
        if self.owns(key) { self.map.remove(key) } else { None }
    }

    /// The value of `key`, if it is live here.
    #[inline]
    pub fn get(&self, key: K) -> Option<&V> {
        if self.owns(key) { self.map.get(key) } else { None }
    }

    /// The value of `key` for changes, if it is live here.
    #[inline]
    pub fn get_mut(&mut self, key: K) -> Option<&mut V> {
        if self.owns(key) { self.map.get_mut(key) } else { None }
    }

    /// Whether `key` is live here.
    #[inline]
    pub fn contains_key(&self, key: K) -> bool {
        self.owns(key) && self.map.contains_key(key)
    }

    /// How many values the map holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether the map holds no value.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Every key and value in slot order, the keys stamped.
    pub fn iter(&self) -> impl Iterator<Item = (K, &V)> + Clone {
        let tag = self.tag;
        self.map.iter().map(move |(k, v)| (k.in_world(tag), v))
    }

    /// Every key and value for changes, in slot order, the keys stamped.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (K, &mut V)> {
        let tag = self.tag;
        self.map.iter_mut().map(move |(k, v)| (k.in_world(tag), v))
    }

    /// Every key in slot order, stamped.
    #[cfg(any(test, feature = "serde"))]
    pub fn keys(&self) -> impl Iterator<Item = K> + '_ {
        let tag = self.tag;
        self.map.keys().map(move |k| k.in_world(tag))
    }

    /// Every value in slot order.
    #[cfg(any(test, feature = "serde"))]
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.map.values()
    }

    /// Every value for changes, in slot order.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> {
        self.map.values_mut()
    }

    /// The slot map itself, whose keys are unstamped: for code that reads
    /// its layout (snapshots) or borrows many values at once by stored
    /// keys (`parallel/disjoint.rs`).
    #[inline]
    pub fn raw(&self) -> &SlotMap<K, V> {
        &self.map
    }

    /// [`TaggedMap::raw`] for changes.
    #[inline]
    pub fn raw_mut(&mut self) -> &mut SlotMap<K, V> {
        &mut self.map
    }
}

impl<K: WorldKey, V> Index<Untagged<K>> for TaggedMap<K, V> {
    type Output = V;

    /// The value of a key the world stored untagged, which is this map's.
    #[inline]
    fn index(&self, key: Untagged<K>) -> &V {
        &self.map[key.in_world(self.tag)]
    }
}

impl<K: WorldKey, V> IndexMut<Untagged<K>> for TaggedMap<K, V> {
    #[inline]
    fn index_mut(&mut self, key: Untagged<K>) -> &mut V {
        &mut self.map[key.in_world(self.tag)]
    }
}

impl<K: WorldKey, V> Index<K> for TaggedMap<K, V> {
    type Output = V;

    #[inline]
    fn index(&self, key: K) -> &V {
        debug_assert!(self.owns(key), "{key:?} of world {:?} indexes a map of {:?}", key.world(), self.tag);
        &self.map[key]
    }
}

impl<K: WorldKey, V> IndexMut<K> for TaggedMap<K, V> {
    #[inline]
    fn index_mut(&mut self, key: K) -> &mut V {
        debug_assert!(self.owns(key), "{key:?} of world {:?} indexes a map of {:?}", key.world(), self.tag);
        &mut self.map[key]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BodyKey;
    use slotmap::Key;

    #[test]
    fn keys_of_another_tag_miss_as_removed_keys_do() {
        let (mine, theirs) = (WorldTag::fresh(), WorldTag::fresh());
        let mut map = TaggedMap::<BodyKey, &str>::new(mine);
        let mut other = TaggedMap::<BodyKey, &str>::new(theirs);
        let a = map.insert("a");
        let foreign = other.insert("x");
        assert_eq!(a, foreign, "the same slot and version in both maps");
        assert_eq!(a.world(), mine);
        assert_eq!(map.get(a), Some(&"a"));
        assert_eq!(map.get(foreign), None);
        assert!(!map.contains_key(foreign) && map.get_mut(foreign).is_none());
        assert_eq!(map.remove(foreign), None);
        assert_eq!(map.len(), 1, "a foreign key removes nothing");
        assert_eq!(map.get(BodyKey::from(a.data())), None, "nor does a key rebuilt from raw data");
        assert!(map.iter().all(|(k, _)| k.world() == mine) && map.keys().all(|k| k.world() == mine));
        assert_eq!(map.remove(a), Some("a"));
        assert_eq!(map.get(a), None);
    }
}
