//! One arithmetic for the scalar reference and the SoA kernels: the blending, sampling and
//! local-to-model formulas are written once over [`Lane`], implemented by `f32` (the scalar
//! reference, one joint) and [`F8`] (eight joints). Both perform the same IEEE operations in
//! the same order, so an SoA result equals the scalar reference bit for bit.

use std::ops::{Add, Div, Mul, Neg, Sub};

use glam::{Quat, Vec3A};

use crate::simd::F8;
use crate::soa::SoaTransform;
use crate::Transform;

/// A number type with `f32` semantics per lane.
pub(crate) trait Lane:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    fn splat(v: f32) -> Self;
    fn sqrt(self) -> Self;
    /// `max(self, 0)` as `f32::max`.
    fn max0(self) -> Self;
    /// Per lane: `if self < 0 { a } else { b }`.
    fn if_neg(self, a: Self, b: Self) -> Self;
    /// Per lane: `if self == 0 { a } else { b }`.
    fn if_zero(self, a: Self, b: Self) -> Self;
    /// Per lane: `if self > other { a } else { b }`.
    fn if_gt(self, other: Self, a: Self, b: Self) -> Self;
    /// Per lane: `if self > 1e-6 && self < ∞ { a } else { b }` (a usable weight sum).
    fn if_usable(self, a: Self, b: Self) -> Self;
}

impl Lane for f32 {
    #[inline(always)]
    fn splat(v: f32) -> Self {
        v
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        f32::sqrt(self)
    }
    #[inline(always)]
    fn max0(self) -> Self {
        self.max(0.0)
    }
    #[inline(always)]
    fn if_neg(self, a: Self, b: Self) -> Self {
        if self < 0.0 {
            a
        } else {
            b
        }
    }
    #[inline(always)]
    fn if_zero(self, a: Self, b: Self) -> Self {
        if self == 0.0 {
            a
        } else {
            b
        }
    }
    #[inline(always)]
    fn if_gt(self, other: Self, a: Self, b: Self) -> Self {
        if self > other {
            a
        } else {
            b
        }
    }
    #[inline(always)]
    fn if_usable(self, a: Self, b: Self) -> Self {
        if self > 1e-6 && self < f32::INFINITY {
            a
        } else {
            b
        }
    }
}

impl Lane for F8 {
    #[inline(always)]
    fn splat(v: f32) -> Self {
        F8::splat(v)
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        F8::sqrt(self)
    }
    #[inline(always)]
    fn max0(self) -> Self {
        F8::max0(self)
    }
    #[inline(always)]
    fn if_neg(self, a: Self, b: Self) -> Self {
        self.select(|x| x < 0.0, a, b)
    }
    #[inline(always)]
    fn if_zero(self, a: Self, b: Self) -> Self {
        self.select(|x| x == 0.0, a, b)
    }
    #[inline(always)]
    fn if_gt(self, other: Self, a: Self, b: Self) -> Self {
        F8::from_fn(|i| {
            if self.0[i] > other.0[i] {
                a.0[i]
            } else {
                b.0[i]
            }
        })
    }
    #[inline(always)]
    fn if_usable(self, a: Self, b: Self) -> Self {
        self.select(|x| x > 1e-6 && x < f32::INFINITY, a, b)
    }
}

/// `[f(0), f(1), f(2)]` (`std::array::from_fn` does not always inline into the kernels).
#[inline(always)]
pub(crate) fn arr3<T>(f: impl Fn(usize) -> T) -> [T; 3] {
    [f(0), f(1), f(2)]
}

/// `[f(0), f(1), f(2), f(3)]`.
#[inline(always)]
pub(crate) fn arr4<T>(f: impl Fn(usize) -> T) -> [T; 4] {
    [f(0), f(1), f(2), f(3)]
}

/// Translation, rotation (`x y z w`) and scale as lanes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Trs<L> {
    pub t: [L; 3],
    pub q: [L; 4],
    pub s: [L; 3],
}

/// `((a.x·b.x + a.y·b.y) + a.z·b.z) + a.w·b.w`.
#[inline(always)]
pub(crate) fn dot4<L: Lane>(a: &[L; 4], b: &[L; 4]) -> L {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
}

/// `q / |q|` with an exact square root and division.
#[inline(always)]
pub(crate) fn normalize4<L: Lane>(q: [L; 4]) -> [L; 4] {
    let inv = L::splat(1.0) / dot4(&q, &q).sqrt();
    arr4(|k| q[k] * inv)
}

/// Hamilton product `a ⊗ b` (`x y z w`).
#[inline(always)]
pub(crate) fn quat_mul<L: Lane>(a: &[L; 4], b: &[L; 4]) -> [L; 4] {
    let [ax, ay, az, aw] = *a;
    let [bx, by, bz, bw] = *b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

impl From<&Transform> for Trs<f32> {
    #[inline(always)]
    fn from(t: &Transform) -> Self {
        Self {
            t: t.translation.to_array(),
            q: t.rotation.to_array(),
            s: t.scale.to_array(),
        }
    }
}

impl From<Trs<f32>> for Transform {
    #[inline(always)]
    fn from(t: Trs<f32>) -> Self {
        Transform {
            translation: Vec3A::from_array(t.t),
            rotation: Quat::from_array(t.q),
            scale: Vec3A::from_array(t.s),
        }
    }
}

impl From<&SoaTransform> for Trs<F8> {
    #[inline(always)]
    fn from(t: &SoaTransform) -> Self {
        Self {
            t: t.translation,
            q: t.rotation,
            s: t.scale,
        }
    }
}

impl From<Trs<F8>> for SoaTransform {
    #[inline(always)]
    fn from(t: Trs<F8>) -> Self {
        SoaTransform {
            translation: t.t,
            rotation: t.q,
            scale: t.s,
        }
    }
}

/// Per lane `if u == 0 { a } else { a·(1 − u) + b·u }` (glam's `lerp` formula).
#[inline(always)]
pub(crate) fn lerp3<L: Lane>(a: &[L; 3], b: &[L; 3], u: L) -> [L; 3] {
    let one_minus = L::splat(1.0) - u;
    arr3(|k| u.if_zero(a[k], a[k] * one_minus + b[k] * u))
}

/// `sin x` per lane for `x` in `[0, π/2]`: odd Taylor polynomial to x¹¹ (Horner in x²;
/// truncation error below 6·10⁻⁸ on that range).
#[inline(always)]
pub(crate) fn sin_0_half_pi<L: Lane>(x: L) -> L {
    let x2 = x * x;
    let p = L::splat(-1.0 / 39_916_800.0);
    let p = p * x2 + L::splat(1.0 / 362_880.0);
    let p = p * x2 + L::splat(-1.0 / 5040.0);
    let p = p * x2 + L::splat(1.0 / 120.0);
    let p = p * x2 + L::splat(-1.0 / 6.0);
    let p = p * x2 + L::splat(1.0);
    x * p
}

/// Slerp from `a` to `b` with the per-key-pair constants of [`crate::slerp::SlerpSegment`]
/// (`theta`, `inv_sin`, `sign`): `u == 0` gives `a`; `theta == 0` (keys nearly equal) the
/// signed lerp `a·(1 − u) + b·(u·sign)`; otherwise
/// `a·sin((1 − u)θ)/sin θ + b·sign·sin(uθ)/sin θ` (Shoemake 1985).
#[inline(always)]
pub(crate) fn slerp4<L: Lane>(
    a: &[L; 4],
    b: &[L; 4],
    u: L,
    theta: L,
    inv_sin: L,
    sign: L,
) -> [L; 4] {
    let one_minus = L::splat(1.0) - u;
    let us = u * sign;
    let s0 = sin_0_half_pi(one_minus * theta) * inv_sin;
    let s1 = sin_0_half_pi(u * theta) * inv_sin * sign;
    [
        slerp_component(a[0], b[0], u, theta, one_minus, us, s0, s1),
        slerp_component(a[1], b[1], u, theta, one_minus, us, s0, s1),
        slerp_component(a[2], b[2], u, theta, one_minus, us, s0, s1),
        slerp_component(a[3], b[3], u, theta, one_minus, us, s0, s1),
    ]
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn slerp_component<L: Lane>(a: L, b: L, u: L, theta: L, one_minus: L, us: L, s0: L, s1: L) -> L {
    let near = a * one_minus + b * us;
    let far = a * s0 + b * s1;
    u.if_zero(a, theta.if_zero(near, far))
}

/// The columns `x, y, z` (3×3 part, scale applied) and translation of `T·R·S` for unit
/// quaternion `q` (the standard quaternion-to-matrix formula, as `skel.c`'s `trs2m`).
#[inline(always)]
pub(crate) fn trs_to_affine<L: Lane>(p: &Trs<L>) -> [L; 12] {
    let [x, y, z, w] = p.q;
    let (x2, y2, z2) = (x + x, y + y, z + z);
    let (xx, xy, xz) = (x * x2, x * y2, x * z2);
    let (yy, yz, zz) = (y * y2, y * z2, z * z2);
    let (wx, wy, wz) = (w * x2, w * y2, w * z2);
    let one = L::splat(1.0);
    let [sx, sy, sz] = p.s;
    [
        (one - (yy + zz)) * sx,
        (xy + wz) * sx,
        (xz - wy) * sx,
        (xy - wz) * sy,
        (one - (xx + zz)) * sy,
        (yz + wx) * sy,
        (xz + wy) * sz,
        (yz - wx) * sz,
        (one - (xx + yy)) * sz,
        p.t[0],
        p.t[1],
        p.t[2],
    ]
}
