//! Issue #47 must-show 2: a reload uploads only what changed. Replacing one placed `.glb` of
//! two with a third model uploads that model's primitives and nothing else (the mesh store's
//! upload counter and the mesh memory grow by exactly what the new model alone takes, measured
//! in a level of its own); F5, which reads every file again, uploads both (the control). A
//! shader edit in the shader folder rebuilds only its pass's pipelines (the context's pipeline
//! and shader-module counters), shows in the next frame, and a broken edit is refused naming
//! the file and line:column with nothing rebuilt.

use std::path::{Path, PathBuf};

use sierra::frame_runner::FrameRunner;
use sierra::game::Game;
use sierra::hot_reload::{HotReload, Outcome, ReloadSetup};
use sierra_render::{GpuContext, HeadlessRenderer};

const TICK_HZ: f64 = 60.0;

/// A GLB with one mesh of `primitives` primitives, each one triangle `size` metres wide
/// (positions and normals, 16-bit indices), under one node of the default scene.
fn triangles_glb(primitives: usize, size: f32) -> Vec<u8> {
    let positions = [[0.0, 0.0, 0.0], [size, 0.0, 0.0], [0.0, size, 0.0]];
    let mut bin: Vec<u8> = Vec::new();
    for p in positions {
        bin.extend(p.iter().flat_map(|v: &f32| v.to_le_bytes()));
    }
    for _ in 0..3 {
        bin.extend([0.0f32, 0.0, 1.0].iter().flat_map(|v| v.to_le_bytes()));
    }
    bin.extend([0u16, 1, 2].iter().flat_map(|v| v.to_le_bytes()));
    bin.resize(80, 0);
    let primitive = r#"{"attributes": {"POSITION": 0, "NORMAL": 1}, "indices": 2}"#;
    let primitives = vec![primitive; primitives].join(", ");
    let mut json = format!(
        r#"{{"asset": {{"version": "2.0"}}, "scene": 0, "scenes": [{{"nodes": [0]}}],
  "nodes": [{{"mesh": 0}}], "meshes": [{{"primitives": [{primitives}]}}],
  "buffers": [{{"byteLength": 80}}],
  "bufferViews": [{{"buffer": 0, "byteOffset": 0, "byteLength": 36}},
    {{"buffer": 0, "byteOffset": 36, "byteLength": 36}},
    {{"buffer": 0, "byteOffset": 72, "byteLength": 6}}],
  "accessors": [
    {{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
      "min": [0, 0, 0], "max": [{size}, {size}, 0]}},
    {{"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3"}},
    {{"bufferView": 2, "componentType": 5123, "count": 3, "type": "SCALAR"}}]}}"#
    )
    .into_bytes();
    while json.len() % 4 != 0 {
        json.push(b' ');
    }
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut glb = Vec::with_capacity(total);
    glb.extend(b"glTF");
    glb.extend(2u32.to_le_bytes());
    glb.extend((total as u32).to_le_bytes());
    glb.extend((json.len() as u32).to_le_bytes());
    glb.extend(b"JSON");
    glb.extend(json);
    glb.extend((bin.len() as u32).to_le_bytes());
    glb.extend(b"BIN\0");
    glb.extend(bin);
    glb
}

/// A level in `dir` named `name` placing each of `models` (files in `dir`) and a cube.
fn level(dir: &Path, name: &str, models: &[&str]) -> PathBuf {
    let mut objects =
        vec![r#"{"name": "Cube", "mesh": "cube", "position": [0, 0, -2]}"#.to_owned()];
    for (i, model) in models.iter().enumerate() {
        objects.push(format!(
            r#"{{"name": "Model{i}", "mesh": "{model}", "position": [{}, 0, 0]}}"#,
            i as f32 * 2.0 - 1.0
        ));
    }
    let json = format!(
        r#"{{"camera": {{"position": [0, 1, 6], "target": [0, 0, 0]}}, "objects": [{}]}}"#,
        objects.join(", ")
    );
    let path = dir.join(name);
    std::fs::write(&path, json).unwrap();
    path
}

/// A level running headless (32×18) with its reloader (not watching: the test says what
/// changed, as the watcher would).
struct Running {
    ctx: GpuContext,
    headless: HeadlessRenderer,
    runner: FrameRunner,
    reload: HotReload,
}

fn start(level: &Path) -> Running {
    let options = sierra_scene::LoadOptions::default();
    let mut cache = None;
    let game = Game::load_cached(level, &options, None, TICK_HZ, &mut cache).unwrap();
    let ctx = GpuContext::headless().unwrap();
    let mut headless = HeadlessRenderer::new(&ctx, 32, 18).unwrap();
    let runner = FrameRunner::new(&ctx, &mut headless.renderer, game).unwrap();
    let setup = ReloadSetup {
        level: level.to_path_buf(),
        options,
        cache,
        ..ReloadSetup::default()
    };
    let reload = HotReload::start(setup, runner.game());
    Running {
        ctx,
        headless,
        runner,
        reload,
    }
}

impl Running {
    /// (mesh uploads so far, mesh bytes on the GPU).
    fn counters(&self) -> (u64, u64) {
        let uploads = self.headless.renderer.meshes().uploads();
        (uploads, self.ctx.gpu_memory().meshes)
    }

    fn reload(&mut self, changed: &[PathBuf]) -> Outcome {
        let r = &mut self.headless.renderer;
        let outcome = self.reload.reload(&self.ctx, r, &mut self.runner, changed);
        outcome.clone()
    }

    fn frame(&mut self) -> image::RgbaImage {
        self.runner
            .headless_frame(&self.ctx, &mut self.headless)
            .unwrap()
            .0
    }
}

#[test]
fn replacing_a_placed_glb_uploads_only_that_model() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, c) = (
        triangles_glb(2, 1.0),
        triangles_glb(3, 1.5),
        triangles_glb(5, 2.0),
    );
    std::fs::write(dir.path().join("a.glb"), &a).unwrap();
    std::fs::write(dir.path().join("b.glb"), &b).unwrap();
    std::fs::write(dir.path().join("c.glb"), &c).unwrap();
    // What model c alone uploads: its level minus the cube-only level.
    let alone = |models: &[&str], name| start(&level(dir.path(), name, models)).counters();
    let (cube_uploads, cube_bytes) = alone(&[], "cube.json");
    let (c_uploads, c_bytes) = alone(&["c.glb"], "c.json");
    let (c_uploads, c_bytes) = (c_uploads - cube_uploads, c_bytes - cube_bytes);
    assert_eq!(c_uploads, 5, "one mesh per primitive");

    let mut run = start(&level(dir.path(), "two.json", &["a.glb", "b.glb"]));
    run.frame();
    let (uploads0, bytes0) = run.counters();
    // Replaced in place: the same file identity, so only the cache's `forget` makes it new.
    let placed = dir.path().join("a.glb");
    std::fs::write(&placed, &c).unwrap();
    let outcome = run.reload(&[placed.canonicalize().unwrap()]);
    assert!(matches!(outcome, Outcome::Reloaded { .. }), "{outcome:?}");
    let (uploads1, bytes1) = run.counters();
    assert_eq!(
        uploads1 - uploads0,
        c_uploads,
        "only the replaced model is uploaded"
    );
    assert_eq!(
        bytes1 - bytes0,
        c_bytes,
        "mesh memory grows by the new model alone"
    );
    assert_eq!(run.runner.source.bridge().meshes.gltf.len(), 2);
    run.frame();

    // Control: F5 reads every file again and uploads both models.
    let outcome = run.reload(&[]);
    assert!(matches!(outcome, Outcome::Reloaded { .. }), "{outcome:?}");
    let (uploads2, _) = run.counters();
    assert_eq!(
        uploads2 - uploads1,
        5 + 3,
        "F5 uploads model c (as a.glb) and b.glb"
    );
}

/// A copy of the embedded `tonemap.wgsl` whose output is magenta whatever the scene.
fn magenta_tonemap() -> String {
    let embedded = sierra_render::passes::tonemap::WGSL;
    let line = "var mapped = tonemap(color);";
    assert_eq!(embedded.matches(line).count(), 1, "tonemap.wgsl changed");
    embedded.replace(line, "var mapped = vec3<f32>(1.0, 0.0, 1.0);")
}

#[test]
fn a_shader_edit_rebuilds_only_its_pass_and_a_broken_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut run = start(&level(dir.path(), "cube.json", &[]));
    let is_magenta = |image: &image::RgbaImage| image.pixels().all(|p| p.0 == [255, 0, 255, 255]);
    assert!(!is_magenta(&run.frame()), "control: the embedded shader");

    // A whole renderer's pipelines, against which one pass's are few.
    let before = run.ctx.creation_counts();
    HeadlessRenderer::new(&run.ctx, 32, 18).unwrap();
    let whole = run.ctx.creation_counts().since(before);

    let shaders = dir.path().join("shaders");
    std::fs::create_dir(&shaders).unwrap();
    let file = shaders.join("tonemap.wgsl");
    std::fs::write(&file, magenta_tonemap()).unwrap();
    let before = run.ctx.creation_counts();
    let renderer = &mut run.headless.renderer;
    let line = sierra::hot_reload::shaders::reload_shader(&run.ctx, renderer, &file).unwrap();
    let made = run.ctx.creation_counts().since(before);
    // The tonemap pass's own: one module, the final-image and FXAA-input pipelines.
    assert_eq!((made.shader_modules, made.pipelines), (1, 2), "{line}");
    assert!(whole.pipelines > 2 * made.pipelines, "{whole:?}");
    assert!(
        line.contains("pass tonemap") && line.contains("2 pipeline(s)"),
        "{line}"
    );
    assert!(
        is_magenta(&run.frame()),
        "the edited shader draws the next frame"
    );

    // A broken edit: refused with its place, nothing created, the last good pass kept.
    let broken = magenta_tonemap().replace("vec3<f32>(1.0, 0.0, 1.0);", "vec3<f32>(1.0, 0.0, 1.0)");
    let broken_line = broken
        .lines()
        .position(|l| l.contains("vec3<f32>(1.0, 0.0, 1.0)"))
        .unwrap()
        + 1;
    std::fs::write(&file, broken).unwrap();
    let before = run.ctx.creation_counts();
    let renderer = &mut run.headless.renderer;
    let err = sierra::hot_reload::shaders::reload_shader(&run.ctx, renderer, &file).unwrap_err();
    let message = format!("{err:#}");
    let places = [broken_line, broken_line + 1].map(|l| format!("tonemap.wgsl:{l}:"));
    assert!(places.iter().any(|p| message.contains(p)), "{message}");
    assert_eq!(run.ctx.creation_counts().since(before).pipelines, 0);
    assert!(is_magenta(&run.frame()), "the last good shader still draws");
}
