//! The awake part of a world that is mostly asleep, listed without visiting
//! the rest.
//!
//! A step works on the awake bodies and on the contacts and joints that have
//! an awake body. Walking every slot of the body, contact and joint maps to
//! find them costs as much for a body asleep as for one awake: 11,000 boxes
//! asleep in piles (29,000 contacts) took 0.66 ms a step doing nothing. So
//! when at most a quarter of the bodies are awake, the step lists the
//! awake bodies from the awake islands, and their contacts and joints from
//! each body's own lists, in time proportional to what is awake.
//!
//! The lists come out in key order ([`KeySet`]), the order the walks give, and
//! hold the same keys, so the step computes the same bits either way: which
//! way was taken shows only in its time.

use crate::body::Body;
use crate::island::Islands;
use crate::key_set::KeySet;
use crate::tagged_map::TaggedMap;
use crate::{BodyKey, ContactKey, JointKey};

/// How many bodies (fixed ones included) per awake one a world needs before
/// its step lists what is awake instead of walking every map: the walk reads
/// a slot per body and contact, the listing a few words per awake body and a
/// bit per slot.
const ASLEEP_PER_AWAKE: usize = 4;

/// The awake bodies of this step, when they are few, and the sets their
/// contacts and joints are gathered in. Scratch: nothing here outlives a step.
#[derive(Default)]
pub(crate) struct AwakeLists {
    /// This step lists from the islands (few bodies awake), not by walking
    /// the maps.
    pub few: bool,
    /// The awake movable bodies in key order, when [`AwakeLists::few`].
    pub bodies: Vec<BodyKey>,
    /// Their joints in key order, when [`AwakeLists::few`].
    pub joints: Vec<JointKey>,
    body_set: KeySet<BodyKey>,
    contact_set: KeySet<ContactKey>,
    joint_set: KeySet<JointKey>,
    /// Takes one way whatever the count (for tests that compare the two).
    #[cfg(test)]
    pub force_few: Option<bool>,
}

impl AwakeLists {
    /// Chooses how this step finds what is awake, in a world of `bodies`
    /// whose awake islands are `islands`, and lists the awake bodies if they
    /// are few.
    pub(crate) fn choose(&mut self, islands: &Islands, bodies: usize) {
        let few = ASLEEP_PER_AWAKE * islands.awake_body_count() <= bodies;
        #[cfg(test)]
        let few = self.force_few.unwrap_or(few);
        self.few = few;
        if few {
            self.list_bodies(islands);
        }
    }

    /// Lists the awake movable bodies of `islands` in key order (again,
    /// after wake-ups).
    pub(crate) fn list_bodies(&mut self, islands: &Islands) {
        for key in islands.awake_members() {
            self.body_set.insert(key);
        }
        self.bodies.clear();
        self.body_set.drain_sorted_into(&mut self.bodies);
    }

    /// Appends the contacts of the listed awake bodies (of `bodies`) to
    /// `out`, in key order, each once.
    pub(crate) fn contacts(&mut self, bodies: &TaggedMap<BodyKey, Body>, out: &mut Vec<ContactKey>) {
        for &body in &self.bodies {
            for &contact in &bodies[body].contacts {
                self.contact_set.insert(contact);
            }
        }
        self.contact_set.drain_sorted_into(out);
    }

    /// Lists the joints of the listed awake bodies (of `bodies`) in key
    /// order, each once.
    pub(crate) fn list_joints(&mut self, bodies: &TaggedMap<BodyKey, Body>) {
        for &body in &self.bodies {
            for &joint in &bodies[body].joints {
                self.joint_set.insert(joint);
            }
        }
        self.joints.clear();
        self.joint_set.drain_sorted_into(&mut self.joints);
    }
}

#[cfg(test)]
mod tests {
    use lamina_geometry::{Point, Real, Shape, Vec2};

    use crate::{BodyDesc, BodyKey, ColliderDesc, JointDesc, World, WorldSettings};

    /// Piles and a hinged chain that fall asleep, then are woken one by one
    /// by what happens to them: a ball dropped on a pile (its contacts are
    /// woken in the middle of a step), a body removed from under another,
    /// a push through `body_mut`, a sensor crossed, a body added asleep.
    struct Scene {
        world: World,
        piles: Vec<Vec<BodyKey>>,
        chain: Vec<BodyKey>,
    }

    fn scene() -> Scene {
        let mut world = World::new(WorldSettings::default());
        let ground = world.add_body(BodyDesc::fixed());
        world.add_collider(ground, ColliderDesc::new(Shape::rectangle(60.0, 0.5))).unwrap();
        let sensor = world.add_body(BodyDesc::fixed().translation(-20.0, 3.0));
        world.add_collider(sensor, ColliderDesc::new(Shape::rectangle(1.0, 2.0)).sensor(true)).unwrap();
        let mut piles = Vec::new();
        for p in 0..6 {
            let mut pile = Vec::new();
            for level in 0..4 {
                for i in 0..(4 - level) {
                    let x = -10.0 + 6.0 * p as Real + 0.55 * i as Real + 0.27 * level as Real;
                    let b = world.add_body(BodyDesc::dynamic().translation(x, 0.75 + 0.5 * level as Real));
                    world.add_collider(b, ColliderDesc::new(Shape::rectangle(0.25, 0.25))).unwrap();
                    pile.push(b);
                }
            }
            piles.push(pile);
        }
        let mut chain = Vec::new();
        let mut last = ground;
        for i in 0..6 {
            let x = 30.0 + 0.5 * i as Real;
            let b = world.add_body(BodyDesc::dynamic().translation(x, 0.75));
            world
                .add_collider(
                    b,
                    ColliderDesc::new(Shape::capsule(Point::new(-0.25, 0.0), Point::new(0.25, 0.0), 0.1)),
                )
                .unwrap();
            let anchor = Point::new(x - 0.25, 0.75);
            world.add_joint(JointDesc::revolute(last, b, anchor)).unwrap();
            chain.push(b);
            last = b;
        }
        // A kinematic plank that sleeps until it is set moving, and a body
        // held by a mouse joint.
        let plank = world.add_body(BodyDesc::kinematic().translation(-35.0, 3.0));
        world.add_collider(plank, ColliderDesc::new(Shape::rectangle(1.0, 0.1))).unwrap();
        let held = world.add_body(BodyDesc::dynamic().translation(45.0, 0.75));
        world.add_collider(held, ColliderDesc::new(Shape::circle(0.25))).unwrap();
        world.add_joint(JointDesc::mouse(held, Point::new(45.0, 0.75)).max_force(100.0)).unwrap();
        chain.extend([plank, held]);
        Scene { world, piles, chain }
    }

    /// What a step leaves that the two ways of listing could change: the
    /// state, the events and the counts of the profile.
    fn record(world: &World) -> (u64, String, [usize; 5]) {
        let p = world.profile();
        let events =
            format!("{:?} {:?} {:?}", world.contact_events(), world.sensor_events(), world.hit_events());
        (
            world.state_hash(),
            events,
            [p.awake_bodies, p.touching_contacts, p.constraints, p.joints, p.contacts],
        )
    }

    /// Runs the scene's story with the awake part listed one way, each step's
    /// record, and how many steps listed from the islands when left to choose.
    fn story(force_few: Option<bool>) -> (Vec<(u64, String, [usize; 5])>, usize) {
        let Scene { mut world, piles, chain } = scene();
        world.awake.force_few = force_few;
        let mut records = Vec::new();
        let mut few_steps = 0;
        let mut step = |world: &mut World, records: &mut Vec<_>| {
            world.step(1.0 / 60.0).unwrap();
            few_steps += usize::from(world.awake.few);
            records.push(record(world));
        };
        for _ in 0..240 {
            step(&mut world, &mut records);
        }
        assert!(
            piles.iter().flatten().chain(&chain).all(|&b| world.body(b).unwrap().is_sleeping()),
            "all asleep"
        );
        // A ball onto the first pile.
        let ball =
            world.add_body(BodyDesc::dynamic().translation(-9.2, 4.0).linear_velocity(Vec2::new(0.0, -8.0)));
        world.add_collider(ball, ColliderDesc::new(Shape::circle(0.3))).unwrap();
        for _ in 0..40 {
            step(&mut world, &mut records);
        }
        // The bottom of the second pile taken away, the chain pushed, a box
        // thrown through the sensor and a box added asleep on the fourth pile.
        world.remove_body(piles[1][1]).expect("a live body");
        world.body_mut(chain[5]).unwrap().set_linear_velocity(Vec2::new(0.0, 6.0)).unwrap();
        world.body_mut(chain[6]).unwrap().set_linear_velocity(Vec2::new(2.0, -1.0)).unwrap();
        let thrown =
            world.add_body(BodyDesc::dynamic().translation(-24.0, 3.0).linear_velocity(Vec2::new(9.0, 0.0)));
        world.add_collider(thrown, ColliderDesc::new(Shape::rectangle(0.2, 0.2))).unwrap();
        let added = world.add_body(BodyDesc::dynamic().translation(8.8, 2.75).asleep(true));
        world.add_collider(added, ColliderDesc::new(Shape::rectangle(0.25, 0.25))).unwrap();
        for _ in 0..200 {
            step(&mut world, &mut records);
        }
        (records, few_steps)
    }

    /// The oracle is the walk over every body, contact and joint: listing
    /// the awake part from the islands gives the same state, events and
    /// counts after every step of a story of sleeping and waking. Left to
    /// choose, the world lists from the islands on most steps of it.
    #[test]
    fn listing_the_awake_part_gives_the_bits_of_walking_everything() {
        let (walked, _) = story(Some(false));
        let (listed, _) = story(Some(true));
        for (step, (w, l)) in walked.iter().zip(&listed).enumerate() {
            assert_eq!(w, l, "step {step}");
        }
        let (chosen, few_steps) = story(None);
        assert_eq!(chosen, walked);
        assert!(few_steps > 200, "{few_steps} steps of {} listed from the islands", chosen.len());
    }
}
