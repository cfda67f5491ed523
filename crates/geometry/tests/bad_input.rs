//! Bad sizes and coordinates: never a panic, always a typed error naming the value.

// Oracles compute in f64; with the `f64` feature those casts are no-ops.
#![allow(clippy::unnecessary_cast)]

mod common;
use common::*;
use lamina_geometry::{Aabb, Isometry, Ray, Real, Shape, ShapeError, Vec2, validate_density};

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

/// Queries on unvalidated bad shapes return without panicking and without NaN;
/// the degenerate shapes that still mean something give that meaning.
#[test]
fn queries_on_invalid_shapes_stay_finite() {
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
    let ray = Ray::new(p(-5.0, 2.0), Vec2::x());
    for s in &shapes {
        let _ = s.aabb(&pose);
        let _ = s.mass_properties(1.0);
        let _ = s.project_point(&pose, &p(0.3, 0.3));
        let _ = lamina_geometry::SupportMap::support_point(s, &Vec2::x());
        if let Some(hit) = s.cast_ray(&pose, &ray, 10.0) {
            assert!((0.0..=10.0).contains(&hit.toi), "{s:?}: {hit:?}");
            assert!((hit.normal.norm() - 1.0).abs() < 1e-5, "{s:?}: {hit:?}");
        }
    }
    // A capsule of zero length is a disc of its radius.
    let dot = &shapes[4];
    assert!((dot.mass_properties(1.0).mass - std::f64::consts::PI as Real).abs() < 1e-5);
    let hit = dot.cast_ray(&pose, &ray, 10.0).expect("the ray passes through the disc's centre");
    assert!((hit.toi - 5.0).abs() < 1e-5, "{hit:?}");
    // A segment of zero length is its point.
    let aabb = shapes[5].aabb(&pose);
    assert_eq!((aabb.mins, aabb.maxs), (pose * p(0.0, 0.0), pose * p(0.0, 0.0)));
    // An ellipse with a zero radius has nothing to hit.
    assert!(shapes[6].cast_ray(&pose, &ray, 10.0).is_none());
}

/// A ray's direction may be any finite, non-zero length: the hit time scales
/// with it. Directions whose squared length overflows are refused, not hit at
/// a NaN time; non-finite rays, NaN or negative limits and inverted boxes miss.
#[test]
fn rays_of_any_length_hit_at_the_same_distance() {
    let disc = Shape::circle(1.0);
    let ellipse = Shape::ellipse(1.0, 0.5);
    let square = Shape::rectangle(1.0, 1.0);
    let id = Isometry::identity();
    for length in [1e-10, 1e-3, 1.0, 1e3, 1e15, 1e18, 1e30] {
        let length = length as Real;
        let ray = Ray::new(p(-10.0, 0.0), Vec2::new(length, 0.0));
        for shape in [&disc, &ellipse, &square] {
            let hit = shape.cast_ray(&id, &ray, Real::MAX);
            if (length * length).is_finite() && length * length > 0.0 {
                let hit = hit.unwrap_or_else(|| panic!("{shape:?} missed at length {length}"));
                // The surface is 9 m along the ray.
                assert!(((hit.toi * length) as f64 - 9.0).abs() < 1e-4, "{shape:?} at {length}: {hit:?}");
            } else {
                assert!(hit.is_none(), "{shape:?} at {length}: {hit:?}");
            }
        }
    }
    let nan = Ray::new(p(-10.0, 0.0), Vec2::new(Real::NAN, 0.0));
    assert!(disc.cast_local_ray(&nan, 100.0).is_none());
    let aabb = Aabb::new(p(-1.0, -1.0), p(1.0, 1.0));
    let ray = Ray::new(p(-10.0, 0.0), Vec2::x());
    assert_eq!(aabb.cast_ray(&ray, 100.0), Some(9.0));
    assert_eq!(aabb.cast_ray(&nan, 100.0), None);
    assert_eq!(aabb.cast_ray(&ray, Real::NAN), None);
    assert_eq!(aabb.cast_ray(&ray, -1.0), None);
    assert_eq!(Aabb::new(p(1.0, 1.0), p(-1.0, -1.0)).cast_ray(&ray, 100.0), None);
}
