//! The `spinner` benchmark scene loses no body: 6,076 capsules, circles and
//! squares flung by a paddle whose tip reaches 100 m/s stay inside their
//! closed chain for the scene's 500 steps. Before continuous collision and
//! chains, 79 of them (1.3 %) ended outside; continuous collision alone
//! brought it to a few, and solving the wall's contacts last to none.

#[path = "../benches/scenes/mod.rs"]
#[allow(dead_code)]
mod scenes;

use lamina2d::prelude::*;

#[test]
fn no_body_leaves_the_spinner_loop() {
    let mut world = scenes::spinner::build();
    let outside = |world: &World| {
        world
            .bodies()
            .filter(|(_, b)| b.kind() == BodyKind::Dynamic)
            .filter(|(_, b)| {
                let c = b.center_of_mass();
                (c.x * c.x + (c.y - 32.0) * (c.y - 32.0)).sqrt() > 40.0
            })
            .count()
    };
    for step in 0..scenes::spinner::STEPS {
        world.step(scenes::TIME_STEP).expect("valid step");
        if step % 50 == 49 {
            assert_eq!(outside(&world), 0, "bodies left the loop by step {}", step + 1);
        }
    }
    let fast = world.profile().fast_bodies;
    assert!(fast > 1000, "only {fast} bodies were fast in the last step: the scene no longer tests sweeps");
}
