//! The shape pairs, built once for each engine from the same numbers.
//!
//! They match `benches/narrowphase.rs`: A at the origin, B above it, shifted
//! sideways and turned a little, at a chosen vertical gap.

use lamina2d::prelude::*;
use parry2d::math::{Pose, Vector};
use parry2d::shape::{Ball, Capsule, ConvexPolygon, Cuboid};

/// How far apart a pair is set.
#[derive(Clone, Copy, Debug)]
pub enum Gap {
    /// 4 cm deep: a resting contact after a step.
    Overlapping,
    /// 1 cm apart, inside the speculative margin.
    Near,
    /// 10 cm apart (1 m for the 10,000-vertex polygons).
    Apart,
}

impl Gap {
    pub fn name(self) -> &'static str {
        match self {
            Gap::Overlapping => "overlapping",
            Gap::Near => "near",
            Gap::Apart => "apart",
        }
    }
}

/// A parry2d shape behind its trait, as parry's queries take it.
pub type ParryShape = Box<dyn parry2d::shape::Shape>;

/// Two shapes in both engines and how B sits on A.
pub struct Pair {
    pub name: &'static str,
    pub a: Shape,
    pub b: Shape,
    /// The same shapes in parry2d; `None` where parry2d has no such shape.
    pub parry: Option<(ParryShape, ParryShape)>,
    dx: Real,
    angle: Real,
    /// The `apart` gap, in metres.
    apart: Real,
}

impl Pair {
    /// A's pose (the origin) and B's pose, B's lowest point `gap` above A's highest.
    pub fn poses(&self, gap: Gap) -> (Isometry, Isometry) {
        let gap = match gap {
            Gap::Overlapping => -0.04,
            Gap::Near => 0.01,
            Gap::Apart => self.apart,
        };
        let top = self.a.support_point(&Vec2::y()).y;
        let turn = Rotation::new(self.angle);
        let bottom = (turn * self.b.support_point(&(turn.inverse() * -Vec2::y()))).y;
        (Isometry::identity(), Isometry::new(Vec2::new(self.dx, top - bottom + gap), self.angle))
    }
}

/// The same pose in parry2d's types.
pub fn parry_pose(pose: &Isometry) -> Pose {
    let t = pose.translation.vector;
    Pose::new(Vector::new(t.x, t.y), pose.rotation.angle())
}

/// A regular polygon's `n` vertices on a circle of `radius`, half a step off +x (for even `n`,
/// an edge on top and one at the bottom).
fn regular_points(n: usize, radius: f64) -> Vec<Point> {
    (0..n)
        .map(|i| {
            let angle = (i as f64 + 0.5) / n as f64 * std::f64::consts::TAU;
            Point::new((radius * angle.cos()) as Real, (radius * angle.sin()) as Real)
        })
        .collect()
}

/// The regular polygon in both engines, each taking the convex hull of the same points.
fn regular_polygon(n: usize, radius: f64) -> (Shape, ConvexPolygon) {
    let points = regular_points(n, radius);
    let lamina = Shape::polygon(&points).expect("a regular polygon spans an area");
    let hull = match &lamina {
        Shape::Polygon(p) => p.vertices(),
        _ => unreachable!("Shape::polygon makes a polygon"),
    };
    let parry_points: Vec<Vector> = points.iter().map(|p| Vector::new(p.x, p.y)).collect();
    let parry = match ConvexPolygon::from_convex_hull(&parry_points) {
        Some(parry) if parry.points().len() == hull.len() => parry,
        other => {
            // parry2d merges edges whose normals differ by less than about 1.5° (f32), which
            // leaves nothing of a polygon with more than about 240 vertices: give it Lamina's
            // hull (counter-clockwise, no collinear vertices) as it is.
            println!(
                "note: parry2d's from_convex_hull keeps {} of the {n}-gon's {} vertices; \
                 using from_convex_polyline_unmodified on Lamina's hull instead",
                other.map_or(0, |p| p.points().len()),
                hull.len()
            );
            let vertices = hull.iter().map(|p| Vector::new(p.x, p.y)).collect();
            ConvexPolygon::from_convex_polyline_unmodified(vertices).expect("a regular polygon spans an area")
        }
    };
    (lamina, parry)
}

pub fn pairs() -> Vec<Pair> {
    let (octagon, parry_octagon) = regular_polygon(8, 0.5);
    let (big, parry_big) = regular_polygon(10_000, 100.0);
    let (p1, p2, radius) = (Point::new(-0.5, 0.0), Point::new(0.5, 0.0), 0.25);
    let capsule = Shape::capsule(p1, p2, radius);
    let parry_capsule = || Capsule::new(Vector::new(p1.x, p1.y), Vector::new(p2.x, p2.y), radius);
    let boxed = |a: ParryShape, b: ParryShape| Some((a, b));
    vec![
        Pair {
            name: "box-box",
            a: Shape::rectangle(0.5, 0.5),
            b: Shape::rectangle(0.5, 0.5),
            parry: boxed(
                Box::new(Cuboid::new(Vector::splat(0.5))),
                Box::new(Cuboid::new(Vector::splat(0.5))),
            ),
            dx: 0.2,
            angle: 0.05,
            apart: 0.1,
        },
        Pair {
            name: "polygon8-polygon8",
            a: octagon.clone(),
            b: octagon.clone(),
            parry: boxed(Box::new(parry_octagon.clone()), Box::new(parry_octagon.clone())),
            dx: 0.1,
            angle: 0.3,
            apart: 0.1,
        },
        Pair {
            name: "circle-polygon8",
            a: Shape::circle(0.5),
            b: octagon.clone(),
            parry: boxed(Box::new(Ball::new(0.5)), Box::new(parry_octagon.clone())),
            dx: 0.1,
            angle: 0.3,
            apart: 0.1,
        },
        Pair {
            name: "capsule-capsule",
            a: capsule.clone(),
            b: capsule,
            parry: boxed(Box::new(parry_capsule()), Box::new(parry_capsule())),
            dx: 0.2,
            angle: 0.4,
            apart: 0.1,
        },
        Pair {
            name: "ellipse-polygon8",
            a: Shape::ellipse(0.6, 0.3),
            b: octagon,
            parry: None,
            dx: 0.1,
            angle: 0.3,
            apart: 0.1,
        },
        Pair {
            name: "polygon10k-polygon10k",
            a: big.clone(),
            b: big,
            parry: boxed(Box::new(parry_big.clone()), Box::new(parry_big)),
            dx: 0.0,
            angle: (std::f64::consts::PI / 10_000.0) as Real,
            apart: 1.0,
        },
    ]
}
