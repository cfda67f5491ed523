//! Dedicated pair functions, one file per pair of shape kinds.

pub(crate) mod boxes;
pub(crate) mod chain;
pub(crate) mod circles;
pub(crate) mod polygon_circle;
pub(crate) mod polygons;
pub(crate) mod segments;

pub use boxes::{BoxView, collide_boxes};
pub use chain::{collide_chain_segment, collide_chain_segment_continuing};
pub use circles::collide_circles;
pub use polygon_circle::collide_circle_polygon;
pub use polygons::{ClipFeatures, clip_features, collide_polygons};
pub use segments::{SegmentView, collide_segments};
