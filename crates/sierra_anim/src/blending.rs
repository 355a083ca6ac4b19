//! Weighted blending of local poses (crossfades, layered clips, joint masks, additive layers),
//! on array-of-structures poses ([`blend_poses`], the scalar reference) and on
//! structure-of-arrays poses ([`blend_poses_soa`]); both run the same formulas
//! ([`blend_lane`]), so they agree bit for bit.

use crate::error::check_len;
use crate::lane::{arr3, arr4, dot4, normalize4, quat_mul, Lane, Trs};
use crate::simd::{dispatch, SimdLevel, F8};
use crate::soa::SoaTransform;
use crate::{AnimError, Transform};

/// One input of a blend: a local pose, its weight and optional per-joint weights, for
/// array-of-structures poses ([`BlendLayer`], `P` = [`Transform`], `W` = `f32`) or
/// structure-of-arrays poses ([`SoaBlendLayer`], `P` = [`SoaTransform`], `W` = [`F8`]).
#[derive(Clone, Copy, Debug)]
pub struct PoseLayer<'a, P, W> {
    /// `[joint_count]` local transforms (SoA: `[soa_blocks(joint_count)]` blocks of eight).
    pub pose: &'a [P],
    /// Non-negative weight; weights are normalised by their sum, per joint.
    pub weight: f32,
    /// Per-joint factors of `weight`, shaped like `pose` (a joint mask; `None`: all 1).
    pub joint_weights: Option<&'a [W]>,
}

/// One input of [`blend_poses`]: `[joint_count]` transforms and joint weights.
pub type BlendLayer<'a> = PoseLayer<'a, Transform, f32>;

/// One input of [`blend_poses_soa`]: as [`BlendLayer`], on SoA poses.
pub type SoaBlendLayer<'a> = PoseLayer<'a, SoaTransform, F8>;

impl<'a, P, W> PoseLayer<'a, P, W> {
    /// A layer of `pose` with `weight` and no joint mask.
    pub fn new(pose: &'a [P], weight: f32) -> Self {
        Self {
            pose,
            weight,
            joint_weights: None,
        }
    }
}

/// Checks that `rest_pose`, every layer's pose and joint weights have `n` elements.
///
/// Errors: [`AnimError::BufferSize`] naming the first that does not.
fn check_layers<P, W>(
    layers: &[PoseLayer<'_, P, W>],
    additive: &[PoseLayer<'_, P, W>],
    rest_pose: &[P],
    n: usize,
) -> Result<(), AnimError> {
    check_len("blend rest pose", n, rest_pose.len())?;
    for l in layers.iter().chain(additive) {
        check_len("blend layer pose", n, l.pose.len())?;
        if let Some(w) = l.joint_weights {
            check_len("blend joint weights", n, w.len())?;
        }
    }
    Ok(())
}

/// The blend of one joint (scalar) or one block (SoA). `weight(i)` / `pose(i)` give layer
/// `i` of `count >= 1`; `add_weight(i)` / `add_pose(i)` additive layer `i` of `add_count`.
///
/// 1. `w_i = max(weight_i, 0)`, `W = Σ w_i`; when `W` is not in `(1e-6, ∞)` the result is `rest`.
/// 2. Translation and scale: `Σ (w_i / W) · x_i`. Rotation: `normalise(Σ ± (w_i / W) · q_i)`,
///    each `q_i` flipped into the hemisphere of the heaviest layer's rotation (the first of
///    equals), so `q` and `−q` blend as the same rotation (ozz-animation's `BlendingJob`).
/// 3. Each additive layer with `a = max(weight, 0)` (not normalised) then applies on top:
///    `t += a·t_add`, `s *= 1 + a·(s_add − 1)`, `q = q ⊗ normalise(lerp(identity, ±q_add, a))`
///    with `q_add` taken with `w ≥ 0` (the short way from identity).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn blend_lane<L: Lane>(
    count: usize,
    weight: impl Fn(usize) -> L,
    pose: impl Fn(usize) -> Trs<L>,
    rest: &Trs<L>,
    add_count: usize,
    add_weight: impl Fn(usize) -> L,
    add_pose: impl Fn(usize) -> Trs<L>,
) -> Trs<L> {
    let mut total = weight(0).max0();
    let mut heaviest = total;
    let mut reference = pose(0).q;
    for i in 1..count {
        let w = weight(i).max0();
        let q = pose(i).q;
        reference = arr4(|k| w.if_gt(heaviest, q[k], reference[k]));
        heaviest = w.if_gt(heaviest, w, heaviest);
        total = total + w;
    }
    let inv = L::splat(1.0) / total;
    let term = |i: usize| term(&pose(i), weight(i), inv, &reference);
    let (p, w, signed) = term(0);
    let mut t = arr3(|k| p.t[k] * w);
    let mut s = arr3(|k| p.s[k] * w);
    let mut q = arr4(|k| p.q[k] * signed);
    for i in 1..count {
        let (p, w, signed) = term(i);
        t = arr3(|k| t[k] + p.t[k] * w);
        s = arr3(|k| s[k] + p.s[k] * w);
        q = arr4(|k| q[k] + p.q[k] * signed);
    }
    let q = normalize4(q);
    let usable = |a: L, b: L| total.if_usable(a, b);
    let mut out = Trs {
        t: arr3(|k| usable(t[k], rest.t[k])),
        q: arr4(|k| usable(q[k], rest.q[k])),
        s: arr3(|k| usable(s[k], rest.s[k])),
    };
    for i in 0..add_count {
        let a = add_weight(i).max0();
        let p = add_pose(i);
        out.t = arr3(|k| out.t[k] + p.t[k] * a);
        out.s = arr3(|k| out.s[k] * (L::splat(1.0) + (p.s[k] - L::splat(1.0)) * a));
        let sa = p.q[3].if_neg(-a, a);
        let one_minus = L::splat(1.0) - a;
        let delta = normalize4([
            p.q[0] * sa,
            p.q[1] * sa,
            p.q[2] * sa,
            one_minus + p.q[3] * sa,
        ]);
        out.q = quat_mul(&out.q, &delta);
    }
    out
}

/// [`blend_lane`] for two layers without additive layers (the crossfade), without closures so
/// it inlines whole into the SoA kernels; the same operations in the same order.
#[inline(always)]
pub(crate) fn blend2_lane<L: Lane>(
    pa: &Trs<L>,
    pb: &Trs<L>,
    wa: L,
    wb: L,
    rest: &Trs<L>,
) -> Trs<L> {
    let (w0, w1) = (wa.max0(), wb.max0());
    let reference = arr4(|k| w1.if_gt(w0, pb.q[k], pa.q[k]));
    let total = w0 + w1;
    let inv = L::splat(1.0) / total;
    let (_, w0, s0) = term(pa, wa, inv, &reference);
    let (_, w1, s1) = term(pb, wb, inv, &reference);
    let t = arr3(|k| pa.t[k] * w0 + pb.t[k] * w1);
    let s = arr3(|k| pa.s[k] * w0 + pb.s[k] * w1);
    let q = normalize4(arr4(|k| pa.q[k] * s0 + pb.q[k] * s1));
    Trs {
        t: arr3(|k| total.if_usable(t[k], rest.t[k])),
        q: arr4(|k| total.if_usable(q[k], rest.q[k])),
        s: arr3(|k| total.if_usable(s[k], rest.s[k])),
    }
}

/// Layer `p` with weight `w` scaled by `inv`: `(p, w', ±w')`, the sign taken so `q` lies in
/// the hemisphere of `reference`.
#[inline(always)]
fn term<L: Lane>(p: &Trs<L>, w: L, inv: L, reference: &[L; 4]) -> (Trs<L>, L, L) {
    let w = w.max0() * inv;
    let signed = dot4(reference, &p.q).if_neg(-w, w);
    (*p, w, signed)
}

/// Blends `layers` into `output` (`[joint_count]` local transforms); the rules are those of
/// [`blend_poses_layered`] without additive layers.
///
/// Errors: [`AnimError::BufferSize`] when a pose or joint-weight length differs from `output`.
pub fn blend_poses(
    layers: &[BlendLayer<'_>],
    rest_pose: &[Transform],
    output: &mut [Transform],
) -> Result<(), AnimError> {
    blend_poses_layered(layers, &[], rest_pose, output)
}

/// Blends `layers` (normalised per joint by their weight sum; hemisphere-corrected nlerp of
/// rotations), falls back to `rest_pose` for joints whose weights sum to (nearly) zero, then
/// applies `additive` layers on top (see the rules of the SoA kernel in this module's source,
/// `blend_lane`: ozz-animation's `BlendingJob` semantics). The scalar reference of
/// [`blend_poses_soa`].
///
/// Errors: [`AnimError::BufferSize`] when a pose or joint-weight length differs from `output`.
pub fn blend_poses_layered(
    layers: &[BlendLayer<'_>],
    additive: &[BlendLayer<'_>],
    rest_pose: &[Transform],
    output: &mut [Transform],
) -> Result<(), AnimError> {
    check_layers(layers, additive, rest_pose, output.len())?;
    let weight = |l: &BlendLayer, j: usize| match l.joint_weights {
        Some(w) => l.weight * w[j],
        None => l.weight,
    };
    for (j, o) in output.iter_mut().enumerate() {
        let rest = Trs::from(&rest_pose[j]);
        let count = layers.len();
        // No layer: rest pose (a zero-weight layer of it) plus the additive layers.
        let (count, base): (usize, &[BlendLayer]) = if count == 0 {
            (1, &[])
        } else {
            (count, layers)
        };
        *o = blend_lane(
            count,
            |i| base.get(i).map_or(0.0, |l| weight(l, j)),
            |i| base.get(i).map_or(rest, |l| Trs::from(&l.pose[j])),
            &rest,
            additive.len(),
            |i| weight(&additive[i], j),
            |i| Trs::from(&additive[i].pose[j]),
        )
        .into();
    }
    Ok(())
}

/// SoA [`blend_poses_layered`]: the same result bit for bit, eight joints at a time, with
/// the best instruction set of this CPU ([`SimdLevel::detect`]).
///
/// Errors: [`AnimError::BufferSize`] when a pose or joint-weight length differs from `output`.
pub fn blend_poses_soa(
    layers: &[SoaBlendLayer<'_>],
    additive: &[SoaBlendLayer<'_>],
    rest_pose: &[SoaTransform],
    output: &mut [SoaTransform],
) -> Result<(), AnimError> {
    blend_poses_soa_with(SimdLevel::detect(), layers, additive, rest_pose, output)
}

/// [`blend_poses_soa`] with a chosen instruction set (`level` is lowered to what this CPU supports).
///
/// Errors: as [`blend_poses_soa`].
pub fn blend_poses_soa_with(
    level: SimdLevel,
    layers: &[SoaBlendLayer<'_>],
    additive: &[SoaBlendLayer<'_>],
    rest_pose: &[SoaTransform],
    output: &mut [SoaTransform],
) -> Result<(), AnimError> {
    check_layers(layers, additive, rest_pose, output.len())?;
    blend_soa_dispatch(level, layers, additive, rest_pose, output);
    Ok(())
}

dispatch! {
    fn blend_soa_dispatch(
        layers: &[SoaBlendLayer<'_>],
        additive: &[SoaBlendLayer<'_>],
        rest_pose: &[SoaTransform],
        output: &mut [SoaTransform],
    ) => blend_soa_kernel
}

#[inline(always)]
fn soa_weight(l: &SoaBlendLayer, b: usize) -> F8 {
    match l.joint_weights {
        Some(w) => w[b] * l.weight,
        None => F8::splat(l.weight),
    }
}

#[inline(always)]
fn blend_soa_kernel(
    layers: &[SoaBlendLayer<'_>],
    additive: &[SoaBlendLayer<'_>],
    rest_pose: &[SoaTransform],
    output: &mut [SoaTransform],
) {
    if let ([a, c], [], None, None) = (
        layers,
        additive,
        layers.first().and_then(|l| l.joint_weights),
        layers.get(1).and_then(|l| l.joint_weights),
    ) {
        let (wa, wc) = (F8::splat(a.weight), F8::splat(c.weight));
        for (b, o) in output.iter_mut().enumerate() {
            let rest = Trs::from(&rest_pose[b]);
            let (pa, pc) = (Trs::from(&a.pose[b]), Trs::from(&c.pose[b]));
            *o = blend2_lane(&pa, &pc, wa, wc, &rest).into();
        }
        return;
    }
    for (b, o) in output.iter_mut().enumerate() {
        let rest = Trs::from(&rest_pose[b]);
        let (count, base): (usize, &[SoaBlendLayer]) = if layers.is_empty() {
            (1, &[])
        } else {
            (layers.len(), layers)
        };
        *o = blend_lane(
            count,
            |i| base.get(i).map_or(F8::ZERO, |l| soa_weight(l, b)),
            |i| base.get(i).map_or(rest, |l| Trs::from(&l.pose[b])),
            &rest,
            additive.len(),
            |i| soa_weight(&additive[i], b),
            |i| Trs::from(&additive[i].pose[b]),
        )
        .into();
    }
}
