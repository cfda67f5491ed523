//! Asking the world: ray casts, box, point and shape overlap tests, and shape
//! casts over every collider, each through the broad phase.
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

use lamina_geometry::{Aabb, Isometry, Point, Ray, Real, Shape, Vec2};

use crate::{BodyKey, BodyKind, Collider, ColliderKey, CollisionFilter, World, WorldError};

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
        !excluded_kind
            && self.exclude_body != Some(collider.body)
            && self.exclude_collider != Some(key)
            && !(self.exclude_sensors && collider.sensor)
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
fn check_ray(ray: &Ray, max_toi: Real) -> Result<(), WorldError> {
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
fn check_pose(pose: &Isometry) -> Result<(), WorldError> {
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
fn nearer(best: &Option<(ColliderKey, Real)>, key: ColliderKey, toi: Real) -> bool {
    best.is_none_or(|(k, t)| toi < t || (toi == t && key < k))
}

impl World {
    /// A collider's world pose.
    fn collider_pose(&self, c: &Collider) -> Isometry {
        self.bodies[c.body].pose * c.local_pose
    }

    /// The collider of `key` if the filter passes it.
    fn filtered(&self, key: ColliderKey, filter: &QueryFilter) -> Option<&Collider> {
        let c = self.colliders.get(key)?;
        filter.passes(key, c, self.bodies[c.body].kind).then_some(c)
    }

    /// The closest collider the ray hits within `max_toi` (in units of
    /// `ray.dir`; may be infinite), or `None`; `None` too for a bad ray (see
    /// [`World::try_cast_ray`]).
    pub fn cast_ray(&self, ray: &Ray, max_toi: Real, filter: &QueryFilter) -> Option<WorldRayHit> {
        self.try_cast_ray(ray, max_toi, filter).ok().flatten()
    }

    /// [`World::cast_ray`], refusing a ray with a non-finite origin, a zero or
    /// non-finite direction, or a NaN or negative `max_toi`.
    pub fn try_cast_ray(
        &self,
        ray: &Ray,
        max_toi: Real,
        filter: &QueryFilter,
    ) -> Result<Option<WorldRayHit>, WorldError> {
        check_ray(ray, max_toi)?;
        let mut best: Option<(ColliderKey, Real)> = None;
        let mut normal = Vec2::zeros();
        let _ = self.broad_phase.all().cast_ray_with(ray, max_toi, |key, _| {
            let reach = best.map_or(max_toi, |b| b.1);
            if let Some(c) = self.filtered(key, filter)
                && let Some(hit) = c.shape.cast_ray(&self.collider_pose(c), ray, reach)
                && nearer(&best, key, hit.toi)
            {
                best = Some((key, hit.toi));
                normal = hit.normal;
            }
            best.map_or(max_toi, |b| b.1)
        });
        Ok(best.map(|(collider, toi)| WorldRayHit {
            collider,
            body: self.colliders[collider].body,
            toi,
            point: ray.point_at(toi),
            normal,
        }))
    }

    /// Fills `out` with every collider the ray hits within `max_toi`, nearest
    /// first (equal ones by key). Leaves `out` empty for a bad ray (see
    /// [`World::try_cast_ray_all`]).
    pub fn cast_ray_all(&self, ray: &Ray, max_toi: Real, filter: &QueryFilter, out: &mut Vec<WorldRayHit>) {
        if self.try_cast_ray_all(ray, max_toi, filter, out).is_err() {
            out.clear();
        }
    }

    /// [`World::cast_ray_all`], refusing a bad ray as [`World::try_cast_ray`]
    /// does (and leaving `out` untouched then).
    pub fn try_cast_ray_all(
        &self,
        ray: &Ray,
        max_toi: Real,
        filter: &QueryFilter,
        out: &mut Vec<WorldRayHit>,
    ) -> Result<(), WorldError> {
        check_ray(ray, max_toi)?;
        out.clear();
        let _ = self.broad_phase.all().cast_ray_with(ray, max_toi, |key, _| {
            if let Some(c) = self.filtered(key, filter)
                && let Some(hit) = c.shape.cast_ray(&self.collider_pose(c), ray, max_toi)
            {
                out.push(WorldRayHit {
                    collider: key,
                    body: c.body,
                    toi: hit.toi,
                    point: ray.point_at(hit.toi),
                    normal: hit.normal,
                });
            }
            max_toi
        });
        out.sort_unstable_by(|a, b| a.toi.total_cmp(&b.toi).then(a.collider.cmp(&b.collider)));
        Ok(())
    }

    /// Fills `out` with the colliders whose shape's bounds (tight, at the
    /// current pose) overlap or touch `aabb`, in key order. Leaves `out`
    /// empty for a non-finite or inverted box.
    pub fn query_aabb(&self, aabb: &Aabb, filter: &QueryFilter, out: &mut Vec<ColliderKey>) {
        if self.try_query_aabb(aabb, filter, out).is_err() {
            out.clear();
        }
    }

    /// [`World::query_aabb`], refusing a non-finite or inverted box (and
    /// leaving `out` untouched then).
    pub fn try_query_aabb(
        &self,
        aabb: &Aabb,
        filter: &QueryFilter,
        out: &mut Vec<ColliderKey>,
    ) -> Result<(), WorldError> {
        check_box(aabb)?;
        out.clear();
        let _ = self.broad_phase.all().query_with(aabb, |key| {
            if let Some(c) = self.filtered(key, filter)
                && c.shape.aabb(&self.collider_pose(c)).intersects(aabb)
            {
                out.push(key);
            }
        });
        out.sort_unstable();
        Ok(())
    }

    /// Fills `out` with the colliders whose shape contains `point` (its
    /// boundary included), in key order. Leaves `out` empty for a non-finite
    /// point.
    pub fn query_point(&self, point: Point, filter: &QueryFilter, out: &mut Vec<ColliderKey>) {
        if self.try_query_point(point, filter, out).is_err() {
            out.clear();
        }
    }

    /// [`World::query_point`], refusing a non-finite point (and leaving `out`
    /// untouched then).
    pub fn try_query_point(
        &self,
        point: Point,
        filter: &QueryFilter,
        out: &mut Vec<ColliderKey>,
    ) -> Result<(), WorldError> {
        for (name, v) in [("point.x", point.x), ("point.y", point.y)] {
            if !v.is_finite() {
                return Err(WorldError::InvalidQuery { name, value: v });
            }
        }
        out.clear();
        let _ = self.broad_phase.all().query_with(&Aabb::new(point, point), |key| {
            if let Some(c) = self.filtered(key, filter)
                && c.shape.contains_point(&self.collider_pose(c), &point)
            {
                out.push(key);
            }
        });
        out.sort_unstable();
        Ok(())
    }

    /// Fills `out` with the colliders that overlap or touch `shape` at `pose`,
    /// in key order. Leaves `out` empty for a bad shape or pose.
    pub fn overlap_shape(
        &self,
        shape: &Shape,
        pose: &Isometry,
        filter: &QueryFilter,
        out: &mut Vec<ColliderKey>,
    ) {
        if self.try_overlap_shape(shape, pose, filter, out).is_err() {
            out.clear();
        }
    }

    /// [`World::overlap_shape`], refusing a bad shape (as
    /// [`Shape::validate`] does) or a non-finite or non-unit pose (and
    /// leaving `out` untouched then).
    pub fn try_overlap_shape(
        &self,
        shape: &Shape,
        pose: &Isometry,
        filter: &QueryFilter,
        out: &mut Vec<ColliderKey>,
    ) -> Result<(), WorldError> {
        shape.validate()?;
        check_pose(pose)?;
        let bounds = shape.aabb(pose);
        check_box(&bounds)?;
        out.clear();
        let _ = self.broad_phase.all().query_with(&bounds, |key| {
            if let Some(c) = self.filtered(key, filter)
                && lamina_narrowphase::intersects(shape, pose, &c.shape, &self.collider_pose(c))
            {
                out.push(key);
            }
        });
        out.sort_unstable();
        Ok(())
    }

    /// The first collider that `shape`, starting at `pose` and moving by
    /// `velocity` per unit of time (no rotation), touches within `max_toi`
    /// units; `None` if it meets none, and for bad input (see
    /// [`World::try_cast_shape`]). A shape that starts touching a collider
    /// hits it at `toi = 0`.
    pub fn cast_shape(
        &self,
        shape: &Shape,
        pose: &Isometry,
        velocity: Vec2,
        max_toi: Real,
        filter: &QueryFilter,
    ) -> Option<WorldShapeHit> {
        self.try_cast_shape(shape, pose, velocity, max_toi, filter).ok().flatten()
    }

    /// [`World::cast_shape`], refusing a bad shape, a non-finite or non-unit
    /// pose, a non-finite velocity, or a `max_toi` that is negative or not
    /// finite.
    pub fn try_cast_shape(
        &self,
        shape: &Shape,
        pose: &Isometry,
        velocity: Vec2,
        max_toi: Real,
        filter: &QueryFilter,
    ) -> Result<Option<WorldShapeHit>, WorldError> {
        shape.validate()?;
        check_pose(pose)?;
        for (name, v) in [("velocity.x", velocity.x), ("velocity.y", velocity.y)] {
            if !v.is_finite() {
                return Err(WorldError::InvalidQuery { name, value: v });
            }
        }
        if !(max_toi.is_finite() && max_toi >= 0.0) {
            return Err(WorldError::InvalidQuery { name: "max_toi", value: max_toi });
        }
        let start = shape.aabb(pose);
        let motion = velocity * max_toi;
        let swept = start.merged(&Aabb::new(start.mins + motion, start.maxs + motion));
        check_box(&swept)?;
        let mut best: Option<(ColliderKey, lamina_narrowphase::Toi)> = None;
        let _ = self.broad_phase.all().query_with(&swept, |key| {
            let Some(c) = self.filtered(key, filter) else { return };
            let reach = best.map_or(max_toi, |(_, t)| t.time);
            let still = Vec2::zeros();
            let pose_c = self.collider_pose(c);
            if let Some(toi) =
                lamina_narrowphase::cast_shape(shape, pose, &velocity, &c.shape, &pose_c, &still, reach)
            {
                let current = best.map(|(k, t)| (k, t.time));
                if nearer(&current, key, toi.time) {
                    best = Some((key, toi));
                }
            }
        });
        Ok(best.map(|(collider, toi)| WorldShapeHit {
            collider,
            body: self.colliders[collider].body,
            toi: toi.time,
            point: toi.point_b,
            normal: -toi.normal,
        }))
    }
}

/// Checks a query box: finite, not inverted.
fn check_box(aabb: &Aabb) -> Result<(), WorldError> {
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
