//! [`ExplosionDesc`]: a radial blast that [`World::explode`](crate::World::explode)
//! applies at once, with Box2D v3.1's semantics (`b2ExplosionDef`,
//! `b2World_Explode`). The blast itself is `world/explosion.rs`.
//!
//! Every collider of a dynamic body within `radius + falloff` of the centre
//! gets an impulse pointing away from the centre, at the collider's point
//! nearest to it, of `impulse_per_length` times the width the collider shows
//! the blast ([`Shape::projected_perimeter`](lamina_geometry::Shape::projected_perimeter)
//! across the direction from the centre): a long plank broadside on is
//! thrown harder than the same plank end on. Within `radius` the impulse is
//! whole; across the falloff band beyond it, it fades linearly to nothing.

use lamina_geometry::{Point, Real};

use crate::WorldError;

/// A blast: `ExplosionDesc::new(centre, radius).falloff(1.0).impulse_per_length(5.0)`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ExplosionDesc {
    /// The centre, world frame.
    pub position: Point,
    /// Within this distance of the centre (metres) the impulse is whole.
    pub radius: Real,
    /// The band beyond `radius` (metres) across which the impulse fades
    /// linearly to 0. Default 0.
    pub falloff: Real,
    /// The impulse per metre of a collider's width as the blast sees it,
    /// N·s/m. Default 0, as Box2D's `b2DefaultExplosionDef` (such a blast
    /// only wakes the bodies it reaches); negative pulls them in.
    pub impulse_per_length: Real,
    /// Only colliders with a category bit in the mask are hit. Default every
    /// bit.
    pub mask: u32,
}

impl ExplosionDesc {
    /// A blast at `position` of `radius`, with no falloff, no impulse yet
    /// and every category hit.
    pub fn new(position: Point, radius: Real) -> Self {
        Self { position, radius, falloff: 0.0, impulse_per_length: 0.0, mask: u32::MAX }
    }

    /// Sets the falloff band, metres.
    pub fn falloff(mut self, falloff: Real) -> Self {
        self.falloff = falloff;
        self
    }

    /// Sets the impulse per metre of width, N·s/m.
    pub fn impulse_per_length(mut self, impulse: Real) -> Self {
        self.impulse_per_length = impulse;
        self
    }

    /// Sets the categories hit (bits of
    /// [`CollisionFilter::category`](crate::CollisionFilter::category)).
    pub fn mask(mut self, bits: u32) -> Self {
        self.mask = bits;
        self
    }

    /// Checks every number: a finite position and impulse, a radius and a
    /// falloff finite and not negative, and a finite reach (their sum).
    pub fn validate(&self) -> Result<(), WorldError> {
        let check = |name: &'static str, value: Real, ok: bool| {
            if ok { Ok(()) } else { Err(WorldError::InvalidExplosion { name, value }) }
        };
        check("position.x", self.position.x, self.position.x.is_finite())?;
        check("position.y", self.position.y, self.position.y.is_finite())?;
        check("radius", self.radius, self.radius.is_finite() && self.radius >= 0.0)?;
        check("falloff", self.falloff, self.falloff.is_finite() && self.falloff >= 0.0)?;
        check("impulse_per_length", self.impulse_per_length, self.impulse_per_length.is_finite())?;
        let reach = self.radius + self.falloff;
        check("radius + falloff", reach, reach.is_finite())?;
        for (name, v) in [("position.x + reach", self.position.x), ("position.y + reach", self.position.y)] {
            check(name, v + reach, (v + reach).is_finite() && (v - reach).is_finite())?;
        }
        Ok(())
    }
}
