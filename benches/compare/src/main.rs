//! Lamina's narrow phase against parry2d's, on the same shape pairs, in one process.
//!
//! `cargo run --release` (in `benches/compare`). See the README for what each row
//! measures and how the timing works.

mod pairs;
mod timing;

use lamina2d::prelude::*;
use lamina2d::query::{self as lq, Velocity};
use parry2d::math::{Pose, Vector};
use parry2d::query::{self as pq, ContactManifold, DefaultQueryDispatcher, NonlinearRigidMotion};
use parry2d::query::{ContactManifoldsWorkspace, PersistentQueryDispatcher};
use std::hint::black_box;

use pairs::{Gap, Pair, parry_pose};
use timing::{Timing, compare};

/// The manifold margin: Lamina's speculative distance, given to parry as its prediction distance.
const MARGIN: Real = lamina2d::geometry::tolerance::SPECULATIVE_DISTANCE;

/// How close the two engines' answers must be (metres, or seconds for time of impact).
const AGREEMENT: Real = 1.0e-3;

/// The parry2d version this crate resolves to (keep in step with Cargo.toml).
const PARRY_VERSION: &str = "0.31";

/// One line of the table.
struct Row {
    query: &'static str,
    pair: String,
    /// What each engine answered, for the reader: "Lamina / parry2d".
    answer: String,
    timing: Timing,
}

fn main() {
    let mut rows = Vec::new();
    let mut warnings = Vec::new();
    // An optional argument keeps only the pairs whose name contains it (`-- box-box`).
    let filter = std::env::args().nth(1).unwrap_or_default();
    let pairs: Vec<_> = pairs::pairs().into_iter().filter(|p| p.name.contains(filter.as_str())).collect();

    for pair in &pairs {
        rows.push(distance_row(pair, &mut warnings));
    }
    for pair in &pairs {
        rows.push(penetration_row(pair, &mut warnings));
    }
    for gap in [Gap::Overlapping, Gap::Near] {
        for pair in &pairs {
            rows.push(manifold_row(pair, gap, &mut warnings));
        }
    }
    if filter.is_empty() {
        rows.push(time_of_impact_row(&mut warnings));
    }

    println!(
        "Lamina {} vs parry2d {PARRY_VERSION}, f32; median of {} interleaved rounds \
         (min in brackets), ns per query",
        env!("CARGO_PKG_VERSION"),
        timing::ROUNDS
    );
    println!();
    println!("| query | pair | answer (Lamina / parry2d) | Lamina ns | parry2d ns | parry/Lamina |");
    println!("|---|---|---|---:|---:|---:|");
    for row in &rows {
        let t = &row.timing;
        let (parry, ratio) = match t.parry {
            Some(p) => (
                format!("{:.1} ({:.1})", p.median, p.min),
                format!("{:.2}× ({:.2}×)", p.median / t.lamina.median, p.min / t.lamina.min),
            ),
            None => ("n/a".to_owned(), "n/a".to_owned()),
        };
        println!(
            "| {} | {} | {} | {:.1} ({:.1}) | {parry} | {ratio} |",
            row.query, row.pair, row.answer, t.lamina.median, t.lamina.min
        );
    }
    println!();
    if warnings.is_empty() {
        println!("Both engines agree on every compared answer (within {AGREEMENT}).");
    }
    for warning in &warnings {
        println!("warning: {warning}");
    }
}

/// Records a warning when the two answers differ by more than [`AGREEMENT`].
fn check(warnings: &mut Vec<String>, what: String, lamina: Real, parry: Real) {
    // Both infinite (no manifold points in either) counts as agreeing; a NaN never does.
    let agree = lamina == parry || (lamina - parry).abs() <= AGREEMENT;
    if !agree {
        warnings.push(format!("{what}: Lamina {lamina:.5}, parry2d {parry:.5}"));
    }
}

fn distance_row(pair: &Pair, warnings: &mut Vec<String>) -> Row {
    let gap = Gap::Apart;
    let (pa, pb) = pair.poses(gap);
    let (a, b) = (&pair.a, &pair.b);
    let lamina = lq::distance(a, &pa, b, &pb).distance;
    let mut answer = format!("{lamina:.4}");
    let timing = match &pair.parry {
        Some((qa, qb)) => {
            let (qpa, qpb) = (parry_pose(&pa), parry_pose(&pb));
            let parry = pq::distance(&qpa, &**qa, &qpb, &**qb).expect("parry supports the pair").distance;
            answer = format!("{lamina:.4} / {parry:.4}");
            check(warnings, format!("distance {} {}", pair.name, gap.name()), lamina, parry);
            compare(
                || lq::distance(black_box(a), black_box(&pa), black_box(b), &pb),
                Some(|| pq::distance(black_box(&qpa), black_box(&**qa), black_box(&qpb), &**qb)),
            )
        }
        None => compare(|| lq::distance(black_box(a), black_box(&pa), black_box(b), &pb), NONE),
    };
    Row { query: "distance", pair: format!("{} ({})", pair.name, gap.name()), answer, timing }
}

fn penetration_row(pair: &Pair, warnings: &mut Vec<String>) -> Row {
    let gap = Gap::Overlapping;
    let (pa, pb) = pair.poses(gap);
    let (a, b) = (&pair.a, &pair.b);
    let lamina = lq::penetration(a, &pa, b, &pb).map_or(Real::NAN, |p| p.depth);
    let mut answer = format!("{lamina:.4}");
    let timing = match &pair.parry {
        Some((qa, qb)) => {
            let (qpa, qpb) = (parry_pose(&pa), parry_pose(&pb));
            let contact = pq::contact(&qpa, &**qa, &qpb, &**qb, 0.0).expect("parry supports the pair");
            let parry = contact.map_or(Real::NAN, |c| -c.dist);
            answer = format!("{lamina:.4} / {parry:.4}");
            check(warnings, format!("penetration depth {} {}", pair.name, gap.name()), lamina, parry);
            if let (Some(l), Some(c)) = (lq::penetration(a, &pa, b, &pb), contact) {
                let normal = Vec2::new(c.normal1.x, c.normal1.y);
                check(
                    warnings,
                    format!("penetration normal {} (1 - cos)", pair.name),
                    1.0 - l.normal.dot(&normal),
                    0.0,
                );
            }
            compare(
                || lq::penetration(black_box(a), black_box(&pa), black_box(b), &pb),
                Some(|| pq::contact(black_box(&qpa), black_box(&**qa), black_box(&qpb), &**qb, 0.0)),
            )
        }
        None => compare(|| lq::penetration(black_box(a), black_box(&pa), black_box(b), &pb), NONE),
    };
    Row { query: "penetration / contact", pair: format!("{} ({})", pair.name, gap.name()), answer, timing }
}

fn manifold_row(pair: &Pair, gap: Gap, warnings: &mut Vec<String>) -> Row {
    let (pa, pb) = pair.poses(gap);
    let (a, b) = (&pair.a, &pair.b);
    let manifold = lq::contact_manifold(a, &pa, b, &pb, MARGIN);
    let lamina = manifold.points.iter().map(|p| p.separation).fold(Real::INFINITY, Real::min);
    let mut answer = format!("{} pts, {lamina:.4}", manifold.points.len());
    let timing = match &pair.parry {
        Some((qa, qb)) => {
            let (qpa, qpb) = (parry_pose(&pa), parry_pose(&pb));
            let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
            let mut workspace: Option<ContactManifoldsWorkspace> = None;
            DefaultQueryDispatcher
                .contact_manifolds(&qpa.inv_mul(&qpb), &**qa, &**qb, MARGIN, &mut manifolds, &mut workspace)
                .expect("parry supports the pair");
            let points: Vec<_> = manifolds.iter().flat_map(|m| m.points.iter()).collect();
            let parry = points.iter().map(|p| p.dist).fold(Real::INFINITY, Real::min);
            answer = format!("{} pts, {lamina:.4} / {} pts, {parry:.4}", manifold.points.len(), points.len());
            let what = format!("manifold {} {}", pair.name, gap.name());
            check(warnings, format!("{what} deepest separation"), lamina, parry);
            if manifold.points.len() != points.len() {
                let lamina: Vec<_> = manifold.points.iter().map(|p| format!("{:.4}", p.separation)).collect();
                let parry: Vec<_> = points.iter().map(|p| format!("{:.4}", p.dist)).collect();
                warnings.push(format!(
                    "{what}: point separations differ: Lamina [{}], parry2d [{}]",
                    lamina.join(", "),
                    parry.join(", ")
                ));
            }
            if let Some(m) = manifolds.first().filter(|m| !m.points.is_empty()) {
                let n = qpa.rotation * m.local_n1;
                check(
                    warnings,
                    format!("{what} normal (1 - cos)"),
                    1.0 - manifold.normal.dot(&Vec2::new(n.x, n.y)),
                    0.0,
                );
            }
            compare(
                || lq::contact_manifold(black_box(a), black_box(&pa), black_box(b), &pb, MARGIN),
                Some(|| {
                    // Clearing the points makes parry recompute: with its points kept and the
                    // poses unchanged, it would return them from its coherence cache.
                    for m in &mut manifolds {
                        m.clear();
                    }
                    let pos12 = black_box(&qpa).inv_mul(&qpb);
                    DefaultQueryDispatcher
                        .contact_manifolds(
                            &pos12,
                            black_box(&**qa),
                            &**qb,
                            MARGIN,
                            &mut manifolds,
                            &mut workspace,
                        )
                        .map(|()| manifolds.first().map_or(0, |m| m.points.len()))
                }),
            )
        }
        None => {
            compare(|| lq::contact_manifold(black_box(a), black_box(&pa), black_box(b), &pb, MARGIN), NONE)
        }
    };
    Row { query: "contact manifold", pair: format!("{} ({})", pair.name, gap.name()), answer, timing }
}

fn time_of_impact_row(warnings: &mut Vec<String>) -> Row {
    // A 1 m box, 3 m above a 4 m × 0.5 m floor, falling at 10 m/s while spinning at 2 rad/s.
    let (floor, crate_box) = (Shape::rectangle(2.0, 0.25), Shape::rectangle(0.5, 0.5));
    let (p_floor, v_floor) = (Isometry::identity(), Velocity::default());
    let p_box = Isometry::new(Vec2::new(0.0, 3.0), 0.3);
    let v_box = Velocity::new(Vec2::new(0.5, -10.0), 2.0);
    let lamina_toi = || {
        lq::time_of_impact(black_box(&floor), &p_floor, &v_floor, black_box(&crate_box), &p_box, &v_box, 1.0)
    };

    let (q_floor, q_box) = (pq_cuboid(2.0, 0.25), pq_cuboid(0.5, 0.5));
    let m_floor = NonlinearRigidMotion::constant_position(Pose::identity());
    let m_box = NonlinearRigidMotion::new(parry_pose(&p_box), Vector::ZERO, Vector::new(0.5, -10.0), 2.0);
    let parry_toi = || {
        pq::cast_shapes_nonlinear(black_box(&m_floor), &q_floor, &m_box, black_box(&q_box), 0.0, 1.0, true)
    };

    let lamina = lamina_toi().map_or(Real::NAN, |t| t.time);
    let parry = parry_toi().expect("parry supports the pair").map_or(Real::NAN, |h| h.time_of_impact);
    check(warnings, "time of impact, box falling on box".to_owned(), lamina, parry);
    Row {
        query: "time of impact",
        pair: "box falling on box, spinning".to_owned(),
        answer: format!("t = {lamina:.4} / {parry:.4}"),
        timing: compare(lamina_toi, Some(parry_toi)),
    }
}

fn pq_cuboid(hx: Real, hy: Real) -> parry2d::shape::Cuboid {
    parry2d::shape::Cuboid::new(Vector::new(hx, hy))
}

/// The `parry` argument of [`compare`] for rows parry2d cannot run.
const NONE: Option<fn()> = None;
