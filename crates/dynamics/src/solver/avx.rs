//! Eight lanes on x86-64 processors with AVX, chosen when the program runs.
//!
//! A build for plain x86-64 (the default target) may only assume SSE2, so the
//! `wide` crate gives it four lanes. Most processors it runs on have AVX,
//! whose 256-bit registers hold eight: contacts and joints are then packed
//! and solved, and bodies integrated, in [`Avx8`], inside functions
//! compiled for AVX ([`contacts`], [`points`], [`integrate`]), once
//! [`available`] has confirmed that the processor has it.
//! Every operation is the IEEE 754 operation the four-lane type performs (no
//! fused multiply-add), and a lane's result never depends on its neighbours,
//! so both widths give the same bits.
//!
//! Where the processor also has AVX-512, the same functions are compiled a
//! second time for it ([`contacts_evex`], [`points_evex`]): the instructions
//! stay 256 bits wide, but their encoding reaches thirty-two registers
//! instead of sixteen. A two-point contact bundle keeps about thirty values
//! live (two bodies of seven numbers, anchors, impulses), and with sixteen
//! registers the passes spend a good part of their work spilling them to
//! the stack and reading them back.

use std::arch::x86_64::{
    __m256, _CMP_EQ_OQ, _CMP_GE_OQ, _CMP_GT_OQ, _CMP_LE_OQ, _CMP_LT_OQ, _mm_loadu_ps, _mm256_add_ps,
    _mm256_and_ps, _mm256_blendv_ps, _mm256_castps128_ps256, _mm256_cmp_ps, _mm256_div_ps,
    _mm256_insertf128_ps, _mm256_movemask_ps, _mm256_mul_ps, _mm256_or_ps, _mm256_permute2f128_ps,
    _mm256_set1_ps, _mm256_shuffle_ps, _mm256_sqrt_ps, _mm256_sub_ps, _mm256_unpackhi_ps, _mm256_unpacklo_ps,
    _mm256_xor_ps,
};
use std::ops::{Add, AddAssign, BitAnd, BitOr, BitXor, Div, Mul, Neg, Not, Sub, SubAssign};

use super::body_state::{BodyState, States};
use super::bundles::LaneBundle;
use super::contact_bundle::ContactBundle;
use super::contact_solver::ContactSource;
use super::integrate::Integration;
use super::joints::point_bundle::PointJointBundle;
use super::joints::revolute_bundle::RevoluteBundle;
use super::lanes::Encoding;
use super::lanes::Lanes;
use super::passes::LanePass;
use crate::body::NO_INDEX;

/// True when this processor runs AVX instructions (checked once, then cached
/// by the standard library).
pub(crate) fn available() -> bool {
    std::arch::is_x86_feature_detected!("avx")
}

/// The encoding the eight-lane passes run in on this processor: AVX-512's
/// where it has the 256-bit forms of those instructions, AVX's elsewhere.
///
/// Enabling `avx512f` for a function also lets the compiler use what it
/// implies (AVX2, FMA and F16C instructions: it does emit AVX2 broadcasts),
/// so those are checked too; every processor with AVX-512 has them, but a
/// virtual machine may hide some features and show others.
pub(crate) fn best_encoding() -> Encoding {
    if std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("fma")
        && std::arch::is_x86_feature_detected!("f16c")
    {
        Encoding::Evex
    } else {
        Encoding::Vex
    }
}

/// Defines, for one set of target features, the functions that run a pass
/// on a run of eight-lane bundles (and those that pack or complete a
/// bundle, and the one that integrates bodies eight at a time), each
/// compiled for those features. The loop over the bundles is inside,
/// so that a run costs one call and the constants of the pass are loaded
/// once.
macro_rules! eight_lane_passes {
    (
        $features:literal,
        $what:literal,
        $contacts:ident,
        $points:ident,
        $revolutes:ident,
        $finish:ident,
        $pack_contacts:ident,
        $integrate:ident
    ) => {
        #[doc = concat!("Runs `pass` on each bundle of eight contacts, compiled for ", $what, ".")]
        ///
        /// # Safety
        ///
        #[doc = concat!("The processor must have ", $what, ".")]
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn $contacts<P: LanePass>(
            pass: &P,
            bundles: &mut [ContactBundle<Avx8>],
            states: &States,
        ) {
            for bundle in bundles {
                pass.contacts(bundle, states);
            }
        }

        #[doc = concat!("Runs `pass` on each bundle of eight point joints, compiled for ", $what, ".")]
        ///
        /// # Safety
        ///
        #[doc = concat!("The processor must have ", $what, ".")]
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn $points<P: LanePass>(
            pass: &P,
            bundles: &mut [PointJointBundle<Avx8>],
            states: &States,
        ) {
            for bundle in bundles {
                pass.points(bundle, states);
            }
        }

        #[doc = concat!("Runs `pass` on each bundle of eight revolute joints, compiled for ", $what, ".")]
        ///
        /// # Safety
        ///
        #[doc = concat!("The processor must have ", $what, ".")]
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn $revolutes<P: LanePass>(
            pass: &P,
            bundles: &mut [RevoluteBundle<Avx8>],
            states: &States,
        ) {
            for bundle in bundles {
                pass.revolutes(bundle, states);
            }
        }

        #[doc = concat!("Completes a bundle packed in eight lanes, compiled for ", $what, ".")]
        ///
        /// # Safety
        ///
        #[doc = concat!("The processor must have ", $what, ".")]
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn $finish<B: LaneBundle>(bundle: &mut B) {
            bundle.finish();
        }

        #[doc = concat!("Packs contacts `members` into `bundle` from `source` and completes it, compiled for ", $what, ".")]
        ///
        /// # Safety
        ///
        #[doc = concat!("The processor must have ", $what, ".")]
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn $pack_contacts(
            source: &ContactSource,
            bundle: &mut ContactBundle<Avx8>,
            members: &[u32],
        ) {
            source.pack(bundle, members);
            bundle.finish();
        }

        #[doc = concat!("Runs `integration` on `states` eight bodies at a time, compiled for ", $what, ".")]
        ///
        /// # Safety
        ///
        #[doc = concat!("The processor must have ", $what, ".")]
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn $integrate(integration: Integration, states: &mut [BodyState], h: f32, max_speed: f32) {
            integration.run::<Avx8>(states, h, max_speed);
        }
    };
}

eight_lane_passes!("avx", "AVX", contacts, points, revolutes, finish, pack_contacts, integrate);

// The same instructions in AVX-512's encoding: thirty-two vector registers
// instead of sixteen, so that a bundle's two bodies (seven numbers each)
// and its points stay in registers instead of spilling to the stack. No
// 512-bit instruction is used, and, as everywhere in Rust, no product and
// sum are fused into one rounding unless asked for: the bits are AVX's.
eight_lane_passes!(
    "avx,avx512f,avx512vl",
    "AVX-512 (its foundation and 256-bit forms, with the AVX2, FMA and F16C they imply)",
    contacts_evex,
    points_evex,
    revolutes_evex,
    finish_evex,
    pack_contacts_evex,
    integrate_evex
);

/// Eight `f32` lanes in one AVX register.
///
/// Values of this type exist only in solvers that found AVX [`available`]:
/// every operation below executes an AVX instruction.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct Avx8(__m256);

impl Avx8 {
    /// The lanes from an array.
    #[inline(always)]
    const fn from_array(a: [f32; 8]) -> Self {
        // SAFETY: `__m256` is 32 bytes of plain data, like `[f32; 8]`.
        Self(unsafe { std::mem::transmute::<[f32; 8], __m256>(a) })
    }

    /// The lanes as an array.
    #[inline(always)]
    fn to_array(self) -> [f32; 8] {
        // SAFETY: as in `from_array`.
        unsafe { std::mem::transmute::<__m256, [f32; 8]>(self.0) }
    }

    /// The lanes in place.
    #[inline(always)]
    fn as_array(&self) -> &[f32; 8] {
        // SAFETY: `Avx8` is a transparent `__m256`, 32 bytes of plain data
        // aligned at least as `[f32; 8]`.
        unsafe { &*(self as *const Avx8).cast::<[f32; 8]>() }
    }

    /// The lanes in place, to write.
    #[inline(always)]
    fn as_mut_array(&mut self) -> &mut [f32; 8] {
        // SAFETY: as in `as_array`.
        unsafe { &mut *(self as *mut Avx8).cast::<[f32; 8]>() }
    }

    /// All bits set in every lane.
    #[inline(always)]
    fn all_bits() -> Self {
        Self::from_array([f32::from_bits(!0); 8])
    }
}

impl std::fmt::Debug for Avx8 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.to_array().fmt(f)
    }
}

/// Defines a binary operator trait of `Avx8` as one AVX instruction.
macro_rules! binary {
    ($trait:ident, $method:ident, $intrinsic:ident) => {
        impl $trait for Avx8 {
            type Output = Avx8;
            #[inline(always)]
            fn $method(self, o: Avx8) -> Avx8 {
                // SAFETY: an `Avx8` exists only where AVX is available.
                Avx8(unsafe { $intrinsic(self.0, o.0) })
            }
        }
    };
}

binary!(Add, add, _mm256_add_ps);
binary!(Sub, sub, _mm256_sub_ps);
binary!(Mul, mul, _mm256_mul_ps);
binary!(Div, div, _mm256_div_ps);
binary!(BitAnd, bitand, _mm256_and_ps);
binary!(BitOr, bitor, _mm256_or_ps);
binary!(BitXor, bitxor, _mm256_xor_ps);

impl Neg for Avx8 {
    type Output = Avx8;
    /// Flips the sign bit, as the four-lane type does (so `-0.0` stays exact).
    #[inline(always)]
    fn neg(self) -> Avx8 {
        self ^ Avx8::splat(-0.0)
    }
}

impl Not for Avx8 {
    type Output = Avx8;
    #[inline(always)]
    fn not(self) -> Avx8 {
        self ^ Avx8::all_bits()
    }
}

impl AddAssign for Avx8 {
    #[inline(always)]
    fn add_assign(&mut self, o: Avx8) {
        *self = *self + o;
    }
}

impl SubAssign for Avx8 {
    #[inline(always)]
    fn sub_assign(&mut self, o: Avx8) {
        *self = *self - o;
    }
}

impl Lanes for Avx8 {
    const N: usize = 8;
    const ZERO: Self = Avx8::from_array([0.0; 8]);
    const ONE: Self = Avx8::from_array([1.0; 8]);
    type Indices = [u32; 8];
    const NO_INDICES: Self::Indices = [NO_INDEX; 8];

    #[inline(always)]
    fn splat(v: f32) -> Self {
        // SAFETY: an `Avx8` is made only where AVX is available.
        Avx8(unsafe { _mm256_set1_ps(v) })
    }
    #[inline(always)]
    fn lane(&self, l: usize) -> f32 {
        self.as_array()[l]
    }
    /// Writes the one lane in place: a vector rebuilt around it would be
    /// stored whole and read back, which stalls on every lane of a bundle.
    #[inline(always)]
    fn set_lane(&mut self, l: usize, v: f32) {
        self.as_mut_array()[l] = v;
    }
    // The ordered, quiet predicates: false where either side is NaN, as the
    // four-lane comparisons.
    #[inline(always)]
    fn simd_gt(self, o: Self) -> Self {
        // SAFETY: as in `splat`.
        Avx8(unsafe { _mm256_cmp_ps::<_CMP_GT_OQ>(self.0, o.0) })
    }
    #[inline(always)]
    fn simd_lt(self, o: Self) -> Self {
        // SAFETY: as in `splat`.
        Avx8(unsafe { _mm256_cmp_ps::<_CMP_LT_OQ>(self.0, o.0) })
    }
    #[inline(always)]
    fn simd_ge(self, o: Self) -> Self {
        // SAFETY: as in `splat`.
        Avx8(unsafe { _mm256_cmp_ps::<_CMP_GE_OQ>(self.0, o.0) })
    }
    #[inline(always)]
    fn simd_le(self, o: Self) -> Self {
        // SAFETY: as in `splat`.
        Avx8(unsafe { _mm256_cmp_ps::<_CMP_LE_OQ>(self.0, o.0) })
    }
    #[inline(always)]
    fn simd_eq(self, o: Self) -> Self {
        // SAFETY: as in `splat`.
        Avx8(unsafe { _mm256_cmp_ps::<_CMP_EQ_OQ>(self.0, o.0) })
    }
    /// Masks are all ones or all zeros per lane, so blending on the sign bit
    /// picks exactly what a bitwise select would.
    #[inline(always)]
    fn select(self, if_true: Self, if_false: Self) -> Self {
        // SAFETY: as in `splat`.
        Avx8(unsafe { _mm256_blendv_ps(if_false.0, if_true.0, self.0) })
    }
    #[inline(always)]
    fn any(self) -> bool {
        // SAFETY: as in `splat`.
        unsafe { _mm256_movemask_ps(self.0) != 0 }
    }
    #[inline(always)]
    fn bits(self) -> u32 {
        // SAFETY: as in `splat`.
        unsafe { _mm256_movemask_ps(self.0) as u32 }
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        // SAFETY: as in `splat`.
        Avx8(unsafe { _mm256_sqrt_ps(self.0) })
    }
    #[inline(always)]
    fn set_flag(&mut self, l: usize) {
        self.set_lane(l, f32::from_bits(!0));
    }
    /// Eight rows loaded whole and transposed in registers: no lane is
    /// assembled through memory.
    #[inline(always)]
    fn gather_rows<'a>(row: impl Fn(usize) -> &'a [f32; 8]) -> [Self; 8] {
        let rows: [&[f32; 8]; 8] = std::array::from_fn(row);
        // Halves of lanes `l` and `l + 4` side by side: the load does the
        // exchange of halves that a transpose in registers would shuffle.
        // SAFETY: each row is eight readable `f32`s, so each half is four;
        // AVX as in `splat`.
        let halves = |l: usize, at: usize| unsafe {
            let low = _mm256_castps128_ps256(_mm_loadu_ps(rows[l].as_ptr().add(at)));
            _mm256_insertf128_ps::<1>(low, _mm_loadu_ps(rows[l + 4].as_ptr().add(at)))
        };
        let [c0, c1, c2, c3] = transpose_quads([halves(0, 0), halves(1, 0), halves(2, 0), halves(3, 0)]);
        let [c4, c5, c6, c7] = transpose_quads([halves(0, 4), halves(1, 4), halves(2, 4), halves(3, 4)]);
        [c0, c1, c2, c3, c4, c5, c6, c7]
    }
    #[inline(always)]
    fn scatter_rows(columns: &[Self; 8], mut store: impl FnMut(usize, &[f32; 8])) {
        let rows = transpose(columns.map(|c| c.0)).map(|c| c.0);
        for (l, row) in rows.iter().enumerate() {
            store(l, Avx8(*row).as_array());
        }
    }
    /// The first halves of the rows alone: one transpose of quads.
    #[inline(always)]
    fn gather_low_rows<'a>(row: impl Fn(usize) -> &'a [f32; 8]) -> [Self; 4] {
        let rows: [&[f32; 8]; 8] = std::array::from_fn(row);
        // SAFETY: as in `gather_rows`.
        let halves = |l: usize| unsafe {
            let low = _mm256_castps128_ps256(_mm_loadu_ps(rows[l].as_ptr()));
            _mm256_insertf128_ps::<1>(low, _mm_loadu_ps(rows[l + 4].as_ptr()))
        };
        transpose_quads([halves(0), halves(1), halves(2), halves(3)])
    }
    /// Row `k` of the quads' transpose holds the first half of lane `k`'s
    /// row in its low half and of lane `k + 4`'s in its high half.
    #[inline(always)]
    fn scatter_low_rows(columns: &[Self; 4], mut store: impl FnMut(usize, &[f32; 4])) {
        let quads = transpose_quads(columns.map(|c| c.0));
        for (k, quad) in quads.iter().enumerate() {
            let [low, high] = [&quad.as_array()[..4], &quad.as_array()[4..]]
                .map(|half| <&[f32; 4]>::try_from(half).expect("four numbers"));
            store(k, low);
            store(k + 4, high);
        }
    }
}

/// The 4 × 4 matrices in the low and in the high halves of `r`, each
/// transposed: row `k` of the result holds number `k` of each of `r`'s low
/// halves, then of each of their high halves.
#[inline(always)]
fn transpose_quads(r: [__m256; 4]) -> [Avx8; 4] {
    // SAFETY: an `Avx8` is made only where AVX is available, and these run
    // only on its way.
    unsafe {
        let t0 = _mm256_unpacklo_ps(r[0], r[1]);
        let t1 = _mm256_unpackhi_ps(r[0], r[1]);
        let t2 = _mm256_unpacklo_ps(r[2], r[3]);
        let t3 = _mm256_unpackhi_ps(r[2], r[3]);
        [
            Avx8(_mm256_shuffle_ps::<0x44>(t0, t2)),
            Avx8(_mm256_shuffle_ps::<0xEE>(t0, t2)),
            Avx8(_mm256_shuffle_ps::<0x44>(t1, t3)),
            Avx8(_mm256_shuffle_ps::<0xEE>(t1, t3)),
        ]
    }
}

/// The 8 × 8 matrix whose rows are `r`, transposed (its own inverse): each
/// half of each block of four rows transposed, then the halves exchanged.
#[inline(always)]
fn transpose(r: [__m256; 8]) -> [Avx8; 8] {
    let [s0, s1, s2, s3] = transpose_quads([r[0], r[1], r[2], r[3]]).map(|s| s.0);
    let [s4, s5, s6, s7] = transpose_quads([r[4], r[5], r[6], r[7]]).map(|s| s.0);
    // SAFETY: an `Avx8` is made only where AVX is available, and these run
    // only on its way.
    unsafe {
        [
            Avx8(_mm256_permute2f128_ps::<0x20>(s0, s4)),
            Avx8(_mm256_permute2f128_ps::<0x20>(s1, s5)),
            Avx8(_mm256_permute2f128_ps::<0x20>(s2, s6)),
            Avx8(_mm256_permute2f128_ps::<0x20>(s3, s7)),
            Avx8(_mm256_permute2f128_ps::<0x31>(s0, s4)),
            Avx8(_mm256_permute2f128_ps::<0x31>(s1, s5)),
            Avx8(_mm256_permute2f128_ps::<0x31>(s2, s6)),
            Avx8(_mm256_permute2f128_ps::<0x31>(s3, s7)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::lanes::Wide;

    /// Each operation against the four-lane type's, bit for bit, on numbers
    /// that include signed zeros, infinities and NaN.
    #[test]
    fn eight_lanes_match_four_lanes_bit_for_bit() {
        if !available() {
            return;
        }
        let values = [0.0, -0.0, 1.5, -2.25, 3.0e38, f32::INFINITY, f32::NAN, 1.0e-40, 7.0, -7.0];
        let mut cases = Vec::new();
        for (i, &a) in values.iter().enumerate() {
            for &b in &values[i..] {
                cases.push((a, b));
            }
        }
        let four = |lanes: &[(f32, f32)], f: &dyn Fn(Wide, Wide) -> Wide| {
            let mut out = Vec::new();
            for chunk in lanes.chunks(4) {
                let a = Wide::new(std::array::from_fn(|l| chunk.get(l).map_or(0.0, |c| c.0)));
                let b = Wide::new(std::array::from_fn(|l| chunk.get(l).map_or(0.0, |c| c.1)));
                out.extend_from_slice(&f(a, b).to_array()[..chunk.len()]);
            }
            out
        };
        let eight = |lanes: &[(f32, f32)], f: &dyn Fn(Avx8, Avx8) -> Avx8| {
            let mut out = Vec::new();
            for chunk in lanes.chunks(8) {
                let a = Avx8::from_array(std::array::from_fn(|l| chunk.get(l).map_or(0.0, |c| c.0)));
                let b = Avx8::from_array(std::array::from_fn(|l| chunk.get(l).map_or(0.0, |c| c.1)));
                out.extend_from_slice(&f(a, b).to_array()[..chunk.len()]);
            }
            out
        };
        let bits = |v: Vec<f32>| v.into_iter().map(f32::to_bits).collect::<Vec<_>>();
        type Op<W> = (&'static str, fn(W, W) -> W);
        fn ops<W: Lanes>() -> [Op<W>; 15] {
            [
                ("add", |a, b| a + b),
                ("sub", |a, b| a - b),
                ("mul", |a, b| a * b),
                ("div", |a, b| a / b),
                ("neg", |a, _| -a),
                ("gt", |a, b| a.simd_gt(b)),
                ("lt", |a, b| a.simd_lt(b)),
                ("ge", |a, b| a.simd_ge(b)),
                ("le", |a, b| a.simd_le(b)),
                ("eq", |a, b| a.simd_eq(b)),
                ("select", |a, b| a.simd_gt(b).select(a, b)),
                ("and not", |a, b| a.simd_lt(b) & !b.simd_le(a)),
                ("or xor", |a, b| (a.simd_ge(b) | b.simd_ge(a)) ^ a.simd_le(b)),
                ("max", crate::solver::lanes::max),
                ("sqrt", |a, _| a.sqrt()),
            ]
        }
        for ((name, f4), (_, f8)) in ops::<Wide>().into_iter().zip(ops::<Avx8>()) {
            assert_eq!(bits(four(&cases, &f4)), bits(eight(&cases, &f8)), "{name}");
        }
        let mut mask = Avx8::ZERO;
        assert!(!mask.any());
        assert_eq!(mask.bits(), 0);
        mask.set_flag(5);
        mask.set_flag(1);
        assert!(mask.any());
        assert_eq!(mask.bits(), 0b10_0010);
        let mut four = Wide::ZERO;
        four.set_flag(1);
        four.set_flag(3);
        assert_eq!(four.bits(), 0b1010);
        assert_eq!(mask.select(Avx8::ONE, Avx8::ZERO).to_array(), [0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
    }

    /// Eight-lane rows gathered into lanes and scattered back, whole and by
    /// their first halves (four lanes: `lanes.rs`).
    #[test]
    fn rows_gather_into_lanes_and_scatter_back() {
        if available() {
            crate::solver::lanes::check_rows_round_trip::<Avx8>();
        }
    }

    /// A scene with every kind of contact lane (resting stacks, sliding
    /// friction, bounces, speculative points, a fixed ground, mixed one- and
    /// two-point manifolds) and a chain of point joints gives the same bits
    /// with eight lanes as with four, in AVX's encoding and (where the
    /// processor has it) in AVX-512's.
    #[test]
    fn eight_lanes_step_as_four_lanes_do() {
        use crate::{BodyDesc, ColliderDesc, World, WorldSettings};
        use lamina_geometry::Shape;
        if !available() {
            return;
        }
        let build = || {
            let mut world = World::new(WorldSettings::default());
            let ground = world.add_body(BodyDesc::fixed());
            world.add_collider(ground, ColliderDesc::new(Shape::rectangle(40.0, 0.5))).unwrap();
            for row in 0..12 {
                for i in 0..(12 - row) {
                    let x = -6.0 + i as f32 + 0.5 * row as f32;
                    let body = world.add_body(BodyDesc::dynamic().translation(x, 1.0 + row as f32));
                    world
                        .add_collider(body, ColliderDesc::new(Shape::rectangle(0.5, 0.5)).friction(0.6))
                        .unwrap();
                }
            }
            for i in 0..20 {
                let body = world.add_body(
                    BodyDesc::dynamic()
                        .translation(10.0 + i as f32 * 0.7, 3.0 + (i % 3) as f32)
                        .linear_velocity(lamina_geometry::Vec2::new(-2.0, -(i as f32))),
                );
                let shape = if i % 2 == 0 { Shape::circle(0.3) } else { Shape::rectangle(0.3, 0.2) };
                world.add_collider(body, ColliderDesc::new(shape).restitution(0.5).friction(0.2)).unwrap();
            }
            // A swinging chain of plain revolute joints: point-joint bundles.
            let mut previous = ground;
            for i in 0..24 {
                let x = -20.0 + 0.5 * i as f32;
                let link = world.add_body(BodyDesc::dynamic().translation(x + 0.25, 12.0));
                world.add_collider(link, ColliderDesc::new(Shape::rectangle(0.25, 0.05))).unwrap();
                let anchor = lamina_geometry::Point::new(x, 12.0);
                world.add_joint(crate::JointDesc::revolute(previous, link, anchor)).unwrap();
                previous = link;
            }
            // A chain of revolute joints with limits, motors and springs, in
            // turn and together: revolute bundles of mixed lanes.
            let mut previous = ground;
            for i in 0..20 {
                let x = 20.0 + 0.5 * i as f32;
                let link = world.add_body(BodyDesc::dynamic().translation(x + 0.25, 14.0));
                world.add_collider(link, ColliderDesc::new(Shape::rectangle(0.25, 0.05))).unwrap();
                let anchor = lamina_geometry::Point::new(x, 14.0);
                let mut joint = crate::JointDesc::revolute(previous, link, anchor);
                if i % 2 == 0 {
                    joint = joint.limits(-0.3, 0.2);
                }
                if i % 3 == 0 {
                    joint = joint.motor(0.5, 2.0);
                }
                if i % 4 != 3 {
                    joint = joint.spring(3.0, 0.4);
                }
                world.add_joint(joint).unwrap();
                previous = link;
            }
            world
        };
        let (mut best, mut vex, mut four) = (build(), build(), build());
        four.solver.use_four_lanes();
        vex.solver.use_vex_encoding();
        for step in 0..240 {
            for world in [&mut best, &mut vex, &mut four] {
                world.step(1.0 / 60.0).unwrap();
            }
            assert_eq!(vex.state_hash(), four.state_hash(), "AVX's encoding, step {step}");
            assert_eq!(best.state_hash(), four.state_hash(), "{:?}, step {step}", best_encoding());
        }
    }
}
