//! Contact hooks: the user's say over which pairs collide and which contacts
//! are solved, asked only about the colliders that opt in.
//!
//! Two hooks, as in Box2D v3:
//!
//! - the **custom filter**
//!   ([`World::set_custom_filter`](crate::World::set_custom_filter)) is
//!   asked once, when the broad-phase boxes of two colliders begin to
//!   overlap and one of them has [`ColliderDesc::enable_custom_filter`](crate::ColliderDesc::enable_custom_filter);
//!   `false` and the pair makes no contact until the boxes part and meet
//!   again. Gameplay rules that the category bits cannot say (a player's
//!   shots pass through its own team) go here.
//! - the **pre-solve** hook
//!   ([`World::set_pre_solve`](crate::World::set_pre_solve)) is asked
//!   every step about every touching contact of a collider with
//!   [`ColliderDesc::enable_pre_solve`](crate::ColliderDesc::enable_pre_solve),
//!   after its manifold is refreshed; `false` and the contact is not solved
//!   this step (it does not touch: no impulse, no begin-touch event, no
//!   island link). It is asked too before continuous collision would stop a
//!   fast body at such a collider, so that a one-way platform lets a bullet
//!   through from below as it lets a walking body through.
//!
//! Besides them, **material rules**
//! ([`World::set_friction_rule`](crate::World::set_friction_rule),
//! [`World::set_restitution_rule`](crate::World::set_restitution_rule)) give
//! each new contact its friction or restitution from its two colliders (a table of surfaces), in place of
//! the world's mixing rule, as Box2D's friction and restitution callbacks.
//!
//! Opting in per collider keeps the cost where it is wanted: a hook costs
//! an indirect call per pair or contact it is asked about, and nothing for
//! the rest (Box2D made its custom filter opt-in for that reason).
//!
//! The world's face that sets them is `world/hooks.rs`.
//!
//! The pre-solve hook runs on the step's worker threads, several at once;
//! the custom filter is asked on the calling thread as pairs begin, in key
//! order, but is held to the same rule so that the stage that makes contacts
//! may move to the pool: both are `Fn + Send + Sync`. A hook that is a pure function of its arguments (and
//! of data it captured and does not change) gives the same results on any
//! number of threads. A hook cannot reach the world: it may read what it is
//! given and what it captured, count through atomics, or send to a channel;
//! what it does must not depend on the order in which it is asked. Hooks are
//! not part of a snapshot (a restored world has none until they are set
//! again); a clone of the world shares them.

use std::sync::Arc;

use lamina_geometry::{Real, Vec2};

use crate::collider::MAX_COEFFICIENT;
use crate::contact::ContactPointState;
use crate::{BodyKey, Collider, ColliderKey, WorldKey};

/// The custom filter: may two colliders' pair collide?
pub type CustomFilterFn = dyn Fn(&Collider, &Collider) -> bool + Send + Sync;

/// The pre-solve hook: is this contact solved this step?
pub type PreSolveFn = dyn Fn(&PreSolve) -> bool + Send + Sync;

/// A material rule: the friction or restitution coefficient of a contact
/// between two colliders, in place of the world's [`MixRule`](crate::MixRule).
pub type MaterialRuleFn = dyn Fn(&Collider, &Collider) -> Real + Send + Sync;

/// A contact about to be solved, as the pre-solve hook sees it.
#[derive(Clone, Copy, Debug)]
pub struct PreSolve<'a> {
    /// The first collider: the normal points away from it.
    pub collider_a: ColliderKey,
    /// The second collider.
    pub collider_b: ColliderKey,
    /// The first collider's body.
    pub body_a: BodyKey,
    /// The second collider's body.
    pub body_b: BodyKey,
    /// Unit normal from A to B, world frame.
    pub normal: Vec2,
    /// The manifold's points (their impulses are last step's). For a
    /// continuous hit, one point where the shapes would meet, with zero
    /// separation and no impulse.
    pub points: &'a [ContactPointState],
    /// True when continuous collision asks, before it stops B's body (the
    /// fast one) at A; false for a contact of the step's narrow phase.
    pub continuous: bool,
}

impl PreSolve<'_> {
    /// The normal pointing away from `collider`, one of the pair, toward
    /// the other (a one-way platform asks whether it points up from the
    /// platform); `None` for a collider of neither side.
    pub fn normal_from(&self, collider: ColliderKey) -> Option<Vec2> {
        if collider == self.collider_a && collider.world() == self.collider_a.world() {
            Some(self.normal)
        } else if collider == self.collider_b && collider.world() == self.collider_b.world() {
            Some(-self.normal)
        } else {
            None
        }
    }

    /// The smallest separation among the points (negative when they
    /// overlap), m; infinite without points.
    pub fn separation(&self) -> Real {
        self.points.iter().map(|p| p.separation).fold(Real::INFINITY, |a, b| a.min(b))
    }
}

/// The world's hooks; cloning shares them.
#[derive(Clone, Default)]
pub(crate) struct Hooks {
    pub custom_filter: Option<Arc<CustomFilterFn>>,
    pub pre_solve: Option<Arc<PreSolveFn>>,
    pub friction_rule: Option<Arc<MaterialRuleFn>>,
    pub restitution_rule: Option<Arc<MaterialRuleFn>>,
}

impl Hooks {
    /// False when the custom filter is set, one of the colliders opts in
    /// and the filter refuses the pair (asked with the colliders in key order).
    #[inline]
    pub fn pair_allowed(&self, a: &Collider, b: &Collider) -> bool {
        match &self.custom_filter {
            Some(filter) if a.custom_filter || b.custom_filter => filter(a, b),
            _ => true,
        }
    }

    /// False when the pre-solve hook is set and refuses the contact; the
    /// caller asks only about contacts one of whose colliders opts in.
    #[inline]
    pub fn solve_allowed(&self, contact: &PreSolve<'_>) -> bool {
        self.pre_solve.as_ref().is_none_or(|hook| hook(contact))
    }

    /// The friction of a new contact between `a` and `b`: the rule's, where
    /// one is set, within `[0, MAX_COEFFICIENT]` (a rule's NaN gives
    /// `mixed`), else `mixed`, the world's mix.
    #[inline]
    pub fn friction(&self, a: &Collider, b: &Collider, mixed: Real) -> Real {
        ruled(self.friction_rule.as_deref(), a, b, mixed)
    }

    /// The restitution of a new contact, as [`Hooks::friction`].
    #[inline]
    pub fn restitution(&self, a: &Collider, b: &Collider, mixed: Real) -> Real {
        ruled(self.restitution_rule.as_deref(), a, b, mixed)
    }

    /// True when a pre-solve hook is set.
    #[inline]
    pub fn has_pre_solve(&self) -> bool {
        self.pre_solve.is_some()
    }
}

/// `rule`'s coefficient for `a` and `b` kept within what a collider may
/// have, or `mixed` without a rule or for a rule's NaN.
fn ruled(rule: Option<&MaterialRuleFn>, a: &Collider, b: &Collider, mixed: Real) -> Real {
    match rule.map(|rule| rule(a, b)) {
        Some(value) if !value.is_nan() => value.clamp(0.0, MAX_COEFFICIENT),
        _ => mixed,
    }
}
