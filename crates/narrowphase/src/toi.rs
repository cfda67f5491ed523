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
        Isometry::from_parts((pose.translation.vector + self.linear * t).into(), {
            let (sin, cos) = lamina_geometry::trig::sin_cos(self.angular * t);
            Rotation::from_cos_sin_unchecked(cos, sin) * pose.rotation
        })
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

/// [`time_of_impact`] for the first time the shapes come within `target` metres.
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
    if !(max_t >= 0.0 && max_t.is_finite() && target.is_finite()) {
        return None;
    }
    // Non-finite poses or velocities have no meaningful sweep (and would only
    // run the loop to its cap on NaNs).
    let finite_pose = |p: &Isometry| {
        let (t, r) = (p.translation.vector, p.rotation);
        t.x.is_finite() && t.y.is_finite() && r.re.is_finite() && r.im.is_finite()
    };
    let finite_velocity =
        |v: &Velocity| v.linear.x.is_finite() && v.linear.y.is_finite() && v.angular.is_finite();
    if !(finite_pose(pa) && finite_pose(pb) && finite_velocity(va) && finite_velocity(vb)) {
        return None;
    }
    let target = target.max(0.0);
    let spin_bound =
        va.angular.abs() * a.local_bounding_radius() + vb.angular.abs() * b.local_bounding_radius();
    let relative = vb.linear - va.linear;
    let mut t: Real = 0.0;
    for iteration in 0..TOI_MAX_ITERATIONS {
        let (qa, qb) = (va.advance(pa, t), vb.advance(pb, t));
        let s = CorePair::new(a, &qa, b, &qb).separation();
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
    let (qa, qb) = (va.advance(pa, t), vb.advance(pb, t));
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
