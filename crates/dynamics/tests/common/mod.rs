//! Helpers shared by the dynamics integration tests.
#![allow(dead_code)]

use lamina_geometry::Real;

/// A small deterministic generator.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn unit(&mut self) -> Real {
        (self.next() >> 40) as Real / (1u64 << 24) as Real
    }

    pub fn range(&mut self, lo: Real, hi: Real) -> Real {
        lo + (hi - lo) * self.unit()
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// One of the given values, or a random one in `lo..hi`.
    pub fn edge_or(&mut self, edges: &[Real], lo: Real, hi: Real) -> Real {
        if self.unit() < 0.4 { edges[self.below(edges.len())] } else { self.range(lo, hi) }
    }
}
