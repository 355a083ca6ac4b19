//! How long the authoring loop's reload takes (issue #47 must-show 3): the platforms level,
//! copied into a temporary folder with the mannequin placed beside its platforms, running
//! headless at 320×180; five edits of the level file (a platform's colour) and five of the
//! model (the `.glb` rewritten in place), each reloaded as the window does after the watcher's
//! 150 ms quiet time ([`sierra::hot_reload::HotReload::reload`]: load, upload what changed,
//! carry the state over). Prints the median and the range of each, in milliseconds.
//!
//! ```sh
//! cargo run --release -p sierra --example reload_time
//! ```

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use sierra::frame_runner::FrameRunner;
use sierra::game::Game;
use sierra::hot_reload::{HotReload, Outcome, ReloadSetup};
use sierra_render::{GpuContext, HeadlessRenderer};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/levels");
const EDITS: usize = 5;

/// The median and the range of `ms`.
fn summary(mut ms: Vec<f64>) -> String {
    ms.sort_by(f64::total_cmp);
    format!(
        "median {:.0} ms (min {:.0}, max {:.0}, n = {})",
        ms[ms.len() / 2],
        ms[0],
        ms[ms.len() - 1],
        ms.len()
    )
}

/// The platforms level with the mannequin placed at its front, written into `dir`.
fn level_with_model(dir: &Path) -> Result<std::path::PathBuf> {
    let text = std::fs::read_to_string(Path::new(ROOT).join("platforms.json"))?;
    let model = r#"{ "name": "Mannequin", "position": [0, 0.2, 3], "mesh": "mannequin.glb" },
    { "name": "Ground","#;
    let text = text.replacen(r#"{ "name": "Ground","#, model, 1);
    std::fs::copy(
        Path::new(ROOT).join("models/mannequin.glb"),
        dir.join("mannequin.glb"),
    )?;
    let level = dir.join("platforms.json");
    std::fs::write(&level, text)?;
    Ok(level)
}

fn main() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let level = level_with_model(dir.path())?;
    let model = dir.path().join("mannequin.glb");
    let options = sierra_scene::LoadOptions::default();
    let mut cache = None;
    let game = Game::load_cached(&level, &options, None, 60.0, &mut cache)?;
    let ctx = GpuContext::headless()?;
    let mut headless = HeadlessRenderer::new(&ctx, 320, 180)?;
    let mut runner = FrameRunner::new(&ctx, &mut headless.renderer, game)?;
    let setup = ReloadSetup {
        level: level.clone(),
        options,
        cache,
        ..ReloadSetup::default()
    };
    let mut reload = HotReload::start(setup, runner.game());
    let original = std::fs::read_to_string(&level)?;
    let glb = std::fs::read(&model)?;
    let mut timed = |file: &Path, edit: &dyn Fn(usize) -> Result<()>| -> Result<Vec<f64>> {
        let mut ms = Vec::new();
        for i in 0..EDITS {
            edit(i)?;
            runner.headless_frame(&ctx, &mut headless)?;
            let start = Instant::now();
            let changed = [file.canonicalize()?];
            let outcome = reload.reload(&ctx, &mut headless.renderer, &mut runner, &changed);
            if let Outcome::Failed { line } = outcome {
                anyhow::bail!("{line}");
            }
            ms.push(start.elapsed().as_secs_f64() * 1e3);
        }
        Ok(ms)
    };
    let level_ms = timed(&level, &|i| {
        let colour = format!(r#""baseColor": [0.2, 0.7, {:.1}]"#, 0.1 * i as f64);
        let text = original.replacen(r#""baseColor": [0.2, 0.7, 0.3]"#, &colour, 1);
        std::fs::write(&level, text).context("writing the level")
    })?;
    let model_ms = timed(&model, &|_| {
        std::fs::write(&model, &glb).context("writing the model")
    })?;
    println!("adapter: {}", ctx.adapter_summary());
    println!("level edit (platforms.json): {}", summary(level_ms));
    println!("model edit (mannequin.glb): {}", summary(model_ms));
    Ok(())
}
