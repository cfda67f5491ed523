//! Numbers in SIMD lanes: the solver works on several constraints at once.
//!
//! [`Lanes`] is what the solver's lane code asks of a SIMD type. [`Wide`], the
//! type every build has, is `wide::f32x4` (or `f64x4` with the `f64`
//! feature): SSE on x86-64, NEON on aarch64, plain arrays elsewhere. On x86-64
//! processors with AVX, contacts are solved eight at a time in
//! `Avx8` instead, chosen when the program runs
//! (`avx.rs`). Only operations that IEEE 754 rounds exactly the same way on
//! every target are used — add, subtract, multiply, divide, square root,
//! compare, select —
//! never a fused multiply-add, and `max` and `min` are compare-and-select
//! (`a > b ? a : b`; WebAssembly's `pmax` and `pmin` are defined as exactly
//! that), because the instructions behind `maxps` and NEON's `fmaxnm`
//! disagree on the sign of a zero result. So the lane width never
//! changes a result: each lane computes exactly what it would alone.

use std::fmt::Debug;
use std::ops::{Add, AddAssign, BitAnd, BitOr, BitXor, Div, Mul, Neg, Not, Sub, SubAssign};

use lamina_geometry::Real;
/// How the eight-lane passes are encoded: the same 256-bit operations either
/// way, in AVX's encoding (sixteen vector registers) or in AVX-512's
/// (thirty-two, so that fewer of a bundle's values spill to the stack).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(all(target_arch = "x86_64", not(feature = "f64"))), allow(dead_code))]
pub(crate) enum Encoding {
    Vex,
    Evex,
}

#[cfg(test)]
use lamina_geometry::{Rotation, Vec2};

use crate::body::NO_INDEX;

/// A SIMD vector of [`Lanes::N`] numbers, and its masks (of the same type:
/// every bit set in a lane where true, clear where false).
pub(crate) trait Lanes:
    Copy
    + Debug
    + Send
    + Sync
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + 'static
{
    /// The number of lanes.
    const N: usize;
    /// Zero in every lane.
    const ZERO: Self;
    /// One in every lane.
    const ONE: Self;
    /// One index per lane (the bodies and constraints of a bundle).
    type Indices: Copy + Debug + Send + Sync + AsRef<[u32]> + AsMut<[u32]>;
    /// [`NO_INDEX`] in every lane.
    const NO_INDICES: Self::Indices;

    /// `v` in every lane.
    fn splat(v: Real) -> Self;
    /// Lane `l`.
    fn lane(&self, l: usize) -> Real;
    /// Sets lane `l` to `v`.
    fn set_lane(&mut self, l: usize, v: Real);
    /// Per lane, `self > o`.
    fn simd_gt(self, o: Self) -> Self;
    /// Per lane, `self < o`.
    fn simd_lt(self, o: Self) -> Self;
    /// Per lane, `self >= o`.
    fn simd_ge(self, o: Self) -> Self;
    /// Per lane, `self <= o`.
    fn simd_le(self, o: Self) -> Self;
    /// Per lane, `self == o`.
    fn simd_eq(self, o: Self) -> Self;
    /// Per lane, the larger of `self` and `o` (`o` when they compare equal,
    /// or when either is NaN): `self > o ? self : o`. Not `maxps`'s or
    /// NEON's rule for zeros of either sign; the same bits on every target.
    #[inline(always)]
    fn lane_max(self, o: Self) -> Self {
        self.simd_gt(o).select(self, o)
    }
    /// Per lane, the smaller of `self` and `o` (`o` when they compare equal,
    /// or when either is NaN): `self < o ? self : o`.
    #[inline(always)]
    fn lane_min(self, o: Self) -> Self {
        self.simd_lt(o).select(self, o)
    }
    /// This mask: `if_true` where set, `if_false` elsewhere.
    fn select(self, if_true: Self, if_false: Self) -> Self;
    /// True when this mask is set in some lane.
    fn any(self) -> bool;
    /// This mask as bits: bit `l` set where lane `l` is.
    fn bits(self) -> u32;
    /// Per lane, the square root (IEEE, correctly rounded).
    fn sqrt(self) -> Self;
    /// Sets this mask in lane `l`.
    fn set_flag(&mut self, l: usize);
    /// Reads a row of eight numbers per lane (`row(l)` for lane `l`) and
    /// turns them into eight vectors: `result[f]` holds number `f` of every
    /// lane's row.
    fn gather_rows<'a>(row: impl Fn(usize) -> &'a [Real; 8]) -> [Self; 8];
    /// The inverse of [`Lanes::gather_rows`]: calls `store(l, row)` with the
    /// eight numbers of lane `l`, taken from `columns`, for every lane.
    fn scatter_rows(columns: &[Self; 8], store: impl FnMut(usize, &[Real; 8]));
    /// The first four vectors [`Lanes::gather_rows`] would give, for passes
    /// that read only the first half of each row (a body's velocities):
    /// half the loads and shuffles where a type does it itself.
    #[inline(always)]
    fn gather_low_rows<'a>(row: impl Fn(usize) -> &'a [Real; 8]) -> [Self; 4] {
        let [a, b, c, d, ..] = Self::gather_rows(row);
        [a, b, c, d]
    }
    /// The inverse of [`Lanes::gather_low_rows`]: calls `store(l, half)`
    /// with the four numbers of lane `l` taken from `columns`, for every
    /// lane, to be written over the first half of its row.
    #[inline(always)]
    fn scatter_low_rows(columns: &[Self; 4], mut store: impl FnMut(usize, &[Real; 4])) {
        let [a, b, c, d] = *columns;
        let zero = Self::ZERO;
        Self::scatter_rows(&[a, b, c, d, zero, zero, zero, zero], |l, row| {
            let (half, _) = row.split_first_chunk::<4>().expect("a row has eight numbers");
            store(l, half)
        });
    }
}

/// Four numbers side by side: the lanes of every build.
#[cfg(not(feature = "f64"))]
pub(crate) type Wide = wide::f32x4;
/// Four numbers side by side: the lanes of every build.
#[cfg(feature = "f64")]
pub(crate) type Wide = wide::f64x4;

/// [`Wide`]'s lane count.
pub(crate) const LANES: usize = 4;

/// The bits of [`Wide`]'s lanes.
#[cfg(not(feature = "f64"))]
type Bits = wide::u32x4;
#[cfg(feature = "f64")]
type Bits = wide::u64x4;

impl Lanes for Wide {
    const N: usize = LANES;
    const ZERO: Self = Wide::splat(0.0);
    const ONE: Self = Wide::splat(1.0);
    type Indices = [u32; LANES];
    const NO_INDICES: Self::Indices = [NO_INDEX; LANES];

    #[inline(always)]
    fn splat(v: Real) -> Self {
        Wide::splat(v)
    }
    #[inline(always)]
    fn lane(&self, l: usize) -> Real {
        self.as_array()[l]
    }
    #[inline(always)]
    fn set_lane(&mut self, l: usize, v: Real) {
        self.as_mut_array()[l] = v;
    }
    #[inline(always)]
    fn simd_gt(self, o: Self) -> Self {
        Wide::simd_gt(self, o)
    }
    #[inline(always)]
    fn simd_lt(self, o: Self) -> Self {
        Wide::simd_lt(self, o)
    }
    #[inline(always)]
    fn simd_ge(self, o: Self) -> Self {
        Wide::simd_ge(self, o)
    }
    #[inline(always)]
    fn simd_le(self, o: Self) -> Self {
        Wide::simd_le(self, o)
    }
    #[inline(always)]
    fn simd_eq(self, o: Self) -> Self {
        Wide::simd_eq(self, o)
    }
    #[inline(always)]
    fn select(self, if_true: Self, if_false: Self) -> Self {
        Wide::select(self, if_true, if_false)
    }
    // WebAssembly's `pmax(x, y)` is defined as `x < y ? y : x`, so
    // `pmax(o, self)` is exactly `self > o ? self : o`, in one instruction
    // (`maxps`) where compare-and-select takes four.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(feature = "f64")))]
    #[inline(always)]
    fn lane_max(self, o: Self) -> Self {
        simd128::pmax(o, self)
    }
    // `pmin(x, y)` is `y < x ? y : x`: `pmin(o, self)` is `self < o ? self : o`.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(feature = "f64")))]
    #[inline(always)]
    fn lane_min(self, o: Self) -> Self {
        simd128::pmin(o, self)
    }
    #[inline(always)]
    fn any(self) -> bool {
        Wide::any(self)
    }
    #[inline(always)]
    fn bits(self) -> u32 {
        Wide::to_bitmask(self)
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        Wide::sqrt(self)
    }
    #[inline(always)]
    fn set_flag(&mut self, l: usize) {
        let mut bits = self.to_bits().to_array();
        bits[l] = !0;
        *self = Wide::from_bits(Bits::new(bits));
    }
    #[inline(always)]
    fn gather_rows<'a>(row: impl Fn(usize) -> &'a [Real; 8]) -> [Self; 8] {
        let rows: [&[Real; 8]; LANES] = std::array::from_fn(row);
        #[cfg(all(target_arch = "x86_64", not(feature = "f64")))]
        {
            sse::gather(rows)
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(feature = "f64")))]
        {
            simd128::gather(rows)
        }
        #[cfg(not(any(
            all(target_arch = "x86_64", not(feature = "f64")),
            all(target_arch = "wasm32", target_feature = "simd128", not(feature = "f64"))
        )))]
        std::array::from_fn(|f| Wide::new(std::array::from_fn(|l| rows[l][f])))
    }
    #[inline(always)]
    fn scatter_rows(columns: &[Self; 8], mut store: impl FnMut(usize, &[Real; 8])) {
        #[cfg(all(target_arch = "x86_64", not(feature = "f64")))]
        let rows = sse::scatter(columns);
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(feature = "f64")))]
        let rows = simd128::scatter(columns);
        #[cfg(not(any(
            all(target_arch = "x86_64", not(feature = "f64")),
            all(target_arch = "wasm32", target_feature = "simd128", not(feature = "f64"))
        )))]
        let rows: [[Real; 8]; LANES] = {
            let columns = columns.map(|c| c.to_array());
            std::array::from_fn(|l| std::array::from_fn(|f| columns[f][l]))
        };
        for (l, row) in rows.iter().enumerate() {
            store(l, row);
        }
    }
    #[cfg(all(target_arch = "x86_64", not(feature = "f64")))]
    #[inline(always)]
    fn gather_low_rows<'a>(row: impl Fn(usize) -> &'a [Real; 8]) -> [Self; 4] {
        sse::gather_low(std::array::from_fn(row))
    }
    #[cfg(all(target_arch = "x86_64", not(feature = "f64")))]
    #[inline(always)]
    fn scatter_low_rows(columns: &[Self; 4], mut store: impl FnMut(usize, &[Real; 4])) {
        for (l, half) in sse::scatter_low(columns).iter().enumerate() {
            store(l, half);
        }
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(feature = "f64")))]
    #[inline(always)]
    fn gather_low_rows<'a>(row: impl Fn(usize) -> &'a [Real; 8]) -> [Self; 4] {
        simd128::gather_low(std::array::from_fn(row))
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(feature = "f64")))]
    #[inline(always)]
    fn scatter_low_rows(columns: &[Self; 4], mut store: impl FnMut(usize, &[Real; 4])) {
        for (l, half) in simd128::scatter_low(columns).iter().enumerate() {
            store(l, half);
        }
    }
}

/// Four rows of eight `f32`s turned into eight lanes of four and back with
/// SSE shuffles: each half of the rows is a 4 × 4 block, transposed by
/// interleaving pairs of rows and then their halves. Built element by
/// element, the same moves compiled to single-number inserts and
/// extractions through general registers.
#[cfg(all(target_arch = "x86_64", not(feature = "f64")))]
mod sse {
    use std::arch::x86_64::*;

    use super::{LANES, Wide};

    const _: () = assert!(std::mem::size_of::<Wide>() == std::mem::size_of::<__m128>());

    /// The 4 × 4 block whose rows are `r`, transposed.
    #[inline(always)]
    fn transpose(r: [__m128; 4]) -> [__m128; 4] {
        // SAFETY: SSE is part of every x86_64 processor.
        unsafe {
            let (t0, t1) = (_mm_unpacklo_ps(r[0], r[1]), _mm_unpackhi_ps(r[0], r[1]));
            let (t2, t3) = (_mm_unpacklo_ps(r[2], r[3]), _mm_unpackhi_ps(r[2], r[3]));
            [_mm_movelh_ps(t0, t2), _mm_movehl_ps(t2, t0), _mm_movelh_ps(t1, t3), _mm_movehl_ps(t3, t1)]
        }
    }

    /// `rows` as eight lanes: lane `f` holds number `f` of every row.
    #[inline(always)]
    pub(super) fn gather(rows: [&[f32; 8]; LANES]) -> [Wide; 8] {
        // SAFETY: each load reads four of a row's eight `f32`s; SSE is part
        // of every x86_64 processor.
        let half = |h: usize| transpose(rows.map(|r| unsafe { _mm_loadu_ps(r.as_ptr().add(4 * h)) }));
        let ([a, b, c, d], [e, f, g, k]) = (half(0), half(1));
        // SAFETY: a `Wide` is four `f32`s in an SSE register's layout (the
        // sizes are checked above), as is every `__m128`.
        [a, b, c, d, e, f, g, k].map(|v| unsafe { std::mem::transmute::<__m128, Wide>(v) })
    }

    /// The inverse of [`gather`]: the four rows of eight held by `columns`.
    #[inline(always)]
    pub(super) fn scatter(columns: &[Wide; 8]) -> [[f32; 8]; LANES] {
        // SAFETY: as in `gather`.
        let c = columns.map(|w| unsafe { std::mem::transmute::<Wide, __m128>(w) });
        let (low, high) = (transpose([c[0], c[1], c[2], c[3]]), transpose([c[4], c[5], c[6], c[7]]));
        let mut rows = [[0.0; 8]; LANES];
        for (l, row) in rows.iter_mut().enumerate() {
            // SAFETY: each store writes four of the row's eight `f32`s.
            unsafe {
                _mm_storeu_ps(row.as_mut_ptr(), low[l]);
                _mm_storeu_ps(row.as_mut_ptr().add(4), high[l]);
            }
        }
        rows
    }

    /// The first four of [`gather`]'s lanes: one block transposed.
    #[inline(always)]
    pub(super) fn gather_low(rows: [&[f32; 8]; LANES]) -> [Wide; 4] {
        // SAFETY: each load reads the first four of a row's eight `f32`s.
        let block = transpose(rows.map(|r| unsafe { _mm_loadu_ps(r.as_ptr()) }));
        // SAFETY: as in `gather`.
        block.map(|v| unsafe { std::mem::transmute::<__m128, Wide>(v) })
    }

    /// The inverse of [`gather_low`]: the first halves of the four rows.
    #[inline(always)]
    pub(super) fn scatter_low(columns: &[Wide; 4]) -> [[f32; 4]; LANES] {
        // SAFETY: as in `gather`.
        let c = columns.map(|w| unsafe { std::mem::transmute::<Wide, __m128>(w) });
        // SAFETY: a transmute between an `__m128` and four `f32`s, the same size.
        transpose(c).map(|half| unsafe { std::mem::transmute::<__m128, [f32; 4]>(half) })
    }
}

/// The same transposes as [`sse`] in WebAssembly's SIMD instructions, for
/// builds with `simd128`: each shuffle below is one that engines lower to a
/// single x86 or ARM instruction (the interleaves of 32- and 64-bit halves).
/// Built element by element, the rows compiled to a scalar load and a lane
/// insert per number, and a lane extraction and a scalar store back.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(feature = "f64")))]
mod simd128 {
    use std::arch::wasm32::*;

    use super::{LANES, Wide};

    const _: () = assert!(std::mem::size_of::<Wide>() == std::mem::size_of::<v128>());

    /// A `Wide` as the `v128` it is made of.
    #[inline(always)]
    fn raw(w: Wide) -> v128 {
        // SAFETY: with simd128, a `Wide` is one `v128` (sizes checked above).
        unsafe { std::mem::transmute::<Wide, v128>(w) }
    }

    /// A `v128` of four `f32`s as a `Wide`.
    #[inline(always)]
    fn wide(v: v128) -> Wide {
        // SAFETY: as in `raw`; every bit pattern is four `f32`s.
        unsafe { std::mem::transmute::<v128, Wide>(v) }
    }

    /// `x < y ? y : x` per lane (WebAssembly's `f32x4.pmax`).
    #[inline(always)]
    pub(super) fn pmax(x: Wide, y: Wide) -> Wide {
        wide(f32x4_pmax(raw(x), raw(y)))
    }

    /// `y < x ? y : x` per lane (WebAssembly's `f32x4.pmin`).
    #[inline(always)]
    pub(super) fn pmin(x: Wide, y: Wide) -> Wide {
        wide(f32x4_pmin(raw(x), raw(y)))
    }

    /// The 4 × 4 block whose rows are `r`, transposed: pairs of rows
    /// interleaved by 32-bit lanes, then the results by 64-bit halves.
    #[inline(always)]
    fn transpose(r: [v128; 4]) -> [v128; 4] {
        let (t0, t1) = (i32x4_shuffle::<0, 4, 1, 5>(r[0], r[1]), i32x4_shuffle::<2, 6, 3, 7>(r[0], r[1]));
        let (t2, t3) = (i32x4_shuffle::<0, 4, 1, 5>(r[2], r[3]), i32x4_shuffle::<2, 6, 3, 7>(r[2], r[3]));
        [
            i64x2_shuffle::<0, 2>(t0, t2),
            i64x2_shuffle::<1, 3>(t0, t2),
            i64x2_shuffle::<0, 2>(t1, t3),
            i64x2_shuffle::<1, 3>(t1, t3),
        ]
    }

    /// `rows` as eight lanes: lane `f` holds number `f` of every row.
    #[inline(always)]
    pub(super) fn gather(rows: [&[f32; 8]; LANES]) -> [Wide; 8] {
        // SAFETY: each load reads four of a row's eight `f32`s (WebAssembly's
        // `v128.load` takes any alignment).
        let half = |h: usize| transpose(rows.map(|r| unsafe { v128_load(r.as_ptr().add(4 * h).cast()) }));
        let ([a, b, c, d], [e, f, g, k]) = (half(0), half(1));
        [a, b, c, d, e, f, g, k].map(wide)
    }

    /// The inverse of [`gather`]: the four rows of eight held by `columns`.
    #[inline(always)]
    pub(super) fn scatter(columns: &[Wide; 8]) -> [[f32; 8]; LANES] {
        let c = columns.map(raw);
        let (low, high) = (transpose([c[0], c[1], c[2], c[3]]), transpose([c[4], c[5], c[6], c[7]]));
        let mut rows = [[0.0; 8]; LANES];
        for (l, row) in rows.iter_mut().enumerate() {
            // SAFETY: each store writes four of the row's eight `f32`s.
            unsafe {
                v128_store(row.as_mut_ptr().cast(), low[l]);
                v128_store(row.as_mut_ptr().add(4).cast(), high[l]);
            }
        }
        rows
    }

    /// The first four of [`gather`]'s lanes: one block transposed.
    #[inline(always)]
    pub(super) fn gather_low(rows: [&[f32; 8]; LANES]) -> [Wide; 4] {
        // SAFETY: each load reads the first four of a row's eight `f32`s.
        transpose(rows.map(|r| unsafe { v128_load(r.as_ptr().cast()) })).map(wide)
    }

    /// The inverse of [`gather_low`]: the first halves of the four rows.
    #[inline(always)]
    pub(super) fn scatter_low(columns: &[Wide; 4]) -> [[f32; 4]; LANES] {
        // SAFETY: a transmute between a `v128` and four `f32`s, the same size.
        transpose(columns.map(raw)).map(|half| unsafe { std::mem::transmute::<v128, [f32; 4]>(half) })
    }
}

/// Zero in every lane.
#[cfg(test)]
pub(crate) const ZERO: Wide = Wide::splat(0.0);
/// One in every lane.
#[cfg(test)]
pub(crate) const ONE: Wide = Wide::splat(1.0);

/// The larger of `a` and `b` per lane (`b` when they compare equal).
#[inline(always)]
pub(crate) fn max<W: Lanes>(a: W, b: W) -> W {
    a.lane_max(b)
}

/// The smaller of `a` and `b` per lane (`b` when they compare equal).
#[inline(always)]
pub(crate) fn min<W: Lanes>(a: W, b: W) -> W {
    a.lane_min(b)
}

/// `if_true` where `mask` is set, `if_false` elsewhere.
#[inline(always)]
pub(crate) fn select<W: Lanes>(mask: W, if_true: W, if_false: W) -> W {
    mask.select(if_true, if_false)
}

/// A mask from one flag per lane.
#[cfg(test)]
pub(crate) fn mask_from(flags: [bool; LANES]) -> Wide {
    Wide::from_bits(Bits::new(flags.map(|f| if f { !0 } else { 0 })))
}

/// Sets lane `l` of `mask` to true.
#[inline]
pub(crate) fn set_flag<W: Lanes>(mask: &mut W, l: usize) {
    mask.set_flag(l);
}

/// `LANES` 2D vectors, one per lane.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Vec2W<W: Lanes = Wide> {
    pub x: W,
    pub y: W,
}

#[cfg(test)]
impl Vec2W {
    /// The vectors `v[0]`, `v[1]`, ... side by side.
    pub fn from_lanes(v: [Vec2; LANES]) -> Self {
        Self { x: Wide::new(v.map(|v| v.x)), y: Wide::new(v.map(|v| v.y)) }
    }
}

impl<W: Lanes> Vec2W<W> {
    #[inline(always)]
    pub fn dot(&self, o: &Vec2W<W>) -> W {
        self.x * o.x + self.y * o.y
    }

    /// The 2D cross product `self.x·o.y − self.y·o.x`.
    #[inline(always)]
    pub fn cross(&self, o: &Vec2W<W>) -> W {
        self.x * o.y - self.y * o.x
    }

    /// `w × self` for an angular velocity `w`: the velocity of a point at `self`.
    #[inline(always)]
    pub fn spun(&self, w: W) -> Vec2W<W> {
        Vec2W { x: -w * self.y, y: w * self.x }
    }

    /// Rotated a quarter turn clockwise: the tangent `(n.y, −n.x)` of a normal.
    #[inline(always)]
    pub fn right_perp(&self) -> Vec2W<W> {
        Vec2W { x: self.y, y: -self.x }
    }
}

impl<W: Lanes> Add for Vec2W<W> {
    type Output = Vec2W<W>;
    #[inline(always)]
    fn add(self, o: Vec2W<W>) -> Vec2W<W> {
        Vec2W { x: self.x + o.x, y: self.y + o.y }
    }
}

impl<W: Lanes> Sub for Vec2W<W> {
    type Output = Vec2W<W>;
    #[inline(always)]
    fn sub(self, o: Vec2W<W>) -> Vec2W<W> {
        Vec2W { x: self.x - o.x, y: self.y - o.y }
    }
}

impl<W: Lanes> Mul<W> for Vec2W<W> {
    type Output = Vec2W<W>;
    #[inline(always)]
    fn mul(self, s: W) -> Vec2W<W> {
        Vec2W { x: self.x * s, y: self.y * s }
    }
}

impl<W: Lanes> Neg for Vec2W<W> {
    type Output = Vec2W<W>;
    #[inline(always)]
    fn neg(self) -> Vec2W<W> {
        Vec2W { x: -self.x, y: -self.y }
    }
}

impl<W: Lanes> AddAssign for Vec2W<W> {
    #[inline(always)]
    fn add_assign(&mut self, o: Vec2W<W>) {
        *self = *self + o;
    }
}

impl<W: Lanes> SubAssign for Vec2W<W> {
    #[inline(always)]
    fn sub_assign(&mut self, o: Vec2W<W>) {
        *self = *self - o;
    }
}

/// Rotations as unit complex numbers, one per lane.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RotW<W: Lanes = Wide> {
    pub re: W,
    pub im: W,
}

#[cfg(test)]
impl RotW {
    pub fn from_lanes(q: [Rotation; LANES]) -> Self {
        Self { re: Wide::new(q.map(|q| q.re)), im: Wide::new(q.map(|q| q.im)) }
    }
}

impl<W: Lanes> RotW<W> {
    /// `v` turned by this rotation.
    #[inline(always)]
    pub fn apply(&self, v: &Vec2W<W>) -> Vec2W<W> {
        Vec2W { x: self.re * v.x - self.im * v.y, y: self.im * v.x + self.re * v.y }
    }
}

/// Lane `lane` of `w`.
#[inline]
pub(crate) fn lane<W: Lanes>(w: &W, lane: usize) -> Real {
    w.lane(lane)
}

/// Rows gathered into lanes hold each row's numbers in its lane, and
/// scattered back give the rows again, whole and by their first halves (the
/// second half of each row left as it was): checked against the rows
/// themselves, for any lane type.
#[cfg(test)]
pub(crate) fn check_rows_round_trip<W: Lanes>() {
    let rows: Vec<[Real; 8]> = (0..W::N).map(|l| std::array::from_fn(|f| (10 * l + f) as Real)).collect();
    let columns = W::gather_rows(|l| &rows[l]);
    let low = W::gather_low_rows(|l| &rows[l]);
    for (l, row) in rows.iter().enumerate() {
        for (f, &number) in row.iter().enumerate() {
            assert_eq!(columns[f].lane(l), number, "lane {l}, number {f}");
        }
        for (f, &number) in row[..4].iter().enumerate() {
            assert_eq!(low[f].lane(l), number, "first half: lane {l}, number {f}");
        }
    }
    let mut stored = vec![[0.0; 8]; W::N];
    W::scatter_rows(&columns, |l, row| stored[l] = *row);
    assert_eq!(stored, rows);
    let mut halves = vec![[-1.0; 8]; W::N];
    W::scatter_low_rows(&low, |l, half| halves[l][..4].copy_from_slice(half));
    for (l, (half, row)) in halves.iter().zip(&rows).enumerate() {
        assert_eq!(half[..4], row[..4], "lane {l}");
        assert_eq!(half[4..], [-1.0; 4], "lane {l}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four lanes in every build: SSE's, WebAssembly's or the portable
    /// element-by-element moves (f64), whichever this one has.
    #[test]
    fn rows_gather_into_lanes_and_scatter_back() {
        check_rows_round_trip::<Wide>();
    }

    /// Lane `l` of a pattern of four values repeated across the lanes.
    fn cycled<T: Copy>(values: [T; 4]) -> [T; LANES] {
        std::array::from_fn(|l| values[l % 4])
    }

    #[test]
    fn max_and_min_pick_per_lane() {
        let a = Wide::new(cycled([1.0, -2.0, 3.0, 0.0]));
        let b = Wide::new(cycled([0.5, 5.0, 3.0, -0.0]));
        assert_eq!(max(a, b).to_array(), cycled([1.0, 5.0, 3.0, -0.0]));
        assert_eq!(min(a, b).to_array(), cycled([0.5, -2.0, 3.0, -0.0]));
        // Equal values give `b`, whatever the sign of zero: the same on every target.
        assert!(max(a, b).to_array()[3].is_sign_negative());
        // So does a NaN on either side (no clamp in the solver meets one from
        // finite input; this pins the rule all targets share).
        let nan = Wide::splat(Real::NAN);
        assert_eq!(max(nan, ONE).to_array(), ONE.to_array());
        assert!(max(ONE, nan).to_array()[0].is_nan());
        assert_eq!(min(nan, ONE).to_array(), ONE.to_array());
        assert!(min(ONE, nan).to_array()[0].is_nan());
    }

    #[test]
    fn masks_select_lanes() {
        let m = mask_from(cycled([true, false, false, true]));
        let picked = select(m, ONE, ZERO).to_array();
        assert_eq!(picked, cycled([1.0, 0.0, 0.0, 1.0]));
        assert!(m.any() && !m.all());
        let mut flagged = mask_from([false; LANES]);
        set_flag(&mut flagged, 1);
        set_flag(&mut flagged, LANES - 2);
        let expected: [Real; LANES] =
            std::array::from_fn(|l| if l == 1 || l == LANES - 2 { 1.0 } else { 0.0 });
        assert_eq!(select(flagged, ONE, ZERO).to_array(), expected);
        assert!(mask_from([true; LANES]).all() && !mask_from([false; LANES]).any());
    }

    #[test]
    fn vector_products_match_the_scalar_ones() {
        let a =
            cycled([Vec2::new(1.0, 2.0), Vec2::new(-3.0, 0.5), Vec2::new(0.0, 0.0), Vec2::new(7.0, -1.0)]);
        let b =
            cycled([Vec2::new(0.5, -4.0), Vec2::new(2.0, 2.0), Vec2::new(1.0, 1.0), Vec2::new(-1.0, 3.0)]);
        let (wa, wb) = (Vec2W::from_lanes(a), Vec2W::from_lanes(b));
        for l in 0..LANES {
            assert_eq!(lane(&wa.dot(&wb), l), a[l].dot(&b[l]));
            assert_eq!(lane(&wa.cross(&wb), l), a[l].x * b[l].y - a[l].y * b[l].x);
        }
        let q = cycled([Rotation::new(0.3), Rotation::new(-2.0), Rotation::new(0.0), Rotation::new(3.0)]);
        let turned = RotW::from_lanes(q).apply(&wa);
        for l in 0..LANES {
            let expected = q[l] * a[l];
            assert!((lane(&turned.x, l) - expected.x).abs() < 1e-5);
            assert!((lane(&turned.y, l) - expected.y).abs() < 1e-5);
        }
    }
}
