//! Analytic two-bone IK (upper arm–forearm–hand, thigh–shin–foot) by the law of cosines.
//!
//! The root stays put; the end goes on the line from the root to the target at the distance the
//! bones can span; the middle joint (elbow, knee) goes where the law of cosines puts it, on the
//! side of the root-to-target line where the pole lies. Soft reach (after A. Nicholas's "soft
//! IK", as in common engine two-bone solvers) eases the last `softness` metres before full
//! extension along an exponential, so the knee does not snap straight when the target moves
//! slightly out of reach.

use glam::Vec3;

use super::error::IkError;

/// Positions solved by [`solve_two_bone`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TwoBoneSolution {
    /// New middle joint position (elbow, knee).
    pub mid: Vec3,
    /// New end joint position (hand, foot).
    pub end: Vec3,
    /// Whether the end lies on the target (within 1e-4 of the chain length).
    pub reached: bool,
}

/// Solves a two-bone chain. All points in one space (model space), metres.
///
/// `root`, `mid`, `end`: current joint positions (they fix the bone lengths and, without a pole,
/// the bending side). `pole`: a point on the side the middle joint should bend towards.
/// `softness`: metres before full extension where reach is eased (0 = exact reach).
///
/// Errors: [`IkError::ZeroLengthBone`] (`joint` = chain position), [`IkError::NotFinite`].
pub fn solve_two_bone(
    root: Vec3,
    mid: Vec3,
    end: Vec3,
    target: Vec3,
    pole: Option<Vec3>,
    softness: f32,
) -> Result<TwoBoneSolution, IkError> {
    let (l1, l2) = (root.distance(mid), mid.distance(end));
    for (position, length) in [(0, l1), (1, l2)] {
        if length.is_nan() || length < super::pose::MIN_BONE_LENGTH {
            return Err(IkError::ZeroLengthBone {
                position,
                joint: position,
                length,
            });
        }
    }
    if !target.is_finite() {
        return Err(IkError::NotFinite { name: "target" });
    }
    if pole.is_some_and(|p| !p.is_finite()) || !softness.is_finite() {
        return Err(IkError::NotFinite { name: "pole" });
    }
    let to_target = target - root;
    let dir = to_target
        .try_normalize()
        .or_else(|| (end - root).try_normalize())
        .unwrap_or(Vec3::Y);
    let distance = soft_distance(to_target.length(), l1 + l2, softness.max(0.0));
    let distance = distance.clamp((l1 - l2).abs(), l1 + l2);
    let new_end = root + dir * distance;

    // Law of cosines: angle at the root between the root-to-end line and the first bone.
    let cos_root = if distance > 1e-9 {
        ((l1 * l1 + distance * distance - l2 * l2) / (2.0 * l1 * distance)).clamp(-1.0, 1.0)
    } else {
        0.0
    };
    let sin_root = (1.0 - cos_root * cos_root).max(0.0).sqrt();
    let side = bend_side(root, dir, pole.unwrap_or(mid), mid);
    let new_mid = root + l1 * (cos_root * dir + sin_root * side);
    Ok(TwoBoneSolution {
        mid: new_mid,
        end: new_end,
        reached: new_end.distance(target) <= 1e-4 * (l1 + l2),
    })
}

/// Soft reach: distances beyond `reach - softness` approach `reach` exponentially instead of
/// reaching it at once (continuous, with continuous slope).
pub(crate) fn soft_distance(distance: f32, reach: f32, softness: f32) -> f32 {
    let start = reach - softness;
    if softness <= 0.0 || distance <= start {
        return distance;
    }
    start + softness * (1.0 - (-(distance - start) / softness).exp())
}

/// Unit vector perpendicular to `dir` pointing to `hint`'s side (then `mid`'s, then any).
fn bend_side(root: Vec3, dir: Vec3, hint: Vec3, mid: Vec3) -> Vec3 {
    let perp = |p: Vec3| {
        let v = p - root;
        (v - dir * v.dot(dir)).try_normalize()
    };
    perp(hint)
        .or_else(|| perp(mid))
        .unwrap_or_else(|| dir.any_orthonormal_vector())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn soft_distance_is_continuous_and_below_reach() {
        let (reach, soft) = (2.0, 0.2);
        assert_eq!(soft_distance(1.8, reach, soft), 1.8);
        assert!((soft_distance(1.8001, reach, soft) - 1.8001).abs() < 1e-5);
        assert!(soft_distance(10.0, reach, soft) <= reach);
        assert!(soft_distance(2.1, reach, soft) < reach - 0.01);
        assert!(soft_distance(2.1, reach, soft) < soft_distance(2.2, reach, soft));
    }
}
