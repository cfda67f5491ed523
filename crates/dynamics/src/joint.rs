//! Joints: what they hold and the builder that describes them (the world's
//! calls that add, change and remove them are `world/joints.rs`).
//!
//! A joint keeps two local frames, one on each body, that coincide when the
//! joint is satisfied: the frames' origins are the anchors, and their x axes
//! are the joint's axis (prismatic and wheel joints). Both frames are turned so
//! that they are aligned at creation, which makes every joint's relative angle
//! zero then. The solver rows of each kind are in `solver/joints/`.

use lamina_geometry::math::{is_finite_point, is_finite_vec};
use lamina_geometry::{Isometry, Point, Real, Rotation, Vec2};
use slotmap::Key;

use crate::body::Body;
use crate::tagged_map::TaggedMap;
use crate::{BodyKey, JointKey, WorldError};

/// What a joint holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum JointKind {
    /// A shared point; B turns freely about it.
    Revolute,
    /// B slides along an axis fixed in A, without turning relative to A.
    Prismatic,
    /// No relative motion at all.
    Weld,
    /// The distance between two anchors.
    Distance,
    /// B turns freely about a point that slides along an axis fixed in A (a
    /// wheel on its suspension).
    Wheel,
    /// Drives B toward the pose relative to A that it had at creation.
    Motor,
    /// Pulls a point of one body toward a target point.
    Mouse,
}

/// A spring's stiffness and damping.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Spring {
    /// Natural frequency, Hz; 0 makes the spring exert no force.
    pub hertz: Real,
    /// Damping ratio: 1 is critical damping.
    pub damping_ratio: Real,
}

/// A motor: the relative speed it drives and the most it may push.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Motor {
    /// Target relative speed: rad/s for revolute and wheel joints, m/s for
    /// prismatic and distance joints.
    pub speed: Real,
    /// Largest torque (N·m) or force (N) it applies. A motor of speed 0 with a
    /// small maximum acts as joint friction.
    pub max: Real,
}

/// The description of a joint to add: `JointDesc::revolute(a, b, anchor).limits(-1.0, 1.0)`.
///
/// Anchors and axes are given in world coordinates, at the bodies' poses when
/// the joint is added.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct JointDesc {
    /// What the joint holds.
    pub kind: JointKind,
    /// The first body (the null key for a mouse joint, which pulls toward a
    /// point of the world).
    pub body_a: BodyKey,
    /// The second body.
    pub body_b: BodyKey,
    /// Anchor on A, world coordinates.
    pub anchor_a: Point,
    /// Anchor on B, world coordinates (the same as `anchor_a` except for
    /// distance joints).
    pub anchor_b: Point,
    /// The axis of prismatic and wheel joints, world coordinates, fixed in A.
    pub axis: Vec2,
    /// Lower and upper limits: the relative angle (rad) of revolute joints, the
    /// translation (m) of prismatic and wheel joints, the length (m) of distance joints.
    pub limits: Option<(Real, Real)>,
    /// A motor along or about the joint's free direction.
    pub motor: Option<Motor>,
    /// A spring toward the joint's rest state: angle 0 (revolute), translation
    /// 0 (prismatic, wheel), the rest length (distance), no relative motion
    /// (weld), the target (mouse).
    pub spring: Option<Spring>,
    /// Largest force, N, of mouse and motor joints.
    pub max_force: Real,
    /// Largest torque, N·m, of motor joints.
    pub max_torque: Real,
    /// Fraction of a motor joint's pose error corrected per substep, in [0, 1].
    pub correction_factor: Real,
    /// Stiffness of the rigid rows; `None` takes the world's
    /// [`crate::WorldSettings::joint_hertz`] and damping ratio.
    pub softness: Option<Spring>,
    /// Whether the two bodies still collide with each other. Default false.
    pub collide_connected: bool,
    /// Free for the user.
    pub user_data: u64,
}

impl JointDesc {
    fn new(kind: JointKind, a: BodyKey, b: BodyKey, anchor_a: Point, anchor_b: Point, axis: Vec2) -> Self {
        Self {
            kind,
            body_a: a,
            body_b: b,
            anchor_a,
            anchor_b,
            axis,
            limits: None,
            motor: None,
            spring: None,
            max_force: Real::MAX,
            max_torque: Real::MAX,
            correction_factor: 0.3,
            softness: None,
            collide_connected: false,
            user_data: 0,
        }
    }

    /// A hinge at `anchor`: the bodies share that point and B turns freely
    /// about it. The relative angle is 0 at creation.
    pub fn revolute(a: BodyKey, b: BodyKey, anchor: Point) -> Self {
        Self::new(JointKind::Revolute, a, b, anchor, anchor, Vec2::x())
    }

    /// A slider: B moves along `axis` (fixed in A) through `anchor`, and does
    /// not turn relative to A. The translation is 0 at creation.
    pub fn prismatic(a: BodyKey, b: BodyKey, anchor: Point, axis: Vec2) -> Self {
        Self::new(JointKind::Prismatic, a, b, anchor, anchor, axis)
    }

    /// Glues B to A as they are now.
    pub fn weld(a: BodyKey, b: BodyKey, anchor: Point) -> Self {
        Self::new(JointKind::Weld, a, b, anchor, anchor, Vec2::x())
    }

    /// Keeps `anchor_a` on A and `anchor_b` on B at their present distance:
    /// rigid, unless given a spring or limits (a rope is `.limits(0.0, length)`).
    pub fn distance(a: BodyKey, b: BodyKey, anchor_a: Point, anchor_b: Point) -> Self {
        Self::new(JointKind::Distance, a, b, anchor_a, anchor_b, Vec2::x())
    }

    /// A wheel: B turns freely about `anchor`, which slides along `axis`
    /// (fixed in A) on a spring of 1 Hz, damping ratio 0.7 unless given another.
    pub fn wheel(a: BodyKey, b: BodyKey, anchor: Point, axis: Vec2) -> Self {
        let mut desc = Self::new(JointKind::Wheel, a, b, anchor, anchor, axis);
        desc.spring = Some(Spring { hertz: 1.0, damping_ratio: 0.7 });
        desc
    }

    /// Drives B toward the pose relative to A it has now, with at most
    /// `max_force` and `max_torque` (unbounded unless set).
    pub fn motor_joint(a: BodyKey, b: BodyKey) -> Self {
        Self::new(JointKind::Motor, a, b, Point::origin(), Point::origin(), Vec2::x())
    }

    /// Pulls the point of `body` now at `target` toward `target` (move it with
    /// [`JointMut::set_target`]) on a spring of 5 Hz, damping ratio 0.7.
    pub fn mouse(body: BodyKey, target: Point) -> Self {
        let mut desc = Self::new(JointKind::Mouse, BodyKey::null(), body, target, target, Vec2::x());
        desc.spring = Some(Spring { hertz: 5.0, damping_ratio: 0.7 });
        desc
    }

    /// Lower and upper limits (see [`JointDesc::limits`]).
    pub fn limits(mut self, lower: Real, upper: Real) -> Self {
        self.limits = Some((lower, upper));
        self
    }

    /// A motor of target `speed` and at most `max` torque or force.
    pub fn motor(mut self, speed: Real, max: Real) -> Self {
        self.motor = Some(Motor { speed, max });
        self
    }

    /// A spring of `hertz` and `damping_ratio` toward the rest state.
    pub fn spring(mut self, hertz: Real, damping_ratio: Real) -> Self {
        self.spring = Some(Spring { hertz, damping_ratio });
        self
    }

    /// The largest force of a mouse or motor joint, N.
    pub fn max_force(mut self, force: Real) -> Self {
        self.max_force = force;
        self
    }

    /// The largest torque of a motor joint, N·m.
    pub fn max_torque(mut self, torque: Real) -> Self {
        self.max_torque = torque;
        self
    }

    /// How much of a motor joint's pose error is corrected per substep.
    pub fn correction_factor(mut self, factor: Real) -> Self {
        self.correction_factor = factor;
        self
    }

    /// Stiffness of the rigid rows, instead of the world's.
    pub fn softness(mut self, hertz: Real, damping_ratio: Real) -> Self {
        self.softness = Some(Spring { hertz, damping_ratio });
        self
    }

    /// Whether the jointed bodies collide with each other.
    pub fn collide_connected(mut self, collide: bool) -> Self {
        self.collide_connected = collide;
        self
    }

    /// Data kept for the user.
    pub fn user_data(mut self, data: u64) -> Self {
        self.user_data = data;
        self
    }

    /// Checks every number and option, naming the first bad one. The bodies
    /// are checked by [`World::add_joint`](crate::World::add_joint).
    pub fn validate(&self) -> Result<(), WorldError> {
        let bad = |name: &'static str, value: Real| Err(WorldError::InvalidJointProperty { name, value });
        let point =
            |name: &'static str, p: &Point| if is_finite_point(p) { Ok(()) } else { bad(name, p.x + p.y) };
        point("anchor_a", &self.anchor_a)?;
        point("anchor_b", &self.anchor_b)?;
        if !is_finite_vec(&self.axis) {
            return bad("axis", self.axis.x + self.axis.y);
        }
        if self.axis.norm_squared() < Real::EPSILON * Real::EPSILON {
            return bad("axis length", self.axis.norm());
        }
        let wrong = |name: &'static str| Err(WorldError::WrongJointKind { name, kind: self.kind });
        use JointKind::*;
        if let Some((lower, upper)) = self.limits {
            if !matches!(self.kind, Revolute | Prismatic | Distance | Wheel) {
                return wrong("limits");
            }
            for (name, v) in [("lower limit", lower), ("upper limit", upper)] {
                if !v.is_finite() {
                    return bad(name, v);
                }
            }
            if lower > upper {
                return bad("lower limit (above the upper)", lower);
            }
            if self.kind == Distance && lower < 0.0 {
                return bad("minimum length", lower);
            }
        }
        if let Some(m) = self.motor {
            if !matches!(self.kind, Revolute | Prismatic | Distance | Wheel) {
                return wrong("motor");
            }
            if !m.speed.is_finite() {
                return bad("motor speed", m.speed);
            }
            non_negative("motor max force or torque", m.max)?;
        }
        if let Some(s) = self.spring {
            if self.kind == Motor {
                return wrong("spring");
            }
            non_negative("spring hertz", s.hertz)?;
            non_negative("spring damping ratio", s.damping_ratio)?;
        }
        if let Some(s) = self.softness {
            non_negative("softness hertz", s.hertz)?;
            non_negative("softness damping ratio", s.damping_ratio)?;
        }
        non_negative("max force", self.max_force)?;
        non_negative("max torque", self.max_torque)?;
        if !(0.0..=1.0).contains(&self.correction_factor) {
            return bad("correction factor", self.correction_factor);
        }
        Ok(())
    }
}

/// `Ok` for a finite number ≥ 0, else the error naming it.
fn non_negative(name: &'static str, value: Real) -> Result<(), WorldError> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(WorldError::InvalidJointProperty { name, value })
    }
}

/// The accumulated impulses of a joint's rows, kept from step to step to warm
/// start the next (N·s per substep, or N·m·s for angular rows). Which fields a
/// kind uses is said in `solver/joints/`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct JointImpulses {
    /// Point rows (revolute, weld, motor, mouse); prismatic: x is the
    /// perpendicular row.
    pub linear: Vec2,
    /// Angular row (prismatic, weld, motor joint, mouse damping).
    pub angular: Real,
    /// The one-row rigid constraint (distance) or the perpendicular row (wheel).
    pub axial: Real,
    pub spring: Real,
    pub motor: Real,
    pub lower: Real,
    pub upper: Real,
}

impl JointImpulses {
    /// Whether every impulse is finite.
    pub fn is_finite(&self) -> bool {
        let Self { linear, angular, axial, spring, motor, lower, upper } = *self;
        [linear.x, linear.y, angular, axial, spring, motor, lower, upper].iter().all(|v| v.is_finite())
    }
}

/// A joint of a [`World`](crate::World). Read it through [`World::joint`](crate::World::joint); change it
/// through [`World::joint_mut`](crate::World::joint_mut), which hands out a [`JointMut`].
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Joint {
    pub(crate) desc: JointDesc,
    /// The joint's frame in A's body frame (origin at the body's origin).
    pub(crate) frame_a: Isometry,
    /// The joint's frame in B's body frame.
    pub(crate) frame_b: Isometry,
    /// Rest length of a distance joint, m.
    pub(crate) length: Real,
    /// The mouse joint's target, world coordinates.
    pub(crate) target: Point,
    pub(crate) impulses: JointImpulses,
    /// Last step's force on B, N, and torque, N·m.
    pub(crate) force: Vec2,
    pub(crate) torque: Real,
    /// Set by a change; the next step wakes the bodies.
    pub(crate) wake_requested: bool,
}

impl Joint {
    /// What the joint holds.
    pub fn kind(&self) -> JointKind {
        self.desc.kind
    }

    /// The first body (the null key for a mouse joint).
    pub fn body_a(&self) -> BodyKey {
        self.desc.body_a
    }

    /// The second body.
    pub fn body_b(&self) -> BodyKey {
        self.desc.body_b
    }

    /// The description the joint was made from, with the changes made since.
    pub fn desc(&self) -> &JointDesc {
        &self.desc
    }

    /// The anchor on A in A's body frame.
    pub fn local_anchor_a(&self) -> Point {
        Point::from(self.frame_a.translation.vector)
    }

    /// The anchor on B in B's body frame.
    pub fn local_anchor_b(&self) -> Point {
        Point::from(self.frame_b.translation.vector)
    }

    /// The joint's frame in A's body frame: its origin is A's anchor and its
    /// x axis the joint's axis (the slide of a prismatic or wheel joint), the
    /// zero of the relative angle. With [`Joint::frame_b`], what a debug view
    /// needs to draw the axis and the limits where the solver sees them.
    pub fn frame_a(&self) -> Isometry {
        self.frame_a
    }

    /// The joint's frame in B's body frame: origin at B's anchor; it turns
    /// away from [`Joint::frame_a`] by the joint's relative angle.
    pub fn frame_b(&self) -> Isometry {
        self.frame_b
    }

    /// The force the joint applied on B during the last step, world frame, N
    /// (A got the opposite). Compare with a threshold to break a joint.
    pub fn constraint_force(&self) -> Vec2 {
        self.force
    }

    /// The torque the joint applied on B about its anchor during the last
    /// step, N·m.
    pub fn constraint_torque(&self) -> Real {
        self.torque
    }

    /// The rest length of a distance joint, m (0 for other kinds).
    pub fn length(&self) -> Real {
        self.length
    }

    /// The mouse joint's target.
    pub fn target(&self) -> Point {
        self.target
    }

    /// Free for the user.
    pub fn user_data(&self) -> u64 {
        self.desc.user_data
    }

    /// Sets the motor's target speed (a motor with no force limit is created if
    /// the joint had none), and wakes the bodies.
    pub(crate) fn set_motor_speed(&mut self, speed: Real) -> Result<(), WorldError> {
        let max = self.desc.motor.map_or(Real::MAX, |m| m.max);
        self.set_motor(speed, max)
    }

    /// Sets the motor's speed and largest torque or force, and wakes the bodies.
    pub(crate) fn set_motor(&mut self, speed: Real, max: Real) -> Result<(), WorldError> {
        self.change(|d| d.motor = Some(Motor { speed, max }))
    }

    /// Sets the limits, and wakes the bodies.
    pub(crate) fn set_limits(&mut self, lower: Real, upper: Real) -> Result<(), WorldError> {
        self.change(|d| d.limits = Some((lower, upper)))
    }

    /// Sets the spring, and wakes the bodies.
    pub(crate) fn set_spring(&mut self, hertz: Real, damping_ratio: Real) -> Result<(), WorldError> {
        self.change(|d| d.spring = Some(Spring { hertz, damping_ratio }))
    }

    /// Sets the largest force of a mouse or motor joint, and wakes the bodies.
    pub(crate) fn set_max_force(&mut self, force: Real) -> Result<(), WorldError> {
        self.change(|d| d.max_force = force)
    }

    /// Moves a mouse joint's target, and wakes the body.
    pub(crate) fn set_target(&mut self, target: Point) -> Result<(), WorldError> {
        if self.desc.kind != JointKind::Mouse {
            return Err(WorldError::WrongJointKind { name: "target", kind: self.desc.kind });
        }
        if !is_finite_point(&target) {
            return Err(WorldError::InvalidJointProperty { name: "target", value: target.x + target.y });
        }
        self.target = target;
        self.wake_requested = true;
        Ok(())
    }

    /// Forgets the accumulated impulses (warm starting begins afresh) and
    /// the last step's force and torque.
    pub(crate) fn clear_impulses(&mut self) {
        self.impulses = JointImpulses::default();
        self.force = Vec2::zeros();
        self.torque = 0.0;
    }

    /// Whether the joint is only a shared point: a revolute joint without
    /// limits, motor or a spring with stiffness. The solver packs these four
    /// to a SIMD bundle.
    pub(crate) fn is_plain_point(&self) -> bool {
        let d = &self.desc;
        d.kind == JointKind::Revolute
            && d.limits.is_none()
            && d.motor.is_none()
            && d.spring.is_none_or(|s| s.hertz == 0.0)
    }

    /// Applies `edit` to a copy of the description and keeps it if it is
    /// valid; the joint is unchanged otherwise.
    fn change(&mut self, edit: impl FnOnce(&mut JointDesc)) -> Result<(), WorldError> {
        let mut desc = self.desc;
        edit(&mut desc);
        desc.validate()?;
        self.desc = desc;
        self.wake_requested = true;
        Ok(())
    }
}

/// The changeable face of a world's joint, handed out as `&mut JointMut` by
/// [`World::joint_mut`](crate::World::joint_mut). It reads as a [`Joint`] (through `Deref`) and changes
/// its motor, limits, spring, force limit and target, each checked as
/// [`JointDesc::validate`] checks a new joint; a refused change leaves the
/// joint as it was.
///
/// It is unsized (a one-joint slice), so it can be neither assigned nor
/// swapped: no joint can be replaced wholesale, nor one copied in from another
/// world with bodies this world does not have.
///
/// ```
/// # use lamina_dynamics::{BodyDesc, JointDesc, World, WorldSettings};
/// # use lamina_geometry::Point;
/// let mut world = World::new(WorldSettings::default());
/// let (a, b) = (world.add_body(BodyDesc::fixed()), world.add_body(BodyDesc::dynamic()));
/// let hinge = world.add_joint(JointDesc::revolute(a, b, Point::origin()))?;
/// let joint = world.joint_mut(hinge).unwrap();
/// joint.set_motor(2.0, 10.0)?;
/// assert_eq!(joint.desc().motor.map(|m| m.speed), Some(2.0)); // reads as a Joint
/// # Ok::<(), lamina_dynamics::WorldError>(())
/// ```
///
/// ```compile_fail
/// # use lamina_dynamics::{BodyDesc, JointDesc, World, WorldSettings};
/// # use lamina_geometry::Point;
/// let mut world = World::new(WorldSettings::default());
/// let (a, b) = (world.add_body(BodyDesc::fixed()), world.add_body(BodyDesc::dynamic()));
/// let hinge = world.add_joint(JointDesc::revolute(a, b, Point::origin())).unwrap();
/// let copy = world.joint(hinge).unwrap().clone();
/// *world.joint_mut(hinge).unwrap() = copy; // refused: a joint is not replaced
/// ```
#[repr(transparent)]
pub struct JointMut([Joint]);

impl JointMut {
    pub(crate) fn new(joint: &mut Joint) -> &mut JointMut {
        let one: *mut [Joint] = std::slice::from_mut(joint);
        // SAFETY: `JointMut` is a transparent wrapper of `[Joint]`, so the two
        // pointer types have the same layout and the same slice length; the
        // borrow's lifetime carries over unchanged.
        unsafe { &mut *(one as *mut JointMut) }
    }

    fn joint(&mut self) -> &mut Joint {
        &mut self.0[0]
    }

    /// Sets the motor's target speed (a motor with no force limit is created if
    /// the joint had none), and wakes the bodies.
    pub fn set_motor_speed(&mut self, speed: Real) -> Result<(), WorldError> {
        self.joint().set_motor_speed(speed)
    }

    /// Sets the motor's speed and largest torque or force, and wakes the bodies.
    pub fn set_motor(&mut self, speed: Real, max: Real) -> Result<(), WorldError> {
        self.joint().set_motor(speed, max)
    }

    /// Sets the limits, and wakes the bodies.
    pub fn set_limits(&mut self, lower: Real, upper: Real) -> Result<(), WorldError> {
        self.joint().set_limits(lower, upper)
    }

    /// Sets the spring, and wakes the bodies.
    pub fn set_spring(&mut self, hertz: Real, damping_ratio: Real) -> Result<(), WorldError> {
        self.joint().set_spring(hertz, damping_ratio)
    }

    /// Sets the largest force of a mouse or motor joint, and wakes the bodies.
    pub fn set_max_force(&mut self, force: Real) -> Result<(), WorldError> {
        self.joint().set_max_force(force)
    }

    /// Moves a mouse joint's target, and wakes the body.
    pub fn set_target(&mut self, target: Point) -> Result<(), WorldError> {
        self.joint().set_target(target)
    }
}

impl std::ops::Deref for JointMut {
    type Target = Joint;

    fn deref(&self) -> &Joint {
        &self.0[0]
    }
}

impl std::fmt::Debug for JointMut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Joint::fmt(self, f)
    }
}

/// Where a joint's free direction stands: see [`World::joint_motion`](crate::World::joint_motion).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct JointMotion {
    /// B's angle relative to A since creation, rad, in (−π, π].
    pub angle: Real,
    /// B's angular velocity relative to A, rad/s.
    pub angular_speed: Real,
    /// Translation along the axis (prismatic, wheel), or the anchors'
    /// distance (distance joint), m.
    pub translation: Real,
    /// Rate of change of `translation`, m/s.
    pub linear_speed: Real,
}

/// The joint of `desc` between bodies at `pose_a` and `pose_b`; B's centre of
/// mass is `center_b` (the motor joint's anchor).
pub(crate) fn make_joint(desc: JointDesc, pose_a: &Isometry, pose_b: &Isometry, center_b: Point) -> Joint {
    let axis = desc.axis.normalize();
    // Both frames point their x axis along the joint axis in the world now,
    // so that the relative angle starts at zero.
    let axis_rotation = Rotation::from_cos_sin_unchecked(axis.x, axis.y);
    let (anchor_a, anchor_b) = match desc.kind {
        JointKind::Motor => (center_b, center_b),
        _ => (desc.anchor_a, desc.anchor_b),
    };
    let frame = |pose: &Isometry, anchor: Point| {
        Isometry::from_parts(
            (pose.inverse_transform_point(&anchor)).coords.into(),
            pose.rotation.inverse() * axis_rotation,
        )
    };
    let length = match desc.kind {
        JointKind::Distance => (desc.anchor_b - desc.anchor_a).norm(),
        _ => 0.0,
    };
    Joint {
        desc,
        frame_a: frame(pose_a, anchor_a),
        frame_b: frame(pose_b, anchor_b),
        length,
        target: desc.anchor_a,
        impulses: JointImpulses::default(),
        force: Vec2::zeros(),
        torque: 0.0,
        wake_requested: false,
    }
}

/// Whether a joint of `joints` between bodies `a` and `b` keeps them from
/// colliding.
pub(crate) fn joint_forbids_contact(
    bodies: &TaggedMap<BodyKey, Body>,
    joints: &TaggedMap<JointKey, Joint>,
    a: BodyKey,
    b: BodyKey,
) -> bool {
    let (ja, jb) = (&bodies[a].joints, &bodies[b].joints);
    let (list, other) = if ja.len() <= jb.len() { (ja, b) } else { (jb, a) };
    list.iter().any(|&k| {
        let d = &joints[k].desc;
        !d.collide_connected && (d.body_a == other || d.body_b == other)
    })
}
