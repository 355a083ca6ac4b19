//! Structure-of-arrays local poses: eight joints per block (see [`crate::simd`]).

use glam::{Quat, Vec3A};

use crate::error::check_len;
use crate::simd::{F8, LANES};
use crate::{AnimError, Transform};

/// The local transforms of eight joints, one lane per joint: joint `8·b + i` of a pose is
/// lane `i` of block `b`. Same meaning as [`Transform`] (translation in metres, unit
/// quaternion `x y z w`, scale), 320 bytes per block.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(32))]
pub struct SoaTransform {
    /// Translation `x, y, z`.
    pub translation: [F8; 3],
    /// Rotation quaternion `x, y, z, w`.
    pub rotation: [F8; 4],
    /// Scale `x, y, z`.
    pub scale: [F8; 3],
}

impl Default for SoaTransform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl SoaTransform {
    /// Eight identity transforms.
    pub const IDENTITY: Self = Self {
        translation: [F8::ZERO; 3],
        rotation: [F8::ZERO, F8::ZERO, F8::ZERO, F8::ONE],
        scale: [F8::ONE; 3],
    };

    /// Lane `i` as a [`Transform`].
    #[inline(always)]
    pub fn get(&self, i: usize) -> Transform {
        let (t, r, s) = (&self.translation, &self.rotation, &self.scale);
        Transform {
            translation: Vec3A::new(t[0].0[i], t[1].0[i], t[2].0[i]),
            rotation: Quat::from_xyzw(r[0].0[i], r[1].0[i], r[2].0[i], r[3].0[i]),
            scale: Vec3A::new(s[0].0[i], s[1].0[i], s[2].0[i]),
        }
    }

    /// Writes `v` into lane `i`.
    #[inline(always)]
    pub fn set(&mut self, i: usize, v: &Transform) {
        for (c, x) in self.translation.iter_mut().zip(v.translation.to_array()) {
            c.0[i] = x;
        }
        for (c, x) in self.rotation.iter_mut().zip(v.rotation.to_array()) {
            c.0[i] = x;
        }
        for (c, x) in self.scale.iter_mut().zip(v.scale.to_array()) {
            c.0[i] = x;
        }
    }
}

/// Number of SoA blocks for `joints` joints (`⌈joints / 8⌉`).
#[inline]
pub const fn soa_blocks(joints: usize) -> usize {
    joints.div_ceil(LANES)
}

/// AoS → SoA: `soa` (`[soa_blocks(aos.len())]`) receives `aos`; lanes past the last joint
/// are set to identity. Errors: [`AnimError::BufferSize`].
pub fn to_soa(aos: &[Transform], soa: &mut [SoaTransform]) -> Result<(), AnimError> {
    check_blocks("SoA pose", aos.len(), soa.len())?;
    for (b, block) in soa.iter_mut().enumerate() {
        *block = SoaTransform::IDENTITY;
        for (i, t) in aos[b * LANES..].iter().take(LANES).enumerate() {
            block.set(i, t);
        }
    }
    Ok(())
}

/// SoA → AoS: `aos` receives the first `aos.len()` lanes of `soa`.
/// Errors: [`AnimError::BufferSize`].
pub fn from_soa(soa: &[SoaTransform], aos: &mut [Transform]) -> Result<(), AnimError> {
    check_blocks("SoA pose", aos.len(), soa.len())?;
    for (j, t) in aos.iter_mut().enumerate() {
        *t = soa[j / LANES].get(j % LANES);
    }
    Ok(())
}

pub(crate) fn check_blocks(
    what: &'static str,
    joints: usize,
    blocks: usize,
) -> Result<(), AnimError> {
    check_len(what, soa_blocks(joints), blocks)
}
