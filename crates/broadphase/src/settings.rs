//! The tunable numbers of a [`SweepAndPrune`](crate::SweepAndPrune): its
//! settings with their defaults, and the margin of proxies that can pair with
//! nothing present.

use lamina_geometry::tolerance::AABB_MARGIN;
use lamina_geometry::{Aabb, Real};

/// Default side of a region, in metres. Lamina is tuned for objects of 0.1 m to
/// 10 m; a region of 16 m holds the largest of them (fat box included) within
/// 2 × 2 regions, while a region of densely packed 1 m boxes still holds only a
/// few hundred, of which a query scans a thin slice.
pub const DEFAULT_REGION_SIZE: Real = 16.0;

/// The tunable numbers of a [`SweepAndPrune`](crate::SweepAndPrune).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BroadPhaseSettings {
    /// How far, in metres, a fat box extends beyond the tight box on every side.
    /// A body that moves less than this since its proxy last moved costs nothing.
    /// Larger margins mean fewer proxy moves but more pairs for the narrow phase.
    pub margin: Real,
    /// Side of a grid region, in metres. Proxies bigger than about one region skip
    /// the grid and are checked against every query directly, so pick a size above
    /// that of all but a few objects (the ground, walls).
    pub region_size: Real,
}

impl Default for BroadPhaseSettings {
    fn default() -> Self {
        Self { margin: AABB_MARGIN, region_size: DEFAULT_REGION_SIZE }
    }
}

/// How many times the margin a proxy gets whose filter accepts some
/// categories but none of those present (the links of a chain or a grid that
/// never collide with each other): it makes no pair, so its box costs nothing
/// to grow, and a larger box is left less often. Queries read such proxies
/// with a few more candidates. The larger margin stops where the box would
/// grow past a quarter of a region on a side (never below the plain margin):
/// a box that long leaves the grid for the list of large proxies, which every
/// query and every moved proxy reads. A proxy that accepts no category at all
/// (an index kept only for queries) keeps the plain margin: there, only
/// queries read the boxes.
pub const LONELY_MARGIN_SCALE: Real = 25.0;

/// The margin of a proxy that can pair with nothing present, around the
/// tight box `tight`: [`LONELY_MARGIN_SCALE`] times the plain margin, but
/// no more than leaves the fat box's longer side nine tenths of the way to
/// `limit` (the longest side the grid keeps), and never less than the plain
/// margin.
pub(crate) fn lonely_margin(plain: Real, tight: &Aabb, limit: Real) -> Real {
    let side = (tight.maxs.x - tight.mins.x).max(tight.maxs.y - tight.mins.y);
    (plain * LONELY_MARGIN_SCALE).min(0.45 * (limit - side)).max(plain)
}
