//! Lamina's broad phase: incremental sweep-and-prune over fat AABBs, with a
//! persistent pair set that reports only the pairs that began or ended.
//!
//! # What a broad phase is for
//!
//! Exact collision tests (GJK, EPA, clipping) are expensive, and in a scene of `n`
//! bodies there are `n²/2` candidate pairs, of which only a handful touch. The
//! broad phase cheaply finds the pairs whose axis-aligned bounding boxes overlap,
//! and the narrow phase looks only at those. This crate knows boxes and the
//! caller's opaque keys; it knows nothing of shapes or bodies.
//!
//! # How it works
//!
//! - **Fat boxes.** Each proxy stores its tight box grown by a margin
//!   ([`BroadPhaseSettings::margin`]; [`LONELY_MARGIN_SCALE`] times it for a
//!   proxy whose filter accepts none of the categories present, which can
//!   make no pair). [`SweepAndPrune::update`] only moves the
//!   proxy when the tight box leaves the fat box, so a body at rest, or one that
//!   jitters by less than the margin, costs one box comparison.
//! - **Sorted axes.** Proxies are kept sorted by their lower end point along a
//!   sweep axis (`sorted_axis.rs`). A moved proxy is walked to its new place, one pass of
//!   insertion sort, which on the nearly sorted data of a simulation step is
//!   close to free. Overlap along the sweep axis is confirmed on the other axis.
//! - **Regions.** The world is cut into a sparse grid of square regions
//!   (`region.rs`), each with its own sorted axis and its own choice of axis
//!   (the one along which its proxies spread most, re-chosen as they move). A
//!   crowded column therefore costs only the regions it crosses, and inside them
//!   it is swept along its length. Proxies longer than a quarter of a region live
//!   in a short separate list.
//! - **Persistent pairs.** A pair changes only when one of its proxies moves, so
//!   [`SweepAndPrune::update_pairs`] asks each moved proxy what it overlaps now,
//!   compares with the partners it had (`pair_set.rs`), and reports the
//!   difference as [`PairEvent`]s, sorted by key.
//!
//! # Example
//!
//! ```
//! use lamina_broadphase::{PairEvent, SweepAndPrune};
//! use lamina_geometry::{Aabb, Point, Real};
//!
//! let unit_at = |x: Real| Aabb::new(Point::new(x, 0.0), Point::new(x + 1.0, 1.0));
//! let mut sap = SweepAndPrune::<u32>::new();
//! sap.insert(1, unit_at(0.0))?;
//! sap.insert(2, unit_at(3.0))?;
//! let mut events = Vec::new();
//! sap.update_pairs(&mut events);
//! assert!(events.is_empty());
//!
//! sap.update(2, unit_at(0.5))?; // body 2 slides onto body 1
//! sap.update_pairs(&mut events);
//! assert_eq!(events, vec![PairEvent::Begin(1, 2)]);
//!
//! sap.update_pairs(&mut events); // nothing moved: nothing to report
//! assert!(events.is_empty());
//! # Ok::<(), lamina_broadphase::BroadPhaseError<u32>>(())
//! ```
//!
//! # Guarantees
//!
//! - **Deterministic.** Hash maps are used only to find things, never iterated to
//!   produce output; events, pairs and query results are sorted by key. The same
//!   calls give the same results, bit for bit.
//! - **Bad input is refused, not absorbed.** Non-finite or inverted boxes, unknown
//!   or duplicate keys, and bad rays return a [`BroadPhaseError`] naming the value,
//!   and the structure is left exactly as it was.
//! - **No allocation once warm.** `update_pairs` and the queries reuse buffers.
//!
//! `docs/broadphase.md` in the repository explains the choices, with a figure.

#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

mod cell;
mod error;
mod event;
mod hash;
#[cfg(any(test, feature = "serde"))]
mod invariants;
mod movers;
mod pair_set;
mod proxy;
mod query;
mod refit_batch;
mod refit_plan;
mod region;
mod settings;
mod sorted_axis;
mod spread;
#[cfg(feature = "serde")]
mod state_columns;
#[cfg(feature = "serde")]
mod stored;
mod sweep_and_prune;
#[cfg(test)]
mod test_rng;
#[cfg(feature = "serde")]
mod to_columns;

pub use error::BroadPhaseError;
pub use event::PairEvent;
pub use proxy::{PairFilter, ProxyHint};
pub use refit_batch::{Refit, RefitBatch, RefitResult};
pub use settings::{BroadPhaseSettings, DEFAULT_REGION_SIZE, LONELY_MARGIN_SCALE};
#[cfg(feature = "serde")]
pub use state_columns::StateColumns;
pub use sweep_and_prune::{RegionView, SweepAndPrune};
