//! The cells of the region grid: integer coordinates of a region, clamped so
//! that any finite box maps to finite cells, and inclusive rectangles of them,
//! which is how a proxy records the regions its fat box covers.

#[cfg(feature = "serde")]
use crate::state_columns::signed;

/// Cell coordinates are clamped to `±CELL_LIMIT`, so that any finite box maps to
/// finite cells and differences of cell coordinates never overflow an `i32`.
/// Boxes beyond the limit (more than 5 × 10⁸ regions from the origin) share the
/// border cells, which is slower but still exact.
pub(crate) const CELL_LIMIT: i32 = 1 << 29;

/// The integer coordinates of a region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Cell {
    pub(crate) x: i32,
    pub(crate) y: i32,
}

/// An inclusive rectangle of cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct CellRange {
    pub(crate) min: Cell,
    pub(crate) max: Cell,
}

impl CellRange {
    /// True when the range spans at most 2 × 2 cells: a proxy that may enter the grid.
    #[inline]
    pub(crate) fn fits_grid(&self) -> bool {
        self.max.x - self.min.x <= 1 && self.max.y - self.min.y <= 1
    }

    /// True when the range is one cell.
    #[inline]
    pub(crate) fn is_single(&self) -> bool {
        self.min == self.max
    }

    /// The number of cells in the range.
    #[inline]
    pub(crate) fn cell_count(&self) -> u64 {
        ((self.max.x - self.min.x) as u64 + 1) * ((self.max.y - self.min.y) as u64 + 1)
    }

    /// True when `cell` lies in the range.
    #[inline]
    pub(crate) fn contains(&self, cell: Cell) -> bool {
        self.min.x <= cell.x && cell.x <= self.max.x && self.min.y <= cell.y && cell.y <= self.max.y
    }

    /// The cells of the range, row by row: the order in which a proxy records its regions.
    pub(crate) fn cells(&self) -> impl Iterator<Item = Cell> + use<> {
        let (min, max) = (self.min, self.max);
        (min.y..=max.y).flat_map(move |y| (min.x..=max.x).map(move |x| Cell { x, y }))
    }

    /// The range grown by one cell on every side (clamped).
    pub(crate) fn grown(&self) -> CellRange {
        let lo = |v: i32| (v - 1).max(-CELL_LIMIT);
        let hi = |v: i32| (v + 1).min(CELL_LIMIT);
        CellRange {
            min: Cell { x: lo(self.min.x), y: lo(self.min.y) },
            max: Cell { x: hi(self.max.x), y: hi(self.max.y) },
        }
    }

    /// The smallest range holding `range` (if any) and `cell`.
    pub(crate) fn grown_to(range: Option<CellRange>, cell: Cell) -> CellRange {
        match range {
            None => CellRange { min: cell, max: cell },
            Some(r) => CellRange {
                min: Cell { x: r.min.x.min(cell.x), y: r.min.y.min(cell.y) },
                max: Cell { x: r.max.x.max(cell.x), y: r.max.y.max(cell.y) },
            },
        }
    }

    /// Every cell.
    pub(crate) fn everything() -> CellRange {
        CellRange { min: Cell { x: -CELL_LIMIT, y: -CELL_LIMIT }, max: Cell { x: CELL_LIMIT, y: CELL_LIMIT } }
    }
}

/// Writes `range` to four columns `out` (its corners' coordinates).
#[cfg(feature = "serde")]
pub(crate) fn write_range(range: &CellRange, out: &mut [Vec<u64>; 4]) {
    let corners = [range.min.x, range.min.y, range.max.x, range.max.y];
    for (column, v) in out.iter_mut().zip(corners) {
        column.push(i64::from(v) as u64);
    }
}

/// Row `i` of four columns [`write_range`] wrote.
#[cfg(feature = "serde")]
pub(crate) fn read_range(columns: &[Vec<u64>; 4], i: usize) -> Result<CellRange, String> {
    let v = |k: usize| {
        columns[k]
            .get(i)
            .copied()
            .ok_or("a cell range is missing")
            .and_then(|v| signed(v).map_err(|_| "a cell out of range"))
    };
    Ok(CellRange { min: Cell { x: v(0)?, y: v(1)? }, max: Cell { x: v(2)?, y: v(3)? } })
}
