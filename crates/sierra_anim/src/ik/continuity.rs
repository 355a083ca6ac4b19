//! Frame-to-frame joint rotation change: the measure behind "no popping" tests of scripted runs.

use glam::Quat;

/// Angle (radians, `0..=π`) of the rotation between two unit quaternions, the short way round
/// (`q` and `-q` are the same rotation).
pub fn rotation_change(a: Quat, b: Quat) -> f32 {
    let d = a.conjugate() * b;
    let v = glam::Vec3::new(d.x, d.y, d.z).length();
    2.0 * v.atan2(d.w.abs())
}

/// Largest per-joint rotation change between two poses (`[joint_count]` local or model rotations):
/// `(joint, angle in radians)`, or `None` for empty or mismatched poses.
pub fn max_rotation_change(previous: &[Quat], current: &[Quat]) -> Option<(usize, f32)> {
    if previous.len() != current.len() {
        return None;
    }
    previous
        .iter()
        .zip(current)
        .map(|(a, b)| rotation_change(*a, *b))
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

/// Records the largest per-frame rotation change of every joint over a run of frames.
///
/// Feed it each frame's rotations with [`RotationChangeTracker::push`]; then check
/// [`RotationChangeTracker::worst`] against a bound (e.g. a few degrees per 60 Hz frame).
#[derive(Debug, Clone, Default)]
pub struct RotationChangeTracker {
    previous: Vec<Quat>,
    max_change: Vec<f32>,
    worst_frame: Vec<usize>,
    frames: usize,
}

impl RotationChangeTracker {
    /// An empty tracker.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a frame (`[joint_count]` rotations; the count must stay the same, a different count
    /// restarts the tracker).
    pub fn push(&mut self, rotations: &[Quat]) {
        if self.previous.len() != rotations.len() {
            self.previous.clear();
            self.previous.extend_from_slice(rotations);
            self.max_change = vec![0.0; rotations.len()];
            self.worst_frame = vec![0; rotations.len()];
            self.frames = 1;
            return;
        }
        for (j, (p, c)) in self.previous.iter_mut().zip(rotations).enumerate() {
            let change = rotation_change(*p, *c);
            if change > self.max_change[j] {
                self.max_change[j] = change;
                self.worst_frame[j] = self.frames;
            }
            *p = *c;
        }
        self.frames += 1;
    }

    /// Frames pushed so far.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// `[joint_count]` largest change of each joint between consecutive frames, radians.
    pub fn max_change(&self) -> &[f32] {
        &self.max_change
    }

    /// The largest change of any joint: `(joint, frame index where it happened, radians)`.
    pub fn worst(&self) -> Option<(usize, usize, f32)> {
        self.max_change
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map(|(j, &a)| (j, self.worst_frame[j], a))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn change_ignores_quaternion_sign_and_finds_worst_joint() {
        let a = Quat::from_axis_angle(Vec3::Y, 0.3);
        assert!(rotation_change(a, -a) < 1e-6);
        assert!((rotation_change(a, Quat::from_axis_angle(Vec3::Y, 0.5)) - 0.2).abs() < 1e-5);
        let mut t = RotationChangeTracker::new();
        t.push(&[Quat::IDENTITY, Quat::IDENTITY]);
        t.push(&[Quat::IDENTITY, Quat::from_axis_angle(Vec3::X, 0.1)]);
        t.push(&[Quat::IDENTITY, Quat::from_axis_angle(Vec3::X, 0.4)]);
        let (joint, frame, angle) = t.worst().unwrap();
        assert_eq!((joint, frame), (1, 2));
        assert!((angle - 0.3).abs() < 1e-5);
    }
}
