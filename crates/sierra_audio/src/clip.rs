use std::path::Path;
use std::sync::Arc;

use kira::sound::static_sound::{StaticSoundData, StaticSoundSettings};
use kira::Frame;

use crate::error::Error;

/// Decoded stereo audio, ready to loop: `frames[i]` is the `(left, right)` sample pair at time
/// `i / sample_rate` seconds, amplitude in [-1, 1].
///
/// Clones share the sample memory. The same data feeds the live player (kira) and the
/// [`OfflineMixer`](crate::OfflineMixer).
#[derive(Debug, Clone)]
pub struct Clip {
    /// Samples per second per channel, Hz.
    pub sample_rate: u32,
    /// Stereo frames; never empty for clips made by this crate.
    pub frames: Arc<[Frame]>,
}

impl Clip {
    /// A clip from frames at `sample_rate` Hz.
    pub fn new(sample_rate: u32, frames: impl Into<Arc<[Frame]>>) -> Self {
        Self {
            sample_rate,
            frames: frames.into(),
        }
    }

    /// Length in seconds.
    pub fn duration_seconds(&self) -> f64 {
        self.frames.len() as f64 / f64::from(self.sample_rate.max(1))
    }

    /// Decodes a WAV (PCM) or OGG (Vorbis) file, mono or stereo, with kira's symphonia decoder.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be read, [`Error::Decode`] when it is not a decodable
    /// audio file, [`Error::Empty`] when it has no samples; all name the file.
    pub fn from_file(path: &Path) -> Result<Self, Error> {
        let bytes = std::fs::read(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_bytes(bytes, path)
    }

    /// Decodes WAV (PCM) or OGG (Vorbis) bytes, mono or stereo; `path` names them in errors.
    ///
    /// # Errors
    /// [`Error::Decode`] when the bytes are not a decodable audio file, [`Error::Empty`] when
    /// they hold no samples.
    pub fn from_bytes(bytes: Vec<u8>, path: &Path) -> Result<Self, Error> {
        let data = StaticSoundData::from_cursor(std::io::Cursor::new(bytes)).map_err(|e| {
            Error::Decode {
                path: path.to_path_buf(),
                message: e.to_string(),
            }
        })?;
        if data.frames.is_empty() {
            return Err(Error::Empty {
                path: path.to_path_buf(),
            });
        }
        Ok(Self {
            sample_rate: data.sample_rate,
            frames: data.frames,
        })
    }

    /// kira sound data that loops the whole clip forever.
    pub fn looping_sound_data(&self) -> StaticSoundData {
        StaticSoundData {
            sample_rate: self.sample_rate,
            frames: self.frames.clone(),
            settings: StaticSoundSettings::new().loop_region(..),
            slice: None,
        }
    }
}
