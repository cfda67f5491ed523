//! Fuzz target `pair_queries`: the narrow phase's pair queries (overlap,
//! distance, penetration, contact manifold, time of impact, ray casts) on
//! shapes of every kind at poses drawn from the fuzzer's bytes.
//!
//! Shapes that fail [`Shape::validate`] and poses that are not finite are
//! skipped: the queries take shapes the world has checked. For the rest it
//! checks that every answer is finite and in range, that swapping the shapes
//! gives the same answer mirrored, and, for two polygons, that distance and
//! penetration agree with brute force over every vertex–edge pair and with
//! the separating-axis depth over every edge normal (`oracle.rs`).

use arbitrary::Result;
use lamina2d::geometry::tolerance::REFERENCE_HYSTERESIS;
use lamina2d::prelude::*;
use lamina2d::query::{contact_manifold, distance, intersects, penetration, time_of_impact};

use crate::input::Input;
use crate::oracle::{close, polygon_distance, sat_depth, world_vertices};

/// How close, relative to the shapes' size, two answers that should agree
/// must be: round-off of `Real` over a few metres, with room for the
/// iterative paths' tolerances.
const AGREEMENT: f64 = if cfg!(feature = "f64") { 1e-6 } else { 1e-3 };

/// Runs the queries on the pair encoded in `data`, panicking on a broken promise.
pub fn run(data: &[u8]) {
    let mut input = Input::new(data);
    let _ = check_pair(&mut input);
}

fn check_pair(input: &mut Input) -> Result<()> {
    let (a, b) = (input.shape()?, input.shape()?);
    let (pa, pb) = (pose(input)?, pose(input)?);
    if a.validate().is_err() || b.validate().is_err() {
        return Ok(());
    }
    // Printed only when a check fails, to make the pair easy to rebuild.
    eprintln!("pair: {a:?} at {pa:?}\n      {b:?} at {pb:?}");
    let size = (a.local_bounding_radius() + b.local_bounding_radius()) as f64;
    let reach = size + (pa.translation.vector - pb.translation.vector).norm() as f64;
    if !reach.is_finite() || reach > 1.0e4 {
        return Ok(());
    }
    let tolerance = AGREEMENT * (1.0 + reach);
    check_distance(&a, &pa, &b, &pb, tolerance);
    check_penetration(&a, &pa, &b, &pb, tolerance);
    check_manifold(&a, &pa, &b, &pb, input.int(0, 10)? as Real * 0.01, tolerance);
    check_time_of_impact(&a, &pa, &b, &pb, input)?;
    check_ray(&a, &pa, input, tolerance)?;
    Ok(())
}

/// A finite pose within 50 m, turned by any angle.
fn pose(input: &mut Input) -> Result<Isometry> {
    let x = input.int(0, 10_000)? as Real / 100.0 - 50.0;
    let y = input.int(0, 10_000)? as Real / 100.0 - 50.0;
    let angle = input.int(0, 62_832)? as Real / 10_000.0;
    Ok(Isometry::new(Vec2::new(x, y), angle))
}

fn finite(values: &[Real]) -> bool {
    values.iter().all(|v| v.is_finite())
}

/// The world vertices of two sharp polygons, for the brute-force oracles,
/// which need real areas: slivers thinner than a ten-thousandth of their
/// length (a box of half-height 1e-31, say) collapse to a line where they
/// are placed, and give the oracles no edge normals to test.
fn polygons(a: &Shape, pa: &Isometry, b: &Shape, pb: &Isometry) -> Option<(Vec<Point>, Vec<Point>)> {
    let solid = |s: &Shape| {
        let r = s.local_bounding_radius();
        s.mass_properties(1.0).mass > 1e-4 * r * r
    };
    match (a, b) {
        (Shape::Polygon(p), Shape::Polygon(q))
            if p.radius() == 0.0 && q.radius() == 0.0 && solid(a) && solid(b) =>
        {
            Some((world_vertices(a, pa), world_vertices(b, pb)))
        }
        _ => None,
    }
}

fn check_distance(a: &Shape, pa: &Isometry, b: &Shape, pb: &Isometry, tolerance: f64) {
    let (ab, ba) = (distance(a, pa, b, pb), distance(b, pb, a, pa));
    for d in [&ab, &ba] {
        let values = [d.distance, d.point_a.x, d.point_a.y, d.point_b.x, d.point_b.y, d.normal.x, d.normal.y];
        assert!(finite(&values), "distance not finite: {d:?}");
        assert!(d.distance >= 0.0, "negative distance {d:?}");
    }
    assert!(
        close(ab.distance as f64, ba.distance as f64, tolerance),
        "distance not symmetric: {ab:?} vs {ba:?}"
    );
    if ab.distance as f64 > tolerance {
        let gap = (ab.point_b - ab.point_a).norm() as f64;
        assert!(
            close(gap, ab.distance as f64, tolerance),
            "closest points {gap} apart, distance {}",
            ab.distance
        );
        assert!(
            !intersects(a, pa, b, pb) && !intersects(b, pb, a, pa),
            "apart by {} but intersecting",
            ab.distance
        );
    }
    if let Some((va, vb)) = polygons(a, pa, b, pb) {
        let brute = polygon_distance(&va, &vb);
        assert!(
            close(ab.distance as f64, brute, tolerance),
            "distance {} against brute force {brute}",
            ab.distance
        );
    }
}

fn check_penetration(a: &Shape, pa: &Isometry, b: &Shape, pb: &Isometry, tolerance: f64) {
    let (ab, ba) = (penetration(a, pa, b, pb), penetration(b, pb, a, pa));
    for p in [&ab, &ba].into_iter().flatten() {
        let values = [p.depth, p.normal.x, p.normal.y, p.point_a.x, p.point_a.y, p.point_b.x, p.point_b.y];
        assert!(finite(&values), "penetration not finite: {p:?}");
        assert!(p.depth >= 0.0, "negative depth {p:?}");
        assert!((p.normal.norm() - 1.0).abs() < 1e-3, "normal not unit: {p:?}");
    }
    if let (Some(x), Some(y)) = (&ab, &ba) {
        assert!(close(x.depth as f64, y.depth as f64, tolerance), "depth not symmetric: {x:?} vs {y:?}");
    }
    if let Some((va, vb)) = polygons(a, pa, b, pb) {
        let sat = sat_depth(&va, &vb);
        match &ab {
            Some(p) => {
                assert!(close(p.depth as f64, sat.max(0.0), tolerance), "depth {} against SAT {sat}", p.depth)
            }
            None => assert!(sat <= tolerance, "no penetration reported, SAT depth {sat}"),
        }
    }
}

fn check_manifold(a: &Shape, pa: &Isometry, b: &Shape, pb: &Isometry, margin: Real, tolerance: f64) {
    let m = contact_manifold(a, pa, b, pb, margin);
    assert!(m.points.len() <= 2, "{} points", m.points.len());
    if m.points.is_empty() {
        return;
    }
    assert!(
        finite(&[m.normal.x, m.normal.y]) && (m.normal.norm() - 1.0).abs() < 1e-3,
        "manifold normal {m:?}"
    );
    for p in &m.points {
        assert!(finite(&[p.point.x, p.point.y, p.separation]), "manifold point {m:?}");
        assert!(p.separation as f64 <= margin as f64 + tolerance, "point beyond the margin: {m:?}");
    }
    // No point may be deeper than the shapes overlap, but for the reference
    // face's hysteresis: a manifold keeps a face that is up to
    // `REFERENCE_HYSTERESIS` deeper than the best one, so that it does not
    // flip between two nearly equal faces.
    let deepest = m.points.iter().map(|p| p.separation).fold(Real::MAX, Real::min) as f64;
    let depth = penetration(a, pa, b, pb).map_or(0.0, |p| p.depth as f64);
    let allowed = depth + tolerance + REFERENCE_HYSTERESIS as f64;
    assert!(deepest >= -allowed, "a point {deepest} deep where the shapes overlap by {depth}: {m:?}");
}

fn check_time_of_impact(a: &Shape, pa: &Isometry, b: &Shape, pb: &Isometry, input: &mut Input) -> Result<()> {
    let mut velocity = || -> Result<lamina2d::narrowphase::Velocity> {
        let v = Vec2::new(input.int(0, 400)? as Real / 10.0 - 20.0, input.int(0, 400)? as Real / 10.0 - 20.0);
        Ok(lamina2d::narrowphase::Velocity::new(v, input.int(0, 200)? as Real / 10.0 - 10.0))
    };
    let (va, vb) = (velocity()?, velocity()?);
    let max_t = input.int(0, 100)? as Real / 50.0;
    if let Some(toi) = time_of_impact(a, pa, &va, b, pb, &vb, max_t) {
        assert!(
            toi.time.is_finite() && toi.time >= 0.0 && toi.time <= max_t,
            "toi {toi:?} outside [0, {max_t}]"
        );
    }
    Ok(())
}

fn check_ray(shape: &Shape, pose: &Isometry, input: &mut Input, tolerance: f64) -> Result<()> {
    let origin =
        Point::new(input.int(0, 2000)? as Real / 10.0 - 100.0, input.int(0, 2000)? as Real / 10.0 - 100.0);
    let dir = Vec2::new(input.int(0, 200)? as Real / 10.0 - 10.0, input.int(0, 200)? as Real / 10.0 - 10.0);
    let max_toi = input.int(0, 1000)? as Real;
    let ray = Ray::new(origin, dir);
    if let Some(hit) = shape.cast_ray(pose, &ray, max_toi) {
        assert!(finite(&[hit.toi, hit.normal.x, hit.normal.y]), "ray hit {hit:?}");
        assert!(hit.toi >= 0.0 && hit.toi <= max_toi, "ray hit {hit:?} outside [0, {max_toi}]");
        let point = origin + dir * hit.toi;
        let off = shape.distance_to_point(pose, &point) as f64;
        let inside_start = shape.contains_point(pose, &origin) && hit.toi == 0.0;
        assert!(
            inside_start || off <= tolerance,
            "ray {ray:?} hit {hit:?} is {off} from the shape {shape:?} at {pose:?}"
        );
    }
    Ok(())
}
