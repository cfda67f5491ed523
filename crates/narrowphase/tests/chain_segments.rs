//! Chain segments against shapes: over a flat seam every normal is the
//! floor's (where plain segments show the seam), nothing collides from behind,
//! and a convex corner keeps the normals between its two faces.

// Strategies draw f64; with the `f64` feature the casts to `Real` are no-ops.
#![allow(clippy::unnecessary_cast)]

mod common;
use common::*;
use lamina_geometry::{Isometry, Real, Shape, Vec2};
use lamina_narrowphase::contact_manifold;
use proptest::prelude::*;

/// A flat floor at y = 0 of two chain links meeting at the origin, listed
/// right to left so that the solid side faces up: (1, 0) → (0, 0) and
/// (0, 0) → (−1, 0), each knowing the other's far point.
fn flat_links() -> [Shape; 2] {
    [
        Shape::chain_segment(p(1.0, 0.0), p(0.0, 0.0), Some(p(2.0, 0.0)), Some(p(-1.0, 0.0))),
        Shape::chain_segment(p(0.0, 0.0), p(-1.0, 0.0), Some(p(1.0, 0.0)), Some(p(-2.0, 0.0))),
    ]
}

fn shapes() -> impl Strategy<Value = Shape> {
    prop_oneof![
        Just(Shape::rectangle(0.25, 0.25)),
        Just(Shape::circle(0.25)),
        Just(Shape::capsule(p(-0.25, 0.0), p(0.25, 0.0), 0.1)),
        Just(Shape::rounded_rectangle(0.2, 0.1, 0.05)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Whatever the shape's offset across the seam, its small tilt and how
    /// deep it has sunk, each link reports only the floor's own normal.
    #[test]
    fn a_flat_seam_shows_only_the_floor_normal(
        shape in shapes(), x in -0.6..0.6f64, sink in -0.04..0.015f64, angle in -0.3..0.3f64
    ) {
        let pose = Isometry::new(Vec2::new(x as Real, 0.0), angle as Real);
        // Lift the shape so that its lowest point is `sink` above the floor.
        let lowest = shape.aabb(&pose).mins.y;
        let pose = Isometry::new(Vec2::new(x as Real, sink as Real - lowest), angle as Real);
        let id = Isometry::identity();
        let mut touched = false;
        for link in flat_links() {
            let m = contact_manifold(&link, &id, &shape, &pose, 0.02);
            if !m.points.is_empty() {
                touched = true;
                prop_assert!(m.normal.y > 1.0 - 1e-4, "normal {:?} off {:?}", m.normal, pose);
                for q in &m.points {
                    prop_assert!(q.separation as f64 >= sink - 1e-3, "separation {} below the sink {}", q.separation, sink);
                }
            }
        }
        // A shape sunk into the floor is held by one link or the other.
        prop_assert!(touched || sink > 0.0, "{:?} sunk {} and no link touched it", pose, sink);
    }

    /// A shape whose centre lies behind a link (below the floor) gets nothing
    /// from it, however it overlaps.
    #[test]
    fn nothing_collides_from_behind(shape in shapes(), x in -0.9..0.9f64, below in 0.01..0.5f64, angle in -3.0..3.0f64) {
        let pose = Isometry::new(Vec2::new(x as Real, -below as Real), angle as Real);
        for link in flat_links() {
            let m = contact_manifold(&link, &Isometry::identity(), &shape, &pose, 0.02);
            prop_assert!(m.points.is_empty(), "{:?} below the floor got {:?}", pose, m);
        }
    }
}

/// The oracle that the seam test means something: a box sliding left, sunk
/// a centimetre, whose corner has just crossed onto the next piece of a
/// floor of plain segments is pushed sideways by that piece's end (the ghost
/// collision); the chain link, knowing its neighbour, holds it up.
#[test]
fn plain_segments_show_the_seam() {
    let box_shape = Shape::rectangle(0.25, 0.25);
    let left = Shape::segment(p(0.0, 0.0), p(-1.0, 0.0));
    let chain = &flat_links()[1];
    let pose = Isometry::new(Vec2::new(0.245, 0.24), 0.0);
    let plain = contact_manifold(&left, &Isometry::identity(), &box_shape, &pose, 0.02);
    let smooth = contact_manifold(chain, &Isometry::identity(), &box_shape, &pose, 0.02);
    assert!(!plain.points.is_empty() && plain.normal.x.abs() > 0.5, "plain segment: {plain:?}");
    assert!(smooth.points.is_empty() || smooth.normal.y > 0.999, "chain link: {smooth:?}");
}

/// At the top of a hill (a convex corner) a ball over the corner touches the
/// corner itself: its normal points from the corner to the ball's centre,
/// between the two faces' normals.
#[test]
fn a_convex_corner_keeps_its_own_normals() {
    // Listed right to left, up to the top at the origin and down again.
    let right = Shape::chain_segment(p(1.0, -0.5), p(0.0, 0.0), Some(p(2.0, -1.0)), Some(p(-1.0, -0.5)));
    let ball = Shape::circle(0.2);
    let pose = Isometry::translation(0.05, 0.21);
    let m = contact_manifold(&right, &Isometry::identity(), &ball, &pose, 0.02);
    assert_eq!(m.points.len(), 1);
    let expected = Vec2::new(0.05, 0.21).normalize();
    assert!((m.normal - expected).norm() < 1e-4, "normal {:?}, expected {:?}", m.normal, expected);
    assert!((m.points[0].separation - (0.21_f64.hypot(0.05) - 0.2) as Real).abs() < 1e-4);
}
