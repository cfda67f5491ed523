//! A seeded generator for the crate's unit tests (xorshift64), so every test
//! replays the same data without a dependency.

use lamina_geometry::Real;

pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in [0, 1), on a grid of 2⁻²⁴ (exact in either precision).
    pub(crate) fn unit(&mut self) -> Real {
        (self.next() >> 40) as Real / (1u64 << 24) as Real
    }
}
