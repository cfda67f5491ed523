//! How wide the solver's SIMD bundles are, and where each pass over them
//! (`passes.rs`) and the bodies' integration beside them runs: bundles are
//! four lanes wide, or eight where the processor has AVX (`avx.rs`), chosen
//! once per solver; eight-lane passes run inside functions compiled for AVX,
//! in AVX-512's encoding where the processor has it.

use std::ops::Range;

use lamina_geometry::Real;

#[cfg(all(target_arch = "x86_64", not(feature = "f64")))]
use super::avx::Avx8;
use super::body_state::{BodyState, States};
use super::bundles::{
    ConstraintSource, LaneBundle, LaneConstraints, fill_bundles, pack_bundles, size_bundles,
};
use super::constraint_graph::{COLOR_COUNT, ColorOrder};
use super::contact_bundle::ContactBundle;
use super::contact_solver::ContactSource;
use super::integrate::Integration;
use super::joints::point_bundle::PointJointBundle;
use super::joints::revolute_bundle::RevoluteBundle;
use super::lanes::{Encoding, Wide};
use super::passes::LanePass;
use super::team::BlockSlice;
use crate::parallel::pace::Threads;

/// Bundles of one kind packed in lanes: four, or eight where the processor
/// has AVX, in the encoding it runs best (chosen once, when the solver is
/// made).
pub(crate) enum Bundles<B4, B8> {
    Four(Vec<B4>),
    #[cfg_attr(not(all(target_arch = "x86_64", not(feature = "f64"))), allow(dead_code))]
    Eight(Vec<B8>, Encoding),
}

impl<B4, B8> Default for Bundles<B4, B8> {
    fn default() -> Self {
        #[cfg(all(target_arch = "x86_64", not(feature = "f64")))]
        if super::avx::available() {
            return Bundles::Eight(Vec::new(), super::avx::best_encoding());
        }
        Bundles::Four(Vec::new())
    }
}

impl<B4, B8> Bundles<B4, B8> {
    /// The encoding of eight-lane bundles; `None` where they are four wide.
    pub(crate) fn eight_lanes(&self) -> Option<Encoding> {
        match self {
            Bundles::Four(_) => None,
            Bundles::Eight(_, encoding) => Some(*encoding),
        }
    }

    /// The encoding of eight-lane bundles, to change (tests compare them).
    #[cfg(all(test, target_arch = "x86_64", not(feature = "f64")))]
    pub(crate) fn encoding_mut(&mut self) -> Option<&mut Encoding> {
        match self {
            Bundles::Four(_) => None,
            Bundles::Eight(_, encoding) => Some(encoding),
        }
    }
}

impl<B4: LaneBundle, B8: LaneBundle> Bundles<B4, B8> {
    /// Sizes the bundles of this width for the coloured constraints, to be
    /// filled later by the blocks of a pass (see [`size_bundles`] and
    /// [`BundleBlocks::fill`]).
    pub(crate) fn size(&mut self, coloring: &ColorOrder, starts: &mut [usize; COLOR_COUNT + 1]) {
        match self {
            Bundles::Four(bundles) => size_bundles(coloring, bundles, starts),
            Bundles::Eight(bundles, _) => size_bundles(coloring, bundles, starts),
        }
    }
}

impl<B4: LaneConstraints, B8: LaneConstraints<Constraint = B4::Constraint>> Bundles<B4, B8> {
    /// Packs the coloured constraints into bundles of this width, lane by
    /// lane (see [`pack_bundles`]), sharing the work with the pool where
    /// `threads` let it.
    pub(crate) fn pack(
        &mut self,
        coloring: &ColorOrder,
        starts: &mut [usize; COLOR_COUNT + 1],
        prepare: impl ConstraintSource<B4::Constraint>,
        ahead: impl Fn(u32) + Sync,
        threads: Threads,
    ) {
        match self {
            Bundles::Four(bundles) => {
                pack_bundles(coloring, bundles, starts, prepare, ahead, |b| b.finish(), threads)
            }
            &mut Bundles::Eight(ref mut bundles, encoding) => {
                let finish = move |b: &mut B8| eight_finish(b, encoding);
                pack_bundles(coloring, bundles, starts, prepare, ahead, finish, threads)
            }
        }
    }
}

/// The eight-lane type where there is one; elsewhere a stand-in that is never used.
#[cfg(all(target_arch = "x86_64", not(feature = "f64")))]
pub(crate) type Eight = Avx8;
#[cfg(not(all(target_arch = "x86_64", not(feature = "f64"))))]
pub(crate) type Eight = super::lanes::Wide;

/// Bundles of one width as the blocks of a pass share them (see
/// [`BlockSlice`]).
pub(crate) enum BundleBlocks<'a, B4, B8> {
    Four(BlockSlice<'a, B4>),
    Eight(BlockSlice<'a, B8>, Encoding),
}

impl<'a, B4: Send, B8: Send> BundleBlocks<'a, B4, B8> {
    pub fn new(bundles: &'a mut Bundles<B4, B8>) -> Self {
        match bundles {
            Bundles::Four(b) => BundleBlocks::Four(BlockSlice::new(b)),
            Bundles::Eight(b, encoding) => BundleBlocks::Eight(BlockSlice::new(b), *encoding),
        }
    }

    /// Runs `four` on each of the bundles `range` in order, or `eight` on
    /// all of them (with the encoding to run in), whichever fits the width.
    ///
    /// # Safety
    ///
    /// As [`BlockSlice::range`]: no other thread holds any of these bundles
    /// (or, since they are of one colour, their movable bodies) meanwhile.
    #[inline(always)]
    pub unsafe fn run(
        &self,
        range: Range<usize>,
        states: &States,
        four: impl Fn(&mut B4, &States),
        eight: impl Fn(&mut [B8], &States, Encoding),
    ) {
        // A small world's colours hold one or two kinds of constraint: the
        // lists of the others are passed over, not opened, in every pass.
        if range.is_empty() {
            return;
        }
        // SAFETY: the caller's promise.
        match self {
            BundleBlocks::Four(b) => unsafe { b.range(range) }.iter_mut().for_each(|b| four(b, states)),
            BundleBlocks::Eight(b, encoding) => eight(unsafe { b.range(range) }, states, *encoding),
        }
    }
}

impl<B4: LaneBundle, B8: LaneBundle> BundleBlocks<'_, B4, B8> {
    /// Fills the bundles `range` of those sized for `coloring` (see
    /// [`fill_bundles`]): `fill4`, or `fill8` with the encoding to run in,
    /// whichever fits the width, writes a bundle's constraints to its lanes
    /// and completes it.
    ///
    /// # Safety
    ///
    /// As [`BlockSlice::range`]: no other thread holds any of these bundles
    /// meanwhile.
    pub unsafe fn fill(
        &self,
        range: Range<usize>,
        coloring: &ColorOrder,
        starts: &[usize; COLOR_COUNT + 1],
        fill4: &impl Fn(&mut B4, &[u32]),
        fill8: &impl Fn(&mut B8, &[u32], Encoding),
        ahead: &impl Fn(u32),
    ) {
        if range.is_empty() {
            return;
        }
        let first = range.start;
        // SAFETY: the caller's promise.
        match self {
            BundleBlocks::Four(b) => {
                fill_bundles(coloring, starts, first, unsafe { b.range(range) }, fill4, ahead)
            }
            &BundleBlocks::Eight(ref b, encoding) => fill_bundles(
                coloring,
                starts,
                first,
                unsafe { b.range(range) },
                &|b: &mut B8, members: &[u32]| fill8(b, members, encoding),
                ahead,
            ),
        }
    }
}

/// [`LaneBundle::finish`] of an eight-lane bundle, compiled for AVX in
/// `encoding`.
#[cfg(all(target_arch = "x86_64", not(feature = "f64")))]
#[inline(always)]
fn eight_finish<B: LaneBundle>(bundle: &mut B, encoding: Encoding) {
    // SAFETY: the solver holds eight-lane bundles only where the processor
    // has AVX, and chooses AVX-512's encoding only where it has that and
    // the features it implies (`avx::best_encoding`).
    unsafe {
        match encoding {
            Encoding::Vex => super::avx::finish(bundle),
            Encoding::Evex => super::avx::finish_evex(bundle),
        }
    }
}

/// Without eight lanes the solver never holds eight-lane bundles.
#[cfg(not(all(target_arch = "x86_64", not(feature = "f64"))))]
fn eight_finish<B: LaneBundle>(bundle: &mut B, _: Encoding) {
    bundle.finish();
}

/// Packs contacts `members` into `bundle` from `source` and completes it,
/// compiled for AVX in `encoding`.
#[cfg(all(target_arch = "x86_64", not(feature = "f64")))]
#[inline(always)]
pub(crate) fn eight_pack_contacts(
    source: &ContactSource,
    bundle: &mut ContactBundle<Eight>,
    members: &[u32],
    encoding: Encoding,
) {
    // SAFETY: as in `eight_finish`.
    unsafe {
        match encoding {
            Encoding::Vex => super::avx::pack_contacts(source, bundle, members),
            Encoding::Evex => super::avx::pack_contacts_evex(source, bundle, members),
        }
    }
}

/// Without eight lanes the solver never holds eight-lane bundles.
#[cfg(not(all(target_arch = "x86_64", not(feature = "f64"))))]
pub(crate) fn eight_pack_contacts(
    source: &ContactSource,
    bundle: &mut ContactBundle<Eight>,
    members: &[u32],
    _: Encoding,
) {
    source.pack(bundle, members);
    bundle.finish();
}

/// Defines `$name`, which runs a pass on each eight-lane bundle of one
/// kind (`$bundle`, whose [`LanePass`] method is `$method`): compiled for
/// AVX in the encoding given, where there are eight lanes; elsewhere (where
/// the solver never holds eight-lane bundles) a plain loop.
macro_rules! eight_lane_dispatch {
    ($name:ident, $bundle:ident, $method:ident, $vex:ident, $evex:ident, $what:literal) => {
        #[doc = concat!("`pass` on each bundle of eight ", $what, ", compiled for AVX in `encoding`.")]
        #[cfg(all(target_arch = "x86_64", not(feature = "f64")))]
        #[inline(always)]
        pub(crate) fn $name<P: LanePass>(
            pass: &P,
            bundles: &mut [$bundle<Eight>],
            states: &States,
            encoding: Encoding,
        ) {
            // SAFETY: as in `eight_finish`.
            unsafe {
                match encoding {
                    Encoding::Vex => super::avx::$vex(pass, bundles, states),
                    Encoding::Evex => super::avx::$evex(pass, bundles, states),
                }
            }
        }

        /// Without eight lanes the solver never holds eight-lane bundles.
        #[cfg(not(all(target_arch = "x86_64", not(feature = "f64"))))]
        pub(crate) fn $name<P: LanePass>(
            pass: &P,
            bundles: &mut [$bundle<Eight>],
            states: &States,
            _: Encoding,
        ) {
            bundles.iter_mut().for_each(|b| pass.$method(b, states));
        }
    };
}

eight_lane_dispatch!(eight_contacts, ContactBundle, contacts, contacts, contacts_evex, "contacts");
eight_lane_dispatch!(eight_points, PointJointBundle, points, points, points_evex, "point joints");
eight_lane_dispatch!(
    eight_revolutes,
    RevoluteBundle,
    revolutes,
    revolutes,
    revolutes_evex,
    "revolute joints"
);

/// Runs `integration` on `states` (see [`Integration`]): eight bodies at a
/// time, compiled for AVX in the encoding given, where the solver's bundles
/// are eight wide (`eight`); four at a time elsewhere. The bits are the same
/// either way.
///
/// # Safety
///
/// `eight` is what [`Bundles::eight_lanes`] gave: an encoding only where
/// the processor has what it needs.
#[inline(always)]
pub(crate) unsafe fn integrate(
    eight: Option<Encoding>,
    integration: Integration,
    states: &mut [BodyState],
    h: Real,
    max_speed: Real,
) {
    #[cfg(all(target_arch = "x86_64", not(feature = "f64")))]
    if let Some(encoding) = eight {
        // SAFETY: the caller's promise.
        unsafe {
            match encoding {
                Encoding::Vex => super::avx::integrate(integration, states, h, max_speed),
                Encoding::Evex => super::avx::integrate_evex(integration, states, h, max_speed),
            }
        }
        return;
    }
    let _ = eight;
    integration.run::<Wide>(states, h, max_speed);
}
