//! Independent oracles for the narrow-phase tests (in `oracle.rs`, shared
//! with the fuzz targets) and the proptest strategies that feed them.
#![allow(dead_code, clippy::unnecessary_cast)]

mod oracle;

pub use oracle::*;

use lamina_geometry::{Isometry, Point, Real, Shape, Vec2};
use proptest::prelude::*;

pub fn coord(range: f64) -> impl Strategy<Value = Real> {
    (-range..range).prop_map(|v| v as Real)
}

/// A random convex polygon of 3 to `max` vertices around the origin, within `size`.
pub fn polygon(max: usize, size: f64) -> impl Strategy<Value = Shape> {
    prop::collection::vec((coord(size), coord(size)), 3..max)
        .prop_filter_map("spans an area", |pts| {
            let pts: Vec<Point> = pts.into_iter().map(|(x, y)| p(x, y)).collect();
            Shape::polygon(&pts).ok()
        })
        .prop_filter("not a sliver", |s| s.mass_properties(1.0).mass > 0.05)
}

pub fn pose(range: f64) -> impl Strategy<Value = Isometry> {
    (coord(range), coord(range), 0.0..6.3f64).prop_map(|(x, y, a)| Isometry::new(Vec2::new(x, y), a as Real))
}
