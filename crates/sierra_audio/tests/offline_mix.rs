//! The ambient mix rendered offline (no sound device): audible, seamless at the loop points,
//! written to and read back from WAV, and fed by users' WAV files.

use std::f32::consts::TAU;
use std::path::Path;

use glam::{Quat, Vec3};
use sierra_audio::synth::{GULLS_LOOP_SECONDS, SURF_LOOP_SECONDS};
use sierra_audio::{
    rms, write_wav, AudioLoop, Builtin, Clip, Error, Frame, Listener, OfflineMixer, SoundSource,
    BUILTIN_SAMPLE_RATE,
};

const SR: u32 = BUILTIN_SAMPLE_RATE;

fn builtin(b: Builtin) -> AudioLoop {
    AudioLoop::ambient(SoundSource::Builtin(b))
}

fn jump(a: Frame, b: Frame) -> f32 {
    (a.left - b.left).abs().max((a.right - b.right).abs())
}

/// Sample-to-sample jump across each loop point of `clip` played through the mixer, divided by
/// the largest jump within ±50 ms of that point (excluding the seam itself). A click at the seam
/// makes this ratio large; a seamless loop keeps it at or below 1.
fn seam_click_ratio(clip: &Clip, loops: usize) -> f32 {
    let n = clip.frames.len();
    let mut mixer = OfflineMixer::new(clip.sample_rate);
    mixer.add_loop(clip.clone(), 1.0, 0.0);
    let mix = mixer.render_seconds(clip.duration_seconds() * loops as f64 + 0.1);
    let window = clip.sample_rate as usize / 20;
    let mut worst = 0.0f32;
    for k in 1..=loops {
        let seam = k * n; // mix[seam - 1] is the clip's last frame, mix[seam] its first
        let seam_jump = jump(mix[seam - 1], mix[seam]);
        let local_max = (seam - window..seam + window)
            .filter(|&i| i != seam - 1)
            .map(|i| jump(mix[i], mix[i + 1]))
            .fold(0.0f32, f32::max);
        worst = worst.max(seam_jump / local_max.max(1e-6));
    }
    worst
}

#[test]
fn mix_of_surf_and_gulls_is_not_silent() {
    let loops = [
        (builtin(Builtin::Surf), Vec3::ZERO),
        (builtin(Builtin::Gulls), Vec3::ZERO),
    ];
    let mut mixer =
        OfflineMixer::from_loops(&loops, Path::new("."), &Listener::default(), SR).unwrap();
    // 20 s: past the loop point of both sounds (16 s and 12 s).
    let mix = mixer.render_seconds(20.0);
    assert_eq!(mix.len(), 20 * SR as usize);
    let level = rms(&mix);
    assert!(level > 0.05, "RMS {level}");
    // Never silent for long: every second of the mix has the sea under it.
    for second in mix.chunks(SR as usize) {
        assert!(rms(second) > 0.01);
    }
    let peak = mix
        .iter()
        .fold(0.0f32, |m, f| m.max(f.left.abs()).max(f.right.abs()));
    assert!(peak < 1.0, "no clipping: peak {peak}");
}

#[test]
fn builtin_sounds_loop_without_a_click() {
    for (b, seconds) in [
        (Builtin::Surf, SURF_LOOP_SECONDS),
        (Builtin::Gulls, GULLS_LOOP_SECONDS),
    ] {
        let clip = b.synthesise();
        assert_eq!(
            clip.frames.len(),
            (seconds * f64::from(SR)).round() as usize
        );
        let ratio = seam_click_ratio(&clip, 2);
        assert!(
            ratio <= 1.0,
            "{b:?}: seam jump is {ratio} × the largest nearby jump"
        );
    }
}

#[test]
fn click_metric_detects_a_badly_cut_loop() {
    // Negative control: 441.3 Hz for exactly 1 s ends 0.3 cycles into a period.
    let frames: Vec<Frame> = (0..SR)
        .map(|i| Frame::from_mono(0.5 * (TAU * 441.3 * i as f32 / SR as f32).sin()))
        .collect();
    let ratio = seam_click_ratio(&Clip::new(SR, frames), 1);
    assert!(ratio > 5.0, "a discontinuous loop must be flagged: {ratio}");
}

#[test]
fn wav_round_trip_keeps_samples_within_16_bit_precision() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("surf.wav");
    let mut mixer = OfflineMixer::new(SR);
    mixer.add_loop(Builtin::Surf.synthesise(), 1.0, 0.3);
    let mix = mixer.render_seconds(1.5);
    write_wav(&path, SR, &mix).unwrap();
    // Read back with the decoder used for users' files (symphonia via kira), not the writer.
    let back = Clip::from_file(&path).unwrap();
    assert_eq!(back.sample_rate, SR);
    assert_eq!(back.frames.len(), mix.len());
    let max_err = mix
        .iter()
        .zip(back.frames.iter())
        .map(|(a, b)| jump(*a, *b))
        .fold(0.0f32, f32::max);
    assert!(max_err <= 1.0 / 32767.0 + 1e-6, "max error {max_err}");
    assert!(rms(&back.frames) > 0.05);
}

#[test]
fn audio_loop_plays_a_user_wav_file() {
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir(root.path().join("sounds")).unwrap();
    // A mono 22.05 kHz file with exactly 44 cycles of 440 Hz per 0.1 s: periodic, so it loops cleanly.
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: 22_050,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(root.path().join("sounds/tone.wav"), spec).unwrap();
    for i in 0..2205 {
        let v = 0.5 * (TAU * 440.0 * i as f32 / 22_050.0).sin();
        w.write_sample((v * 32767.0) as i16).unwrap();
    }
    w.finalize().unwrap();

    let component: AudioLoop =
        serde_json::from_str(r#"{"source": "sounds/tone.wav", "volume": 0.5}"#).unwrap();
    let mut mixer = OfflineMixer::from_loops(
        &[(component, Vec3::ZERO)],
        root.path(),
        &Listener::default(),
        SR,
    )
    .unwrap();
    let mix = mixer.render_seconds(1.0); // ten times around the 0.1 s loop, resampled to 44.1 kHz
                                         // volume 0.5 × amplitude 0.5 sine: RMS 0.25 / √2
    let level = rms(&mix);
    assert!((level - 0.25 / 2f32.sqrt()).abs() < 0.005, "RMS {level}");
    let crossings = mix
        .windows(2)
        .filter(|p| (p[0].left >= 0.0) != (p[1].left >= 0.0))
        .count();
    assert!(
        (878..=882).contains(&crossings),
        "440 Hz → 880 zero crossings per second: {crossings}"
    );
}

#[test]
fn missing_or_garbage_files_are_errors_naming_the_file() {
    let root = tempfile::tempdir().unwrap();
    let missing = SoundSource::parse("nowhere/sea.wav").unwrap();
    let e = missing.load(root.path()).unwrap_err();
    assert!(matches!(e, Error::Io { .. }), "{e:?}");
    assert!(e.to_string().contains("sea.wav"), "{e}");

    for name in ["garbage.wav", "garbage.ogg"] {
        std::fs::write(
            root.path().join(name),
            b"this is not audio at all, just text",
        )
        .unwrap();
        let e = SoundSource::parse(name)
            .unwrap()
            .load(root.path())
            .unwrap_err();
        assert!(matches!(e, Error::Decode { .. }), "{name}: {e:?}");
        assert!(e.to_string().contains(name), "{e}");
    }
}

#[test]
fn positioned_loop_is_panned_and_attenuated_by_the_listener() {
    let mut gulls = AudioLoop::spatial(SoundSource::Builtin(Builtin::Gulls));
    gulls.ref_distance = 10.0;
    let emitter = [(gulls, Vec3::new(40.0, 0.0, 0.0))];
    let render = |listener: Listener| {
        let mut m = OfflineMixer::from_loops(&emitter, Path::new("."), &listener, SR).unwrap();
        let mix = m.render_seconds(GULLS_LOOP_SECONDS);
        let energy = |f: fn(&Frame) -> f32| mix.iter().map(|x| f(x).powi(2)).sum::<f32>();
        (energy(|f| f.left), energy(|f| f.right))
    };
    // Source 40 m to the listener's right: right ear louder.
    let (l, r) = render(Listener::default());
    // Facing it from 10 m: centred, and 4× closer → 16× the energy.
    let near = Listener {
        position: Vec3::new(30.0, 0.0, 0.0),
        orientation: Quat::from_rotation_y(-std::f32::consts::FRAC_PI_2),
    };
    let (nl, nr) = render(near);
    // Centred: the clip's own stereo image (its birds are spread left and right), unchanged.
    let mut ambient = OfflineMixer::new(SR);
    ambient.add_loop(Builtin::Gulls.synthesise(), 1.0, 0.0);
    let clip_mix = ambient.render_seconds(GULLS_LOOP_SECONDS);
    let el: f32 = clip_mix.iter().map(|f| f.left.powi(2)).sum();
    let er: f32 = clip_mix.iter().map(|f| f.right.powi(2)).sum();
    assert!(((nl / nr) / (el / er) - 1.0).abs() < 1e-3);
    // Within the reference distance the gain is 1.
    assert!(((nl + nr) / (el + er) - 1.0).abs() < 1e-3);
    // 40 m is 4 × the reference distance: gain 1/4; hard right the right ear gets √2 × the
    // clip's right channel → energy 2/16 of it.
    assert!((r / er - 2.0 / 16.0).abs() < 1e-3, "{}", r / er);
    assert_eq!(l, 0.0);
}

#[test]
fn audio_loop_plays_a_user_ogg_vorbis_file() {
    // Fixture described in tests/data/README.md: left 440 Hz × 0.5, right 660 Hz × 0.25, 1 s.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let clip = SoundSource::parse("tone_440l_660r.ogg")
        .unwrap()
        .load(&root)
        .unwrap();
    assert_eq!(clip.sample_rate, 44_100);
    assert!(
        (clip.duration_seconds() - 1.0).abs() < 0.01,
        "{}",
        clip.duration_seconds()
    );
    // Away from the ends (the encoder's edges), the decoded tones have the encoded pitch and level.
    let middle = &clip.frames[4410..39690];
    let seconds = middle.len() as f32 / 44_100.0;
    let crossings = |ch: fn(&Frame) -> f32| {
        middle
            .windows(2)
            .filter(|p| (ch(&p[0]) >= 0.0) != (ch(&p[1]) >= 0.0))
            .count() as f32
    };
    assert!((crossings(|f| f.left) / seconds / 2.0 - 440.0).abs() < 3.0);
    assert!((crossings(|f| f.right) / seconds / 2.0 - 660.0).abs() < 3.0);
    let channel_rms = |ch: fn(&Frame) -> f32| {
        (middle.iter().map(|f| ch(f).powi(2)).sum::<f32>() / middle.len() as f32).sqrt()
    };
    assert!((channel_rms(|f| f.left) - 0.5 / 2f32.sqrt()).abs() < 0.01);
    assert!((channel_rms(|f| f.right) - 0.25 / 2f32.sqrt()).abs() < 0.01);
}
