//! The end of a step: the solver's motion written back to the bodies, sleep
//! timers, and bounds that reach ahead by each body's motion over the next step.

use lamina_geometry::{Aabb, Isometry, Real, Vec2};
use rayon::prelude::*;

use crate::solver::body_state::BodyState;
use crate::solver::integrate::integrate_rotation;
use crate::{BodyKey, ColliderKey, World};

impl World {
    /// Gives every collider of `key` bounds that reach ahead by the body's
    /// motion over the next `dt`, so that fast bodies meet their contacts before
    /// they arrive, and moves its broad-phase proxy if needed. `first`, when
    /// given, is the first collider's bounds, already computed.
    pub(crate) fn refresh_swept_bounds(&mut self, key: crate::BodyKey, dt: Real, first: Option<FirstBounds>) {
        let b = &mut self.bodies[key];
        b.bounds_stale = false;
        let (ahead, spin) = reach_ahead(b.linear_velocity, b.angular_velocity, b.extent, dt);
        let pose = b.pose;
        for (n, &ck) in b.colliders.iter().enumerate() {
            let c = &mut self.colliders[ck];
            match first {
                Some(first) if n == 0 => {
                    c.aabb = first.aabb;
                    if first.inside_proxy {
                        continue; // the broad phase would leave its proxy as it is
                    }
                }
                _ => c.aabb = swept_aabb(c, &pose, ahead, spin),
            }
            let _ = self.broad_phase.update(ck, c.aabb);
        }
    }

    /// Bodies added, moved or given a new velocity since the last step get
    /// bounds swept by this step's motion before the broad phase runs.
    /// Returns whether sleeping bodies with stale bounds remain (they are
    /// refreshed once awake).
    pub(crate) fn refresh_stale_bounds(&mut self, dt: Real) -> bool {
        let mut stale = std::mem::take(&mut self.wake_scratch);
        stale.clear();
        let mut asleep = false;
        for (key, b) in self.bodies.iter() {
            if b.bounds_stale {
                if b.awake {
                    stale.push(key);
                } else {
                    asleep = true;
                }
            }
        }
        for &key in &stale {
            self.refresh_swept_bounds(key, dt, None);
        }
        self.wake_scratch = stale;
        asleep
    }

    /// Writes the solver's motion back to the bodies, updates sleep timers,
    /// bounding boxes and broad-phase proxies.
    ///
    /// Everything each body needs (its new pose, velocities, sleep timer and
    /// its first collider's swept bounds) is computed in parallel from the body
    /// alone, with whether that box still fits in its broad-phase proxy; writing
    /// it back and moving the proxies that must move is a serial pass in body
    /// order.
    pub(crate) fn finalize(&mut self, dt: Real) {
        let awake = std::mem::take(&mut self.solver.awake);
        let mut finished = std::mem::take(&mut self.finished);
        let (bodies, colliders, states) = (&self.bodies, &self.colliders, &self.solver.states);
        let broad_phase = &self.broad_phase;
        let sleep_speed = self.settings.sleep_linear_velocity;
        let finish = |(i, &key): (usize, &BodyKey)| {
            let mut f = finish_body(&bodies[key], &states[i], colliders, dt, sleep_speed);
            if let (Some(first), Some(&ck)) = (&mut f.first, bodies[key].colliders.first()) {
                first.inside_proxy = broad_phase.fat_aabb(ck).is_some_and(|fat| fat.contains(&first.aabb));
            }
            f
        };
        if awake.len() < 2 * FINALIZE_CHUNK {
            finished.clear();
            finished.extend(awake.iter().enumerate().map(finish));
        } else {
            awake
                .par_iter()
                .enumerate()
                .with_min_len(FINALIZE_CHUNK)
                .map(finish)
                .collect_into_vec(&mut finished);
        }
        for (&key, f) in awake.iter().zip(&finished) {
            let b = &mut self.bodies[key];
            b.linear_velocity = f.linear_velocity;
            b.angular_velocity = f.angular_velocity;
            b.center = f.center;
            b.pose = f.pose;
            b.sleep_time = f.sleep_time;
            b.force = Vec2::zeros();
            b.torque = 0.0;
            self.refresh_swept_bounds(key, dt, f.first);
        }
        self.solver.awake = awake;
        self.finished = finished;
    }
}

/// Bodies per task when finalising on several threads.
const FINALIZE_CHUNK: usize = 256;

/// A body's state at the end of a step, before it is written back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FinishedBody {
    linear_velocity: Vec2,
    angular_velocity: Real,
    center: lamina_geometry::Point,
    pose: Isometry,
    sleep_time: Real,
    /// The first collider's swept bounds, if the body has a collider.
    first: Option<FirstBounds>,
}

/// A body's first collider's new swept bounds.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FirstBounds {
    aabb: Aabb,
    /// The bounds fit in the collider's broad-phase proxy: it need not move.
    inside_proxy: bool,
}

/// The end-of-step state of body `b` from its solver state `state`.
fn finish_body(
    b: &crate::Body,
    state: &BodyState,
    colliders: &slotmap::SlotMap<ColliderKey, crate::Collider>,
    dt: Real,
    sleep_speed: Real,
) -> FinishedBody {
    let center = b.center + state.dp;
    let rotation = integrate_rotation(&(state.dq * b.pose.rotation), 0.0);
    let origin = center - rotation * b.local_center.coords;
    let pose = Isometry::from_parts(origin.coords.into(), rotation);
    let speed = state.v.norm() + b.extent * state.w.abs();
    // A kinematic body moves at the velocity it was given, however slow: falling
    // asleep would stop it.
    let driven = b.kind == crate::BodyKind::Kinematic && (state.v != Vec2::zeros() || state.w != 0.0);
    let sleep_time = if !b.can_sleep || driven || speed > sleep_speed { 0.0 } else { b.sleep_time + dt };
    let (ahead, spin) = reach_ahead(state.v, state.w, b.extent, dt);
    let first = b
        .colliders
        .first()
        .map(|&ck| FirstBounds { aabb: swept_aabb(&colliders[ck], &pose, ahead, spin), inside_proxy: false });
    FinishedBody { linear_velocity: state.v, angular_velocity: state.w, center, pose, sleep_time, first }
}

/// How far a body moving at `v` and turning at `w` moves over the next `dt`,
/// and how far its farthest point (`extent` from its centre) can turn.
fn reach_ahead(v: Vec2, w: Real, extent: Real, dt: Real) -> (Vec2, Real) {
    (v * dt, extent * w.abs() * dt)
}

/// Collider `c`'s bounds on a body at `pose`, stretched to where it will be
/// after moving by `ahead`, and grown by `spin` for the turning.
fn swept_aabb(c: &crate::Collider, pose: &Isometry, ahead: Vec2, spin: Real) -> Aabb {
    let now = c.shape.aabb(&(pose * c.local_pose));
    let next = Aabb::new(now.mins + ahead, now.maxs + ahead);
    now.merged(&next).loosened(spin)
}
