//! The environment against hand-computed geometry and Gymnasium's measured
//! behaviour.

use super::*;

fn walker(hardcore: bool, seed: u64) -> (BipedalWalker, [f32; 24]) {
    let mut env = BipedalWalker::new(BipedalWalkerConfig { hardcore });
    let mut obs = [0.0; 24];
    env.reset(seed, &mut obs);
    (env, obs)
}

/// Gymnasium's scripted gait (the state machine of its `__main__`), to drive
/// the walker through many kinds of contact.
struct Gait {
    phase: u8,
    moving: usize,
    support_knee: f32,
}

impl Gait {
    const SPEED: f32 = 0.29;
    const SUPPORT_KNEE: f32 = 0.1;

    fn new() -> Self {
        Self { phase: 0, moving: 0, support_knee: Self::SUPPORT_KNEE }
    }

    fn act(&mut self, s: &[f32; 24]) -> [f32; 4] {
        let (moving, supporting) = (self.moving, 1 - self.moving);
        let (mb, sb) = (4 + 5 * moving, 4 + 5 * supporting);
        let mut hip_target = [None; 2];
        let mut knee_target = [None; 2];
        if self.phase == 0 {
            hip_target[moving] = Some(1.1);
            knee_target[moving] = Some(-0.6);
            self.support_knee += 0.03;
            if s[2] > Self::SPEED {
                self.support_knee += 0.03;
            }
            self.support_knee = self.support_knee.min(Self::SUPPORT_KNEE);
            knee_target[supporting] = Some(self.support_knee);
            if s[sb] < 0.10 {
                self.phase = 1;
            }
        }
        if self.phase == 1 {
            hip_target[moving] = Some(0.1);
            knee_target[moving] = Some(Self::SUPPORT_KNEE);
            knee_target[supporting] = Some(self.support_knee);
            if s[mb + 4] != 0.0 {
                self.phase = 2;
                self.support_knee = s[mb + 2].min(Self::SUPPORT_KNEE);
            }
        }
        if self.phase == 2 {
            knee_target[moving] = Some(self.support_knee);
            knee_target[supporting] = Some(1.0);
            if s[sb + 2] > 0.88 || s[2] > 1.2 * Self::SPEED {
                self.phase = 0;
                self.moving = 1 - self.moving;
            }
        }
        let mut a = [0.0f32; 4];
        for leg in 0..2 {
            let b = 4 + 5 * leg;
            // Gymnasium tests the targets for truth, so a target of 0 is none.
            let hip = hip_target[leg]
                .filter(|&t: &f32| t != 0.0)
                .map_or(0.0, |t| 0.9 * (t - s[b]) - 0.25 * s[b + 1]);
            let knee = knee_target[leg]
                .filter(|&t: &f32| t != 0.0)
                .map_or(0.0, |t| 4.0 * (t - s[b + 2]) - 0.25 * s[b + 3]);
            a[2 * leg] = hip - (0.9 * (0.0 - s[0]) - 1.5 * s[1]);
            a[2 * leg + 1] = knee - 15.0 * s[3];
        }
        a.map(|v| (0.5 * v).clamp(-1.0, 1.0))
    }
}

/// Steps with zero actions until the episode ends or `limit` steps pass;
/// returns the steps taken and the last outcome.
fn idle(env: &mut BipedalWalker, limit: u32) -> (u32, Outcome) {
    let mut obs = [0.0; 24];
    let mut last = Outcome::default();
    for t in 1..=limit {
        last = env.step(&[0.0; 4], &mut obs);
        if last.terminated {
            return (t, last);
        }
    }
    (limit, last)
}

/// Moves the whole walker so that its hull's origin is at `(x, y)`, each
/// part keeping its place relative to the hull (so the joints stay closed).
fn teleport_walker(env: &mut BipedalWalker, x: f64, y: f64) {
    let (hx, hy) = env.hull_position();
    let shift = Vec2::new((x - hx) as Real, (y - hy) as Real);
    let bodies: Vec<BodyKey> = env.walker.parts().map(|p| p.body).collect();
    for body in bodies {
        let mut pose = env.world.body(body).unwrap().position();
        pose.translation.vector += shift;
        env.world.set_body_position(body, pose).unwrap();
    }
}

#[test]
fn the_walker_starts_at_gymnasiums_start_with_its_feet_down() {
    let (env, obs) = walker(false, 4);
    let (x, y) = env.hull_position();
    // Gymnasium's start: halfway along the 20-step pad, two legs above it,
    // and there after its first step (measured: 4.649–4.664 m, 5.733 m).
    assert!((start_x() - 20.0 * 14.0 / 30.0 / 2.0).abs() < 1e-12);
    assert!((start_y() - (400.0 / 30.0 / 4.0 + 2.0 * 34.0 / 30.0 + START_RISE)).abs() < 1e-12);
    assert!((start_y() - 5.733).abs() < 1e-3);
    // The reset's idle step moves it by what a 5 N push and a settling
    // stance do in 0.02 s: well under a centimetre.
    assert!((x - start_x()).abs() < 0.01 && (y - start_y()).abs() < 0.01, "{x} {y}");
    assert!(obs[0].abs() < 1e-3, "level: {}", obs[0]);
    assert_eq!((obs[8], obs[13]), (1.0, 1.0), "both feet on the ground");
    assert_eq!(env.steps(), 0);
}

#[test]
fn the_lidar_on_the_flat_start_pad_sees_the_ground_where_geometry_puts_it() {
    let (env, obs) = walker(false, 9);
    let (x, y) = env.hull_position();
    let height = y - TERRAIN_HEIGHT;
    for i in 0..LIDAR_RAYS {
        let angle = 1.5 * i as f64 / 10.0;
        // The ray meets the level ground after height / cos(angle); beyond
        // its reach it reports 1.
        let distance = height / angle.cos();
        let expected = (distance / LIDAR_RANGE).min(1.0);
        // Every hit lies on the pad, which is level for 20 steps.
        assert!(distance > LIDAR_RANGE || x + distance * angle.sin() < 20.0 * TERRAIN_STEP);
        assert!((f64::from(obs[14 + i]) - expected).abs() < 1e-5, "ray {i}: {} {expected}", obs[14 + i]);
    }
}

#[test]
fn the_observation_is_the_world_state_scaled_as_gymnasium_scales_it() {
    let (mut env, _) = walker(false, 2);
    let mut obs = [0.0; 24];
    for _ in 0..20 {
        env.step(&[0.6, -0.4, -0.2, 0.9], &mut obs);
    }
    let hull = env.world.body(env.walker.hull).unwrap();
    let (w, v) = (f64::from(hull.angular_velocity()), hull.linear_velocity());
    let close = |got: f32, want: f64| (f64::from(got) - want).abs() < 1e-6 * want.abs().max(1.0);
    assert!(close(obs[0], f64::from(hull.angle())));
    assert!(close(obs[1], w * 2.0 / 50.0));
    // 0.3 · v · (600 / 30) / 50 = 0.12 v, and 0.3 · v · (400 / 30) / 50 = 0.08 v.
    assert!(close(obs[2], 0.12 * f64::from(v.x)));
    assert!(close(obs[3], 0.08 * f64::from(v.y)));
    for leg in 0..2 {
        let hip = env.world.joint_motion(env.walker.joints[2 * leg]).unwrap();
        let knee = env.world.joint_motion(env.walker.joints[2 * leg + 1]).unwrap();
        let at = 4 + 5 * leg;
        assert!(close(obs[at], f64::from(hip.angle)));
        assert!(close(obs[at + 1], f64::from(hip.angular_speed) / 4.0));
        assert!(close(obs[at + 2], f64::from(knee.angle) + 1.0));
        assert!(close(obs[at + 3], f64::from(knee.angular_speed) / 6.0));
        assert!(obs[at + 4] == 0.0 || obs[at + 4] == 1.0);
    }
}

#[test]
fn the_reward_is_progress_less_tilt_less_torque() {
    let (mut env, _) = walker(false, 6);
    let mut obs = [0.0; 24];
    let action = [0.5, -2.0, 0.0, -0.25];
    let shaping = |env: &BipedalWalker| {
        let tilt = f64::from(env.world.body(env.walker.hull).unwrap().angle());
        130.0 * env.hull_position().0 / SCALE - 5.0 * tilt.abs()
    };
    for _ in 0..10 {
        let before = shaping(&env);
        let outcome = env.step(&action, &mut obs);
        // 0.00035 · 80 per unit of |action|, each capped at 1: 0.5 + 1 + 0 + 0.25.
        let torque = 0.028 * 1.75;
        assert!((outcome.reward - (shaping(&env) - before - torque)).abs() < 1e-9);
    }
}

#[test]
fn an_idle_walker_falls_when_gymnasiums_does() {
    // Measured with Gymnasium 1.4 and Box2D, seeds 0 to 2: with every motor
    // idle (free joints) the walker sinks and lands on its hull after 115 to
    // 123 steps. Which way it tips is decided at the balance point (Box2D's
    // tips forward, Lamina's back); when, by how fast the free legs fold.
    for seed in 0..3 {
        let (mut env, _) = walker(false, seed);
        let (steps, outcome) = idle(&mut env, 300);
        assert!(outcome.terminated && outcome.reward == FALL_REWARD, "seed {seed}: {outcome:?}");
        assert!((95..150).contains(&steps), "seed {seed}: fell after {steps} steps");
        let tilt = f64::from(env.world.body(env.walker.hull).unwrap().angle());
        assert!(tilt.abs() > 0.3, "seed {seed}: landed on its hull at {tilt} rad");
    }
}

#[test]
fn the_hull_touching_the_ground_ends_the_episode_at_minus_100() {
    let (mut env, _) = walker(false, 1);
    // The hull's underside is 8 px below its origin: 0.1 m up it is in the
    // ground (and so are the legs, which is no matter).
    teleport_walker(&mut env, start_x(), TERRAIN_HEIGHT + 0.1);
    let outcome = env.step(&[0.0; 4], &mut [0.0; 24]);
    assert_eq!(outcome, Outcome { reward: -100.0, terminated: true });
}

#[test]
fn walking_off_the_start_ends_the_episode_at_minus_100() {
    let (mut env, _) = walker(false, 1);
    teleport_walker(&mut env, -0.5, start_y() + 1.0);
    let outcome = env.step(&[0.0; 4], &mut [0.0; 24]);
    assert_eq!(outcome, Outcome { reward: -100.0, terminated: true });
}

#[test]
fn arriving_at_the_far_end_ends_the_episode_without_penalty() {
    let (mut env, _) = walker(false, 1);
    let finish = env.terrain.finish_x();
    assert!((finish - 190.0 * TERRAIN_STEP).abs() < 1e-12);
    let ground = env.terrain.ys[191];
    teleport_walker(&mut env, finish + 0.3, ground + 5.0);
    let outcome = env.step(&[0.0; 4], &mut [0.0; 24]);
    assert!(outcome.terminated && outcome.reward > 0.0, "{outcome:?}");
}

/// Runs a gait episode of `steps` and returns every observation's bits and reward.
fn episode(seed: u64, hardcore: bool, steps: usize) -> Vec<(Vec<u32>, u64)> {
    let (mut env, mut obs) = walker(hardcore, seed);
    let mut gait = Gait::new();
    let mut trace = Vec::new();
    for _ in 0..steps {
        let action = gait.act(&obs);
        let outcome = env.step(&action, &mut obs);
        trace.push((obs.iter().map(|v| v.to_bits()).collect(), outcome.reward.to_bits()));
        if outcome.terminated {
            break;
        }
    }
    trace
}

#[test]
fn one_seed_gives_one_episode_bit_for_bit_and_another_seed_another() {
    for hardcore in [false, true] {
        assert_eq!(episode(21, hardcore, 200), episode(21, hardcore, 200));
        assert_ne!(episode(21, hardcore, 200), episode(22, hardcore, 200));
    }
}

#[test]
fn a_reset_forgets_the_last_episode() {
    let (mut env, first) = walker(true, 5);
    idle(&mut env, 500);
    let mut again = [0.0; 24];
    env.reset(5, &mut again);
    assert_eq!(first.map(f32::to_bits), again.map(f32::to_bits));
    assert_eq!(env.steps(), 0);
}

#[test]
fn the_hardcore_course_is_in_the_world_and_the_lidar_sees_it() {
    let (env, _) = walker(true, 0);
    let ground_colliders =
        env.world.colliders().filter(|(_, c)| c.filter().category == GROUND_CATEGORY).count();
    let segments = env.terrain.xs.len() - 1;
    assert!(!env.terrain.obstacles.is_empty());
    assert_eq!(ground_colliders, segments + env.terrain.obstacles.len());
    // A ray cast down onto the top of each stump hits it, not the surface below.
    let filter = QueryFilter::default().groups(LIDAR_FILTER);
    for q in env.terrain.obstacles.iter().filter(|q| q[2].1 > q[1].1) {
        let (x, top) = ((q[0].0 + q[1].0) / 2.0, q[2].1);
        let ray = Ray::new(Point::new(x as Real, (top + 1.0) as Real), Vec2::new(0.0, -1.0));
        let hit = env.world.cast_ray(&ray, 10.0, &filter).expect("the stump is there");
        assert!((f64::from(hit.toi) - 1.0).abs() < 1e-4, "{}", hit.toi);
    }
}

#[test]
fn the_picture_has_sky_above_earth_below_and_the_walker_between() {
    let (env, _) = walker(false, 3);
    let rgb = env.render();
    assert_eq!(rgb.len(), 400 * 600 * 3);
    let at =
        |x: usize, y: usize| [rgb[(y * 600 + x) * 3], rgb[(y * 600 + x) * 3 + 1], rgb[(y * 600 + x) * 3 + 2]];
    // The view's left edge is a fifth of its width (4 m) behind the hull.
    let (hx, hy) = env.hull_position();
    let left = hx - 600.0 / 30.0 / 5.0;
    let pixel = |x: f64, y: f64| (((x - left) * 30.0) as usize, (400.0 - y * 30.0) as usize);
    let sky = at(300, 2);
    assert!(sky == [215, 215, 255] || sky == [255, 255, 255], "{sky:?}");
    let (ex, ey) = pixel(hx + 2.0, TERRAIN_HEIGHT - 1.0);
    assert_eq!(at(ex, ey), [102, 153, 76], "earth");
    let (bx, by) = pixel(hx - 0.5, hy + 0.1);
    assert_eq!(at(bx, by), [127, 51, 229], "the hull");
}

/// Counts the allocations made on the current thread, to show that a
/// warm step makes none.
mod allocations {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    thread_local! {
        static COUNT: Cell<u64> = const { Cell::new(0) };
    }

    struct Counting;

    // SAFETY: every call is passed to the system allocator unchanged.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            COUNT.with(|c| c.set(c.get() + 1));
            unsafe { System.alloc(layout) }
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            unsafe { System.dealloc(ptr, layout) }
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, size: usize) -> *mut u8 {
            COUNT.with(|c| c.set(c.get() + 1));
            unsafe { System.realloc(ptr, layout, size) }
        }
    }

    #[global_allocator]
    static ALLOCATOR: Counting = Counting;

    /// Allocations made on this thread so far.
    pub fn count() -> u64 {
        COUNT.with(Cell::get)
    }
}

#[test]
fn a_step_allocates_nothing_beyond_the_engines_growing_buffers() {
    // The engine's step grows its buffers as pairs and contacts first form
    // (a few times an episode, measured); everything the environment does
    // around it (motors, contact events, lidar, observation, reward) must
    // allocate nothing. The pieces of `step`, timed apart:
    let (mut env, mut obs) = walker(true, 8);
    let mut gait = Gait::new();
    let mut ours = 0;
    for _ in 0..400 {
        let action = gait.act(&obs);
        let start = allocations::count();
        env.walker.drive(&mut env.world, &action);
        let before_step = allocations::count();
        env.world.step((1.0 / FPS) as Real).unwrap();
        let after_step = allocations::count();
        env.read_contacts();
        env.scan();
        env.observe(&mut obs);
        env.steps += 1;
        let outcome = env.judge(&action);
        ours += (before_step - start) + (allocations::count() - after_step);
        if outcome.terminated {
            env.reset(9, &mut obs);
            gait = Gait::new();
        }
    }
    assert_eq!(ours, 0);
}
