//! Circle against circle: one point on the line of centres.

use lamina_geometry::{Circle, Isometry, Point, Vec2};

use crate::manifold::{FeatureId, LocalManifold, LocalPoint};

/// Circle A at the origin of A's frame against circle B placed by `xf`.
pub fn collide_circles(
    a: &Circle,
    b: &Circle,
    xf: &Isometry,
    margin: lamina_geometry::Real,
) -> LocalManifold {
    let centre_b = Point::from(xf.translation.vector);
    let offset = centre_b.coords;
    // Concentric circles have no preferred direction; any unit normal is right.
    let (normal, distance) = lamina_geometry::math::unit_and_length(&offset).unwrap_or((Vec2::y(), 0.0));
    let separation = distance - a.radius - b.radius;
    if separation > margin {
        return LocalManifold::default();
    }
    let on_a = Point::from(normal * a.radius);
    let on_b = centre_b - normal * b.radius;
    let point = nalgebra::center(&on_a, &on_b);
    LocalManifold::single(normal, LocalPoint { point, separation, id: FeatureId::default() })
}
