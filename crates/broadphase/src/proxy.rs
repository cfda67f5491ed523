//! Proxies: what the broad phase stores per key.
//!
//! Proxies live in a `Vec` indexed by a dense `u32` id, with a free list, so that
//! the hot loops index arrays instead of hashing the caller's keys. Ids are reused
//! last-freed-first; since every output is ordered by key, reuse never shows.

use crate::cell::CellRange;
use lamina_geometry::Aabb;

/// Where a key's proxy is kept inside a [`SweepAndPrune`](crate::SweepAndPrune):
/// remembered by a caller that moves the same proxies step after step, it
/// spares [`SweepAndPrune::refit_hinted`](crate::SweepAndPrune::refit_hinted)
/// the lookup of the key, a cache miss of its own in a large world. A hint is
/// only ever a guess: a stale one (its proxy removed, its slot given to
/// another key) or [`ProxyHint::NONE`] costs the lookup and nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ProxyHint(pub(crate) u32);

impl ProxyHint {
    /// No guess: the key is looked up.
    pub const NONE: ProxyHint = ProxyHint(u32::MAX);
}

impl Default for ProxyHint {
    fn default() -> Self {
        ProxyHint::NONE
    }
}

/// Where a proxy is registered.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) enum Placement {
    /// Not registered anywhere (a free slot).
    Detached,
    /// In the regions of `range`: `regions[..count]`, in the row-by-row order of
    /// [`CellRange::cells`]. `hints[k]` is where the proxy's entry was last seen in
    /// the sorted array of `regions[k]`: a guess that saves a binary search when it
    /// is right or nearly right, and costs nothing but the search when it is not.
    Grid { range: CellRange, regions: [u32; 4], hints: [u32; 4], count: u8 },
    /// In the list of proxies too large for the grid, at index `slot`.
    Large { slot: u32 },
}

/// One proxy.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Proxy<K> {
    /// The caller's key (stale in a free slot).
    pub(crate) key: K,
    /// The fat box: the tight box grown by the margin (or the larger one of a
    /// proxy that can pair with nothing present) when it was last moved. Pairs
    /// and queries are defined over this box.
    pub(crate) fat: Aabb,
    pub(crate) placement: Placement,
    /// False for a slot on the free list.
    pub(crate) live: bool,
    /// Which proxies it may pair with.
    pub(crate) filter: PairFilter,
}

/// Which proxies a proxy pairs with: two proxies pair only when each one's
/// category shares a bit with the other's mask. Queries ignore filters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PairFilter {
    /// The bits the proxy is.
    pub category: u32,
    /// The bits the proxy pairs with.
    pub mask: u32,
}

impl PairFilter {
    /// Pairs with everything.
    pub const ALL: PairFilter = PairFilter { category: u32::MAX, mask: u32::MAX };

    /// Whether this filter pairs with every filter that pairs with anything:
    /// it has a category, and its mask has every bit.
    #[inline]
    pub fn is_universal(&self) -> bool {
        self.category != 0 && self.mask == u32::MAX
    }

    /// Whether proxies with these filters pair.
    #[inline]
    pub fn accepts(&self, other: &PairFilter) -> bool {
        self.category & other.mask != 0 && other.category & self.mask != 0
    }
}

impl Default for PairFilter {
    fn default() -> Self {
        Self::ALL
    }
}
