//! Crafted or damaged audio files never panic: WAV header fields set to edge values and
//! random byte corruption of a WAV and of an OGG Vorbis file give a clip or an error naming
//! the file. Decoding runs in a third-party decoder (symphonia through kira).

use std::path::Path;

use sierra_audio::{write_wav, Clip, Frame, OfflineMixer};

/// Decodes `bytes` as `name` and, when it decodes, mixes a little of it (odd sample rates
/// reach the resampler). Returns a description of a panic, if any.
fn try_file(dir: &Path, name: &str, bytes: &[u8]) -> Option<String> {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    let outcome = std::panic::catch_unwind(|| match Clip::from_file(&path) {
        Ok(clip) => {
            let mut mixer = OfflineMixer::new(44_100);
            mixer.add_loop(clip, 1.0, 0.0);
            let _ = mixer.render_seconds(0.01);
            Ok(())
        }
        Err(e) => Err(e.to_string()),
    });
    match outcome {
        Err(_) => Some(name.to_owned()),
        Ok(Err(message)) => {
            assert!(
                message.contains(name),
                "error does not name the file: {message}"
            );
            None
        }
        Ok(Ok(())) => None,
    }
}

/// The bytes of a WAV file written by `write_wav` into `dir`: `frames` mono frames at
/// `sample_rate` Hz of a sine of amplitude 0.5 advancing `step` radians per frame.
fn tone_wav(dir: &Path, sample_rate: u32, frames: usize, step: f32) -> Vec<u8> {
    let frames: Vec<Frame> = (0..frames)
        .map(|i| Frame::from_mono((i as f32 * step).sin() * 0.5))
        .collect();
    let path = dir.join("tone.wav");
    write_wav(&path, sample_rate, &frames).unwrap();
    std::fs::read(&path).unwrap()
}

fn lcg(seed: &mut u32) -> u32 {
    *seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
    *seed
}

#[test]
fn wav_header_edge_values_never_panic() {
    let dir = tempfile::tempdir().unwrap();
    let wav = tone_wav(dir.path(), 22_050, 256, 0.1);
    // Canonical 44-byte header: RIFF size @4, fmt size @16, format @20, channels @22,
    // sample rate @24, byte rate @28, block align @32, bits @34, data size @40.
    let fields: [(usize, usize); 9] = [
        (4, 4),
        (16, 4),
        (20, 2),
        (22, 2),
        (24, 4),
        (28, 4),
        (32, 2),
        (34, 2),
        (40, 4),
    ];
    let values: [u32; 8] = [0, 1, 3, 7, 24, 0xFFFF, 0x7FFF_FFFF, 0xFFFF_FFFF];
    let mut panics = Vec::new();
    for (offset, size) in fields {
        for value in values {
            let mut b = wav.clone();
            b[offset..offset + size].copy_from_slice(&value.to_le_bytes()[..size]);
            let name = format!("field{offset}_{value}.wav");
            panics.extend(try_file(dir.path(), &name, &b));
        }
    }
    for cut in [0, 4, 12, 36, 44, 45, wav.len() - 1] {
        panics.extend(try_file(dir.path(), &format!("cut{cut}.wav"), &wav[..cut]));
    }
    assert!(panics.is_empty(), "decoding panicked on: {panics:?}");
}

#[test]
fn corrupted_audio_bytes_never_panic() {
    let dir = tempfile::tempdir().unwrap();
    let wav = tone_wav(dir.path(), 44_100, 512, 0.05);
    let ogg_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tone_440l_660r.ogg");
    let ogg = std::fs::read(ogg_path).unwrap();
    let mut seed = 11u32;
    let mut panics = Vec::new();
    for (kind, original) in [("wav", &wav), ("ogg", &ogg)] {
        for round in 0..150 {
            let mut b = original.clone();
            for _ in 0..6 {
                let i = lcg(&mut seed) as usize % b.len();
                b[i] = (lcg(&mut seed) >> 24) as u8;
            }
            panics.extend(try_file(dir.path(), &format!("fuzz{round}.{kind}"), &b));
        }
    }
    assert!(panics.is_empty(), "decoding panicked on: {panics:?}");
}
