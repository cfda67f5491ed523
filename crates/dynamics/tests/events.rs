//! Contact and sensor events, in the step that caused them.

use lamina_dynamics::{BodyDesc, ColliderDesc, ContactEvent, SensorEvent, World, WorldSettings};
use lamina_geometry::{Real, Shape, Vec2};

const DT: Real = 1.0 / 60.0;

#[test]
fn a_bouncing_ball_begins_and_ends_touching() {
    let mut w = World::new(WorldSettings { enable_sleep: false, ..WorldSettings::default() });
    let ground = w.add_body(BodyDesc::fixed().translation(0.0, -1.0));
    let gc = w.add_collider(ground, ColliderDesc::new(Shape::rectangle(10.0, 1.0))).unwrap();
    let ball = w.add_body(BodyDesc::dynamic().translation(0.0, 3.0));
    let bc = w.add_collider(ball, ColliderDesc::new(Shape::circle(0.5)).restitution(0.8)).unwrap();
    let (mut begins, mut ends) = (0, 0);
    let mut touching = false;
    for _ in 0..240 {
        w.step(DT).unwrap();
        for e in w.contact_events() {
            match *e {
                ContactEvent::Begin { a, b } => {
                    assert_eq!((a.min(b), a.max(b)), (gc.min(bc), gc.max(bc)));
                    assert!(!touching, "begin twice without an end");
                    touching = true;
                    begins += 1;
                }
                ContactEvent::End { .. } => {
                    assert!(touching, "end without a begin");
                    touching = false;
                    ends += 1;
                }
            }
        }
        // The event stream agrees with the contact's own state.
        assert_eq!(touching, w.contact_between(gc, bc).is_some_and(|c| c.is_touching()));
    }
    assert!(begins >= 2 && ends >= 1, "the ball bounced: {begins} begins, {ends} ends");
}

#[test]
fn a_sensor_reports_a_body_passing_through_without_touching_it() {
    let mut w = World::new(WorldSettings { gravity: Vec2::zeros(), ..WorldSettings::default() });
    let gate = w.add_body(BodyDesc::fixed());
    let sensor = w.add_collider(gate, ColliderDesc::new(Shape::rectangle(0.5, 2.0)).sensor(true)).unwrap();
    let ball = w.add_body(BodyDesc::dynamic().translation(-3.0, 0.0).linear_velocity(Vec2::new(3.0, 0.0)));
    let bc = w.add_collider(ball, ColliderDesc::new(Shape::circle(0.25))).unwrap();
    let mut log = Vec::new();
    for step in 0..150 {
        w.step(DT).unwrap();
        assert!(w.contact_events().is_empty(), "a sensor never makes contact events");
        for e in w.sensor_events() {
            log.push((step, *e));
        }
    }
    assert_eq!(log.len(), 2, "{log:?}");
    assert_eq!(log[0].1, SensorEvent::Begin { sensor, visitor: bc });
    assert_eq!(log[1].1, SensorEvent::End { sensor, visitor: bc });
    // The ball passed at full speed: the sensor did not push it.
    assert!((w.body(ball).unwrap().linear_velocity().x - 3.0).abs() < 1e-6);
    // Its edge reached the sensor at x = -0.75, 0.75 s after leaving x = -3 at 3 m/s.
    // A step's narrow phase sees the poses the step starts from, so the event
    // comes in the step after the one that brought the ball in.
    let entered = (log[0].0 + 1) as Real * DT;
    assert!(entered > 0.75 && entered <= 0.75 + 2.5 * DT, "entered at {entered} s");
}

#[test]
fn removing_a_touching_body_reports_the_end() {
    let mut w = World::new(WorldSettings::default());
    let ground = w.add_body(BodyDesc::fixed().translation(0.0, -1.0));
    w.add_collider(ground, ColliderDesc::new(Shape::rectangle(10.0, 1.0))).unwrap();
    let b = w.add_body(BodyDesc::dynamic().translation(0.0, 0.5));
    w.add_collider(b, ColliderDesc::new(Shape::rectangle(0.5, 0.5))).unwrap();
    for _ in 0..10 {
        w.step(DT).unwrap();
    }
    assert!(w.contacts().any(|c| c.is_touching()));
    w.remove_body(b).expect("a live body");
    assert!(w.contact_events().iter().any(|e| matches!(e, ContactEvent::End { .. })));
    assert_eq!(w.contacts().count(), 0);
}

/// A ball dropped from 2.5 m above the ground lands at √(2gh) = √50 m/s:
/// one hit event at that speed (less the last step's fall, which the
/// speculative contact catches before touching), with the contact's point
/// and normal.
#[test]
fn a_falling_ball_reports_one_hit_at_its_landing_speed() {
    let mut w = World::new(WorldSettings { enable_sleep: false, ..WorldSettings::default() });
    let ground = w.add_body(BodyDesc::fixed().translation(0.0, -1.0));
    w.add_collider(ground, ColliderDesc::new(Shape::rectangle(10.0, 1.0))).unwrap();
    let ball = w.add_body(BodyDesc::dynamic().translation(0.0, 3.0));
    w.add_collider(ball, ColliderDesc::new(Shape::circle(0.5))).unwrap();
    let mut hits = Vec::new();
    for _ in 0..120 {
        w.step(DT).unwrap();
        hits.extend_from_slice(w.hit_events());
    }
    assert_eq!(hits.len(), 1, "{hits:?}");
    let expected = (2.0 * 10.0 * 2.5 as Real).sqrt();
    let h = hits[0];
    assert!((h.approach_speed - expected).abs() < 0.25, "approach {} vs {expected}", h.approach_speed);
    assert!(h.point.y.abs() < 0.05, "hit at {:?}", h.point);
    assert!((h.normal.y.abs() - 1.0).abs() < 1e-4);

    // Above the threshold only: a ball set down gently reports none.
    let mut w = World::new(WorldSettings { hit_event_threshold: 8.0, ..WorldSettings::default() });
    let ground = w.add_body(BodyDesc::fixed().translation(0.0, -1.0));
    w.add_collider(ground, ColliderDesc::new(Shape::rectangle(10.0, 1.0))).unwrap();
    let ball = w.add_body(BodyDesc::dynamic().translation(0.0, 3.0));
    w.add_collider(ball, ColliderDesc::new(Shape::circle(0.5))).unwrap();
    for _ in 0..120 {
        w.step(DT).unwrap();
        assert!(w.hit_events().is_empty(), "a 7 m/s landing passed an 8 m/s threshold");
    }
}

/// With `keep_events`, the events of a rendered frame of four fixed steps
/// stay until cleared: read once a frame, they are every event of every
/// step. Without it, a frame's reading sees only its last step's.
#[test]
fn kept_events_last_until_cleared() {
    // Events read every `read_every` steps, with or without keeping them.
    let count = |keep: bool, read_every: usize| {
        let mut w =
            World::new(WorldSettings { keep_events: keep, enable_sleep: false, ..WorldSettings::default() });
        let ground = w.add_body(BodyDesc::fixed().translation(0.0, -1.0));
        w.add_collider(ground, ColliderDesc::new(Shape::rectangle(10.0, 1.0))).unwrap();
        let ball = w.add_body(BodyDesc::dynamic().translation(0.0, 3.0));
        w.add_collider(ball, ColliderDesc::new(Shape::circle(0.5)).restitution(0.8)).unwrap();
        let mut seen = 0;
        for step in 1..=240 {
            w.step(DT).unwrap();
            if step % read_every == 0 {
                seen += w.contact_events().len();
                w.clear_events();
            }
        }
        seen
    };
    let every_step = count(false, 1);
    assert!(every_step >= 4, "the bouncing ball began and ended touching only {every_step} times");
    assert_eq!(count(true, 4), every_step, "kept events lost some of a frame's");
    assert!(count(false, 4) < every_step, "per-step events read once a frame lost none");
}
