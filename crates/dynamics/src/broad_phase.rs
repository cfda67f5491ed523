//! The world's broad phase: the sweep-and-prune of every collider, whose
//! pairs become contacts, and the index of the colliders of fixed and
//! kinematic bodies alone, which continuous collision sweeps fast bodies
//! against; with the upkeep of both, in one place: colliders registered and
//! taken out, their bounds refreshed at their bodies' poses, and proxies
//! moved when the bounds leave them.

use lamina_broadphase::{PairEvent, PairFilter, ProxyHint, Refit, RegionView, SweepAndPrune};
use lamina_geometry::tolerance::WORLD_AABB_MARGIN;
use lamina_geometry::{Aabb, Isometry, Real};

use crate::body::{Body, BodyKind};
use crate::collider::Collider;
use crate::keys::Untagged;
use crate::tagged_map::TaggedMap;
use crate::{BodyKey, ColliderKey};

/// A collider's key in the broad phase: its slot without the world's tag
/// (`keys.rs`), as every proxy, pair and pair event holds one; the world
/// stamps it back ([`ProxyKey::in_world`]) where a key leaves.
pub(crate) type ProxyKey = Untagged<ColliderKey>;

/// The pair filter of the immovable index's proxies: they pair with nothing,
/// so its `update_pairs` only keeps its regions in order.
const NO_PAIRS: PairFilter = PairFilter { category: 0, mask: 0 };

/// The world's two sweep-and-prunes over its colliders.
#[derive(Clone)]
pub(crate) struct BroadPhase {
    /// Every collider.
    all: SweepAndPrune<ProxyKey>,
    /// The colliders of fixed and kinematic bodies again, with the same
    /// bounds, for continuous collision's sweeps against them alone. It
    /// never makes pairs.
    immovable: SweepAndPrune<ProxyKey>,
}

impl Default for BroadPhase {
    fn default() -> Self {
        let all = SweepAndPrune::with_margin(WORLD_AABB_MARGIN).unwrap_or_else(|_| SweepAndPrune::new());
        Self { immovable: all.clone(), all }
    }
}

impl BroadPhase {
    /// The broad phase of `all` and `immovable` (a snapshot's, read back).
    #[cfg(feature = "serde")]
    pub(crate) fn from_parts(all: SweepAndPrune<ProxyKey>, immovable: SweepAndPrune<ProxyKey>) -> Self {
        Self { all, immovable }
    }

    /// Every collider: what the world's queries search.
    #[inline]
    pub(crate) fn all(&self) -> &SweepAndPrune<ProxyKey> {
        &self.all
    }

    /// The colliders of fixed and kinematic bodies.
    #[inline]
    pub(crate) fn immovable(&self) -> &SweepAndPrune<ProxyKey> {
        &self.immovable
    }

    /// Whether both share their work with the rayon pool (see
    /// [`SweepAndPrune::set_shares_work`]).
    pub(crate) fn set_shares_work(&mut self, shares: bool) {
        self.all.set_shares_work(shares);
        self.immovable.set_shares_work(shares);
    }

    /// The regions of the grid of every collider, as tools draw them.
    pub(crate) fn regions(&self) -> impl Iterator<Item = RegionView> + '_ {
        self.all.regions()
    }

    /// Registers collider `key` (`c`, on a fixed or kinematic body when
    /// `immovable`) at its bounds, and tells it where its proxy is. False,
    /// with nothing registered, for bounds the broad phase refuses.
    pub(crate) fn insert(&mut self, key: ColliderKey, c: &mut Collider, immovable: bool) -> bool {
        let key = ProxyKey::of(key);
        if self.all.insert_filtered(key, c.aabb, c.filter.pair_filter()).is_err() {
            return false;
        }
        if let (Some(fat), Some(hint)) = (self.all.fat_aabb(key), self.all.hint(key)) {
            c.proxy_box = fat;
            c.proxy_hint = hint;
        }
        if immovable {
            let _ = self.immovable.insert_filtered(key, c.aabb, NO_PAIRS);
        }
        true
    }

    /// Takes collider `key` out of both.
    pub(crate) fn remove(&mut self, key: ColliderKey) {
        let key = ProxyKey::of(key);
        let _ = self.all.remove(key);
        let _ = self.immovable.remove(key);
    }

    /// Whether the fat boxes of colliders `a` and `b` overlap (`a < b`).
    pub(crate) fn contains_pair(&self, a: ColliderKey, b: ColliderKey) -> bool {
        self.all.contains_pair(ProxyKey::of(a), ProxyKey::of(b))
    }

    /// The pairs that began and ended since the last call, ends first
    /// (the immovable index only keeps its regions in order).
    pub(crate) fn update_pairs(&mut self, events: &mut Vec<PairEvent<ProxyKey>>) {
        self.immovable.update_pairs(events);
        self.all.update_pairs(events);
    }

    /// Gives every collider of body `b` (of `colliders`) its bounds at the
    /// body's pose, grown by `margin` (the speculative distance, within
    /// which contact points begin), and moves its proxies if needed.
    /// `first`, when given, is the first collider's bounds, already computed.
    pub(crate) fn refresh(
        &mut self,
        b: &mut Body,
        colliders: &mut TaggedMap<ColliderKey, Collider>,
        first: Option<FirstBounds>,
        margin: Real,
    ) {
        b.bounds_stale = false;
        let (pose, immovable) = (b.pose, b.kind != BodyKind::Dynamic);
        for (n, &ck) in b.colliders.iter().enumerate() {
            let c = &mut colliders[ck];
            match first {
                Some(first) if n == 0 => {
                    c.aabb = first.aabb;
                    if first.inside_proxy {
                        continue; // the broad phase would leave its proxy as it is
                    }
                }
                _ => c.aabb = contact_bounds(c, &pose, margin),
            }
            let ck = ProxyKey::of(ck);
            if let Ok((moved, hint)) = self.all.refit_hinted(ck, c.proxy_hint, c.aabb) {
                c.proxy_hint = hint;
                if let Some(fat) = moved {
                    c.proxy_box = fat;
                }
            }
            if immovable {
                let _ = self.immovable.update(ck, c.aabb);
            }
        }
    }

    /// Refreshes the bounds of the bodies of `bodies` whose bounds are stale
    /// (added or moved since the last step, asleep or not), listed first in
    /// `stale` (scratch): bounds hold a body where it is, so they need not
    /// wait for it to wake.
    pub(crate) fn refresh_stale(
        &mut self,
        bodies: &mut TaggedMap<BodyKey, Body>,
        colliders: &mut TaggedMap<ColliderKey, Collider>,
        margin: Real,
        stale: &mut Vec<BodyKey>,
    ) {
        stale.clear();
        stale.extend(bodies.iter().filter(|(_, b)| b.bounds_stale).map(|(key, _)| key));
        for &key in stale.iter() {
            self.refresh(&mut bodies[key], colliders, None, margin);
        }
    }

    /// Moves the proxies `moves` (each collider with its hint and new
    /// bounds) in one batch, putting in `outcomes`, for each in order, what
    /// its collider is to learn: the proxy's new box if it moved, and its
    /// place (`None` where the refit was refused). The colliders are not
    /// told here: each is a cache miss of its own, which
    /// [`ProxyOutcome::tell`] pays on several threads.
    pub(crate) fn refit_all(&mut self, moves: &[Refit<ProxyKey>], outcomes: &mut Vec<Option<ProxyOutcome>>) {
        outcomes.clear();
        // Exactly: the list is kept from step to step.
        outcomes.reserve_exact(moves.len());
        self.all.refit_batch().refit_all(moves, |_, result| {
            outcomes.push(result.ok().map(|(moved, hint)| ProxyOutcome { moved, hint }));
        });
    }
}

/// What a refit tells its collider: the proxy's new box, if it moved, and
/// where the broad phase keeps the proxy.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ProxyOutcome {
    moved: Option<Aabb>,
    hint: ProxyHint,
}

impl ProxyOutcome {
    /// Gives collider `c` the proxy's box and place, as the refit left them.
    #[inline]
    pub(crate) fn tell(&self, c: &mut Collider) {
        c.proxy_hint = self.hint;
        if let Some(fat) = self.moved {
            c.proxy_box = fat;
        }
    }
}

/// A body's first collider's new swept bounds.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FirstBounds {
    pub(crate) aabb: Aabb,
    /// The bounds fit in the collider's broad-phase proxy: it need not move.
    pub(crate) inside_proxy: bool,
    /// Where the broad phase keeps that proxy, as the collider last heard.
    pub(crate) hint: ProxyHint,
}

/// Collider `c`'s bounds on a body at `pose`, grown by `margin`, with
/// whether they still fit the collider's broad-phase proxy.
pub(crate) fn first_bounds(c: &Collider, pose: &Isometry, margin: Real) -> FirstBounds {
    let aabb = contact_bounds(c, pose, margin);
    FirstBounds { aabb, inside_proxy: c.proxy_box.contains(&aabb), hint: c.proxy_hint }
}

/// Collider `c`'s bounds on a body at `pose`, grown by `margin`: the reach
/// of its speculative contacts. Faster motion is continuous collision's
/// business, so the bounds need not stretch ahead with speed.
pub(crate) fn contact_bounds(c: &Collider, pose: &Isometry, margin: Real) -> Aabb {
    c.shape.aabb(&(pose * c.local_pose)).loosened(margin)
}
