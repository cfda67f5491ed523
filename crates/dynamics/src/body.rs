//! Rigid bodies: their kind, pose, velocity and mass, and the builder that makes them.

use lamina_geometry::{Isometry, MassProperties, Point, Real, Rotation, Vec2};
use smallvec::SmallVec;

use crate::{ColliderKey, ContactKey, JointKey, WorldError};

/// How a body moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BodyKind {
    /// Moved by forces, gravity and contacts; has mass.
    Dynamic,
    /// Never moves (ground, walls); infinite mass.
    Fixed,
    /// Moves with the velocity it is given, pushes dynamic bodies, is not pushed back.
    Kinematic,
}

/// The description of a body to add: `BodyDesc::dynamic().translation(0.0, 2.0)`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyDesc {
    /// Kind of body.
    pub kind: BodyKind,
    /// Position of the body's origin, metres.
    pub translation: Vec2,
    /// Angle, radians counter-clockwise.
    pub angle: Real,
    /// Initial velocity of the centre of mass, m/s.
    pub linear_velocity: Vec2,
    /// Initial angular velocity, rad/s.
    pub angular_velocity: Real,
    /// Linear damping, 1/s: velocity decays as 1/(1 + h·damping) per substep.
    pub linear_damping: Real,
    /// Angular damping, 1/s.
    pub angular_damping: Real,
    /// Multiplies the world's gravity for this body.
    pub gravity_scale: Real,
    /// Never rotate (infinite rotational inertia).
    pub fixed_rotation: bool,
    /// May fall asleep when resting.
    pub can_sleep: bool,
    /// Starts asleep (it wakes when touched or moved).
    pub asleep: bool,
    /// Swept against dynamic bodies too, not only fixed and kinematic ones,
    /// when it moves fast (see `docs/continuous.md`). Default false.
    pub bullet: bool,
    /// Free for the user: an index into the user's own tables, say.
    pub user_data: u64,
}

impl BodyDesc {
    fn new(kind: BodyKind) -> Self {
        Self {
            kind,
            translation: Vec2::zeros(),
            angle: 0.0,
            linear_velocity: Vec2::zeros(),
            angular_velocity: 0.0,
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: 1.0,
            fixed_rotation: false,
            can_sleep: true,
            asleep: false,
            bullet: false,
            user_data: 0,
        }
    }

    /// A dynamic body at the origin.
    pub fn dynamic() -> Self {
        Self::new(BodyKind::Dynamic)
    }

    /// A fixed body at the origin.
    pub fn fixed() -> Self {
        Self::new(BodyKind::Fixed)
    }

    /// A kinematic body at the origin.
    pub fn kinematic() -> Self {
        Self::new(BodyKind::Kinematic)
    }

    /// Places the body's origin at (x, y).
    pub fn translation(mut self, x: Real, y: Real) -> Self {
        self.translation = Vec2::new(x, y);
        self
    }

    /// Turns the body by `angle` radians.
    pub fn angle(mut self, angle: Real) -> Self {
        self.angle = angle;
        self
    }

    /// Sets the initial linear velocity.
    pub fn linear_velocity(mut self, v: Vec2) -> Self {
        self.linear_velocity = v;
        self
    }

    /// Sets the initial angular velocity.
    pub fn angular_velocity(mut self, w: Real) -> Self {
        self.angular_velocity = w;
        self
    }

    /// Sets linear damping (1/s).
    pub fn linear_damping(mut self, d: Real) -> Self {
        self.linear_damping = d;
        self
    }

    /// Sets angular damping (1/s).
    pub fn angular_damping(mut self, d: Real) -> Self {
        self.angular_damping = d;
        self
    }

    /// Scales gravity for this body (0 floats, −1 falls up).
    pub fn gravity_scale(mut self, s: Real) -> Self {
        self.gravity_scale = s;
        self
    }

    /// Keeps the body from rotating.
    pub fn fixed_rotation(mut self, fixed: bool) -> Self {
        self.fixed_rotation = fixed;
        self
    }

    /// Allows or forbids sleeping.
    pub fn can_sleep(mut self, can: bool) -> Self {
        self.can_sleep = can;
        self
    }

    /// Starts the body asleep.
    pub fn asleep(mut self, asleep: bool) -> Self {
        self.asleep = asleep;
        self
    }

    /// Makes the body a bullet: when it moves fast it is swept against
    /// dynamic bodies as well as fixed and kinematic ones, so that it cannot
    /// pass through a thin moving body. Costs a sweep per fast step.
    pub fn bullet(mut self, bullet: bool) -> Self {
        self.bullet = bullet;
        self
    }

    /// Attaches user data.
    pub fn user_data(mut self, data: u64) -> Self {
        self.user_data = data;
        self
    }

    /// Checks that every number is finite and damping is not negative.
    pub fn validate(&self) -> Result<(), WorldError> {
        let check = |name: &'static str, value: Real, ok: bool| {
            if ok { Ok(()) } else { Err(WorldError::InvalidBodyProperty { name, value }) }
        };
        check("translation.x", self.translation.x, self.translation.x.is_finite())?;
        check("translation.y", self.translation.y, self.translation.y.is_finite())?;
        check("angle", self.angle, self.angle.is_finite())?;
        check("linear_velocity.x", self.linear_velocity.x, self.linear_velocity.x.is_finite())?;
        check("linear_velocity.y", self.linear_velocity.y, self.linear_velocity.y.is_finite())?;
        check("angular_velocity", self.angular_velocity, self.angular_velocity.is_finite())?;
        check(
            "linear_damping",
            self.linear_damping,
            self.linear_damping.is_finite() && self.linear_damping >= 0.0,
        )?;
        check(
            "angular_damping",
            self.angular_damping,
            self.angular_damping.is_finite() && self.angular_damping >= 0.0,
        )?;
        check("gravity_scale", self.gravity_scale, self.gravity_scale.is_finite())
    }
}

/// A rigid body in a [`crate::World`]. Read it through
/// [`World::body`](crate::World::body); change it through
/// [`World::body_mut`](crate::World::body_mut), which hands out a [`BodyMut`].
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Body {
    pub(crate) kind: BodyKind,
    /// Pose of the body's origin.
    pub(crate) pose: Isometry,
    /// World position of the centre of mass. Snapshots write how it differs
    /// from the pose applied to `local_center`.
    #[cfg_attr(feature = "serde", serde(skip, default = "Point::origin"))]
    pub(crate) center: Point,
    /// Centre of mass in the body's frame.
    pub(crate) local_center: Point,
    pub(crate) linear_velocity: Vec2,
    pub(crate) angular_velocity: Real,
    pub(crate) mass: Real,
    pub(crate) inv_mass: Real,
    pub(crate) inertia: Real,
    pub(crate) inv_inertia: Real,
    pub(crate) linear_damping: Real,
    pub(crate) angular_damping: Real,
    pub(crate) gravity_scale: Real,
    pub(crate) fixed_rotation: bool,
    pub(crate) can_sleep: bool,
    pub(crate) user_data: u64,
    pub(crate) force: Vec2,
    pub(crate) torque: Real,
    /// Held inline for up to two: finalising a step reads every awake body's
    /// first collider, and a list on the heap cost a cache miss per body.
    pub(crate) colliders: SmallVec<[ColliderKey; 2]>,
    /// The body's contacts (touching or not), in no particular order.
    pub(crate) contacts: Vec<ContactKey>,
    /// The body's joints, in creation order.
    pub(crate) joints: Vec<JointKey>,
    /// Largest distance from the centre of mass to a collider point: turns an
    /// angular speed into a surface speed for the sleep test.
    pub(crate) extent: Real,
    /// The smallest of its solid colliders' inner radii ([`Shape::inner_radius`](lamina_geometry::Shape::inner_radius)):
    /// a body that moves more than half of it in a step is swept for
    /// continuous collision. Infinite without colliders.
    pub(crate) min_extent: Real,
    /// Its solid colliders' mass properties summed in collider order, what
    /// its mass is made from. Kept, so that a new collider adds its own part
    /// instead of the sum being made again: a body given thousands of
    /// colliders one by one (a terrain of boxes) would otherwise cost the
    /// square of their number.
    #[cfg_attr(feature = "serde", serde(skip, default = "no_mass"))]
    pub(crate) collider_mass: MassProperties,
    /// The farthest any of its colliders reaches from the body's origin
    /// (0 without colliders): with the centre of mass's offset, its `extent`.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) collider_reach: Real,
    pub(crate) bullet: bool,
    pub(crate) awake: bool,
    pub(crate) sleep_time: Real,
    /// Set by user changes to a sleeping body; the next step wakes its island.
    pub(crate) wake_requested: bool,
    /// The colliders' bounds are not yet where the body is (it was just
    /// given a collider, or the speculative distance changed); the next step
    /// refreshes them.
    pub(crate) bounds_stale: bool,
    /// Index in the solver's body arrays during a step.
    pub(crate) solver_index: u32,
    /// The island the body belongs to (`NO_INDEX` for fixed bodies).
    pub(crate) island: u32,
}

/// No solver slot: fixed or sleeping bodies.
pub(crate) const NO_INDEX: u32 = u32::MAX;

impl Body {
    pub(crate) fn from_desc(desc: &BodyDesc) -> Self {
        let (sin, cos) = lamina_geometry::trig::sin_cos(desc.angle);
        let pose = Isometry::from_parts(desc.translation.into(), Rotation::from_cos_sin_unchecked(cos, sin));
        let movable = desc.kind != BodyKind::Fixed;
        Self {
            kind: desc.kind,
            pose,
            center: Point::from(desc.translation),
            local_center: Point::origin(),
            linear_velocity: if movable { desc.linear_velocity } else { Vec2::zeros() },
            angular_velocity: if movable { desc.angular_velocity } else { 0.0 },
            mass: 0.0,
            inv_mass: 0.0,
            inertia: 0.0,
            inv_inertia: 0.0,
            linear_damping: desc.linear_damping,
            angular_damping: desc.angular_damping,
            gravity_scale: desc.gravity_scale,
            fixed_rotation: desc.fixed_rotation,
            can_sleep: desc.can_sleep,
            user_data: desc.user_data,
            force: Vec2::zeros(),
            torque: 0.0,
            colliders: SmallVec::new(),
            contacts: Vec::new(),
            joints: Vec::new(),
            extent: 0.0,
            min_extent: Real::INFINITY,
            collider_mass: MassProperties::ZERO,
            collider_reach: 0.0,
            bullet: desc.bullet,
            awake: movable && !desc.asleep,
            sleep_time: 0.0,
            wake_requested: false,
            bounds_stale: true,
            solver_index: NO_INDEX,
            island: NO_INDEX,
        }
    }

    /// The pose of the body's origin.
    #[inline]
    pub fn position(&self) -> Isometry {
        self.pose
    }

    /// The body's origin.
    #[inline]
    pub fn translation(&self) -> Vec2 {
        self.pose.translation.vector
    }

    /// The body's rotation.
    #[inline]
    pub fn rotation(&self) -> Rotation {
        self.pose.rotation
    }

    /// The body's angle in radians, in (−π, π].
    #[inline]
    pub fn angle(&self) -> Real {
        self.pose.rotation.angle()
    }

    /// The centre of mass, world frame.
    #[inline]
    pub fn center_of_mass(&self) -> Point {
        self.center
    }

    /// The centre of mass in the body's own frame.
    #[inline]
    pub fn local_center_of_mass(&self) -> Point {
        self.local_center
    }

    /// Velocity of the centre of mass, m/s.
    #[inline]
    pub fn linear_velocity(&self) -> Vec2 {
        self.linear_velocity
    }

    /// Angular velocity, rad/s.
    #[inline]
    pub fn angular_velocity(&self) -> Real {
        self.angular_velocity
    }

    /// Velocity of the material point at `world_point`.
    pub fn velocity_at(&self, world_point: &Point) -> Vec2 {
        self.velocity_at_arm(&(world_point - self.center))
    }

    /// Velocity of the material point at `r` from the centre of mass (world
    /// orientation). A fixed body's is zero: its velocities are zero from
    /// its making on.
    #[inline]
    pub(crate) fn velocity_at_arm(&self, r: &Vec2) -> Vec2 {
        self.linear_velocity + Vec2::new(-r.y, r.x) * self.angular_velocity
    }

    /// Mass in kilograms (0 for fixed and kinematic bodies).
    #[inline]
    pub fn mass(&self) -> Real {
        self.mass
    }

    /// Rotational inertia about the centre of mass, kg·m².
    #[inline]
    pub fn inertia(&self) -> Real {
        self.inertia
    }

    /// The body's mass properties, centre in the body's frame.
    pub fn mass_properties(&self) -> MassProperties {
        MassProperties { mass: self.mass, center: self.local_center, inertia: self.inertia }
    }

    /// What kind of body this is.
    #[inline]
    pub fn kind(&self) -> BodyKind {
        self.kind
    }

    /// True for a bullet ([`BodyDesc::bullet`]): swept against dynamic bodies too.
    #[inline]
    pub fn is_bullet(&self) -> bool {
        self.bullet
    }

    /// The id of the island the body belongs to, for tools that show which
    /// bodies sleep and wake together; `None` for fixed bodies, which join no
    /// island. Ids are reused once an island empties, and change when islands
    /// merge or split.
    #[inline]
    pub fn island(&self) -> Option<u32> {
        (self.island != NO_INDEX).then_some(self.island)
    }

    /// The user data given at creation or by [`BodyMut::set_user_data`].
    #[inline]
    pub fn user_data(&self) -> u64 {
        self.user_data
    }

    /// Replaces the user data.
    pub(crate) fn set_user_data(&mut self, data: u64) {
        self.user_data = data;
    }

    /// The body's joints, in the order they were added.
    pub fn joints(&self) -> &[JointKey] {
        &self.joints
    }

    /// The body's colliders, in the order they were added.
    pub fn colliders(&self) -> &[ColliderKey] {
        &self.colliders
    }

    /// True while the body sleeps (fixed bodies never count as sleeping).
    #[inline]
    pub fn is_sleeping(&self) -> bool {
        !self.awake && self.kind != BodyKind::Fixed
    }

    /// Sets the linear velocity and wakes the body. Refuses non-finite values.
    pub(crate) fn set_linear_velocity(&mut self, v: Vec2) -> Result<(), WorldError> {
        finite("linear_velocity.x", v.x)?;
        finite("linear_velocity.y", v.y)?;
        if self.kind != BodyKind::Fixed {
            self.linear_velocity = v;
            self.request_wake();
        }
        Ok(())
    }

    /// Sets the angular velocity and wakes the body. Refuses non-finite values.
    pub(crate) fn set_angular_velocity(&mut self, w: Real) -> Result<(), WorldError> {
        finite("angular_velocity", w)?;
        if self.kind != BodyKind::Fixed && !self.fixed_rotation {
            self.angular_velocity = w;
            self.request_wake();
        }
        Ok(())
    }

    /// Adds a force (newtons) at the centre of mass until the end of the next step.
    pub(crate) fn apply_force(&mut self, force: Vec2) -> Result<(), WorldError> {
        self.apply_force_at(force, self.center)
    }

    /// Adds a force (newtons) at a world point until the end of the next step.
    pub(crate) fn apply_force_at(&mut self, force: Vec2, point: Point) -> Result<(), WorldError> {
        finite("force.x", force.x)?;
        finite("force.y", force.y)?;
        finite("point.x", point.x)?;
        finite("point.y", point.y)?;
        if self.kind == BodyKind::Dynamic {
            let r = point - self.center;
            // Finite parts can still add up past the largest number: check the totals.
            let total = self.force + force;
            let torque = self.torque + (r.x * force.y - r.y * force.x);
            finite("total force.x", total.x)?;
            finite("total force.y", total.y)?;
            finite("total torque", torque)?;
            self.force = total;
            self.torque = torque;
            self.request_wake();
        }
        Ok(())
    }

    /// Adds a torque (N·m) until the end of the next step.
    pub(crate) fn apply_torque(&mut self, torque: Real) -> Result<(), WorldError> {
        finite("torque", torque)?;
        if self.kind == BodyKind::Dynamic {
            finite("total torque", self.torque + torque)?;
            self.torque += torque;
            self.request_wake();
        }
        Ok(())
    }

    /// Changes the velocity at once by `impulse` (N·s) applied at a world point.
    pub(crate) fn apply_impulse_at(&mut self, impulse: Vec2, point: Point) -> Result<(), WorldError> {
        finite("impulse.x", impulse.x)?;
        finite("impulse.y", impulse.y)?;
        finite("point.x", point.x)?;
        finite("point.y", point.y)?;
        if self.kind == BodyKind::Dynamic {
            let r = point - self.center;
            let v = self.linear_velocity + impulse * self.inv_mass;
            let w = self.angular_velocity + self.inv_inertia * (r.x * impulse.y - r.y * impulse.x);
            finite("velocity.x after impulse", v.x)?;
            finite("velocity.y after impulse", v.y)?;
            finite("angular velocity after impulse", w)?;
            self.linear_velocity = v;
            self.angular_velocity = w;
            self.request_wake();
        }
        Ok(())
    }

    /// Changes the velocity at once by `impulse` (N·s) applied at the centre of mass.
    pub(crate) fn apply_impulse(&mut self, impulse: Vec2) -> Result<(), WorldError> {
        self.apply_impulse_at(impulse, self.center)
    }

    fn request_wake(&mut self) {
        // A velocity, force or impulse changes no bounds (they hold the body
        // where it is): only waking is needed.
        if !self.awake {
            self.wake_requested = true;
        }
        self.sleep_time = 0.0;
    }

    /// Sets mass, centre and inertia from the colliders' summed mass
    /// properties (in the body's frame), keeping the centre of mass's velocity.
    pub(crate) fn set_mass_properties(&mut self, total: MassProperties) {
        if self.kind != BodyKind::Dynamic {
            self.mass = 0.0;
            self.inv_mass = 0.0;
            self.inertia = 0.0;
            self.inv_inertia = 0.0;
            self.local_center = if total.mass > 0.0 { total.center } else { Point::origin() };
        } else {
            // A dynamic body needs mass to move; massless shapes (segments) get 1 kg, as in Box2D.
            self.mass = if total.mass > 0.0 { total.mass } else { 1.0 };
            self.inv_mass = 1.0 / self.mass;
            self.local_center = if total.mass > 0.0 { total.center } else { Point::origin() };
            self.inertia = if self.fixed_rotation { 0.0 } else { total.inertia };
            self.inv_inertia = if self.inertia > 0.0 { 1.0 / self.inertia } else { 0.0 };
        }
        self.center = self.pose * self.local_center;
    }
}

/// The changeable face of a world's body, handed out as `&mut BodyMut` by
/// [`World::body_mut`](crate::World::body_mut). It reads as a [`Body`]
/// (through `Deref`) and changes only what a user may change without breaking
/// the world's bookkeeping: velocities, forces, impulses and user data.
///
/// It is unsized (a one-body slice), so it can be neither assigned nor
/// swapped: no body can be overwritten wholesale, nor one copied in from
/// another world with that world's collider keys and island ids.
///
/// ```
/// # use lamina_dynamics::{BodyDesc, World, WorldSettings};
/// # use lamina_geometry::Vec2;
/// let mut world = World::new(WorldSettings::default());
/// let ball = world.add_body(BodyDesc::dynamic());
/// let body = world.body_mut(ball).unwrap();
/// body.set_linear_velocity(Vec2::new(1.0, 0.0))?;
/// assert_eq!(body.linear_velocity(), Vec2::new(1.0, 0.0)); // reads as a Body
/// # Ok::<(), lamina_dynamics::WorldError>(())
/// ```
///
/// ```compile_fail
/// # use lamina_dynamics::{BodyDesc, World, WorldSettings};
/// let mut world = World::new(WorldSettings::default());
/// let ball = world.add_body(BodyDesc::dynamic());
/// let copy = world.body(ball).unwrap().clone();
/// *world.body_mut(ball).unwrap() = copy; // refused: a body is not replaced
/// ```
#[repr(transparent)]
pub struct BodyMut([Body]);

impl BodyMut {
    pub(crate) fn new(body: &mut Body) -> &mut BodyMut {
        let one: *mut [Body] = std::slice::from_mut(body);
        // SAFETY: `BodyMut` is a transparent wrapper of `[Body]`, so the two
        // pointer types have the same layout and the same slice length; the
        // borrow's lifetime carries over unchanged.
        unsafe { &mut *(one as *mut BodyMut) }
    }

    fn body(&mut self) -> &mut Body {
        &mut self.0[0]
    }

    /// Sets the linear velocity and wakes the body. Refuses non-finite values.
    /// A fixed body keeps its zero velocity.
    pub fn set_linear_velocity(&mut self, v: Vec2) -> Result<(), WorldError> {
        self.body().set_linear_velocity(v)
    }

    /// Sets the angular velocity and wakes the body. Refuses non-finite
    /// values. Fixed bodies and bodies with fixed rotation keep theirs.
    pub fn set_angular_velocity(&mut self, w: Real) -> Result<(), WorldError> {
        self.body().set_angular_velocity(w)
    }

    /// Adds a force (newtons) at the centre of mass until the end of the next step.
    pub fn apply_force(&mut self, force: Vec2) -> Result<(), WorldError> {
        self.body().apply_force(force)
    }

    /// Adds a force (newtons) at a world point until the end of the next step.
    pub fn apply_force_at(&mut self, force: Vec2, point: Point) -> Result<(), WorldError> {
        self.body().apply_force_at(force, point)
    }

    /// Adds a torque (N·m) until the end of the next step.
    pub fn apply_torque(&mut self, torque: Real) -> Result<(), WorldError> {
        self.body().apply_torque(torque)
    }

    /// Changes the velocity at once by `impulse` (N·s) applied at a world point.
    pub fn apply_impulse_at(&mut self, impulse: Vec2, point: Point) -> Result<(), WorldError> {
        self.body().apply_impulse_at(impulse, point)
    }

    /// Changes the velocity at once by `impulse` (N·s) applied at the centre of mass.
    pub fn apply_impulse(&mut self, impulse: Vec2) -> Result<(), WorldError> {
        self.body().apply_impulse(impulse)
    }

    /// Replaces the user data.
    pub fn set_user_data(&mut self, data: u64) {
        self.body().set_user_data(data);
    }
}

impl std::ops::Deref for BodyMut {
    type Target = Body;

    fn deref(&self) -> &Body {
        &self.0[0]
    }
}

impl std::fmt::Debug for BodyMut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Body::fmt(self, f)
    }
}

fn finite(name: &'static str, value: Real) -> Result<(), WorldError> {
    if value.is_finite() { Ok(()) } else { Err(WorldError::InvalidBodyProperty { name, value }) }
}

/// The mass properties of nothing, for a body read without its collider sums
/// (a snapshot counts them again from the colliders).
#[cfg(feature = "serde")]
fn no_mass() -> MassProperties {
    MassProperties::ZERO
}
