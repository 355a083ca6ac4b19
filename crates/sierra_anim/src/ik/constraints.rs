//! Joint limits: hinge (axis, min/max angle) and ball-and-socket (swing cone, twist range).
//!
//! The limit definitions are those of seed 001's `ConstraintDef` (`BALL_SOCKET` with
//! `swing_limit_deg`/`twist_limit_deg`, `HINGE` with `hinge_min_deg`/`hinge_max_deg`/`hinge_axis`).
//! A limit constrains the joint's rotation *relative to its rest pose*: with `rest` the joint's rest
//! local rotation and `local` its current local rotation, the limited quantity is
//! `q = rest⁻¹ · local`, a rotation expressed in the joint's own rest frame. This is the swing–twist
//! convention of physics engines' spherical and revolute joints.

use glam::{Quat, Vec3};

use super::error::IkError;

/// A joint limit, in the joint's rest frame (see the module docs). Angles in radians.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum JointLimit {
    /// No limit.
    #[default]
    None,
    /// One degree of freedom: rotation about `axis` by an angle in `[min, max]`.
    Hinge {
        /// Unit hinge axis in the joint's rest frame (seed 001 default `(0, 0, 1)`).
        axis: Vec3,
        /// Minimum angle, radians, `>= -π`.
        min: f32,
        /// Maximum angle, radians, `<= π`, `>= min`.
        max: f32,
    },
    /// Three degrees of freedom split into swing of the bone direction and twist about it.
    BallSocket {
        /// Half-angle of the cone the bone direction may swing in, radians, `0..=π`.
        swing: f32,
        /// Largest twist about the bone direction either way, radians, `0..=π`.
        twist: f32,
    },
}

/// Kind of a seed 001 `ConstraintDef`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ConstraintType {
    /// `NONE`: no limit.
    #[default]
    None,
    /// `BALL_SOCKET`: swing cone and twist range.
    BallSocket,
    /// `HINGE`: one axis with min/max angle.
    Hinge,
}

/// Seed 001's `ConstraintDef` as plain data, in degrees (the level file / glTF extras form).
/// Convert with [`JointLimit::from_constraint_def`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConstraintDef {
    /// `type`.
    pub kind: ConstraintType,
    /// `swing_limit_deg`, cone half-angle in degrees (default 180).
    pub swing_limit_deg: f32,
    /// `twist_limit_deg`, twist either way in degrees (default 180).
    pub twist_limit_deg: f32,
    /// `hinge_min_deg` (default −180).
    pub hinge_min_deg: f32,
    /// `hinge_max_deg` (default 180).
    pub hinge_max_deg: f32,
    /// `hinge_axis` in the joint's rest frame (default `(0, 0, 1)`); normalised on conversion.
    pub hinge_axis: Vec3,
}

impl Default for ConstraintDef {
    fn default() -> Self {
        Self {
            kind: ConstraintType::None,
            swing_limit_deg: 180.0,
            twist_limit_deg: 180.0,
            hinge_min_deg: -180.0,
            hinge_max_deg: 180.0,
            hinge_axis: Vec3::Z,
        }
    }
}

impl JointLimit {
    /// A validated hinge limit. `axis` need not be unit length; angles in radians.
    ///
    /// Errors: [`IkError::LimitMinGreaterThanMax`] when `min > max`, [`IkError::InvalidLimit`] for a
    /// zero or non-finite axis or angles outside `[-π, π]`. `position` is the chain position reported.
    pub fn hinge(position: usize, axis: Vec3, min: f32, max: f32) -> Result<Self, IkError> {
        let limit = Self::Hinge {
            axis: axis.normalize_or_zero(),
            min,
            max,
        };
        limit.validate(position)?;
        Ok(limit)
    }

    /// A validated ball-and-socket limit, angles in radians in `[0, π]`.
    ///
    /// Errors: [`IkError::InvalidLimit`] for negative, non-finite or too large angles.
    pub fn ball_socket(position: usize, swing: f32, twist: f32) -> Result<Self, IkError> {
        let limit = Self::BallSocket { swing, twist };
        limit.validate(position)?;
        Ok(limit)
    }

    /// Converts seed 001's `ConstraintDef` (degrees) into a validated limit.
    pub fn from_constraint_def(position: usize, def: &ConstraintDef) -> Result<Self, IkError> {
        match def.kind {
            ConstraintType::None => Ok(Self::None),
            ConstraintType::Hinge => Self::hinge(
                position,
                def.hinge_axis,
                def.hinge_min_deg.to_radians(),
                def.hinge_max_deg.to_radians(),
            ),
            ConstraintType::BallSocket => Self::ball_socket(
                position,
                def.swing_limit_deg.to_radians(),
                def.twist_limit_deg.to_radians(),
            ),
        }
    }

    /// Checks the limit's values; `position` is the chain position put in the error.
    pub fn validate(&self, position: usize) -> Result<(), IkError> {
        // A little slack so that ±180° given in degrees passes after conversion to radians.
        const PI_SLACK: f32 = std::f32::consts::PI + 1e-5;
        let invalid = |reason: String| Err(IkError::InvalidLimit { position, reason });
        match *self {
            Self::None => Ok(()),
            Self::Hinge { axis, min, max } => {
                if !axis.is_finite() || axis.length_squared() < 0.5 {
                    return invalid(format!("hinge axis {axis} is zero or not finite"));
                }
                if !(min.is_finite() && max.is_finite()) {
                    return invalid("hinge angles are not finite".into());
                }
                if min > max {
                    return Err(IkError::LimitMinGreaterThanMax {
                        position,
                        what: "hinge",
                        min,
                        max,
                    });
                }
                if min < -PI_SLACK || max > PI_SLACK {
                    return invalid(format!("hinge range [{min}, {max}] rad exceeds [-π, π]"));
                }
                Ok(())
            }
            Self::BallSocket { swing, twist } => {
                for (name, v) in [("swing", swing), ("twist", twist)] {
                    if !(0.0..=PI_SLACK).contains(&v) {
                        return invalid(format!("{name} limit {v} rad is outside [0, π]"));
                    }
                }
                Ok(())
            }
        }
    }

    /// Clamps `q` (rotation relative to the rest pose, in the joint's rest frame) into the limit.
    /// `bone_dir` is the unit direction of the joint's bone in its own frame (the twist axis).
    pub fn clamp(&self, q: Quat, bone_dir: Vec3) -> Quat {
        match *self {
            Self::None => q,
            Self::Hinge { axis, min, max } => {
                // Keep only the rotation about the axis (a hinge has no other freedom).
                let (_, twist) = swing_twist(q, axis);
                let angle = signed_angle_about(twist, axis).clamp(min, max);
                Quat::from_axis_angle(axis, angle)
            }
            Self::BallSocket { swing, twist } => {
                let (sw, tw) = swing_twist(q, bone_dir);
                let tw_angle = signed_angle_about(tw, bone_dir);
                let tw = if tw_angle.abs() > twist {
                    Quat::from_axis_angle(bone_dir, tw_angle.clamp(-twist, twist))
                } else {
                    tw
                };
                let (sw_axis, sw_angle) = axis_angle(sw);
                let sw = if sw_angle > swing {
                    Quat::from_axis_angle(sw_axis, swing)
                } else {
                    sw
                };
                (sw * tw).normalize()
            }
        }
    }

    /// Hinge aiming: the hinge rotation (within `[min, max]`) that turns `bone_dir` closest to
    /// `desired` (both unit, in the joint's rest frame). `None` when this limit is not a hinge or
    /// the desired direction lies along the axis (then any hinge angle is as good; keep the current).
    pub(crate) fn aim_hinge(&self, bone_dir: Vec3, desired: Vec3) -> Option<Quat> {
        let Self::Hinge { axis, min, max } = *self else {
            return None;
        };
        let from = bone_dir - axis * bone_dir.dot(axis);
        let to = desired - axis * desired.dot(axis);
        if from.length_squared() < 1e-10 || to.length_squared() < 1e-10 {
            return None;
        }
        let angle = axis.dot(from.cross(to)).atan2(from.dot(to));
        Some(Quat::from_axis_angle(axis, angle.clamp(min, max)))
    }

    /// How far (radians) `q` lies outside this limit; `0` inside. For a hinge this includes any
    /// rotation off the hinge axis. `bone_dir` as in [`JointLimit::clamp`]. Used by tests and debug views.
    pub fn excess(&self, q: Quat, bone_dir: Vec3) -> f32 {
        match *self {
            Self::None => 0.0,
            Self::Hinge { axis, min, max } => {
                let (sw, tw) = swing_twist(q, axis);
                let angle = signed_angle_about(tw, axis);
                let off_axis = axis_angle(sw).1;
                off_axis + (min - angle).max(0.0) + (angle - max).max(0.0)
            }
            Self::BallSocket { swing, twist } => {
                let (sw, tw) = swing_twist(q, bone_dir);
                let sw_excess = (axis_angle(sw).1 - swing).max(0.0);
                let tw_excess = (signed_angle_about(tw, bone_dir).abs() - twist).max(0.0);
                sw_excess + tw_excess
            }
        }
    }
}

/// Swing–twist decomposition `q = swing · twist`, twist about unit `axis`, swing about an axis
/// perpendicular to it. For a 180° swing the twist is undefined; identity is returned.
pub fn swing_twist(q: Quat, axis: Vec3) -> (Quat, Quat) {
    let v = Vec3::new(q.x, q.y, q.z);
    let p = axis * v.dot(axis);
    let twist = Quat::from_xyzw(p.x, p.y, p.z, q.w);
    let len2 = twist.length_squared();
    let twist = if len2 < 1e-12 {
        Quat::IDENTITY
    } else {
        twist * len2.sqrt().recip()
    };
    (q * twist.conjugate(), twist)
}

/// Signed angle in `(-π, π]` of a rotation `twist` known to be about unit `axis`.
pub fn signed_angle_about(twist: Quat, axis: Vec3) -> f32 {
    let s = Vec3::new(twist.x, twist.y, twist.z).dot(axis);
    // Pick the quaternion sign with w >= 0 so the angle is the short way round.
    let (s, w) = if twist.w < 0.0 {
        (-s, -twist.w)
    } else {
        (s, twist.w)
    };
    2.0 * s.atan2(w)
}

/// Axis and angle in `[0, π]` of a rotation (the short way round); axis `X` for identity.
pub fn axis_angle(q: Quat) -> (Vec3, f32) {
    let q = if q.w < 0.0 { -q } else { q };
    let v = Vec3::new(q.x, q.y, q.z);
    let s = v.length();
    if s < 1e-12 {
        return (Vec3::X, 0.0);
    }
    (v / s, 2.0 * s.atan2(q.w))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::{FRAC_PI_2, PI};

    #[test]
    fn swing_twist_recomposes_and_separates() {
        let q = Quat::from_axis_angle(Vec3::X, 0.7) * Quat::from_axis_angle(Vec3::Y, -0.4);
        let (sw, tw) = swing_twist(q, Vec3::Y);
        assert!((sw * tw).dot(q).abs() > 1.0 - 1e-6);
        assert!((signed_angle_about(tw, Vec3::Y) + 0.4).abs() < 1e-5);
        // The swing moves Y exactly as q does: it carries all of the bone's direction change.
        assert!((sw * Vec3::Y - q * Vec3::Y).length() < 1e-5);
    }

    #[test]
    fn hinge_clamps_to_range_and_drops_off_axis_rotation() {
        let limit = JointLimit::hinge(0, Vec3::Z, 0.0, FRAC_PI_2).unwrap();
        let q = Quat::from_axis_angle(Vec3::Z, 2.0) * Quat::from_axis_angle(Vec3::X, 0.3);
        let c = limit.clamp(q, Vec3::Y);
        assert!(limit.excess(c, Vec3::Y) < 1e-5);
        assert!((signed_angle_about(c, Vec3::Z) - FRAC_PI_2).abs() < 1e-5);
        let back = Quat::from_axis_angle(Vec3::Z, -0.5);
        assert!((signed_angle_about(limit.clamp(back, Vec3::Y), Vec3::Z)).abs() < 1e-6);
    }

    #[test]
    fn ball_socket_clamps_swing_and_twist() {
        let limit = JointLimit::ball_socket(0, 0.5, 0.2).unwrap();
        let q = Quat::from_axis_angle(Vec3::X, 1.2) * Quat::from_axis_angle(Vec3::Y, -0.9);
        assert!(limit.excess(q, Vec3::Y) > 1.0);
        let c = limit.clamp(q, Vec3::Y);
        assert!(limit.excess(c, Vec3::Y) < 1e-5);
        // Swing direction kept: the bone still leans towards the same side.
        let dir = c * Vec3::Y;
        assert!((dir.angle_between(Vec3::Y) - 0.5).abs() < 1e-4);
        assert!(dir.z > 0.0);
    }

    #[test]
    fn constraint_def_converts_and_rejects_min_above_max() {
        let def = ConstraintDef {
            kind: ConstraintType::Hinge,
            hinge_min_deg: 10.0,
            hinge_max_deg: -10.0,
            ..Default::default()
        };
        assert!(matches!(
            JointLimit::from_constraint_def(3, &def),
            Err(IkError::LimitMinGreaterThanMax { position: 3, .. })
        ));
        let def = ConstraintDef {
            kind: ConstraintType::BallSocket,
            swing_limit_deg: 45.0,
            twist_limit_deg: 180.0,
            ..Default::default()
        };
        match JointLimit::from_constraint_def(0, &def).unwrap() {
            JointLimit::BallSocket { swing, twist } => {
                assert!((swing - PI / 4.0).abs() < 1e-6 && (twist - PI).abs() < 1e-6)
            }
            other => panic!("{other:?}"),
        }
        assert!(JointLimit::ball_socket(0, -0.1, 0.0).is_err());
        assert!(JointLimit::hinge(0, Vec3::ZERO, 0.0, 1.0).is_err());
    }
}
