//! What the world's queries share: [`QueryFilter`], their hits and the checks
//! of their input. The queries themselves (ray casts, box, point and shape
//! overlap tests, and shape casts over every collider, each through the broad
//! phase) are `world/queries.rs`.
//!
//! Every query first narrows the colliders down to those whose broad-phase box
//! the query meets, then tests their shapes exactly. The broad phase's boxes
//! hold each collider at its current pose (they are refreshed whenever a pose
//! changes), so no collider is missed. The closest-hit ray walks the broad
//! phase from the ray's origin outwards and stops soon after its first hit.
//! Results go into the caller's buffer, cleared first; none of the queries
//! allocates.
//!
//! Each query has a form that returns [`WorldError`] for bad input (a
//! non-finite ray, a negative reach, a bad shape) and one, named in the
//! public contract, that answers "nothing" instead.

use lamina_geometry::{Aabb, Isometry, Point, Ray, Real, Vec2};

use crate::keys::same_key;
use crate::{BodyKey, BodyKind, Collider, ColliderKey, CollisionFilter, WorldError};

/// A caller's test of a collider: report it or not.
pub type QueryPredicate<'a> = &'a dyn Fn(ColliderKey, &Collider) -> bool;

/// Which colliders a query may report. The default passes every collider;
/// each builder narrows it:
/// `QueryFilter::default().exclude_body(player).exclude_sensors()`.
#[derive(Clone, Copy, Default)]
pub struct QueryFilter<'a> {
    exclude_body: Option<BodyKey>,
    exclude_collider: Option<ColliderKey>,
    exclude_sensors: bool,
    exclude_fixed: bool,
    exclude_kinematic: bool,
    exclude_dynamic: bool,
    groups: Option<CollisionFilter>,
    predicate: Option<QueryPredicate<'a>>,
}

impl std::fmt::Debug for QueryFilter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueryFilter")
            .field("exclude_body", &self.exclude_body)
            .field("exclude_collider", &self.exclude_collider)
            .field("exclude_sensors", &self.exclude_sensors)
            .field("exclude_fixed", &self.exclude_fixed)
            .field("exclude_kinematic", &self.exclude_kinematic)
            .field("exclude_dynamic", &self.exclude_dynamic)
            .field("groups", &self.groups)
            .field("predicate", &self.predicate.is_some())
            .finish()
    }
}

impl<'a> QueryFilter<'a> {
    /// Skips every collider of `body` (a character's own shapes, say).
    pub fn exclude_body(mut self, body: BodyKey) -> Self {
        self.exclude_body = Some(body);
        self
    }

    /// Skips one collider.
    pub fn exclude_collider(mut self, collider: ColliderKey) -> Self {
        self.exclude_collider = Some(collider);
        self
    }

    /// Skips sensors.
    pub fn exclude_sensors(mut self) -> Self {
        self.exclude_sensors = true;
        self
    }

    /// Skips colliders of fixed bodies.
    pub fn exclude_fixed(mut self) -> Self {
        self.exclude_fixed = true;
        self
    }

    /// Skips colliders of kinematic bodies.
    pub fn exclude_kinematic(mut self) -> Self {
        self.exclude_kinematic = true;
        self
    }

    /// Skips colliders of dynamic bodies.
    pub fn exclude_dynamic(mut self) -> Self {
        self.exclude_dynamic = true;
        self
    }

    /// Reports only colliders that a collider with `filter` would collide
    /// with, by [`CollisionFilter::should_collide`]: the query acts as a
    /// shape of that category, mask and group.
    pub fn groups(mut self, filter: CollisionFilter) -> Self {
        self.groups = Some(filter);
        self
    }

    /// Reports only colliders for which `predicate` returns true. It is
    /// called last, after every other test has passed.
    pub fn predicate(mut self, predicate: QueryPredicate<'a>) -> Self {
        self.predicate = Some(predicate);
        self
    }

    /// True when the filter passes `collider` (of a body of `kind`).
    pub(crate) fn passes(&self, key: ColliderKey, collider: &Collider, kind: BodyKind) -> bool {
        let excluded_kind = match kind {
            BodyKind::Fixed => self.exclude_fixed,
            BodyKind::Kinematic => self.exclude_kinematic,
            BodyKind::Dynamic => self.exclude_dynamic,
        };
        let excluded_key = self.exclude_body.is_some_and(|b| same_key(b, collider.body))
            || self.exclude_collider.is_some_and(|c| same_key(c, key));
        let excluded = excluded_kind || excluded_key || (self.exclude_sensors && collider.sensor);
        !excluded
            && self.groups.is_none_or(|g| g.should_collide(&collider.filter))
            && self.predicate.is_none_or(|p| p(key, collider))
    }
}

/// Where a ray met a collider.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldRayHit {
    /// The collider hit.
    pub collider: ColliderKey,
    /// The body the collider is attached to.
    pub body: BodyKey,
    /// The ray parameter of the hit, in units of the ray's direction: the
    /// point is `origin + dir * toi`. 0 for a ray that starts inside.
    pub toi: Real,
    /// The hit point, world frame.
    pub point: Point,
    /// The collider's outward unit normal there (against the ray for a ray
    /// that starts inside).
    pub normal: Vec2,
}

/// Where a moving shape first met a collider.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldShapeHit {
    /// The collider hit.
    pub collider: ColliderKey,
    /// The body the collider is attached to.
    pub body: BodyKey,
    /// The fraction of the motion, in units of the velocity: the shape is at
    /// `pose` moved by `velocity * toi` when it touches. 0 when it starts
    /// touching.
    pub toi: Real,
    /// The contact point on the collider, world frame.
    pub point: Point,
    /// The collider's outward unit normal there, towards the moving shape.
    pub normal: Vec2,
}

/// Checks that a ray can be cast up to `max_toi`.
pub(crate) fn check_ray(ray: &Ray, max_toi: Real) -> Result<(), WorldError> {
    let bad = |name, value| Err(WorldError::InvalidQuery { name, value });
    for (name, v) in [("ray origin.x", ray.origin.x), ("ray origin.y", ray.origin.y)] {
        if !v.is_finite() {
            return bad(name, v);
        }
    }
    if !ray.is_castable() {
        return bad("ray direction length", ray.dir.norm());
    }
    if max_toi.is_nan() || max_toi < 0.0 {
        return bad("max_toi", max_toi);
    }
    Ok(())
}

/// Checks a query pose: finite, with a unit rotation.
pub(crate) fn check_pose(pose: &Isometry) -> Result<(), WorldError> {
    let t = pose.translation.vector;
    for (name, v) in [("pose.x", t.x), ("pose.y", t.y)] {
        if !v.is_finite() {
            return Err(WorldError::InvalidQuery { name, value: v });
        }
    }
    lamina_geometry::validate_rotation(&pose.rotation)
        .map_err(|value| WorldError::InvalidQuery { name: "pose.rotation", value })
}

/// Keeps the better of two hits: the nearer, and of equal ones the lower key,
/// so that the answer does not depend on the order candidates come in.
pub(crate) fn nearer(best: &Option<(ColliderKey, Real)>, key: ColliderKey, toi: Real) -> bool {
    best.is_none_or(|(k, t)| toi < t || (toi == t && key < k))
}

/// Checks a query box: finite, not inverted.
pub(crate) fn check_box(aabb: &Aabb) -> Result<(), WorldError> {
    for (name, v) in [("aabb.mins.x", aabb.mins.x), ("aabb.mins.y", aabb.mins.y)] {
        if !v.is_finite() {
            return Err(WorldError::InvalidQuery { name, value: v });
        }
    }
    for (name, v) in [("aabb.maxs.x", aabb.maxs.x), ("aabb.maxs.y", aabb.maxs.y)] {
        if !v.is_finite() {
            return Err(WorldError::InvalidQuery { name, value: v });
        }
    }
    if aabb.mins.x > aabb.maxs.x {
        return Err(WorldError::InvalidQuery { name: "aabb width", value: aabb.maxs.x - aabb.mins.x });
    }
    if aabb.mins.y > aabb.maxs.y {
        return Err(WorldError::InvalidQuery { name: "aabb height", value: aabb.maxs.y - aabb.mins.y });
    }
    Ok(())
}
