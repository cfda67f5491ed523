//! The course: Gymnasium's terrain generator (grass that wanders about a
//! level, and in hardcore mode stumps, stairs and pits between grass spells),
//! the clouds of the backdrop, and the fixed body that carries the course in
//! a world.
//!
//! Generation is pure: a course is a function of the random stream alone, so
//! one seed gives one course, and tests can read it without a world.

use lamina2d::prelude::*;

use super::{SCALE, VIEWPORT_H};
use crate::rng::Rng;

/// Width of one terrain step, m.
pub const TERRAIN_STEP: f64 = 14.0 / SCALE;
/// Number of terrain points.
pub const TERRAIN_LENGTH: usize = 200;
/// Height the grass wanders about, m.
pub const TERRAIN_HEIGHT: f64 = VIEWPORT_H / SCALE / 4.0;
/// Length of a grass spell, in steps: spells last from half this to this.
pub const TERRAIN_GRASS: i64 = 10;
/// Flat steps before the first random one, where the walker starts.
pub const TERRAIN_STARTPAD: i64 = 20;
/// Friction of the ground and the obstacles.
pub const FRICTION: Real = 2.5;
/// The ground's collision category: the walker's parts collide with it
/// alone, and the lidar sees nothing else.
pub const GROUND_CATEGORY: u32 = 0x0001;

/// A convex quadrilateral of the course, corners in Gymnasium's order.
pub type Quad = [(f64, f64); 4];

/// What is being generated while walking along the course.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Feature {
    Grass,
    Stump,
    Stairs,
    Pit,
}

impl Feature {
    /// The feature numbered as Gymnasium numbers them (grass is 0).
    fn from_index(index: i64) -> Self {
        match index {
            1 => Feature::Stump,
            2 => Feature::Stairs,
            3 => Feature::Pit,
            _ => Feature::Grass,
        }
    }
}

/// One course: the surface through `TERRAIN_LENGTH` points, one step apart,
/// and the solid blocks (stumps, stair treads, pit walls) standing on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Terrain {
    /// The surface's x, m: `i · TERRAIN_STEP`.
    pub xs: Vec<f64>,
    /// The surface's height at each x, m.
    pub ys: Vec<f64>,
    /// Obstacles, in the order they were made.
    pub obstacles: Vec<Quad>,
}

/// The state of Gymnasium's generator between two points: the feature being
/// laid, how many steps it has left, and what its first step decided.
struct Walk {
    feature: Feature,
    /// The first step of a feature (its "one shot", which places its blocks).
    starting: bool,
    counter: i64,
    /// The grass's vertical velocity, m per step.
    velocity: f64,
    y: f64,
    /// The height the current pit or staircase started from.
    original_y: f64,
    stair_steps: i64,
    stair_width: i64,
    stair_height: i64,
}

impl Terrain {
    /// The course drawn from `rng`; `hardcore` puts obstacles between the
    /// grass spells. The draws are Gymnasium's, in Gymnasium's order.
    pub fn generate(rng: &mut Rng, hardcore: bool) -> Self {
        let mut terrain = Terrain {
            xs: Vec::with_capacity(TERRAIN_LENGTH),
            ys: Vec::with_capacity(TERRAIN_LENGTH),
            obstacles: Vec::new(),
        };
        let mut walk = Walk {
            feature: Feature::Grass,
            starting: false,
            counter: TERRAIN_STARTPAD,
            velocity: 0.0,
            y: TERRAIN_HEIGHT,
            original_y: 0.0,
            stair_steps: 0,
            stair_width: 0,
            stair_height: 0,
        };
        for i in 0..TERRAIN_LENGTH {
            let x = i as f64 * TERRAIN_STEP;
            walk.lay(rng, i, x, &mut terrain.obstacles);
            terrain.xs.push(x);
            terrain.ys.push(walk.y);
            walk.advance(rng, hardcore);
        }
        terrain
    }

    /// The x past which the walker has arrived (the last grass spell's start).
    pub fn finish_x(&self) -> f64 {
        (TERRAIN_LENGTH as i64 - TERRAIN_GRASS) as f64 * TERRAIN_STEP
    }

    /// The surface as a chain's points, right to left, so that each segment's
    /// solid side (its right, looking along it) faces up.
    pub fn surface_points(&self) -> Vec<Point> {
        self.xs.iter().zip(&self.ys).rev().map(|(&x, &y)| Point::new(x as Real, y as Real)).collect()
    }

    /// Adds the course to `world` as one fixed body: the surface as a chain
    /// (no seams for a foot to snag on) and each obstacle as a polygon
    /// placed at its first corner, so that its shape is computed near its
    /// own origin rather than up to 93 m from the world's.
    pub fn build(&self, world: &mut World) -> BodyKey {
        // Every number here is finite and every shape has area by
        // construction, so the world cannot refuse them.
        let ground = world.add_body(BodyDesc::fixed());
        let filter = CollisionFilter { category: GROUND_CATEGORY, ..CollisionFilter::default() };
        let surface = ChainDesc::new(&self.surface_points()).friction(FRICTION).filter(filter);
        world.add_chain(ground, surface).expect("the surface is a valid chain");
        for quad in &self.obstacles {
            let (x0, y0) = quad[0];
            let corners = quad.map(|(x, y)| Point::new((x - x0) as Real, (y - y0) as Real));
            let shape = Shape::polygon(&corners).expect("an obstacle spans a square step or more");
            let at = Isometry::translation(x0 as Real, y0 as Real);
            let block = ColliderDesc::new(shape).local_pose(at).friction(FRICTION).filter(filter);
            world.add_collider(ground, block).expect("an obstacle is a valid collider");
        }
        ground
    }
}

impl Walk {
    /// Sets the height of point `i` at `x`, placing the blocks of a feature
    /// on its first step.
    fn lay(&mut self, rng: &mut Rng, i: usize, x: f64, obstacles: &mut Vec<Quad>) {
        let s = TERRAIN_STEP;
        match (self.feature, self.starting) {
            (Feature::Grass, false) => {
                // A damped pull back toward the level, and a random push once
                // past the start pad.
                self.velocity = 0.8 * self.velocity + 0.01 * sign(TERRAIN_HEIGHT - self.y);
                if i as i64 > TERRAIN_STARTPAD {
                    self.velocity += rng.uniform(-1.0, 1.0) / SCALE;
                }
                self.y += self.velocity;
            }
            (Feature::Pit, true) => {
                // Two walls four steps deep, the gap between them 3 or 4 steps.
                self.counter = rng.integers(3, 5);
                let y = self.y;
                let wall = [(x, y), (x + s, y), (x + s, y - 4.0 * s), (x, y - 4.0 * s)];
                let shift = s * self.counter as f64;
                obstacles.push(wall);
                obstacles.push(wall.map(|(px, py)| (px + shift, py)));
                self.counter += 2;
                self.original_y = y;
            }
            (Feature::Pit, false) => {
                self.y = self.original_y;
                if self.counter > 1 {
                    self.y -= 4.0 * s;
                }
            }
            (Feature::Stump, true) => {
                // A square block one or two steps wide.
                self.counter = rng.integers(1, 3);
                let (y, size) = (self.y, self.counter as f64 * s);
                obstacles.push([(x, y), (x + size, y), (x + size, y + size), (x, y + size)]);
            }
            (Feature::Stairs, true) => {
                self.stair_height = if rng.unit() > 0.5 { 1 } else { -1 };
                self.stair_width = rng.integers(4, 5);
                self.stair_steps = rng.integers(3, 5);
                self.original_y = self.y;
                let (w, h) = (self.stair_width as f64, self.stair_height as f64);
                for k in 0..self.stair_steps {
                    let k = k as f64;
                    let (left, right) = (x + k * w * s, x + (k + 1.0) * w * s);
                    let (top, bottom) = (self.y + k * h * s, self.y + (k * h - 1.0) * s);
                    obstacles.push([(left, top), (right, top), (right, bottom), (left, bottom)]);
                }
                self.counter = self.stair_steps * self.stair_width;
            }
            (Feature::Stairs, false) => {
                let climbed = (self.stair_steps * self.stair_width - self.counter - self.stair_height) as f64;
                let treads = climbed / self.stair_width as f64;
                self.y = self.original_y + treads * self.stair_height as f64 * s;
            }
            // The first step of a grass spell keeps the height.
            (Feature::Grass, true) | (Feature::Stump, false) => {}
        }
    }

    /// Counts the step off, and when the feature is done picks the next: in
    /// hardcore mode an obstacle after each grass spell, else grass again.
    fn advance(&mut self, rng: &mut Rng, hardcore: bool) {
        self.starting = false;
        self.counter -= 1;
        if self.counter == 0 {
            self.counter = rng.integers(TERRAIN_GRASS / 2, TERRAIN_GRASS);
            self.feature = if self.feature == Feature::Grass && hardcore {
                Feature::from_index(rng.integers(1, 4))
            } else {
                Feature::Grass
            };
            self.starting = true;
        }
    }
}

/// NumPy's `sign`: −1, 0 or 1.
fn sign(v: f64) -> f64 {
    if v > 0.0 {
        1.0
    } else if v < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// A cloud of the backdrop: a five-cornered polygon and its horizontal extent.
#[derive(Clone, Debug, PartialEq)]
pub struct Cloud {
    /// The corners, m, in the backdrop's frame (it scrolls at half speed).
    pub corners: [(f64, f64); 5],
    /// The leftmost corner's x.
    pub x1: f64,
    /// The rightmost corner's x.
    pub x2: f64,
}

/// Gymnasium's ten clouds, drawn from `rng` after the terrain.
pub fn generate_clouds(rng: &mut Rng) -> Vec<Cloud> {
    let s = TERRAIN_STEP;
    let y = VIEWPORT_H / SCALE * 3.0 / 4.0;
    (0..TERRAIN_LENGTH / 20)
        .map(|_| {
            let x = rng.uniform(0.0, TERRAIN_LENGTH as f64) * s;
            let corners: [(f64, f64); 5] = std::array::from_fn(|a| {
                // Gymnasium's angle uses 3.14 for π; the pentagon is its.
                #[allow(clippy::approx_constant)]
                let angle = 3.14 * 2.0 * a as f64 / 5.0;
                let cx = x + 15.0 * s * angle.sin() + rng.uniform(0.0, 5.0 * s);
                let cy = y + 5.0 * s * angle.cos() + rng.uniform(0.0, 5.0 * s);
                (cx, cy)
            });
            let x1 = corners.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
            let x2 = corners.iter().map(|c| c.0).fold(f64::NEG_INFINITY, f64::max);
            Cloud { corners, x1, x2 }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_seed_gives_one_course_and_another_seed_another() {
        for hardcore in [false, true] {
            let a = Terrain::generate(&mut Rng::new(11), hardcore);
            let b = Terrain::generate(&mut Rng::new(11), hardcore);
            let c = Terrain::generate(&mut Rng::new(12), hardcore);
            assert_eq!(a, b);
            assert_ne!(a.ys, c.ys);
        }
    }

    #[test]
    fn the_start_pad_is_level_and_the_points_are_one_step_apart() {
        let terrain = Terrain::generate(&mut Rng::new(3), false);
        assert_eq!(terrain.xs.len(), TERRAIN_LENGTH);
        for (i, &x) in terrain.xs.iter().enumerate() {
            assert_eq!(x, i as f64 * TERRAIN_STEP);
        }
        // Before the first random push the pull toward the level has nothing
        // to pull: the sign of zero is zero.
        assert!(terrain.ys[..=TERRAIN_STARTPAD as usize].iter().all(|&y| y == TERRAIN_HEIGHT));
        assert!(terrain.obstacles.is_empty());
    }

    #[test]
    fn grass_climbs_no_faster_than_its_velocity_bound() {
        // v' = 0.8 v + 0.01 sign(.) + u/30 with |u| < 1 keeps |v| below
        // (0.01 + 1/30) / (1 - 0.8) m per step, and a step rises by v.
        let bound = (0.01 + 1.0 / SCALE) / 0.2;
        for seed in 0..20 {
            let terrain = Terrain::generate(&mut Rng::new(seed), false);
            let steepest = terrain.ys.windows(2).map(|w| (w[1] - w[0]).abs()).fold(0.0, f64::max);
            assert!(steepest > 0.0 && steepest < bound, "seed {seed}: {steepest}");
        }
    }

    #[test]
    fn hardcore_courses_have_every_kind_of_obstacle() {
        let (mut stumps, mut treads, mut pit_walls) = (0, 0, 0);
        for seed in 0..10 {
            let terrain = Terrain::generate(&mut Rng::new(seed), true);
            assert!(!terrain.obstacles.is_empty(), "seed {seed}");
            for q in &terrain.obstacles {
                let (w, h) = (q[1].0 - q[0].0, q[2].1 - q[1].1);
                let steps = |v: f64| (v / TERRAIN_STEP).round() as i64;
                match (steps(w), steps(h)) {
                    (1, 1) | (2, 2) => stumps += 1,
                    (4, -1) => treads += 1,
                    (1, -4) => pit_walls += 1,
                    other => panic!("seed {seed}: an obstacle of {other:?} steps"),
                }
            }
        }
        assert!(stumps > 0 && treads > 0 && pit_walls > 0, "{stumps} {treads} {pit_walls}");
        assert_eq!(pit_walls % 2, 0, "pits have two walls");
    }

    #[test]
    fn a_pit_floor_lies_four_steps_below_its_rim() {
        let terrain = (0..50)
            .map(|seed| Terrain::generate(&mut Rng::new(seed), true))
            .find(|t| t.obstacles.iter().any(|q| q[2].1 < q[1].1 - 3.0 * TERRAIN_STEP))
            .expect("a course with a pit");
        let wall = terrain.obstacles.iter().find(|q| q[2].1 < q[1].1 - 3.0 * TERRAIN_STEP).unwrap();
        let (rim, floor) = (wall[0].1, wall[0].1 - 4.0 * TERRAIN_STEP);
        let i = (wall[0].0 / TERRAIN_STEP).round() as usize;
        assert_eq!(terrain.ys[i], rim);
        assert!((terrain.ys[i + 1] - floor).abs() < 1e-12, "{} {floor}", terrain.ys[i + 1]);
    }

    #[test]
    fn clouds_hang_in_the_upper_quarter_of_the_sky() {
        let clouds = generate_clouds(&mut Rng::new(5));
        assert_eq!(clouds.len(), 10);
        let y = VIEWPORT_H / SCALE * 0.75;
        for cloud in &clouds {
            for &(cx, cy) in &cloud.corners {
                assert!(cx >= cloud.x1 && cx <= cloud.x2);
                assert!(cy >= y - 5.0 * TERRAIN_STEP && cy <= y + 10.0 * TERRAIN_STEP);
            }
        }
    }
}
