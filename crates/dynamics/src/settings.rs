//! World settings: everything a step depends on besides the bodies.

use lamina_geometry::tolerance::SPECULATIVE_DISTANCE;
use lamina_geometry::{Real, Vec2};

/// The longest time step [`World::step`](crate::World::step) takes, seconds.
/// A step covers at most `max_linear_speed × dt` of ground, and both are
/// bounded ([`MAX_LINEAR_SPEED_LIMIT`]) so that no run can carry a body past
/// the largest `f32` (with both at their bounds, 10¹² m a step, it would take
/// 10²⁶ steps). Nothing near it makes physical sense: a rigid-body step is a
/// fraction of a second.
pub const MAX_TIME_STEP: Real = 1.0e4;

/// The shortest time step [`World::step`](crate::World::step) takes, seconds:
/// a nanosecond, a millionth of the shortest step a simulation makes sense
/// of. The solver multiplies impulses by the inverse of a substep, which for
/// a step of 10⁻⁴⁰ s overflows an `f32` (a joint's force came out as the
/// largest float and its torque as NaN).
pub const MIN_TIME_STEP: Real = 1.0e-9;

/// The largest [`WorldSettings::max_linear_speed`], m/s: a third of the speed
/// of light, far beyond any game or robot, and small enough that positions
/// stay finite for any run (see [`MAX_TIME_STEP`]).
pub const MAX_LINEAR_SPEED_LIMIT: Real = 1.0e8;

/// How two colliders' friction or restitution coefficients combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MixRule {
    /// √(a·b): a slippery surface makes the pair slippery.
    GeometricMean,
    /// (a + b) / 2.
    Average,
    /// The smaller of the two.
    Min,
    /// The larger of the two: a bouncy ball bounces on anything.
    Max,
    /// a·b.
    Multiply,
}

impl MixRule {
    /// The combined coefficient.
    pub fn mix(self, a: Real, b: Real) -> Real {
        match self {
            MixRule::GeometricMean => (a * b).sqrt(),
            MixRule::Average => 0.5 * (a + b),
            MixRule::Min => a.min(b),
            MixRule::Max => a.max(b),
            MixRule::Multiply => a * b,
        }
    }
}

/// The parameters of a [`crate::World`]. `WorldSettings::default()` gives the
/// values below, tuned for objects of 0.1 m to 10 m.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(default))]
pub struct WorldSettings {
    /// Gravity, m/s². Default (0, −10).
    pub gravity: Vec2,
    /// Solver substeps per step. More substeps stiffen stacks and joints at a
    /// proportional cost. Default 4.
    pub substeps: u32,
    /// Contact stiffness, Hz: how fast overlap is pushed out. Capped at a quarter
    /// of the substep rate, where the soft constraint stays stable; contacts with
    /// immovable bodies use twice this, within the same cap. Default 50 (Box2D
    /// uses 30): with two-point manifolds solved as a block, a 20-box stack sinks
    /// 4 cm instead of 11 and the 100-row pyramid 0.42 m instead of 1.1, at 60
    /// steps/s and 4 substeps; much stiffer, large piles start to jitter.
    pub contact_hertz: Real,
    /// Contact damping ratio: 10 is heavily overdamped, so pushing out never
    /// bounces. Default 10.
    pub contact_damping_ratio: Real,
    /// The fastest a contact pushes overlapping shapes apart, m/s: deep overlap
    /// is resolved calmly instead of launching bodies. Default 3.
    pub contact_push_max_velocity: Real,
    /// Stiffness of joints' rigid rows, Hz (a joint may set its own). Capped,
    /// like contacts, at a quarter of the substep rate. Default 60.
    pub joint_hertz: Real,
    /// Damping ratio of joints' rigid rows. Default 2 (Box2D's), well damped
    /// without being sluggish.
    pub joint_damping_ratio: Real,
    /// Approach speeds below this, m/s, do not bounce, so resting contacts with
    /// restitution settle instead of chattering. Default 1.
    pub restitution_threshold: Real,
    /// How close, in metres, shapes must come before a contact point exists:
    /// the speculative margin within which the solver stops an approach
    /// before the shapes overlap (faster approaches are continuous
    /// collision's). Default 4 × linear slop (2 cm), as in Box2D.
    pub speculative_distance: Real,
    /// Bodies slower than this, m/s (angular speed times the body's extent for
    /// turning), count as resting. Default 0.05.
    pub sleep_linear_velocity: Real,
    /// How long, in seconds, a whole island must rest before it sleeps. Default 0.5.
    pub time_to_sleep: Real,
    /// Let resting islands sleep. Default true.
    pub enable_sleep: bool,
    /// Start each step's contact impulses from the last step's. Default true.
    pub enable_warm_starting: bool,
    /// Sweep bodies that move far for their size against fixed and kinematic
    /// bodies (bullets against every body), so that they cannot tunnel
    /// through thin ones. Default true.
    pub enable_continuous: bool,
    /// How friction coefficients combine. Default geometric mean.
    pub friction_mixing: MixRule,
    /// How restitution coefficients combine. Default max.
    pub restitution_mixing: MixRule,
    /// Speed limit, m/s, a safety net against numerical blow-ups. Default 400;
    /// at most [`MAX_LINEAR_SPEED_LIMIT`].
    pub max_linear_speed: Real,
    /// Contacts that begin touching with the surfaces approaching faster
    /// than this, m/s, are reported as hit events. Default 1 (as in Box2D);
    /// infinity reports none.
    pub hit_event_threshold: Real,
    /// Keep contact, sensor and hit events from step to step until
    /// [`World::clear_events`](crate::World::clear_events) is called, so that
    /// a frame of several fixed steps loses none. Default false: each step
    /// starts with no events.
    pub keep_events: bool,
}

impl Default for WorldSettings {
    fn default() -> Self {
        Self {
            gravity: Vec2::new(0.0, -10.0),
            substeps: 4,
            contact_hertz: 50.0,
            contact_damping_ratio: 10.0,
            contact_push_max_velocity: 3.0,
            joint_hertz: 60.0,
            joint_damping_ratio: 2.0,
            restitution_threshold: 1.0,
            speculative_distance: SPECULATIVE_DISTANCE,
            sleep_linear_velocity: 0.05,
            time_to_sleep: 0.5,
            enable_sleep: true,
            enable_warm_starting: true,
            enable_continuous: true,
            friction_mixing: MixRule::GeometricMean,
            restitution_mixing: MixRule::Max,
            max_linear_speed: 400.0,
            hit_event_threshold: 1.0,
            keep_events: false,
        }
    }
}

impl WorldSettings {
    /// Checks every value, naming the first bad one.
    pub fn validate(&self) -> Result<(), crate::WorldError> {
        let check = |name: &'static str, value: Real, ok: bool| {
            if ok { Ok(()) } else { Err(crate::WorldError::InvalidSetting { name, value }) }
        };
        let non_negative = |v: Real| v.is_finite() && v >= 0.0;
        check("gravity.x", self.gravity.x, self.gravity.x.is_finite())?;
        check("gravity.y", self.gravity.y, self.gravity.y.is_finite())?;
        check("substeps", self.substeps as Real, self.substeps > 0)?;
        check(
            "contact_hertz",
            self.contact_hertz,
            self.contact_hertz.is_finite() && self.contact_hertz > 0.0,
        )?;
        check("contact_damping_ratio", self.contact_damping_ratio, non_negative(self.contact_damping_ratio))?;
        check(
            "contact_push_max_velocity",
            self.contact_push_max_velocity,
            non_negative(self.contact_push_max_velocity),
        )?;
        check("joint_hertz", self.joint_hertz, non_negative(self.joint_hertz))?;
        check("joint_damping_ratio", self.joint_damping_ratio, non_negative(self.joint_damping_ratio))?;
        check("restitution_threshold", self.restitution_threshold, non_negative(self.restitution_threshold))?;
        check("speculative_distance", self.speculative_distance, non_negative(self.speculative_distance))?;
        check("sleep_linear_velocity", self.sleep_linear_velocity, non_negative(self.sleep_linear_velocity))?;
        check("time_to_sleep", self.time_to_sleep, non_negative(self.time_to_sleep))?;
        check(
            "hit_event_threshold",
            self.hit_event_threshold,
            !self.hit_event_threshold.is_nan() && self.hit_event_threshold >= 0.0,
        )?;
        check(
            "max_linear_speed",
            self.max_linear_speed,
            self.max_linear_speed > 0.0 && self.max_linear_speed <= MAX_LINEAR_SPEED_LIMIT,
        )
    }
}
