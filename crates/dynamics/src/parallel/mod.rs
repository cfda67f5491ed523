//! The thread plumbing of a step, apart from the physics: whether a step's
//! work is shared with the rayon pool or kept on the calling thread
//! (`pace.rs`), a thread of the pool kept looking for work through a step
//! (`pool_poller.rs`), how sharing threads wait for each other and are
//! released (`handoff.rs`), the hints that bring memory in before it is read
//! (`prefetch.rs`), and the values of one slot map borrowed mutably at once
//! for several threads (`disjoint.rs`).

pub(crate) mod disjoint;
pub(crate) mod handoff;
pub(crate) mod pace;
pub(crate) mod pool_poller;
pub(crate) mod prefetch;
