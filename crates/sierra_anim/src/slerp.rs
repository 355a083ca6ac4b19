//! Shortest-arc slerp with per-segment constants precomputed at build time.
//!
//! `slerp(a, b, u) = (sin((1−u)θ)·a + sin(uθ)·b′) / sin θ` (Shoemake 1985), with
//! `b′ = ±b` chosen so `a·b′ ≥ 0` (the shorter arc) and `θ = acos(a·b′)`. A clip's
//! keys never change, so `θ`, `1/sin θ` and the sign are computed once per key
//! pair in [`crate::Clip::build`]; sampling then needs two sines of arguments in
//! `[0, π/2]`, evaluated together in one SIMD register by a degree-11 odd polynomial (Taylor; truncation error
//! below 6·10⁻⁸ on that range), instead of `acos` and three `sin` calls.

use glam::{Quat, Vec4};

/// Constants of one key pair (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct SlerpSegment {
    /// Half-angle between the keys along the shorter arc, radians; 0 means "use nlerp" (keys nearly equal).
    theta: f32,
    /// `1 / sin θ`.
    inv_sin: f32,
    /// +1 or −1: the sign applied to the second key.
    sign: f32,
}

impl SlerpSegment {
    pub(crate) fn new(a: Quat, b: Quat) -> Self {
        let d = Vec4::from(a).dot(Vec4::from(b));
        let sign = if d < 0.0 { -1.0 } else { 1.0 };
        let d = (d * sign).min(1.0);
        // Below ~0.06° slerp and nlerp agree to float precision; avoid 1/sin θ blow-up.
        if d > 1.0 - 1e-7 {
            return Self {
                theta: 0.0,
                inv_sin: 0.0,
                sign,
            };
        }
        let theta = d.acos();
        Self {
            theta,
            inv_sin: 1.0 / theta.sin(),
            sign,
        }
    }

    /// `[theta, inv_sin, sign]`, the lanes of [`crate::lane::slerp4`].
    #[inline(always)]
    pub(crate) fn constants(&self) -> [f32; 3] {
        [self.theta, self.inv_sin, self.sign]
    }

    /// Slerp from `a` (`u = 0`) to `b` (`u = 1`): [`crate::lane::slerp4`] on one lane (the
    /// exact slerp of unit keys is unit to ~1e-6: no normalisation).
    #[inline(always)]
    pub(crate) fn interpolate(&self, a: Quat, b: Quat, u: f32) -> Quat {
        Quat::from_array(crate::lane::slerp4(
            &a.to_array(),
            &b.to_array(),
            u,
            self.theta,
            self.inv_sin,
            self.sign,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lane::sin_0_half_pi;

    #[test]
    fn polynomial_sine_is_accurate_on_its_range() {
        for i in 0..=1000 {
            let x = i as f32 / 1000.0 * std::f32::consts::FRAC_PI_2;
            assert!((sin_0_half_pi(x) - x.sin()).abs() < 3e-7, "{x}");
        }
    }

    #[test]
    fn matches_exact_slerp_in_double_precision() {
        let mut seed = 1u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            (seed >> 8) as f32 / (1 << 24) as f32 * 2.0 - 1.0
        };
        let mut worst = 0.0f64;
        for _ in 0..20_000 {
            let a = Quat::from_xyzw(rnd(), rnd(), rnd(), rnd()).normalize();
            let b = Quat::from_xyzw(rnd(), rnd(), rnd(), rnd()).normalize();
            let u = (rnd() + 1.0) * 0.5;
            let got = SlerpSegment::new(a, b).interpolate(a, b, u);
            // Reference in f64.
            let (a64, mut b64) = (Vec4::from(a).as_dvec4(), Vec4::from(b).as_dvec4());
            let mut d = a64.dot(b64);
            if d < 0.0 {
                b64 = -b64;
                d = -d;
            }
            let th = d.min(1.0).acos();
            let r = if th < 1e-9 {
                a64
            } else {
                (a64 * ((1.0 - u as f64) * th).sin() + b64 * (u as f64 * th).sin()) / th.sin()
            };
            worst = worst.max((Vec4::from(got).as_dvec4() - r).abs().max_element());
        }
        assert!(worst < 2e-6, "max component error {worst}");
    }
}
