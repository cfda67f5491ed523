//! The world's queries for a character mover, as Box2D v3.1's
//! `b2World_CastMover` and `b2World_CollideMover`: how far a capsule or a
//! circle can travel, and the planes of what it touches now. The plane
//! solver that joins them into a character's move is `mover.rs`; the loop is
//! shown in `docs/gameplay.md`.
//!
//! A mover is a shape the game moves itself, given in world coordinates. Both
//! queries work relative to the mover's centre (the middle of its core): each
//! collider's pose is moved into that frame once, so that a character tens of
//! kilometres from the origin is measured as precisely as one near it. Both
//! skip sensors, whatever the filter says, as Box2D's mover queries do: a
//! sensor is not something to stand on.

use lamina_geometry::tolerance::{LINEAR_SLOP, MAX_SHAPE_SIZE};
use lamina_geometry::{Aabb, Isometry, Point, Real, Shape, Vec2};
use lamina_narrowphase::gjk::gjk_distance;
use lamina_narrowphase::shape_core::Core;

use crate::mover::CollisionPlane;
use crate::query::{QueryFilter, check_box};
use crate::{Collider, ColliderKey, World, WorldError};

/// The iteration cap of a mover's cast against one collider (conservative
/// advancement), as Box2D's shape cast. A straight sweep against a polygon
/// arrives in two or three; at the cap the cast stops where it got to, which
/// is always safe.
const MOVER_CAST_MAX_ITERATIONS: usize = 20;

/// A mover checked and placed relative to its own centre.
struct Mover {
    /// The middle of the core, world frame: the frame every test runs in.
    origin: Point,
    /// The core's end points relative to `origin` (equal for a circle).
    p1: Point,
    p2: Point,
    radius: Real,
    /// The mover as a shape in the relative frame (a circle, centred, for
    /// a core of no length).
    shape: Shape,
}

impl Mover {
    /// The mover of `shape`, or why it cannot be one.
    fn of(shape: &Shape) -> Result<Self, WorldError> {
        let (a, b, radius) = match shape {
            Shape::Capsule(c) => (c.a, c.b, c.radius),
            Shape::Circle(c) => (Point::origin(), Point::origin(), c.radius),
            other => return Err(WorldError::WrongMoverShape { kind: other.kind_name() }),
        };
        let bad = |name, value| Err(WorldError::InvalidMover { name, value });
        for (name, v) in [("center1.x", a.x), ("center1.y", a.y), ("center2.x", b.x), ("center2.y", b.y)] {
            if !v.is_finite() {
                return bad(name, v);
            }
        }
        // Box2D asks for more than two slops: the cast aims a slop inside
        // and must still be outside the core.
        if !(radius.is_finite() && radius > 2.0 * LINEAR_SLOP && radius <= MAX_SHAPE_SIZE) {
            return bad("radius", radius);
        }
        let half = (b - a) * 0.5;
        let length = 2.0 * half.norm();
        if !(length.is_finite() && length <= MAX_SHAPE_SIZE) {
            return bad("length", length);
        }
        let origin = a + half;
        let (p1, p2) = (Point::from(-half), Point::from(half));
        let shape =
            if half == Vec2::zeros() { Shape::circle(radius) } else { Shape::capsule(p1, p2, radius) };
        let mover = Self { origin, p1, p2, radius, shape };
        // Finite centres and radius whose sums overflow: out of reach.
        if check_box(&mover.bounds()).is_err() {
            let reach = a.x.abs().max(a.y.abs()).max(b.x.abs()).max(b.y.abs()) + radius;
            return bad("reach (centre coordinate plus radius)", reach);
        }
        Ok(mover)
    }

    /// The mover's world bounds.
    fn bounds(&self) -> Aabb {
        let (a, b) = (self.origin + self.p1.coords, self.origin + self.p2.coords);
        Aabb::new(a.inf(&b), a.sup(&b)).loosened(self.radius)
    }
}

/// The core of the mover with its end points at `p1` and `p2`.
fn core_of(p1: Point, p2: Point) -> Core<'static> {
    if p1 == p2 { Core::Point(p1) } else { Core::Segment(p1, p2) }
}

impl World {
    /// The collider of `key`, if the filter passes it and it is not a sensor.
    fn mover_candidate(&self, key: ColliderKey, filter: &QueryFilter) -> Option<&Collider> {
        let c = self.colliders.get(key)?;
        (!c.sensor && filter.passes(key, c, self.bodies[c.body].kind)).then_some(c)
    }

    /// The collider's pose relative to `origin`.
    fn pose_relative_to(&self, c: &Collider, origin: &Point) -> Isometry {
        let pose = self.bodies[c.body].pose * c.local_pose;
        Isometry::from_parts((pose.translation.vector - origin.coords).into(), pose.rotation)
    }

    /// The fraction of `translation` that `mover` (a capsule or a circle,
    /// world frame) can travel before it would sink more than
    /// [`LINEAR_SLOP`] into a collider, in `[0, 1]`, as Box2D's
    /// `b2World_CastMover`. 0 for bad input (see [`World::try_cast_mover`]):
    /// a mover that cannot be swept stays where it is rather than passing
    /// through whatever lies ahead.
    ///
    /// A collider the mover already overlaps deeply (its core within two
    /// slops of the collider) is ignored: the planes of
    /// [`World::collide_mover`] push the mover out of it. One it touches or
    /// overlaps a little is allowed a slop more ("encroaching"), so that a
    /// mover resting on the ground can still slide along it. Sensors are
    /// skipped; a one-sided chain segment stops only a mover whose centre
    /// starts on its solid side.
    ///
    /// A circle mover is `Shape::circle(r)` (at the world origin, as a shape
    /// in world coordinates is) or, anywhere, a capsule whose two centres
    /// are one point.
    pub fn cast_mover(&self, mover: &Shape, translation: Vec2, filter: &QueryFilter) -> Real {
        self.try_cast_mover(mover, translation, filter).unwrap_or(0.0)
    }

    /// [`World::cast_mover`], refusing a mover that is not a capsule or a
    /// circle ([`WorldError::WrongMoverShape`]), a radius that is not finite
    /// or not more than two linear slops, non-finite centres or a
    /// non-finite translation ([`WorldError::InvalidMover`]).
    pub fn try_cast_mover(
        &self,
        mover: &Shape,
        translation: Vec2,
        filter: &QueryFilter,
    ) -> Result<Real, WorldError> {
        let m = Mover::of(mover)?;
        for (name, v) in [("translation.x", translation.x), ("translation.y", translation.y)] {
            if !v.is_finite() {
                return Err(WorldError::InvalidMover { name, value: v });
            }
        }
        let start = m.bounds();
        let swept = start.merged(&Aabb::new(start.mins + translation, start.maxs + translation));
        // Finite numbers whose sum overflows: a translation too long to sweep.
        check_box(&swept).map_err(|_| WorldError::InvalidMover {
            name: "translation length",
            value: translation.norm(),
        })?;
        let mut fraction: Real = 1.0;
        let _ = self.broad_phase.all().query_with(&swept, |key| {
            let key = key.in_world(self.tag());
            let Some(c) = self.mover_candidate(key, filter) else { return };
            let pose = self.pose_relative_to(c, &m.origin);
            if let Some(f) = cast_against(&c.shape, &pose, &m, translation, fraction) {
                fraction = fraction.min(f);
            }
        });
        Ok(fraction.clamp(0.0, 1.0))
    }

    /// Fills `out` with one plane for each collider that `mover` (a capsule
    /// or a circle, world frame) touches or overlaps, in collider key order,
    /// as Box2D's `b2World_CollideMover`: the normal from the collider
    /// towards the mover, the offset how deep the mover is (its radius plus
    /// the collider's rounding, less the distance of their cores), the
    /// point where they touch, rigid (no push limit) and clipping
    /// velocities. Leaves `out` empty for bad input (see
    /// [`World::try_collide_mover`]). `out` is cleared first, and nothing
    /// else is allocated.
    ///
    /// A mover whose core overlaps a collider (deep in a wall, say) still
    /// gets a plane: the way out and the depth of the penetration. Sensors
    /// are skipped; a one-sided chain segment gives a plane only to a mover
    /// whose centre is on its solid side, and that plane never points
    /// through the chain.
    pub fn collide_mover(&self, mover: &Shape, filter: &QueryFilter, out: &mut Vec<CollisionPlane>) {
        if self.try_collide_mover(mover, filter, out).is_err() {
            out.clear();
        }
    }

    /// [`World::collide_mover`], refusing a bad mover as
    /// [`World::try_cast_mover`] does (and leaving `out` untouched then).
    pub fn try_collide_mover(
        &self,
        mover: &Shape,
        filter: &QueryFilter,
        out: &mut Vec<CollisionPlane>,
    ) -> Result<(), WorldError> {
        let m = Mover::of(mover)?;
        let bounds = m.bounds();
        check_box(&bounds)?;
        out.clear();
        let _ = self.broad_phase.all().query_with(&bounds, |key| {
            let key = key.in_world(self.tag());
            let Some(c) = self.mover_candidate(key, filter) else { return };
            let pose = self.pose_relative_to(c, &m.origin);
            if let Some((normal, offset, point)) = plane_against(&c.shape, &pose, &m) {
                out.push(CollisionPlane {
                    collider: Some(key),
                    body: Some(c.body),
                    point: m.origin + point.coords,
                    ..CollisionPlane::new(normal, offset)
                });
            }
        });
        out.sort_unstable_by_key(|p| p.collider);
        Ok(())
    }
}

/// The fraction of `translation` the mover travels before it meets `shape`
/// (at `pose`, relative to the mover's centre), if it meets it before
/// `max_fraction`: conservative advancement between the shape's core and
/// the mover's, in the shape's frame, as Box2D's shape cast with
/// encroaching allowed. `None` for a miss, a shape the mover starts deep in,
/// and a chain segment the mover starts behind.
fn cast_against(
    shape: &Shape,
    pose: &Isometry,
    m: &Mover,
    translation: Vec2,
    max_fraction: Real,
) -> Option<Real> {
    let (core, shape_radius) = Core::of(shape);
    let p1 = pose.inverse_transform_point(&m.p1);
    let p2 = pose.inverse_transform_point(&m.p2);
    let d = pose.inverse_transform_vector(&translation);
    if let Shape::ChainSegment(chain) = shape
        && (nalgebra::center(&p1, &p2) - chain.segment.a).dot(&chain.normal()) < 0.0
    {
        return None;
    }
    // The mover may end a slop inside the shape: the cores `total − slop`
    // apart. Never closer than a slop, so that the cores stay apart.
    let total = shape_radius + m.radius;
    let mut target = (total - LINEAR_SLOP).max(LINEAR_SLOP);
    let tolerance = 0.25 * LINEAR_SLOP;
    let mut fraction: Real = 0.0;
    for iteration in 0..MOVER_CAST_MAX_ITERATIONS {
        let offset = d * fraction;
        let b = core_of(p1 + offset, p2 + offset);
        let out =
            gjk_distance(&core, &b, &Isometry::identity(), &(core.interior_point() - b.interior_point()));
        let distance = if out.overlapping { 0.0 } else { out.distance };
        if distance < target + tolerance {
            if iteration > 0 {
                return Some(fraction);
            }
            if distance > 2.0 * LINEAR_SLOP {
                // Touching already: a slop further is allowed.
                target = distance - LINEAR_SLOP;
            } else {
                // Deep in the shape from the start: ignored.
                return None;
            }
        }
        // Apart cores have a normal (from the shape towards the mover).
        let Some(normal) = out.normal() else { return (iteration > 0).then_some(fraction) };
        let approach = d.dot(&normal);
        if approach >= 0.0 {
            return None;
        }
        fraction += (target - distance) / approach;
        if fraction.is_nan() || fraction >= max_fraction {
            return None;
        }
    }
    // The cap: every advance was safe, so where it got to is too.
    Some(fraction)
}

/// The plane of `shape` (at `pose`, relative to the mover's centre) against
/// the mover, if they touch or overlap: the unit normal from the shape
/// towards the mover, the depth, and the shape's point nearest the mover
/// (or deepest in it), all relative to the mover's centre.
fn plane_against(shape: &Shape, pose: &Isometry, m: &Mover) -> Option<(Vec2, Real, Point)> {
    let p = lamina_narrowphase::penetration(shape, pose, &m.shape, &Isometry::identity())?;
    let (mut normal, mut depth, point) = (p.normal, p.depth, p.point_a);
    if let Shape::ChainSegment(chain) = shape {
        // One-sided: only a mover whose centre is on the solid side, pushed
        // out to that side (never through the chain).
        let side = pose.rotation * chain.normal();
        let a = pose * chain.segment.a;
        if (Point::origin() - a).dot(&side) < 0.0 {
            return None;
        }
        if normal.dot(&side) < 0.0 {
            let lowest = (m.p1 - a).dot(&side).min((m.p2 - a).dot(&side));
            (normal, depth) = (side, m.radius - lowest);
        }
    }
    // As Box2D: a plane whose normal is not unit (a degenerate answer) is
    // left out rather than given to the solver.
    let unit = (normal.norm_squared() - 1.0).abs() <= 1.0e-3;
    (unit && depth.is_finite() && point.x.is_finite() && point.y.is_finite())
        .then_some((normal, depth, point))
}
