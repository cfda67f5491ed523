//! The world's face of the contact hooks and material rules: setting and
//! clearing them. What they are, when they are asked and what they may do
//! is `hooks.rs`.

use std::sync::Arc;

use lamina_geometry::Real;

use crate::hooks::PreSolve;
use crate::{Collider, World};

impl World {
    /// Sets the custom filter: asked once about each new pair of colliders
    /// one of which has [`enable_custom_filter`](crate::ColliderDesc::enable_custom_filter),
    /// when their broad-phase boxes begin to overlap (after the collision
    /// filter's bits, which it cannot overrule to make a pair collide), with
    /// the colliders in key order; `false` and the pair never collides while
    /// the boxes overlap. Replaces the filter set before. Pairs that already
    /// have contacts keep them. See the module `hooks` for what a hook may do.
    pub fn set_custom_filter<F>(&mut self, filter: F)
    where
        F: Fn(&Collider, &Collider) -> bool + Send + Sync + 'static,
    {
        self.hooks.custom_filter = Some(Arc::new(filter));
    }

    /// Removes the custom filter: every pair the collision filter allows collides.
    pub fn clear_custom_filter(&mut self) {
        self.hooks.custom_filter = None;
    }

    /// Sets the pre-solve hook: asked each step about each touching contact
    /// one of whose colliders has [`enable_pre_solve`](crate::ColliderDesc::enable_pre_solve)
    /// (never a sensor's), and before continuous collision stops a fast body
    /// at such a collider; `false` and the contact is not solved this step
    /// (or the fast body passes). Replaces the hook set before. A one-way
    /// platform `p`: `move |c| c.normal_from(p).is_none_or(|n| n.y > 0.7)`
    /// (solid only for what comes down onto it).
    pub fn set_pre_solve<F>(&mut self, hook: F)
    where
        F: Fn(&PreSolve) -> bool + Send + Sync + 'static,
    {
        self.hooks.pre_solve = Some(Arc::new(hook));
    }

    /// Removes the pre-solve hook: every touching contact is solved.
    pub fn clear_pre_solve(&mut self) {
        self.hooks.pre_solve = None;
    }

    /// Sets the friction rule: each new contact's friction is `rule(a, b)`
    /// (the colliders in key order) instead of the world's
    /// [`friction_mixing`](crate::WorldSettings::friction_mixing), kept
    /// within `[0, MAX_COEFFICIENT]`; a NaN falls back to the mix. A rule of
    /// surfaces: `user_data` as a material id, a table of coefficients per
    /// pair of materials (tyres on ice, on asphalt), as Box2D's friction
    /// callback. Asked for every new contact; contacts made before keep
    /// their friction.
    pub fn set_friction_rule<F>(&mut self, rule: F)
    where
        F: Fn(&Collider, &Collider) -> Real + Send + Sync + 'static,
    {
        self.hooks.friction_rule = Some(Arc::new(rule));
    }

    /// Sets the restitution rule, as [`World::set_friction_rule`] does friction's.
    pub fn set_restitution_rule<F>(&mut self, rule: F)
    where
        F: Fn(&Collider, &Collider) -> Real + Send + Sync + 'static,
    {
        self.hooks.restitution_rule = Some(Arc::new(rule));
    }

    /// Removes the friction and restitution rules: the world's mixes again.
    pub fn clear_material_rules(&mut self) {
        self.hooks.friction_rule = None;
        self.hooks.restitution_rule = None;
    }
}
