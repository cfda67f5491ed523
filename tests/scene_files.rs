//! Scene files (feature `serde`): a scene written by hand with most fields
//! left out takes the builders' defaults, a box dropped from a file rests
//! where its half extents put it, joints join the bodies they name, and bad
//! files are refused with a [`SceneError`] that names what is wrong, never
//! with a panic, whatever the text.
#![cfg(feature = "serde")]

use lamina2d::dynamics::{Motor, Spring};
use lamina2d::geometry::tolerance::LINEAR_SLOP;
use lamina2d::prelude::*;
use lamina2d::scene::Entry;

/// The example scene, which the tests also use as a corpus of valid text.
const EXAMPLE: &str = include_str!("../examples/scene_files/pyramid_and_pendulum.json");

/// Reads and builds `text`.
fn build(text: &str) -> Result<(Scene, World, SceneKeys), SceneError> {
    let scene = Scene::from_json(text)?;
    let (world, keys) = scene.build()?;
    Ok((scene, world, keys))
}

/// The error `text` gives, read or built; panics if it has none.
fn error(text: &str) -> SceneError {
    match build(text) {
        Ok(_) => panic!("the scene was accepted:\n{text}"),
        Err(e) => e,
    }
}

/// The message of a JSON error, after checking that it is one.
fn json_message(error: &SceneError) -> &str {
    match error {
        SceneError::Json { message, .. } => message,
        other => panic!("not a JSON error: {other:?}"),
    }
}

#[test]
fn a_minimal_scene_takes_the_builders_defaults() {
    let (scene, world, keys) = build(r#"{"bodies": [{"translation": [0, 3]}]}"#).unwrap();
    assert_eq!(scene.bodies[0].desc(), BodyDesc::dynamic().translation(0.0, 3.0));
    assert_eq!(world.settings(), &WorldSettings::default());
    assert_eq!(scene.time_step, 1.0 / 60.0);
    assert_eq!(keys.bodies().len(), 1);
    let body = world.body(keys.bodies()[0]).unwrap();
    assert_eq!(body.kind(), BodyKind::Dynamic);
    assert_eq!(body.translation(), Vec2::new(0.0, 3.0));
    assert_eq!(body.angle(), 0.0);
    assert_eq!(body.linear_velocity(), Vec2::zeros());
}

#[test]
fn an_empty_scene_is_an_empty_world_with_the_default_settings() {
    let (_, world, keys) = build("{}").unwrap();
    assert_eq!(world.body_count(), 0);
    assert_eq!(world.settings(), &WorldSettings::default());
    assert!(keys.bodies().is_empty() && keys.joints().is_empty());
}

#[test]
fn a_collider_with_only_a_shape_has_the_builders_material() {
    let scene =
        Scene::from_json(r#"{"bodies": [{"colliders": [{"shape": {"kind": "circle", "radius": 0.5}}]}]}"#)
            .unwrap();
    assert_eq!(scene.bodies[0].colliders[0].desc().unwrap(), ColliderDesc::new(Shape::circle(0.5)));
}

#[test]
fn a_chain_with_only_points_has_the_builders_material() {
    let scene =
        Scene::from_json(r#"{"bodies": [{"kind": "fixed", "chains": [{"points": [[1, 0], [-1, 0]]}]}]}"#)
            .unwrap();
    let points = [Point::new(1.0, 0.0), Point::new(-1.0, 0.0)];
    assert_eq!(scene.bodies[0].chains[0].desc(), ChainDesc::new(&points));
}

#[test]
fn every_field_given_reaches_the_world() {
    let text = r#"{
        "settings": {"gravity": [1, -5], "substeps": 6, "enable_sleep": false, "friction_mixing": "min"},
        "time_step": 0.01,
        "bodies": [{
            "name": "crate", "kind": "kinematic", "translation": [2, 3], "angle": 0.5,
            "linear_velocity": [1, 2], "angular_velocity": -1, "bullet": true, "user_data": 7,
            "colliders": [{
                "shape": {"kind": "box", "half_width": 0.5, "half_height": 0.25},
                "translation": [0.5, 0], "density": 2, "friction": 0.3, "restitution": 0.4,
                "sensor": true, "filter": {"category": 2, "mask": 5, "group": -1}, "user_data": 9
            }]
        }]
    }"#;
    let (scene, world, keys) = build(text).unwrap();
    let settings = world.settings();
    assert_eq!(settings.gravity, Vec2::new(1.0, -5.0));
    assert_eq!((settings.substeps, settings.enable_sleep), (6, false));
    assert_eq!(settings.friction_mixing, MixRule::Min);
    assert_eq!(scene.time_step, 0.01);
    let body = world.body(keys.body("crate").unwrap()).unwrap();
    assert_eq!(body.kind(), BodyKind::Kinematic);
    assert_eq!(body.translation(), Vec2::new(2.0, 3.0));
    assert!((body.angle() - 0.5).abs() < 1e-6);
    assert_eq!(body.linear_velocity(), Vec2::new(1.0, 2.0));
    assert_eq!(body.angular_velocity(), -1.0);
    assert!(body.is_bullet());
    assert_eq!(body.user_data(), 7);
    let collider = world.collider(body.colliders()[0]).unwrap();
    assert_eq!(collider.local_pose().translation.vector, Vec2::new(0.5, 0.0));
    assert_eq!((collider.density(), collider.friction(), collider.restitution()), (2.0, 0.3, 0.4));
    assert!(collider.is_sensor());
    assert_eq!(collider.filter(), CollisionFilter { category: 2, mask: 5, group: -1 });
    assert_eq!(collider.user_data(), 9);
}

/// A 0.5 m box dropped onto a ground whose top is at y = 0.5 comes to rest
/// with its centre at 0.5 + 0.25 = 0.75, within the linear slop the contacts
/// allow, and goes to sleep there.
#[test]
fn a_box_dropped_from_a_scene_file_rests_on_the_ground() {
    let text = r#"{
        "bodies": [
            {"name": "ground", "kind": "fixed", "colliders": [
                {"shape": {"kind": "box", "half_width": 5, "half_height": 0.5}}]},
            {"name": "box", "translation": [0, 2], "colliders": [
                {"shape": {"kind": "box", "half_width": 0.25, "half_height": 0.25}}]}
        ]
    }"#;
    let (scene, mut world, keys) = build(text).unwrap();
    for _ in 0..180 {
        world.step(scene.time_step).unwrap();
    }
    let body = world.body(keys.body("box").unwrap()).unwrap();
    let y = body.translation().y;
    assert!((y - 0.75).abs() <= LINEAR_SLOP, "the box rests at y = {y}, not 0.75");
    assert!(body.translation().x.abs() < 1e-4 && body.angle().abs() < 1e-4, "{:?}", body.position());
    assert!(body.is_sleeping(), "the box still moves at {} m/s", body.linear_velocity().norm());
}

/// One joint of each kind, each between bodies named out of the file's
/// order, with the options written: every joint joins the bodies it names
/// and carries the values given.
#[test]
fn joints_join_the_bodies_they_name() {
    let text = r#"{
        "settings": {"gravity": [0, 0]},
        "bodies": [
            {"name": "a", "translation": [0, 0], "colliders": [{"shape": {"kind": "circle", "radius": 0.5}}]},
            {"name": "b", "translation": [3, 4], "colliders": [{"shape": {"kind": "circle", "radius": 0.5}}]},
            {"name": "c", "translation": [-3, 0], "colliders": [{"shape": {"kind": "circle", "radius": 0.5}}]}
        ],
        "joints": [
            {"kind": "revolute", "name": "hinge", "body_a": "c", "body_b": "a", "anchor": [-1.5, 0],
             "limits": [-0.5, 0.5], "motor": {"speed": 1, "max": 2}, "collide_connected": true},
            {"kind": "prismatic", "body_a": "a", "body_b": "b", "anchor": [0, 0], "axis": [0, 1],
             "limits": [-1, 1], "spring": {"hertz": 3, "damping_ratio": 0.5}},
            {"kind": "weld", "body_a": "b", "body_b": "c", "anchor": [0, 2]},
            {"kind": "distance", "name": "rod", "body_a": "a", "body_b": "b",
             "anchor_a": [0, 0], "anchor_b": [3, 4], "limits": [4, 6]},
            {"kind": "wheel", "body_a": "c", "body_b": "b", "anchor": [3, 4], "axis": [0, 1],
             "motor": {"speed": -2, "max": 10}},
            {"kind": "motor", "body_a": "b", "body_b": "a", "max_force": 50, "max_torque": 5},
            {"kind": "mouse", "name": "drag", "body": "c", "target": [-3, 1], "max_force": 100}
        ]
    }"#;
    let (_, world, keys) = build(text).unwrap();
    let [a, b, c] = ["a", "b", "c"].map(|name| keys.body(name).unwrap());
    let expected = [
        (JointKind::Revolute, c, a),
        (JointKind::Prismatic, a, b),
        (JointKind::Weld, b, c),
        (JointKind::Distance, a, b),
        (JointKind::Wheel, c, b),
        (JointKind::Motor, b, a),
    ];
    for (i, (kind, body_a, body_b)) in expected.into_iter().enumerate() {
        let joint = world.joint(keys.joints()[i]).unwrap();
        assert_eq!((joint.kind(), joint.body_a(), joint.body_b()), (kind, body_a, body_b), "joint {i}");
    }
    let joint = |name: &str| world.joint(keys.joint(name).unwrap()).unwrap();
    let hinge = joint("hinge").desc();
    assert_eq!(hinge.limits, Some((-0.5, 0.5)));
    assert_eq!(hinge.motor, Some(Motor { speed: 1.0, max: 2.0 }));
    assert!(hinge.collide_connected);
    let slider = world.joint(keys.joints()[1]).unwrap().desc();
    assert_eq!(slider.spring, Some(Spring { hertz: 3.0, damping_ratio: 0.5 }));
    assert!(!slider.collide_connected);
    // The rod's rest length is the anchors' distance, |(3, 4)| = 5.
    assert!((joint("rod").length() - 5.0).abs() < 1e-5, "{}", joint("rod").length());
    assert_eq!(joint("rod").desc().limits, Some((4.0, 6.0)));
    let motor = world.joint(keys.joints()[5]).unwrap().desc();
    assert_eq!((motor.max_force, motor.max_torque), (50.0, 5.0));
    let drag = joint("drag");
    assert_eq!((drag.kind(), drag.body_b()), (JointKind::Mouse, c));
    assert_eq!(drag.target(), Point::new(-3.0, 1.0));
    assert_eq!(drag.desc().max_force, 100.0);
}

#[test]
fn an_unknown_body_name_is_refused_with_the_name() {
    let text = r#"{"bodies": [{"name": "a"}],
        "joints": [{"kind": "weld", "name": "glue", "body_a": "a", "body_b": "nobody", "anchor": [0, 0]}]}"#;
    let e = error(text);
    assert_eq!(
        e,
        SceneError::UnknownBody {
            joint: Entry { index: 0, name: Some("glue".into()) },
            name: "nobody".into()
        }
    );
    assert!(e.to_string().contains("\"nobody\""), "{e}");
}

#[test]
fn a_name_given_twice_is_refused_with_both_places() {
    let e = error(r#"{"bodies": [{"name": "box"}, {"name": "ball"}, {"name": "box"}]}"#);
    assert_eq!(e, SceneError::DuplicateName { list: "bodies", name: "box".into(), first: 0, second: 2 });
    assert!(e.to_string().contains("\"box\""), "{e}");
    let text = r#"{"bodies": [{"name": "a"}, {"name": "b"}],
        "joints": [{"kind": "weld", "name": "j", "body_a": "a", "body_b": "b", "anchor": [0, 0]},
                   {"kind": "weld", "name": "j", "body_a": "b", "body_b": "a", "anchor": [0, 0]}]}"#;
    assert_eq!(
        error(text),
        SceneError::DuplicateName { list: "joints", name: "j".into(), first: 0, second: 1 }
    );
}

/// A misspelt field is an error that names it and says where it is: the
/// position serde_json gives, the closing quote of the field's name.
#[test]
fn an_unknown_field_is_refused_with_its_name_and_place() {
    let text = "{\"bodies\": [\n    {\"translaton\": [0, 3]}\n]}";
    let e = error(text);
    assert!(matches!(e, SceneError::Json { line: 2, column: 17, .. }), "{e:?}");
    assert!(json_message(&e).contains("unknown field `translaton`"), "{e}");
    assert!(e.to_string().contains("line 2"), "{e}");
    let shape = r#"{"bodies": [{"colliders": [{"shape": {"kind": "circle", "radus": 1}}]}]}"#;
    assert!(json_message(&error(shape)).contains("radus"));
    let setting = r#"{"settings": {"gravty": [0, -10]}}"#;
    assert!(json_message(&error(setting)).contains("gravty"));
    let kind = r#"{"bodies": [{"kind": "wobbly"}]}"#;
    assert!(json_message(&error(kind)).contains("wobbly"));
    let joint = r#"{"joints": [{"kind": "hinge", "body_a": "a", "body_b": "b", "anchor": [0, 0]}]}"#;
    assert!(json_message(&error(joint)).contains("hinge"));
}

#[test]
fn an_option_on_a_joint_kind_without_it_is_an_unknown_field() {
    let text = r#"{"bodies": [{"name": "a"}, {"name": "b"}],
        "joints": [{"kind": "weld", "body_a": "a", "body_b": "b", "anchor": [0, 0], "motor": {"speed": 1, "max": 1}}]}"#;
    assert!(json_message(&error(text)).contains("unknown field `motor`"));
}

#[test]
fn a_collider_without_a_shape_is_refused() {
    let e = error(r#"{"bodies": [{"colliders": [{"density": 2}]}]}"#);
    assert!(json_message(&e).contains("missing field `shape`"), "{e}");
}

#[test]
fn a_negative_radius_is_refused_with_the_body_and_the_value() {
    let text = r#"{"bodies": [{"name": "ground", "kind": "fixed"},
        {"name": "ball", "colliders": [{"shape": {"kind": "circle", "radius": -0.5}}]}]}"#;
    let e = error(text);
    let invalid = ShapeError::InvalidRadius { shape: "circle", radius: -0.5 };
    assert_eq!(
        e,
        SceneError::Collider {
            body: Entry { index: 1, name: Some("ball".into()) },
            collider: 0,
            error: WorldError::InvalidShape(invalid),
        }
    );
    let message = e.to_string();
    assert!(message.contains("\"ball\"") && message.contains("-0.5"), "{message}");
    assert!(std::error::Error::source(&e).is_some());
}

#[test]
fn a_polygon_with_no_area_is_refused() {
    let text = r#"{"bodies": [{"colliders": [{"shape": {"kind": "polygon", "points": [[0, 0], [1, 1], [2, 2]]}}]}]}"#;
    match error(text) {
        SceneError::Collider {
            error: WorldError::InvalidShape(ShapeError::DegeneratePolygon { points: 3, .. }),
            ..
        } => {}
        other => panic!("{other:?}"),
    }
}

/// A comma left out between two bodies: serde_json stops at the second
/// body's opening brace, line 4, column 5.
#[test]
fn malformed_json_is_refused_with_its_line_and_column() {
    let text = "{\n  \"bodies\": [\n    {\"translation\": [0, 3]}\n    {\"translation\": [1, 3]}\n  ]\n}";
    let e = error(text);
    assert_eq!(e, SceneError::Json { line: 4, column: 5, message: "expected `,` or `]`".into() });
    assert_eq!(e.to_string(), "scene file, line 4, column 5: expected `,` or `]`");
    assert!(matches!(error(r#"{"time_step": 1e400}"#), SceneError::Json { .. }));
    assert!(matches!(error(r#"{"bodies": [{"translation": [0]}]}"#), SceneError::Json { .. }));
    assert!(matches!(error(""), SceneError::Json { line: 1, .. }));
}

#[test]
fn values_the_engine_refuses_are_refused_with_its_error() {
    assert_eq!(error(r#"{"time_step": 0}"#), SceneError::InvalidTimeStep { time_step: 0.0 });
    assert_eq!(
        error(r#"{"settings": {"substeps": 0}}"#),
        SceneError::Settings(WorldError::InvalidSetting { name: "substeps", value: 0.0 })
    );
    let damping = error(r#"{"bodies": [{"name": "b", "linear_damping": -1}]}"#);
    let expected = WorldError::InvalidBodyProperty { name: "linear_damping", value: -1.0 };
    assert_eq!(
        damping,
        SceneError::Body { body: Entry { index: 0, name: Some("b".into()) }, error: expected }
    );
    let chain = error(r#"{"bodies": [{"chains": [{"points": [[0, 0]]}]}]}"#);
    let too_few = WorldError::TooFewChainPoints { count: 1, needed: 2 };
    assert_eq!(chain, SceneError::Chain { body: Entry { index: 0, name: None }, chain: 0, error: too_few });
    let itself = r#"{"bodies": [{"name": "a"}], "joints": [{"kind": "weld", "body_a": "a", "body_b": "a", "anchor": [0, 0]}]}"#;
    assert!(matches!(error(itself), SceneError::Joint { error: WorldError::SameBodies(_), .. }));
    let reversed = r#"{"bodies": [{"name": "a"}, {"name": "b"}],
        "joints": [{"kind": "revolute", "body_a": "a", "body_b": "b", "anchor": [0, 0], "limits": [1, -1]}]}"#;
    assert!(matches!(
        error(reversed),
        SceneError::Joint { error: WorldError::InvalidJointProperty { .. }, .. }
    ));
}

/// Every prefix of a valid file, and the file with any one character
/// replaced by a digit, a minus sign or a quote, is read and built without a
/// panic; every prefix that stops before the closing brace is a JSON error.
#[test]
fn no_text_makes_the_loader_panic() {
    let closing_brace = EXAMPLE.rfind('}').unwrap();
    for (i, _) in EXAMPLE.char_indices().take_while(|&(i, _)| i <= closing_brace) {
        let result = build(&EXAMPLE[..i]);
        assert!(matches!(result, Err(SceneError::Json { .. })), "prefix of {i} bytes: {:?}", result.err());
    }
    for (i, c) in EXAMPLE.char_indices() {
        for replacement in ['9', '-', '"'] {
            let mut text = EXAMPLE.to_string();
            text.replace_range(i..i + c.len_utf8(), &replacement.to_string());
            let _ = build(&text);
        }
    }
}

/// The example file: the pendulum's rod holds the bob 5 m from the pivot,
/// |(−7.5, 7) − (−2.5, 7)|, as it swings into the pyramid and knocks the top
/// box off.
#[test]
fn the_example_scene_swings_its_pendulum_into_the_pyramid() {
    let (scene, mut world, keys) = build(EXAMPLE).unwrap();
    assert_eq!(world.body_count(), scene.bodies.len());
    for _ in 0..300 {
        world.step(scene.time_step).unwrap();
    }
    let at = |name: &str| world.body(keys.body(name).unwrap()).unwrap().translation();
    let rod = (at("bob") - at("pivot")).norm();
    assert!((rod - 5.0).abs() < 0.01, "the rod is {rod} m long");
    let top = at("top");
    assert!((top - Vec2::new(0.0, 4.5)).norm() > 0.5, "the top box is still at {top:?}");
}
