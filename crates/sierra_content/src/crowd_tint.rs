//! Crowd members' clothing tints: each member of a crowd gets one colour of [`CROWD_PALETTE`],
//! scaled in brightness, drawn from its crowd's seed and its own index alone, so the same level
//! dresses the same member the same way on every machine, and adding or losing one member (in
//! the sea) does not recolour the others. The tint travels in the member's instance data
//! ([`sierra_render::passes::crowd::CrowdInstance::tint`]) and multiplies its albedo.

/// Clothing colours, linear RGB (a mannequin's albedo is multiplied by one): terracotta, navy,
/// olive, mustard, teal, plum, sand, charcoal. Chosen apart in hue and value so neighbours read
/// as different people under the demo's sun; none is saturated enough to glow through bloom.
pub const CROWD_PALETTE: [[f32; 3]; 8] = [
    [0.62, 0.22, 0.12],
    [0.12, 0.20, 0.52],
    [0.34, 0.40, 0.12],
    [0.78, 0.56, 0.14],
    [0.10, 0.44, 0.40],
    [0.40, 0.14, 0.36],
    [0.80, 0.70, 0.52],
    [0.20, 0.20, 0.22],
];

/// Brightness of a tint is its palette colour times a factor in `[1 − SPREAD, 1 + SPREAD)`.
pub const BRIGHTNESS_SPREAD: f32 = 0.15;

/// SplitMix64's finaliser (Steele, Lea and Flood 2014): a bijective 64-bit mix.
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The tint of member `index` of a crowd seeded `seed` (linear RGB, each channel in `[0, 1]`).
pub fn member_tint(seed: u64, index: u32) -> [f32; 3] {
    let h = mix64(seed ^ mix64(u64::from(index).wrapping_add(0x9E37_79B9_7F4A_7C15)));
    let colour = CROWD_PALETTE[(h % CROWD_PALETTE.len() as u64) as usize];
    // The top 24 bits as a fraction in [0, 1).
    let unit = (h >> 40) as f32 / (1u64 << 24) as f32;
    let brightness = 1.0 + BRIGHTNESS_SPREAD * (2.0 * unit - 1.0);
    colour.map(|c| (c * brightness).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Same inputs, same tint; the 16 members of the demo's west crowd (seed 7) wear at least
    /// 5 of the 8 palette colours (a tint picks its colour from its hash, so a constant or a
    /// seed-only hash would give 1).
    #[test]
    fn tints_are_deterministic_and_varied() {
        assert_eq!(member_tint(7, 3), member_tint(7, 3));
        let colours: std::collections::BTreeSet<usize> = (0..16)
            .map(|i| {
                let t = member_tint(7, i);
                (0..CROWD_PALETTE.len())
                    .min_by(|&a, &b| {
                        let d = |k: usize| {
                            let p = CROWD_PALETTE[k];
                            let s = (t[0] + t[1] + t[2]) / (p[0] + p[1] + p[2]);
                            (0..3).map(|c| (t[c] - p[c] * s).abs()).sum::<f32>()
                        };
                        d(a).total_cmp(&d(b))
                    })
                    .unwrap()
            })
            .collect();
        assert!(colours.len() >= 5, "{colours:?}");
        assert_ne!(member_tint(7, 0), member_tint(8, 0));
    }
}
