//! Local-to-model and the skinning palette in one pass over the joints
//! ([`local_to_palette_soa`]): each joint's model matrix is made from its parent's and then
//! multiplied by its inverse bind matrix while both are still in registers, so the palette is
//! written straight from the hierarchy walk instead of by a second pass that reads every model
//! matrix back.
//!
//! The AVX2 kernel holds a model matrix as four 256-bit registers, each column repeated in both
//! halves (`[x|x] [y|y] [z|z] [w|w]`). A child's column is then `[x|x]·l₀ + [y|y]·l₁ + [z|z]·l₂`
//! with the local matrix entries `lₖ` broadcast from the SoA block: no shuffle on the path from a
//! parent to its child, which is what bounds a chain of joints. The palette takes the columns as
//! they come (`[x|x]·[ibm₀ₓ|ibm₁ₓ] + …`, two palette columns per register). Every product and
//! sum is the one of [`crate::local_to_model_soa`] and [`crate::skinning_palette`] in the same
//! order (no FMA), so the fused pass gives their bits exactly (tested). The kernel is the same
//! on AVX-512 CPUs (256-bit registers): most CPUs that run Sierra have only AVX2, and wider
//! registers would only repeat the columns more.

use glam::Mat4;

use crate::error::check_len;
use crate::simd::SimdLevel;
use crate::soa::{check_blocks, SoaTransform};
use crate::{joint_matrices, local_to_model_soa_with, AnimError, Skeleton, Skin};

/// Local-to-model and skinning palette for `skin` in one pass (see the module docs):
/// `model[j] = model[parent(j)] · local[j]` (`root` the parent of root joints) and
/// `palette[i] = model[skin.joints[i]] · skin.inverse_bind_matrices[i]`, the bits of
/// [`crate::local_to_model_soa`] then [`crate::skinning_palette`].
///
/// `local`: `[soa_blocks(joint_count)]`; `model`: `[joint_count]` column-major model-space
/// matrices (written: children read their parents from it, attachments and IK from the
/// caller); `palette`: `[skin.joint_count()]`. The fused kernel runs where the CPU has AVX2 and
/// the skin lists the skeleton's joints in order (`skin.joints[i] == i`, as glTF exporters
/// write a whole-skeleton skin); otherwise the two stages run one after the other.
///
/// Errors: [`AnimError::BufferSize`], [`AnimError::SkinJointOutOfRange`].
pub fn local_to_palette_soa(
    skeleton: &Skeleton,
    local: &[SoaTransform],
    root: Mat4,
    skin: &Skin,
    model: &mut [Mat4],
    palette: &mut [Mat4],
) -> Result<(), AnimError> {
    local_to_palette_soa_with(
        SimdLevel::detect(),
        skeleton,
        local,
        root,
        skin,
        model,
        palette,
    )
}

/// [`local_to_palette_soa`] on instruction set `level` (lowered to what this CPU supports;
/// [`SimdLevel::Portable`] runs the two stages one after the other).
///
/// Errors: as [`local_to_palette_soa`].
pub fn local_to_palette_soa_with(
    level: SimdLevel,
    skeleton: &Skeleton,
    local: &[SoaTransform],
    root: Mat4,
    skin: &Skin,
    model: &mut [Mat4],
    palette: &mut [Mat4],
) -> Result<(), AnimError> {
    let n = skeleton.joint_count();
    check_len("model-space output", n, model.len())?;
    check_blocks("SoA local pose", n, local.len())?;
    check_len("skinning palette", skin.joint_count(), palette.len())?;
    check_len(
        "inverse bind matrices",
        skin.joint_count(),
        skin.inverse_bind_matrices.len(),
    )?;
    #[cfg(target_arch = "x86_64")]
    if level.supported() != SimdLevel::Portable && joints_in_order(&skin.joints, n) {
        // SAFETY: `supported` checked AVX2 on this CPU; the lengths were checked above.
        unsafe {
            avx2::fused(
                skeleton.parents(),
                local,
                &root,
                &skin.inverse_bind_matrices,
                model,
                palette,
            )
        };
        return Ok(());
    }
    local_to_model_soa_with(level, skeleton, local, root, model)?;
    joint_matrices(skin, model, Mat4::IDENTITY, palette)
}

/// `0, 1, 2, …` as `u16` (compared a slice at a time).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const IN_ORDER: [u16; 256] = {
    let mut a = [0u16; 256];
    let mut i = 0;
    while i < 256 {
        a[i] = i as u16;
        i += 1;
    }
    a
};

/// Whether `joints` is `0..n` (skin joint `i` is skeleton joint `i`, every joint skinned): one
/// slice comparison against [`IN_ORDER`] up to 256 joints (it runs once per character).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn joints_in_order(joints: &[u16], n: usize) -> bool {
    joints.len() == n
        && match IN_ORDER.get(..n) {
            Some(prefix) => joints == prefix,
            None => joints.iter().enumerate().all(|(i, &j)| usize::from(j) == i),
        }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use glam::Mat4;

    use crate::simd::LANES;
    use crate::soa::SoaTransform;
    use crate::NO_PARENT;

    /// A model matrix with each column in both halves of a register.
    #[derive(Clone, Copy)]
    struct Dup([__m256; 4]);

    /// `m`'s columns, each repeated in both halves.
    #[inline(always)]
    unsafe fn dup(m: &Mat4) -> Dup {
        let c = m.as_ref();
        // SAFETY: a `Mat4` is 16 contiguous `f32` (column-major); each load reads 4 of them.
        unsafe {
            Dup([
                _mm256_broadcast_ps(&*(c[0..4].as_ptr() as *const __m128)),
                _mm256_broadcast_ps(&*(c[4..8].as_ptr() as *const __m128)),
                _mm256_broadcast_ps(&*(c[8..12].as_ptr() as *const __m128)),
                _mm256_broadcast_ps(&*(c[12..16].as_ptr() as *const __m128)),
            ])
        }
    }

    /// `((a·p + b·q) + c·r)`, the order of `mul_affine`'s columns.
    #[inline(always)]
    unsafe fn col3(a: __m256, p: f32, b: __m256, q: f32, c: __m256, r: f32) -> __m256 {
        let (p, q, r) = (_mm256_set1_ps(p), _mm256_set1_ps(q), _mm256_set1_ps(r));
        _mm256_add_ps(
            _mm256_add_ps(_mm256_mul_ps(a, p), _mm256_mul_ps(b, q)),
            _mm256_mul_ps(c, r),
        )
    }

    /// Two palette columns: `model · ibm` columns `2h` and `2h + 1` (`ibm2` = those two
    /// columns), each `((x·i.x + y·i.y) + z·i.z) + w·i.w` as glam's `Mat4 * Mat4`.
    #[inline(always)]
    unsafe fn palette_pair(m: &Dup, ibm2: __m256) -> __m256 {
        let lane = |k: i32| _mm256_setr_epi32(k, k, k, k, k + 4, k + 4, k + 4, k + 4);
        let [x, y, z, w] = m.0;
        let t = |v: __m256, k: i32| _mm256_mul_ps(v, _mm256_permutevar8x32_ps(ibm2, lane(k)));
        _mm256_add_ps(
            _mm256_add_ps(_mm256_add_ps(t(x, 0), t(y, 1)), t(z, 2)),
            t(w, 3),
        )
    }

    /// The 12 affine entries of `trs_to_affine` for a block's 8 joints, lane `i` of entry `k`
    /// at `out[k][i]`: the same operations in the same order as `lane::trs_to_affine` on
    /// [`crate::F8`] (written with intrinsics: the generic lanes compile to shuffles here).
    #[inline(always)]
    unsafe fn affine_block(p: &SoaTransform, out: &mut [[f32; 8]; 12]) {
        // SAFETY: `F8` is 8 `f32`, 32-byte aligned; `out`'s rows are written unaligned.
        unsafe {
            let ld = |v: &crate::F8| _mm256_load_ps(v.0.as_ptr());
            let [x, y, z, w] = p.rotation.each_ref().map(ld);
            let [sx, sy, sz] = p.scale.each_ref().map(ld);
            let (add, sub, mul) = (_mm256_add_ps, _mm256_sub_ps, _mm256_mul_ps);
            let (x2, y2, z2) = (add(x, x), add(y, y), add(z, z));
            let (xx, xy, xz) = (mul(x, x2), mul(x, y2), mul(x, z2));
            let (yy, yz, zz) = (mul(y, y2), mul(y, z2), mul(z, z2));
            let (wx, wy, wz) = (mul(w, x2), mul(w, y2), mul(w, z2));
            let one = _mm256_set1_ps(1.0);
            let m = [
                mul(sub(one, add(yy, zz)), sx),
                mul(add(xy, wz), sx),
                mul(sub(xz, wy), sx),
                mul(sub(xy, wz), sy),
                mul(sub(one, add(xx, zz)), sy),
                mul(add(yz, wx), sy),
                mul(add(xz, wy), sz),
                mul(sub(yz, wx), sz),
                mul(sub(one, add(xx, yy)), sz),
                ld(&p.translation[0]),
                ld(&p.translation[1]),
                ld(&p.translation[2]),
            ];
            for (o, v) in out.iter_mut().zip(m) {
                _mm256_storeu_ps(o.as_mut_ptr(), v);
            }
        }
    }

    /// The fused pass. # Safety: the CPU has AVX2; `model.len() == parents.len()`,
    /// `local.len() == soa_blocks(parents.len())`, `ibm.len() == palette.len() == parents.len()`.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn fused(
        parents: &[u16],
        local: &[SoaTransform],
        root: &Mat4,
        ibm: &[Mat4],
        model: &mut [Mat4],
        palette: &mut [Mat4],
    ) {
        let n = parents.len();
        // SAFETY (whole body): AVX2 is present (caller); every pointer below is to an element
        // of a slice whose length the caller checked, read or written 16 or 32 bytes at a time.
        unsafe {
            let root = dup(root);
            let mut prev = root;
            let mut m = [[0f32; 8]; 12];
            for (b, block) in local.iter().enumerate() {
                affine_block(block, &mut m);
                #[allow(clippy::needless_range_loop)] // `i` is a lane of all 12 rows of `m`
                for i in 0..LANES.min(n - b * LANES) {
                    let j = b * LANES + i;
                    let p = parents[j];
                    let parent = if p == NO_PARENT {
                        root
                    } else if p as usize + 1 == j {
                        prev
                    } else {
                        dup(model.get_unchecked(p as usize))
                    };
                    let [px, py, pz, pw] = parent.0;
                    let l = |k: usize| m[k][i];
                    let cur = Dup([
                        col3(px, l(0), py, l(1), pz, l(2)),
                        col3(px, l(3), py, l(4), pz, l(5)),
                        col3(px, l(6), py, l(7), pz, l(8)),
                        _mm256_add_ps(col3(px, l(9), py, l(10), pz, l(11)), pw),
                    ]);
                    let out = model.get_unchecked_mut(j) as *mut Mat4 as *mut f32;
                    for (k, c) in cur.0.iter().enumerate() {
                        _mm_storeu_ps(out.add(4 * k), _mm256_castps256_ps128(*c));
                    }
                    let ib = ibm.get_unchecked(j) as *const Mat4 as *const f32;
                    let pal = palette.get_unchecked_mut(j) as *mut Mat4 as *mut f32;
                    _mm256_storeu_ps(pal, palette_pair(&cur, _mm256_loadu_ps(ib)));
                    _mm256_storeu_ps(pal.add(8), palette_pair(&cur, _mm256_loadu_ps(ib.add(8))));
                    prev = cur;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3};

    use super::*;
    use crate::synthetic;
    use crate::{local_to_model, skinning_palette, soa_blocks, Transform};

    fn to_soa(aos: &[Transform]) -> Vec<SoaTransform> {
        let mut soa = vec![SoaTransform::IDENTITY; soa_blocks(aos.len())];
        crate::to_soa(aos, &mut soa).unwrap();
        soa
    }

    fn pose(skeleton: &Skeleton, t: f32) -> Vec<Transform> {
        (0..skeleton.joint_count())
            .map(|j| {
                let a = 0.3 * (j as f32 + t).sin();
                Transform::from_trs(
                    Vec3::new(0.01 * j as f32, 0.1, -0.02 * a),
                    Quat::from_euler(glam::EulerRot::XYZ, a, 0.5 * a, -0.7 * a),
                    Vec3::new(1.0, 1.0 + 0.1 * a, 0.9),
                )
            })
            .collect()
    }

    fn skin(n: usize) -> Skin {
        Skin {
            joints: (0..n as u16).collect(),
            inverse_bind_matrices: (0..n)
                .map(|j| {
                    Mat4::from_scale_rotation_translation(
                        Vec3::splat(1.0 + 0.01 * j as f32),
                        Quat::from_rotation_y(0.1 * j as f32),
                        Vec3::new(0.0, -0.1 * j as f32, 0.05),
                    )
                    .inverse()
                })
                .collect(),
        }
    }

    /// The unfused reference: SoA local-to-model, then the palette pass.
    fn unfused(skeleton: &Skeleton, local: &[SoaTransform], root: Mat4, skin: &Skin) -> Vec<Mat4> {
        let mut model = vec![Mat4::IDENTITY; skeleton.joint_count()];
        local_to_model_soa_with(SimdLevel::Portable, skeleton, local, root, &mut model).unwrap();
        let mut palette = vec![Mat4::IDENTITY; skin.joint_count()];
        skinning_palette(skin, &model, &mut palette).unwrap();
        palette
    }

    #[test]
    fn fused_pass_gives_the_bits_of_the_two_stages_on_every_level() {
        let root = Mat4::from_rotation_translation(Quat::from_rotation_x(0.3), Vec3::X);
        for joints in [68, 1, 9, 200] {
            let skeleton = synthetic::skeleton(joints);
            let skin = skin(joints);
            let soa = to_soa(&pose(&skeleton, 0.7));
            let want = unfused(&skeleton, &soa, root, &skin);
            for level in [SimdLevel::Portable, SimdLevel::Avx2, SimdLevel::Avx512] {
                let mut model = vec![Mat4::ZERO; joints];
                let mut palette = vec![Mat4::ZERO; joints];
                local_to_palette_soa_with(
                    level,
                    &skeleton,
                    &soa,
                    root,
                    &skin,
                    &mut model,
                    &mut palette,
                )
                .unwrap();
                for (j, (g, w)) in palette.iter().zip(&want).enumerate() {
                    let (g, w) = (g.to_cols_array(), w.to_cols_array());
                    assert!(
                        g.iter().zip(&w).all(|(a, b)| a.to_bits() == b.to_bits()),
                        "{level:?} joint {j}"
                    );
                }
            }
        }
    }

    /// An independent value: joint 1's palette entry by hand from glam's own products,
    /// `root · M(local₀) · M(local₁) · ibm₁` (to float rounding), for a two-joint chain.
    #[test]
    fn fused_palette_equals_a_product_written_out() {
        let skeleton = synthetic::skeleton(2);
        let skin = skin(2);
        let local = pose(&skeleton, 0.2);
        let root = Mat4::from_translation(Vec3::new(1.0, 2.0, 3.0));
        let want =
            root * local[0].to_matrix() * local[1].to_matrix() * skin.inverse_bind_matrices[1];
        let (mut model, mut palette) = (vec![Mat4::ZERO; 2], vec![Mat4::ZERO; 2]);
        local_to_palette_soa(
            &skeleton,
            &to_soa(&local),
            root,
            &skin,
            &mut model,
            &mut palette,
        )
        .unwrap();
        assert!(
            palette[1].abs_diff_eq(want, 1e-5),
            "{:?} vs {want:?}",
            palette[1]
        );
        let mut reference = vec![Mat4::ZERO; 2];
        local_to_model(&skeleton, &local, root, &mut reference).unwrap();
        assert!(model[1].abs_diff_eq(reference[1], 1e-6));
    }

    /// Negative control: a pose that differs in one joint's rotation gives another palette
    /// from that joint on (so the equality above compares computed values, not stale buffers).
    #[test]
    fn another_pose_gives_another_palette() {
        let skeleton = synthetic::skeleton(68);
        let skin = skin(68);
        let mut local = pose(&skeleton, 0.7);
        let run = |local: &[Transform]| {
            let (mut model, mut palette) = (vec![Mat4::ZERO; 68], vec![Mat4::ZERO; 68]);
            local_to_palette_soa(
                &skeleton,
                &to_soa(local),
                Mat4::IDENTITY,
                &skin,
                &mut model,
                &mut palette,
            )
            .unwrap();
            palette
        };
        let before = run(&local);
        local[5].rotation = Quat::from_rotation_z(1.0) * local[5].rotation;
        let after = run(&local);
        assert_eq!(before[4], after[4]);
        assert_ne!(before[5], after[5]);
    }

    #[test]
    fn joints_in_order_means_zero_to_n() {
        let order: Vec<u16> = (0..300).collect();
        assert!(joints_in_order(&order[..68], 68));
        assert!(joints_in_order(&order, 300));
        assert!(!joints_in_order(&order[..68], 69));
        let mut swapped = order.clone();
        swapped.swap(3, 4);
        assert!(!joints_in_order(&swapped[..68], 68));
        swapped.swap(3, 4);
        swapped.swap(280, 290);
        assert!(!joints_in_order(&swapped, 300));
    }

    #[test]
    fn skins_out_of_order_take_the_two_stages_and_bad_sizes_are_errors() {
        let skeleton = synthetic::skeleton(10);
        let mut skin = skin(10);
        skin.joints.reverse();
        let soa = to_soa(&pose(&skeleton, 1.0));
        let want = unfused(&skeleton, &soa, Mat4::IDENTITY, &skin);
        let (mut model, mut palette) = (vec![Mat4::ZERO; 10], vec![Mat4::ZERO; 10]);
        local_to_palette_soa(
            &skeleton,
            &soa,
            Mat4::IDENTITY,
            &skin,
            &mut model,
            &mut palette,
        )
        .unwrap();
        assert_eq!(palette, want);
        let mut short = vec![Mat4::ZERO; 9];
        assert!(matches!(
            local_to_palette_soa(
                &skeleton,
                &soa,
                Mat4::IDENTITY,
                &skin,
                &mut model,
                &mut short
            ),
            Err(AnimError::BufferSize { .. })
        ));
    }
}
