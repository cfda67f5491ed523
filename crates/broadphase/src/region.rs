//! The large-world split: a sparse grid of square regions, each its own
//! sweep-and-prune with its own sweep axis.
//!
//! One sorted axis for the whole world has a classic failure: proxies that share a
//! range of the sweep axis (a tall stack, a column of pyramids, a row of boxes
//! when the axis is the other one) all overlap there, and every query walks
//! through all of them. Cutting the world into regions bounds that walk by the
//! population of one region, and letting each region choose its own axis (the
//! one along which its proxies' centres spread the most) makes the walk short
//! inside a crowded region too: a tall stack's region sweeps along y, a row of
//! pyramids' regions along x.
//!
//! A proxy lives in every region its fat box touches, at most 2 × 2 when the
//! region size exceeds the proxy's size. Bigger proxies (the ground, walls) do
//! not enter the grid at all; the broad phase keeps them in a short list that
//! every query checks directly.
//!
//! A pair of boxes that overlaps in several regions must be reported once. It is
//! reported by the region that holds the lower corner of the two boxes'
//! intersection, `(max(a.min.x, b.min.x), max(a.min.y, b.min.y))`: a point that
//! lies in both boxes, so its region is one both proxies are registered in.

use crate::cell::{CELL_LIMIT, Cell, CellRange};
use crate::hash::FastBuild;
use crate::sorted_axis::{Axis, Entry, SortedAxis};
use crate::spread::{Spread, relative_center};
use lamina_geometry::{Aabb, Point, Real};
use rayon::prelude::*;
use std::collections::HashMap;

/// The longest side, as a share of the region size, of a box kept in the
/// grid (see [`RegionGrid::grid_range`]).
const LONG_SHARE: Real = 0.25;

/// `update_pairs` sweeps a region whole, in one pass, once at least one in this
/// many of its entries moved; below that each moved proxy scans the window around
/// its own entry. Both find the same overlaps. The sweep reads every entry once,
/// in order, and tests each one against the moved set; it pays off when most of
/// the region moved (measured: about 8 % faster with every proxy moving, no gain
/// at a tenth), and that is when it is used.
const SWEEP_SHARE: u32 = 2;

/// How `update_pairs` searches regions for the overlaps of moved proxies. The
/// results are the same either way; only the cost differs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) enum SweepPolicy {
    /// Sweep a region whole when enough of its proxies moved ([`SWEEP_SHARE`]).
    #[default]
    Auto,
    /// Sweep every region with a moved proxy (for tests).
    #[allow(dead_code)]
    Always,
    /// Search for each moved proxy on its own (for tests).
    #[allow(dead_code)]
    Never,
}

/// One region: a cell of the grid with its own sorted axis.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Region {
    cell: Cell,
    sap: SortedAxis,
    spread: Spread,
    /// In the grid's `touched` list, waiting for [`RegionGrid::maintain`].
    touched: bool,
    /// During `update_pairs`: how many moved proxies are registered here.
    movers: u32,
    /// During `update_pairs`: the region was swept whole for its moved proxies.
    swept: bool,
    /// False for a slot on the free list.
    live: bool,
    /// During a [`RefitBatch`](crate::RefitBatch): how many of its
    /// announced movers are here, with [`RESORTED`] set once it is chosen
    /// to be re-sorted whole at the batch's end. Zero between batches.
    #[cfg_attr(feature = "serde", serde(skip))]
    batch: u32,
}

/// The flag of [`Region::batch`] that marks a region re-sorted whole at the
/// end of the batch: its moving proxies' entries wait for the re-sort.
const RESORTED: u32 = 1 << 31;

/// A region is re-sorted whole when at least one entry in this many belongs
/// to a moving proxy of the batch. Moving one entry costs a search for it
/// and a shift (some three hundred instructions in a tumbling pile);
/// re-sorting costs every entry a refresh and its share of the insertion
/// sort (some forty), but leaves the moved proxies' hints stale for the
/// searches of a region not swept whole. Measured with callgrind: one in
/// eight was best for smash, one in two for a settling pyramid, one in four
/// within 0.2 % of the best of both, and the same for the tumbler and the
/// spinner.
const RESORT_SHARE: u32 = 4;

/// Entries the regions re-sorted at the end of a batch hold between them,
/// at least, for the re-sorts to run side by side on the rayon pool: each
/// entry costs some forty instructions, and a task some microseconds.
const PARALLEL_RESORT_ENTRIES: usize = 2048;

impl Region {
    /// Re-sorts this region at the end of a batch that chose it. Until then
    /// it has left its waiting proxies' entries and running sums as they
    /// were (the array stays sorted by the boxes its entries hold, so other
    /// proxies' entries could still be found, moved, added and removed
    /// there): now every entry takes the box `fat` returns for its id, the
    /// array is sorted again, and the sums are taken afresh from the boxes
    /// (grid regions `size` metres wide), which also clears the rounding
    /// that adding and taking away leaves in them.
    fn resort(&mut self, size: Real, fat: &impl Fn(u32) -> Aabb) {
        self.sap.refresh_all(fat);
        let mut spread = Spread::default();
        for e in self.sap.entries() {
            spread.add(relative_center(size, self.cell, &fat(e.id)));
        }
        self.spread = spread;
    }

    /// The region's cell.
    #[inline]
    pub(crate) fn cell(&self) -> Cell {
        self.cell
    }

    /// The region's sorted axis.
    #[inline]
    pub(crate) fn sap(&self) -> &SortedAxis {
        &self.sap
    }

    /// True when `update_pairs` swept this region whole for its moved proxies.
    #[inline]
    pub(crate) fn swept(&self) -> bool {
        self.swept
    }

    /// Calls `f(mover, other)` for every proxy `mover` of this region for which
    /// `moving` holds and every other proxy `other` of this region whose box overlaps
    /// or touches its box and whose pair with it this region owns: for each moving
    /// proxy, what [`Region::for_each_overlap`] reports for its box, in one pass.
    /// Only the overlaps whose lower entry in the sorted array is one of
    /// `starts` are reported (all of them for `0..len`).
    #[inline]
    pub(crate) fn for_each_moving_overlap(
        &self,
        grid: &RegionGrid,
        starts: std::ops::Range<usize>,
        moving: impl Fn(u32) -> bool,
        mut f: impl FnMut(u32, u32),
    ) {
        let axis = self.sap.axis();
        let (from_x, from_y) = grid.owned_from(self.cell);
        self.sap.for_each_overlap_of_marked(starts, moving, |e, o| {
            // The owner point lies in the moving box, so for a box inside this one
            // region the test always passes; it is cheap enough not to skip.
            let ((ex, ey), (ox, oy)) = (e.mins(axis), o.mins(axis));
            if ex.max(ox) >= from_x && ey.max(oy) >= from_y {
                f(e.id, o.id);
            }
        });
    }

    /// Calls `f` with the id of every proxy of this region whose box overlaps or
    /// touches the box `aabb` of proxy `id`, a member of this region last seen at
    /// `hint`, and whose pair with it this region owns: what
    /// [`Region::for_each_overlap`] reports, found from the proxy's own entry.
    #[inline]
    pub(crate) fn for_each_overlap_of_member(
        &self,
        grid: &RegionGrid,
        id: u32,
        aabb: &Aabb,
        single: bool,
        hint: u32,
        mut f: impl FnMut(u32),
    ) {
        let axis = self.sap.axis();
        self.sap.for_each_overlap_of(id, aabb, hint, |_, o| {
            if !single {
                let (x, y) = owner_point(aabb, o, axis);
                if grid.cell_of(x, y) != self.cell {
                    return;
                }
            }
            f(o.id);
        });
    }

    /// Calls `f` with the id of every proxy of this region (other than `exclude`)
    /// whose box overlaps or touches `aabb` and whose pair with `aabb` this region
    /// owns. `single` says that `aabb` lies in this one region, where every overlap
    /// is owned and the ownership test can be skipped.
    #[inline]
    pub(crate) fn for_each_overlap(
        &self,
        grid: &RegionGrid,
        aabb: &Aabb,
        single: bool,
        exclude: Option<u32>,
        mut f: impl FnMut(u32),
    ) {
        let axis = self.sap.axis();
        self.sap.for_each_overlap(aabb, |e| {
            if Some(e.id) == exclude {
                return;
            }
            if !single {
                let (x, y) = owner_point(aabb, e, axis);
                if grid.cell_of(x, y) != self.cell {
                    return;
                }
            }
            f(e.id);
        });
    }
}

/// The sparse grid of regions.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct RegionGrid {
    size: Real,
    inv_size: Real,
    regions: Vec<Region>,
    lookup: HashMap<Cell, u32, FastBuild>,
    free: Vec<u32>,
    /// Regions changed since the last [`RegionGrid::maintain`], in the order first touched.
    touched: Vec<u32>,
    /// A range holding every live region's cell (`None` when there is none):
    /// grown as regions are created, tightened when regions are freed. Ray
    /// casts of unbounded reach walk only this part of the world.
    occupied: Option<CellRange>,
}

impl RegionGrid {
    /// An empty grid of square regions `size` metres wide (finite, positive).
    pub(crate) fn new(size: Real) -> Self {
        Self {
            size,
            inv_size: 1.0 / size,
            regions: Vec::new(),
            lookup: HashMap::default(),
            free: Vec::new(),
            touched: Vec::new(),
            occupied: None,
        }
    }

    /// The column or row of coordinate `v`: `floor(v / size)`, clamped. A monotone
    /// function of `v`, which is all the pair-ownership rule needs.
    #[inline]
    pub(crate) fn cell_coord(&self, v: Real) -> i32 {
        // `floor` by truncation and a correction: the same value, without the
        // library call `floor` compiles to on targets without SSE4.1.
        // Clamped without branches; `max` takes NaN (which validated boxes
        // never hold) to the lower clamp.
        let c = (v * self.inv_size).max(-(CELL_LIMIT as Real)).min(CELL_LIMIT as Real);
        // SAFETY: `c` is not NaN and lies within ±2²⁹, so its truncation is
        // an `i32`. (`as` would check again, and saturate.)
        let t = unsafe { c.to_int_unchecked::<i32>() };
        t - i32::from(t as Real > c)
    }

    /// The least coordinate whose cell coordinate is `c` or more: the
    /// cell coordinate is a clamped floor of the scaled coordinate, which
    /// never decreases as the coordinate grows, so this is where cell `c`
    /// begins, found from `c` times the size and moved by the last units
    /// that rounding leaves. Negative infinity for the lowest cell, which
    /// holds everything below it.
    fn cell_start(&self, c: i32) -> Real {
        if c <= -CELL_LIMIT {
            return Real::NEG_INFINITY;
        }
        let mut v = c as Real * self.size;
        while self.cell_coord(v) < c {
            v = v.next_up();
        }
        while self.cell_coord(v.next_down()) >= c {
            v = v.next_down();
        }
        v
    }

    /// The corner from which the region of `cell` owns the pairs of its
    /// members: two boxes that both belong to the region (each box's lower
    /// corner lies in its cell or in cells below and to the left) have the
    /// lower corner of their intersection, their owner point, in this
    /// cell exactly when it lies at or beyond this corner on both axes. Two
    /// comparisons a pair where [`RegionGrid::cell_of`] takes two scaled
    /// floors, computed once for a region's whole sweep.
    pub(crate) fn owned_from(&self, cell: Cell) -> (Real, Real) {
        (self.cell_start(cell.x), self.cell_start(cell.y))
    }

    /// The cell holding point `(x, y)`.
    #[inline]
    pub(crate) fn cell_of(&self, x: Real, y: Real) -> Cell {
        Cell { x: self.cell_coord(x), y: self.cell_coord(y) }
    }

    /// The cells a (valid) box touches.
    #[inline]
    pub(crate) fn range_of(&self, aabb: &Aabb) -> CellRange {
        CellRange { min: self.cell_of(aabb.mins.x, aabb.mins.y), max: self.cell_of(aabb.maxs.x, aabb.maxs.y) }
    }

    /// The longest side of a box the grid keeps ([`LONG_SHARE`] of a region).
    #[inline]
    pub(crate) fn long_side_limit(&self) -> Real {
        LONG_SHARE * self.size
    }

    /// The cells of a box that belongs in the grid: one that touches at most
    /// 2 × 2 regions and is no longer than [`LONG_SHARE`] of a region on either
    /// side. `None` for the others, which the broad phase keeps in its list of
    /// large proxies.
    ///
    /// Why the length limit: a region's scan for the overlaps of a box walks
    /// back from the box's lower end by the longest entry of the region, so one
    /// long entry (a wall of a turning drum, seen diagonally) makes every scan
    /// of its region walk most of the region. A handful of long boxes costs
    /// less checked directly by every query.
    #[inline]
    pub(crate) fn grid_range(&self, aabb: &Aabb) -> Option<CellRange> {
        let range = self.range_of(aabb);
        let limit = self.long_side_limit();
        let short = aabb.maxs.x - aabb.mins.x <= limit && aabb.maxs.y - aabb.mins.y <= limit;
        (short && range.fits_grid()).then_some(range)
    }

    /// The region's square, as it is (not grown; the border cells' squares
    /// stop at the clamp instead of reaching to infinity).
    pub(crate) fn cell_box(&self, cell: Cell) -> Aabb {
        let lo = Point::new(cell.x as Real * self.size, cell.y as Real * self.size);
        Aabb::new(lo, Point::new(lo.x + self.size, lo.y + self.size))
    }

    /// The region's square, grown by a little more than the rounding of
    /// [`RegionGrid::cell_coord`], and unbounded on the clamped border.
    pub(crate) fn padded_cell_box(&self, cell: Cell) -> Aabb {
        let bounds = |c: i32| {
            let lo = if c <= -CELL_LIMIT { Real::NEG_INFINITY } else { c as Real * self.size };
            let hi = if c >= CELL_LIMIT { Real::INFINITY } else { (c as Real + 1.0) * self.size };
            let pad = self.size * 1.0e-3 + lo.abs().max(hi.abs()).min(Real::MAX) * (16.0 * Real::EPSILON);
            (lo - pad, hi + pad)
        };
        let (x0, x1) = bounds(cell.x);
        let (y0, y1) = bounds(cell.y);
        Aabb::new(Point::new(x0, y0), Point::new(x1, y1))
    }

    /// The region at `cell`, if it exists.
    #[inline]
    pub(crate) fn get(&self, cell: Cell) -> Option<u32> {
        self.lookup.get(&cell).copied()
    }

    /// The region at `cell`, created (or recycled from the free list) if needed.
    pub(crate) fn get_or_create(&mut self, cell: Cell) -> u32 {
        if let Some(r) = self.get(cell) {
            return r;
        }
        let r = match self.free.pop() {
            Some(r) => {
                let region = &mut self.regions[r as usize];
                region.cell = cell;
                region.sap.reset(Axis::X);
                region.spread = Spread::default();
                region.touched = false;
                region.movers = 0;
                region.swept = false;
                region.live = true;
                region.batch = 0;
                r
            }
            None => {
                self.regions.push(Region {
                    cell,
                    sap: SortedAxis::new(Axis::X),
                    spread: Spread::default(),
                    touched: false,
                    movers: 0,
                    swept: false,
                    live: true,
                    batch: 0,
                });
                (self.regions.len() - 1) as u32
            }
        };
        self.lookup.insert(cell, r);
        self.occupied = Some(CellRange::grown_to(self.occupied, cell));
        r
    }

    /// A range holding the cell of every live region, or `None` when the grid is empty.
    #[inline]
    pub(crate) fn occupied(&self) -> Option<CellRange> {
        self.occupied
    }

    /// The region size, metres.
    #[inline]
    pub(crate) fn size(&self) -> Real {
        self.size
    }

    /// The region with index `r`.
    #[inline]
    pub(crate) fn region(&self, r: u32) -> &Region {
        &self.regions[r as usize]
    }

    /// The centre of `aabb` relative to the corner of `cell` ([`relative_center`]).
    fn relative_center(&self, cell: Cell, aabb: &Aabb) -> [f64; 2] {
        relative_center(self.size, cell, aabb)
    }

    fn touch(&mut self, r: u32) {
        let region = &mut self.regions[r as usize];
        if !region.touched {
            region.touched = true;
            self.touched.push(r);
        }
    }

    /// Adds proxy `id` with box `aabb` to region `r`; returns its place there, the
    /// hint for the calls below.
    pub(crate) fn add(&mut self, r: u32, id: u32, aabb: &Aabb) -> u32 {
        let c = self.relative_center(self.regions[r as usize].cell, aabb);
        let region = &mut self.regions[r as usize];
        let at = region.sap.insert(id, aabb);
        region.spread.add(c);
        self.touch(r);
        at
    }

    /// Removes proxy `id`, whose box is `aabb` and which was last seen at `hint`,
    /// from region `r`.
    pub(crate) fn remove(&mut self, r: u32, id: u32, aabb: &Aabb, hint: u32) {
        let c = self.relative_center(self.regions[r as usize].cell, aabb);
        let region = &mut self.regions[r as usize];
        region.sap.remove(id, aabb, hint);
        region.spread.remove(c);
        self.touch(r);
    }

    /// Counts one more moving proxy of a batch in region `r`; true for the
    /// first, when the caller lists the region.
    pub(crate) fn count_in_batch(&mut self, r: u32) -> bool {
        let region = &mut self.regions[r as usize];
        region.batch += 1;
        region.batch & !RESORTED == 1
    }

    /// Once a batch's movers are announced: whether region `r` is
    /// re-sorted whole at its end ([`RESORT_SHARE`]), which is then
    /// remembered until the end.
    pub(crate) fn choose_resort(&mut self, r: u32) {
        let region = &mut self.regions[r as usize];
        if (region.batch & !RESORTED).saturating_mul(RESORT_SHARE) as usize >= region.sap.len() {
            region.batch |= RESORTED;
        }
    }

    /// Whether region `r` is re-sorted whole at the end of the open batch.
    #[inline]
    pub(crate) fn resorts(&self, r: u32) -> bool {
        self.regions[r as usize].batch & RESORTED != 0
    }

    /// Ends the open batch in each region of `batch` (each listed once, in
    /// the order the batch first counted them): a region chosen for it is
    /// re-sorted ([`Region::resort`]) and touched, and every one leaves the
    /// batch. The re-sorts are each region's own work: they run side by
    /// side on the rayon pool when `share` lets them, they hold enough
    /// entries between them, and no one region holds most of them.
    pub(crate) fn end_batch(&mut self, batch: &[u32], share: bool, fat: impl Fn(u32) -> Aabb + Sync) {
        let (mut entries, mut largest) = (0, 0);
        for &r in batch {
            let region = &self.regions[r as usize];
            if region.batch & RESORTED != 0 {
                entries += region.sap.len();
                largest = largest.max(region.sap.len());
            }
        }
        let size = self.size;
        let end = |region: &mut Region| {
            let resorted = region.batch & RESORTED != 0;
            region.batch = 0;
            if resorted {
                region.resort(size, &fat);
            }
        };
        // Touched in the batch's order, whichever thread re-sorts them: the
        // order in which `maintain` frees regions follows it.
        for &r in batch {
            if self.regions[r as usize].batch & RESORTED != 0 {
                self.touch(r);
            }
        }
        if !share || entries < PARALLEL_RESORT_ENTRIES || 2 * largest > entries {
            for &r in batch {
                end(&mut self.regions[r as usize]);
            }
            return;
        }
        let regions = Regions(self.regions.as_mut_ptr(), self.regions.len());
        batch.par_iter().with_max_len(1).for_each(|&r| {
            // SAFETY: a batch lists each region once (`count_in_batch`), so
            // each is borrowed by one thread, and the grid is borrowed
            // mutably here, so nothing else reads it meanwhile.
            end(unsafe { regions.get(r) });
        });
    }

    /// Moves proxy `id` from box `old` to box `new` inside region `r`; `hint` is
    /// where it was last seen there, and the new place is returned.
    pub(crate) fn replace(&mut self, r: u32, id: u32, old: &Aabb, new: &Aabb, hint: u32) -> u32 {
        let cell = self.regions[r as usize].cell;
        let (c_old, c_new) = (self.relative_center(cell, old), self.relative_center(cell, new));
        let region = &mut self.regions[r as usize];
        let at = region.sap.replace(id, old, new, hint);
        region.spread.remove(c_old);
        region.spread.add(c_new);
        self.touch(r);
        at
    }

    /// Once per step, for each region changed since the last call: frees it if
    /// empty, otherwise re-chooses its sweep axis (re-sorting if it changes) and
    /// tightens its extent bound.
    pub(crate) fn maintain(&mut self) {
        let freed = self.free.len();
        for i in 0..self.touched.len() {
            let r = self.touched[i];
            let region = &mut self.regions[r as usize];
            region.touched = false;
            if region.sap.len() == 0 {
                region.live = false;
                region.spread = Spread::default();
                self.lookup.remove(&region.cell);
                self.free.push(r);
                continue;
            }
            let axis = region.spread.preferred_axis(region.sap.axis());
            region.sap.set_axis(axis);
            region.sap.refresh_extent();
        }
        self.touched.clear();
        if self.free.len() != freed {
            self.tighten_occupied();
        }
    }

    /// Recomputes [`RegionGrid::occupied`] from the live regions.
    fn tighten_occupied(&mut self) {
        self.occupied = None;
        for region in self.regions.iter().filter(|r| r.live) {
            self.occupied = Some(CellRange::grown_to(self.occupied, region.cell));
        }
    }

    /// Counts one more moved proxy in region `r`; true for the first one.
    #[inline]
    pub(crate) fn add_mover(&mut self, r: u32) -> bool {
        let region = &mut self.regions[r as usize];
        region.movers += 1;
        region.movers == 1
    }

    /// Decides whether region `r`, whose moved proxies are all counted, is swept
    /// whole (see [`SWEEP_SHARE`]); `policy` may force the choice. Returns the choice.
    pub(crate) fn choose_sweep(&mut self, r: u32, policy: SweepPolicy) -> bool {
        let region = &mut self.regions[r as usize];
        region.swept = match policy {
            SweepPolicy::Auto => u64::from(region.movers) * u64::from(SWEEP_SHARE) >= region.sap.len() as u64,
            SweepPolicy::Always => true,
            SweepPolicy::Never => false,
        };
        region.swept
    }

    /// Forgets region `r`'s count of moved proxies and its sweep choice.
    #[inline]
    pub(crate) fn clear_movers(&mut self, r: u32) {
        let region = &mut self.regions[r as usize];
        region.movers = 0;
        region.swept = false;
    }

    /// Calls `f` with every existing region whose cell lies in `range`. It visits
    /// the cells of the range one by one when they are fewer than the live regions,
    /// and the live regions otherwise, so that a huge range costs no more than the
    /// world. The order depends only on the history of calls.
    pub(crate) fn for_each_region_in(&self, range: CellRange, mut f: impl FnMut(&Region)) {
        let live = self.regions.len() - self.free.len();
        if range.cell_count() <= live as u64 {
            for cell in range.cells() {
                if let Some(r) = self.get(cell) {
                    f(&self.regions[r as usize]);
                }
            }
        } else {
            for region in &self.regions {
                if region.live && range.contains(region.cell) {
                    f(region);
                }
            }
        }
    }

    /// Checks every region against the rules the rest of the crate relies on,
    /// without trusting any index (for tests, and for a grid read back from
    /// serde): the lookup finds each live region by its cell, the free and
    /// touched lists hold valid regions once each, every sorted array is in
    /// order, and no count of a step in progress is left over.
    #[cfg(any(test, feature = "serde"))]
    pub(crate) fn check(&self) -> Result<(), String> {
        if !(self.size.is_finite() && self.size > 0.0) || self.inv_size != 1.0 / self.size {
            return Err(format!("region size {} with inverse {}", self.size, self.inv_size));
        }
        let live = self.regions.iter().filter(|r| r.live).count();
        if self.lookup.len() != live {
            return Err(format!("{} regions found by cell, {live} live", self.lookup.len()));
        }
        for (&cell, &r) in &self.lookup {
            if self.regions.get(r as usize).is_none_or(|region| !region.live || region.cell != cell) {
                return Err(format!("cell {cell:?} leads to region {r}, which is not there"));
            }
        }
        let mut listed = vec![false; self.regions.len()];
        for &r in &self.free {
            match self.regions.get(r as usize) {
                Some(region) if !region.live && !std::mem::replace(&mut listed[r as usize], true) => {}
                _ => return Err(format!("free region {r} is live, listed twice or missing")),
            }
        }
        listed.fill(false);
        for &r in &self.touched {
            match self.regions.get(r as usize) {
                Some(region) if region.touched && !std::mem::replace(&mut listed[r as usize], true) => {}
                _ => return Err(format!("touched region {r} is not marked, listed twice or missing")),
            }
        }
        for (r, region) in self.regions.iter().enumerate() {
            if region.touched != listed[r] || region.movers != 0 || region.swept {
                return Err(format!("region {r} has a stale mark or count"));
            }
            if !region.live {
                continue;
            }
            if !region.sap.is_consistent() {
                return Err(format!("region {r} is not sorted or its extent bound is low"));
            }
            if region.sap.len() == 0 && !region.touched {
                return Err(format!("region {r} is empty but not queued for freeing"));
            }
        }
        Ok(())
    }

    /// Puts back the boxes of every live region's entries from `fat`, by
    /// proxy id (see [`SortedAxis::refill`]); `None` for an id without a box.
    #[cfg(feature = "serde")]
    pub(crate) fn refill(&mut self, fat: impl Fn(u32) -> Option<Aabb>) -> Option<()> {
        self.regions.iter_mut().filter(|r| r.live).try_for_each(|r| r.sap.refill(&fat))
    }

    /// The live regions with their indices.
    pub(crate) fn live_regions(&self) -> impl Iterator<Item = (u32, &Region)> {
        self.regions.iter().enumerate().filter(|(_, r)| r.live).map(|(i, r)| (i as u32, r))
    }
}

/// The grid's regions, for [`RegionGrid::end_batch`] to end distinct
/// regions' batches on several threads.
struct Regions(*mut Region, usize);

// SAFETY: the only access through it is `get`, whose callers promise that
// each region is borrowed by one thread at a time.
unsafe impl Sync for Regions {}

impl Regions {
    /// Region `r`, borrowed mutably.
    ///
    /// # Safety
    ///
    /// Nothing else borrows region `r` while the reference lives, and the
    /// regions outlive it.
    #[allow(clippy::mut_from_ref)]
    unsafe fn get(&self, r: u32) -> &mut Region {
        assert!((r as usize) < self.1, "a batch's region is in range");
        // SAFETY: in range (checked); borrowed once (the caller's promise).
        unsafe { &mut *self.0.add(r as usize) }
    }
}

/// The lower corner of the intersection of two overlapping boxes: the point whose
/// region reports the pair.
#[inline]
fn owner_point(a: &Aabb, b: &Entry, axis: Axis) -> (Real, Real) {
    let (bx, by) = b.mins(axis);
    (a.mins.x.max(bx), a.mins.y.max(by))
}

#[cfg(feature = "serde")]
mod columns;
#[cfg(test)]
mod tests;
