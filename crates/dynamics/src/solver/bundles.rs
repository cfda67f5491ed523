//! Packing constraints into bundles of SIMD lanes, colour by colour.
//!
//! Contacts (`contact_bundle.rs`) and plain point joints
//! (`joints/point_bundle.rs`) are solved several at a time, one per lane:
//! the constraints of one colour share no movable body, so any of them can
//! share a bundle.

use rayon::prelude::*;

use lamina_geometry::Real;

use super::constraint_graph::{COLOR_COUNT, ColorOrder, OVERFLOW};
use super::lanes::{Lanes, Wide};
use crate::parallel::pace::Threads;

/// What every bundle holds of its lanes' two bodies: which constraint each
/// lane is, the bodies' solver indices and their inverse masses.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LaneBodies<W: Lanes = Wide> {
    /// Which constraint each lane holds, `NO_INDEX` for unused lanes.
    pub members: W::Indices,
    /// Solver indices of the bodies, `NO_INDEX` for immovable ones and unused lanes.
    pub a: W::Indices,
    pub b: W::Indices,
    pub inv_mass_a: W,
    pub inv_i_a: W,
    pub inv_mass_b: W,
    pub inv_i_b: W,
}

impl<W: Lanes> LaneBodies<W> {
    /// Every lane unused: immovable bodies, no mass.
    pub const EMPTY: LaneBodies<W> = LaneBodies {
        members: W::NO_INDICES,
        a: W::NO_INDICES,
        b: W::NO_INDICES,
        inv_mass_a: W::ZERO,
        inv_i_a: W::ZERO,
        inv_mass_b: W::ZERO,
        inv_i_b: W::ZERO,
    };

    /// Writes constraint `index`'s bodies `(a, b)` and inverse masses
    /// `[mA, iA, mB, iB]` to lane `l`.
    #[inline]
    pub fn set_lane(&mut self, l: usize, index: u32, (a, b): (u32, u32), masses: [Real; 4]) {
        self.members.as_mut()[l] = index;
        self.a.as_mut()[l] = a;
        self.b.as_mut()[l] = b;
        for (w, m) in [&mut self.inv_mass_a, &mut self.inv_i_a, &mut self.inv_mass_b, &mut self.inv_i_b]
            .into_iter()
            .zip(masses)
        {
            w.set_lane(l, m);
        }
    }
}

/// A bundle of [`LaneBundle::WIDTH`] constraints of one kind.
pub(crate) trait LaneBundle: Copy + Send {
    /// Constraints per bundle.
    const WIDTH: usize;
    /// A bundle with every lane unused: its lanes compute impulses of zero.
    const EMPTY: Self;
    /// Completes the bundle once its lanes are written: what can be computed
    /// for every lane at once is computed here.
    #[inline(always)]
    fn finish(&mut self) {}
}

/// A bundle whose lanes are written one at a time, each from its
/// constraint as prepared on its own (the joints; contacts are packed from
/// rows, `contact_solver.rs`).
pub(crate) trait LaneConstraints: LaneBundle {
    /// One constraint as prepared for a lane.
    type Constraint;
    /// Writes constraint `c`, number `index`, to lane `l`.
    fn set_lane(&mut self, l: usize, index: u32, c: &Self::Constraint);
}

/// Writes constraints `members` to the lanes of `bundle`, one per lane in
/// order, each as `prepare` gives it; the other lanes are left unused.
#[inline(always)]
pub(crate) fn fill_lanes<B: LaneConstraints>(
    bundle: &mut B,
    members: &[u32],
    prepare: &impl ConstraintSource<B::Constraint>,
) {
    *bundle = B::EMPTY;
    for (l, &member) in members.iter().enumerate() {
        bundle.set_lane(l, member, &prepare.constraint(member));
    }
}

/// Where [`fill_lanes`] gets constraint `i` from. Any `Fn(u32) -> C`
/// is one.
pub(crate) trait ConstraintSource<C>: Sync {
    /// Constraint `i`, prepared.
    fn constraint(&self, i: u32) -> C;
}

impl<C, F: Fn(u32) -> C + Sync> ConstraintSource<C> for F {
    #[inline(always)]
    fn constraint(&self, i: u32) -> C {
        self(i)
    }
}

/// Bundles per task when packing on several threads.
const PACK_CHUNK: usize = 64;

/// How many bundles ahead of the one being filled [`fill_bundles`] names the
/// constraints to fetch.
const AHEAD: usize = 2;

/// Sizes `bundles` for the coloured constraints, colour by colour: colour
/// `c`'s bundles are to be `bundles[starts[c]..starts[c + 1]]`. The overflow
/// colour, whose constraints may share bodies, gets one constraint per
/// bundle. What the bundles hold is left to [`fill_bundles`].
pub(crate) fn size_bundles<B: LaneBundle>(
    coloring: &ColorOrder,
    bundles: &mut Vec<B>,
    starts: &mut [usize; COLOR_COUNT + 1],
) {
    starts[0] = 0;
    for color in 0..COLOR_COUNT {
        let count = coloring.starts[color + 1] - coloring.starts[color];
        starts[color + 1] = starts[color] + count.div_ceil(width::<B>(color));
    }
    let total = starts[COLOR_COUNT];
    bundles.truncate(total);
    bundles.resize(total, B::EMPTY);
}

/// Constraints per bundle in colour `color`.
fn width<B: LaneBundle>(color: usize) -> usize {
    if color == OVERFLOW { 1 } else { B::WIDTH }
}

/// Fills `bundles`, which are the sized bundles (see [`size_bundles`]) from
/// number `first` on, from their constraints: `fill(bundle, members)`
/// writes the constraints `members` to `bundle`, one per lane, and
/// completes it ([`LaneBundle::finish`]). Each bundle depends only on its
/// own constraints, so any part of the list can be filled apart from the
/// rest.
///
/// Colour order visits the constraints' records out of memory order, so
/// before filling a bundle, `ahead(i)` is called for each constraint `i` of
/// the bundle [`AHEAD`] places on: it may ask for their data to be fetched
/// (a prefetch), which then arrives while this bundle is being filled.
pub(crate) fn fill_bundles<B: LaneBundle>(
    coloring: &ColorOrder,
    starts: &[usize; COLOR_COUNT + 1],
    first: usize,
    bundles: &mut [B],
    fill: &impl Fn(&mut B, &[u32]),
    ahead: &impl Fn(u32),
) {
    let total = starts[COLOR_COUNT];
    if bundles.is_empty() {
        return;
    }
    // The members of bundle `i` of colour `color`.
    let members = |i: usize, color: usize| {
        let first = coloring.starts[color] + (i - starts[color]) * width::<B>(color);
        let last = (first + width::<B>(color)).min(coloring.starts[color + 1]);
        &coloring.order[first..last]
    };
    // The colour of the first bundle is found once; the walk goes on from there.
    let color_of = |i: usize| starts.partition_point(|&s| s <= i) - 1;
    let mut color = color_of(first);
    let mut ahead_color = color_of((first + AHEAD).min(total - 1));
    for (i, bundle) in (first..).zip(bundles) {
        while starts[color + 1] <= i {
            color += 1;
        }
        if i + AHEAD < total {
            while starts[ahead_color + 1] <= i + AHEAD {
                ahead_color += 1;
            }
            members(i + AHEAD, ahead_color).iter().for_each(|&m| ahead(m));
        }
        fill(bundle, members(i, color));
    }
}

/// Sizes and fills the bundles of the coloured constraints (see
/// [`size_bundles`] and [`fill_bundles`]), in parallel chunks where there
/// are many and `threads` let them share.
pub(crate) fn pack_bundles<B, F, A, E>(
    coloring: &ColorOrder,
    bundles: &mut Vec<B>,
    starts: &mut [usize; COLOR_COUNT + 1],
    prepare: F,
    ahead: A,
    finish: E,
    threads: Threads,
) where
    B: LaneConstraints,
    F: ConstraintSource<B::Constraint>,
    A: Fn(u32) + Sync,
    E: Fn(&mut B) + Sync,
{
    size_bundles(coloring, bundles, starts);
    let starts = &*starts;
    let lanes = |bundle: &mut B, members: &[u32]| {
        fill_lanes(bundle, members, &prepare);
        finish(bundle);
    };
    let fill = |(chunk, bundles): (usize, &mut [B])| {
        fill_bundles(coloring, starts, chunk * PACK_CHUNK, bundles, &lanes, &ahead);
    };
    if !threads.share(bundles.len(), 2 * PACK_CHUNK) {
        fill((0, &mut bundles[..]));
    } else {
        bundles.par_chunks_mut(PACK_CHUNK).enumerate().for_each(fill);
    }
}
