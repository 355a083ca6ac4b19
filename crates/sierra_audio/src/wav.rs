use std::path::Path;

use kira::Frame;

use crate::error::Error;

/// Writes stereo `frames` at `sample_rate` Hz as a 16-bit PCM WAV file (samples clamped to
/// [-1, 1], scaled by 32767).
///
/// # Errors
/// [`Error::Wav`] naming the file when it cannot be created or written.
pub fn write_wav(path: &Path, sample_rate: u32, frames: &[Frame]) -> Result<(), Error> {
    let wav_error = |source| Error::Wav {
        path: path.to_path_buf(),
        source,
    };
    let spec = hound::WavSpec {
        channels: 2,
        sample_rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    // Encoded in memory (16-bit stereo: 4 bytes a frame), then written through
    // `write_atomic`, so a failed write leaves no truncated WAV under `path`.
    let mut bytes = std::io::Cursor::new(Vec::with_capacity(44 + frames.len() * 4));
    let mut writer = hound::WavWriter::new(&mut bytes, spec).map_err(wav_error)?;
    let quantise = |v: f32| (v.clamp(-1.0, 1.0) * f32::from(i16::MAX)).round() as i16;
    for frame in frames {
        writer
            .write_sample(quantise(frame.left))
            .map_err(wav_error)?;
        writer
            .write_sample(quantise(frame.right))
            .map_err(wav_error)?;
    }
    writer.finalize().map_err(wav_error)?;
    sierra_assets::write_atomic(path, bytes.get_ref())
        .map_err(|e| wav_error(hound::Error::IoError(e.source)))
}
