//! The events the broad phase reports.

/// A change in the set of overlapping pairs, as reported by
/// [`SweepAndPrune::update_pairs`](crate::SweepAndPrune::update_pairs).
///
/// The two keys are always ordered, `a < b` by `K`'s `Ord`, so that a pair has one
/// spelling and callers can use it as a map key without normalising it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PairEvent<K> {
    /// The fat boxes of `a` and `b` began to overlap (touching counts).
    Begin(K, K),
    /// The fat boxes of `a` and `b` stopped overlapping, or one of them was removed.
    End(K, K),
}

impl<K: Copy> PairEvent<K> {
    /// The pair's keys, `a < b`.
    #[inline]
    pub fn keys(&self) -> (K, K) {
        match *self {
            PairEvent::Begin(a, b) | PairEvent::End(a, b) => (a, b),
        }
    }

    /// True for [`PairEvent::Begin`].
    #[inline]
    pub fn is_begin(&self) -> bool {
        matches!(self, PairEvent::Begin(..))
    }
}
