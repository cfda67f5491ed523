//! Scene descriptions written as JSON and read back (feature `serde`): the
//! world built from the text steps bit for bit as the one built from the
//! descriptions, a hand-written file reads as meant, and bad text is refused
//! with an error, never a panic or a shape whose parts disagree.
#![cfg(feature = "serde")]

use lamina_dynamics::{BodyDesc, ChainDesc, ColliderDesc, JointDesc, World, WorldSettings};
use lamina_geometry::{Isometry, Point, Real, Shape, Vec2};
use serde::{Deserialize, Serialize};

/// A scene file: the settings, bodies with their colliders, joints between
/// bodies named by their place in the list, and chains.
#[derive(Serialize, Deserialize)]
struct Scene {
    settings: WorldSettings,
    bodies: Vec<(BodyDesc, Vec<ColliderDesc>)>,
    /// `(first body, second body, joint)`; the joint's own keys are replaced.
    joints: Vec<(usize, usize, JointDesc)>,
    chains: Vec<(usize, ChainDesc)>,
}

impl Scene {
    fn build(&self) -> World {
        let mut world = World::new(self.settings);
        let keys: Vec<_> = self
            .bodies
            .iter()
            .map(|(desc, colliders)| {
                let key = world.add_body(*desc);
                for c in colliders {
                    world.add_collider(key, c.clone()).unwrap();
                }
                key
            })
            .collect();
        for &(a, b, ref joint) in &self.joints {
            world.add_joint(JointDesc { body_a: keys[a], body_b: keys[b], ..*joint }).unwrap();
        }
        for (body, chain) in &self.chains {
            world.add_chain(keys[*body], chain.clone()).unwrap();
        }
        world
    }
}

fn scene() -> Scene {
    let triangle =
        Shape::polygon(&[Point::new(0.0, 0.4), Point::new(-0.4, -0.3), Point::new(0.4, -0.3)]).unwrap();
    let shapes = [
        Shape::rectangle(0.5, 0.5),
        Shape::circle(0.4),
        Shape::capsule(Point::new(-0.3, 0.0), Point::new(0.3, 0.0), 0.15),
        Shape::ellipse(0.5, 0.3),
        triangle,
        Shape::rounded_rectangle(0.4, 0.2, 0.05),
    ];
    let mut bodies =
        vec![(BodyDesc::fixed(), vec![ColliderDesc::new(Shape::rectangle(20.0, 0.5)).friction(0.7)])];
    for (i, shape) in shapes.iter().enumerate() {
        for j in 0..3 {
            let desc = BodyDesc::dynamic()
                .translation(-5.0 + 2.0 * i as Real, 1.5 + 1.2 * j as Real)
                .angle(0.1 * j as Real);
            let collider = ColliderDesc::new(shape.clone())
                .density(1.0 + j as Real)
                .friction(0.4)
                .restitution(0.1 * j as Real);
            bodies.push((desc, vec![collider]));
        }
    }
    let arm = BodyDesc::dynamic().translation(8.0, 5.0);
    bodies.push((
        arm,
        vec![ColliderDesc::new(Shape::rectangle(1.0, 0.1)).local_pose(Isometry::translation(1.0, 0.0))],
    ));
    let hinge =
        JointDesc::revolute(Default::default(), Default::default(), Point::new(8.0, 5.0)).limits(-1.0, 1.0);
    let arm_index = bodies.len() - 1;
    let floor = ChainDesc::new(&[Point::new(30.0, 0.0), Point::new(25.0, 1.0), Point::new(20.0, 0.5)]);
    Scene {
        settings: WorldSettings { gravity: Vec2::new(0.0, -9.81), ..WorldSettings::default() },
        bodies,
        joints: vec![(0, arm_index, hinge)],
        chains: vec![(0, floor)],
    }
}

#[test]
fn a_scene_read_back_from_json_steps_as_the_original() {
    let original = scene();
    let text = serde_json::to_string_pretty(&original).unwrap();
    let read: Scene = serde_json::from_str(&text).unwrap();
    assert_eq!(serde_json::to_string_pretty(&read).unwrap(), text, "the text must be stable");
    let (mut a, mut b) = (original.build(), read.build());
    for step in 0..120 {
        a.step(1.0 / 60.0).unwrap();
        b.step(1.0 / 60.0).unwrap();
        assert_eq!(a.state_hash(), b.state_hash(), "step {step}");
    }
}

#[test]
fn a_hand_written_scene_reads_as_meant() {
    // Missing settings take their defaults; a box is written by its half-extents.
    let text = r#"{
        "settings": { "gravity": [0.0, -3.7] },
        "bodies": [],
        "joints": [],
        "chains": []
    }"#;
    let scene: Scene = serde_json::from_str(text).unwrap();
    assert_eq!(scene.settings.gravity, Vec2::new(0.0, -3.7));
    assert_eq!(scene.settings.substeps, WorldSettings::default().substeps);
    let shape: Shape =
        serde_json::from_str(r#"{ "Polygon": { "vertices": [], "half_extents": [0.5, 0.25] } }"#).unwrap();
    assert_eq!(shape, Shape::rectangle(0.5, 0.25));
    let shape: Shape =
        serde_json::from_str(r#"{ "Polygon": { "vertices": [[0, 0], [2, 0], [0, 2], [0.5, 0.5]] } }"#)
            .unwrap();
    assert_eq!(
        shape,
        Shape::polygon(&[Point::new(0.0, 0.0), Point::new(2.0, 0.0), Point::new(0.0, 2.0)]).unwrap()
    );
}

#[test]
fn bad_text_is_refused_with_an_error() {
    // Collinear points make no polygon; a box with a negative half-extent is no box.
    for text in [
        r#"{ "Polygon": { "vertices": [[0, 0], [1, 1], [2, 2]] } }"#,
        r#"{ "Polygon": { "vertices": [], "half_extents": [-1.0, 1.0] } }"#,
        r#"{ "Circle": { "radius": "wide" } }"#,
        r#"{ "Hexagon": {} }"#,
        r#"[1, 2"#,
    ] {
        assert!(serde_json::from_str::<Shape>(text).is_err(), "{text} was accepted");
    }
    // A circle of negative radius reads (it is plain data) but cannot enter a world.
    let circle: Shape = serde_json::from_str(r#"{ "Circle": { "radius": -1.0 } }"#).unwrap();
    let mut world = World::new(WorldSettings::default());
    let body = world.add_body(BodyDesc::dynamic());
    let before = world.state_hash();
    assert!(world.add_collider(body, ColliderDesc::new(circle)).is_err());
    assert_eq!(world.state_hash(), before);
}
