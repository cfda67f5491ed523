//! No NaN from finite input, however odd the joints: random scenes of every
//! joint kind, with options at their edges (zero forces, zero-hertz springs,
//! limits of zero width, coincident anchors, tiny axes, bodies that cannot
//! turn, fixed and kinematic bodies), stepped for two seconds, keep every
//! body's state finite and every joint's force finite.

use lamina_dynamics::{BodyDesc, BodyKey, ColliderDesc, JointDesc, World, WorldSettings};
use lamina_geometry::{Point, Real, Shape, Vec2};

mod common;

use common::Rng;

fn random_body(w: &mut World, rng: &mut Rng) -> BodyKey {
    let (x, y) = (rng.range(-5.0, 5.0), rng.range(0.0, 6.0));
    let desc = match rng.below(8) {
        0 => BodyDesc::fixed(),
        1 => BodyDesc::kinematic().angular_velocity(rng.range(-2.0, 2.0)),
        2 => BodyDesc::dynamic().fixed_rotation(true),
        _ => BodyDesc::dynamic(),
    };
    let b = w.add_body(desc.translation(x, y).angle(rng.range(-3.0, 3.0)));
    let shape = match rng.below(3) {
        0 => Shape::circle(rng.range(0.1, 0.6)),
        1 => Shape::rectangle(rng.range(0.1, 1.0), rng.range(0.1, 0.5)),
        _ => Shape::capsule(Point::new(-0.3, 0.0), Point::new(0.3, 0.0), rng.range(0.05, 0.3)),
    };
    w.add_collider(b, ColliderDesc::new(shape).density(rng.range(0.1, 20.0))).unwrap();
    b
}

fn random_joint(rng: &mut Rng, a: BodyKey, b: BodyKey, pa: Point, pb: Point) -> JointDesc {
    let axis = Vec2::new(rng.edge_or(&[0.0, 1e-3], -1.0, 1.0), rng.edge_or(&[1e-3, 1.0], -1.0, 1.0));
    let anchor = if rng.unit() < 0.3 { pa } else { Point::new(rng.range(-5.0, 5.0), rng.range(0.0, 6.0)) };
    let mut desc = match rng.below(7) {
        0 => JointDesc::revolute(a, b, anchor),
        1 => JointDesc::prismatic(a, b, anchor, axis),
        2 => JointDesc::weld(a, b, anchor),
        3 => JointDesc::distance(a, b, anchor, if rng.unit() < 0.2 { anchor } else { pb }),
        4 => JointDesc::wheel(a, b, anchor, axis),
        5 => JointDesc::motor_joint(a, b).max_torque(rng.edge_or(&[0.0, 1e6], 0.0, 100.0)),
        _ => JointDesc::mouse(b, pb),
    };
    let kind = desc.kind;
    use lamina_dynamics::JointKind::*;
    if matches!(kind, Revolute | Prismatic | Distance | Wheel) && rng.unit() < 0.6 {
        let lower = rng.edge_or(&[0.0, -3.0], -2.0, 2.0).abs() * if kind == Distance { 1.0 } else { -1.0 };
        let width = rng.edge_or(&[0.0], 0.0, 3.0);
        desc = desc.limits(lower, lower + width);
    }
    if matches!(kind, Revolute | Prismatic | Distance | Wheel) && rng.unit() < 0.5 {
        desc = desc.motor(rng.range(-10.0, 10.0), rng.edge_or(&[0.0, Real::MAX], 0.0, 1000.0));
    }
    if kind != Motor && rng.unit() < 0.5 {
        desc = desc.spring(rng.edge_or(&[0.0, 1000.0], 0.0, 30.0), rng.edge_or(&[0.0, 100.0], 0.0, 2.0));
    }
    if matches!(kind, Mouse | Motor) {
        desc = desc.max_force(rng.edge_or(&[0.0, Real::MAX], 0.0, 1e4));
    }
    if rng.unit() < 0.2 {
        desc = desc.softness(rng.edge_or(&[0.0, 1e4], 0.0, 120.0), rng.edge_or(&[0.0], 0.0, 10.0));
    }
    desc.collide_connected(rng.unit() < 0.3)
}

#[test]
fn random_jointed_scenes_stay_finite() {
    for seed in 1..=200u64 {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ seed.wrapping_mul(0x2545_f491_4f6c_dd1d));
        let mut w = World::new(WorldSettings { enable_sleep: seed % 2 == 0, ..WorldSettings::default() });
        let ground = w.add_body(BodyDesc::fixed().translation(0.0, -1.0));
        w.add_collider(ground, ColliderDesc::new(Shape::rectangle(20.0, 1.0))).unwrap();
        let bodies: Vec<BodyKey> = (0..12).map(|_| random_body(&mut w, &mut rng)).collect();
        let mut joints = Vec::new();
        for _ in 0..16 {
            let (i, j) = (rng.below(bodies.len()), rng.below(bodies.len()));
            if i == j {
                continue;
            }
            let (a, b) = (bodies[i], bodies[j]);
            let (pa, pb) = (w.body(a).unwrap().center_of_mass(), w.body(b).unwrap().center_of_mass());
            let desc = random_joint(&mut rng, a, b, pa, pb);
            joints.push(w.add_joint(desc).unwrap_or_else(|e| panic!("seed {seed}: {desc:?} refused: {e}")));
        }
        for n in 0..120 {
            if n == 60 {
                // Change joints on the way: remove some, move mouse targets.
                for (k, &key) in joints.iter().enumerate() {
                    if k % 5 == 0 {
                        let _ = w.remove_joint(key);
                    } else if let Some(j) = w.joint_mut(key) {
                        let _ = j.set_target(Point::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0)));
                    }
                }
            }
            w.step(1.0 / 60.0).unwrap();
        }
        for (_, b) in w.bodies() {
            let (p, v) = (b.position(), b.linear_velocity());
            let values = [
                p.translation.x,
                p.translation.y,
                p.rotation.re,
                p.rotation.im,
                v.x,
                v.y,
                b.angular_velocity(),
            ];
            assert!(values.iter().all(|x| x.is_finite()), "seed {seed}: a body went non-finite: {values:?}");
        }
        for (_, j) in w.joints() {
            let (f, t) = (j.constraint_force(), j.constraint_torque());
            assert!(
                f.x.is_finite() && f.y.is_finite() && t.is_finite(),
                "seed {seed}: {:?} force {f:?} {t}",
                j.kind()
            );
        }
    }
}
