//! Dedicated pair functions, one file per pair of shape kinds.

mod boxes;
mod chain;
mod circles;
mod polygon_circle;
mod polygons;
mod segments;

pub use boxes::{BoxView, collide_boxes};
pub(crate) use boxes::{box_manifold, box_manifold_and_gap};
pub use chain::{collide_chain_segment, collide_chain_segment_continuing};
pub use circles::collide_circles;
pub use polygon_circle::collide_circle_polygon;
pub use polygons::{ClipFeatures, clip_features, collide_polygons};
pub use segments::{SegmentView, collide_segments};
