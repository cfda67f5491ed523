//! The region grid written to columns of numbers and read back (feature
//! `serde`; the order of the broad phase's columns is `to_columns.rs`'s).

use super::{Region, RegionGrid};
use crate::cell::{Cell, read_range, write_range};
use crate::sorted_axis::{Axis, SortedAxis};
use crate::spread::Spread;
use crate::state_columns::{ColumnsIn, StateColumns, signed};

impl RegionGrid {
    /// Writes the grid to columns of `c` (see `to_columns.rs`): its region size,
    /// every region's cell, sorted array, spread and flags, and its lists. The
    /// index of regions by cell is left out: it follows from the regions.
    pub(crate) fn write_columns<K>(&self, c: &mut StateColumns<K>) {
        c.reals().extend([self.size, self.inv_size]);
        let mut cells: [Vec<u64>; 2] = [Vec::new(), Vec::new()];
        let (mut axes, mut lens, mut ids, mut extents, mut stale) = (vec![], vec![], vec![], vec![], vec![]);
        let mut spreads: [Vec<u64>; 5] = Default::default();
        let mut flags: [Vec<u64>; 4] = Default::default();
        for r in &self.regions {
            cells[0].push(i64::from(r.cell.x) as u64);
            cells[1].push(i64::from(r.cell.y) as u64);
            let (axis, entry_ids, max_extent, extent_stale) = r.sap.parts();
            axes.push(u64::from(axis == Axis::Y));
            let before = ids.len();
            ids.extend(entry_ids.map(u64::from));
            lens.push((ids.len() - before) as u64);
            extents.push(max_extent);
            stale.push(u64::from(extent_stale));
            let sp = &r.spread;
            let spread = [
                u64::from(sp.count),
                sp.sum[0].to_bits(),
                sp.sum[1].to_bits(),
                sp.sum_sq[0].to_bits(),
                sp.sum_sq[1].to_bits(),
            ];
            for (column, v) in spreads.iter_mut().zip(spread) {
                column.push(v);
            }
            for (column, v) in flags.iter_mut().zip([
                u64::from(r.touched),
                u64::from(r.movers),
                u64::from(r.swept),
                u64::from(r.live),
            ]) {
                column.push(v);
            }
        }
        for column in cells.into_iter().chain([axes, lens, ids, stale]).chain(spreads).chain(flags) {
            *c.ints() = column;
        }
        *c.reals() = extents;
        c.ints().extend(self.free.iter().map(|&v| u64::from(v)));
        c.ints().extend(self.touched.iter().map(|&v| u64::from(v)));
        let mut occupied: [Vec<u64>; 4] = Default::default();
        if let Some(range) = &self.occupied {
            write_range(range, &mut occupied);
        }
        for column in occupied {
            *c.ints() = column;
        }
    }

    /// Reads the grid [`RegionGrid::write_columns`] wrote into this empty one,
    /// with its entries' boxes still to be put back ([`RegionGrid::refill`]).
    pub(crate) fn read_columns<K>(&mut self, c: &mut ColumnsIn<K>) -> Result<(), String> {
        use crate::state_columns::{exactly, flag, narrow};
        let [size, inv_size] = c.reals()?[..] else { return Err("the region size is missing".into()) };
        let (xs, ys) = (c.ints()?, c.ints()?);
        let n = xs.len();
        let ys = exactly(ys, n, "region cells")?;
        let (axes, lens, ids, stale) = (
            exactly(c.ints()?, n, "axes")?,
            exactly(c.ints()?, n, "entry counts")?,
            c.u32s()?,
            exactly(c.ints()?, n, "flags")?,
        );
        let spreads: Vec<Vec<u64>> =
            (0..5).map(|_| c.ints().and_then(|v| exactly(v, n, "spreads"))).collect::<Result<_, _>>()?;
        let flags: Vec<Vec<u64>> =
            (0..4).map(|_| c.ints().and_then(|v| exactly(v, n, "region flags"))).collect::<Result<_, _>>()?;
        let extents = exactly(c.reals()?, n, "extents")?;
        let mut at = 0usize;
        let mut regions = Vec::with_capacity(n);
        for i in 0..n {
            let len = usize::try_from(lens[i])
                .ok()
                .filter(|&len| len <= ids.len() - at)
                .ok_or("a region lists more entries than written")?;
            let axis = if flag(axes[i])? { Axis::Y } else { Axis::X };
            let sap = SortedAxis::from_parts(axis, &ids[at..at + len], extents[i], flag(stale[i])?);
            at += len;
            let f64_of = |k: usize| f64::from_bits(spreads[k][i]);
            regions.push(Region {
                cell: Cell { x: signed(xs[i])?, y: signed(ys[i])? },
                sap,
                spread: Spread {
                    count: narrow(spreads[0][i])?,
                    sum: [f64_of(1), f64_of(2)],
                    sum_sq: [f64_of(3), f64_of(4)],
                },
                touched: flag(flags[0][i])?,
                movers: narrow(flags[1][i])?,
                swept: flag(flags[2][i])?,
                live: flag(flags[3][i])?,
                batch: 0,
            });
        }
        if at != ids.len() {
            return Err("region entries left over after the last region".into());
        }
        let (free, touched) = (c.u32s()?, c.u32s()?);
        let occupied: [Vec<u64>; 4] = [c.ints()?, c.ints()?, c.ints()?, c.ints()?];
        self.occupied = match occupied[0].len() {
            0 if occupied.iter().all(Vec::is_empty) => None,
            1 if occupied.iter().all(|column| column.len() == 1) => Some(read_range(&occupied, 0)?),
            _ => return Err("the occupied range is malformed".into()),
        };
        self.size = size;
        self.inv_size = inv_size;
        self.lookup =
            regions.iter().enumerate().filter(|(_, r)| r.live).map(|(i, r)| (r.cell, i as u32)).collect();
        self.regions = regions;
        self.free = free;
        self.touched = touched;
        Ok(())
    }
}
