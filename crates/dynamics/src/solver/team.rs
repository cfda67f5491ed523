//! Running the solver's passes on a team of threads that stays together for
//! the whole solve.
//!
//! A step's solve is a long list of short passes: fill each colour's contact
//! bundles; per substep, integrate the velocities, warm start each colour,
//! solve each colour, integrate the positions, relax each colour; after the
//! substeps, restitution per colour and the contacts' impulses gathered.
//! With four substeps and a dozen colours that is over a hundred passes of
//! some tens of microseconds each. Handing each pass to the thread pool on
//! its own (a fork and a join per pass) pays a wake-up and a hand-over per
//! pass, which grew with the thread count until it ate the gain: on a
//! 16-core machine large_pyramid's solver took 3.2 ms on one thread and 2.05
//! on sixteen.
//!
//! Here the caller leads and up to `threads − 1` helpers join it once per
//! solve, all of them staying until the last pass is done. A pass is cut into
//! blocks, and each member has a share of them, the same part of every pass:
//! it runs the blocks of its share first, in order, then claims any block
//! of the others' shares still unclaimed (an atomic bit per block), until
//! none is left; the leader, once every block of a pass is done, opens the
//! next. Helpers wait for the next pass spinning, not sleeping, so that a
//! pass starts in well under a microsecond.
//!
//! The shares keep each member on the same bodies from pass to pass: the
//! constraints of a colour lie in the order they were listed, near their
//! bodies' indices, so the blocks a member runs in one colour touch much the
//! bodies its blocks touched in the last, still in its own cache. Claimed
//! from one counter, the blocks fell to the members by turns, and a body's
//! state crossed between the cores' caches at nearly every pass; on the
//! two-core machine the shares cut the substeps on two threads by 5 to 15 %
//! (none for smash). Where a colour's constraints mix bodies from all over
//! (spinner, tumbler) two threads still solve the contacts slower than one;
//! the pace (`parallel/pace.rs`) then runs the passes on the calling thread alone.
//!
//! **Determinism.** What a block computes depends on its items alone: items
//! of one pass share no movable body (constraints of one colour, see
//! `constraint_graph.rs`; bodies one by one in integration), so which thread
//! runs a block, and in which order blocks finish, changes no bit. A pass
//! marked serial (the overflow colour, whose constraints may share bodies) is
//! one block, run in item order.
//!
//! **Progress.** Nothing waits for a helper to arrive: the leader does every
//! block no one else has claimed, so a pool busy elsewhere (many worlds
//! stepped side by side) only means a smaller team. A helper that arrives
//! after the last pass finds the team finished and leaves at once. The
//! leader waits only for blocks already claimed, each of which is being run.
//! A panic in any member ends the team (the others stop waiting) and is passed
//! on to the caller by the pool. A helper taken by a thread of a busy pool
//! (worlds stepped side by side) holds that thread until the solve ends; it
//! is the newest job on its queue, so threads take it only once older work
//! there is gone, and a world too small to share its passes forms no team.

use std::marker::PhantomData;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use crate::parallel::handoff::{OnDrop, pause};

/// Blocks per member of the team that a large pass is cut into: more than
/// one, so that a member slowed by something else leaves part of its share to
/// the others, not so many that claiming them costs much.
const BLOCKS_PER_MEMBER: usize = 4;

/// The most blocks a pass is cut into: one bit each in the claim word.
const MAX_BLOCKS: usize = u64::BITS as usize;

/// The value of the current pass once the team is finished.
const FINISHED: usize = usize::MAX;

/// One pass: `items` items of work `work`, cut into blocks of at least
/// `min_block` items (a serial pass's block is all of them).
#[derive(Clone, Copy, Debug)]
struct TeamPass<W> {
    work: W,
    items: usize,
    min_block: usize,
    /// Set when the team is formed: the length of every block but the last.
    block_len: usize,
    blocks: usize,
}

/// A pass's counters, each on its own cache line: the blocks claimed, a bit
/// each (set by every member as it starts a block), and the blocks done
/// (added to as each ends, and watched by the leader), so that the two do not
/// contend.
#[derive(Default)]
struct PassCounters {
    claimed: OwnLine,
    done: OwnLine,
}

/// A counter alone on its cache line.
#[derive(Default)]
#[repr(align(64))]
struct OwnLine(AtomicU64);

impl std::ops::Deref for OwnLine {
    type Target = AtomicU64;
    fn deref(&self) -> &AtomicU64 {
        &self.0
    }
}

/// The passes of one solve, kept with their counters from step to step so
/// that a warm step allocates nothing.
pub(crate) struct Team<W> {
    passes: Vec<TeamPass<W>>,
    counters: Vec<PassCounters>,
}

impl<W> Default for Team<W> {
    fn default() -> Self {
        Self { passes: Vec::new(), counters: Vec::new() }
    }
}

impl<W: Copy + Send + Sync> Team<W> {
    /// Forgets the passes of the last solve.
    pub fn clear(&mut self) {
        self.passes.clear();
    }

    /// Adds a pass of `items` items of `work` that may be split into
    /// blocks of at least `min_block` items. Passes without items are left out.
    pub fn push(&mut self, work: W, items: usize, min_block: usize) {
        if items > 0 {
            self.passes.push(TeamPass {
                work,
                items,
                min_block: min_block.max(1),
                block_len: items,
                blocks: 1,
            });
        }
    }

    /// How many passes the team runs.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.passes.len()
    }

    /// The items of every pass together: the work of a solve, to time it by.
    pub fn items(&self) -> usize {
        self.passes.iter().map(|s| s.items).sum()
    }

    /// Adds a pass of `items` items of `work` that one thread runs in order:
    /// a block may hold no fewer than all of them.
    pub fn push_serial(&mut self, work: W, items: usize) {
        self.push(work, items, items);
    }

    /// Runs every pass in order, calling `run(work, items)` on each block,
    /// on the calling thread and up to `threads − 1` helpers from the current
    /// rayon pool; fewer if no pass has enough items to share.
    pub fn run<F>(&mut self, threads: usize, run: &F)
    where
        F: Fn(W, Range<usize>) + Sync,
    {
        let widest = self.passes.iter().map(|s| s.items / s.min_block).max();
        let members = threads.min(widest.unwrap_or(0)).max(1);
        if members == 1 {
            for pass in &self.passes {
                run(pass.work, 0..pass.items);
            }
            return;
        }
        for pass in &mut self.passes {
            let blocks = block_count(pass.items, pass.min_block, members);
            pass.block_len = pass.items.div_ceil(blocks);
            pass.blocks = pass.items.div_ceil(pass.block_len);
        }
        if self.counters.len() < self.passes.len() {
            self.counters.resize_with(self.passes.len(), PassCounters::default);
        }
        for c in &self.counters[..self.passes.len()] {
            c.claimed.store(0, Ordering::Relaxed);
            c.done.store(0, Ordering::Relaxed);
        }
        let shared = Shared {
            passes: &self.passes,
            counters: &self.counters,
            members,
            current: AtomicUsize::new(0),
            failed: AtomicBool::new(false),
            run,
        };
        shared.gather(members - 1);
    }
}

/// How many blocks a pass of `items` items, at least `min_block` to a
/// block, is cut into for a team of `members`.
fn block_count(items: usize, min_block: usize, members: usize) -> usize {
    (items / min_block).clamp(1, (BLOCKS_PER_MEMBER * members).min(MAX_BLOCKS))
}

/// Whether a pass of `items` items, at least `min_block` to a block, is ever
/// cut into more than one block, whatever the size of the team: a pass that
/// is not runs on one thread.
pub(crate) fn splits(items: usize, min_block: usize) -> bool {
    items >= 2 * min_block.max(1)
}

/// What the members of a team share while it works.
struct Shared<'a, W, F> {
    passes: &'a [TeamPass<W>],
    counters: &'a [PassCounters],
    /// The team's size: the leader is member 0, the helpers 1 and on.
    members: usize,
    /// The open pass plus one; 0 before the first, [`FINISHED`] after the last.
    current: AtomicUsize,
    /// Set when a member panicked: the others stop waiting.
    failed: AtomicBool,
    run: &'a F,
}

impl<W: Copy + Send + Sync, F: Fn(W, Range<usize>) + Sync> Shared<'_, W, F> {
    /// Offers `helpers` helper tasks to the pool, then leads. Each level of
    /// the recursion leaves one helper on this thread's queue for an idle
    /// thread to take; a helper still there when the leader is done is run
    /// here and finds the team finished.
    fn gather(&self, helpers: usize) {
        if helpers == 0 {
            self.lead();
        } else {
            rayon::join(|| self.gather(helpers - 1), || self.help(helpers));
        }
    }

    /// Opens the passes one by one, works on each, and waits for its blocks.
    fn lead(&self) {
        // Whatever happens, the helpers are released at the end.
        let _finish = OnDrop(|| self.current.store(FINISHED, Ordering::Release));
        for (i, pass) in self.passes.iter().enumerate() {
            self.current.store(i + 1, Ordering::Release);
            self.work_on(i, 0);
            let done = &self.counters[i].done;
            let mut spins = 0;
            while done.load(Ordering::Acquire) < pass.blocks as u64 {
                if self.failed.load(Ordering::Relaxed) {
                    return;
                }
                pause(&mut spins);
            }
        }
    }

    /// Works on each pass the leader opens until the team is finished, as
    /// member `member`.
    fn help(&self, member: usize) {
        let _failed = OnDrop(|| {
            if std::thread::panicking() {
                self.failed.store(true, Ordering::Relaxed);
            }
        });
        let mut seen = 0;
        let mut spins = 0;
        loop {
            let now = self.current.load(Ordering::Acquire);
            if now == FINISHED {
                return;
            }
            if now != seen {
                seen = now;
                spins = 0;
                self.work_on(now - 1, member);
            } else {
                pause(&mut spins);
            }
        }
    }

    /// Claims and runs blocks of pass `i` until none is left, as member
    /// `member`: the blocks of its share first, then those after it, round
    /// to the ones before.
    fn work_on(&self, i: usize, member: usize) {
        let (pass, counters) = (&self.passes[i], &self.counters[i]);
        let first = member * pass.blocks.div_ceil(self.members);
        for block in (first..pass.blocks).chain(0..first.min(pass.blocks)) {
            let bit = 1u64 << block;
            // A look first: most blocks of the others' shares are taken.
            if counters.claimed.load(Ordering::Relaxed) & bit != 0
                || counters.claimed.fetch_or(bit, Ordering::Relaxed) & bit != 0
            {
                continue;
            }
            let start = block * pass.block_len;
            (self.run)(pass.work, start..(start + pass.block_len).min(pass.items));
            // Release: the block's writes are seen by whoever sees it done.
            counters.done.fetch_add(1, Ordering::Release);
        }
    }
}

/// A slice whose items the blocks of a pass change, each block its own (or,
/// through [`BlockSlice::get`], each block the items its constraints name).
///
/// The team guarantees what makes this sound: within a pass every item
/// belongs to exactly one block, each block is run by one thread, and a pass
/// opens only after every block of the one before is done (an acquire of the
/// counter every block released).
pub(crate) struct BlockSlice<'a, T> {
    ptr: *mut T,
    len: usize,
    _slice: PhantomData<&'a mut [T]>,
}

// SAFETY: the slice hands out disjoint parts to the threads of a team (see
// `range`); `T: Send` lets them be changed on another thread.
unsafe impl<T: Send> Sync for BlockSlice<'_, T> {}

impl<'a, T> BlockSlice<'a, T> {
    pub fn new(items: &'a mut [T]) -> Self {
        Self { ptr: items.as_mut_ptr(), len: items.len(), _slice: PhantomData }
    }

    /// A pointer to item `i`, or `None` past the end: one comparison that
    /// also tells an index standing for no item (`NO_INDEX`) from a real one.
    #[inline(always)]
    pub fn get(&self, i: usize) -> Option<*mut T> {
        // SAFETY: in bounds (checked), within the one allocation.
        (i < self.len).then(|| unsafe { self.ptr.add(i) })
    }

    /// The items `range`, which must be in bounds (checked).
    ///
    /// # Safety
    ///
    /// No other reference to any of these items may be alive while the
    /// returned one is: the caller runs one block of a pass, and no other
    /// block of the pass holds any of its items.
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn range(&self, range: Range<usize>) -> &mut [T] {
        assert!(range.start <= range.end && range.end <= self.len);
        // SAFETY: in bounds (checked above); exclusive by the caller's promise.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(range.start), range.len()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pass of items each added to a running total of its own, so
    /// that a block run twice, skipped or run out of pass order shows.
    fn run_passes(threads: usize) -> Vec<u64> {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let mut totals = vec![0u64; 1000];
        let mut team = Team::default();
        for pass in 0..50u64 {
            team.push(pass, 1000, 7);
        }
        team.push_serial(50, 1000);
        let slice = BlockSlice::new(&mut totals);
        pool.install(|| {
            team.run(threads, &|pass: u64, items: Range<usize>| {
                // SAFETY: one block's items.
                for t in unsafe { slice.range(items) } {
                    // Not commutative: a pass run before the one
                    // before it gives another number.
                    *t = t.wrapping_mul(3).wrapping_add(pass);
                }
            })
        });
        totals
    }

    #[test]
    fn every_item_runs_once_per_pass_in_pass_order() {
        let expected = (0..=50u64).fold(0u64, |t, pass| t.wrapping_mul(3).wrapping_add(pass));
        for threads in [1, 2, 3, 8, 20] {
            assert!(run_passes(threads).iter().all(|&t| t == expected), "{threads} threads");
        }
    }

    /// `splits` tells, for any team, whether a pass is cut into more than
    /// one block: the promise the solver relies on when it runs passes that
    /// do not split one after the other on one thread.
    #[test]
    fn passes_that_do_not_split_are_one_block_for_any_team() {
        for min_block in [1, 2, 8, 256] {
            for items in 1..5 * min_block {
                for members in 2..=16 {
                    let blocks = block_count(items, min_block, members);
                    assert_eq!(splits(items, min_block), blocks > 1, "{items} items, {min_block}, {members}");
                }
            }
        }
    }

    #[test]
    fn a_panicking_block_reaches_the_caller_without_hanging() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
        let mut team = Team::default();
        for pass in 0..20usize {
            team.push(pass, 64, 1);
        }
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pool.install(|| {
                team.run(4, &|pass: usize, items: Range<usize>| {
                    assert!(!(pass == 5 && items.contains(&40)), "block fails");
                })
            })
        }));
        assert!(result.is_err());
    }
}
