//! How the threads that share a step's work wait for each other, and how
//! they are released however a scope ends: the solver's team
//! (`solver/team.rs`) and the step's poller (`pool_poller.rs`).

/// Spins in a wait before the waiting thread starts yielding its core: the
/// work waited for (a team's next pass, the next shared stage of a step)
/// usually comes within a few thousand spins, and yielding keeps a waiting
/// thread on an oversubscribed machine from starving the one it waits for.
const SPINS_BEFORE_YIELD: u32 = 1 << 12;

/// One turn of a wait: spin, then after [`SPINS_BEFORE_YIELD`] turns yield.
/// `spins` counts the turns since the wait began (set it to zero when
/// something arrives).
#[inline]
pub(crate) fn pause(spins: &mut u32) {
    if *spins < SPINS_BEFORE_YIELD {
        *spins += 1;
        std::hint::spin_loop();
    } else {
        std::thread::yield_now();
    }
}

/// Runs its closure when dropped, on the way out of a scope or a panic:
/// what releases the threads waiting on this one must happen either way.
pub(crate) struct OnDrop<G: Fn()>(pub(crate) G);

impl<G: Fn()> Drop for OnDrop<G> {
    fn drop(&mut self) {
        (self.0)();
    }
}
