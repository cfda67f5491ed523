//! Tests of the region grid's cell coordinates.

use super::*;

/// A cell coordinate is the floor of the scaled coordinate, clamped to
/// ±`CELL_LIMIT`, with NaN at the lower clamp: checked against the floor
/// taken in `f64` on exact multiples of the size, their neighbours,
/// signed zeros, values past the clamp, infinities and NaN.
#[test]
fn cell_coordinates_are_clamped_floors() {
    let grid = RegionGrid::new(16.0);
    let limit = f64::from(CELL_LIMIT);
    let expected = |v: Real| {
        #[allow(clippy::useless_conversion)] // `Real` is `f64` in that build
        let c = f64::from(v * grid.inv_size);
        if c.is_nan() { -CELL_LIMIT } else { c.floor().clamp(-limit, limit) as i32 }
    };
    let mut values =
        vec![0.0, -0.0, Real::INFINITY, Real::NEG_INFINITY, Real::MAX, Real::MIN, 1.0e12, -1.0e12];
    for k in -40..40 {
        let v = k as Real * 16.0;
        values.extend([v, v.next_up(), v.next_down(), v + 0.5, v - 0.5]);
    }
    let mut rng = crate::test_rng::Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..1000 {
        values.push((rng.unit() - 0.5) * 2.0e4);
    }
    for v in values {
        assert_eq!(grid.cell_coord(v), expected(v), "coordinate {v}");
    }
    assert_eq!(grid.cell_coord(Real::NAN), -CELL_LIMIT);
}

/// Where a cell begins is, by definition, the least coordinate whose cell
/// coordinate reaches it: checked against the coordinate one unit in the
/// last place below, on sizes that are not powers of two, for cells near
/// zero, near where `f32` stops resolving cells, and at the clamps. And
/// the corner from which a region owns pairs gives, for boxes that both
/// belong to it, the answer of the owner point's cell.
#[test]
fn cells_begin_where_their_coordinates_are_first_reached() {
    for size in [16.0, 0.37, 3.0] {
        let grid = RegionGrid::new(size);
        let mut cells: Vec<i32> = (-70..70).collect();
        for c in [1 << 20, 1 << 24, (1 << 24) + 3, (1 << 27) + 5, CELL_LIMIT - 1, CELL_LIMIT] {
            cells.extend([c, -c]);
        }
        for c in cells {
            let start = grid.cell_start(c);
            assert!(grid.cell_coord(start) >= c, "size {size}, cell {c}: starts at {start}");
            if c > -CELL_LIMIT {
                assert!(
                    grid.cell_coord(start.next_down()) < c,
                    "size {size}, cell {c}: starts below {start}"
                );
            }
        }
        let mut rng = crate::test_rng::Rng(0x2545_f491_4f6c_dd1d);
        let mut coordinate = || (rng.unit() - 0.5) * 4.0 * size;
        let mut checked = 0;
        for _ in 0..2000 {
            let corner = |x: Real, y: Real| Aabb::new(Point::new(x, y), Point::new(x + size, y + size));
            let (a, b) = (corner(coordinate(), coordinate()), corner(coordinate(), coordinate()));
            let cell = Cell {
                x: grid.cell_coord(a.maxs.x.min(b.maxs.x)),
                y: grid.cell_coord(a.maxs.y.min(b.maxs.y)),
            };
            // Both boxes belong to the region of `cell` when their lower
            // corners lie in it or below it.
            let members = [a, b].iter().all(|m| {
                let low = grid.cell_of(m.mins.x, m.mins.y);
                low.x <= cell.x && low.y <= cell.y
            });
            if !members {
                continue;
            }
            let (x, y) = (a.mins.x.max(b.mins.x), a.mins.y.max(b.mins.y));
            let (from_x, from_y) = grid.owned_from(cell);
            assert_eq!(x >= from_x && y >= from_y, grid.cell_of(x, y) == cell, "{a:?} and {b:?} in {cell:?}");
            checked += 1;
        }
        assert!(checked > 500, "{checked} pairs of members checked");
    }
}
