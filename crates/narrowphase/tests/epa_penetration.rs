//! EPA penetration against the separating-axis oracle, closed forms, and every
//! degenerate start named in the algorithm notes.

// Oracles compute in f64; with the `f64` feature those casts are no-ops.
#![allow(clippy::unnecessary_cast)]

mod common;
use common::*;
use lamina_geometry::{Isometry, Real, Shape, Vec2};
use lamina_narrowphase::{distance, penetration};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn polygon_depth_is_the_least_separating_axis_overlap(
        a in polygon(10, 2.0), b in polygon(10, 2.0), pa in pose(1.0), pb in pose(1.0)
    ) {
        let (va, vb) = (world_vertices(&a, &pa), world_vertices(&b, &pb));
        let sat = sat_depth(&va, &vb);
        let pen = penetration(&a, &pa, &b, &pb);
        if sat > 1e-4 {
            let pen = pen.expect("SAT says they overlap");
            prop_assert!(close(pen.depth as f64, sat, 1e-4), "epa {} vs sat {}", pen.depth, sat);
            prop_assert!((pen.normal.norm() - 1.0).abs() < 1e-5);
            // The projections overlap along the returned normal by exactly the depth.
            prop_assert!(close(projected_overlap(&va, &vb, &pen.normal), pen.depth as f64, 1e-4));
            // Moving B by the penetration vector leaves the shapes touching.
            let moved = Isometry::from_parts((pb.translation.vector + pen.normal * pen.depth).into(), pb.rotation);
            prop_assert!(sat_depth(&va, &world_vertices(&b, &moved)).abs() < 1e-3);
            // The witnesses are depth apart along the normal.
            prop_assert!(((pen.point_a - pen.point_b) - pen.normal * pen.depth).norm() < 1e-4);
            // Swapped, the normal flips (or, for equal depths along two axes, is
            // another axis along which B, now first, overlaps A by the depth).
            let swapped = penetration(&b, &pb, &a, &pa).unwrap();
            prop_assert!(close(swapped.depth as f64, pen.depth as f64, 1e-4));
            prop_assert!((swapped.normal + pen.normal).norm() < 1e-3 || close(projected_overlap(&vb, &va, &swapped.normal), sat, 1e-4));
        } else if sat < -1e-4 {
            prop_assert!(pen.is_none());
        }
    }

    #[test]
    fn circle_and_rounded_depths_match_closed_forms(
        ra in 0.2..1.5f64, rb in 0.2..1.5f64, dx in -2.0..2.0f64, dy in -2.0..2.0f64
    ) {
        let (ra, rb) = (ra as Real, rb as Real);
        let offset = Vec2::new(dx as Real, dy as Real);
        let pb = Isometry::translation(offset.x, offset.y);
        let d = offset.norm();
        prop_assume!(d > 1e-3);
        let pen = penetration(&Shape::circle(ra), &Isometry::identity(), &Shape::circle(rb), &pb);
        if d < ra + rb - 1e-4 {
            let pen = pen.unwrap();
            prop_assert!(close(pen.depth as f64, (ra + rb - d) as f64, 1e-5));
            prop_assert!((pen.normal - offset / d).norm() < 1e-4);
        } else if d > ra + rb + 1e-4 {
            prop_assert!(pen.is_none());
        }
        // A rounded box against a circle: the depth is the rounded box's SAT depth
        // along the axis from the box's core to the circle's centre.
        let rounded = Shape::rounded_rectangle(0.5, 0.5, ra * 0.2);
        let clamped = Vec2::new(offset.x.clamp(-0.5, 0.5), offset.y.clamp(-0.5, 0.5));
        let outside = (offset - clamped).norm();
        if outside > 1e-3 {
            let expected = ra * 0.2 + rb - outside;
            match penetration(&rounded, &Isometry::identity(), &Shape::circle(rb), &pb) {
                Some(p) => prop_assert!(close(p.depth as f64, expected as f64, 1e-4), "{} vs {}", p.depth, expected),
                None => prop_assert!(expected < 1e-4),
            }
        }
    }
}

/// The seed article's overlapping pair: depth 0.9370426 by SAT.
#[test]
fn seed_article_overlap_depth() {
    let tri = Shape::polygon(&[p(4.0, 11.0), p(9.0, 9.0), p(4.0, 5.0)]).unwrap();
    let quad = Shape::polygon(&[p(5.0, 7.0), p(12.0, 7.0), p(10.0, 2.0), p(7.0, 3.0)]).unwrap();
    let id = Isometry::identity();
    let pen = penetration(&tri, &id, &quad, &id).unwrap();
    assert!((pen.depth - 0.937_042_6).abs() < 1e-5, "{}", pen.depth);
}

/// Regression: coincident shapes give GJK a simplex around the origin with no
/// preferred direction; EPA must still return a finite, unit normal and the full depth.
#[test]
fn coincident_boxes_have_full_depth() {
    let b = Shape::rectangle(1.0, 0.5);
    let id = Isometry::identity();
    let pen = penetration(&b, &id, &b, &id).unwrap();
    assert!((pen.depth - 1.0).abs() < 1e-5, "{}", pen.depth);
    assert!((pen.normal.y.abs() - 1.0).abs() < 1e-5);
}

/// Regression: touching boxes stop GJK with the origin on a simplex edge (a
/// two-point start for EPA); the depth is zero and the normal is the face normal.
#[test]
fn touching_boxes_start_from_two_points() {
    let b = Shape::rectangle(0.5, 0.5);
    let pen = penetration(&b, &Isometry::identity(), &b, &Isometry::translation(1.0, 0.25)).unwrap();
    assert!(pen.depth.abs() < 1e-5);
    assert!((pen.normal - Vec2::x()).norm() < 1e-4, "{}", pen.normal);
}

/// Regression: boxes touching corner to corner stop GJK with a one-point simplex.
#[test]
fn corner_to_corner_starts_from_one_point() {
    let b = Shape::rectangle(0.5, 0.5);
    let pen = penetration(&b, &Isometry::identity(), &b, &Isometry::translation(1.0, 1.0)).unwrap();
    assert!(pen.depth.abs() < 1e-5);
    assert!(pen.normal.x >= -1e-5 && pen.normal.y >= -1e-5, "{}", pen.normal);
    assert!((pen.normal.norm() - 1.0).abs() < 1e-5);
}

/// Regression: two crossing segments have a Minkowski difference of zero
/// thickness in no direction, but GJK's simplex is a segment through the origin.
#[test]
fn crossing_segments() {
    let s = Shape::segment(p(-1.0, 0.0), p(1.0, 0.0));
    let t = Shape::segment(p(0.0, -0.25), p(0.0, 1.0));
    let id = Isometry::identity();
    let pen = penetration(&s, &id, &t, &id).unwrap();
    assert!((pen.depth - 0.25).abs() < 1e-5, "{}", pen.depth);
    assert!((pen.normal - Vec2::y()).norm() < 1e-4, "{}", pen.normal);
}

/// Regression: collinear overlapping segments have a Minkowski difference that is
/// itself a segment: zero area, so the depth is 0 and the normal must stay finite.
#[test]
fn collinear_segments() {
    let s = Shape::segment(p(-1.0, 0.0), p(1.0, 0.0));
    let id = Isometry::identity();
    let pen = penetration(&s, &id, &s, &Isometry::translation(0.5, 0.0)).unwrap();
    assert!(pen.depth.abs() < 1e-5);
    assert!(pen.normal.x.is_finite() && (pen.normal.norm() - 1.0).abs() < 1e-5);
}

/// Regression: near-parallel edges make the closest edge and the next almost the
/// same distance; EPA must not oscillate between them.
#[test]
fn near_parallel_edges_converge() {
    let b = Shape::rectangle(2.0, 0.5);
    let pose = Isometry::new(Vec2::new(0.0, 0.9), 1e-6);
    let pen = penetration(&b, &Isometry::identity(), &b, &pose).unwrap();
    assert!((pen.depth - 0.1).abs() < 1e-4, "{}", pen.depth);
    assert!((pen.normal - Vec2::y()).norm() < 1e-4);
}

/// Ellipses never converge exactly; the iteration cap must still give an accurate answer.
#[test]
fn overlapping_ellipses() {
    let e = Shape::ellipse(2.0, 1.0);
    let pen = penetration(&e, &Isometry::identity(), &e, &Isometry::translation(0.0, 1.5)).unwrap();
    assert!((pen.depth - 0.5).abs() < 1e-3, "{}", pen.depth);
    // A chord of the curved boundary gives the normal: accurate to about the
    // square root of EPA's tolerance.
    let normal_tolerance = if cfg!(feature = "f64") { 1e-4 } else { 3e-3 };
    assert!((pen.normal - Vec2::y()).norm() < normal_tolerance, "{pen:?}");
    assert_eq!(distance(&e, &Isometry::identity(), &e, &Isometry::translation(0.0, 1.5)).distance, 0.0);
}
