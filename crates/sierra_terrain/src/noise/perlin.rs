//! Improved Perlin noise in 2D and 3D (Ken Perlin, "Improving Noise", SIGGRAPH 2002).
//!
//! The operations follow Perlin's Java reference `ImprovedNoise` line for line: lattice cell from
//! `floor(p) & 255`, quintic fade `6t⁵ − 15t⁴ + 10t³` evaluated as `t·t·t·(t·(t·6 − 15) + 10)`,
//! `lerp(t, a, b) = a + t·(b − a)`, and the 12 cube-edge gradients (plus 4 repeats) chosen by the
//! low 4 bits of the hash. With [`Permutation::reference`] and `f64` the result equals the
//! reference bit for bit (`noise(3.14, 42, 7) = 0.13691995878400012`). The `f32` path performs the
//! same operations in the same order as `sierra_render`'s `noise.wgsl`, so CPU and GPU agree to
//! float rounding. Thesis (seed 002) §2.1.2–2.1.3 describes the same algorithm in 2D.
//!
//! Non-finite inputs give unspecified (but panic-free) results; callers that take user input
//! validate points first (see [`crate::noise::validate_point`]).

use std::fmt::Debug;
use std::ops::{Add, Mul, Neg, Sub};

/// Ken Perlin's reference permutation of 0..=255 (from `ImprovedNoise.java`).
pub const REFERENCE_PERMUTATION: [u8; 256] = [
    151, 160, 137, 91, 90, 15, 131, 13, 201, 95, 96, 53, 194, 233, 7, 225, 140, 36, 103, 30, 69,
    142, 8, 99, 37, 240, 21, 10, 23, 190, 6, 148, 247, 120, 234, 75, 0, 26, 197, 62, 94, 252, 219,
    203, 117, 35, 11, 32, 57, 177, 33, 88, 237, 149, 56, 87, 174, 20, 125, 136, 171, 168, 68, 175,
    74, 165, 71, 134, 139, 48, 27, 166, 77, 146, 158, 231, 83, 111, 229, 122, 60, 211, 133, 230,
    220, 105, 92, 41, 55, 46, 245, 40, 244, 102, 143, 54, 65, 25, 63, 161, 1, 216, 80, 73, 209, 76,
    132, 187, 208, 89, 18, 169, 200, 196, 135, 130, 116, 188, 159, 86, 164, 100, 109, 198, 173,
    186, 3, 64, 52, 217, 226, 250, 124, 123, 5, 202, 38, 147, 118, 126, 255, 82, 85, 212, 207, 206,
    59, 227, 47, 16, 58, 17, 182, 189, 28, 42, 223, 183, 170, 213, 119, 248, 152, 2, 44, 154, 163,
    70, 221, 153, 101, 155, 167, 43, 172, 9, 129, 22, 39, 253, 19, 98, 108, 110, 79, 113, 224, 232,
    178, 185, 112, 104, 218, 246, 97, 228, 251, 34, 242, 193, 238, 210, 144, 12, 191, 179, 162,
    241, 81, 51, 145, 235, 249, 14, 239, 107, 49, 192, 214, 31, 181, 199, 106, 157, 184, 84, 204,
    176, 115, 121, 50, 45, 127, 4, 150, 254, 138, 236, 205, 93, 222, 114, 67, 29, 24, 72, 243, 141,
    128, 195, 78, 66, 215, 61, 156, 180,
];

/// The doubled permutation table `p[0..512]` (`p[i + 256] = p[i]`) that the noise indexes, as in
/// the reference, so `p[p[X] + Y + 1]` never needs a second wrap.
#[derive(Clone)]
pub struct Permutation {
    table: [u8; 512],
    /// `GRAD_ROWS[table[i]]` for each `i`: the kernels read a corner's gradient straight
    /// from the hash position, one dependent load fewer per corner. Derived from `table`.
    grad_rows: Box<GradRows512>,
}

/// `[512]` gradient rows, see [`Permutation`].
#[derive(Clone)]
#[repr(C, align(16))]
struct GradRows512([[f32; 4]; 512]);

impl PartialEq for Permutation {
    fn eq(&self, other: &Self) -> bool {
        self.table == other.table
    }
}

impl Eq for Permutation {}

impl Debug for Permutation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Permutation")
            .field("first", &&self.table[..8])
            .finish_non_exhaustive()
    }
}

impl Default for Permutation {
    fn default() -> Self {
        Self::reference()
    }
}

impl Permutation {
    /// Ken Perlin's 2002 reference permutation.
    pub fn reference() -> Self {
        Self::from_base(&REFERENCE_PERMUTATION)
    }

    /// A permutation of 0..=255 shuffled by Fisher–Yates with a SplitMix64 stream seeded by
    /// `seed`; the same seed gives the same table on every platform.
    pub fn from_seed(seed: u64) -> Self {
        let mut base: [u8; 256] = std::array::from_fn(|i| i as u8);
        let mut state = seed;
        for i in (1..256usize).rev() {
            let j = (splitmix64(&mut state) % (i as u64 + 1)) as usize;
            base.swap(i, j);
        }
        Self::from_base(&base)
    }

    /// `None` is the reference permutation, `Some(seed)` a seeded one.
    pub fn from_optional_seed(seed: Option<u64>) -> Self {
        seed.map_or_else(Self::reference, Self::from_seed)
    }

    fn from_base(base: &[u8; 256]) -> Self {
        let mut table = [0u8; 512];
        table[..256].copy_from_slice(base);
        table[256..].copy_from_slice(base);
        let grad_rows = Box::new(GradRows512(std::array::from_fn(|i| {
            GRAD_ROWS.0[table[i] as usize]
        })));
        Self { table, grad_rows }
    }

    /// The doubled table `[512]` (entry `i` and `i + 256` are equal), e.g. for upload to the GPU.
    pub fn table(&self) -> &[u8; 512] {
        &self.table
    }

    /// The 512 entries widened to `u32`, the layout `noise.wgsl` reads from its storage buffer.
    pub fn table_u32(&self) -> Vec<u32> {
        self.table.iter().map(|&v| u32::from(v)).collect()
    }

    /// `grad(p[i], x, y, z)` as the dot product of the precomputed gradient row at hash
    /// position `i` (see [`perlin3_portable`] for why the value equals the reference's).
    #[inline(always)]
    fn grad_dot<T: NoiseFloat>(&self, i: usize, x: T, y: T, z: T) -> T {
        let [gx, gy, gz, _] = self.grad_rows.0[i & 511];
        let c = |g: f32| T::from_f64(f64::from(g));
        c(gx) * x + c(gy) * y + c(gz) * z
    }

    #[inline(always)]
    pub(crate) fn at(&self, i: usize) -> usize {
        // `i` is always < 512 by construction (`p[255] + 255 + 1`); the mask keeps the bounds
        // check away without unsafe code.
        self.table[i & 511] as usize
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, well-mixed generator for seeding.
pub(crate) fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The float types the noise is generic over: `f64` (matches the reference) and `f32` (matches
/// the GPU). Only the operations the reference uses are required.
pub trait NoiseFloat:
    Copy
    + PartialOrd
    + Debug
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Neg<Output = Self>
{
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// Largest integer not greater than `self`.
    fn floor(self) -> Self;
    /// Conversion with rounding to nearest.
    fn from_f64(v: f64) -> Self;
    /// Widening (or identity) conversion.
    fn to_f64(self) -> f64;
    /// `(int) x` as Java does it (toward zero, saturating), applied to an already floored value.
    fn to_i32(self) -> i32;
    /// The [`perlin3`] kernel for this type. The default is [`perlin3_portable`]; `f32` on x86-64
    /// overrides it with an SSE2 kernel that gives the same values (see [`perlin3`]).
    #[inline(always)]
    fn noise3(perm: &Permutation, x: Self, y: Self, z: Self) -> Self {
        perlin3_portable(perm, x, y, z)
    }
}

/// `floor(x)` of a float `x` by truncating through the integer type `$int` and stepping down
/// when that rounded up (negative non-integers). Without SSE4.1 in the baseline target,
/// `f32::floor`/`f64::floor` are libm calls; this is exact for `|x| < $limit` (2^mantissa
/// bits), above which every float is an integer already.
macro_rules! floor_by_truncation {
    ($x:expr, $int:ty, $limit:expr) => {{
        let x = $x;
        if x.abs() < $limit {
            let t = x as $int as Self;
            if t > x {
                t - 1.0
            } else {
                t
            }
        } else {
            x
        }
    }};
}

impl NoiseFloat for f64 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    #[inline(always)]
    fn floor(self) -> Self {
        // Exact for |x| < 2^52; larger floats are already integers.
        floor_by_truncation!(self, i64, 4_503_599_627_370_496.0)
    }
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        v
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self
    }
    #[inline(always)]
    fn to_i32(self) -> i32 {
        self as i32
    }
}

impl NoiseFloat for f32 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    #[inline(always)]
    fn floor(self) -> Self {
        // Exact for |x| < 2^23; larger floats are already integers.
        floor_by_truncation!(self, i32, 8_388_608.0)
    }
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    #[inline(always)]
    fn to_i32(self) -> i32 {
        self as i32
    }
    #[inline(always)]
    fn noise3(perm: &Permutation, x: Self, y: Self, z: Self) -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            match sse2::perlin3(perm, x, y, z) {
                Some(v) => v,
                None => perlin3_f32_outside(perm, x, y, z),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        perlin3_portable(perm, x, y, z)
    }
}

/// `f32` points the vector kernel does not take (|coordinate| >= 2^23, NaN): rare, so kept out of
/// line to keep the inlined fast path small.
#[cfg(target_arch = "x86_64")]
#[cold]
#[inline(never)]
fn perlin3_f32_outside(perm: &Permutation, x: f32, y: f32, z: f32) -> f32 {
    perlin3_portable(perm, x, y, z)
}

/// Quintic fade `6t⁵ − 15t⁴ + 10t³` in the reference's Horner order.
#[inline(always)]
pub fn fade<T: NoiseFloat>(t: T) -> T {
    let six = T::from_f64(6.0);
    let fifteen = T::from_f64(15.0);
    let ten = T::from_f64(10.0);
    t * t * t * (t * (t * six - fifteen) + ten)
}

/// `a + t·(b − a)` as the reference writes it.
#[inline(always)]
pub fn lerp<T: NoiseFloat>(t: T, a: T, b: T) -> T {
    a + t * (b - a)
}

/// Which offset component (0 = x, 1 = y, 2 = z) the reference's `grad` takes as `u`, per `h`.
const GRAD_U: [usize; 16] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1];
/// … and as `v`: `h < 4 ? y : h == 12 || h == 14 ? x : z`.
const GRAD_V: [usize; 16] = [1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 0, 2, 0, 2];
/// Sign of `u`: bit 0 of `h`.
const SIGN_U: [f64; 16] = [
    1., -1., 1., -1., 1., -1., 1., -1., 1., -1., 1., -1., 1., -1., 1., -1.,
];
/// Sign of `v`: bit 1 of `h`.
const SIGN_V: [f64; 16] = [
    1., 1., -1., -1., 1., 1., -1., -1., 1., 1., -1., -1., 1., 1., -1., -1.,
];

/// Dot product of the offset `(x, y, z)` with the gradient selected by `hash & 15` (the 12
/// cube-edge directions, 4 of them repeated), exactly as the reference's `grad`.
///
/// Written with look-up tables instead of the reference's branches (which mispredict on random
/// hashes); multiplying by ±1 is exact and flips the sign like negation, so the value is
/// bit-identical to the reference.
#[inline(always)]
pub fn grad<T: NoiseFloat>(hash: usize, x: T, y: T, z: T) -> T {
    let h = hash & 15;
    let c = [x, y, z];
    c[GRAD_U[h]] * T::from_f64(SIGN_U[h]) + c[GRAD_V[h]] * T::from_f64(SIGN_V[h])
}

/// Improved Perlin noise at `(x, y, z)`, in [-1, 1].
///
/// Lattice cells repeat every 256 units (the permutation period). `f64` runs
/// [`perlin3_portable`] (the reference's operations); `f32` on x86-64 runs an SSE2 kernel (all
/// eight corners in two 4-lane registers, baseline x86-64 needs no dispatch) with the same
/// operations on every value, so it equals [`perlin3_portable`] (tested; at most the sign of an
/// exact zero differs, as a gradient is taken as `gx·x + gy·y + gz·z` with `g ∈ {−1, 0, 1}³`).
#[inline]
pub fn perlin3<T: NoiseFloat>(perm: &Permutation, x: T, y: T, z: T) -> T {
    T::noise3(perm, x, y, z)
}

/// Gradient vectors `(gx, gy, gz, 0)` of the reference's `grad` for every hash byte (row `h` is
/// that of `h & 15`, so no masking is needed): the dot product `gx·x + gy·y + gz·z` equals
/// `grad(hash, x, y, z)` (terms with `g = 0` add an exact `±0`). 4 KiB, stays in L1.
#[repr(C, align(16))]
pub(crate) struct GradRows(pub(crate) [[f32; 4]; 256]);

/// See [`GradRows`].
pub(crate) static GRAD_ROWS: GradRows = GradRows({
    let mut rows = [[0f32; 4]; 256];
    let mut i = 0;
    while i < 256 {
        let h = i & 15;
        let su = if h & 1 == 0 { 1.0 } else { -1.0 };
        let sv = if h & 2 == 0 { 1.0 } else { -1.0 };
        // u: x for h < 8, else y; v: y for h < 4, x for 12 and 14, else z.
        let u = if h < 8 { 0 } else { 1 };
        let v = if h < 4 {
            1
        } else if h == 12 || h == 14 {
            0
        } else {
            2
        };
        rows[i][u] = su;
        rows[i][v] = sv;
        i += 1;
    }
    rows
});

#[cfg(target_arch = "x86_64")]
mod sse2 {
    //! `f32` perlin3 with SSE2 (part of the x86-64 baseline, so always available).
    use std::arch::x86_64::*;

    use super::Permutation;

    /// `None` unless `|x|, |y|, |z| < 2^23`: the vector floor is exact only where f32 still has
    /// fractions (NaN fails the test too); beyond that the portable code's saturating conversions
    /// define the cell.
    #[inline(always)]
    pub(super) fn perlin3(perm: &Permutation, x: f32, y: f32, z: f32) -> Option<f32> {
        // SAFETY: SSE2 is enabled on every x86-64 target; the loads read `grad_rows` rows, which
        // are 16-byte aligned `[f32; 4]`, at indices masked below 512.
        unsafe {
            let p = _mm_setr_ps(x, y, z, 0.0);
            let abs = _mm_andnot_ps(_mm_set1_ps(-0.0), p);
            if _mm_movemask_ps(_mm_cmplt_ps(abs, _mm_set1_ps(8_388_608.0))) != 0b1111 {
                return None;
            }
            let one = _mm_set1_ps(1.0);
            // floor: truncate, then step down where truncation went up (negative fractions).
            let t = _mm_cvttps_epi32(p);
            let tf = _mm_cvtepi32_ps(t);
            let up = _mm_cmpgt_ps(tf, p);
            let cell = _mm_add_epi32(t, _mm_castps_si128(up));
            let f = _mm_sub_ps(p, _mm_sub_ps(tf, _mm_and_ps(up, one)));
            // fade t·t·t·(t·(t·6 − 15) + 10), per lane in the reference's order.
            let t3 = _mm_mul_ps(_mm_mul_ps(f, f), f);
            let poly = _mm_add_ps(
                _mm_mul_ps(
                    f,
                    _mm_sub_ps(_mm_mul_ps(f, _mm_set1_ps(6.0)), _mm_set1_ps(15.0)),
                ),
                _mm_set1_ps(10.0),
            );
            let fade = _mm_mul_ps(t3, poly);
            let f1 = _mm_sub_ps(f, one);

            let xi = (_mm_cvtsi128_si32(cell) & 255) as usize;
            let yi = (_mm_cvtsi128_si32(_mm_shuffle_epi32::<0b01>(cell)) & 255) as usize;
            let zi = (_mm_cvtsi128_si32(_mm_shuffle_epi32::<0b10>(cell)) & 255) as usize;
            let a = perm.at(xi) + yi;
            let b = perm.at(xi + 1) + yi;
            let aa = perm.at(a) + zi;
            let ab = perm.at(a + 1) + zi;
            let ba = perm.at(b) + zi;
            let bb = perm.at(b + 1) + zi;
            // Gradient row of the corner whose hash is `perm.table[i]`.
            let row = |i: usize| _mm_load_ps(perm.grad_rows.0[i & 511].as_ptr());

            // Corner lanes [x0y0, x1y0, x0y1, x1y1] of the near (z0) and far (z1) faces.
            let xs = _mm_unpacklo_ps(f, f1); // [x0, x1, y0, y1]
            let cx = _mm_movelh_ps(xs, xs); // [x0, x1, x0, x1]
            let cy = _mm_shuffle_ps::<0b11_11_10_10>(xs, xs); // [y0, y0, y1, y1]
            let z0 = _mm_shuffle_ps::<0b10_10_10_10>(f, f);
            let z1 = _mm_shuffle_ps::<0b10_10_10_10>(f1, f1);
            let face = |h: [usize; 4], cz: __m128| {
                let (mut r0, mut r1, mut r2, mut r3) = (row(h[0]), row(h[1]), row(h[2]), row(h[3]));
                _MM_TRANSPOSE4_PS(&mut r0, &mut r1, &mut r2, &mut r3);
                // (gx·x + gy·y) + gz·z: one of the terms is ±0, so this is the reference's u + v.
                _mm_add_ps(
                    _mm_add_ps(_mm_mul_ps(r0, cx), _mm_mul_ps(r1, cy)),
                    _mm_mul_ps(r2, cz),
                )
            };
            let near = face([aa, ba, ab, bb], z0);
            let far = face([aa + 1, ba + 1, ab + 1, bb + 1], z1);
            // lerp(u, ·, ·) along x: [near00, near01, far00, far01] against their x1 partners.
            let lo = _mm_shuffle_ps::<0b10_00_10_00>(near, far);
            let hi = _mm_shuffle_ps::<0b11_01_11_01>(near, far);
            let u = _mm_shuffle_ps::<0>(fade, fade);
            let lx = _mm_add_ps(lo, _mm_mul_ps(u, _mm_sub_ps(hi, lo)));
            // lerp(v, ·, ·) along y: [near, far].
            let lo = _mm_shuffle_ps::<0b00_00_10_00>(lx, lx);
            let hi = _mm_shuffle_ps::<0b00_00_11_01>(lx, lx);
            let v = _mm_shuffle_ps::<0b01_01_01_01>(fade, fade);
            let ly = _mm_add_ps(lo, _mm_mul_ps(v, _mm_sub_ps(hi, lo)));
            // lerp(w, near, far).
            let n = _mm_cvtss_f32(ly);
            let f = _mm_cvtss_f32(_mm_shuffle_ps::<0b01>(ly, ly));
            let w = _mm_cvtss_f32(_mm_shuffle_ps::<0b10>(fade, fade));
            Some(n + w * (f - n))
        }
    }
}

/// [`perlin3`] in the reference's operations for any [`NoiseFloat`] (the `f64` path, and the
/// portable `f32` path that the SSE2 kernel and the GPU's `noise.wgsl` are checked against).
///
/// One change against the reference's data flow shortens each corner's chain of dependent
/// loads from five (`p[X]`, `p[A]`, `p[AA]`, then the `grad` tables and the chosen offset) to
/// three: the corner's gradient row is read straight at the hash position `AA` (a precomputed
/// `g[p[i]]` per table entry, see [`Permutation`]) and dotted with the offset,
/// `gx·x + gy·y + gz·z`. With `g ∈ {−1, 0, 1}³` and one component 0 this is the reference's
/// `±u ± v` plus an exact `±0`: the same value (only the sign of an exact zero may differ).
#[inline]
pub fn perlin3_portable<T: NoiseFloat>(perm: &Permutation, x: T, y: T, z: T) -> T {
    let (fx, fy, fz) = (x.floor(), y.floor(), z.floor());
    let xi = (fx.to_i32() & 255) as usize;
    let yi = (fy.to_i32() & 255) as usize;
    let zi = (fz.to_i32() & 255) as usize;
    let (x, y, z) = (x - fx, y - fy, z - fz);
    let (u, v, w) = (fade(x), fade(y), fade(z));
    let one = T::ONE;
    let a = perm.at(xi) + yi;
    let aa = perm.at(a) + zi;
    let ab = perm.at(a + 1) + zi;
    let b = perm.at(xi + 1) + yi;
    let ba = perm.at(b) + zi;
    let bb = perm.at(b + 1) + zi;
    let (x1, y1, z1) = (x - one, y - one, z - one);
    let grad = |i: usize, x: T, y: T, z: T| perm.grad_dot(i, x, y, z);
    lerp(
        w,
        lerp(
            v,
            lerp(u, grad(aa, x, y, z), grad(ba, x1, y, z)),
            lerp(u, grad(ab, x, y1, z), grad(bb, x1, y1, z)),
        ),
        lerp(
            v,
            lerp(u, grad(aa + 1, x, y, z1), grad(ba + 1, x1, y, z1)),
            lerp(u, grad(ab + 1, x, y1, z1), grad(bb + 1, x1, y1, z1)),
        ),
    )
}

/// 2D improved Perlin noise, defined as `perlin3(x, y, 0)`.
///
/// Evaluated on the `z = 0` face only: with `w = fade(0) = 0`, `lerp(0, a, b) = a` exactly and the
/// far face drops out, so the result is bit-identical to [`perlin3`] at `z = 0` for finite input.
#[inline]
pub fn perlin2<T: NoiseFloat>(perm: &Permutation, x: T, y: T) -> T {
    let (fx, fy) = (x.floor(), y.floor());
    let xi = (fx.to_i32() & 255) as usize;
    let yi = (fy.to_i32() & 255) as usize;
    let (x, y) = (x - fx, y - fy);
    let (u, v) = (fade(x), fade(y));
    let one = T::ONE;
    let z = T::ZERO;
    let a = perm.at(xi) + yi;
    let b = perm.at(xi + 1) + yi;
    let aa = perm.at(a);
    let ab = perm.at(a + 1);
    let ba = perm.at(b);
    let bb = perm.at(b + 1);
    lerp(
        v,
        lerp(
            u,
            grad(perm.at(aa), x, y, z),
            grad(perm.at(ba), x - one, y, z),
        ),
        lerp(
            u,
            grad(perm.at(ab), x, y - one, z),
            grad(perm.at(bb), x - one, y - one, z),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::approx_constant)] // Perlin's published sample point, not π
    fn reference_value_from_perlins_page() {
        let p = Permutation::reference();
        assert_eq!(perlin3(&p, 3.14f64, 42.0, 7.0), 0.13691995878400012);
    }

    #[test]
    fn reference_table_is_a_permutation() {
        let mut seen = [false; 256];
        for &v in &REFERENCE_PERMUTATION {
            assert!(!seen[v as usize]);
            seen[v as usize] = true;
        }
    }

    #[test]
    fn seeds_give_distinct_permutations() {
        let a = Permutation::from_seed(1);
        let b = Permutation::from_seed(2);
        assert_ne!(a, b);
        assert_eq!(a, Permutation::from_seed(1));
        let mut seen = [false; 256];
        for &v in &a.table()[..256] {
            seen[v as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn perlin2_equals_perlin3_on_z0() {
        let p = Permutation::reference();
        for i in 0..2000 {
            let x = (i as f64) * 0.731 - 700.0;
            let y = (i as f64) * 0.377 - 300.0;
            assert_eq!(perlin2(&p, x, y), perlin3(&p, x, y, 0.0));
            assert_eq!(
                perlin2(&p, x as f32, y as f32),
                perlin3(&p, x as f32, y as f32, 0.0)
            );
        }
    }

    #[test]
    fn grad_tables_equal_the_reference_branches() {
        for h in 0..16usize {
            let (x, y, z) = (0.3f64, -0.7, 0.11);
            let u = if h < 8 { x } else { y };
            let v = if h < 4 {
                y
            } else if h == 12 || h == 14 {
                x
            } else {
                z
            };
            let r = (if h & 1 == 0 { u } else { -u }) + (if h & 2 == 0 { v } else { -v });
            assert_eq!(grad(h, x, y, z).to_bits(), r.to_bits(), "h = {h}");
        }
    }

    #[test]
    fn grad_rows_equal_grad() {
        for h in 0..256usize {
            let [gx, gy, gz, w] = GRAD_ROWS.0[h];
            assert_eq!(w, 0.0);
            for (x, y, z) in [(0.3f32, -0.7f32, 0.11f32), (-0.9, 0.25, -0.6)] {
                assert_eq!(gx * x + gy * y + gz * z, grad(h, x, y, z), "h = {h}");
            }
        }
    }

    /// The f32 kernel [`perlin3`] dispatches to (SSE2 on x86-64) against the portable operations:
    /// random points over several scales, negative coordinates, integer lattice planes, the edge
    /// of the vector floor's range (2^23) and beyond it, and non-finite input.
    #[test]
    fn f32_kernel_equals_portable_path() {
        let p = Permutation::from_seed(42);
        let mut state = 7u64;
        let mut uniform = || (splitmix64(&mut state) >> 40) as f32 / (1u64 << 24) as f32;
        let mut points = Vec::new();
        for scale in [1.0f32, 10.0, 300.0, 1e5, 8.0e6] {
            for _ in 0..20_000 {
                let mut c = || (uniform() * 2.0 - 1.0) * scale;
                points.push([c(), c(), c()]);
            }
        }
        for i in -300..300 {
            let t = i as f32 * 0.37;
            points.push([i as f32, t, -t]);
            points.push([t, (i / 3) as f32, 0.5]);
            points.push([-t, 0.25, (i / 7) as f32]);
        }
        for big in [8_388_607.5f32, 8_388_608.0, -8_388_609.0, 3e9, -3e9, 1e30] {
            points.push([big, 0.3, -0.2]);
            points.push([0.7, big, 1.5]);
        }
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            points.push([bad, 0.5, 0.5]);
        }
        for [x, y, z] in points {
            let fast = perlin3(&p, x, y, z);
            let portable = perlin3_portable(&p, x, y, z);
            // Equal values; only the sign of an exact zero may differ (see `perlin3`).
            assert!(
                fast == portable || (fast.is_nan() && portable.is_nan()),
                "({x}, {y}, {z}): {fast} vs {portable}"
            );
        }
    }

    #[test]
    fn floor_is_exact() {
        for v in [
            -3.5f64,
            -3.0,
            -0.0,
            0.0,
            -1e-300,
            2.9999999999999996,
            4.5e15,
            -4.5e15,
            1e300,
            -1e300,
        ] {
            assert_eq!(NoiseFloat::floor(v), v.floor(), "{v}");
            assert_eq!(NoiseFloat::floor(v as f32), (v as f32).floor(), "{v}");
        }
        for i in -1000..1000 {
            let v = i as f64 * 0.37;
            assert_eq!(NoiseFloat::floor(v), v.floor());
            assert_eq!(NoiseFloat::floor(v as f32), (v as f32).floor());
        }
    }

    #[test]
    fn zero_on_lattice_points() {
        let p = Permutation::from_seed(9);
        for i in -5..5 {
            assert_eq!(perlin3(&p, i as f64, 2.0, -3.0), 0.0);
        }
    }
}
