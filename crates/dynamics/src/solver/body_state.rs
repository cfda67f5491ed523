//! The per-body data the solver touches, split by how it is used.

use lamina_geometry::{Real, Rotation, Vec2};

use super::lanes::{LANES, RotW, Vec2W, Wide};
use super::parallel::States;

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

/// The states of [`LANES`] bodies side by side, as a bundle of constraints reads them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BodiesW {
    pub v: Vec2W,
    pub w: Wide,
    pub dp: Vec2W,
    pub dq: RotW,
}

impl BodiesW {
    /// Loads the bodies `indices` (immovable ones read as fixed).
    #[inline(always)]
    pub fn gather(states: &States, indices: &[u32; LANES]) -> Self {
        let mut lanes = [[0.0; 7]; LANES];
        for (lane, &i) in lanes.iter_mut().zip(indices) {
            let s = states.load(i);
            *lane = [s.v.x, s.v.y, s.w, s.dp.x, s.dp.y, s.dq.re, s.dq.im];
        }
        let field = |f: usize| Wide::new(std::array::from_fn(|l| lanes[l][f]));
        Self {
            v: Vec2W { x: field(0), y: field(1) },
            w: field(2),
            dp: Vec2W { x: field(3), y: field(4) },
            dq: RotW { re: field(5), im: field(6) },
        }
    }

    /// Writes the velocities back to the bodies `indices`.
    #[inline(always)]
    pub fn scatter_velocity(&self, states: &States, indices: &[u32; LANES]) {
        let (vx, vy, w) = (self.v.x.to_array(), self.v.y.to_array(), self.w.to_array());
        for (l, &i) in indices.iter().enumerate() {
            states.store_velocity(i, Vec2::new(vx[l], vy[l]), w[l]);
        }
    }
}
