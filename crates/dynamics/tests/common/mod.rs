//! Helpers shared by the dynamics integration tests.
#![allow(dead_code)]

use lamina_dynamics::{BodyDesc, BodyKey, ChainDesc, ColliderDesc, JointDesc, World, WorldSettings};
use lamina_geometry::{Point, Real, Shape, Vec2};

/// A small deterministic generator.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn unit(&mut self) -> Real {
        (self.next() >> 40) as Real / (1u64 << 24) as Real
    }

    pub fn range(&mut self, lo: Real, hi: Real) -> Real {
        lo + (hi - lo) * self.unit()
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// One of the given values, or a random one in `lo..hi`.
    pub fn edge_or(&mut self, edges: &[Real], lo: Real, hi: Real) -> Real {
        if self.unit() < 0.4 { edges[self.below(edges.len())] } else { self.range(lo, hi) }
    }
}

/// A busy scene: a pyramid on a chain floor, a hinged chain of links, a
/// kinematic paddle, a bullet fired at the pyramid, a sensor, and a small
/// stack off to the side that falls asleep.
pub fn busy_world() -> (World, BodyKey) {
    let mut world = World::new(WorldSettings::default());
    let ground = world.add_body(BodyDesc::fixed());
    let floor: Vec<Point> = (0..=40).map(|i| Point::new(40.0 - 2.0 * i as Real, 0.0)).collect();
    world.add_chain(ground, ChainDesc::new(&floor).friction(0.6)).unwrap();
    for row in 0..10 {
        for i in 0..(10 - row) {
            let x = -5.0 + i as Real + 0.5 * row as Real;
            let b = world.add_body(BodyDesc::dynamic().translation(x, 0.5 + row as Real));
            world.add_collider(b, ColliderDesc::new(Shape::rectangle(0.5, 0.5)).friction(0.6)).unwrap();
        }
    }
    let mut previous = ground;
    for i in 0..12 {
        let x = 10.0 + 0.5 * i as Real;
        let link = world.add_body(BodyDesc::dynamic().translation(x + 0.25, 8.0));
        world
            .add_collider(
                link,
                ColliderDesc::new(Shape::capsule(Point::new(-0.2, 0.0), Point::new(0.2, 0.0), 0.05)),
            )
            .unwrap();
        let joint = JointDesc::revolute(previous, link, Point::new(x, 8.0));
        world.add_joint(if i == 5 { joint.limits(-0.5, 0.5) } else { joint }).unwrap();
        previous = link;
    }
    let paddle = world.add_body(BodyDesc::kinematic().translation(-15.0, 2.0).angular_velocity(1.5));
    world.add_collider(paddle, ColliderDesc::new(Shape::rectangle(3.0, 0.2))).unwrap();
    for i in 0..6 {
        let b =
            world.add_body(BodyDesc::dynamic().translation(-15.0 + (i as Real - 3.0) * 0.7, 5.0 + i as Real));
        world.add_collider(b, ColliderDesc::new(Shape::circle(0.3)).restitution(0.4)).unwrap();
    }
    let bullet = world.add_body(
        BodyDesc::dynamic().translation(-30.0, 3.0).linear_velocity(Vec2::new(150.0, 0.0)).bullet(true),
    );
    world.add_collider(bullet, ColliderDesc::new(Shape::circle(0.1)).density(20.0)).unwrap();
    let sensor = world.add_body(BodyDesc::fixed().translation(0.0, 3.0));
    world.add_collider(sensor, ColliderDesc::new(Shape::rectangle(2.0, 2.0)).sensor(true)).unwrap();
    for i in 0..4 {
        let b = world.add_body(BodyDesc::dynamic().translation(30.0, 0.5 + i as Real));
        world.add_collider(b, ColliderDesc::new(Shape::rectangle(0.5, 0.5))).unwrap();
    }
    (world, bullet)
}

/// Steps `a` and `b` side by side, 60 Hz, and requires the same bits and the
/// same contact events after every step.
pub fn step_both(a: &mut World, b: &mut World, steps: usize, what: &str) {
    for step in 0..steps {
        a.step(1.0 / 60.0).unwrap();
        b.step(1.0 / 60.0).unwrap();
        assert_eq!(a.state_hash(), b.state_hash(), "{what}: step {step} after the copy");
        assert_eq!(a.contact_events().len(), b.contact_events().len(), "{what}: events at step {step}");
    }
}

/// `chains` chains of `links` boxes (0.1 m by 1 m, 1 kg/m²), each hanging
/// straight down from a fixed body by plain revolute joints at the boxes'
/// ends, a metre apart so that nothing touches; no sleeping. Returns the
/// world and each chain's joints from the top.
pub fn hanging_chains(chains: usize, links: usize) -> (World, Vec<Vec<lamina_dynamics::JointKey>>) {
    hanging_chains_of(chains, links, JointDesc::revolute)
}

/// A joint between the body above, the link and the anchor between them.
pub type MakeJoint = fn(BodyKey, BodyKey, Point) -> JointDesc;

/// One joint of each way the solver stores impulses after a step: plain
/// revolute joints (point joints), revolute joints with limits (revolute
/// bundles), and welds (joints solved alone). The limits (±45°) stay slack
/// in a chain hanging straight.
pub fn joint_kinds() -> [(&'static str, MakeJoint); 3] {
    [
        ("plain revolute", JointDesc::revolute),
        ("revolute with limits", |a, b, anchor| {
            let quarter = std::f64::consts::FRAC_PI_4 as Real;
            JointDesc::revolute(a, b, anchor).limits(-quarter, quarter)
        }),
        ("weld", JointDesc::weld),
    ]
}

/// [`hanging_chains`] with the joints `joint` makes (from the body above,
/// the link and the anchor between them).
pub fn hanging_chains_of(
    chains: usize,
    links: usize,
    joint: impl Fn(BodyKey, BodyKey, Point) -> JointDesc,
) -> (World, Vec<Vec<lamina_dynamics::JointKey>>) {
    let mut w = World::new(WorldSettings { enable_sleep: false, ..WorldSettings::default() });
    let mut joints = Vec::with_capacity(chains);
    for c in 0..chains {
        let x = c as Real;
        let mut above = w.add_body(BodyDesc::fixed().translation(x, 0.0));
        let mut chain = Vec::with_capacity(links);
        for i in 0..links {
            let link = w.add_body(BodyDesc::dynamic().translation(x, -0.5 - i as Real));
            w.add_collider(link, ColliderDesc::new(Shape::rectangle(0.05, 0.5))).unwrap();
            chain.push(w.add_joint(joint(above, link, Point::new(x, -(i as Real)))).unwrap());
            above = link;
        }
        joints.push(chain);
    }
    (w, joints)
}
