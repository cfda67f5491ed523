//! The character mover's plane solver: [`CollisionPlane`], [`solve_planes`]
//! and [`clip_vector`], the semantics of Box2D v3.1's `b2SolvePlanes` and
//! `b2ClipVector`.
//!
//! A kinematic character (a capsule or a circle that the game moves itself,
//! not a body the solver pushes) is moved in four steps each frame:
//!
//! 1. [`World::collide_mover`](crate::World::collide_mover) gives one plane
//!    per collider the mover touches or overlaps: which way is out, and how
//!    deep the mover is;
//! 2. [`solve_planes`] bends the displacement the game wants so that it ends
//!    outside every plane (within [`LINEAR_SLOP`]), sliding along them;
//! 3. [`World::cast_mover`](crate::World::cast_mover) sweeps the mover along
//!    that displacement and says how much of it is free, so that nothing the
//!    planes did not see (a wall ahead) is passed through;
//! 4. after a few rounds of these, [`clip_vector`] takes out of the velocity
//!    what pointed into the planes that pushed, so that speed does not build
//!    up against a wall.
//!
//! The planes live in the mover's displacement space, not in the world: a
//! displacement `d` of the mover is clear of a plane when
//! `normal · d − offset ≥ 0`, where `offset` is how deep the mover is now
//! (positive when it overlaps). `docs/gameplay.md` shows the whole loop.
//!
//! The solver is Gauss–Seidel over the planes, as Box2D's: each plane in turn
//! pushes the displacement out along its normal, by an accumulated push kept
//! in `[0, push_limit]` (a soft plane, such as a small body the character may
//! shove, pushes only so far), until a pass over every plane moves it by less
//! than the slop, or after [`PLANE_SOLVER_MAX_ITERATIONS`] passes.

use lamina_geometry::tolerance::LINEAR_SLOP;
use lamina_geometry::{Point, Real, Vec2};

use crate::{BodyKey, ColliderKey};

/// The most passes [`solve_planes`] makes over the planes. Two planes in a
/// corner settle in two or three; the cap bounds planes that disagree (a
/// mover squeezed between walls closer than its width), as in Box2D.
pub const PLANE_SOLVER_MAX_ITERATIONS: usize = 20;

/// A plane that a mover's displacement must stay outside: `normal · d −
/// offset ≥ 0` for a displacement `d`. Made by
/// [`World::collide_mover`](crate::World::collide_mover) or by hand with
/// [`CollisionPlane::new`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CollisionPlane {
    /// Unit normal, from the surface towards the mover.
    pub normal: Vec2,
    /// How deep the mover is in the surface along `normal`, metres: positive
    /// when it overlaps, negative when it is still that far from touching.
    pub offset: Real,
    /// The most the plane may push the displacement, metres, accumulated
    /// over the solver's passes. [`Real::MAX`] for a rigid surface; smaller
    /// for one the mover may partly pass into (something it shoves). Taken
    /// as 0 if negative.
    pub push_limit: Real,
    /// How far the plane pushed in the last [`solve_planes`], metres (set by
    /// the solver; 0 for a plane it did not need).
    pub push: Real,
    /// Whether [`clip_vector`] takes the part of a velocity that points
    /// into this plane away (when the plane pushed).
    pub clip_velocity: bool,
    /// The collider the plane came from, if it came from the world.
    pub collider: Option<ColliderKey>,
    /// That collider's body, if the plane came from the world.
    pub body: Option<BodyKey>,
    /// Where the mover touches the surface, world frame (the surface's point
    /// nearest the mover, or deepest in it): where a character pushes the
    /// body it touches. The origin for a plane made by hand.
    pub point: Point,
}

impl CollisionPlane {
    /// A rigid plane (no push limit, clipping velocities) of `normal` (unit)
    /// and `offset`, belonging to no collider.
    pub fn new(normal: Vec2, offset: Real) -> Self {
        Self {
            normal,
            offset,
            push_limit: Real::MAX,
            push: 0.0,
            clip_velocity: true,
            collider: None,
            body: None,
            point: Point::origin(),
        }
    }

    /// Sets the push limit, metres.
    pub fn push_limit(mut self, limit: Real) -> Self {
        self.push_limit = limit;
        self
    }

    /// Sets whether [`clip_vector`] clips against the plane.
    pub fn clip_velocity(mut self, clip: bool) -> Self {
        self.clip_velocity = clip;
        self
    }

    /// The signed distance of displacement `d` from the plane: positive
    /// when `d` ends clear of it.
    pub fn separation(&self, d: Vec2) -> Real {
        self.normal.dot(&d) - self.offset
    }
}

/// What [`solve_planes`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaneSolution {
    /// The displacement that ends outside every plane (within the linear
    /// slop, or as near as the push limits let it), closest to the one
    /// asked for in the Gauss–Seidel sense.
    pub translation: Vec2,
    /// How many passes over the planes it took (at most
    /// [`PLANE_SOLVER_MAX_ITERATIONS`]; 0 for no planes).
    pub iterations: usize,
}

/// Bends `target_delta`, the displacement the mover would like, so that it
/// ends outside every plane, sliding along the planes it meets, as Box2D's
/// `b2SolvePlanes`. Each plane's [`push`](CollisionPlane::push) is reset and
/// then holds how far it pushed, which [`clip_vector`] reads.
///
/// The displacement is allowed to end [`LINEAR_SLOP`] inside each plane: a
/// mover resting on the ground stays in touch with it, and its plane does not
/// switch on and off from frame to frame (jitter).
pub fn solve_planes(target_delta: Vec2, planes: &mut [CollisionPlane]) -> PlaneSolution {
    for plane in planes.iter_mut() {
        plane.push = 0.0;
    }
    if planes.is_empty() {
        return PlaneSolution { translation: target_delta, iterations: 0 };
    }
    let mut delta = target_delta;
    let mut iterations = 0;
    while iterations < PLANE_SOLVER_MAX_ITERATIONS {
        iterations += 1;
        let mut total_push: Real = 0.0;
        for plane in planes.iter_mut() {
            // The slop keeps the mover just inside: see above.
            let wanted = -(plane.separation(delta) + LINEAR_SLOP);
            if wanted.is_nan() {
                // A plane made by hand with a NaN normal or offset: `min`
                // below would turn NaN into the push limit and throw the
                // mover out of the world. It pushes nothing instead.
                continue;
            }
            let before = plane.push;
            // `min` then `max`: never a panic on a bad limit, and a NaN
            // limit lets the push through as `Real::MAX` would.
            plane.push = (before + wanted).min(plane.push_limit).max(0.0);
            let push = plane.push - before;
            delta += plane.normal * push;
            total_push += push.abs();
        }
        if total_push < LINEAR_SLOP {
            break;
        }
    }
    PlaneSolution { translation: delta, iterations }
}

/// `v` with the part that points into each plane that pushed in the last
/// [`solve_planes`] taken away, as Box2D's `b2ClipVector`: a character's
/// velocity against the wall it walked into keeps only its slide along the
/// wall. Planes that did not push (`push == 0`) or that do not clip
/// (`clip_velocity == false`) leave it alone.
pub fn clip_vector(v: Vec2, planes: &[CollisionPlane]) -> Vec2 {
    let mut v = v;
    for plane in planes.iter().filter(|p| p.push != 0.0 && p.clip_velocity) {
        v -= plane.normal * v.dot(&plane.normal).min(0.0);
    }
    v
}
