//! The crowd's baked animation as the pass uploads it: every clip's skinning palettes sampled at
//! a fixed rate ([`BakedPalettes`]), and where each clip's frames start ([`BakedPaletteClip`]).

use glam::Vec4;

/// Where one clip's frames are in [`BakedPalettes::texels`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BakedPaletteClip {
    /// Global frame index of this clip's frame 0.
    pub first_frame: u32,
    /// Frames baked; frame `f` holds the pose at `min(f / sample_rate, duration)`.
    pub frame_count: u32,
    /// Clip duration in seconds.
    pub duration: f32,
}

/// Every clip's skinning palettes sampled at a fixed rate, as the crowd pass uploads them
/// (one `Rgba32Float` texture, one frame per row).
///
/// Layout of `texels` (`[clip][frame][joint][row]`, flattened): the 3×4 affine skinning
/// matrix `M = model × inverse_bind` of skin joint `j` at global frame
/// `g = clips[c].first_frame + f` occupies `texels[(g · joint_count + j) · 3 + r]` for rows
/// `r = 0, 1, 2`, texel `r` being row `r` of `M` (the bottom row `(0, 0, 0, 1)` is dropped).
/// `sierra_content::crowd::baked_palettes` builds it from `sierra_anim::BakedAnimation`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BakedPalettes {
    /// Skin joints per frame.
    pub joint_count: usize,
    /// Frames per second.
    pub sample_rate: f32,
    /// Per clip; an instance's clip index indexes this.
    pub clips: Vec<BakedPaletteClip>,
    /// `[total_frames · joint_count · 3]` texels, see the type docs.
    pub texels: Vec<Vec4>,
}

impl BakedPalettes {
    /// Total frames over all clips.
    pub fn total_frames(&self) -> usize {
        self.clips.iter().map(|c| c.frame_count as usize).sum()
    }
}
