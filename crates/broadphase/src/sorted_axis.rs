//! One sorted axis: the sweep-and-prune array of a region.
//!
//! Each proxy is an interval `[lo, hi]` on the sweep axis. The array holds one
//! entry per proxy, sorted by its lower end point (`lo`, ties broken by proxy id
//! so that the order is total and never depends on history). Every entry carries
//! its upper end point and its interval on the other axis, so that a scan reads
//! one contiguous array and confirms the other axis without chasing a pointer.
//!
//! Why sorted lower end points and not the classic array of both end points:
//! swaps of a lower end point past an upper one only say when two intervals begin
//! or stop overlapping *on the sweep axis*; they are blind to a box that slides
//! along the other axis. The broad phase therefore asks, for each moved proxy,
//! "what overlaps you now?", and for that question the upper end points are dead
//! weight: half the memory and half the swaps. The question is answered by a
//! binary search and a short scan: every interval that reaches `a` starts at or
//! after `a - max_extent`, where `max_extent` bounds the length of the intervals
//! in the array.
//!
//! The array is kept sorted incrementally: a moved entry is rewritten in place
//! and walked left or right until its neighbours are in order again, which is one
//! pass of insertion sort. Bodies move little per step, so the walk is short.

use lamina_geometry::{Aabb, Real};

/// How far from its hint [`SortedAxis::position`] looks for an entry before it
/// falls back to a binary search.
const HINT_REACH: usize = 3;

/// Overlaps collected per round of a scan, before they are reported.
const BATCH: usize = 32;

/// The forward scan from entry `e`: calls `f` with every entry of `ahead`
/// (the entries after `e`, which start no earlier) that starts no later than
/// `e` ends and overlaps it on the other axis, in order. The entries met are
/// collected a round of [`BATCH`] at a time in `met` (the caller's, so that
/// a sweep of many scans sets it up once), without a branch per entry (most
/// of a scan's entries miss on the other axis, unpredictably), then reported.
#[inline(always)]
fn scan_ahead<'a>(ahead: &'a [Entry], e: &Entry, met: &mut [u32; BATCH], mut f: impl FnMut(&'a Entry)) {
    let mut start = 0;
    loop {
        let (count, end) = collect_met(ahead, e, start, met);
        for &j in &met[..count] {
            f(&ahead[j as usize]);
        }
        if count < BATCH {
            return;
        }
        start = end;
    }
}

/// One round of the forward scan from entry `e`: from `ahead[start..]`, the
/// places of the entries that start no later than `e` ends and overlap it
/// on the other axis, in order, until [`BATCH`] are met, an entry starts
/// after `e` ends, or `ahead` ends. Returns how many were met and where the
/// scan stopped.
#[inline(always)]
fn collect_met(ahead: &[Entry], e: &Entry, start: usize, met: &mut [u32; BATCH]) -> (usize, usize) {
    let (mut count, mut end) = scan_by_fours(ahead, e, start, met);
    while end < ahead.len() && count < BATCH {
        let o = &ahead[end];
        if o.lo > e.hi {
            break;
        }
        met[count] = end as u32;
        count += usize::from((o.other_lo <= e.other_hi) & (e.other_lo <= o.other_hi));
        end += 1;
    }
    (count, end)
}

/// The bulk of [`collect_met`], four entries at a time in SSE lanes: their
/// four bounds are loaded and transposed, compared with `e`'s as the scalar
/// loop compares them, and the places that pass are written in order. Stops
/// where the scalar loop would, or earlier (fewer than four entries left, or
/// fewer than four places free in `met`), for the scalar loop to finish.
#[cfg(all(target_arch = "x86_64", not(feature = "f64")))]
#[inline(always)]
fn scan_by_fours(ahead: &[Entry], e: &Entry, start: usize, met: &mut [u32; BATCH]) -> (usize, usize) {
    use std::arch::x86_64::*;
    let (mut count, mut end) = (0, start);
    // SAFETY: SSE is part of every x86_64 processor. Each load reads the
    // first 16 bytes of an entry of `ahead` (`end + 3 < ahead.len()`), which
    // are its four bounds in order (`repr(C)`, checked beside `Entry`).
    unsafe {
        let (e_hi, e_lo2, e_hi2) = (_mm_set1_ps(e.hi), _mm_set1_ps(e.other_lo), _mm_set1_ps(e.other_hi));
        while end + 4 <= ahead.len() && count + 4 <= BATCH {
            let p = ahead.as_ptr().add(end);
            let row = |k: usize| _mm_loadu_ps(p.add(k).cast::<f32>());
            let (r0, r1, r2, r3) = (row(0), row(1), row(2), row(3));
            let (t0, t1) = (_mm_unpacklo_ps(r0, r1), _mm_unpackhi_ps(r0, r1));
            let (t2, t3) = (_mm_unpacklo_ps(r2, r3), _mm_unpackhi_ps(r2, r3));
            let lo = _mm_movelh_ps(t0, t2);
            let (lo2, hi2) = (_mm_movelh_ps(t1, t3), _mm_movehl_ps(t3, t1));
            let within = _mm_movemask_ps(_mm_cmple_ps(lo, e_hi)) as u32;
            let across = _mm_and_ps(_mm_cmple_ps(lo2, e_hi2), _mm_cmple_ps(e_lo2, hi2));
            // Entries before the first that starts after `e` ends.
            let run = (!within & 0xF).trailing_zeros().min(4);
            let hits = _mm_movemask_ps(across) as u32 & ((1 << run) - 1);
            // Each of the four places is written where the next hit goes,
            // and kept by counting it only if it is one: no branch on how
            // many hit, which varies from round to round unpredictably.
            for k in 0..4 {
                met[count] = (end + k) as u32;
                count += ((hits >> k) & 1) as usize;
            }
            // The next loads' address must not wait for this round's
            // compares: advanced by four, it is known at once, and the
            // loads of the next rounds start while these compare (the exit
            // is a predicted branch). Advanced by `run`, each round waited
            // for the last one's loads, shuffles and compares.
            if run < 4 {
                end += run as usize;
                break;
            }
            end += 4;
        }
    }
    (count, end)
}

/// Without SSE lanes for `Real`, the scalar loop does it all.
#[cfg(not(all(target_arch = "x86_64", not(feature = "f64"))))]
#[inline(always)]
fn scan_by_fours(_: &[Entry], _: &Entry, start: usize, _: &mut [u32; BATCH]) -> (usize, usize) {
    (0, start)
}

// The SSE scan reads an entry's four bounds as its first 16 bytes.
#[cfg(all(target_arch = "x86_64", not(feature = "f64")))]
const _: () = {
    use std::mem::offset_of;
    assert!(offset_of!(Entry, lo) == 0 && offset_of!(Entry, hi) == 4);
    assert!(offset_of!(Entry, other_lo) == 8 && offset_of!(Entry, other_hi) == 12);
};

/// A coordinate axis of the plane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) enum Axis {
    /// The x axis.
    X,
    /// The y axis.
    Y,
}

/// One proxy in a sorted axis: its box, seen along the sweep axis.
///
/// Serialized, an entry is its id alone: its box is its proxy's fat box, which
/// is written with the proxy and put back when the structure is read
/// ([`SortedAxis::refill`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(C)]
pub(crate) struct Entry {
    /// Lower end point on the sweep axis: the sort key.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) lo: Real,
    /// Upper end point on the sweep axis.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) hi: Real,
    /// Lower end point on the other axis.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) other_lo: Real,
    /// Upper end point on the other axis.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) other_hi: Real,
    /// The proxy's dense id.
    pub(crate) id: u32,
}

impl Entry {
    /// The entry of proxy `id` with box `aabb`, seen along `axis`.
    #[inline]
    pub(crate) fn new(id: u32, aabb: &Aabb, axis: Axis) -> Self {
        let (lo, hi, other_lo, other_hi) = match axis {
            Axis::X => (aabb.mins.x, aabb.maxs.x, aabb.mins.y, aabb.maxs.y),
            Axis::Y => (aabb.mins.y, aabb.maxs.y, aabb.mins.x, aabb.maxs.x),
        };
        Self { lo, hi, other_lo, other_hi, id }
    }

    /// The box back in world axes.
    #[inline]
    pub(crate) fn aabb(&self, axis: Axis) -> Aabb {
        use lamina_geometry::Point;
        match axis {
            Axis::X => Aabb::new(Point::new(self.lo, self.other_lo), Point::new(self.hi, self.other_hi)),
            Axis::Y => Aabb::new(Point::new(self.other_lo, self.lo), Point::new(self.other_hi, self.hi)),
        }
    }

    /// The lower corner `(x, y)` in world axes.
    #[inline]
    pub(crate) fn mins(&self, axis: Axis) -> (Real, Real) {
        match axis {
            Axis::X => (self.lo, self.other_lo),
            Axis::Y => (self.other_lo, self.lo),
        }
    }

    /// The order of the array: by lower end point, then by id.
    #[inline]
    fn precedes(&self, other: &Entry) -> bool {
        self.lo < other.lo || (self.lo == other.lo && self.id < other.id)
    }

    /// Length on the sweep axis.
    #[inline]
    fn extent(&self) -> Real {
        self.hi - self.lo
    }
}

/// A sweep axis and its entries, sorted by lower end point.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct SortedAxis {
    axis: Axis,
    entries: Vec<Entry>,
    /// An upper bound on every entry's length along the axis. It only grows between
    /// calls to [`SortedAxis::refresh_extent`]; a bound that is too large costs a
    /// longer scan, never a missed overlap.
    max_extent: Real,
    /// Set when the entry that defined `max_extent` left or shrank.
    extent_stale: bool,
}

impl SortedAxis {
    /// An empty array sweeping along `axis`.
    pub(crate) fn new(axis: Axis) -> Self {
        Self { axis, entries: Vec::new(), max_extent: 0.0, extent_stale: false }
    }

    /// Empties the array and sets its axis, keeping its memory.
    pub(crate) fn reset(&mut self, axis: Axis) {
        self.axis = axis;
        self.entries.clear();
        self.max_extent = 0.0;
        self.extent_stale = false;
    }

    /// The sweep axis.
    #[inline]
    pub(crate) fn axis(&self) -> Axis {
        self.axis
    }

    /// The entries, sorted.
    #[inline]
    pub(crate) fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The number of entries.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Where the entry of `id`, whose lower end point is `lo`, sits in the array.
    /// `hint` is where it was last seen: other entries' moves, inserts and removals
    /// shift it by a place or two at a time, so the entry is usually at the hint or
    /// within [`HINT_REACH`] of it, one or two cache lines, and the binary search
    /// (a cache miss per step in a region not yet in cache) is the fallback.
    fn position(&self, id: u32, lo: Real, hint: u32) -> Option<usize> {
        let h = hint as usize;
        if self.entries.get(h).is_some_and(|e| e.id == id) {
            return Some(h);
        }
        let near = h.saturating_sub(HINT_REACH).min(self.entries.len())
            ..(h + HINT_REACH + 1).min(self.entries.len());
        if let Some(i) = self.entries[near.clone()].iter().position(|e| e.id == id) {
            return Some(near.start + i);
        }
        let probe = Entry { lo, hi: lo, other_lo: 0.0, other_hi: 0.0, id };
        let i = self.entries.partition_point(|e| e.precedes(&probe));
        if self.entries.get(i).is_some_and(|e| e.id == id) {
            return Some(i);
        }
        // Unreachable while the array mirrors the proxies' boxes; a linear search
        // keeps a broken invariant from turning into a lost proxy.
        self.entries.iter().position(|e| e.id == id)
    }

    /// Adds proxy `id` with box `aabb` at its sorted place, and returns the place.
    pub(crate) fn insert(&mut self, id: u32, aabb: &Aabb) -> u32 {
        let entry = Entry::new(id, aabb, self.axis);
        let i = self.entries.partition_point(|e| e.precedes(&entry));
        self.entries.insert(i, entry);
        self.max_extent = self.max_extent.max(entry.extent());
        i as u32
    }

    /// Removes proxy `id`, whose box is `aabb` and which was last seen at `hint`.
    /// Order is kept (the tail shifts).
    pub(crate) fn remove(&mut self, id: u32, aabb: &Aabb, hint: u32) {
        let lo = Entry::new(id, aabb, self.axis).lo;
        if let Some(i) = self.position(id, lo, hint) {
            let gone = self.entries.remove(i);
            if gone.extent() >= self.max_extent {
                self.extent_stale = true;
            }
        }
    }

    /// Moves proxy `id` from box `old` to box `new`: the entry (last seen at `hint`)
    /// is rewritten in place, then walked to its sorted place (one insertion-sort
    /// pass). Returns the new place.
    pub(crate) fn replace(&mut self, id: u32, old: &Aabb, new: &Aabb, hint: u32) -> u32 {
        let old_entry = Entry::new(id, old, self.axis);
        let Some(mut i) = self.position(id, old_entry.lo, hint) else {
            return self.insert(id, new);
        };
        let entry = Entry::new(id, new, self.axis);
        // A bound a little too high only lengthens scans a little: recompute it
        // only when the longest entry shrank by a quarter, not on every rounding
        // wobble of a translated box.
        if old_entry.extent() >= self.max_extent && entry.extent() < 0.75 * old_entry.extent() {
            self.extent_stale = true;
        }
        self.max_extent = self.max_extent.max(entry.extent());
        // Find the new place first, then shift the entries between in one copy:
        // a walk of many places costs a few vector moves instead of a swap per place.
        let from = i;
        while i > 0 && entry.precedes(&self.entries[i - 1]) {
            i -= 1;
        }
        if i < from {
            self.entries.copy_within(i..from, i + 1);
        } else {
            while i + 1 < self.entries.len() && self.entries[i + 1].precedes(&entry) {
                i += 1;
            }
            if i > from {
                self.entries.copy_within(from + 1..=i, from);
            }
        }
        self.entries[i] = entry;
        i as u32
    }

    /// Gives every entry the box `fat` returns for its id and restores the
    /// order: for an array most of whose entries moved a little, since the
    /// insertion sort's work is the entries plus the places they move. The
    /// bound on the entries' lengths is then exact.
    pub(crate) fn refresh_all(&mut self, fat: &impl Fn(u32) -> Aabb) {
        // Every id has a box here: the refill cannot stop short.
        let _ = self.refill(|id| Some(fat(id)));
        for i in 1..self.entries.len() {
            let entry = self.entries[i];
            let mut j = i;
            while j > 0 && entry.precedes(&self.entries[j - 1]) {
                self.entries[j] = self.entries[j - 1];
                j -= 1;
            }
            self.entries[j] = entry;
        }
        self.extent_stale = true;
        self.refresh_extent();
    }

    /// Sweeps along `axis` from now on: the entries are re-projected and sorted
    /// from scratch. Called only when a region's spread says the other axis
    /// separates its proxies better.
    pub(crate) fn set_axis(&mut self, axis: Axis) {
        if axis == self.axis {
            return;
        }
        self.axis = axis;
        for e in &mut self.entries {
            std::mem::swap(&mut e.lo, &mut e.other_lo);
            std::mem::swap(&mut e.hi, &mut e.other_hi);
        }
        self.entries.sort_unstable_by(|a, b| a.lo.total_cmp(&b.lo).then(a.id.cmp(&b.id)));
        self.extent_stale = true;
        self.refresh_extent();
    }

    /// Recomputes the exact bound on entry length if it may have shrunk.
    pub(crate) fn refresh_extent(&mut self) {
        if self.extent_stale {
            self.max_extent = self.entries.iter().map(Entry::extent).fold(0.0, Real::max);
            self.extent_stale = false;
        }
    }

    /// Calls `f` with every entry whose box overlaps or touches `aabb`.
    ///
    /// The scan starts at the first entry that could reach `aabb` (its lower end
    /// point is at least `a - max_extent`, padded by a few ulps so that rounding
    /// in the subtraction can only widen the scan) and stops at the first entry
    /// that starts after `aabb` ends.
    #[inline]
    pub(crate) fn for_each_overlap(&self, aabb: &Aabb, mut f: impl FnMut(&Entry)) {
        let q = Entry::new(u32::MAX, aabb, self.axis);
        let pad = (q.lo.abs() + self.max_extent) * (8.0 * Real::EPSILON);
        let start = q.lo - self.max_extent - pad;
        let first = self.entries.partition_point(|e| e.lo < start);
        for e in &self.entries[first..] {
            if e.lo > q.hi {
                break;
            }
            if e.hi >= q.lo && e.other_lo <= q.other_hi && q.other_lo <= e.other_hi {
                f(e);
            }
        }
    }

    /// Calls `f(entry, other)` for every entry whose id is `marked` and every other
    /// entry whose box overlaps or touches its box: for each marked entry, the same
    /// overlaps [`SortedAxis::for_each_overlap`] finds for its box, less the entry
    /// itself (in another order).
    ///
    /// One pass of the classic sweep serves all marked entries: each entry looks
    /// forward only, to the entries that start before it ends, so that every
    /// overlapping pair is met once, from its first entry, and reported for
    /// whichever of its two entries is marked. Scanning back from every marked
    /// entry as well (as a lone query must) would meet each pair of marked
    /// entries twice and walk the `max_extent` window besides.
    ///
    /// Only the overlaps whose lower entry is one of `starts` are reported
    /// (each scan still reads ahead past their end): sweeps of consecutive
    /// ranges report, one after the other, exactly what one sweep of their
    /// union does, in the same order, so they may run on several threads.
    #[inline]
    pub(crate) fn for_each_overlap_of_marked(
        &self,
        starts: std::ops::Range<usize>,
        marked: impl Fn(u32) -> bool,
        mut f: impl FnMut(&Entry, &Entry),
    ) {
        let mut met = [0u32; BATCH];
        for (i, e) in self.entries.iter().enumerate().take(starts.end).skip(starts.start) {
            let e_marked = marked(e.id);
            scan_ahead(&self.entries[i + 1..], e, &mut met, |o| {
                if e_marked {
                    f(e, o);
                }
                if marked(o.id) {
                    f(o, e);
                }
            });
        }
    }

    /// Calls `f(entry, other)` for the entry of `id` (whose box is `aabb` and which
    /// was last seen at `hint`) and every other entry whose box overlaps or touches
    /// its box: what [`SortedAxis::for_each_overlap`] finds for `aabb`, less `id`.
    #[inline]
    pub(crate) fn for_each_overlap_of(
        &self,
        id: u32,
        aabb: &Aabb,
        hint: u32,
        mut f: impl FnMut(&Entry, &Entry),
    ) {
        let lo = Entry::new(id, aabb, self.axis).lo;
        match self.position(id, lo, hint) {
            Some(i) => self.for_each_overlap_around(i, f),
            // Unreachable while the array mirrors the proxies' boxes.
            None => {
                let me = Entry::new(id, aabb, self.axis);
                self.for_each_overlap(aabb, |o| {
                    if o.id != id {
                        f(&me, o)
                    }
                })
            }
        }
    }

    /// Calls `f(entry, other)` for the entry at index `i` and every other entry whose
    /// box overlaps or touches its box. The scan starts at the entry itself and
    /// walks back to `lo - max_extent` (padded as in `for_each_overlap`) and
    /// forward to `hi`: the same window a query for its box scans, found without a
    /// binary search, in memory next to the entry.
    #[inline]
    fn for_each_overlap_around(&self, i: usize, mut f: impl FnMut(&Entry, &Entry)) {
        let e = &self.entries[i];
        let pad = (e.lo.abs() + self.max_extent) * (8.0 * Real::EPSILON);
        let start = e.lo - self.max_extent - pad;
        let overlaps = |o: &Entry| o.hi >= e.lo && o.other_lo <= e.other_hi && e.other_lo <= o.other_hi;
        for o in self.entries[..i].iter().rev() {
            if o.lo < start {
                break;
            }
            if overlaps(o) {
                f(e, o);
            }
        }
        // Ahead, every entry starts at or after `e` (so ends there too): the
        // sweep's forward scan serves.
        scan_ahead(&self.entries[i + 1..], e, &mut [0; BATCH], |o| f(e, o));
    }

    /// Gives every entry the box `fat` returns for its id, in this array's
    /// axis (an entry read back from serde holds its id alone, and a region
    /// re-sorted at the end of a batch of refits takes its proxies' new
    /// boxes); `None` for an id without a box. The order is left as it was.
    pub(crate) fn refill(&mut self, fat: impl Fn(u32) -> Option<Aabb>) -> Option<()> {
        for e in &mut self.entries {
            *e = Entry::new(e.id, &fat(e.id)?, self.axis);
        }
        Some(())
    }

    /// The array as a snapshot writes it: its axis, its entries' ids, and its
    /// bound on their lengths with whether that bound is stale.
    #[cfg(feature = "serde")]
    pub(crate) fn parts(&self) -> (Axis, impl Iterator<Item = u32> + '_, Real, bool) {
        (self.axis, self.entries.iter().map(|e| e.id), self.max_extent, self.extent_stale)
    }

    /// The array [`SortedAxis::parts`] gave, its entries' boxes to be put back
    /// by [`SortedAxis::refill`].
    #[cfg(feature = "serde")]
    pub(crate) fn from_parts(axis: Axis, ids: &[u32], max_extent: Real, extent_stale: bool) -> Self {
        let unset = Aabb::new(lamina_geometry::Point::origin(), lamina_geometry::Point::origin());
        let entries = ids.iter().map(|&id| Entry::new(id, &unset, axis)).collect();
        Self { axis, entries, max_extent, extent_stale }
    }

    /// True when the entries are sorted and `max_extent` bounds them (for
    /// tests, and for a structure read back from serde).
    #[cfg(any(test, feature = "serde"))]
    pub(crate) fn is_consistent(&self) -> bool {
        self.entries.windows(2).all(|w| w[0].precedes(&w[1]))
            && self.entries.iter().all(|e| e.extent() <= self.max_extent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lamina_geometry::Point;

    fn bx(x0: Real, y0: Real, x1: Real, y1: Real) -> Aabb {
        Aabb::new(Point::new(x0, y0), Point::new(x1, y1))
    }

    /// The forward scan (rounds of lanes of four, then one by one) meets what
    /// the plain scan spelt out meets, in the same order: boxes on a coarse
    /// lattice, so that bounds often coincide and touching counts, and in
    /// crowds that fill many rounds.
    #[test]
    fn the_forward_scan_meets_what_the_plain_scan_meets() {
        let mut rng = crate::test_rng::Rng(0x2545_f491_4f6c_dd1d);
        let mut next = |n: u64| (rng.next() % n) as Real * 0.25;
        for n in [3usize, 9, 50, 400] {
            let mut sap = SortedAxis::new(Axis::X);
            for id in 0..n as u32 {
                let (x, y) = (next(40), next(40));
                sap.insert(id, &bx(x, y, x + next(12), y + next(12)));
            }
            let entries = sap.entries();
            for (i, e) in entries.iter().enumerate() {
                let ahead = &entries[i + 1..];
                let plain: Vec<u32> = ahead
                    .iter()
                    .take_while(|o| o.lo <= e.hi)
                    .filter(|o| o.other_lo <= e.other_hi && e.other_lo <= o.other_hi)
                    .map(|o| o.id)
                    .collect();
                let mut scanned = Vec::new();
                scan_ahead(ahead, e, &mut [0; BATCH], |o| scanned.push(o.id));
                assert_eq!(scanned, plain, "entry {i} of {n}");
            }
        }
    }

    #[test]
    fn replace_walks_an_entry_to_its_sorted_place() {
        let mut sap = SortedAxis::new(Axis::X);
        let boxes: Vec<Aabb> = (0..10).map(|i| bx(i as Real, 0.0, i as Real + 0.5, 1.0)).collect();
        for (i, b) in boxes.iter().enumerate() {
            sap.insert(i as u32, b);
        }
        sap.replace(0, &boxes[0], &bx(7.25, 0.0, 7.5, 1.0), 0);
        sap.replace(9, &boxes[9], &bx(-3.0, 0.0, -2.0, 1.0), 0);
        assert!(sap.is_consistent());
        let ids: Vec<u32> = sap.entries().iter().map(|e| e.id).collect();
        assert_eq!(ids, vec![9, 1, 2, 3, 4, 5, 6, 7, 0, 8]);
    }

    #[test]
    fn scan_finds_a_long_interval_that_starts_far_to_the_left() {
        let mut sap = SortedAxis::new(Axis::X);
        sap.insert(0, &bx(-100.0, 0.0, 100.0, 1.0));
        for i in 1..50 {
            sap.insert(i, &bx(i as Real * 3.0, 0.0, i as Real * 3.0 + 1.0, 1.0));
        }
        let mut hits = Vec::new();
        sap.for_each_overlap(&bx(40.5, 0.5, 41.0, 0.6), |e| hits.push(e.id));
        hits.sort_unstable();
        assert_eq!(hits, vec![0]);
    }

    /// The sweep over marked entries against the lone queries, brute force,
    /// on a crowd where a scan meets far more entries than one batch holds:
    /// every marked entry gets exactly the overlaps its own query finds.
    #[test]
    fn the_sweep_of_marked_entries_finds_what_their_queries_find() {
        let mut sap = SortedAxis::new(Axis::X);
        let mut boxes = Vec::new();
        for i in 0..300u32 {
            // A dense column: 100 boxes on nearly one spot, the rest spread out,
            // some long on the other axis.
            let x = if i < 100 { (i % 7) as Real * 0.01 } else { (i as Real * 0.37) % 20.0 };
            let y = (i as Real * 0.61) % 5.0;
            let h = if i % 11 == 0 { 4.0 } else { 0.5 };
            let b = bx(x, y, x + 0.6, y + h);
            sap.insert(i, &b);
            boxes.push(b);
        }
        let marked = |id: u32| id % 3 != 1;
        let mut swept: Vec<(u32, u32)> = Vec::new();
        sap.for_each_overlap_of_marked(0..sap.len(), marked, |e, o| swept.push((e.id, o.id)));
        // Swept in runs of entries, one after the other: the same list.
        for run in [1, 7, 64, 299] {
            let mut in_runs = Vec::new();
            for start in (0..sap.len()).step_by(run) {
                let starts = start..sap.len().min(start + run);
                sap.for_each_overlap_of_marked(starts, marked, |e, o| in_runs.push((e.id, o.id)));
            }
            assert_eq!(in_runs, swept, "runs of {run}");
        }
        swept.sort_unstable();
        let mut queried: Vec<(u32, u32)> = Vec::new();
        for (i, b) in boxes.iter().enumerate() {
            let i = i as u32;
            if marked(i) {
                sap.for_each_overlap(b, |o| {
                    if o.id != i {
                        queried.push((i, o.id))
                    }
                });
            }
        }
        queried.sort_unstable();
        assert_eq!(swept, queried);
        assert!(swept.iter().filter(|&&(e, _)| e == 0).count() > 64, "the column must overflow a batch");
    }

    #[test]
    fn switching_axis_resorts_and_keeps_boxes() {
        let mut sap = SortedAxis::new(Axis::X);
        for i in 0..20u32 {
            let y = ((i * 7) % 20) as Real;
            sap.insert(i, &bx(0.0, y, 1.0, y + 0.5));
        }
        sap.set_axis(Axis::Y);
        assert!(sap.is_consistent());
        for e in sap.entries() {
            let y = ((e.id * 7) % 20) as Real;
            assert_eq!(e.aabb(Axis::Y), bx(0.0, y, 1.0, y + 0.5));
        }
    }
}
