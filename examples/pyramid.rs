//! The pyramid scene of Lamina's benchmarks: a ground box and a pyramid of unit
//! squares (`cargo run --release --example pyramid -- [rows]`, default 20).
//!
//! This version builds the scene's geometry and reports it — bodies, total mass,
//! bounds, and what a ray dropped through the apex hits. It becomes the full
//! simulation once the dynamics crate lands.

use lamina::prelude::*;

const HALF: Real = 0.5;

fn main() {
    let rows: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let ground = (Shape::rectangle(100.0 * HALF + 10.0, 1.0), Isometry::translation(0.0, -1.0));
    let block = Shape::rectangle(HALF, HALF);
    let poses = pyramid_poses(rows);

    let block_mass = block.mass_properties(1.0);
    let bounds = poses.iter().map(|p| block.aabb(p)).reduce(|a, b| a.merged(&b));
    println!("pyramid: {rows} rows, {} boxes of half-extent {HALF} m", poses.len());
    println!(
        "each box: mass {:.3} kg, inertia {:.4} kg·m²; total mass {:.1} kg",
        block_mass.mass,
        block_mass.inertia,
        block_mass.mass * poses.len() as Real
    );
    if let Some(b) = bounds {
        println!("pyramid bounds: ({:.2}, {:.2}) to ({:.2}, {:.2})", b.mins.x, b.mins.y, b.maxs.x, b.maxs.y);
    }

    // Drop a ray from above the apex: it must hit the top box, then the ground.
    let ray = Ray::new(Point::new(0.0, 2.0 * rows as Real + 5.0), Vec2::new(0.0, -1.0));
    let first = poses
        .iter()
        .filter_map(|p| block.cast_ray(p, &ray, Real::MAX).map(|h| (h, p)))
        .min_by(|a, b| a.0.toi.total_cmp(&b.0.toi));
    if let Some((hit, pose)) = first {
        let p = ray.point_at(hit.toi);
        println!(
            "a ray dropped at x = 0 hits the box at ({:.2}, {:.2}) on its surface ({:.2}, {:.2}), normal ({:.1}, {:.1})",
            pose.translation.x, pose.translation.y, p.x, p.y, hit.normal.x, hit.normal.y
        );
    }
    if let Some(hit) = ground.0.cast_ray(&ground.1, &ray, Real::MAX) {
        println!("the same ray reaches the ground's top face at y = {:.2}", ray.point_at(hit.toi).y);
    }
}

/// Box centres of a pyramid with `rows` boxes on its base, resting on y = 0.
fn pyramid_poses(rows: usize) -> Vec<Isometry> {
    let mut poses = Vec::with_capacity(rows * (rows + 1) / 2);
    for i in 0..rows {
        let y = (2 * i + 1) as Real * HALF;
        for j in i..rows {
            let x = (i + 1) as Real * HALF + 2.0 * (j - i) as Real * HALF - rows as Real * HALF;
            poses.push(Isometry::translation(x, y));
        }
    }
    poses
}
