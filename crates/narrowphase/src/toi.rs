//! Time of impact: when two moving shapes first come within a target distance.
//!
//! Conservative advancement (Mirtich, 1996): at the current time, measure the
//! distance `d` and the normal `n` with GJK; no point of the pair can close the
//! gap faster than the relative velocity along `n` plus each shape's spin times
//! its bounding radius, so the pair cannot meet before `d / bound` from now.
//! Advance by that much and repeat. Every step is safe (the shapes never pass
//! through each other between samples), so the answer is never late; it stops when
//! the gap is within a small tolerance of the target, when the shapes separate
//! for good, past `max_t`, or on an iteration cap (returning the last safe time).

use lamina_geometry::tolerance::LINEAR_SLOP;
use lamina_geometry::{Isometry, Point, Real, Rotation, Shape, Vec2};

use crate::pair::CorePair;

/// Iteration cap of conservative advancement. Translating polygons converge in a
/// few steps; fast spins near grazing contacts take the most.
pub const TOI_MAX_ITERATIONS: usize = 64;

/// How close to the target distance counts as arrived, in metres.
pub const TOI_TOLERANCE: Real = 0.02 * LINEAR_SLOP;

/// Linear and angular velocity of a shape: it moves as
/// `translation + linear·t` and turns about its local origin as `angle + angular·t`.
/// To sweep a shape about another point (a body's centre of mass), use a [`Sweep`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Velocity {
    /// Metres per second.
    pub linear: Vec2,
    /// Radians per second, counter-clockwise.
    pub angular: Real,
}

impl Velocity {
    /// A velocity from its parts.
    pub fn new(linear: Vec2, angular: Real) -> Self {
        Self { linear, angular }
    }

    /// A pure translation.
    pub fn linear(linear: Vec2) -> Self {
        Self { linear, angular: 0.0 }
    }

    /// The pose at time `t` of a shape at `pose` at time 0.
    pub fn advance(&self, pose: &Isometry, t: Real) -> Isometry {
        Sweep::from_velocity(pose, self).pose_at(t)
    }
}

/// How the search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToiStatus {
    /// The shapes came within the target distance at `time`.
    Hit,
    /// They were already within the target distance at time 0.
    Initial,
    /// The iteration cap stopped the search; `time` is safe but may be early.
    MaxIterations,
}

/// When and where a moving pair first comes within the target distance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Toi {
    /// The time of impact, in `[0, max_t]`.
    pub time: Real,
    /// Unit normal from A to B at that time (world frame).
    pub normal: Vec2,
    /// The closest point of A at that time (world frame).
    pub point_a: Point,
    /// The closest point of B at that time (world frame).
    pub point_b: Point,
    /// How the search ended.
    pub status: ToiStatus,
}

/// The first time in `[0, max_t]` at which A (at `pa`, moving with `va`) and B
/// (at `pb`, moving with `vb`) touch; `None` if they do not.
#[allow(clippy::too_many_arguments)]
pub fn time_of_impact(
    a: &Shape,
    pa: &Isometry,
    va: &Velocity,
    b: &Shape,
    pb: &Isometry,
    vb: &Velocity,
    max_t: Real,
) -> Option<Toi> {
    time_of_impact_within(a, pa, va, b, pb, vb, max_t, 0.0)
}

/// [`time_of_impact`] for the first time the shapes come within `target`
/// metres (or, for a negative `target`, first overlap by that much).
#[allow(clippy::too_many_arguments)]
pub fn time_of_impact_within(
    a: &Shape,
    pa: &Isometry,
    va: &Velocity,
    b: &Shape,
    pb: &Isometry,
    vb: &Velocity,
    max_t: Real,
    target: Real,
) -> Option<Toi> {
    let (sa, sb) = (Sweep::from_velocity(pa, va), Sweep::from_velocity(pb, vb));
    time_of_impact_of_sweeps(a, &sa, b, &sb, max_t, target)
}

/// A shape's motion: the point it turns about (its centre of mass, for a
/// body) goes in a straight line from `c0` at time 0 to `c0 + motion` at
/// time 1, while the shape turns by `angle` about it, both at uniform rates.
/// Times past 1 continue the motion. The motion is kept as a displacement,
/// not an end point, so that a small motion far from the origin keeps its
/// digits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sweep {
    /// The point the shape turns about, in the shape's frame.
    pub local_center: Point,
    /// Where that point is at time 0 (world frame).
    pub c0: Point,
    /// How far it moves from time 0 to time 1.
    pub motion: Vec2,
    /// The shape's rotation at time 0.
    pub q0: Rotation,
    /// How far it turns from time 0 to time 1, radians, counter-clockwise.
    pub angle: Real,
}

impl Sweep {
    /// The motion from `pose0` to `pose1` turning about `local_center`, the
    /// short way round (by less than half a turn).
    pub fn between(pose0: &Isometry, pose1: &Isometry, local_center: Point) -> Self {
        let turn = pose1.rotation * pose0.rotation.inverse();
        Self {
            local_center,
            c0: pose0 * local_center,
            motion: pose1 * local_center - pose0 * local_center,
            q0: pose0.rotation,
            // The fast form is within 4 × 10⁻⁸ rad: far below what a sweep resolves.
            angle: lamina_geometry::trig::atan2_fast(turn.im, turn.re),
        }
    }

    /// A shape that stays at `pose`.
    pub fn still(pose: &Isometry) -> Self {
        let c0: Point = pose.translation.vector.into();
        Self { local_center: Point::origin(), c0, motion: Vec2::zeros(), q0: pose.rotation, angle: 0.0 }
    }

    /// A shape at `pose` moving with `v` (turning about its local origin), in
    /// units of time in which `v` is given.
    pub fn from_velocity(pose: &Isometry, v: &Velocity) -> Self {
        let c0: Point = pose.translation.vector.into();
        Self { local_center: Point::origin(), c0, motion: v.linear, q0: pose.rotation, angle: v.angular }
    }

    /// The sweep of a part fixed at `local` in the swept frame (a collider on
    /// a body): it turns about the same point, by the same angle.
    pub fn attached(&self, local: &Isometry) -> Self {
        Self {
            local_center: local.inverse_transform_point(&self.local_center),
            c0: self.c0,
            motion: self.motion,
            q0: self.q0 * local.rotation,
            angle: self.angle,
        }
    }

    /// The shape's pose at time `t`.
    pub fn pose_at(&self, t: Real) -> Isometry {
        let turn = self.angle * t;
        // No turn (a fixed body, or the start): the rotation as it is, exactly
        // what turning by zero would give, without the sine and cosine.
        let q = if turn == 0.0 {
            self.q0
        } else {
            let (sin, cos) = lamina_geometry::trig::sin_cos(turn);
            Rotation::from_cos_sin_unchecked(cos, sin) * self.q0
        };
        let c = self.c0 + self.motion * t;
        Isometry::from_parts((c - q * self.local_center.coords).coords.into(), q)
    }

    /// True when the shape stays where it is: no motion, no turn.
    pub fn is_still(&self) -> bool {
        self.motion == Vec2::zeros() && self.angle == 0.0
    }

    /// True when every number is finite.
    fn is_finite(&self) -> bool {
        [self.local_center.x, self.local_center.y, self.c0.x, self.c0.y, self.motion.x, self.motion.y]
            .into_iter()
            .chain([self.q0.re, self.q0.im, self.angle])
            .all(Real::is_finite)
    }
}

/// The first time in `[0, max_t]` at which shape A moving along `sa` and
/// shape B moving along `sb` come within `target` metres of each other (a
/// negative `target` asks when they first overlap by that much).
///
/// Each shape turns about its sweep's centre, so a body's shapes are swept
/// about its centre of mass as the solver moves them; no point of a shape is
/// farther from that centre than its bounding radius plus the centre's
/// distance from the shape's origin, which bounds how fast the turning can
/// close the gap.
pub fn time_of_impact_of_sweeps(
    a: &Shape,
    sa: &Sweep,
    b: &Shape,
    sb: &Sweep,
    max_t: Real,
    target: Real,
) -> Option<Toi> {
    if !(max_t >= 0.0 && max_t.is_finite() && target.is_finite()) {
        return None;
    }
    // Non-finite motions have no meaningful sweep (and would only run the
    // loop to its cap on NaNs).
    if !(sa.is_finite() && sb.is_finite()) {
        return None;
    }
    let reach = |shape: &Shape, s: &Sweep| shape.local_bounding_radius() + s.local_center.coords.norm();
    let spin_bound = sa.angle.abs() * reach(a, sa) + sb.angle.abs() * reach(b, sb);
    let relative = sb.motion - sa.motion;
    let mut t: Real = 0.0;
    for iteration in 0..TOI_MAX_ITERATIONS {
        let (qa, qb) = (sa.pose_at(t), sb.pose_at(t));
        let s = CorePair::new(a, &qa, b, &qb).separation();
        // Shapes so far apart that their distance overflows never meet in range.
        if !s.distance.is_finite() {
            return None;
        }
        let normal = qa.rotation * s.normal;
        let gap = s.distance - target;
        if gap <= TOI_TOLERANCE {
            let status = if iteration == 0 { ToiStatus::Initial } else { ToiStatus::Hit };
            return Some(Toi { time: t, normal, point_a: qa * s.point_a, point_b: qa * s.point_b, status });
        }
        // The fastest the gap can close: B's approach along the normal plus spins.
        let closing = -normal.dot(&relative) + spin_bound;
        if closing <= 0.0 {
            return None;
        }
        // Aim a little short of the target so that the last step lands inside the tolerance.
        let step = (gap - 0.5 * TOI_TOLERANCE).max(0.5 * TOI_TOLERANCE) / closing;
        t += step;
        if t > max_t {
            return None;
        }
    }
    let (qa, qb) = (sa.pose_at(t), sb.pose_at(t));
    let s = CorePair::new(a, &qa, b, &qb).separation();
    Some(Toi {
        time: t,
        normal: qa.rotation * s.normal,
        point_a: qa * s.point_a,
        point_b: qa * s.point_b,
        status: ToiStatus::MaxIterations,
    })
}

/// Sweeps A by `va` and B by `vb` (linear velocities, no rotation) and returns
/// the first time in `[0, max_t]` at which they touch.
pub fn cast_shape(
    a: &Shape,
    pa: &Isometry,
    va: &Vec2,
    b: &Shape,
    pb: &Isometry,
    vb: &Vec2,
    max_t: Real,
) -> Option<Toi> {
    time_of_impact(a, pa, &Velocity::linear(*va), b, pb, &Velocity::linear(*vb), max_t)
}
