//! Mass properties and the area moments they are built from.
//!
//! Each shape reduces to pieces whose area moments have closed forms: triangles,
//! circular sectors and rectangles. Pieces are summed as *moments about a common
//! reference point* (area, first moment, polar second moment) and only then turned
//! into mass, centroid and inertia about the centroid, which is both exact and
//! free of the round-off of shifting each piece separately.

use crate::math::{Isometry, Point, Real, Vec2, cross};

/// Mass, centre of mass and rotational inertia of a shape (or of a body).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassProperties {
    /// Mass in kilograms.
    pub mass: Real,
    /// Centre of mass in the shape's (or body's) local frame.
    pub center: Point,
    /// Rotational inertia about the centre of mass, in kg·m².
    pub inertia: Real,
}

impl MassProperties {
    /// No mass at the origin: the neutral element of [`MassProperties::combine`].
    pub const ZERO: MassProperties = MassProperties { mass: 0.0, center: Point::new(0.0, 0.0), inertia: 0.0 };

    /// The same mass seen from a frame in which the shape sits at `pose`.
    pub fn transformed(&self, pose: &Isometry) -> Self {
        Self { mass: self.mass, center: pose * self.center, inertia: self.inertia }
    }

    /// Inertia about `point` instead of the centre of mass (parallel axis theorem).
    pub fn inertia_about(&self, point: &Point) -> Real {
        self.inertia + self.mass * (self.center - point).norm_squared()
    }

    /// The mass properties of two rigidly joined parts given in the same frame.
    pub fn combine(&self, other: &MassProperties) -> Self {
        let mass = self.mass + other.mass;
        if mass <= 0.0 {
            // Massless parts (segments) still have a meaningful centre: the midpoint.
            return Self { mass: 0.0, center: nalgebra::center(&self.center, &other.center), inertia: 0.0 };
        }
        let center = Point::from((self.center.coords * self.mass + other.center.coords * other.mass) / mass);
        let inertia = self.inertia_about(&center) + other.inertia_about(&center);
        Self { mass, center, inertia }
    }
}

/// Area moments about a reference point: the running sum of a shape's pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct AreaMoments {
    /// ∫ dA
    pub area: Real,
    /// ∫ r dA, r measured from the reference point.
    pub first: Vec2,
    /// ∫ |r|² dA
    pub second: Real,
}

impl AreaMoments {
    /// Adds the triangle (reference, reference + e1, reference + e2), signed by
    /// its orientation (counter-clockwise is positive).
    pub fn add_triangle(&mut self, e1: &Vec2, e2: &Vec2) {
        let area = 0.5 * cross(e1, e2);
        self.area += area;
        self.first += (e1 + e2) * (area / 3.0);
        self.second += area * (e1.norm_squared() + e1.dot(e2) + e2.norm_squared()) / 6.0;
    }

    /// Adds a counter-clockwise polygon given relative to the reference point, as
    /// a fan of triangles from the reference point.
    pub fn add_polygon(&mut self, vertices_rel: impl Iterator<Item = Vec2> + Clone) {
        let next = vertices_rel.clone().cycle().skip(1);
        for (a, b) in vertices_rel.zip(next) {
            self.add_triangle(&a, &b);
        }
    }

    /// Adds a circular sector with its apex at `apex` (relative to the reference
    /// point), `radius`, spanning `half_angle` on each side of the unit `bisector`.
    pub fn add_sector(&mut self, apex: &Vec2, radius: Real, bisector: &Vec2, half_angle: Real) {
        let area = half_angle * radius * radius;
        if area <= 0.0 {
            return;
        }
        // Centroid distance from the apex: 2 r sin(α) / (3 α).
        let centroid =
            apex + bisector * (2.0 * radius * crate::trig::sin_cos(half_angle).0 / (3.0 * half_angle));
        // Polar moment about the apex is A r² / 2; move it to the reference point.
        let about_apex = area * radius * radius * 0.5;
        let centroid_from_apex = centroid - apex;
        self.second += about_apex + area * (apex.norm_squared() + 2.0 * apex.dot(&centroid_from_apex));
        self.first += centroid * area;
        self.area += area;
    }

    /// Turns the moments into mass properties for `density`, with the centre
    /// expressed in the frame where the reference point is `reference`.
    pub fn into_mass(self, density: Real, reference: &Point) -> MassProperties {
        if self.area <= 0.0 {
            return MassProperties { mass: 0.0, center: *reference, inertia: 0.0 };
        }
        let c = self.first / self.area;
        // Round-off can take a thin shape's inertia a hair below zero; clamp
        // that, but let an overflow's NaN through (`max` would make it 0, a
        // body that silently cannot turn) for the world to refuse.
        let raw = self.second - self.area * c.norm_squared();
        let inertia_about_center = if raw < 0.0 { 0.0 } else { raw };
        MassProperties {
            mass: density * self.area,
            center: reference + c,
            inertia: density * inertia_about_center,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::PI;

    #[test]
    fn full_disc_as_a_sector_has_the_closed_form() {
        let mut m = AreaMoments::default();
        m.add_sector(&Vec2::zeros(), 2.0, &Vec2::new(1.0, 0.0), PI);
        let mp = m.into_mass(1.0, &Point::origin());
        assert!((mp.mass - 4.0 * PI).abs() < 1e-4);
        assert!((mp.inertia - mp.mass * 4.0 / 2.0).abs() < 1e-3);
        assert!(mp.center.coords.norm() < 1e-5);
    }

    #[test]
    fn combining_two_unit_squares_gives_a_two_by_one_box() {
        let sq = MassProperties { mass: 1.0, center: Point::new(-0.5, 0.0), inertia: 1.0 / 6.0 };
        let other = MassProperties { center: Point::new(0.5, 0.0), ..sq };
        let both = sq.combine(&other);
        // A 2 x 1 box of mass 2: I = m (w² + h²) / 12 = 2 * 5 / 12.
        assert_eq!(both.mass, 2.0);
        assert!((both.inertia - 10.0 / 12.0).abs() < 1e-6);
        assert!(both.center.coords.norm() < 1e-7);
    }
}
