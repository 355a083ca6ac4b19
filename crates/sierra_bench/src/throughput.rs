//! The machine's limits that the benchmarks print beside their figures (issue #43): how many
//! `f32` vector multiplies and adds one core issues per nanosecond, measured now, and the
//! arithmetic each kernel needs, counted from its source. A kernel's floor ("limit") is its
//! operation count over the measured rate: the time it would take if it only issued its
//! arithmetic at the core's full rate (loads, stores, shuffles and dependencies left out), so
//! the distance to the floor says how much is left to gain, and the distance to an anchor says
//! only how two programs compare. Memory-bound figures (the water step) have their own limit:
//! a copy of the same bytes ([`sierra_terrain::water::CopyProbe`]).

use std::hint::black_box;
use std::time::Instant;

/// Independent accumulators of the rate probe: enough chains that the multiply-then-add
/// latency of each one hides behind the others (12 × 2 vector registers fit AVX2's 16).
const CHAINS: usize = 12;

/// `iters` rounds of `acc = acc·m + c` (a multiply then an add, no FMA, as the kernels) on
/// [`CHAINS`] independent 4-lane accumulators (the portable fallback).
fn probe4(iters: usize) -> f32 {
    let m = black_box([0.999_999f32; 4]);
    let c = black_box([1e-7f32; 4]);
    let mut acc = [[1.0f32; 4]; CHAINS];
    for _ in 0..iters {
        for a in acc.iter_mut() {
            for l in 0..4 {
                a[l] = a[l] * m[l] + c[l];
            }
        }
    }
    acc.iter().flatten().sum()
}

/// Defines `$name(iters)`: [`probe4`]'s loop on `$reg` registers with explicit intrinsics
/// (the generic loop did not stay in registers at 16 lanes).
macro_rules! probe_simd {
    ($name:ident, $feature:literal, $reg:ty, $set1:ident, $mul:ident, $add:ident, $store:ident, $lanes:expr) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $feature)]
        unsafe fn $name(iters: usize) -> f32 {
            use std::arch::x86_64::*;
            let m: $reg = $set1(black_box(0.999_999f32));
            let c: $reg = $set1(black_box(1e-7f32));
            let mut acc: [$reg; CHAINS] = [$set1(1.0); CHAINS];
            for _ in 0..iters {
                for a in acc.iter_mut() {
                    *a = $add($mul(*a, m), c);
                }
            }
            let mut sum = 0.0;
            for a in acc {
                let mut lanes = [0f32; $lanes];
                // SAFETY: `lanes` holds one register's worth of floats (unaligned store).
                unsafe { $store(lanes.as_mut_ptr(), a) };
                sum += lanes.iter().sum::<f32>();
            }
            sum
        }
    };
}

probe_simd!(
    probe_avx2,
    "avx2",
    __m256,
    _mm256_set1_ps,
    _mm256_mul_ps,
    _mm256_add_ps,
    _mm256_storeu_ps,
    8
);
probe_simd!(
    probe_avx512,
    "avx512f",
    __m512,
    _mm512_set1_ps,
    _mm512_mul_ps,
    _mm512_add_ps,
    _mm512_storeu_ps,
    16
);

/// Vector operations (multiplies or adds) per nanosecond on one thread at `lanes` `f32` lanes
/// (8: AVX2, 16: AVX-512; 4 on CPUs without them), best of 7 timed runs of ~2 M operations.
pub fn vector_ops_per_ns(lanes: usize) -> f64 {
    let iters = 100_000;
    let run = || -> f32 {
        #[cfg(target_arch = "x86_64")]
        {
            if lanes == 16 && std::is_x86_feature_detected!("avx512f") {
                // SAFETY: the CPU has AVX-512F (checked above).
                return unsafe { probe_avx512(iters) };
            }
            if lanes == 8 && std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2 (checked above).
                return unsafe { probe_avx2(iters) };
            }
        }
        probe4(iters)
    };
    black_box(run());
    let best = (0..7)
        .map(|_| {
            let t = Instant::now();
            black_box(run());
            t.elapsed().as_secs_f64() * 1e9
        })
        .fold(f64::INFINITY, f64::min);
    (iters * CHAINS * 2) as f64 / best
}

/// 8-lane vector operations per joint of the fused local-to-model + palette pass
/// (`sierra_anim::local_to_palette_soa`): the model matrix as 4 columns × (3 multiplies + 2
/// adds) + 1 add of the parent's translation = 21, the palette as 2 column pairs × (4
/// multiplies + 3 adds) = 14, and the joint's share of its block's TRS → matrix (33 lane
/// operations per 8 joints) ≈ 4.
pub const L2M_PALETTE_OPS_PER_JOINT: f64 = 21.0 + 14.0 + 33.0 / 8.0;

/// 8-lane vector operations per joint of sampling two clips and blending them, counted from
/// the SoA kernels: per clip a key-interval fraction (2), a translation lerp (9), a rotation
/// slerp with the interval's precomputed angle (2 sines by polynomial ≈ 2 × 12, weights and
/// 4 components ≈ 16), a scale lerp (9) ≈ 60; the 2-layer blend (weights ≈ 8, hemisphere
/// dot 7, translation and scale 12, rotation 8 + normalisation 13, rest-pose selects 10) ≈ 58;
/// per joint (`(2 · 60 + 58) / 8`). An estimate of the arithmetic only, not of the key search.
pub const SAMPLE_BLEND_OPS_PER_JOINT: f64 = (2.0 * 60.0 + 58.0) / 8.0;

/// Vector operations per lane-block of one octave of a noise grid row (`RowNoise`): x from the
/// index (3), floor, fraction and `x − 1` (3), fade (7), per corner `gx·x + k` (2) and the
/// lerps (3 each): 2D (4 corners, 3 lerps) 13 + 8 + 9 = 30, 3D (8 corners, 7 lerps)
/// 13 + 16 + 21 = 50; an fBm octave adds 2 (weight and sum).
pub fn noise_ops_per_block(corners: usize, fbm: bool) -> f64 {
    let lerps = corners - 1;
    13.0 + 2.0 * corners as f64 + 3.0 * lerps as f64 + if fbm { 2.0 } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn op_counts_are_the_documented_sums() {
        assert_eq!(noise_ops_per_block(4, false), 30.0);
        assert_eq!(noise_ops_per_block(8, false), 50.0);
        assert_eq!(noise_ops_per_block(4, true), 32.0);
        assert!((L2M_PALETTE_OPS_PER_JOINT - 39.125).abs() < 1e-12);
    }
}
