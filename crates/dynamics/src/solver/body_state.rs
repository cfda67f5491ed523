//! The per-body data the solver touches, split by how it is used.

use lamina_geometry::{Real, Rotation, Vec2};

use std::marker::PhantomData;

use super::lanes::{Lanes, RotW, Vec2W, Wide, max, min};

/// The most lanes of any SIMD type the solver uses.
const MAX_LANES: usize = 8;
use crate::body::NO_INDEX;

/// What changes during the substeps: 28 bytes in f32, so two bodies share a
/// cache line and a contact touches at most two lines of body data.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BodyState {
    /// Linear velocity of the centre of mass.
    pub v: Vec2,
    /// Angular velocity.
    pub w: Real,
    /// Motion of the centre of mass since the step began.
    pub dp: Vec2,
    /// Rotation since the step began.
    pub dq: Rotation,
}

impl BodyState {
    /// The state of an immovable body: no velocity, no motion.
    pub const FIXED: BodyState = BodyState {
        v: Vec2::new(0.0, 0.0),
        w: 0.0,
        dp: Vec2::new(0.0, 0.0),
        dq: Rotation::new_unchecked(nalgebra::Complex { re: 1.0, im: 0.0 }),
    };
}

/// Body states shared by the threads solving one colour: constraints of one
/// colour share no movable body, so each thread touches its own states.
pub(crate) struct States<'a> {
    ptr: *mut BodyState,
    len: usize,
    _slice: PhantomData<&'a mut [BodyState]>,
}

// SAFETY: `States` only hands out copies of single states and writes single
// states; the colouring guarantees that concurrent calls use different indices.
unsafe impl Sync for States<'_> {}

impl<'a> States<'a> {
    pub fn new(states: &'a mut [BodyState]) -> Self {
        Self { ptr: states.as_mut_ptr(), len: states.len(), _slice: PhantomData }
    }

    /// The state of body `i`; immovable bodies (`NO_INDEX`) read as fixed.
    #[inline]
    pub fn load(&self, i: u32) -> BodyState {
        if i == NO_INDEX {
            return BodyState::FIXED;
        }
        assert!((i as usize) < self.len);
        // SAFETY: in bounds (checked above); no other thread writes index `i`
        // while this colour is solved.
        unsafe { self.ptr.add(i as usize).read() }
    }

    /// Writes back body `i`'s velocities, held within [`SANE_VELOCITY`]
    /// (joints, whose rows can contradict each other).
    #[inline]
    pub fn store_sane_velocity(&self, i: u32, v: Vec2, w: Real) {
        let clamp = |x: Real| x.clamp(-SANE_VELOCITY, SANE_VELOCITY);
        self.store_velocity(i, Vec2::new(clamp(v.x), clamp(v.y)), clamp(w));
    }

    /// Writes back body `i`'s velocities; immovable bodies are left alone.
    #[inline]
    pub fn store_velocity(&self, i: u32, v: Vec2, w: Real) {
        if i == NO_INDEX {
            return;
        }
        assert!((i as usize) < self.len);
        // SAFETY: in bounds; index `i` belongs to one constraint of this colour,
        // which only one thread solves.
        unsafe {
            let s = self.ptr.add(i as usize);
            (*s).v = v;
            (*s).w = w;
        }
    }
}

/// The largest speed (m/s, and rad/s) a joint may leave on a body within a
/// substep. Sane scenes stay far below it (the world's speed limit
/// is 400 m/s by default, and integration caps to that); constraints that
/// contradict each other without bound (a light body on a long lever between
/// rigid joints, an unbounded motor against a weld) can make Gauss–Seidel
/// diverge, and this keeps their numbers finite, so that no NaN enters the
/// world from finite input.
pub(crate) const SANE_VELOCITY: Real = 1.0e5;

/// What stays fixed during the step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BodyParams {
    pub inv_mass: Real,
    pub inv_inertia: Real,
    /// 1 / (1 + h·linear damping), per substep.
    pub linear_damping: Real,
    /// 1 / (1 + h·angular damping), per substep.
    pub angular_damping: Real,
    /// Velocity change per second from gravity and forces.
    pub linear_acceleration: Vec2,
    /// Angular velocity change per second from torques.
    pub angular_acceleration: Real,
}

/// The states of one body per lane, as a bundle of constraints reads them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BodiesW<W: Lanes = Wide> {
    pub v: Vec2W<W>,
    pub w: W,
    pub dp: Vec2W<W>,
    pub dq: RotW<W>,
}

impl<W: Lanes> BodiesW<W> {
    /// Loads the bodies `indices`, one per lane (immovable ones read as fixed).
    #[inline(always)]
    pub fn gather(states: &States, indices: &W::Indices) -> Self {
        let indices = indices.as_ref();
        let mut lanes = [[0.0; 7]; MAX_LANES];
        for (lane, &i) in lanes.iter_mut().zip(indices) {
            let s = states.load(i);
            *lane = [s.v.x, s.v.y, s.w, s.dp.x, s.dp.y, s.dq.re, s.dq.im];
        }
        let field = |f: usize| W::from_fn(|l| lanes[l][f]);
        Self {
            v: Vec2W { x: field(0), y: field(1) },
            w: field(2),
            dp: Vec2W { x: field(3), y: field(4) },
            dq: RotW { re: field(5), im: field(6) },
        }
    }

    /// Writes the velocities back to the bodies `indices`, held within
    /// [`SANE_VELOCITY`] (joints, whose rows can contradict each other).
    #[inline(always)]
    pub fn scatter_sane_velocity(&self, states: &States, indices: &W::Indices) {
        let limit = W::splat(SANE_VELOCITY);
        let clamp = |x: W| max(min(x, limit), -limit);
        let sane = Self { v: Vec2W { x: clamp(self.v.x), y: clamp(self.v.y) }, w: clamp(self.w), ..*self };
        sane.scatter_velocity(states, indices);
    }

    /// Writes the velocities back to the bodies `indices`.
    #[inline(always)]
    pub fn scatter_velocity(&self, states: &States, indices: &W::Indices) {
        for (l, &i) in indices.as_ref().iter().enumerate() {
            states.store_velocity(i, Vec2::new(self.v.x.lane(l), self.v.y.lane(l)), self.w.lane(l));
        }
    }
}
