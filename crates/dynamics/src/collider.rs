//! Colliders: a shape fixed to a body, with its material and collision filter.

use lamina_broadphase::ProxyHint;
use lamina_geometry::{Aabb, Isometry, Real, Shape};

use crate::{BodyKey, WorldError};

/// Which colliders may touch. Two colliders collide when each one's `mask` has a
/// bit of the other's `category`, unless they share a non-zero `group`: a
/// positive shared group always collides, a negative one never does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(default))]
pub struct CollisionFilter {
    /// The categories this collider belongs to (one bit each).
    pub category: u32,
    /// The categories this collider collides with.
    pub mask: u32,
    /// Overrides the bits for colliders of the same group.
    pub group: i32,
}

impl Default for CollisionFilter {
    fn default() -> Self {
        Self { category: 1, mask: u32::MAX, group: 0 }
    }
}

impl CollisionFilter {
    /// True when colliders with these filters should collide.
    pub fn should_collide(&self, other: &CollisionFilter) -> bool {
        if self.group != 0 && self.group == other.group {
            return self.group > 0;
        }
        self.mask & other.category != 0 && other.mask & self.category != 0
    }

    /// The part of the filter the broad phase can apply before a pair exists:
    /// category and mask. A positive group may override them, so such a
    /// collider pairs with everything there and is filtered when its contact
    /// would be made.
    pub(crate) fn pair_filter(&self) -> lamina_broadphase::PairFilter {
        if self.group > 0 {
            lamina_broadphase::PairFilter::ALL
        } else {
            lamina_broadphase::PairFilter { category: self.category, mask: self.mask }
        }
    }
}

/// The description of a collider to add: `ColliderDesc::new(shape).density(2.0)`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ColliderDesc {
    /// The shape, in the collider's frame.
    pub shape: Shape,
    /// Where the collider sits in its body's frame.
    pub local_pose: Isometry,
    /// Density, kg/m². Default 1.
    pub density: Real,
    /// Coulomb friction coefficient. Default 0.6.
    pub friction: Real,
    /// Restitution (bounciness), 0 to 1. Default 0.
    pub restitution: Real,
    /// Collision filter. Default: collides with everything.
    pub filter: CollisionFilter,
    /// A sensor reports overlaps and never pushes. Default false.
    pub sensor: bool,
    /// Free for the user.
    pub user_data: u64,
    /// How fast the surface moves along itself, m/s: a conveyor belt. What
    /// rests on the collider is carried clockwise around it (to the right
    /// along a top face) at this speed, as friction allows. Default 0.
    #[cfg_attr(feature = "serde", serde(default))]
    pub tangent_speed: Real,
    /// Rolling resistance, dimensionless, for round shapes (circles and
    /// capsules): a contact resists its bodies' relative turning with a
    /// torque of up to this times the round shape's radius times the normal
    /// force, so that a rolling ball slows down and stops. Default 0.
    #[cfg_attr(feature = "serde", serde(default))]
    pub rolling_resistance: Real,
    /// The pair filter hook ([`World::set_custom_filter`](crate::World::set_custom_filter))
    /// is asked about this collider's new pairs. Default false.
    #[cfg_attr(feature = "serde", serde(default))]
    pub custom_filter: bool,
    /// The pre-solve hook ([`World::set_pre_solve`](crate::World::set_pre_solve))
    /// is asked about this collider's touching contacts. Default false.
    #[cfg_attr(feature = "serde", serde(default))]
    pub pre_solve: bool,
}

impl ColliderDesc {
    /// A collider of `shape` at the body's origin, density 1, friction 0.6.
    pub fn new(shape: Shape) -> Self {
        Self {
            shape,
            local_pose: Isometry::identity(),
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
            filter: CollisionFilter::default(),
            sensor: false,
            user_data: 0,
            tangent_speed: 0.0,
            rolling_resistance: 0.0,
            custom_filter: false,
            pre_solve: false,
        }
    }

    /// Sets the density, kg/m².
    pub fn density(mut self, density: Real) -> Self {
        self.density = density;
        self
    }

    /// Sets the friction coefficient.
    pub fn friction(mut self, friction: Real) -> Self {
        self.friction = friction;
        self
    }

    /// Sets the restitution.
    pub fn restitution(mut self, restitution: Real) -> Self {
        self.restitution = restitution;
        self
    }

    /// Places the collider in its body's frame.
    pub fn local_pose(mut self, pose: Isometry) -> Self {
        self.local_pose = pose;
        self
    }

    /// Sets the collision filter.
    pub fn filter(mut self, filter: CollisionFilter) -> Self {
        self.filter = filter;
        self
    }

    /// Makes the collider a sensor.
    pub fn sensor(mut self, sensor: bool) -> Self {
        self.sensor = sensor;
        self
    }

    /// Attaches user data.
    pub fn user_data(mut self, data: u64) -> Self {
        self.user_data = data;
        self
    }

    /// Sets the surface's speed along itself, m/s (a conveyor belt; see
    /// [`ColliderDesc::tangent_speed`](ColliderDesc#structfield.tangent_speed)).
    pub fn tangent_speed(mut self, speed: Real) -> Self {
        self.tangent_speed = speed;
        self
    }

    /// Sets the rolling resistance (see
    /// [`ColliderDesc::rolling_resistance`](ColliderDesc#structfield.rolling_resistance)).
    pub fn rolling_resistance(mut self, resistance: Real) -> Self {
        self.rolling_resistance = resistance;
        self
    }

    /// Asks the world's custom filter about this collider's pairs.
    pub fn enable_custom_filter(mut self, on: bool) -> Self {
        self.custom_filter = on;
        self
    }

    /// Asks the world's pre-solve hook about this collider's contacts.
    pub fn enable_pre_solve(mut self, on: bool) -> Self {
        self.pre_solve = on;
        self
    }

    /// Checks the shape and every property.
    pub fn validate(&self) -> Result<(), WorldError> {
        self.shape.validate()?;
        let check = |name: &'static str, value: Real, ok: bool| {
            if ok { Ok(()) } else { Err(WorldError::InvalidColliderProperty { name, value }) }
        };
        check("density", self.density, self.density.is_finite() && self.density >= 0.0)?;
        check("friction", self.friction, (0.0..=MAX_COEFFICIENT).contains(&self.friction))?;
        check("restitution", self.restitution, (0.0..=MAX_COEFFICIENT).contains(&self.restitution))?;
        check("tangent_speed", self.tangent_speed, self.tangent_speed.abs() <= MAX_TANGENT_SPEED)?;
        check(
            "rolling_resistance",
            self.rolling_resistance,
            (0.0..=MAX_COEFFICIENT).contains(&self.rolling_resistance),
        )?;
        let t = self.local_pose.translation.vector;
        check("local_pose.x", t.x, t.x.is_finite())?;
        check("local_pose.y", t.y, t.y.is_finite())?;
        // A rotation that is not a unit complex number would scale the shape.
        lamina_geometry::validate_rotation(&self.local_pose.rotation)
            .map_err(|value| WorldError::InvalidColliderProperty { name: "local_pose.rotation", value })
    }
}

/// The largest friction or restitution coefficient a collider takes. Real
/// materials stay below about 2 (friction) and 1 (restitution); the bound only
/// keeps the solver's products of coefficients, impulses and speeds finite
/// (two frictions of 1e19 mix to infinity in `f32`).
pub const MAX_COEFFICIENT: Real = 1.0e3;

/// The fastest surface a collider takes, m/s
/// ([`ColliderDesc::tangent_speed`](ColliderDesc#structfield.tangent_speed)):
/// the world's speed limit is far below it; the bound keeps the friction
/// rows' arithmetic finite.
pub const MAX_TANGENT_SPEED: Real = 1.0e6;

/// A shape attached to a body.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Collider {
    pub(crate) body: BodyKey,
    pub(crate) shape: Shape,
    pub(crate) local_pose: Isometry,
    pub(crate) density: Real,
    pub(crate) friction: Real,
    pub(crate) restitution: Real,
    pub(crate) filter: CollisionFilter,
    pub(crate) sensor: bool,
    pub(crate) user_data: u64,
    pub(crate) tangent_speed: Real,
    pub(crate) rolling_resistance: Real,
    pub(crate) custom_filter: bool,
    pub(crate) pre_solve: bool,
    /// World bounds at the body's current pose, grown by the speculative
    /// distance (from the first step after the collider was added or moved).
    /// Snapshots write how it differs from the bounds at the body's pose.
    #[cfg_attr(feature = "serde", serde(skip, default = "unset_bounds"))]
    pub(crate) aabb: Aabb,
    /// The broad phase's fat box of this collider, mirrored here: finalising
    /// a step asks of every moving collider whether its bounds still fit, and
    /// the broad phase would have to find the proxy by its key first.
    /// Snapshots take it back from the broad phase.
    #[cfg_attr(feature = "serde", serde(skip, default = "unset_bounds"))]
    pub(crate) proxy_box: Aabb,
    /// Where the broad phase keeps this collider's proxy, so that moving it
    /// needs no lookup by key (a guess: a wrong one costs only the lookup).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) proxy_hint: ProxyHint,
}

impl Collider {
    pub(crate) fn from_desc(body: BodyKey, desc: ColliderDesc, body_pose: &Isometry) -> Self {
        let aabb = desc.shape.aabb(&(body_pose * desc.local_pose));
        Self {
            body,
            shape: desc.shape,
            local_pose: desc.local_pose,
            density: desc.density,
            friction: desc.friction,
            restitution: desc.restitution,
            filter: desc.filter,
            sensor: desc.sensor,
            user_data: desc.user_data,
            tangent_speed: desc.tangent_speed,
            rolling_resistance: desc.rolling_resistance,
            custom_filter: desc.custom_filter,
            pre_solve: desc.pre_solve,
            aabb,
            proxy_box: aabb,
            proxy_hint: ProxyHint::NONE,
        }
    }

    /// The body this collider belongs to.
    pub fn body(&self) -> BodyKey {
        self.body
    }

    /// The shape, in the collider's frame.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// Where the collider sits in its body's frame.
    pub fn local_pose(&self) -> Isometry {
        self.local_pose
    }

    /// Density, kg/m².
    pub fn density(&self) -> Real {
        self.density
    }

    /// Friction coefficient.
    pub fn friction(&self) -> Real {
        self.friction
    }

    /// Restitution.
    pub fn restitution(&self) -> Real {
        self.restitution
    }

    /// Collision filter.
    pub fn filter(&self) -> CollisionFilter {
        self.filter
    }

    /// True for a sensor.
    pub fn is_sensor(&self) -> bool {
        self.sensor
    }

    /// User data.
    pub fn user_data(&self) -> u64 {
        self.user_data
    }

    /// The surface's speed along itself, m/s (a conveyor belt).
    pub fn tangent_speed(&self) -> Real {
        self.tangent_speed
    }

    /// Rolling resistance.
    pub fn rolling_resistance(&self) -> Real {
        self.rolling_resistance
    }

    /// The radius rolling resistance acts at: a circle's or capsule's
    /// radius, a rounded polygon's rounding; zero for other shapes, which do
    /// not roll.
    pub(crate) fn rolling_radius(&self) -> Real {
        match &self.shape {
            Shape::Circle(c) => c.radius,
            Shape::Capsule(c) => c.radius,
            Shape::Polygon(p) => p.radius(),
            _ => 0.0,
        }
    }

    /// True when the world's custom filter is asked about this collider's pairs.
    pub fn custom_filter_enabled(&self) -> bool {
        self.custom_filter
    }

    /// True when the world's pre-solve hook is asked about this collider's contacts.
    pub fn pre_solve_enabled(&self) -> bool {
        self.pre_solve
    }

    /// World bounds at the body's current pose, grown by the speculative
    /// distance (the reach of its contact points), as the broad phase sees
    /// them; refreshed at the step after the collider was added or moved.
    pub fn aabb(&self) -> Aabb {
        self.aabb
    }

    /// The enlarged box the broad phase holds for this collider: it moves
    /// only when [`Collider::aabb`] leaves it, so that a collider that jiggles
    /// in place costs the broad phase nothing.
    pub fn proxy_aabb(&self) -> Aabb {
        self.proxy_box
    }
}

/// A placeholder for bounds a snapshot does not write, until they are rebuilt.
#[cfg(feature = "serde")]
pub(crate) fn unset_bounds() -> Aabb {
    let origin = lamina_geometry::Point::origin();
    Aabb::new(origin, origin)
}
