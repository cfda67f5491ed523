//! Keeping one thread of the pool looking for work for the length of a step.
//!
//! A step is a chain of stages, several of which share their work with the
//! pool (the broad phase's searches, the narrow phase's refreshes, the
//! solver's team, the finalisation), with serial work between them. A rayon
//! thread that finds nothing to do soon goes to sleep, and one asleep takes a
//! while to wake when the next stage offers work: on the two-core machine
//! the broad phase's searches reached the second thread 51 µs after they
//! were offered, on average, in a search that took 230 µs in all, and the
//! step pays that at every stage it shares.
//!
//! So a step that shares its work runs beside a *poller*: a job on the pool
//! that asks for work ([`rayon::yield_now`]) again and again, running what it
//! finds, until the step is done. The thread that takes it stays awake
//! through the step's serial stretches and picks up each stage's work as soon
//! as it is offered. It burns its core for the length of the step only; a
//! step too small to share anything, or run on the calling thread alone
//! (`pace.rs`), runs without one.
//!
//! Which thread runs what never changes a result (see `solver/team.rs` on
//! determinism), so the poller changes timings only.
//!
//! **Nesting.** A poller runs whatever the pool offers, which may be another
//! world's step (worlds stepped side by side): a step started on a thread
//! that is polling runs without a poller of its own, so pollers never nest
//! on one thread.
//!
//! **Latency.** The step returns once its poller has: a poller that took a
//! long job from elsewhere on the pool (work the program spawned there)
//! finishes it first, as any rayon thread waiting in a join may. A program
//! that keeps long jobs on the pool that steps its world, and needs each
//! step back promptly, gives those jobs a pool of their own.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::parallel::handoff::{OnDrop, pause};

thread_local! {
    /// Set while this thread runs a poller.
    static POLLING: Cell<bool> = const { Cell::new(false) };
}

#[cfg(test)]
thread_local! {
    /// How many times this thread started a step beside a poller.
    static JOINS: Cell<u32> = const { Cell::new(0) };
}

/// Runs `op` on the current thread while, when `shares_work` is set and the
/// pool has another thread, a poller keeps that thread looking for work
/// until `op` returns. Returns what `op` returns.
pub(crate) fn with_poller<R: Send>(shares_work: bool, op: impl FnOnce() -> R + Send) -> R {
    if !shares_work || rayon::current_num_threads() < 2 || POLLING.get() {
        return op();
    }
    #[cfg(test)]
    JOINS.set(JOINS.get() + 1);
    let done = AtomicBool::new(false);
    let (result, ()) = rayon::join(
        || {
            // Set even if `op` panics, so that the poller ends and the join
            // passes the panic on.
            let _done = OnDrop(|| done.store(true, Ordering::Release));
            op()
        },
        || poll_until(&done),
    );
    result
}

/// Runs the pool's work as it comes until `done` is set. Run after `op` on
/// its own thread (when no other thread took the job), it returns at once.
fn poll_until(done: &AtomicBool) {
    if done.load(Ordering::Acquire) {
        return;
    }
    let was_polling = POLLING.replace(true);
    // Put back even if a job run here panics, so that the thread's later
    // steps still get pollers.
    let _restore = OnDrop(|| POLLING.set(was_polling));
    let mut idle = 0u32;
    while !done.load(Ordering::Acquire) {
        match rayon::yield_now() {
            Some(rayon::Yield::Executed) => idle = 0,
            // Not a thread of a pool: there is nothing to poll.
            None => break,
            Some(rayon::Yield::Idle) => pause(&mut idle),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    use rayon::prelude::*;

    use super::*;

    /// Work offered while `with_poller` runs is taken by the poller on the
    /// pool's other thread; a step started there runs without a poller of
    /// its own; and the result comes back.
    #[test]
    fn the_poller_takes_offered_work_and_never_nests() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let (polled, nested_joined) = (AtomicBool::new(false), AtomicBool::new(false));
        let rounds = pool.install(|| {
            with_poller(true, || {
                // Items of a few hundred microseconds each, offered until one
                // runs on the polling thread (the first round, nearly always).
                let mut rounds = 0;
                while !polled.load(Ordering::Relaxed) && rounds < 1000 {
                    rounds += 1;
                    (0..8).into_par_iter().with_max_len(1).for_each(|_| {
                        std::thread::sleep(Duration::from_micros(200));
                        if POLLING.get() {
                            polled.store(true, Ordering::Relaxed);
                            let joins = JOINS.get();
                            assert_eq!(with_poller(true, || 7), 7);
                            if JOINS.get() != joins {
                                nested_joined.store(true, Ordering::Relaxed);
                            }
                        }
                    });
                }
                rounds
            })
        });
        assert!(polled.load(Ordering::Relaxed), "no item ran on the poller in {rounds} rounds");
        assert!(!nested_joined.load(Ordering::Relaxed), "a poller started on a polling thread");
    }

    /// Without work to share, or on one thread, there is no poller.
    #[test]
    fn no_poller_without_work_to_share_or_a_second_thread() {
        let joins = JOINS.get();
        assert_eq!(with_poller(false, || 1), 1);
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        assert_eq!(one.install(|| with_poller(true, || JOINS.get())), 0);
        assert_eq!(JOINS.get(), joins);
    }

    /// A world of joints has no contacts for its narrow phase to share, but
    /// its finalisation shares its bodies: its steps run beside a poller,
    /// from the second on (the first is judged by the step before it).
    #[test]
    fn a_world_of_joints_steps_beside_a_poller() {
        use crate::{BodyDesc, JointDesc, World, WorldSettings};
        use lamina_geometry::Point;
        let mut world = World::new(WorldSettings::default());
        let mut previous = world.add_body(BodyDesc::fixed());
        for i in 1..=600 {
            let body = world.add_body(BodyDesc::dynamic().translation(i as lamina_geometry::Real, 0.0));
            world
                .add_joint(JointDesc::revolute(
                    previous,
                    body,
                    Point::new(i as lamina_geometry::Real - 0.5, 0.0),
                ))
                .unwrap();
            previous = body;
        }
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let joins = pool.install(|| {
            world.step(1.0 / 60.0).unwrap();
            let before = JOINS.get();
            world.step(1.0 / 60.0).unwrap();
            JOINS.get() - before
        });
        assert_eq!(world.contacts().count(), 0);
        assert_eq!(joins, 1, "the second step ran without a poller");
    }

    /// A panic in the step ends the poller and reaches the caller.
    #[test]
    fn a_panic_in_the_step_ends_the_poller() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let caught =
            pool.install(|| std::panic::catch_unwind(|| with_poller(true, || panic!("in the step"))));
        assert!(caught.is_err());
    }
}
