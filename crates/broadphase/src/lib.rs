//! Lamina's broad phase: incremental sweep-and-prune over fat AABBs, with a
//! persistent pair set that reports only the pairs that began or ended.
