//! Joints against physics computed by hand: a pendulum's period, a hanging
//! chain's stretch and load, a motor's spin-up time, limits, sliders, welds,
//! ropes, springs and a wheel-driven cart.

#![allow(clippy::unnecessary_cast)] // the casts to f64 are no-ops with the `f64` feature

use lamina_dynamics::{BodyDesc, BodyKey, ColliderDesc, JointDesc, JointKey, World, WorldSettings};
use lamina_geometry::{Point, Real, Shape, Vec2};

const DT: Real = 1.0 / 60.0;
const G: Real = 10.0;
const PI: Real = std::f64::consts::PI as Real;

fn world() -> World {
    World::new(WorldSettings { enable_sleep: false, ..WorldSettings::default() })
}

fn world_without_gravity() -> World {
    World::new(WorldSettings { enable_sleep: false, gravity: Vec2::zeros(), ..WorldSettings::default() })
}

fn body(world: &mut World, desc: BodyDesc, shape: Shape, density: Real) -> BodyKey {
    let b = world.add_body(desc);
    world.add_collider(b, ColliderDesc::new(shape).density(density)).unwrap();
    b
}

fn pos(world: &World, b: BodyKey) -> Vec2 {
    world.body(b).unwrap().position().translation.vector
}

fn step(world: &mut World, steps: usize) {
    for _ in 0..steps {
        world.step(DT).unwrap();
    }
}

/// The complete elliptic integral of the first kind K(k), by the
/// arithmetic–geometric mean: K = π / (2 AGM(1, √(1 − k²))).
fn elliptic_k(k: f64) -> f64 {
    let (mut a, mut b) = (1.0, (1.0 - k * k).sqrt());
    for _ in 0..30 {
        (a, b) = (0.5 * (a + b), (a * b).sqrt());
    }
    std::f64::consts::PI / (2.0 * a)
}

/// A disc of radius 0.1 m on a massless 1 m rod, released from 1 rad: its
/// period is the physical pendulum's, 4 √(I / (m g L)) K(sin(θ₀/2)) with I
/// about the pivot, at any amplitude. Over 10 s it keeps its amplitude.
#[test]
fn pendulum_swings_at_the_physical_pendulum_period_and_keeps_its_amplitude() {
    let mut w = world();
    let (length, radius, theta0) = (1.0 as Real, 0.1 as Real, 1.0 as Real);
    let pivot = w.add_body(BodyDesc::fixed());
    let start = Vec2::new(length * theta0.sin(), -length * theta0.cos());
    let bob = body(&mut w, BodyDesc::dynamic().translation(start.x, start.y), Shape::circle(radius), 1.0);
    let hinge = w.add_joint(JointDesc::revolute(pivot, bob, Point::origin())).unwrap();

    let b = w.body(bob).unwrap();
    let inertia = (b.inertia() + b.mass() * length * length) as f64;
    let k = (0.5 * theta0 as f64).sin();
    let period = 4.0 * (inertia / (b.mass() as f64 * G as f64 * length as f64)).sqrt() * elliptic_k(k);

    // Upward zero crossings of the swing angle, interpolated within the step.
    let angle = |w: &World| {
        let p = pos(w, bob);
        p.x.atan2(-p.y)
    };
    let (mut crossings, mut last, mut peak_late) = (Vec::new(), angle(&w), 0.0 as Real);
    let steps = (10.0 / DT) as usize;
    for n in 1..=steps {
        w.step(DT).unwrap();
        let now = angle(&w);
        if last < 0.0 && now >= 0.0 {
            crossings.push((n as f64 - 1.0 + (-last / (now - last)) as f64) * DT as f64);
        }
        if n as f64 * DT as f64 > 10.0 - period {
            peak_late = peak_late.max(now.abs());
        }
        last = now;
    }
    let measured = (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f64;
    let error = (measured - period).abs() / period;
    println!("period {measured:.5} s, formula {period:.5} s ({:.3} %)", 100.0 * error);
    assert!(error < 0.005, "period {measured} s against {period} s");
    let kept = peak_late / theta0;
    println!("amplitude kept after 10 s: {:.2} %", 100.0 * kept);
    assert!(kept > 0.98, "amplitude fell to {kept} of the start");
    // The rod stays 1 m long.
    assert!((pos(&w, bob).norm() - length).abs() < 1e-3);
    // The joint's angle is the bob's turn since creation.
    let motion = w.joint_motion(hinge).unwrap();
    assert!((motion.angle + theta0 - angle(&w)).abs() < 1e-3, "{} against {}", motion.angle, angle(&w));
}

/// A chain of `links` boxes 0.5 m long hanging from a fixed body, with an
/// optional ball of `ball_mass` kg at its end; returns the world, the links,
/// the top joint and the ball.
fn hanging_chain(links: usize, ball_mass: Real) -> (World, Vec<BodyKey>, JointKey, Option<BodyKey>) {
    let mut w = world();
    let top = w.add_body(BodyDesc::fixed());
    let (half_length, half_width) = (0.25, 0.0625);
    let mut above = top;
    let mut first_joint = None;
    let mut chain = Vec::new();
    for i in 0..links {
        let y = -((2 * i + 1) as Real) * half_length;
        let link = body(
            &mut w,
            BodyDesc::dynamic().translation(0.0, y),
            Shape::rectangle(half_width, half_length),
            20.0,
        );
        let joint = w.add_joint(JointDesc::revolute(above, link, Point::new(0.0, y + half_length))).unwrap();
        first_joint.get_or_insert(joint);
        chain.push(link);
        above = link;
    }
    let ball = (ball_mass > 0.0).then(|| {
        let radius = 0.25;
        let end = -((2 * links) as Real) * half_length;
        let density = ball_mass / (PI * radius * radius);
        let ball =
            body(&mut w, BodyDesc::dynamic().translation(0.0, end - radius), Shape::circle(radius), density);
        w.add_joint(JointDesc::revolute(above, ball, Point::new(0.0, end))).unwrap();
        ball
    });
    (w, chain, first_joint.unwrap(), ball)
}

/// A 30-link chain stretches as its soft joints let it: at stiffness ω each
/// joint gives `load / (m_eff ω²)`, which adds up to `(g/ω²) n²` for n links
/// (0.063 m at 60 Hz, as Box2D v3.1.1 measures), no more. Its top joint
/// carries the chain's weight.
#[test]
fn hanging_chain_stretches_as_its_soft_joints_allow_and_its_top_joint_carries_its_weight() {
    let links = 30;
    let (mut w, chain, top_joint, _) = hanging_chain(links, 0.0);
    step(&mut w, 300);
    let last = *chain.last().unwrap();
    let end = w.body(last).unwrap().position() * Point::new(0.0, -0.25);
    let stretch = -end.y - links as Real * 0.5;
    let omega = 2.0 * PI * 60.0;
    let soft = G / (omega * omega) * (links * links) as Real;
    println!("30-link chain stretch: {stretch:.4} m, soft-joint formula {soft:.4} m");
    assert!(stretch > 0.0 && stretch < 1.02 * soft, "stretched {stretch} m");
    let weight: Real = chain.iter().map(|&b| w.body(b).unwrap().mass()).sum::<Real>() * G;
    let force = w.joint(top_joint).unwrap().constraint_force();
    println!("top joint force {force:?}, chain weight {weight}");
    assert!((force.y - weight).abs() < 0.02 * weight, "top joint carries {force:?}, weight {weight}");
    assert!(force.x.abs() < 0.01 * weight);
}

/// Ten links holding a ball of 100 times a link's mass: the worst mass ratio a
/// chain meets. It stretches less than 0.25 m (Box2D: 0.14 m) and comes to
/// rest within 15 s (the ball bouncing on the chain is damped only by the
/// joints' damping, which acts on the light links).
#[test]
fn chain_holding_a_heavy_ball_stays_short_and_comes_to_rest() {
    let link_mass = 0.5 * 0.125 * 20.0;
    let (mut w, chain, _, ball) = hanging_chain(10, 100.0 * link_mass);
    let ball = ball.unwrap();
    step(&mut w, 900);
    let bottom = pos(&w, ball).y - -(10.0 * 0.5 + 0.25);
    println!("heavy-ball chain stretch: {:.4} m", -bottom);
    assert!(-bottom < 0.25, "stretched {} m", -bottom);
    let speed = chain
        .iter()
        .chain([&ball])
        .map(|&b| w.body(b).unwrap().linear_velocity().norm())
        .fold(0.0, Real::max);
    assert!(speed < 1e-3, "still moving at {speed} m/s after 15 s");
}

/// A disc on a motor of torque τ reaches speed ω after t = ω I / τ (within 3
/// steps) and then holds it within 0.5 %.
#[test]
fn motor_spins_a_disc_up_in_the_time_its_torque_allows() {
    let mut w = world_without_gravity();
    let base = w.add_body(BodyDesc::fixed());
    let disc = body(&mut w, BodyDesc::dynamic(), Shape::circle(0.5), 1.0);
    let (speed, torque) = (6.0, 2.0);
    w.add_joint(JointDesc::revolute(base, disc, Point::origin()).motor(speed, torque)).unwrap();
    let expected = speed * w.body(disc).unwrap().inertia() / torque;
    let mut reached = None;
    for n in 1..=600 {
        w.step(DT).unwrap();
        let wz = w.body(disc).unwrap().angular_velocity();
        if reached.is_none() && wz >= speed * (1.0 - 1e-4) {
            reached = Some(n as Real * DT);
        }
        if reached.is_some_and(|t| n as Real * DT > t + 0.5) {
            assert!((wz - speed).abs() < 0.005 * speed, "speed {wz} at step {n}");
        }
    }
    let reached = reached.expect("never reached the motor speed");
    println!("spin-up {reached:.4} s, expected {expected:.4} s");
    assert!((reached - expected).abs() <= 3.0 * DT, "{reached} s against {expected} s");
}

/// A pendulum flung against angle limits of ±0.5 rad never passes them by
/// more than a degree, and rests on the lower one.
#[test]
fn revolute_limits_hold_within_a_degree() {
    let mut w = world();
    let pivot = w.add_body(BodyDesc::fixed());
    let desc = BodyDesc::dynamic().translation(0.0, -1.0).linear_velocity(Vec2::new(8.0, 0.0));
    let bob = body(&mut w, desc, Shape::circle(0.1), 1.0);
    let hinge = w.add_joint(JointDesc::revolute(pivot, bob, Point::origin()).limits(-0.5, 0.5)).unwrap();
    let mut widest: Real = 0.0;
    for _ in 0..600 {
        w.step(DT).unwrap();
        let angle = w.joint_motion(hinge).unwrap().angle;
        widest = widest.max(angle.abs() - 0.5);
    }
    println!("worst limit overshoot {:.3}°", widest.to_degrees());
    assert!(widest < (1.0 as Real).to_radians(), "passed the limit by {}°", widest.to_degrees());
}

/// A slider kicked sideways stays on its axis within 2 mm and does not turn.
#[test]
fn slider_stays_on_its_axis_when_kicked_sideways() {
    let mut w = world();
    let base = w.add_body(BodyDesc::fixed());
    let slider = body(&mut w, BodyDesc::dynamic().translation(1.0, 0.0), Shape::rectangle(0.3, 0.1), 1.0);
    let joint =
        JointDesc::prismatic(base, slider, Point::new(1.0, 0.0), Vec2::new(1.0, 0.0)).limits(-2.0, 2.0);
    w.add_joint(joint).unwrap();
    let mass = w.body(slider).unwrap().mass();
    let mut worst: Real = 0.0;
    for n in 0..300 {
        if n % 60 == 0 {
            let kick = Vec2::new(0.5, 3.0) * mass;
            w.body_mut(slider).unwrap().apply_impulse(kick).unwrap();
        }
        w.step(DT).unwrap();
        worst = worst.max(pos(&w, slider).y.abs());
        assert!(w.body(slider).unwrap().angle().abs() < 0.01);
    }
    println!("slider off its axis by {:.2} mm at most", worst * 1000.0);
    assert!(worst < 0.002, "left the axis by {worst} m");
}

/// A 2 m plank welded by one end to a wall holds out within 1 cm.
#[test]
fn welded_plank_holds_out_straight() {
    let mut w = world();
    let wall = w.add_body(BodyDesc::fixed());
    let plank = body(&mut w, BodyDesc::dynamic().translation(1.0, 0.0), Shape::rectangle(1.0, 0.05), 10.0);
    w.add_joint(JointDesc::weld(wall, plank, Point::origin())).unwrap();
    step(&mut w, 300);
    let tip = w.body(plank).unwrap().position() * Point::new(1.0, 0.0);
    println!("welded plank tip droops {:.2} mm", -tip.y * 1000.0);
    assert!(tip.y.abs() < 0.01, "tip at {tip}");
}

/// A ball on a 2 m rope, released 1 m below the anchor: it falls freely until
/// the rope goes taut — exactly as the integrator moves a ball without a rope,
/// `y = y₀ − g h² n (n + 1) / 2` after `n` substeps of `h` — and the rope never
/// stretches past 1 cm.
#[test]
fn rope_lets_the_ball_fall_freely_while_slack_and_never_overstretches() {
    let mut w = world();
    let anchor = w.add_body(BodyDesc::fixed());
    let ball = body(&mut w, BodyDesc::dynamic().translation(0.5, -1.0), Shape::circle(0.1), 1.0);
    let rope = 2.0;
    let joint = JointDesc::distance(anchor, ball, Point::origin(), Point::new(0.5, -1.0)).limits(0.0, rope);
    w.add_joint(joint).unwrap();
    let mut longest: Real = 0.0;
    let mut slack = true;
    for n in 1..=600 {
        w.step(DT).unwrap();
        let p = pos(&w, ball);
        let length = p.norm();
        longest = longest.max(length);
        if slack && length < rope - 0.05 {
            let (h, substeps) = (DT / 4.0, (4 * n) as Real);
            let free_fall = -1.0 - G * h * h * substeps * (substeps + 1.0) / 2.0;
            assert!((p.y - free_fall).abs() < 1e-4, "step {n}: y {} against free fall {free_fall}", p.y);
        } else {
            slack = false;
        }
    }
    println!("longest rope {longest:.4} m of {rope}");
    assert!(!slack, "the rope never went taut");
    assert!(longest < rope + 0.01, "stretched to {longest} m");
}

/// A body on a prismatic spring of 2 Hz without damping oscillates at 2 Hz.
#[test]
fn spring_oscillates_at_its_frequency() {
    let mut w = world_without_gravity();
    let base = w.add_body(BodyDesc::fixed());
    let mass = body(&mut w, BodyDesc::dynamic(), Shape::rectangle(0.2, 0.2), 1.0);
    let joint = JointDesc::prismatic(base, mass, Point::origin(), Vec2::new(1.0, 0.0)).spring(2.0, 0.0);
    w.add_joint(joint).unwrap();
    w.body_mut(mass).unwrap().set_linear_velocity(Vec2::new(1.0, 0.0)).unwrap();
    let (mut crossings, mut last) = (Vec::new(), 0.0);
    for n in 1..=300 {
        w.step(DT).unwrap();
        let x = pos(&w, mass).x;
        if last > 0.0 && x <= 0.0 {
            crossings.push((n as Real - 1.0 + last / (last - x)) * DT);
        }
        last = x;
    }
    let period = (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as Real;
    println!("spring period {period:.4} s (2 Hz: 0.5 s)");
    assert!((period - 0.5).abs() < 0.005, "period {period} s");
}

/// A cart on two wheel joints, its wheels driven at ω, rolls at ω·r.
#[test]
fn wheel_motors_drive_a_cart_at_omega_r() {
    let mut w = world();
    let ground = w.add_body(BodyDesc::fixed().translation(0.0, -1.0));
    w.add_collider(ground, ColliderDesc::new(Shape::rectangle(200.0, 1.0)).friction(0.9)).unwrap();
    let radius = 0.4;
    let chassis = body(&mut w, BodyDesc::dynamic().translation(0.0, 1.0), Shape::rectangle(1.2, 0.2), 1.0);
    let (omega, torque) = (-5.0, 200.0); // clockwise: rolling toward +x
    for x in [-0.8, 0.8] {
        let desc = BodyDesc::dynamic().translation(x, radius);
        let wheel = w.add_body(desc);
        w.add_collider(wheel, ColliderDesc::new(Shape::circle(radius)).density(1.0).friction(0.9)).unwrap();
        let joint = JointDesc::wheel(chassis, wheel, Point::new(x, radius), Vec2::new(0.0, 1.0))
            .spring(5.0, 0.7)
            .motor(omega, torque);
        w.add_joint(joint).unwrap();
    }
    step(&mut w, 240);
    let v = w.body(chassis).unwrap().linear_velocity().x;
    let expected = -omega * radius;
    println!("cart speed {v:.4} m/s, ω·r {expected}");
    assert!((v - expected).abs() < 0.01 * expected, "{v} m/s against {expected}");
}

#[test]
fn a_sliders_frames_carry_its_axis_and_meet_at_the_anchors() {
    let mut w = world_without_gravity();
    let ground = w.add_body(BodyDesc::fixed().translation(1.0, 0.0).angle(0.5));
    let slider = body(&mut w, BodyDesc::dynamic().translation(2.0, 1.0), Shape::rectangle(0.2, 0.2), 1.0);
    let axis = Vec2::new(0.6, 0.8);
    let key = w.add_joint(JointDesc::prismatic(ground, slider, Point::new(2.0, 1.0), axis)).unwrap();
    let j = w.joint(key).unwrap();
    let fa = w.body(ground).unwrap().position() * j.frame_a();
    let fb = w.body(slider).unwrap().position() * j.frame_b();
    assert!((fa.rotation * Vec2::x() - axis).norm() < 1e-5);
    assert!((fa.translation.vector - fb.translation.vector).norm() < 1e-5);
    assert!((fa.translation.vector - Vec2::new(2.0, 1.0)).norm() < 1e-5);
}
