//! Solving the constraints of one colour on several threads at once.
//!
//! The constraints of one colour share no movable body (see
//! `constraint_graph.rs`), so each thread reads and writes body states no
//! other thread touches, and each constraint is visited by exactly one thread.
//! The result is therefore the same, bit for bit, whatever the number of
//! threads and however the work is split: what each constraint computes
//! depends on the scene alone. Colours run one after another, in a fixed order;
//! the overflow colour, whose constraints may share bodies, runs on one thread.

use rayon::prelude::*;

use super::body_state::States;

/// Below this many items a colour is solved on the calling thread: handing the
/// work out costs more than it saves. Waking the pool costs some microseconds
/// a colour, about what 64 bundles of eight contacts take to solve; with 64
/// here `smash` ran slower on two threads than on one (2.2 ms in the solver
/// against 1.5), with 128 it runs faster (1.15 ms).
const PARALLEL_MIN: usize = 128;

/// Items per task, at least.
const CHUNK: usize = 16;

/// Calls `f` on every item of one colour, in parallel unless `serial` (the
/// overflow colour) or the colour is small.
pub(crate) fn for_each_in_color<T, F>(items: &mut [T], serial: bool, states: &States, f: &F)
where
    T: Send,
    F: Fn(&mut T, &States) + Sync,
{
    if serial || items.len() < PARALLEL_MIN {
        for item in items {
            f(item, states);
        }
    } else {
        items.par_iter_mut().with_min_len(CHUNK).for_each(|item| f(item, states));
    }
}
