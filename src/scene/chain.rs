//! A scene file's chains: strips and loops of one-sided segments on a body,
//! every field but the points optional with [`ChainDesc::new`]'s defaults.

use lamina_dynamics::ChainDesc;
use lamina_geometry::{Point, Real};
use serde::Deserialize;

use super::collider::SceneFilter;
use super::shape::point;

/// A chain of a scene file ([`ChainDesc`]). Each segment is solid on its
/// right side looking from one point to the next: a floor is listed right to
/// left, a loop that holds bodies in clockwise.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneChain {
    /// The points, `[x, y]` in the body's frame, m: at least two, three for a loop.
    pub points: Vec<[Real; 2]>,
    /// Joins the last point back to the first. Default false.
    #[serde(default = "defaults::closed")]
    pub closed: bool,
    /// Coulomb friction coefficient of every segment. Default 0.6.
    #[serde(default = "defaults::friction")]
    pub friction: Real,
    /// Restitution of every segment. Default 0.
    #[serde(default = "defaults::restitution")]
    pub restitution: Real,
    /// Which colliders the segments may touch. Default: all.
    #[serde(default)]
    pub filter: SceneFilter,
    /// Free for the user, copied to every segment's collider.
    #[serde(default = "defaults::user_data")]
    pub user_data: u64,
}

impl SceneChain {
    /// The engine's description of the chain; [`World::add_chain`](lamina_dynamics::World::add_chain)
    /// checks it.
    pub fn desc(&self) -> ChainDesc {
        let points: Vec<Point> = self.points.iter().copied().map(point).collect();
        ChainDesc::new(&points)
            .closed(self.closed)
            .friction(self.friction)
            .restitution(self.restitution)
            .filter(self.filter.to_filter())
            .user_data(self.user_data)
    }
}

/// The values of a field left out: [`ChainDesc::new`]'s, read from it.
mod defaults {
    use super::*;

    /// `ChainDesc::new`'s description; the points play no part in the defaults.
    fn plain() -> ChainDesc {
        ChainDesc::new(&[])
    }

    pub fn closed() -> bool {
        plain().closed
    }

    pub fn friction() -> Real {
        plain().friction
    }

    pub fn restitution() -> Real {
        plain().restitution
    }

    pub fn user_data() -> u64 {
        plain().user_data
    }
}
