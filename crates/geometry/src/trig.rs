//! Sine, cosine and arctangent from basic arithmetic only, so that they give the
//! same bits on every platform.
//!
//! The standard library's `sin`, `cos` and `atan2` call the platform's maths
//! library, whose last bit differs between systems; a physics step that used them
//! (to turn an angle into a rotation, say) would drift apart across machines.
//! These functions use only `+ − × ÷` and `sqrt`, all correctly rounded by IEEE
//! 754, evaluated in a fixed order in f64 (Rust never fuses multiply-adds on its
//! own), then rounded once to [`Real`]. They are accurate to a few ulps of f64,
//! far below f32's resolution.

use crate::math::Real;

const PI: f64 = std::f64::consts::PI;
const FRAC_PI_2: f64 = std::f64::consts::FRAC_PI_2;

/// `(sin x, cos x)`, identical on every platform.
#[allow(clippy::unnecessary_cast)] // a no-op with the `f64` feature
pub fn sin_cos(x: Real) -> (Real, Real) {
    let (s, c) = sin_cos_f64(x as f64);
    (s as Real, c as Real)
}

/// `atan2(y, x)` in (−π, π], identical on every platform.
#[allow(clippy::unnecessary_cast)] // a no-op with the `f64` feature
pub fn atan2(y: Real, x: Real) -> Real {
    atan2_f64(y as f64, x as f64) as Real
}

/// The coefficients of [`atan2_fast`]'s polynomial in the squared ratio,
/// lowest first: the published ten digits of Abramowitz & Stegun 4.4.49,
/// kept for the `f64` build. Public so that code evaluating the same
/// arctangent several at a time (the solver's SIMD lanes) gets the same bits.
#[allow(clippy::excessive_precision)]
pub const ATAN2_FAST_COEFFICIENTS: [Real; 8] = [
    0.999_999_332_9,
    -0.333_298_560_5,
    0.199_465_359_9,
    -0.139_085_335_1,
    0.096_420_044_1,
    -0.055_909_886_1,
    0.021_861_228_8,
    -0.004_054_058_0,
];

/// `atan2(y, x)` in [−π, π] to within 4 × 10⁻⁸ rad (plus rounding in
/// [`Real`]), identical on every platform, from one division and a polynomial:
/// fast enough for a solver's inner loop, where [`atan2`]'s series is not. The
/// ratio of the smaller to the larger magnitude goes through the odd
/// polynomial of Abramowitz & Stegun 4.4.49 (error about 2 × 10⁻⁸ on [0, 1]
/// with exact coefficients; 3.8 × 10⁻⁸ measured with their ten digits),
/// then is unfolded to the right octant. `(0, 0)` gives 0; NaN gives NaN.
#[inline]
pub fn atan2_fast(y: Real, x: Real) -> Real {
    const C: [Real; 8] = ATAN2_FAST_COEFFICIENTS;
    let (ax, ay) = (x.abs(), y.abs());
    let (small, large) = if ay > ax { (ax, ay) } else { (ay, ax) };
    if large == 0.0 {
        return if x.is_nan() || y.is_nan() { Real::NAN } else { 0.0 };
    }
    let t = small / large;
    let t2 = t * t;
    let mut p = C[7];
    for &c in C[..7].iter().rev() {
        p = p * t2 + c;
    }
    let mut a = t * p;
    let half_pi = (PI / 2.0) as Real;
    if ay > ax {
        a = half_pi - a;
    }
    if x < 0.0 {
        a = PI as Real - a;
    }
    if y < 0.0 { -a } else { a }
}

/// Beyond this magnitude `k·(π/2)` below is rounded by more than π/4, so the
/// reduction would leave an argument the series cannot take.
const LARGEST_REDUCED_DIRECTLY: f64 = (1u64 << 50) as f64;

fn sin_cos_f64(x: f64) -> (f64, f64) {
    if !x.is_finite() {
        return (f64::NAN, f64::NAN);
    }
    // A huge angle is first brought within one turn by the remainder of 2π,
    // which IEEE 754 defines exactly: every platform gets the same (if, at
    // such magnitudes, physically meaningless) unit vector, never a NaN.
    let x = if x.abs() > LARGEST_REDUCED_DIRECTLY { x % std::f64::consts::TAU } else { x };
    // Reduce to r in [−π/4, π/4] with x = k·π/2 + r. π/2 is split in two parts
    // (Cody–Waite) so that k·(π/2) is subtracted without losing r's precision.
    const PIO2_HI: f64 = FRAC_PI_2; // π/2 rounded to f64
    const PIO2_LO: f64 = 6.123_233_995_736_766e-17; // π/2 − PIO2_HI
    let k = (x / FRAC_PI_2).round();
    let r = (x - k * PIO2_HI) - k * PIO2_LO;
    let (s, c) = (sin_poly(r), cos_poly(r));
    match (k as i64).rem_euclid(4) {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

/// Taylor series of sin on [−π/4, π/4], to r¹⁹: the truncation error is below
/// (π/4)²¹/21! ≈ 3e−22.
fn sin_poly(r: f64) -> f64 {
    let r2 = r * r;
    let mut term = r;
    let mut sum = r;
    for n in 1..10 {
        term *= -r2 / ((2 * n) as f64 * (2 * n + 1) as f64);
        sum += term;
    }
    sum
}

/// Taylor series of cos on [−π/4, π/4], to r¹⁸.
fn cos_poly(r: f64) -> f64 {
    let r2 = r * r;
    let mut term = 1.0;
    let mut sum = 1.0;
    for n in 1..10 {
        term *= -r2 / ((2 * n - 1) as f64 * (2 * n) as f64);
        sum += term;
    }
    sum
}

fn atan2_f64(y: f64, x: f64) -> f64 {
    if y.is_nan() || x.is_nan() {
        return f64::NAN;
    }
    if x == 0.0 && y == 0.0 {
        return if x.is_sign_negative() { if y.is_sign_negative() { -PI } else { PI } } else { y };
    }
    // atan of the ratio of the smaller to the larger magnitude, in [0, 1], then
    // unfolded to the right octant.
    let (ax, ay) = (x.abs(), y.abs());
    let (small, large, swapped) = if ay > ax { (ax, ay, true) } else { (ay, ax, false) };
    let mut a = atan_unit(if large.is_infinite() {
        if small.is_infinite() { 1.0 } else { 0.0 }
    } else {
        small / large
    });
    if swapped {
        a = FRAC_PI_2 - a;
    }
    if x < 0.0 {
        a = PI - a;
    }
    if y < 0.0 || (y == 0.0 && y.is_sign_negative()) { -a } else { a }
}

/// atan(t) for t in [0, 1]: halve the argument twice with
/// atan(t) = 2·atan(t / (1 + √(1 + t²))), which brings it below tan(π/16) ≈ 0.2,
/// then sum the series t − t³/3 + t⁵/5 − ..., whose 20 terms leave an error
/// below 0.2⁴¹/41.
fn atan_unit(t: f64) -> f64 {
    let mut t = t;
    let mut scale = 1.0;
    for _ in 0..2 {
        t /= 1.0 + (1.0 + t * t).sqrt();
        scale *= 2.0;
    }
    let t2 = t * t;
    let mut power = t;
    let mut sum = 0.0;
    for n in 0..20 {
        let term = power / (2 * n + 1) as f64;
        sum += if n % 2 == 0 { term } else { -term };
        power *= t2;
    }
    scale * sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::FRAC_PI_4;

    #[test]
    fn sin_cos_agree_with_the_standard_library_to_an_ulp_or_two() {
        for i in -2000..=2000 {
            let x = i as f64 * 0.0123456;
            let (s, c) = sin_cos_f64(x);
            assert!((s - x.sin()).abs() < 4e-16 * (1.0 + x.abs()), "sin({x})");
            assert!((c - x.cos()).abs() < 4e-16 * (1.0 + x.abs()), "cos({x})");
        }
        assert_eq!(sin_cos_f64(0.0), (0.0, 1.0));
        assert_eq!(sin_cos_f64(FRAC_PI_2).0, 1.0);
    }

    #[test]
    #[allow(clippy::unnecessary_cast)] // a no-op with the `f64` feature
    fn fast_atan2_is_within_its_bound_of_the_standard_library() {
        // The polynomial's bound plus rounding in `Real` near π.
        let bound = 4e-8;
        let mut worst: f64 = 0.0;
        for i in -300..=300 {
            for j in -300..=300 {
                let (y, x) = (i as Real * 0.0137, j as Real * 0.0291);
                let ours = atan2_fast(y, x) as f64;
                let exact = (y as f64).atan2(x as f64);
                if i != 0 || j != 0 {
                    worst = worst.max((ours - exact).abs());
                }
            }
        }
        assert!(worst < bound + 4.0 * Real::EPSILON as f64, "worst error {worst}");
        assert_eq!(atan2_fast(0.0, 0.0), 0.0);
        assert_eq!(atan2_fast(0.0, 1.0), 0.0);
        assert!((atan2_fast(1.0, 0.0) as f64 - FRAC_PI_2).abs() < 1e-6);
        assert!((atan2_fast(0.0, -1.0) as f64 - PI).abs() < 1e-6);
        assert!(atan2_fast(Real::NAN, 1.0).is_nan());
    }

    #[test]
    fn atan2_agrees_with_the_standard_library() {
        for i in -60..=60 {
            for j in -60..=60 {
                let (y, x) = (i as f64 * 0.37, j as f64 * 0.29);
                let ours = atan2_f64(y, x);
                assert!((ours - y.atan2(x)).abs() < 1e-15, "atan2({y}, {x}) = {ours} vs {}", y.atan2(x));
            }
        }
        assert_eq!(atan2_f64(1.0, 0.0), FRAC_PI_2);
        assert_eq!(atan2_f64(0.0, -1.0), PI);
        assert!(atan2_f64(f64::NAN, 1.0).is_nan());
        assert_eq!(atan2_f64(f64::INFINITY, f64::INFINITY), FRAC_PI_4);
    }
}
