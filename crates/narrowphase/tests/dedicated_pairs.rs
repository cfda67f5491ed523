//! The dedicated pair paths against the general ones they stand in for: box–box
//! manifolds against the small-polygon path, capsule and segment manifolds against
//! the same two-vertex polygons, and the closed-form box and circle separations
//! against GJK/EPA on the same shapes built as plain polygons.

// Oracles compute in f64; with the `f64` feature those casts are no-ops.
#![allow(clippy::unnecessary_cast)]

mod common;
use common::*;
use lamina_geometry::tolerance::LINEAR_SLOP;
use lamina_geometry::{Isometry, Point, Real, Shape, Vec2};
use lamina_narrowphase::manifold::{LocalManifold, LocalPoint, Manifold};
use lamina_narrowphase::pairs::{BoxView, SegmentView, collide_boxes, collide_polygons, collide_segments};
use lamina_narrowphase::poly_view::PolyView;
use lamina_narrowphase::query::signed_distance_by_gjk_epa;
use lamina_narrowphase::{contact_manifold, distance, penetration};

/// A small deterministic generator (SplitMix64), so that thousands of poses cost no shrinking.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn range(&mut self, lo: f64, hi: f64) -> Real {
        (lo + (hi - lo) * self.next()) as Real
    }

    /// An angle, now and then an exact multiple of a quarter turn (faces parallel).
    fn angle(&mut self) -> Real {
        if self.next() < 0.1 {
            (self.next() * 4.0).floor() as Real * std::f64::consts::FRAC_PI_2 as Real
        } else {
            self.range(-3.2, 3.2)
        }
    }
}

/// The largest separation over one polygon's edges and the runner-up, and the
/// incident choice's margin: how far the polygon path's choices are from a tie.
fn tie_gap(a: &PolyView, b: &PolyView) -> Real {
    let seps = |p: &PolyView, q: &PolyView| -> Vec<Real> {
        let mut s: Vec<Real> = (0..p.count)
            .map(|i| {
                q.vertices().iter().map(|w| p.normals[i].dot(&(w - p.vertices[i]))).fold(Real::MAX, Real::min)
            })
            .collect();
        s.sort_by(|x, y| y.total_cmp(x));
        s
    };
    let (sa, sb) = (seps(a, b), seps(b, a));
    let mut gap = (sa[0] - sa[1]).min(sb[0] - sb[1]).min((sb[0] - sa[0] - 0.1 * LINEAR_SLOP).abs());
    // The incident edge: the two most opposed normals.
    for (reference, incident) in [(a, b), (b, a)] {
        for i in 0..reference.count {
            let mut d: Vec<Real> =
                (0..incident.count).map(|j| incident.normals[j].dot(&reference.normals[i])).collect();
            d.sort_by(|x, y| x.total_cmp(y));
            gap = gap.min(d[1] - d[0]);
        }
    }
    gap
}

/// Asserts that two manifolds agree; ids only when `compare_ids`. `radii` is the
/// pair's summed rounding radius.
///
/// Two paths that place the same corners by different but equally rounded
/// transforms put them a few ulps apart (about 1e-6 at these coordinates). A
/// normal taken through two closest points `d` apart turns by up to that error
/// over `d`, so nearly touching corners get a looser normal tolerance.
fn assert_same(fast: &LocalManifold, slow: &LocalManifold, compare_ids: bool, radii: Real, what: &str) {
    assert_eq!(fast.points.len(), slow.points.len(), "{what}: {fast:?} vs {slow:?}");
    if fast.points.is_empty() {
        return;
    }
    let core_distance = slow.points.iter().map(|p| p.separation + radii).fold(Real::INFINITY, Real::min);
    let normal_tolerance = 1e-4 + if core_distance > 0.0 { 2e-6 / core_distance } else { 0.0 };
    assert!((fast.normal - slow.normal).norm() < normal_tolerance, "{what}: normal {fast:?} vs {slow:?}");
    for (p, q) in fast.points.iter().zip(&slow.points) {
        assert!((p.separation - q.separation).abs() < 1e-4, "{what}: separation {fast:?} vs {slow:?}");
        assert!((p.point - q.point).norm() < 1e-4, "{what}: point {fast:?} vs {slow:?}");
        if compare_ids {
            assert_eq!(p.id, q.id, "{what}: ids {fast:?} vs {slow:?}");
        }
    }
}

fn random_box(rng: &mut Rng, rounded: bool) -> Shape {
    let (hx, hy) = (rng.range(0.05, 1.5), rng.range(0.05, 1.5));
    if rounded { Shape::rounded_rectangle(hx, hy, rng.range(0.0, 0.3)) } else { Shape::rectangle(hx, hy) }
}

#[test]
fn box_pairs_match_the_polygon_path() {
    let mut rng = Rng(7);
    let (mut compared_ids, mut with_points) = (0, 0);
    for case in 0..20_000 {
        let a = random_box(&mut rng, case % 4 == 3);
        let b = random_box(&mut rng, case % 5 == 4);
        let reach = 2.5;
        let xf = Isometry::new(Vec2::new(rng.range(-reach, reach), rng.range(-reach, reach)), rng.angle());
        let margin = if case % 3 == 0 { 0.0 } else { rng.range(0.0, 0.1) };
        let (box_a, box_b) = (BoxView::of(&a).unwrap(), BoxView::of(&b).unwrap());
        let fast = collide_boxes(&box_a, &box_b, &xf, margin);
        let (view_a, view_b) = (PolyView::local(&a), PolyView::placed(&b, &xf));
        let slow = collide_polygons(&view_a, &view_b, margin);
        // Points right at the margin may fall either side of it by round-off.
        let at_margin = slow.points.iter().chain(&fast.points).any(|p| (p.separation - margin).abs() < 1e-5);
        if at_margin {
            continue;
        }
        let ids = tie_gap(&view_a, &view_b) > 1e-4;
        compared_ids += usize::from(ids);
        with_points += usize::from(!slow.points.is_empty());
        let radii = box_a.radius + box_b.radius;
        let what = format!("case {case}: {a:?} {b:?} {xf:?} margin {margin}");
        assert_same(&fast, &slow, ids, radii, &what);

        // The world-frame path (`contact_manifold` maps the box contact straight
        // to the world) against the polygon path mapped by `to_world`.
        let pa = Isometry::new(Vec2::new(rng.range(-20.0, 20.0), rng.range(-20.0, 20.0)), rng.angle());
        let pb = pa * xf;
        let world = contact_manifold(&a, &pa, &b, &pb, margin);
        let expected = slow.to_world(&pa, &pb);
        let local = |m: &Manifold| LocalManifold {
            normal: pa.rotation.inverse_transform_vector(&m.normal),
            points: m
                .points
                .iter()
                .map(|p| LocalPoint { point: p.local_a, separation: p.separation, id: p.id })
                .collect(),
        };
        assert_same(&local(&world), &local(&expected), ids, radii, &format!("{what} at {pa:?}"));
        for p in &world.points {
            assert!((pa * p.local_a - p.point).norm() < 1e-4, "{what}: local_a {world:?}");
            assert!((pb * p.local_b - p.point).norm() < 1e-4, "{what}: local_b {world:?}");
        }
    }
    assert!(compared_ids > 15_000 && with_points > 5_000, "{compared_ids} {with_points}");
}

fn random_segment_shape(rng: &mut Rng) -> Shape {
    let (p1, p2) = (
        Point::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)),
        Point::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)),
    );
    if rng.next() < 0.3 { Shape::segment(p1, p2) } else { Shape::capsule(p1, p2, rng.range(0.02, 0.5)) }
}

#[test]
fn segment_pairs_match_the_polygon_path() {
    let mut rng = Rng(11);
    let (mut with_points, mut two_points) = (0, 0);
    for case in 0..20_000 {
        let (a, b) = (random_segment_shape(&mut rng), random_segment_shape(&mut rng));
        let xf = Isometry::new(Vec2::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)), rng.angle());
        let margin = rng.range(0.0, 0.1);
        let fast = collide_segments(
            &SegmentView::local(&a).unwrap(),
            &SegmentView::placed(&b, &xf).unwrap(),
            margin,
        );
        let slow = collide_polygons(&PolyView::local(&a), &PolyView::placed(&b, &xf), margin);
        // Both run the same arithmetic: bit-identical answers.
        assert_eq!(fast, slow, "case {case}: {a:?} {b:?} {xf:?}");
        with_points += usize::from(!fast.points.is_empty());
        two_points += usize::from(fast.points.len() == 2);
    }
    // Contacts, including two-point ones, were compared, not only empty answers.
    assert!(with_points > 3_000 && two_points > 250, "{with_points} {two_points}");
}

/// A convex polygon of 3 to 8 vertices: the hull of random points around the origin.
fn random_polygon(rng: &mut Rng) -> Shape {
    loop {
        let n = 3 + (rng.next() * 6.0) as usize;
        let points: Vec<Point> =
            (0..n).map(|_| Point::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0))).collect();
        if let Ok(shape) = Shape::polygon(&points) {
            return shape;
        }
    }
}

#[test]
fn closed_form_separations_match_gjk_and_epa() {
    let mut rng = Rng(23);
    let id = Isometry::identity();
    let mut apart_exact = 0;
    for case in 0..20_000 {
        let a = match case % 3 {
            0 => Shape::circle(rng.range(0.05, 1.0)),
            1 => random_polygon(&mut rng),
            _ => random_box(&mut rng, case % 2 == 0),
        };
        let b = match case % 4 {
            0 => Shape::circle(rng.range(0.05, 1.0)),
            1 => random_polygon(&mut rng),
            _ => random_box(&mut rng, case % 5 == 0),
        };
        let pb = Isometry::new(Vec2::new(rng.range(-2.5, 2.5), rng.range(-2.5, 2.5)), rng.angle());
        let (general, general_normal) = signed_distance_by_gjk_epa(&a, &id, &b, &pb);
        let what = format!("case {case}: {a:?} {b:?} {pb:?}");

        let fast = distance(&a, &id, &b, &pb);
        assert!(close(fast.distance as f64, general.max(0.0) as f64, 1e-4), "{what}: {fast:?} vs {general}");
        if fast.distance > 1e-3 {
            apart_exact += 1;
            assert!((fast.normal - general_normal).norm() < 1e-3, "{what}: {fast:?} vs {general_normal:?}");
            let gap = (fast.point_b - fast.point_a).norm();
            assert!(close(gap as f64, fast.distance as f64, 1e-4), "{what}: witnesses {fast:?}");
            assert!(
                a.distance_to_point(&id, &fast.point_a) < 1e-4
                    && b.distance_to_point(&pb, &fast.point_b) < 1e-4
            );
        }

        match penetration(&a, &id, &b, &pb) {
            Some(f) if general <= 0.0 => {
                assert!(close(f.depth as f64, -general as f64, 1e-4), "{what}: {f:?} vs {general}");
                assert!(((f.point_a - f.point_b) - f.normal * f.depth).norm() < 1e-4, "{what}: {f:?}");
                // Equal depths along different axes are both right; otherwise the axes agree.
                let moved =
                    Isometry::from_parts((pb.translation.vector + f.normal * f.depth).into(), pb.rotation);
                assert!(distance(&a, &id, &b, &moved).distance < 2e-3, "{what}: {f:?}");
            }
            None if general > 0.0 => {}
            f => assert!(general.abs() < 1e-4, "{what}: {f:?} vs {general}"),
        }
    }
    assert!(apart_exact > 5_000, "{apart_exact}");
}

/// Regression: a circle in line with a capsule (or segment) beyond one of its
/// ends got a point 0.5 m deep while 10 cm apart. Root cause: the circle pair
/// took "no edge has the centre in front" to mean "inside the core"; a
/// segment core's two side normals both read 0 for a centre on its line, so
/// an end-on circle was pushed out sideways through the core. Only a polygon
/// with area has an inside; a segment core now always takes its nearest point.
#[test]
fn a_circle_in_line_with_a_capsule_end_is_apart() {
    let circle = Shape::circle(0.3);
    for core_radius in [0.2, 0.0] {
        let capsule = if core_radius > 0.0 {
            Shape::capsule(p(-0.3, 0.0), p(0.3, 0.0), core_radius)
        } else {
            Shape::segment(p(-0.3, 0.0), p(0.3, 0.0))
        };
        let gap = 0.9 - 0.3 - 0.3 - core_radius;
        for (pa, pb) in [
            (Isometry::translation(25.0, 1.0), Isometry::translation(25.9, 1.0)),
            (Isometry::translation(25.9, 1.0), Isometry::translation(25.0, 1.0)),
            (
                Isometry::translation(0.0, 0.0),
                Isometry::new(Vec2::new(0.0, 0.9), std::f64::consts::FRAC_PI_2 as Real),
            ),
        ] {
            for m in [
                contact_manifold(&circle, &pa, &capsule, &pb, 0.5),
                contact_manifold(&capsule, &pb, &circle, &pa, 0.5),
            ] {
                assert_eq!(m.points.len(), 1, "{capsule:?} at {pb:?}");
                let s = m.points[0].separation;
                assert!((s - gap).abs() < 1e-4, "separation {s}, the gap is {gap}");
            }
            assert!((distance(&circle, &pa, &capsule, &pb).distance - gap).abs() < 1e-4);
        }
    }
}

/// Regression: two capsules end to end in one line, 30 cm apart, got a point
/// half a metre deep. Root cause: the segment pair searched only the cores'
/// sides for a separating axis; along the line both sides read about 0, which
/// it took for touching, and the clipper then found the incident end beyond
/// the reference side and called it the deepest point. The cores' true
/// distance now counts too, so end-on cores are apart.
#[test]
fn capsules_end_to_end_in_one_line_are_apart() {
    let capsule = Shape::capsule(p(-0.25, 0.0), p(0.25, 0.0), 0.25);
    for angle in [0.0, 0.8505, 2.0] {
        let dir = Vec2::new((angle as Real).cos(), (angle as Real).sin());
        let pa = Isometry::new(Vec2::new(29.7, 5.5), angle);
        // Slightly turned, as two bodies of a pile are.
        let pb = Isometry::new(Vec2::new(29.7, 5.5) + dir * 1.3, angle + 3e-4);
        let gap = 1.3 - 0.5 - 0.5;
        let m = contact_manifold(&capsule, &pa, &capsule, &pb, 0.5);
        assert_eq!(m.points.len(), 1);
        assert!((m.points[0].separation - gap).abs() < 1e-3, "separation {}", m.points[0].separation);
        assert!(contact_manifold(&capsule, &pa, &capsule, &pb, 0.02).points.is_empty());
        let segment = Shape::segment(p(-0.25, 0.0), p(0.25, 0.0));
        let m = contact_manifold(&segment, &pa, &segment, &pb, 1.0);
        assert!((m.points[0].separation - 0.8).abs() < 1e-3, "segments: {}", m.points[0].separation);
    }
}
