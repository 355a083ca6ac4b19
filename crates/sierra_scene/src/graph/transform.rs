//! Local transforms (translation, rotation, scale) and world-matrix decomposition.

use glam::{Affine3A, Mat3, Quat, Vec3};

/// A node's local transform relative to its parent: `T · R · S` (glTF node order:
/// scale first, then rotation, then translation). Metres; unit quaternion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    /// Translation, metres.
    pub translation: Vec3,
    /// Rotation, unit quaternion.
    pub rotation: Quat,
    /// Per-axis scale (may be negative: a mirror).
    pub scale: Vec3,
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Transform {
    /// No translation, rotation or scale.
    pub const IDENTITY: Self = Self {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
    };

    /// A transform from its three parts.
    pub fn new(translation: Vec3, rotation: Quat, scale: Vec3) -> Self {
        Self {
            translation,
            rotation,
            scale,
        }
    }

    /// Pure translation.
    pub fn from_translation(translation: Vec3) -> Self {
        Self {
            translation,
            ..Self::IDENTITY
        }
    }

    /// The matrix `T · R · S`.
    #[inline]
    pub fn to_affine(&self) -> Affine3A {
        Affine3A::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }
}

/// A world matrix split into translation, a proper rotation and a per-axis scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decomposed {
    /// Translation, metres.
    pub translation: Vec3,
    /// The rotation closest to the matrix's linear part (polar decomposition), det +1.
    pub rotation: Quat,
    /// Scale along the rotated axes; a mirror (negative determinant) shows up as a
    /// negative `x`. With shear, this is the diagonal of the symmetric stretch and the
    /// shear itself is dropped.
    pub scale: Vec3,
}

/// Splits an affine matrix `M = T · R · S` into translation, rotation and scale, robust
/// to non-uniform scale, shear and mirroring (negative determinant).
///
/// The rotation is the orthogonal factor of the polar decomposition `A = R · P`
/// (`P` symmetric positive semi-definite) — the rotation nearest to `A` in the
/// Frobenius norm — computed with Higham's scaled Newton iteration
/// `R ← ½(γR + γ⁻¹R⁻ᵀ)`, `γ = (‖R⁻¹‖/‖R‖)^½` (N. J. Higham, "Computing the polar
/// decomposition — with applications", SIAM J. Sci. Stat. Comput. 7(4), 1986; Shoemake &
/// Duff, "Matrix animation and polar decomposition", Graphics Interface 1992). Unlike
/// normalising the columns (seed 001's `get_world_rotation`), this stays orthonormal when
/// the parent chain has non-uniform scale and rotation (which produces shear).
///
/// A negative determinant is folded into the scale: the first column is negated before
/// the decomposition and `scale.x` comes back negative, so `R · diag(scale)` still
/// reproduces `A` when there is no shear. A singular matrix (a zero scale) falls back to
/// Gram–Schmidt on the non-degenerate columns.
pub fn decompose(m: &Affine3A) -> Decomposed {
    let translation = Vec3::from(m.translation);
    let mut a = Mat3::from(m.matrix3);
    let det = a.determinant();
    let mirrored = det < 0.0;
    if mirrored {
        a.x_axis = -a.x_axis;
    }
    let rotation_matrix = if det.abs() > 1e-12 {
        polar_rotation(a)
    } else {
        gram_schmidt(a)
    };
    let rotation = Quat::from_mat3(&rotation_matrix).normalize();
    // Stretch P = Rᵀ A; its diagonal is the scale along the rotated axes.
    let stretch = Mat3::from_quat(rotation).transpose() * a;
    let mut scale = Vec3::new(stretch.x_axis.x, stretch.y_axis.y, stretch.z_axis.z);
    if mirrored {
        scale.x = -scale.x;
    }
    Decomposed {
        translation,
        rotation,
        scale,
    }
}

fn polar_rotation(a: Mat3) -> Mat3 {
    let mut r = a;
    for _ in 0..32 {
        let inv = r.inverse();
        let frob = |m: &Mat3| {
            (m.x_axis.length_squared() + m.y_axis.length_squared() + m.z_axis.length_squared())
                .sqrt()
        };
        let gamma = (frob(&inv) / frob(&r)).sqrt();
        let next = (r * gamma + inv.transpose() * (1.0 / gamma)) * 0.5;
        let delta = (next - r)
            .to_cols_array()
            .iter()
            .fold(0.0f32, |acc, v| acc.max(v.abs()));
        r = next;
        if delta < 1e-7 {
            break;
        }
    }
    r
}

fn gram_schmidt(a: Mat3) -> Mat3 {
    let pick = |v: Vec3, fallback: Vec3| v.try_normalize().unwrap_or(fallback);
    let x = pick(a.x_axis, Vec3::X);
    let y = pick(a.y_axis - x * a.y_axis.dot(x), x.any_orthonormal_vector());
    let z = x.cross(y);
    Mat3::from_cols(x, y, z)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn affine_eq(a: &Affine3A, b: &Affine3A, eps: f32) -> bool {
        a.abs_diff_eq(*b, eps)
    }

    fn recompose(d: &Decomposed) -> Affine3A {
        Affine3A::from_scale_rotation_translation(d.scale, d.rotation, d.translation)
    }

    #[test]
    fn non_uniform_scale_round_trips() {
        let rot = Quat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 2.0);
        let m = Affine3A::from_scale_rotation_translation(
            Vec3::new(0.5, 3.0, 1.7),
            rot,
            Vec3::new(1.0, -2.0, 3.0),
        );
        let d = decompose(&m);
        assert!(affine_eq(&recompose(&d), &m, 1e-5), "{d:?}");
        assert!(d.rotation.abs_diff_eq(rot, 1e-5) || d.rotation.abs_diff_eq(-rot, 1e-5));
        assert!(d.scale.abs_diff_eq(Vec3::new(0.5, 3.0, 1.7), 1e-5));
    }

    #[test]
    fn mirrored_matrix_folds_into_negative_scale() {
        let rot = Quat::from_euler(glam::EulerRot::XYZ, 1.0, 0.2, -0.7);
        for scale in [
            Vec3::new(-1.0, 1.0, 1.0),
            Vec3::new(2.0, -0.5, 1.5),
            Vec3::new(-1.0, -2.0, -3.0),
        ] {
            let m = Affine3A::from_scale_rotation_translation(scale, rot, Vec3::ZERO);
            let d = decompose(&m);
            assert!(d.scale.x < 0.0, "{d:?}");
            assert!((Mat3::from_quat(d.rotation).determinant() - 1.0).abs() < 1e-5);
            assert!(affine_eq(&recompose(&d), &m, 1e-5), "{scale} -> {d:?}");
            // Magnitudes of the scales survive (the sign moves to x).
            let mut got = d.scale.abs().to_array();
            let mut want = scale.abs().to_array();
            got.sort_by(f32::total_cmp);
            want.sort_by(f32::total_cmp);
            assert!(Vec3::from(got).abs_diff_eq(Vec3::from(want), 1e-5));
        }
    }

    #[test]
    fn shear_gives_the_polar_rotation() {
        // A = R0 · P with P symmetric positive definite (a shear-like stretch): the
        // polar factor is exactly R0, whereas normalising columns is not orthonormal.
        let r0 = Quat::from_euler(glam::EulerRot::XYZ, -0.4, 0.9, 0.25);
        let p = Mat3::from_cols(
            Vec3::new(2.0, 0.6, 0.1),
            Vec3::new(0.6, 1.0, -0.3),
            Vec3::new(0.1, -0.3, 0.8),
        );
        let a = Mat3::from_quat(r0) * p;
        let m = Affine3A::from_mat3_translation(a, Vec3::new(4.0, 5.0, 6.0));
        let d = decompose(&m);
        assert!(
            d.rotation.abs_diff_eq(r0, 1e-5) || d.rotation.abs_diff_eq(-r0, 1e-5),
            "{:?} vs {r0}",
            d.rotation
        );
        assert!(
            d.scale.abs_diff_eq(Vec3::new(2.0, 1.0, 0.8), 1e-4),
            "{}",
            d.scale
        );
        assert_eq!(d.translation, Vec3::new(4.0, 5.0, 6.0));
    }

    #[test]
    fn shear_from_parent_chain() {
        // Non-uniform parent scale times a rotated child: the world matrix has shear.
        let parent = Affine3A::from_scale(Vec3::new(3.0, 1.0, 1.0));
        let child = Affine3A::from_rotation_z(0.7);
        let d = decompose(&(parent * child));
        let r = Mat3::from_quat(d.rotation);
        assert!((r.determinant() - 1.0).abs() < 1e-5);
        assert!((r * r.transpose()).abs_diff_eq(Mat3::IDENTITY, 1e-5));
    }

    #[test]
    fn zero_scale_does_not_produce_nan() {
        let m = Affine3A::from_scale_rotation_translation(
            Vec3::new(0.0, 2.0, 1.0),
            Quat::from_rotation_y(0.5),
            Vec3::ONE,
        );
        let d = decompose(&m);
        assert!(d.rotation.is_finite() && d.scale.is_finite(), "{d:?}");
    }
}
