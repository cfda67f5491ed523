//! The robot: a hull on two legs of two links each, hinged at the hips and
//! knees by motored, limited revolute joints, with Gymnasium's
//! BipedalWalker-v3 polygons, densities, frictions, joint anchors and limits,
//! motor model and collision categories. It starts standing as Gymnasium's
//! walker stands after its first step (see [`Walker::spawn`]).

use lamina2d::prelude::*;

use super::SCALE;
use super::terrain::GROUND_CATEGORY;

/// The most torque a motor applies, N·m, at full action.
pub const MOTORS_TORQUE: f64 = 80.0;
/// A hip motor's speed, rad/s.
pub const SPEED_HIP: f64 = 4.0;
/// A knee motor's speed, rad/s.
pub const SPEED_KNEE: f64 = 6.0;
/// The hull's outline in pixels, origin at the hips' level.
const HULL_POLY: [(f64, f64); 5] = [(-30.0, 9.0), (6.0, 9.0), (34.0, 1.0), (34.0, -8.0), (-30.0, -8.0)];
/// How far below the hull's origin the hips are, m (negative: below).
pub const LEG_DOWN: f64 = -8.0 / SCALE;
/// An upper leg's width, m (a lower leg is 0.8 as wide).
pub const LEG_W: f64 = 8.0 / SCALE;
/// A leg link's length, m.
pub const LEG_H: f64 = 34.0 / SCALE;
/// The hip's range, rad, from the leg hanging straight down.
const HIP_LIMITS: (Real, Real) = (-0.8, 1.1);
/// The knee's range, rad: it never quite straightens.
const KNEE_LIMITS: (Real, Real) = (-1.6, -0.1);
/// How far each leg's thigh starts turned beyond the fold, rad, back leg
/// first: Gymnasium's walker, after its first step folds the legs, has its
/// back hip 0.1 rad ahead of its front one (0.435 and 0.338, measured).
pub const START_SPLAY: [f64; 2] = [0.05, -0.05];
/// The walker's parts belong to their own category and touch the ground
/// alone: never each other.
const WALKER_FILTER: CollisionFilter = CollisionFilter { category: 0x0020, mask: GROUND_CATEGORY, group: 0 };

/// A part of the walker as drawn: its body and its outline in the body's frame.
#[derive(Clone, Copy, Debug)]
pub struct Part {
    /// The body.
    pub body: BodyKey,
    /// The outline's corners, m, in the body's frame.
    pub outline: [(f32, f32); 5],
    /// How many of `outline`'s corners are used.
    pub corners: usize,
}

/// The walker in a world: its bodies, the colliders whose contacts matter,
/// and its four joints in Gymnasium's order (hip, knee of the back leg, then
/// of the front leg).
#[derive(Clone, Debug)]
pub struct Walker {
    /// The hull's body, whose origin is the walker's position.
    pub hull: BodyKey,
    /// The hull's collider: its touching the ground ends the episode.
    pub hull_collider: ColliderKey,
    /// The hull as drawn.
    pub hull_part: Part,
    /// The links of each leg, upper then lower, back leg first.
    pub legs: [[Part; 2]; 2],
    /// The lower links' colliders, whose ground contact is observed.
    pub feet: [ColliderKey; 2],
    /// Hip, knee, hip, knee.
    pub joints: [JointKey; 4],
    /// The motor speed and torque last given to each joint, so that an
    /// unchanged command leaves the joint (and the solver's lists) alone.
    motors: [(Real, Real); 4],
}

impl Walker {
    /// Builds the walker with its hull's origin at `(x, y)`, level, and its
    /// feet on the ground at height `ground`, standing as Gymnasium's walker
    /// stands once its first step has run: each leg folded, its knee bent
    /// back twice as far as its thigh is turned forward so that the foot
    /// comes down under the hip, as deep as it takes to reach the ground
    /// ([`fold_to_reach`]), the thighs then turned by `START_SPLAY`. The
    /// joints' zero angle is the pose with both links straight down, Box2D's
    /// reference angle of 0.
    ///
    /// Gymnasium creates its legs straight down, splayed ±0.05 rad, the upper
    /// links a hip's drop (0.53 m) below their hips, the knees straight
    /// (outside their limits) and the feet 0.27 m into the ground, and lets
    /// Box2D's position pass, which moves bodies without giving them speed,
    /// fold the legs in the first step. Lamina's joints and contacts are
    /// soft: they would undo that with speed and throw the walker up, so the
    /// links are built folded, joints closed and within limits, feet on the
    /// ground.
    pub fn spawn(world: &mut World, x: f64, y: f64, ground: f64) -> Self {
        let hull = world.add_body(BodyDesc::dynamic().translation(x as Real, y as Real));
        let hull_shape = Shape::polygon(&HULL_POLY.map(|(px, py)| point(px / SCALE, py / SCALE)))
            .expect("the hull's outline is convex with area");
        let hull_collider = world
            .add_collider(hull, part_collider(hull_shape, 5.0, 0.1))
            .expect("the hull is a valid collider");
        let hull_part = outline_of(hull, &HULL_POLY.map(|(px, py)| (px / SCALE, py / SCALE)));
        let hip = (x, y + LEG_DOWN);
        let mut legs = [[hull_part; 2]; 2];
        let mut feet = [hull_collider; 2];
        let mut joints = [JointKey::default(); 4];
        for (side, splay) in START_SPLAY.into_iter().enumerate() {
            // Built straight down first, so that the joints count from there.
            let (upper, _) = add_link(world, x, hip.1 - LEG_H / 2.0, LEG_W / 2.0);
            let (lower, foot) = add_link(world, x, hip.1 - LEG_H * 1.5, 0.8 * LEG_W / 2.0);
            let hip_joint = JointDesc::revolute(hull, upper, point(hip.0, hip.1));
            let knee_joint = JointDesc::revolute(upper, lower, point(hip.0, hip.1 - LEG_H));
            joints[2 * side] =
                world.add_joint(motored(hip_joint, HIP_LIMITS)).expect("the hip is a valid joint");
            joints[2 * side + 1] =
                world.add_joint(motored(knee_joint, KNEE_LIMITS)).expect("the knee is a valid joint");
            let fold = fold_to_reach(splay, hip.1 - ground);
            let [upper_pose, lower_pose] = leg_poses(hip, fold + splay, -2.0 * fold);
            world.set_body_position(upper, upper_pose).expect("a finite pose");
            world.set_body_position(lower, lower_pose).expect("a finite pose");
            legs[side] = [link_part(upper, LEG_W / 2.0), link_part(lower, 0.8 * LEG_W / 2.0)];
            feet[side] = foot;
        }
        Self { hull, hull_collider, hull_part, legs, feet, joints, motors: [(0.0, 0.0); 4] }
    }

    /// Turns an action into motor commands, Gymnasium's way: each joint runs
    /// at its rated speed in the direction of its action, with a torque
    /// limit proportional to the action's size.
    pub fn drive(&mut self, world: &mut World, action: &[f32]) {
        let rated = [SPEED_HIP, SPEED_KNEE, SPEED_HIP, SPEED_KNEE];
        for i in 0..4 {
            let command = motor_command(action[i], rated[i]);
            if command != self.motors[i] {
                let joint = world.joint_mut(self.joints[i]).expect("the walker's joints stay in its world");
                joint.set_motor(command.0, command.1).expect("finite, non-negative motor values");
                self.motors[i] = command;
            }
        }
    }

    /// The parts in Gymnasium's drawing order: each leg's upper then lower
    /// link, back leg first; the hull last, over them.
    pub fn parts(&self) -> impl Iterator<Item = &Part> {
        self.legs.iter().flatten().chain(std::iter::once(&self.hull_part))
    }
}

/// The poses of a leg's upper and lower link hanging from `hip`, the upper
/// link turned `thigh` from straight down and the knee bent `knee`: each
/// link's centre half a link along its own direction from the joint above it.
fn leg_poses(hip: (f64, f64), thigh: f64, knee: f64) -> [Isometry; 2] {
    let down = |angle: f64| (angle.sin(), -angle.cos());
    let (u, l) = (down(thigh), down(thigh + knee));
    let half = LEG_H / 2.0;
    let upper = (hip.0 + u.0 * half, hip.1 + u.1 * half);
    let bend = (hip.0 + u.0 * LEG_H, hip.1 + u.1 * LEG_H);
    let lower = (bend.0 + l.0 * half, bend.1 + l.1 * half);
    let pose = |(x, y): (f64, f64), angle: f64| Isometry::new(Vec2::new(x as Real, y as Real), angle as Real);
    [pose(upper, thigh), pose(lower, thigh + knee)]
}

/// How far below the hip the lowest corner of the foot lies, m, for a leg
/// whose upper link is turned `thigh` from straight down and whose knee is
/// bent `knee`.
pub fn foot_drop(thigh: f64, knee: f64) -> f64 {
    let shin = thigh + knee;
    LEG_H * thigh.cos() + LEG_H * shin.cos() + 0.8 * LEG_W / 2.0 * shin.sin().abs()
}

/// The fold that puts the foot of a leg turned `splay` beyond it exactly
/// `drop` below the hip (thigh at `fold + splay`, knee at `−2 fold`), the
/// knee within its limits (the nearer limit when no fold reaches). The drop
/// shrinks as the leg folds, so bisection finds it.
pub fn fold_to_reach(splay: f64, drop: f64) -> f64 {
    let drop_at = |fold: f64| foot_drop(fold + splay, -2.0 * fold);
    let (mut straight, mut folded) = (-f64::from(KNEE_LIMITS.1) / 2.0, -f64::from(KNEE_LIMITS.0) / 2.0);
    if drop_at(straight) <= drop {
        return straight;
    }
    if drop_at(folded) >= drop {
        return folded;
    }
    for _ in 0..60 {
        let mid = 0.5 * (straight + folded);
        if drop_at(mid) > drop {
            straight = mid;
        } else {
            folded = mid;
        }
    }
    0.5 * (straight + folded)
}

/// The motor speed and largest torque of an action `a` for a joint of
/// `rated` speed: `rated · sign(a)` and `MOTORS_TORQUE · min(|a|, 1)`. An
/// action of zero (either sign) leaves the joint free; a NaN, which callers
/// refuse, would hold it still.
pub fn motor_command(a: f32, rated: f64) -> (Real, Real) {
    let a = f64::from(a);
    let direction = if a > 0.0 {
        1.0
    } else if a < 0.0 {
        -1.0
    } else {
        0.0
    };
    ((rated * direction) as Real, (MOTORS_TORQUE * a.abs().min(1.0)) as Real)
}

/// Adds a leg link of `half_width` centred at `(x, y)`: its body and collider.
fn add_link(world: &mut World, x: f64, y: f64, half_width: f64) -> (BodyKey, ColliderKey) {
    let body = world.add_body(BodyDesc::dynamic().translation(x as Real, y as Real));
    let shape = Shape::rectangle(half_width as Real, (LEG_H / 2.0) as Real);
    // Box2D's default friction, which Gymnasium leaves the legs with.
    let collider =
        world.add_collider(body, part_collider(shape, 1.0, 0.2)).expect("a leg is a valid collider");
    (body, collider)
}

/// A collider of the walker's category with Gymnasium's material.
fn part_collider(shape: Shape, density: Real, friction: Real) -> ColliderDesc {
    ColliderDesc::new(shape).density(density).friction(friction).restitution(0.0).filter(WALKER_FILTER)
}

/// A joint with its limits and a motor that is idle until the first action.
fn motored(desc: JointDesc, (lower, upper): (Real, Real)) -> JointDesc {
    desc.limits(lower, upper).motor(0.0, 0.0)
}

/// The drawn outline of a leg link of `half_width`.
fn link_part(body: BodyKey, half_width: f64) -> Part {
    let (w, h) = (half_width, LEG_H / 2.0);
    outline_of(body, &[(-w, -h), (w, -h), (w, h), (-w, h)])
}

/// The part of `body` drawn through `corners` (at most five).
fn outline_of(body: BodyKey, corners: &[(f64, f64)]) -> Part {
    let mut outline = [(0.0, 0.0); 5];
    for (slot, &(x, y)) in outline.iter_mut().zip(corners) {
        *slot = (x as f32, y as f32);
    }
    Part { body, outline, corners: corners.len() }
}

fn point(x: f64, y: f64) -> Point {
    Point::new(x as Real, y as Real)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn motor_commands_follow_the_sign_and_size_of_the_action() {
        assert_eq!(motor_command(0.5, SPEED_HIP), (4.0, 40.0));
        assert_eq!(motor_command(-0.25, SPEED_KNEE), (-6.0, 20.0));
        // Beyond ±1 the torque saturates; the speed was the sign's already.
        assert_eq!(motor_command(3.0, SPEED_KNEE), (6.0, 80.0));
        assert_eq!(motor_command(-7.0, SPEED_HIP), (-4.0, 80.0));
        // Zero, of either sign, neither drives nor brakes (NumPy's sign of
        // −0.0 is 0).
        assert_eq!(motor_command(0.0, SPEED_HIP), (0.0, 0.0));
        assert_eq!(motor_command(-0.0, SPEED_HIP), (0.0, 0.0));
    }

    #[test]
    fn the_parts_weigh_what_their_areas_and_densities_say() {
        let mut world = World::new(WorldSettings::default());
        let walker = Walker::spawn(&mut world, 5.0, 6.0, 4.0);
        // The hull's outline by the shoelace formula, px², at density 5.
        let area_px: f64 = (0..5)
            .map(|i| {
                let ((x0, y0), (x1, y1)) = (HULL_POLY[i], HULL_POLY[(i + 1) % 5]);
                x0 * y1 - x1 * y0
            })
            .sum::<f64>()
            .abs()
            / 2.0;
        let hull_mass = 5.0 * area_px / (SCALE * SCALE);
        let mass = |b: BodyKey| f64::from(world.body(b).unwrap().mass());
        assert!((mass(walker.hull) - hull_mass).abs() < 1e-5, "{} {hull_mass}", mass(walker.hull));
        // Box2D's masses for Gymnasium's walker: 5.4222, 0.30222, 0.24178.
        assert!((hull_mass - 5.422_222).abs() < 1e-5);
        for [upper, lower] in walker.legs {
            assert!((mass(upper.body) - LEG_W * LEG_H).abs() < 1e-6);
            assert!((mass(lower.body) - 0.8 * LEG_W * LEG_H).abs() < 1e-6);
        }
    }

    #[test]
    fn the_legs_start_folded_with_the_feet_under_the_hips() {
        let mut world = World::new(WorldSettings::default());
        let walker = Walker::spawn(&mut world, 5.0, 6.0, 4.0);
        let angle = |j: JointKey| f64::from(world.joint_motion(j).unwrap().angle);
        for (side, splay) in START_SPLAY.into_iter().enumerate() {
            let (hip, knee) = (angle(walker.joints[2 * side]), angle(walker.joints[2 * side + 1]));
            let fold = hip - splay;
            assert!((knee + 2.0 * fold).abs() < 1e-5, "{hip} {knee}");
            assert!(knee > -1.6 && knee < -0.1, "{knee}");
            // The hip stands 6 − 8/30 − 4 m above the ground.
            assert!((foot_drop(hip, knee) - (2.0 + LEG_DOWN)).abs() < 1e-5);
            // The thigh reaches L sin(fold + splay) forward, the shin
            // L sin(splay − fold): the foot's centre ends 2 L sin(splay)
            // cos(fold) from under the hip.
            let shin = f64::from(world.body(walker.legs[side][1].body).unwrap().angle());
            assert!((shin - (splay - fold)).abs() < 1e-5);
            let lower = world.body(walker.legs[side][1].body).unwrap().translation();
            let foot_x = f64::from(lower.x) + LEG_H / 2.0 * shin.sin();
            let expected = 5.0 + 2.0 * LEG_H * splay.sin() * fold.cos();
            assert!((foot_x - expected).abs() < 1e-5, "{foot_x} {expected}");
        }
    }

    #[test]
    fn the_feet_start_on_the_ground() {
        let mut world = World::new(WorldSettings::default());
        let walker = Walker::spawn(&mut world, 5.0, 6.0, 4.0);
        // A collider's box is its shape's, grown by the speculative distance.
        let margin = f64::from(world.settings().speculative_distance);
        for foot in walker.feet {
            let lowest = f64::from(world.collider(foot).unwrap().aabb().mins.y) + margin;
            assert!((lowest - 4.0).abs() < 1e-5, "{lowest}");
        }
    }
}
