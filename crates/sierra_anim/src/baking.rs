//! Animation baking (the CPU half of seed document 004): every clip's skinning
//! matrices at a fixed sample rate, laid out for an `Rgba32Float` texture.

use glam::{Mat4, Vec4};
use rayon::prelude::*;

use crate::{AnimError, CharacterJob, CharacterPose, Clip, ClipLayer, Playback, Skeleton, Skin};

/// Where one clip's frames are in [`BakedAnimation::texels`].
#[derive(Clone, Debug, PartialEq)]
pub struct BakedClip {
    /// Clip name.
    pub name: String,
    /// Global frame index of this clip's frame 0.
    pub first_frame: u32,
    /// Frames baked: `ceil(duration · sample_rate) + 1`, frame `f` at time `min(f / sample_rate, duration)`.
    pub frame_count: u32,
    /// Clip duration in seconds.
    pub duration: f32,
}

/// Baked skinning matrices of several clips.
///
/// Layout of `texels` (`[clip][frame][joint][row]`, flattened): the 3×4 affine
/// skinning matrix `M = model × inverse_bind` of skin joint `j` at global frame
/// `g = clips[c].first_frame + f` occupies the three texels
/// `texels[(g · joint_count + j) · 3 + r]` for rows `r = 0, 1, 2`, where texel
/// `r` is row `r` of `M`: `[M.x_axis[r], M.y_axis[r], M.z_axis[r], M.w_axis[r]]`
/// (the bottom row is always `(0, 0, 0, 1)` and is dropped). In a texture of
/// width `3 · joint_count` one frame is one row; a vertex shader rebuilds
/// `v' = (dot(r0, v), dot(r1, v), dot(r2, v))` for `v = (x, y, z, 1)`.
#[derive(Clone, Debug, PartialEq)]
pub struct BakedAnimation {
    /// Skin joints per frame.
    pub joint_count: usize,
    /// Frames per second.
    pub sample_rate: f32,
    /// Per clip, in input order.
    pub clips: Vec<BakedClip>,
    /// `[total_frames · joint_count · 3]` RGBA32F texels, see the type docs.
    pub texels: Vec<Vec4>,
}

impl BakedAnimation {
    /// Total frames over all clips.
    pub fn total_frames(&self) -> usize {
        self.clips.iter().map(|c| c.frame_count as usize).sum()
    }

    /// The skinning matrix of `joint` at `frame` of `clip` (None if out of range).
    pub fn matrix(&self, clip: usize, frame: usize, joint: usize) -> Option<Mat4> {
        let c = self.clips.get(clip)?;
        if frame >= c.frame_count as usize || joint >= self.joint_count {
            return None;
        }
        let base = ((c.first_frame as usize + frame) * self.joint_count + joint) * 3;
        let r = &self.texels[base..base + 3];
        Some(Mat4::from_cols(
            Vec4::new(r[0].x, r[1].x, r[2].x, 0.0),
            Vec4::new(r[0].y, r[1].y, r[2].y, 0.0),
            Vec4::new(r[0].z, r[1].z, r[2].z, 0.0),
            Vec4::new(r[0].w, r[1].w, r[2].w, 1.0),
        ))
    }
}

/// Bakes every clip of `clips` (all built for `skeleton`) at `sample_rate`
/// frames per second into skinning matrices of `skin` (see [`BakedAnimation`]).
///
/// Each frame's palette comes from [`CharacterJob`] (one layer, one-shot): the same path
/// from (clip, time) to a palette as gameplay's.
///
/// Errors: [`AnimError::BadSampleRate`], and the errors of the jobs it runs.
pub fn bake_skinning_matrices(
    skeleton: &Skeleton,
    skin: &Skin,
    clips: &[&Clip],
    sample_rate: f32,
) -> Result<BakedAnimation, AnimError> {
    if !(sample_rate > 0.0 && sample_rate.is_finite()) {
        return Err(AnimError::BadSampleRate(sample_rate));
    }
    skin.validate(skeleton)?;
    let jc = skin.joint_count();
    // One rayon job per clip (a `clip_bake` span on the worker that runs it), joined in order.
    let baked: Vec<Vec<Vec4>> = clips
        .par_iter()
        .map(|clip| bake_clip(skeleton, skin, clip, sample_rate))
        .collect::<Result<_, _>>()?;
    let mut out = BakedAnimation {
        joint_count: jc,
        sample_rate,
        clips: Vec::with_capacity(clips.len()),
        texels: Vec::with_capacity(baked.iter().map(Vec::len).sum()),
    };
    let mut first_frame = 0u32;
    for (clip, texels) in clips.iter().zip(baked) {
        let frame_count = frame_count(clip, sample_rate);
        out.texels.extend(texels);
        out.clips.push(BakedClip {
            name: clip.name().to_owned(),
            first_frame,
            frame_count,
            duration: clip.duration(),
        });
        first_frame += frame_count;
    }
    Ok(out)
}

/// Frames a clip bakes into at `sample_rate`: both ends included.
fn frame_count(clip: &Clip, sample_rate: f32) -> u32 {
    (clip.duration() * sample_rate).ceil() as u32 + 1
}

/// The texels (3 rows of each joint's palette matrix per frame) of one clip's bake.
fn bake_clip(
    skeleton: &Skeleton,
    skin: &Skin,
    clip: &Clip,
    sample_rate: f32,
) -> Result<Vec<Vec4>, AnimError> {
    let _span = tracing::info_span!("clip_bake").entered();
    let jc = skin.joint_count();
    let mut pose = CharacterPose::new(skeleton, jc, 1);
    let frames = frame_count(clip, sample_rate);
    let mut texels = Vec::with_capacity(frames as usize * jc * 3);
    for f in 0..frames {
        let t = (f as f32 / sample_rate).min(clip.duration());
        let layers = [ClipLayer::single(clip, t, Playback::Once)];
        CharacterJob::new(skeleton, Some(skin), &layers).run(&mut pose)?;
        for m in &pose.palette {
            texels.extend(
                (0..3).map(|r| Vec4::new(m.x_axis[r], m.y_axis[r], m.z_axis[r], m.w_axis[r])),
            );
        }
    }
    Ok(texels)
}
