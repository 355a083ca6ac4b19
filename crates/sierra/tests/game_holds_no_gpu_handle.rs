//! `Game` holds no GPU handle, and the extract step reads the game (issue #41: "extract reads,
//! tick writes"; every GPU handle is the GPU bridge's, `sierra::gpu_bridge`).
//!
//! - Compile time: [`sierra::scene_to_frame::extract`] has the type `fn(&Game, …)`
//!   (`_EXTRACT_READS_THE_GAME`).
//! - Source: the types GPU resources hide in are gathered from the code (every struct or enum
//!   of `sierra_render` and `sierra_content` whose definition names `wgpu` or another such type,
//!   every `…Handle` type of `sierra_render`, every type of `sierra::gpu_bridge`; error types,
//!   `…Error`, are values, not handles); no struct or enum of the game-state modules (`game`,
//!   `game_audio`, `game_loop`, `camera_path`, `commands`, `world/`, `gameplay/`) names one in
//!   its fields. A name counts where the file takes it from `sierra_render`/`sierra_content`
//!   (a `use` or an inline path), so a game type sharing a name with a renderer type (the
//!   level's `Crowd` component and the renderer's crowd pass's `Crowd`) is not taken for it.
//!   The crates whose types the game state also holds (scene, animation, terrain, glTF, assets,
//!   profile) do not depend on `wgpu`, `sierra_render` or `sierra_content` at all, so their
//!   types cannot hold one either.
//! - Negative controls: a `Game` with an injected `wgpu` field, a mesh handle or the bridge's
//!   world state is caught, and the scan sees the real `Game` and `World`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use sierra::game::Game;
use sierra::gpu_bridge::GpuBridge;
use sierra::scene_to_frame::{TickSnapshot, View};
use sierra_render::FrameData;

/// Compile time: this file builds only while `extract` takes the game by shared reference (a
/// `&mut Game` parameter does not coerce to this type).
const _EXTRACT_READS_THE_GAME: fn(
    &Game,
    &mut GpuBridge,
    &View,
    Option<&TickSnapshot>,
    &mut FrameData,
) -> anyhow::Result<()> = sierra::scene_to_frame::extract;

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("crates/")
        .to_path_buf()
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// `source` without comments and without what follows its first `#[cfg(test)]`.
fn code_of(source: &str) -> String {
    let source = source.split("#[cfg(test)]").next().unwrap_or_default();
    let mut out = String::new();
    for line in source.lines() {
        let line = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every identifier of `code`.
fn identifiers(code: &str) -> BTreeSet<String> {
    code.split(|c: char| !is_ident(c))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
        .map(str::to_owned)
        .collect()
}

/// `(name, definition text)` of every struct and enum of `code`: from the keyword to the end of
/// its braces (or its `;` for a tuple or unit struct).
fn type_definitions(code: &str) -> Vec<(String, String)> {
    let mut defs = Vec::new();
    let bytes = code.as_bytes();
    for keyword in ["struct ", "enum "] {
        let mut from = 0;
        while let Some(i) = code[from..].find(keyword) {
            let start = from + i;
            from = start + keyword.len();
            if start > 0 && is_ident(bytes[start - 1] as char) {
                continue;
            }
            let name: String = code[from..].chars().take_while(|&c| is_ident(c)).collect();
            if name.is_empty() {
                continue;
            }
            let mut depth = 0i32;
            let mut end = from;
            for (k, c) in code[from..].char_indices() {
                match c {
                    '{' | '(' => depth += 1,
                    '}' | ')' => {
                        depth -= 1;
                        if depth == 0 && c == '}' {
                            end = from + k + 1;
                            break;
                        }
                    }
                    ';' if depth == 0 => {
                        end = from + k + 1;
                        break;
                    }
                    _ => {}
                }
            }
            defs.push((name, code[start..end].to_owned()));
        }
    }
    defs
}

/// The names of the types GPU resources hide in (see the module docs).
fn gpu_types() -> BTreeSet<String> {
    let crates = crates_dir();
    let mut defs = Vec::new();
    for krate in ["sierra_render", "sierra_content"] {
        for file in rust_files(&crates.join(krate).join("src")) {
            let source = std::fs::read_to_string(&file).expect("source");
            defs.extend(type_definitions(&code_of(&source)));
        }
    }
    let mut gpu: BTreeSet<String> = BTreeSet::from(["wgpu".to_owned()]);
    gpu.extend(
        defs.iter()
            .map(|(name, _)| name)
            .filter(|name| name.ends_with("Handle"))
            .cloned(),
    );
    gpu.extend(bridge_types());
    // A type holding a GPU type is one (to a fixed point); an error is a value, not a handle.
    loop {
        let before = gpu.len();
        for (name, text) in &defs {
            let body = &text[text.find(name.as_str()).unwrap_or(0) + name.len()..];
            if !name.ends_with("Error") && !identifiers(body).is_disjoint(&gpu) {
                gpu.insert(name.clone());
            }
        }
        if gpu.len() == before {
            return gpu;
        }
    }
}

/// The types `sierra::gpu_bridge` defines.
fn bridge_types() -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for file in rust_files(&crates_dir().join("sierra/src/gpu_bridge")) {
        let source = std::fs::read_to_string(&file).expect("source");
        names.extend(
            type_definitions(&code_of(&source))
                .into_iter()
                .map(|(n, _)| n),
        );
    }
    names
}

/// The names `code` takes from the GPU crates: every identifier of its `use sierra_render…` and
/// `use sierra_content…` items, and of its inline `sierra_render::…`/`sierra_content::…` paths.
fn gpu_crate_names(code: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for krate in ["sierra_render", "sierra_content"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(krate) {
            let start = from + i;
            from = start + krate.len();
            let end = if code[..start].trim_end().ends_with("use") {
                // A use item: up to its `;`.
                code[start..].find(';').map_or(code.len(), |e| start + e)
            } else {
                // An inline path: its `::`-joined segments.
                let mut end = from;
                while code[end..].starts_with("::") {
                    end += 2;
                    end += code[end..].chars().take_while(|&c| is_ident(c)).count();
                }
                end
            };
            names.extend(identifiers(&code[start..end]));
            from = from.max(end);
        }
    }
    names
}

/// `file: Type names X, Y` for every struct or enum of `code` whose definition names a type of
/// `gpu` that `code` takes from a GPU crate ([`gpu_crate_names`]), `wgpu`, or a type of the GPU
/// bridge.
fn offenders(file: &str, code: &str, gpu: &BTreeSet<String>) -> Vec<String> {
    let mut named_here = gpu_crate_names(code);
    named_here.insert("wgpu".to_owned());
    named_here.extend(bridge_types());
    let gpu: BTreeSet<String> = gpu.intersection(&named_here).cloned().collect();
    type_definitions(code)
        .into_iter()
        .filter_map(|(name, text)| {
            let body = &text[text.find(name.as_str()).unwrap_or(0) + name.len()..];
            let found: Vec<String> = identifiers(body).intersection(&gpu).cloned().collect();
            (!found.is_empty()).then(|| format!("{file}: {name} names {}", found.join(", ")))
        })
        .collect()
}

/// The game-state modules of `sierra`, by path under `src/`.
fn game_state_files() -> Vec<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files: Vec<PathBuf> = [
        "game.rs",
        "game_audio.rs",
        "game_loop.rs",
        "camera_path.rs",
        "commands.rs",
    ]
    .iter()
    .map(|f| src.join(f))
    .collect();
    files.extend(rust_files(&src.join("world")));
    files.extend(rust_files(&src.join("gameplay")));
    files
}

#[test]
fn no_game_state_type_holds_a_gpu_handle() {
    let gpu = gpu_types();
    let mut found = Vec::new();
    let mut seen = BTreeSet::new();
    for file in game_state_files() {
        let source =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let code = code_of(&source);
        seen.extend(type_definitions(&code).into_iter().map(|(n, _)| n));
        found.extend(offenders(&file.display().to_string(), &code, &gpu));
    }
    // Negative control: the scan reads the real game state (not an empty list of types).
    for name in [
        "Game",
        "World",
        "Gameplay",
        "LevelCrowds",
        "Sea",
        "Landscape",
        "SkyObjects",
    ] {
        assert!(seen.contains(name), "the scan did not find `{name}`");
    }
    assert!(
        found.is_empty(),
        "game state holding GPU handles:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_gpu_types_include_handles_contexts_and_the_bridge() {
    let gpu = gpu_types();
    for name in [
        "wgpu",
        "MeshHandle",
        "MaterialHandle",
        "CrowdHandle",
        "GpuContext",
        "Renderer",
        "Texture2d",
        "GpuBridge",
        "WorldGpu",
        "SceneMeshes",
        "CharacterMeshes",
    ] {
        assert!(gpu.contains(name), "`{name}` is not counted as a GPU type");
    }
    // Plain frame data is not (the game may name it).
    for name in ["SeaOp", "CrowdInstance", "DebugView", "Sun", "RenderError"] {
        assert!(!gpu.contains(name), "`{name}` counted as a GPU type");
    }
}

#[test]
fn an_injected_gpu_field_is_caught() {
    let gpu = gpu_types();
    let clean = "pub struct Game {\n    pub scene: Scene,\n    pub world: World,\n}\n";
    assert!(offenders("game.rs", clean, &gpu).is_empty());
    for field in [
        "buffer: wgpu::Buffer",
        "meshes: Vec<sierra_render::MeshHandle>",
        "gpu: Option<WorldGpu>",
        "bridge: Box<GpuBridge>",
    ] {
        let sample = format!("pub struct Game {{\n    pub scene: Scene,\n    {field},\n}}\n");
        let found = offenders("game.rs", &code_of(&sample), &gpu);
        assert_eq!(found.len(), 1, "{field}: {found:?}");
        assert!(found[0].starts_with("game.rs: Game names"), "{found:?}");
    }
    // Imported by a `use` and named bare.
    let imported =
        "use sierra_render::{Camera, MeshHandle};\npub struct Game {\n    mesh: MeshHandle,\n}\n";
    assert_eq!(offenders("game.rs", &code_of(imported), &gpu).len(), 1);
    // In a comment it is not a field.
    let commented = "pub struct Game {\n    // gpu: wgpu::Buffer,\n    pub scene: Scene,\n}\n";
    assert!(offenders("game.rs", &code_of(commented), &gpu).is_empty());
    // A game type named like a renderer type but taken from elsewhere is not one.
    assert!(
        gpu.contains("Crowd"),
        "the renderer's `Crowd` holds GPU buffers"
    );
    let component =
        "use sierra_scene::components::Crowd;\npub struct LevelCrowd {\n    spec: Crowd,\n}\n";
    assert!(offenders("crowds.rs", &code_of(component), &gpu).is_empty());
}

/// The `[dependencies]` section of a crate's manifest (up to the next section).
fn dependencies(manifest: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[dependencies]"
                || (line.ends_with(".dependencies]") && !line.contains("dev-"));
            continue;
        }
        if inside {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

#[test]
fn the_crates_the_game_state_comes_from_have_no_gpu_dependency() {
    let crates = crates_dir();
    for krate in [
        "sierra_scene",
        "sierra_anim",
        "sierra_terrain",
        "sierra_gltf",
        "sierra_assets",
        "sierra_profile",
    ] {
        let manifest = std::fs::read_to_string(crates.join(krate).join("Cargo.toml"))
            .unwrap_or_else(|e| panic!("{krate}/Cargo.toml: {e}"));
        let deps = dependencies(&manifest);
        for gpu in ["wgpu", "sierra_render", "sierra_content"] {
            assert!(
                !identifiers(&deps).contains(gpu),
                "{krate} depends on {gpu}:\n{deps}"
            );
        }
    }
    // Negative control: the check reads a dependency where there is one.
    let content = std::fs::read_to_string(crates.join("sierra_content/Cargo.toml")).unwrap();
    assert!(identifiers(&dependencies(&content)).contains("sierra_render"));
}
