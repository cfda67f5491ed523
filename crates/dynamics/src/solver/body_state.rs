//! The per-body data the solver touches, split by how it is used.

use lamina_geometry::{Real, Rotation, Vec2};

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
