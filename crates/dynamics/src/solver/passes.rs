//! The solver's passes over bundles of SIMD lanes, whatever their width:
//! warm start, solve (with the position bias or without it, the relax) and
//! restitution, for contacts, plain point joints and revolute joints alike.
//! `lane_width.rs` runs them on four or eight lanes.

use lamina_geometry::Real;

use super::body_state::States;
use super::contact_bundle::{ContactBundle, ContactSoftness};
use super::joints::point_bundle::PointJointBundle;
use super::joints::revolute_bundle::RevoluteBundle;
use super::lanes::Lanes;
use crate::narrow_phase::SolverManifold;

/// One pass of the solver over bundles of any width: contacts and plain
/// point joints.
pub(crate) trait LanePass: Sync {
    /// Runs the pass on one bundle of contacts.
    fn contacts<W: Lanes>(&self, bundle: &mut ContactBundle<W>, states: &States);
    /// Runs the pass on one bundle of point joints.
    fn points<W: Lanes>(&self, bundle: &mut PointJointBundle<W>, states: &States);
    /// Runs the pass on one bundle of revolute joints with angular rows.
    fn revolutes<W: Lanes>(&self, bundle: &mut RevoluteBundle<W>, states: &States);
}

/// Applies the impulses accumulated in the last step.
pub(crate) struct WarmStart;

impl LanePass for WarmStart {
    #[inline(always)]
    fn contacts<W: Lanes>(&self, bundle: &mut ContactBundle<W>, states: &States) {
        bundle.warm_start(states);
    }
    #[inline(always)]
    fn points<W: Lanes>(&self, bundle: &mut PointJointBundle<W>, states: &States) {
        bundle.warm_start(states);
    }
    #[inline(always)]
    fn revolutes<W: Lanes>(&self, bundle: &mut RevoluteBundle<W>, states: &States) {
        bundle.warm_start(states);
    }
}

/// One pass of sequential impulses, with the position bias (the contacts'
/// softness and the fastest push out of an overlap, m/s) or without it.
pub(crate) struct Solve {
    pub inv_h: Real,
    pub bias: Option<(ContactSoftness, Real)>,
}

impl LanePass for Solve {
    #[inline(always)]
    fn contacts<W: Lanes>(&self, bundle: &mut ContactBundle<W>, states: &States) {
        bundle.solve(states, self.inv_h, self.bias.as_ref().map(|(softness, push)| (softness, *push)));
    }
    #[inline(always)]
    fn points<W: Lanes>(&self, bundle: &mut PointJointBundle<W>, states: &States) {
        bundle.solve(states, self.bias.is_some());
    }
    #[inline(always)]
    fn revolutes<W: Lanes>(&self, bundle: &mut RevoluteBundle<W>, states: &States) {
        bundle.solve(states, self.inv_h, self.bias.is_some());
    }
}

/// Restitution of the points that approached faster than `threshold`
/// (joints have none), each contact's read off its solver manifold (contact
/// `i`'s is `manifolds[places[i]]`).
pub(crate) struct Restitution<'a> {
    pub threshold: Real,
    pub manifolds: &'a [SolverManifold],
    pub places: &'a [u32],
}

impl LanePass for Restitution<'_> {
    #[inline(always)]
    fn contacts<W: Lanes>(&self, bundle: &mut ContactBundle<W>, states: &States) {
        bundle.apply_restitution(states, self.threshold, |i, r| {
            self.manifolds[self.places[i as usize] as usize].row(r)
        });
    }
    #[inline(always)]
    fn points<W: Lanes>(&self, _: &mut PointJointBundle<W>, _: &States) {}
    #[inline(always)]
    fn revolutes<W: Lanes>(&self, _: &mut RevoluteBundle<W>, _: &States) {}
}
