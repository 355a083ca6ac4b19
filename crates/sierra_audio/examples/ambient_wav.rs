//! Writes the built-in ambient sounds to WAV files to listen to them:
//! `cargo run --release -p sierra_audio --example ambient_wav -- OUT_DIR [SECONDS]`
//! writes `surf.wav`, `gulls.wav` and `mix.wav` (both together) of SECONDS (default 30).

use std::path::PathBuf;

use sierra_audio::{write_wav, Builtin, OfflineMixer, BUILTIN_SAMPLE_RATE};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let out = PathBuf::from(args.next().ok_or("usage: ambient_wav OUT_DIR [SECONDS]")?);
    let seconds: f64 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(30.0);
    std::fs::create_dir_all(&out)?;
    let surf = Builtin::Surf.synthesise();
    let gulls = Builtin::Gulls.synthesise();
    let voices = [
        ("surf", vec![&surf]),
        ("gulls", vec![&gulls]),
        ("mix", vec![&surf, &gulls]),
    ];
    for (name, clips) in voices {
        let mut mixer = OfflineMixer::new(BUILTIN_SAMPLE_RATE);
        for clip in clips {
            mixer.add_loop(clip.clone(), 1.0, 0.0);
        }
        let path = out.join(format!("{name}.wav"));
        write_wav(&path, BUILTIN_SAMPLE_RATE, &mixer.render_seconds(seconds))?;
        println!("{}", path.display());
    }
    Ok(())
}
