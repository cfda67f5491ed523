//! Shapes as the JavaScript classes hand them over: a kind and its numbers.
//!
//! | kind | shape   | numbers                          |
//! |------|---------|----------------------------------|
//! | 0    | Circle  | radius                           |
//! | 1    | Box     | half width, half height, radius  |
//! | 2    | Polygon | radius, then x, y of each point  |
//! | 3    | Capsule | x1, y1, x2, y2, radius           |
//! | 4    | Segment | x1, y1, x2, y2                   |
//! | 5    | Ellipse | rx, ry                           |

use lamina2d::prelude::*;
use wasm_bindgen::prelude::*;

use crate::convert::{Result, error, point, real};

/// The engine's shape of `kind` from `numbers`, checked as a collider needs.
pub fn shape(kind: u8, n: &[f64]) -> Result<Shape> {
    let want = |count: usize| {
        if n.len() == count {
            Ok(())
        } else {
            Err(error(format!("shape {kind} takes {count} numbers, got {}", n.len())))
        }
    };
    let shape = match kind {
        0 => {
            want(1)?;
            Shape::circle(real("radius", n[0])?)
        }
        1 => {
            want(3)?;
            let (w, h, r) = (real("halfWidth", n[0])?, real("halfHeight", n[1])?, real("radius", n[2])?);
            if r == 0.0 { Shape::rectangle(w, h) } else { Shape::rounded_rectangle(w, h, r) }
        }
        2 => {
            if n.is_empty() || n.len().is_multiple_of(2) {
                return Err(error("a polygon takes a radius and pairs of coordinates"));
            }
            let r = real("radius", n[0])?;
            let points: Vec<Point> = n[1..]
                .chunks_exact(2)
                .enumerate()
                .map(|(i, p)| point(&format!("points[{i}]"), p[0], p[1]))
                .collect::<Result<_>>()?;
            let shape = if r == 0.0 { Shape::polygon(&points) } else { Shape::rounded_polygon(&points, r) };
            shape.map_err(|e| error(e.to_string()))?
        }
        3 => {
            want(5)?;
            Shape::capsule(point("p1", n[0], n[1])?, point("p2", n[2], n[3])?, real("radius", n[4])?)
        }
        4 => {
            want(4)?;
            Shape::segment(point("p1", n[0], n[1])?, point("p2", n[2], n[3])?)
        }
        5 => {
            want(2)?;
            Shape::ellipse(real("rx", n[0])?, real("ry", n[1])?)
        }
        _ => return Err(error(format!("no shape kind {kind}"))),
    };
    shape.validate().map_err(|e| error(e.to_string()))?;
    Ok(shape)
}

/// Checks a shape's numbers, as its JavaScript constructor does.
#[wasm_bindgen(js_name = checkShape)]
pub fn check_shape(kind: u8, numbers: &[f64]) -> Result<()> {
    shape(kind, numbers).map(|_| ())
}

/// A polygon's hull vertices, `x0, y0, x1, y1, ...` counter-clockwise.
#[wasm_bindgen(js_name = polygonVertices)]
pub fn polygon_vertices(numbers: &[f64]) -> Result<Box<[f64]>> {
    match shape(2, numbers)? {
        Shape::Polygon(p) => Ok(p.vertices().iter().flat_map(|v| [v.x as f64, v.y as f64]).collect()),
        _ => unreachable!("kind 2 is a polygon"),
    }
}

/// `[mass, centre x, centre y, inertia]` of a shape at `density` kg/m².
#[wasm_bindgen(js_name = massProperties)]
pub fn mass_properties(kind: u8, numbers: &[f64], density: f64) -> Result<Box<[f64]>> {
    let density = real("density", density)?;
    if density < 0.0 {
        return Err(error(format!("density must not be negative, got {density}")));
    }
    let m = shape(kind, numbers)?.mass_properties(density);
    Ok(Box::new([m.mass as f64, m.center.x as f64, m.center.y as f64, m.inertia as f64]))
}
