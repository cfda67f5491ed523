//! The handles a [`World`](crate::World) hands out, each carrying the world
//! it came from, so that a key of one world is refused by another.
//!
//! A plain slot-map key is a slot and a version: two worlds built the same
//! way hand out the same keys, and a key of one names a body of the other
//! (a collider attached to the wrong world's ground, silently). Each world
//! draws a [`WorldTag`] when it is made and stamps it on every key it hands
//! out; its maps ([`TaggedMap`](crate::tagged_map::TaggedMap)) look a key up
//! only when the tag is theirs. A clone and a world restored from a snapshot
//! keep the tag, so they accept the keys of the world they came from, as
//! they step as it would.
//!
//! Box2D packs its world's index into its ids the same way (`b2BodyId`'s
//! `world0`). Here the tag is a 32-bit word beside slotmap's `KeyData`:
//! equality, order and hashing look at the slot and version alone, so that
//! a key behaves in every map exactly as slotmap's own keys do (which
//! slotmap's `Key` trait requires), and the tag is checked where a key
//! enters a world.

use std::fmt;
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::atomic::{AtomicU32, Ordering};

use slotmap::{Key, KeyData};

/// Which world a key belongs to: drawn once per world, kept by its clones
/// and snapshots. [`WorldTag::NONE`] marks keys no world handed out (the
/// null key, a key rebuilt from raw `KeyData`); no world accepts those.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct WorldTag(u32);

impl WorldTag {
    /// The tag of keys no world handed out.
    pub const NONE: WorldTag = WorldTag(0);

    /// A tag no other world made in this process has (until 2³² worlds
    /// have been made), and one unlikely to match a world restored from
    /// another process's snapshot: the worlds count up from a starting
    /// point drawn at random once per process.
    pub(crate) fn fresh() -> Self {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        static START: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
        let start = *START.get_or_init(|| std::hash::RandomState::new().hash_one(0x6c61_6d69_u32) as u32);
        let count = NEXT.fetch_add(1, Ordering::Relaxed);
        match start.wrapping_add(count) {
            0 => WorldTag(start.wrapping_sub(1) | 1),
            tag => WorldTag(tag),
        }
    }

    /// The tag as a number (for snapshots and bindings).
    pub fn to_bits(self) -> u32 {
        self.0
    }

    /// A tag from [`WorldTag::to_bits`].
    pub fn from_bits(bits: u32) -> Self {
        WorldTag(bits)
    }
}

/// A key a world stamps with its [`WorldTag`].
pub trait WorldKey: Key {
    /// The world that handed the key out ([`WorldTag::NONE`] if none did).
    fn world(&self) -> WorldTag;
    /// The same slot and version, belonging to `world`.
    #[must_use]
    fn in_world(self, world: WorldTag) -> Self;
}

/// Whether `a` and `b` are one key of one world: `==` compares the slots
/// alone, as slotmap requires.
#[inline]
pub(crate) fn same_key<K: WorldKey>(a: K, b: K) -> bool {
    a == b && a.world() == b.world()
}

/// Declares key types that carry their world. Equality, order and hashing
/// are the slot's and version's alone, as slotmap's `Key` trait requires.
macro_rules! world_keys {
    ($($(#[$meta:meta])* $name:ident;)*) => {$(
        $(#[$meta])*
        #[derive(Clone, Copy, Default)]
        pub struct $name {
            data: KeyData,
            world: WorldTag,
        }

        impl From<KeyData> for $name {
            /// A key of no world: no world accepts it until it is stamped.
            fn from(data: KeyData) -> Self {
                Self { data, world: WorldTag::NONE }
            }
        }

        // SAFETY: `data` is returned exactly as it was given to `from`, and
        // equality, order and hashing below are `data`'s own, so the key
        // behaves in every respect as the `KeyData` it holds, which is what
        // the trait asks of an implementation.
        unsafe impl Key for $name {
            #[inline]
            fn data(&self) -> KeyData {
                self.data
            }
        }

        impl WorldKey for $name {
            #[inline]
            fn world(&self) -> WorldTag {
                self.world
            }
            #[inline]
            fn in_world(self, world: WorldTag) -> Self {
                Self { data: self.data, world }
            }
        }

        impl PartialEq for $name {
            #[inline]
            fn eq(&self, other: &Self) -> bool {
                self.data == other.data
            }
        }
        impl Eq for $name {}
        impl PartialOrd for $name {
            #[inline]
            fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }
        impl Ord for $name {
            #[inline]
            fn cmp(&self, other: &Self) -> std::cmp::Ordering {
                self.data.cmp(&other.data)
            }
        }
        impl Hash for $name {
            #[inline]
            fn hash<H: Hasher>(&self, state: &mut H) {
                self.data.hash(state)
            }
        }
        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({:?})", stringify!($name), self.data)
            }
        }

        #[cfg(feature = "serde")]
        impl serde::Serialize for $name {
            /// The slot and version, as slotmap writes a key: the world is
            /// not written, as a key is a world's handle, not data to keep
            /// beyond it (a snapshot keeps the world's tag once, and stamps
            /// its keys with it when read back).
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                self.data.serialize(serializer)
            }
        }
        #[cfg(feature = "serde")]
        impl<'de> serde::Deserialize<'de> for $name {
            /// A key of no world, until a world stamps it.
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                KeyData::deserialize(deserializer).map(Self::from)
            }
        }
    )*};
}

world_keys! {
    /// A handle to a body of a [`World`](crate::World); stays valid until
    /// the body is removed. Another world refuses it.
    BodyKey;
    /// A handle to a collider of a [`World`](crate::World). Another world
    /// refuses it.
    ColliderKey;
    /// A handle to a joint of a [`World`](crate::World); stays valid until
    /// the joint or one of its bodies is removed. Another world refuses it.
    JointKey;
    /// A handle to a chain of a [`World`](crate::World); stays valid until
    /// the chain or its body is removed. Another world refuses it.
    ChainKey;
}

/// A key kept without its tag, eight bytes, where the world it belongs to
/// is known from elsewhere (the map it is used with): in the records a
/// world keeps one of per contact or pair, and in the broad phase, whose
/// every proxy, pair and event would otherwise carry the same word again.
pub(crate) struct Untagged<K> {
    data: KeyData,
    key: std::marker::PhantomData<fn() -> K>,
}

impl<K> Clone for Untagged<K> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}
impl<K> Copy for Untagged<K> {}
impl<K> Default for Untagged<K> {
    fn default() -> Self {
        Self::from(KeyData::default())
    }
}
impl<K> PartialEq for Untagged<K> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.data == other.data
    }
}
impl<K> Eq for Untagged<K> {}
impl<K> PartialOrd for Untagged<K> {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<K> Ord for Untagged<K> {
    #[inline]
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.data.cmp(&other.data)
    }
}
impl<K> Hash for Untagged<K> {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.data.hash(state)
    }
}
impl<K> fmt::Debug for Untagged<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Untagged({:?})", self.data)
    }
}
impl<K> From<KeyData> for Untagged<K> {
    #[inline]
    fn from(data: KeyData) -> Self {
        Self { data, key: std::marker::PhantomData }
    }
}
// SAFETY: as for the world keys above: `data` comes back exactly as it was
// given, and equality, order and hashing are `data`'s own.
unsafe impl<K> Key for Untagged<K> {
    #[inline]
    fn data(&self) -> KeyData {
        self.data
    }
}

#[cfg(feature = "serde")]
impl<K> serde::Serialize for Untagged<K> {
    /// The slot and version, as slotmap writes them.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.data.serialize(serializer)
    }
}
#[cfg(feature = "serde")]
impl<'de, K> serde::Deserialize<'de> for Untagged<K> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        KeyData::deserialize(deserializer).map(Self::from)
    }
}

impl<K: WorldKey> Untagged<K> {
    /// `key` without its tag.
    #[inline]
    pub fn of(key: K) -> Self {
        Self { data: key.data(), key: std::marker::PhantomData }
    }

    /// The key again, belonging to `world`.
    #[inline]
    pub fn in_world(self, world: WorldTag) -> K {
        K::from(self.data).in_world(world)
    }
}

slotmap::new_key_type! {
    /// A handle to a contact (internal bookkeeping; never handed out).
    pub struct ContactKey;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn a_key_equals_its_slot_and_version_whatever_its_world() {
        let mut map = slotmap::SlotMap::<BodyKey, u8>::with_key();
        let key = map.insert(1);
        let (a, b) = (key.in_world(WorldTag(7)), key.in_world(WorldTag(9)));
        assert_eq!(a, b);
        assert_eq!(a.cmp(&b), std::cmp::Ordering::Equal);
        let hash =
            |k: BodyKey| std::hash::BuildHasherDefault::<std::hash::DefaultHasher>::default().hash_one(k);
        assert_eq!(hash(a), hash(b));
        assert_eq!(
            hash(a),
            std::hash::BuildHasherDefault::<std::hash::DefaultHasher>::default().hash_one(key.data())
        );
        assert_eq!((a.world(), b.world()), (WorldTag(7), WorldTag(9)));
        assert_eq!(map.get(b), Some(&1), "slotmap itself looks at the slot alone");
        assert!(BodyKey::default().is_null() && BodyKey::null().world() == WorldTag::NONE);
        assert_eq!(format!("{a:?}"), "BodyKey(1v1)");
    }

    #[test]
    fn fresh_tags_differ_and_are_never_none() {
        let tags: HashSet<WorldTag> = (0..10_000).map(|_| WorldTag::fresh()).collect();
        assert_eq!(tags.len(), 10_000);
        assert!(!tags.contains(&WorldTag::NONE));
    }
}
