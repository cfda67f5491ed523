//! Point projection and containment against independent oracles: distances by
//! dense boundary sampling, containment from each shape's definition.

// Oracles compute in f64; with the `f64` feature those casts are no-ops.
#![allow(clippy::unnecessary_cast)]

mod common;
use common::*;
use lamina_geometry::{Isometry, Real, Shape, Vec2};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn projection_is_the_nearest_boundary_point(
        shape in any_shape(), qx in coord(), qy in coord(), angle in 0.0..TAU
    ) {
        let pose = Isometry::new(Vec2::new(0.5, 1.0), angle as Real);
        let q = p(qx, qy);
        let proj = shape.project_point(&pose, &q);
        let local_q = pose.inverse() * q;
        prop_assert_eq!(proj.is_inside, oracle_contains(&shape, &local_q), "inside flag at {}", q);

        // The projection lies on the boundary...
        let local = pose.inverse() * proj.point;
        let off_boundary = oracle_boundary_distance(&shape, &local);
        prop_assert!(off_boundary <= 1e-3, "projection {} is {} off the boundary", proj.point, off_boundary);
        let samples = boundary_samples(&shape, 20_000);
        // ...and no boundary sample is nearer to the query point.
        let nearest = samples.iter().map(|s| (s - local_q).norm()).fold(Real::MAX, Real::min);
        let got = (proj.point - q).norm();
        prop_assert!(got <= nearest + 1e-3, "projection at distance {got}, a sample at {nearest}");
        if !proj.is_inside {
            prop_assert!(close(shape.distance_to_point(&pose, &q), oracle_distance(&shape, &local_q), 2e-3));
        }
    }
}

#[test]
fn centre_of_round_shapes_projects_without_nan() {
    for s in [Shape::circle(1.0), Shape::capsule(p(0.0, 0.0), p(0.0, 0.0), 1.0), Shape::ellipse(2.0, 1.0)] {
        let proj = s.project_point(&Isometry::identity(), &p(0.0, 0.0));
        assert!(proj.is_inside);
        assert!(proj.point.x.is_finite() && proj.point.y.is_finite(), "{s:?}");
        assert!(oracle_distance(&s, &proj.point) < 1e-5);
    }
    // The ellipse's centre is nearest to the ends of the minor axis.
    let proj = Shape::ellipse(2.0, 1.0).project_point(&Isometry::identity(), &p(0.0, 0.0));
    assert!((proj.point.coords.norm() - 1.0).abs() < 1e-5);
}

#[test]
fn point_inside_a_box_projects_to_the_nearest_side() {
    let b = Shape::rectangle(2.0, 1.0);
    let proj = b.project_point(&Isometry::identity(), &p(1.5, 0.2));
    assert!(proj.is_inside);
    assert_eq!(proj.point, p(2.0, 0.2));
    let rounded = Shape::rounded_rectangle(2.0, 1.0, 0.5);
    assert_eq!(rounded.project_point(&Isometry::identity(), &p(1.5, 0.2)).point, p(2.5, 0.2));
}
