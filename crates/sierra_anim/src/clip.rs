//! Runtime (built) animation clips; the raw (editable) clips and the builder are offline
//! work ([`crate::offline`]).

use std::sync::atomic::{AtomicU64, Ordering};

use glam::{Quat, Vec3A};

use crate::track::{Interpolation, TrackSet};

/// A built morph weight track (see [`crate::RawMorphTrack`]).
#[derive(Clone, Debug, PartialEq)]
pub struct MorphTrack {
    pub(crate) target: usize,
    pub(crate) weight_count: usize,
    pub(crate) interpolation: Interpolation,
    pub(crate) times: Vec<f32>,
    pub(crate) values: Vec<f32>,
}

impl MorphTrack {
    /// The importer's target id (glTF node index).
    pub fn target(&self) -> usize {
        self.target
    }
    /// Weights per key (the mesh's morph target count).
    pub fn weight_count(&self) -> usize {
        self.weight_count
    }
}

/// Runtime clip bound to one [`crate::Skeleton`]: every joint has a translation, a
/// rotation and a scale track (non-animated joints get a one-key track holding
/// their rest value), stored per channel kind in flat arrays.
///
/// `duration()` is the latest key time over all channels (glTF has no clip
/// length); channels that end earlier hold their last value.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    pub(crate) id: u64,
    pub(crate) name: String,
    pub(crate) duration: f32,
    pub(crate) translations: TrackSet<Vec3A>,
    pub(crate) rotations: TrackSet<Quat>,
    /// Parallel to `rotations.values`: slerp constants from key `k` to `k + 1` of LINEAR tracks.
    pub(crate) slerp: Vec<crate::slerp::SlerpSegment>,
    pub(crate) scales: TrackSet<Vec3A>,
    /// The same keys in SoA blocks where a channel kind is uniform (see `clip_soa.rs`).
    pub(crate) soa: crate::clip_soa::ClipSoa,
    pub(crate) morph_tracks: Vec<MorphTrack>,
}

static NEXT_CLIP_ID: AtomicU64 = AtomicU64::new(1);

/// A fresh id for a runtime clip (raw or compressed), so sampling contexts reset on a new clip.
pub(crate) fn next_clip_id() -> u64 {
    NEXT_CLIP_ID.fetch_add(1, Ordering::Relaxed)
}

impl Clip {
    /// Clip name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Latest key time over all channels, in seconds.
    pub fn duration(&self) -> f32 {
        self.duration
    }

    /// Number of joints of the skeleton the clip was built for.
    pub fn joint_count(&self) -> usize {
        self.translations.headers.len()
    }

    /// Morph weight tracks (one per animated mesh instance).
    pub fn morph_tracks(&self) -> &[crate::clip::MorphTrack] {
        &self.morph_tracks
    }

    /// Total number of keys over all joint channels (a size measure).
    pub fn key_count(&self) -> usize {
        self.translations.times.len() + self.rotations.times.len() + self.scales.times.len()
    }
}
