//! Solving the constraints of one colour on several threads at once.
//!
//! The constraints of one colour share no movable body (see `coloring.rs`), so
//! each thread reads and writes body states no other thread touches, and each
//! constraint is visited by exactly one thread. The result is therefore the same,
//! bit for bit, whatever the number of threads and however the work is split:
//! the split (fixed-size chunks) depends on the scene alone. Colours run one
//! after another, in a fixed order; the overflow colour, whose constraints may
//! share bodies, runs on one thread.

use std::marker::PhantomData;

use rayon::prelude::*;

use super::body_state::BodyState;
use super::coloring::{COLOR_COUNT, Coloring};
use super::contact_solver::ContactConstraint;
use crate::body::NO_INDEX;

/// Colours with fewer constraints than this are solved on the calling thread:
/// handing them out costs more than it saves.
const PARALLEL_MIN: usize = 256;

/// Constraints per task.
const CHUNK: usize = 64;

/// Body states shared by the threads solving one colour.
pub(crate) struct States<'a> {
    ptr: *mut BodyState,
    len: usize,
    _slice: PhantomData<&'a mut [BodyState]>,
}

// SAFETY: `States` only hands out copies of single states and writes single
// states; the colouring guarantees that concurrent calls use different indices.
unsafe impl Sync for States<'_> {}

impl<'a> States<'a> {
    pub fn new(states: &'a mut [BodyState]) -> Self {
        Self { ptr: states.as_mut_ptr(), len: states.len(), _slice: PhantomData }
    }

    /// The state of body `i`; immovable bodies (`NO_INDEX`) read as fixed.
    #[inline]
    pub fn load(&self, i: u32) -> BodyState {
        if i == NO_INDEX {
            return BodyState::FIXED;
        }
        assert!((i as usize) < self.len);
        // SAFETY: in bounds (checked above); no other thread writes index `i`
        // while this colour is solved.
        unsafe { self.ptr.add(i as usize).read() }
    }

    /// Writes back body `i`'s velocities; immovable bodies are left alone.
    #[inline]
    pub fn store_velocity(&self, i: u32, state: &BodyState) {
        if i == NO_INDEX {
            return;
        }
        assert!((i as usize) < self.len);
        // SAFETY: in bounds; index `i` belongs to one constraint of this colour,
        // which only one thread solves.
        unsafe {
            let s = self.ptr.add(i as usize);
            (*s).v = state.v;
            (*s).w = state.w;
        }
    }
}

/// The constraint array, shared the same way.
struct Constraints<'a> {
    ptr: *mut ContactConstraint,
    len: usize,
    _slice: PhantomData<&'a mut [ContactConstraint]>,
}

// SAFETY: each index is handed to exactly one thread per colour pass.
unsafe impl Sync for Constraints<'_> {}

impl Constraints<'_> {
    /// # Safety
    /// No other reference to constraint `i` may exist while the result lives.
    #[inline]
    #[allow(clippy::mut_from_ref)]
    unsafe fn get(&self, i: u32) -> &mut ContactConstraint {
        assert!((i as usize) < self.len);
        // SAFETY: in bounds; exclusivity is the caller's promise.
        unsafe { &mut *self.ptr.add(i as usize) }
    }
}

/// Calls `f` on every constraint, colour by colour, the constraints of a colour
/// in parallel.
pub(crate) fn for_each_by_color<F>(
    coloring: &Coloring,
    constraints: &mut [ContactConstraint],
    states: &mut [BodyState],
    f: F,
) where
    F: Fn(&mut ContactConstraint, &States) + Sync,
{
    let states = States::new(states);
    let shared = Constraints { ptr: constraints.as_mut_ptr(), len: constraints.len(), _slice: PhantomData };
    for color in 0..COLOR_COUNT {
        let slice = &coloring.order[coloring.starts[color]..coloring.starts[color + 1]];
        // SAFETY (both branches): `order` lists every constraint once, so within
        // one colour each index is visited once.
        if color == COLOR_COUNT - 1 || slice.len() < PARALLEL_MIN {
            for &i in slice {
                f(unsafe { shared.get(i) }, &states);
            }
        } else {
            slice.par_chunks(CHUNK).for_each(|chunk| {
                for &i in chunk {
                    f(unsafe { shared.get(i) }, &states);
                }
            });
        }
    }
}
