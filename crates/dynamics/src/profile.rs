//! Counters and per-stage timings of the last step.

use std::time::Duration;

/// What the last [`crate::World::step`] did and where its time went.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepProfile {
    /// The whole step.
    pub step: Duration,
    /// Broad phase: the bounds of bodies moved or woken since the last step,
    /// pair updates, contact creation and removal.
    pub broad_phase: Duration,
    /// Narrow phase: manifold updates.
    pub narrow_phase: Duration,
    /// Constraint preparation and the substeps.
    pub solver: Duration,
    /// The part of [`StepProfile::solver`] spent on the solver's team of
    /// threads: preparing the contacts into their SIMD bundles, the
    /// substeps, restitution, and gathering the contacts' impulses (the
    /// rest: listing and colouring the constraints, preparing the joints,
    /// writing the impulses back).
    pub substeps: Duration,
    /// Writing poses back, bounding boxes, broad-phase proxies.
    pub finalize: Duration,
    /// Islands and sleep.
    pub sleep: Duration,
    /// Bodies simulated (awake, not fixed).
    pub awake_bodies: usize,
    /// Contacts alive (pairs of overlapping fat boxes).
    pub contacts: usize,
    /// Contacts with manifold points and an awake body (sensors' included):
    /// the contacts of sleeping islands are not looked at.
    pub touching_contacts: usize,
    /// Contact constraints solved.
    pub constraints: usize,
    /// Joints solved (those with an awake body).
    pub joints: usize,
    /// Bodies that moved fast enough to be swept by continuous collision.
    pub fast_bodies: usize,
    /// Bodies the solver could not move to a finite state (extreme but
    /// finite input: a body 1e38 m from its mouse joint's target, say), held
    /// where they were instead, at rest, with their joints' and contacts'
    /// impulses cleared. Zero in any sensible scene; see
    /// `docs/reliability.md`.
    pub held_bodies: usize,
    /// Whether the step ran on the calling thread alone: by its pace's
    /// choice or try, though it had work enough to share with the pool (see
    /// [`crate::World::step`]), or because the world was set to
    /// [`Sharing::Never`](crate::Sharing::Never). The result is the same
    /// bits either way.
    pub ran_alone: bool,
}
