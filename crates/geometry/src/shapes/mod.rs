//! The concrete shapes, one file each.

pub mod capsule;
pub mod chain_segment;
pub mod circle;
pub mod ellipse;
pub mod polygon;
pub mod segment;
