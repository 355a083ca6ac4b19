//! Local joint transform (translation, rotation, scale).

use glam::{Mat4, Quat, Vec3, Vec3A};

/// A joint's local transform relative to its parent, applied as
/// `T * R * S` (glTF 2.0 §5.25 "node": scale first, then rotation, then translation).
///
/// `translation` in metres, `rotation` a unit quaternion, `scale` unitless.
/// Stored with [`Vec3A`] so that every field is a 16-byte SIMD lane (48 bytes in all).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    /// Translation in metres.
    pub translation: Vec3A,
    /// Unit quaternion.
    pub rotation: Quat,
    /// Per-axis scale.
    pub scale: Vec3A,
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Transform {
    /// No translation, no rotation, unit scale.
    pub const IDENTITY: Self = Self {
        translation: Vec3A::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3A::ONE,
    };

    /// Builds a transform from glam's unaligned vectors.
    pub fn from_trs(translation: Vec3, rotation: Quat, scale: Vec3) -> Self {
        Self {
            translation: translation.into(),
            rotation,
            scale: scale.into(),
        }
    }

    /// Decomposes an affine matrix (e.g. a glTF node's `matrix`) into TRS.
    /// Shear cannot be represented and is lost, as the glTF spec allows
    /// (§5.25: node matrices "must be decomposable to TRS").
    pub fn from_matrix(m: &Mat4) -> Self {
        let (s, r, t) = m.to_scale_rotation_translation();
        Self::from_trs(t, r.normalize(), s)
    }

    /// The column-major matrix `T * R * S`.
    #[inline]
    pub fn to_matrix(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(
            self.scale.into(),
            self.rotation,
            self.translation.into(),
        )
    }

    /// Whether every component is finite.
    pub fn is_finite(&self) -> bool {
        self.translation.is_finite() && self.rotation.is_finite() && self.scale.is_finite()
    }
}
