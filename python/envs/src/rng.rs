//! The environments' random stream: xoshiro256++ seeded through SplitMix64.
//!
//! Small, fast and of good statistical quality (Blackman and Vigna, 2018);
//! its sequence is fixed by its seed on every platform, which is what makes an
//! episode reproducible from `reset(seed=...)`.

/// A xoshiro256++ generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    state: [u64; 4],
}

impl Rng {
    /// A generator whose whole sequence is fixed by `seed`; nearby seeds give
    /// unrelated sequences (SplitMix64 spreads the seed over the state).
    pub fn new(seed: u64) -> Self {
        let mut s = seed;
        let mut next = || {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        Self { state: [next(), next(), next(), next()] }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let [s0, s1, s2, s3] = &mut self.state;
        let result = s0.wrapping_add(*s3).rotate_left(23).wrapping_add(*s0);
        let t = *s1 << 17;
        *s2 ^= *s0;
        *s3 ^= *s1;
        *s1 ^= *s2;
        *s0 ^= *s3;
        *s2 ^= t;
        *s3 = s3.rotate_left(45);
        result
    }

    /// A number in [0, 1), from the top 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A number in [low, high), as NumPy's `uniform(low, high)`.
    pub fn uniform(&mut self, low: f64, high: f64) -> f64 {
        low + (high - low) * self.unit()
    }

    /// An integer in [low, high), as NumPy's `integers(low, high)`; `high > low`.
    pub fn integers(&mut self, low: i64, high: i64) -> i64 {
        let span = high.wrapping_sub(low) as u64;
        // Lemire's multiply-shift: unbiased enough for spans far below 2^64.
        let r = ((self.next_u64() as u128 * span as u128) >> 64) as u64;
        low.wrapping_add(r as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_seed_one_sequence_and_different_seeds_differ() {
        let (mut a, mut b, mut c) = (Rng::new(7), Rng::new(7), Rng::new(8));
        let xs: Vec<u64> = (0..8).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..8).map(|_| b.next_u64()).collect();
        let zs: Vec<u64> = (0..8).map(|_| c.next_u64()).collect();
        assert_eq!(xs, ys);
        assert!(xs.iter().zip(&zs).all(|(x, z)| x != z));
    }

    #[test]
    fn uniform_and_integers_stay_in_range_and_fill_it() {
        let mut rng = Rng::new(1);
        let (mut lo, mut hi) = (f64::MAX, f64::MIN);
        let mut seen = [0u32; 10];
        let mut sum = 0.0;
        for _ in 0..100_000 {
            let u = rng.uniform(-2.0, 3.0);
            assert!((-2.0..3.0).contains(&u));
            (lo, hi) = (lo.min(u), hi.max(u));
            sum += u;
            let k = rng.integers(-5, 5);
            assert!((-5..5).contains(&k));
            seen[(k + 5) as usize] += 1;
        }
        assert!(lo < -1.99 && hi > 2.99, "{lo} {hi}");
        // The mean of 100,000 uniform draws on [-2, 3) is 0.5 within a few
        // standard errors (5/sqrt(12)/sqrt(1e5) = 0.0046).
        assert!((sum / 100_000.0 - 0.5).abs() < 0.02, "{}", sum / 100_000.0);
        assert!(seen.iter().all(|&n| (9_000..11_000).contains(&n)), "{seen:?}");
    }
}
