//! What a batch of refits (`refit_batch.rs`) works out for each refit before
//! making any: the plan the broad phase keeps a buffer of between batches.

use lamina_geometry::{Aabb, Point};

/// What `RefitBatch::refit_all` worked out for one refit before making any.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlannedRefit {
    /// The proxy's id (`u32::MAX` for an unknown key).
    pub id: u32,
    /// Its new fat box, for `Outcome::SameCells`.
    pub fat: Aabb,
    /// The regions it is in, where its box leaves its fat box (the regions
    /// an announcement counts; none otherwise).
    pub regions: [u32; 4],
    pub count: u8,
    pub outcome: Outcome,
}

/// How a planned refit is made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Outcome {
    /// The box still fits the fat box: nothing changes.
    Fits,
    /// It leaves the fat box for a new one in the same regions of the grid.
    SameCells,
    /// `Outcome::SameCells` in regions that are all re-sorted at the end
    /// of the batch: the proxy's record has taken its new box
    /// (`SweepAndPrune::take_boxes`), and nothing else changes until then.
    TakesBox,
    /// Anything else (an error, a proxy changing regions or not in the
    /// grid): made as one refit.
    Other,
}

impl PlannedRefit {
    /// A refit made as one refit, of no known proxy, until planned.
    pub(crate) fn unset() -> PlannedRefit {
        let fat = Aabb::new(Point::origin(), Point::origin());
        PlannedRefit { id: u32::MAX, fat, regions: [0; 4], count: 0, outcome: Outcome::Other }
    }
}
