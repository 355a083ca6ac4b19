//! What a [`crate::ClipLayer`] plays: a raw [`Clip`], a [`CompressedClip`], or either.

use crate::{Clip, CompressedClip};

/// A clip that [`crate::CharacterJob`] can sample: [`Clip`], [`CompressedClip`], or
/// [`ClipRef`] (either, chosen at run time, so one job can mix both).
pub trait ClipSource: Sync {
    /// The clip as a [`ClipRef`].
    fn clip_ref(&self) -> ClipRef<'_>;

    /// Joints of the skeleton the clip was built for.
    #[inline(always)]
    fn joint_count(&self) -> usize {
        match self.clip_ref() {
            ClipRef::Raw(c) => c.joint_count(),
            ClipRef::Compressed(c) => c.joint_count(),
        }
    }

    /// Length in seconds.
    #[inline(always)]
    fn duration(&self) -> f32 {
        match self.clip_ref() {
            ClipRef::Raw(c) => c.duration(),
            ClipRef::Compressed(c) => c.duration(),
        }
    }
}

/// A borrowed raw or compressed clip.
#[derive(Clone, Copy, Debug)]
pub enum ClipRef<'a> {
    /// Raw `f32` keys.
    Raw(&'a Clip),
    /// Quantised keys.
    Compressed(&'a CompressedClip),
}

impl<'a> From<&'a Clip> for ClipRef<'a> {
    fn from(c: &'a Clip) -> Self {
        Self::Raw(c)
    }
}

impl<'a> From<&'a CompressedClip> for ClipRef<'a> {
    fn from(c: &'a CompressedClip) -> Self {
        Self::Compressed(c)
    }
}

impl ClipSource for Clip {
    #[inline(always)]
    fn clip_ref(&self) -> ClipRef<'_> {
        ClipRef::Raw(self)
    }
}

impl ClipSource for CompressedClip {
    #[inline(always)]
    fn clip_ref(&self) -> ClipRef<'_> {
        ClipRef::Compressed(self)
    }
}

impl ClipSource for ClipRef<'_> {
    #[inline(always)]
    fn clip_ref(&self) -> ClipRef<'_> {
        *self
    }
}
