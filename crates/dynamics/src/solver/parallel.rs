//! Solving the constraints of one colour on several threads at once.
//!
//! The constraints of one colour share no movable body (see `coloring.rs`), so
//! each thread reads and writes body states no other thread touches, and each
//! bundle of constraints is visited by exactly one thread. The result is
//! therefore the same, bit for bit, whatever the number of threads and however
//! the work is split: what each bundle computes depends on the scene alone.
//! Colours run one after another, in a fixed order; the overflow colour, whose
//! constraints may share bodies, runs on one thread.

use std::marker::PhantomData;

use rayon::prelude::*;

use super::body_state::BodyState;
use lamina_geometry::{Real, Vec2};

use super::coloring::COLOR_COUNT;
use super::contact_bundle::ContactBundle;
use crate::body::NO_INDEX;

/// Colours with fewer bundles than this are solved on the calling thread:
/// handing them out costs more than it saves.
const PARALLEL_MIN: usize = 64;

/// Bundles per task, at least.
const CHUNK: usize = 16;

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
    pub fn store_velocity(&self, i: u32, v: Vec2, w: Real) {
        if i == NO_INDEX {
            return;
        }
        assert!((i as usize) < self.len);
        // SAFETY: in bounds; index `i` belongs to one constraint of this colour,
        // which only one thread solves.
        unsafe {
            let s = self.ptr.add(i as usize);
            (*s).v = v;
            (*s).w = w;
        }
    }
}

/// The bundles, shared the same way.
struct Bundles<'a> {
    ptr: *mut ContactBundle,
    len: usize,
    _slice: PhantomData<&'a mut [ContactBundle]>,
}

// SAFETY: each index is handed to exactly one thread per colour pass.
unsafe impl Sync for Bundles<'_> {}

impl Bundles<'_> {
    /// # Safety
    /// No other reference to bundle `i` may exist while the result lives.
    #[inline]
    #[allow(clippy::mut_from_ref)]
    unsafe fn get(&self, i: usize) -> &mut ContactBundle {
        assert!(i < self.len);
        // SAFETY: in bounds; exclusivity is the caller's promise.
        unsafe { &mut *self.ptr.add(i) }
    }
}

/// Calls `f` on every bundle, colour by colour, the bundles of a colour in
/// parallel.
pub(crate) fn for_each_by_color<F>(
    starts: &[usize; COLOR_COUNT + 1],
    bundles: &mut [ContactBundle],
    states: &mut [BodyState],
    f: F,
) where
    F: Fn(&mut ContactBundle, &States) + Sync,
{
    let states = States::new(states);
    let shared = Bundles { ptr: bundles.as_mut_ptr(), len: bundles.len(), _slice: PhantomData };
    for color in 0..COLOR_COUNT {
        let range = starts[color]..starts[color + 1];
        // SAFETY (both branches): each bundle index of the colour is visited once.
        if color == COLOR_COUNT - 1 || range.len() < PARALLEL_MIN {
            for i in range {
                f(unsafe { shared.get(i) }, &states);
            }
        } else {
            range.into_par_iter().with_min_len(CHUNK).for_each(|i| f(unsafe { shared.get(i) }, &states));
        }
    }
}
