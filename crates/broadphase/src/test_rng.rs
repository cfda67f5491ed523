//! A seeded generator for the crate's unit tests (xorshift64), so every test
//! replays the same scene without a dependency.

use lamina_geometry::Real;

pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in [0, 1).
    pub(crate) fn unit(&mut self) -> Real {
        (self.next() >> 11) as Real / (1u64 << 53) as Real
    }

    /// Uniform in [lo, hi).
    #[cfg_attr(not(feature = "serde"), allow(dead_code))] // the column tests are serde's
    pub(crate) fn range(&mut self, lo: Real, hi: Real) -> Real {
        lo + (hi - lo) * self.unit()
    }
}
