//! Bad sizes and coordinates: never a panic, always a typed error naming the value.

// Oracles compute in f64; with the `f64` feature those casts are no-ops.
#![allow(clippy::unnecessary_cast)]

mod common;
use common::*;
use lamina_geometry::{Isometry, Real, Shape, ShapeError, Vec2, validate_density};

const BAD: [Real; 5] = [Real::NAN, Real::INFINITY, Real::NEG_INFINITY, 0.0, -1.0];

#[test]
fn bad_radii_are_refused_by_validate_with_the_value() {
    for r in BAD {
        let err = Shape::circle(r).validate().unwrap_err();
        assert!(matches!(err, ShapeError::InvalidRadius { shape: "circle", .. }));
        assert!(err.to_string().contains(&r.to_string()), "{err}");
        let err = Shape::capsule(p(0.0, 0.0), p(1.0, 0.0), r).validate().unwrap_err();
        assert!(matches!(err, ShapeError::InvalidRadius { shape: "capsule", .. }));
        let err = Shape::ellipse(r, 1.0).validate().unwrap_err();
        assert!(err.to_string().contains(&r.to_string()), "{err}");
        assert!(Shape::ellipse(1.0, r).validate().is_err());
        let err = Shape::rectangle(r, 1.0).validate().unwrap_err();
        assert!(matches!(err, ShapeError::InvalidHalfExtents { .. }), "{err}");
        assert!(err.to_string().contains(&r.to_string()), "{err}");
        assert!(Shape::rectangle(1.0, r).validate().is_err());
    }
    // Rounding may be zero, but not negative or non-finite.
    assert!(Shape::rounded_rectangle(1.0, 1.0, 0.0).validate().is_ok());
    for r in [Real::NAN, Real::INFINITY, -0.1] {
        assert!(matches!(
            Shape::rounded_rectangle(1.0, 1.0, r).validate(),
            Err(ShapeError::InvalidRoundingRadius { .. })
        ));
        assert!(matches!(
            Shape::rounded_polygon(&[p(0.0, 0.0), p(1.0, 0.0), p(0.0, 1.0)], r),
            Err(ShapeError::InvalidRoundingRadius { .. })
        ));
    }
}

#[test]
fn bad_end_points_are_refused() {
    let nan = p(Real::NAN, 0.0);
    assert!(matches!(
        Shape::segment(nan, p(1.0, 0.0)).validate(),
        Err(ShapeError::NonFinitePoint { index: 0, .. })
    ));
    assert!(matches!(
        Shape::capsule(p(1.0, 0.0), p(0.0, Real::INFINITY), 1.0).validate(),
        Err(ShapeError::NonFinitePoint { index: 1, .. })
    ));
    let err = Shape::segment(p(1.0, 2.0), p(1.0, 2.0)).validate().unwrap_err();
    assert!(matches!(err, ShapeError::ZeroLength { shape: "segment", .. }));
    assert!(err.to_string().contains("(1, 2)"), "{err}");
    assert!(Shape::capsule(p(1.0, 2.0), p(1.0, 2.0), 0.5).validate().is_err());
}

#[test]
fn valid_shapes_validate() {
    for s in [
        Shape::circle(0.5),
        Shape::rectangle(1.0, 0.5),
        Shape::capsule(p(-0.5, 0.0), p(0.5, 0.0), 0.25),
        Shape::segment(p(0.0, 0.0), p(1.0, 0.0)),
        Shape::polygon(&[p(0.0, 0.0), p(1.0, 0.0), p(0.0, 1.0)]).unwrap(),
        Shape::ellipse(1.0, 0.5),
    ] {
        assert_eq!(s.validate(), Ok(()), "{s:?}");
    }
}

#[test]
fn densities() {
    assert_eq!(validate_density(0.0), Ok(0.0));
    assert_eq!(validate_density(2.5), Ok(2.5));
    for d in [Real::NAN, Real::INFINITY, -1.0] {
        let err = validate_density(d).unwrap_err();
        assert!(err.to_string().contains(&d.to_string()), "{err}");
    }
}

/// Queries on unvalidated bad shapes must still return without panicking.
#[test]
fn queries_on_invalid_shapes_do_not_panic() {
    let shapes = [
        Shape::circle(Real::NAN),
        Shape::circle(-1.0),
        Shape::rectangle(Real::INFINITY, 1.0),
        Shape::rectangle(-1.0, -1.0),
        Shape::capsule(p(0.0, 0.0), p(0.0, 0.0), 1.0),
        Shape::segment(p(0.0, 0.0), p(0.0, 0.0)),
        Shape::ellipse(0.0, 1.0),
    ];
    let pose = Isometry::new(Vec2::new(1.0, 2.0), 0.5);
    for s in &shapes {
        let _ = s.aabb(&pose);
        let _ = s.mass_properties(1.0);
        let _ = s.cast_ray(&pose, &lamina_geometry::Ray::new(p(-5.0, 0.0), Vec2::x()), 10.0);
        let _ = s.project_point(&pose, &p(0.3, 0.3));
        let _ = lamina_geometry::SupportMap::support_point(s, &Vec2::x());
    }
}
