//! Chains: strips and loops of one-sided segments that know their
//! neighbours, the way 2D games build terrain.
//!
//! A chain is a list of points on a body. Each pair of consecutive points
//! becomes a collider of shape [`Shape::chain_segment`], solid on its right
//! side looking from one point to the next (a loop listed clockwise holds
//! bodies inside it), which knows the points before and after it (its ghost
//! vertices) so that a shape sliding across a seam sees one flat surface (see
//! `lamina_narrowphase::pairs::collide_chain_segment`). The ends of an open
//! chain are true corners. The colliders are ordinary ones: queries hit them,
//! contacts and events name them; the chain only adds and removes them
//! together.

use lamina_geometry::tolerance::{LINEAR_SLOP, MAX_SHAPE_SIZE};
use lamina_geometry::{Point, Real, Shape};

use crate::collider::MAX_COEFFICIENT;
use crate::{BodyKey, ColliderKey, CollisionFilter, WorldError};

/// The description of a chain to add:
/// `ChainDesc::new(&points).closed(true).friction(0.4)`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChainDesc {
    /// The points, in the body's frame. Each segment is solid on its right
    /// looking from one point to the next.
    pub points: Vec<Point>,
    /// Joins the last point back to the first. Default false.
    pub closed: bool,
    /// Coulomb friction coefficient of every segment. Default 0.6.
    pub friction: Real,
    /// Restitution of every segment. Default 0.
    pub restitution: Real,
    /// Collision filter of every segment. Default: collides with everything.
    pub filter: CollisionFilter,
    /// Free for the user, copied to every segment's collider.
    pub user_data: u64,
}

impl ChainDesc {
    /// An open chain through `points` (in the body's frame), friction 0.6.
    pub fn new(points: &[Point]) -> Self {
        Self {
            points: points.to_vec(),
            closed: false,
            friction: 0.6,
            restitution: 0.0,
            filter: CollisionFilter::default(),
            user_data: 0,
        }
    }

    /// Makes the chain a loop (or an open strip).
    pub fn closed(mut self, closed: bool) -> Self {
        self.closed = closed;
        self
    }

    /// Sets the friction coefficient.
    pub fn friction(mut self, friction: Real) -> Self {
        self.friction = friction;
        self
    }

    /// Sets the restitution.
    pub fn restitution(mut self, restitution: Real) -> Self {
        self.restitution = restitution;
        self
    }

    /// Sets the collision filter.
    pub fn filter(mut self, filter: CollisionFilter) -> Self {
        self.filter = filter;
        self
    }

    /// Attaches user data to every segment.
    pub fn user_data(mut self, data: u64) -> Self {
        self.user_data = data;
        self
    }

    /// Checks the points and the material: at least two points (three for a
    /// loop), all finite, each more than the linear slop from the one before
    /// it (and, in a loop, the last from the first).
    pub fn validate(&self) -> Result<(), WorldError> {
        let needed = if self.closed { 3 } else { 2 };
        if self.points.len() < needed {
            return Err(WorldError::TooFewChainPoints { count: self.points.len(), needed });
        }
        for (index, p) in self.points.iter().enumerate() {
            if !(p.x.is_finite() && p.y.is_finite()) {
                return Err(WorldError::InvalidChainPoint { index, x: p.x, y: p.y, reason: "not finite" });
            }
            // Each segment is a shape in the body's frame, bounded like any other.
            if p.coords.norm() > MAX_SHAPE_SIZE {
                let reason = "farther from the body's origin than MAX_SHAPE_SIZE";
                return Err(WorldError::InvalidChainPoint { index, x: p.x, y: p.y, reason });
            }
        }
        let n = self.points.len();
        let pairs = if self.closed { n } else { n - 1 };
        for i in 0..pairs {
            let (p, q) = (self.points[i], self.points[(i + 1) % n]);
            if (q - p).norm() <= LINEAR_SLOP {
                let index = (i + 1) % n;
                return Err(WorldError::InvalidChainPoint {
                    index,
                    x: q.x,
                    y: q.y,
                    reason: "repeats the point before it",
                });
            }
        }
        let check = |name: &'static str, value: Real| {
            if (0.0..=MAX_COEFFICIENT).contains(&value) {
                Ok(())
            } else {
                Err(WorldError::InvalidColliderProperty { name, value })
            }
        };
        check("friction", self.friction)?;
        check("restitution", self.restitution)
    }

    /// The shape of segment `i` (from point `i` to the next), with its ghosts.
    pub(crate) fn segment(&self, i: usize) -> Shape {
        let (n, p) = (self.points.len(), &self.points);
        let next = (i + 1) % n;
        let (prev, after) = if self.closed {
            (Some(p[(i + n - 1) % n]), Some(p[(next + 1) % n]))
        } else {
            ((i > 0).then(|| p[i - 1]), (next + 1 < n).then(|| p[next + 1]))
        };
        Shape::chain_segment(p[i], p[next], prev, after)
    }

    /// How many segments the chain has.
    pub(crate) fn segment_count(&self) -> usize {
        if self.closed { self.points.len() } else { self.points.len() - 1 }
    }
}

/// A chain of a [`World`](crate::World): its body and its segments' colliders, in order.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Chain {
    pub(crate) body: BodyKey,
    pub(crate) colliders: Vec<ColliderKey>,
    pub(crate) closed: bool,
}

impl Chain {
    /// The body the chain belongs to.
    pub fn body(&self) -> BodyKey {
        self.body
    }

    /// The segments' colliders, from the first point on.
    pub fn colliders(&self) -> &[ColliderKey] {
        &self.colliders
    }

    /// True for a loop.
    pub fn is_closed(&self) -> bool {
        self.closed
    }
}
