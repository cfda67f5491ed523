//! The world's queries: ray casts, box, point and shape overlaps, and shape
//! casts, each searching the broad phase and testing the shapes it finds.
//! The filter they share and their hits are `query.rs`.

use lamina_geometry::{Aabb, Isometry, Point, Ray, Real, Shape, Vec2};

use crate::query::{QueryFilter, WorldRayHit, WorldShapeHit, check_box, check_pose, check_ray, nearer};
use crate::{Collider, ColliderKey, World, WorldError};

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
            let key = key.in_world(self.tag());
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
            let key = key.in_world(self.tag());
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
            let key = key.in_world(self.tag());
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
            let key = key.in_world(self.tag());
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
            let key = key.in_world(self.tag());
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
            let key = key.in_world(self.tag());
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
