//! Forty planks hinged end to end between two banks 18 m apart, hanging with
//! some slack, and boxes and balls dropped on them. Shared by
//! `examples/bridge.rs` and the testbed, which include this file by path.

use lamina2d::prelude::*;

pub const DT: Real = 1.0 / 60.0;
pub const PLANKS: usize = 40;
/// Half the length and half the thickness of a plank, m.
pub const PLANK: (Real, Real) = (0.25, 0.0625);
const PLANK_DENSITY: Real = 20.0;
/// Load: boxes and balls dropped along the span.
pub const BOXES: usize = 8;
pub const BALLS: usize = 6;
/// The banks' distance as a share of the planks' length.
const SPAN_SHARE: Real = 0.9;

/// The angle an arc of length `length` subtends when its chord is `chord`:
/// the root of 2 sin(φ/2) / φ = chord / length, by bisection.
fn arc_angle(chord: Real, length: Real) -> Real {
    let (mut lo, mut hi) = (1e-6 as Real, 2.0 * std::f64::consts::PI as Real);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if 2.0 * (0.5 * mid).sin() / mid > chord / length { lo = mid } else { hi = mid }
    }
    0.5 * (lo + hi)
}

/// The bridge: the planks laid along a circular arc hanging between the banks
/// (close to the catenary it settles into), hinged to each other and, at the
/// ends, to a fixed bank. Returns the planks and the hinges, left to right.
fn build_bridge(world: &mut World) -> Result<(Vec<BodyKey>, Vec<JointKey>), String> {
    let length = PLANKS as Real * 2.0 * PLANK.0;
    let chord = SPAN_SHARE * length;
    let phi = arc_angle(chord, length);
    let radius = length / phi;
    // The arc's centre is above the middle; hinge k sits at angle θ_k below it.
    let centre_y = radius * (0.5 * phi).cos();
    let hinge_at = |k: usize| {
        let theta = -0.5 * phi + phi * k as Real / PLANKS as Real;
        Point::new(radius * theta.sin(), centre_y - radius * theta.cos())
    };
    let bank = world.add_body(BodyDesc::fixed());
    let mut previous = bank;
    let (mut planks, mut hinges) = (Vec::new(), Vec::new());
    for i in 0..PLANKS {
        let (p, q) = (hinge_at(i), hinge_at(i + 1));
        let mid = Point::from((p.coords + q.coords) * 0.5);
        let angle = (q.y - p.y).atan2(q.x - p.x);
        let plank = world.add_body(BodyDesc::dynamic().translation(mid.x, mid.y).angle(angle));
        let shape =
            ColliderDesc::new(Shape::rectangle(PLANK.0, PLANK.1)).density(PLANK_DENSITY).friction(0.6);
        world.add_collider(plank, shape).map_err(|e| e.to_string())?;
        hinges.push(world.add_joint(JointDesc::revolute(previous, plank, p)).map_err(|e| e.to_string())?);
        planks.push(plank);
        previous = plank;
    }
    let last = JointDesc::revolute(previous, bank, hinge_at(PLANKS));
    hinges.push(world.add_joint(last).map_err(|e| e.to_string())?);
    Ok((planks, hinges))
}

/// Boxes and balls spread along the span, dropped from 2 to 4 m.
fn drop_load(world: &mut World) -> Result<Vec<BodyKey>, String> {
    let span = SPAN_SHARE * PLANKS as Real * 2.0 * PLANK.0;
    let mut load = Vec::new();
    for i in 0..BOXES + BALLS {
        let x = -0.35 * span + 0.7 * span * i as Real / (BOXES + BALLS - 1) as Real;
        let y = 2.0 + (i % 3) as Real;
        let body = world.add_body(BodyDesc::dynamic().translation(x, y));
        let shape =
            if i % 2 == 0 && i / 2 < BOXES { Shape::rectangle(0.3, 0.3) } else { Shape::circle(0.25) };
        world
            .add_collider(body, ColliderDesc::new(shape).density(10.0).friction(0.6))
            .map_err(|e| e.to_string())?;
        load.push(body);
    }
    Ok(load)
}

/// The bridge's parts, left to right.
pub struct Bridge {
    pub planks: Vec<BodyKey>,
    /// The hinges, the two to the banks included.
    pub hinges: Vec<JointKey>,
    /// The boxes and balls dropped on it.
    pub load: Vec<BodyKey>,
}

/// The world with the bridge and its load, ready to drop.
pub fn build() -> Result<(World, Bridge), String> {
    let mut world = World::new(WorldSettings::default());
    let (planks, hinges) = build_bridge(&mut world)?;
    let load = drop_load(&mut world)?;
    Ok((world, Bridge { planks, hinges, load }))
}

/// The span and the load above it.
pub fn view() -> (Point, Point) {
    let half = PLANKS as Real * PLANK.0 + 1.0;
    (Point::new(-half, -3.5), Point::new(half, 4.5))
}

/// The sag of the arc the planks are laid along.
pub fn radius_sag() -> Real {
    let length = PLANKS as Real * 2.0 * PLANK.0;
    let phi = arc_angle(SPAN_SHARE * length, length);
    let radius = length / phi;
    radius * (1.0 - (0.5 * phi).cos())
}
