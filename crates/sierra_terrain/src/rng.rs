//! Deterministic random numbers for placement (SplitMix64), so the same seed gives the same
//! scene on every platform.

/// Next raw 64-bit value.
pub fn next_u64(state: &mut u64) -> u64 {
    crate::noise::perlin::splitmix64(state)
}

/// Uniform in `[0, 1)`.
pub fn unit_f32(state: &mut u64) -> f32 {
    (next_u64(state) >> 40) as f32 / (1u64 << 24) as f32
}

/// Uniform in `[lo, hi)`.
pub fn range_f32(state: &mut u64, lo: f32, hi: f32) -> f32 {
    lo + (hi - lo) * unit_f32(state)
}
