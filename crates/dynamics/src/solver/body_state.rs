//! The per-body data the solver touches, split by how it is used.

use lamina_geometry::{Real, Rotation, Vec2};

use super::lanes::{Lanes, RotW, Vec2W, Wide, max, min};
use super::team::BlockSlice;

use crate::body::NO_INDEX;

/// What changes during the substeps: eight numbers (32 bytes in f32, aligned
/// to 32), so two bodies share a cache line, none straddles two, and a bundle
/// of constraints loads each of its bodies as one SIMD row and turns the rows
/// into lanes with a transpose ([`Lanes::gather_rows`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(32))]
pub(crate) struct BodyState {
    /// Linear velocity of the centre of mass.
    pub v: Vec2,
    /// Angular velocity.
    pub w: Real,
    /// Motion of the centre of mass since the step began.
    pub dp: Vec2,
    /// Rotation since the step began.
    pub dq: Rotation,
    /// Unused, always zero: it makes the state eight numbers with no padding,
    /// so that it can be read as a row of eight.
    pub spare: Real,
}

// A state is read and written as `[Real; 8]` (`States::row`, `store_row`).
const _: () = assert!(std::mem::size_of::<BodyState>() == 8 * std::mem::size_of::<Real>());

/// The state of immovable bodies, at a fixed address: every lane of a bundle
/// whose body is immovable reads it.
static FIXED_STATE: BodyState = BodyState::FIXED;

impl BodyState {
    /// The state of an immovable body: no velocity, no motion.
    pub const FIXED: BodyState = BodyState {
        v: Vec2::new(0.0, 0.0),
        w: 0.0,
        dp: Vec2::new(0.0, 0.0),
        dq: Rotation::new_unchecked(nalgebra::Complex { re: 1.0, im: 0.0 }),
        spare: 0.0,
    };

    /// A body at rest with velocities `v` and `w`, not yet moved this step.
    pub fn at_rest_with(v: Vec2, w: Real) -> BodyState {
        BodyState { v, w, ..BodyState::FIXED }
    }

    /// The state as a row of eight numbers, laid out as [`States::row`]
    /// gives it.
    #[inline(always)]
    pub fn row(&self) -> &[Real; 8] {
        // SAFETY: `BodyState` is `repr(C)` and made of eight `Real`s with no
        // padding (asserted at compile time beside it).
        unsafe { &*(self as *const BodyState).cast::<[Real; 8]>() }
    }

    /// Sets the whole state from a row laid out as [`BodyState::row`] gives it.
    #[inline(always)]
    pub fn set_row(&mut self, row: &[Real; 8]) {
        // SAFETY: as in `row`; every bit pattern of eight `Real`s is a state.
        unsafe { *(self as *mut BodyState).cast::<[Real; 8]>() = *row }
    }
}

/// Body states shared by the threads of a team: within a pass, each block
/// of bodies (integration) or of a colour's constraints (constraints of one
/// colour share no movable body) touches states no other block touches.
pub(crate) struct States<'a> {
    states: BlockSlice<'a, BodyState>,
}

impl<'a> States<'a> {
    pub fn new(states: &'a mut [BodyState]) -> Self {
        Self { states: BlockSlice::new(states) }
    }

    /// The states `range` (checked to be in bounds), to change directly: a
    /// block of bodies integrated by one thread.
    ///
    /// # Safety
    ///
    /// As [`BlockSlice::range`]: no other thread reads or writes any of
    /// these states meanwhile.
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn range(&self, range: std::ops::Range<usize>) -> &mut [BodyState] {
        // SAFETY: the caller's promise.
        unsafe { self.states.range(range) }
    }

    /// Where body `i`'s state lies; `None` for immovable bodies (`NO_INDEX`),
    /// found by the bounds check itself. Any other index past the end is a
    /// bug in the solver's packing (debug builds stop on it); it reads as
    /// immovable rather than outside the array.
    #[inline(always)]
    fn slot(&self, i: u32) -> Option<*mut BodyState> {
        let slot = self.states.get(i as usize);
        debug_assert!(slot.is_some() || i == NO_INDEX, "body index {i} past the solver's states");
        slot
    }

    /// The state of body `i`; immovable bodies (`NO_INDEX`) read as fixed.
    #[inline]
    pub fn load(&self, i: u32) -> BodyState {
        match self.slot(i) {
            // SAFETY: in bounds; no other thread writes index `i` while this
            // colour is solved.
            Some(s) => unsafe { s.read() },
            None => BodyState::FIXED,
        }
    }

    /// Body `i`'s state as a row of eight numbers: velocity x, y, angular
    /// velocity, motion x, y, rotation re, im and the spare zero. Immovable
    /// bodies (`NO_INDEX`) read as fixed.
    #[inline(always)]
    pub fn row(&self, i: u32) -> &[Real; 8] {
        let state: *const BodyState = match self.slot(i) {
            Some(s) => s,
            None => &FIXED_STATE,
        };
        // SAFETY: in bounds or the fixed state; no other thread writes index
        // `i` while this colour is solved; `BodyState` is `repr(C)` and made
        // of eight `Real`s with no padding (asserted at compile time beside it).
        unsafe { &*state.cast::<[Real; 8]>() }
    }

    /// Writes the first half of body `i`'s row (velocity x, y, angular
    /// velocity and motion x, laid out as [`States::row`] gives them);
    /// immovable bodies are left alone.
    #[inline(always)]
    pub fn store_low(&self, i: u32, half: &[Real; 4]) {
        if let Some(s) = self.slot(i) {
            // SAFETY: in bounds; index `i` belongs to one constraint of this
            // colour, which only one thread solves; the first four numbers
            // of the row, laid out as in `row`.
            unsafe { s.cast::<[Real; 4]>().write(*half) }
        }
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
        if let Some(s) = self.slot(i) {
            // SAFETY: in bounds; index `i` belongs to one constraint of this
            // colour, which only one thread solves.
            unsafe {
                (*s).v = v;
                (*s).w = w;
            }
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

/// What stays fixed during the step: a row of eight numbers, aligned so
/// that a bundle loads each of its bodies' rows as one SIMD row
/// ([`BodyParams::row`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(32))]
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
    /// Unused, always zero: it makes the parameters a row of eight numbers.
    pub spare: Real,
}

const _: () = assert!(std::mem::size_of::<BodyParams>() == 8 * std::mem::size_of::<Real>());

impl BodyParams {
    /// The parameters of an immovable body: no inverse mass or inertia, no
    /// damping, no acceleration.
    pub const FIXED: BodyParams = BodyParams {
        inv_mass: 0.0,
        inv_inertia: 0.0,
        linear_damping: 1.0,
        angular_damping: 1.0,
        linear_acceleration: Vec2::new(0.0, 0.0),
        angular_acceleration: 0.0,
        spare: 0.0,
    };

    /// The parameters as a row of eight numbers: inverse mass, inverse
    /// inertia, linear and angular damping, linear acceleration x and y,
    /// angular acceleration and a zero.
    #[inline(always)]
    pub fn row(&self) -> &[Real; 8] {
        // SAFETY: `BodyParams` is `repr(C)` and made of eight `Real`s with no
        // padding (asserted at compile time beside it).
        unsafe { &*(self as *const BodyParams).cast::<[Real; 8]>() }
    }
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
        let [vx, vy, w, dpx, dpy, re, im, _] = W::gather_rows(|l| states.row(indices[l]));
        Self { v: Vec2W { x: vx, y: vy }, w, dp: Vec2W { x: dpx, y: dpy }, dq: RotW { re, im } }
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

    /// Loads the velocities of the bodies `indices` alone, for passes that
    /// neither read nor write their motion (warm starting): the first half
    /// of each row, so the motion's x as well, which
    /// [`BodiesW::scatter_velocity`] writes back as it was; the rest of the
    /// motion reads as none.
    #[inline(always)]
    pub fn gather_velocity(states: &States, indices: &W::Indices) -> Self {
        let indices = indices.as_ref();
        let [vx, vy, w, dpx] = W::gather_low_rows(|l| states.row(indices[l]));
        let (zero, one) = (W::ZERO, W::ONE);
        Self { v: Vec2W { x: vx, y: vy }, w, dp: Vec2W { x: dpx, y: zero }, dq: RotW { re: one, im: zero } }
    }

    /// Writes the velocities back to the bodies `indices`: the first half of
    /// each row, with the motion's x as gathered (a body belongs to one lane
    /// of one bundle of a colour, so nothing else changed it meanwhile, and
    /// a half row stores faster than its three numbers one by one).
    #[inline(always)]
    pub fn scatter_velocity(&self, states: &States, indices: &W::Indices) {
        let indices = indices.as_ref();
        W::scatter_low_rows(&[self.v.x, self.v.y, self.w, self.dp.x], |l, half| {
            states.store_low(indices[l], half)
        });
    }
}
