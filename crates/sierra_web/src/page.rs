//! The page's bindings (wasm32 only, `wasm-bindgen --target web`): the viewer drawing into a
//! canvas, models fetched from the page's origin or picked as files, and the off-screen frame
//! the browser test reads back. `web/app.js` drives it; the frame loop and input events stay in
//! JavaScript (`requestAnimationFrame`, pointer and wheel events).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use sierra_assets::{AssetRoot, Budgets, Resolver};
use sierra_gltf::{GltfAsset, ImportOptions};
use sierra_render::{wgpu, GpuContext, Renderer};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::references::referenced_files;
use crate::scene::{render_first_frame, ModelScene};

/// A model's files, fetched or picked, not yet imported.
#[wasm_bindgen]
pub struct ModelFiles {
    /// What the user named (a URL or the picked file's name), for messages.
    name: String,
    /// The root's name in messages.
    root: &'static str,
    /// The main file inside the root.
    main: PathBuf,
    files: Vec<(PathBuf, Vec<u8>)>,
}

impl ModelFiles {
    /// Imports the model through the resolver (the same URI rules and byte budgets as native).
    fn import(self) -> Result<(GltfAsset, String), JsValue> {
        let root = AssetRoot::served(self.root, self.root, self.files);
        let folder = self
            .main
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let resolver = Resolver::new(Arc::new(root), folder, Budgets::DEFAULT);
        let file = PathBuf::from(self.main.file_name().unwrap_or_default());
        let asset = GltfAsset::load_in(&resolver, &file, ImportOptions::default())
            .map_err(|e| JsValue::from_str(&format!("{}: {e}", self.name)))?;
        Ok((asset, self.name))
    }
}

fn js_error(e: impl std::fmt::Display) -> JsValue {
    JsValue::from_str(&e.to_string())
}

/// Fetches the bytes at `url` (relative to the page).
async fn fetch_bytes(url: &str) -> Result<Vec<u8>, JsValue> {
    let window = web_sys::window().ok_or_else(|| js_error("no window"))?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(url))
        .await?
        .dyn_into()?;
    if !response.ok() {
        return Err(js_error(format!("{url}: HTTP {}", response.status())));
    }
    let buffer = JsFuture::from(response.array_buffer()?).await?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Fetches the model at `url` (a path inside the folder the page is served from) and every
/// file it references, each checked first ([`sierra_assets::served_path`],
/// [`referenced_files`]): a URL leaving the served folder is refused with a message naming
/// it, and nothing outside is requested.
///
/// # Errors
/// The refusal, HTTP errors, JSON that does not parse.
#[wasm_bindgen]
pub async fn fetch_model(url: String) -> Result<ModelFiles, JsValue> {
    let main = sierra_assets::served_path(&url).map_err(js_error)?;
    let bytes = fetch_bytes(&main.to_string_lossy()).await?;
    let mut files = Vec::new();
    for path in referenced_files(&main, &bytes).map_err(js_error)? {
        let data = fetch_bytes(&path.to_string_lossy()).await?;
        files.push((path, data));
    }
    files.push((main.clone(), bytes));
    Ok(ModelFiles {
        name: url,
        root: "the served folder",
        main,
        files,
    })
}

/// Files the user picked or dropped (`names[i]` with bytes `bytes[i]`): the first `.gltf` or
/// `.glb` is the model, the others are what it may reference (side by side, as picked).
///
/// # Errors
/// No `.gltf`/`.glb` among them; a name that is not a plain relative path.
#[wasm_bindgen]
pub fn picked_files(
    names: Vec<String>,
    bytes: Vec<js_sys::Uint8Array>,
) -> Result<ModelFiles, JsValue> {
    let mut files = Vec::new();
    for (name, data) in names.iter().zip(bytes) {
        let path = sierra_assets::served_path(name).map_err(js_error)?;
        files.push((path, data.to_vec()));
    }
    let main = files
        .iter()
        .map(|(p, _)| p)
        .find(|p| {
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            ext.eq_ignore_ascii_case("gltf") || ext.eq_ignore_ascii_case("glb")
        })
        .cloned()
        .ok_or_else(|| js_error("none of the picked files is a .gltf or .glb model"))?;
    Ok(ModelFiles {
        name: main.display().to_string(),
        root: "the picked files",
        main,
        files,
    })
}

/// The browser test's frame: `files` rendered off-screen at `width` × `height` on a surfaceless
/// device, read back as RGBA8 rows, top first (the same code as the native reference frame).
///
/// # Errors
/// Import, GPU and read-back errors.
#[wasm_bindgen]
pub async fn render_offscreen(
    files: ModelFiles,
    width: u32,
    height: u32,
) -> Result<Vec<u8>, JsValue> {
    let (asset, _) = files.import()?;
    let ctx = GpuContext::headless_async().await.map_err(js_error)?;
    let image = render_first_frame(&ctx, &asset, width, height)
        .await
        .map_err(js_error)?;
    Ok(image.into_raw())
}

/// The interactive viewer on a canvas.
#[wasm_bindgen]
pub struct Viewer {
    ctx: GpuContext,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    renderer: Renderer,
    scene: Option<ModelScene>,
}

#[wasm_bindgen]
impl Viewer {
    /// Opens WebGPU on `canvas` (its current size).
    ///
    /// # Errors
    /// No WebGPU adapter, surface errors.
    pub async fn create(canvas: web_sys::HtmlCanvasElement) -> Result<Viewer, JsValue> {
        let (width, height) = (canvas.width().max(1), canvas.height().max(1));
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let surface = instance
            .create_surface(wgpu::SurfaceTarget::Canvas(canvas))
            .map_err(js_error)?;
        let ctx = GpuContext::for_instance_async(instance, Some(&surface))
            .await
            .map_err(js_error)?;
        let config = canvas_config(&ctx, &surface, width, height)?;
        surface.configure(&ctx.device, &config);
        let renderer =
            Renderer::new(&ctx, width, height, view_format(&config)).map_err(js_error)?;
        Ok(Viewer {
            ctx,
            surface,
            config,
            renderer,
            scene: None,
        })
    }

    /// Shows `files` instead of the current model; returns its clip names.
    ///
    /// # Errors
    /// Import and upload errors naming the model.
    pub fn load(&mut self, files: ModelFiles) -> Result<Vec<String>, JsValue> {
        let (asset, name) = files.import()?;
        let aspect = self.aspect();
        let scene = ModelScene::load(&self.ctx, &mut self.renderer, &asset, &name, aspect)
            .map_err(js_error)?;
        let clips = scene.clips().iter().map(|(n, _)| n.clone()).collect();
        self.scene = Some(scene);
        Ok(clips)
    }

    /// Advances `dt` seconds and draws into the canvas.
    ///
    /// # Errors
    /// GPU errors (reported by the browser a frame or two late).
    pub fn frame(&mut self, dt: f32) -> Result<(), JsValue> {
        let aspect = self.aspect();
        let Some(scene) = self.scene.as_mut() else {
            return Ok(());
        };
        scene.advance(dt);
        let texture = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t)
            | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            _ => {
                self.surface.configure(&self.ctx.device, &self.config);
                return Ok(());
            }
        };
        let view = texture.texture.create_view(&wgpu::TextureViewDescriptor {
            format: Some(view_format(&self.config)),
            ..Default::default()
        });
        let frame = scene.frame(aspect).map_err(js_error)?;
        self.renderer
            .render(&self.ctx, frame, &view)
            .map_err(js_error)?;
        self.ctx.queue.present(texture);
        Ok(())
    }

    /// Resizes the drawing to `width` × `height` pixels.
    ///
    /// # Errors
    /// Sizes over the device's limits.
    pub fn resize(&mut self, width: u32, height: u32) -> Result<(), JsValue> {
        let (width, height) = (width.max(1), height.max(1));
        self.ctx
            .check_texture_size("canvas", width, height)
            .map_err(js_error)?;
        self.config.width = width;
        self.config.height = height;
        self.surface.configure(&self.ctx.device, &self.config);
        self.renderer
            .resize(&self.ctx, width, height)
            .map_err(js_error)
    }

    /// Orbits by a drag of `dx`, `dy` pixels.
    pub fn orbit(&mut self, dx: f32, dy: f32) {
        if let Some(s) = self.scene.as_mut() {
            s.orbit.drag(dx, dy);
        }
    }

    /// Zooms by `steps` wheel steps (positive: closer).
    pub fn zoom(&mut self, steps: f32) {
        if let Some(s) = self.scene.as_mut() {
            s.orbit.zoom(steps);
        }
    }

    /// Shows clip `index` from its start.
    pub fn set_clip(&mut self, index: usize) {
        if let Some(s) = self.scene.as_mut() {
            s.clip = index;
            s.time = 0.0;
        }
    }

    /// Plays or pauses.
    pub fn set_playing(&mut self, playing: bool) {
        if let Some(s) = self.scene.as_mut() {
            s.playing = playing;
        }
    }

    /// Draws lines instead of filled triangles (where [`Viewer::has_wireframe`]).
    pub fn set_wireframe(&mut self, on: bool) {
        if let Some(s) = self.scene.as_mut() {
            s.wireframe = on;
        }
    }

    /// Whether the adapter can draw lines (`POLYGON_MODE_LINE`; not part of WebGPU, so false in
    /// browsers today: the page then says so).
    pub fn has_wireframe(&self) -> bool {
        self.ctx
            .features
            .contains(wgpu::Features::POLYGON_MODE_LINE)
    }

    /// The adapter, for the page's status line.
    pub fn adapter(&self) -> String {
        self.ctx.adapter_summary()
    }

    fn aspect(&self) -> f32 {
        self.config.width as f32 / self.config.height as f32
    }
}

/// The canvas's configuration: its preferred format, drawn through that format's sRGB view
/// (WebGPU canvases have no sRGB formats; the renderer writes sRGB-encoded output, as natively).
fn canvas_config(
    ctx: &GpuContext,
    surface: &wgpu::Surface<'_>,
    width: u32,
    height: u32,
) -> Result<wgpu::SurfaceConfiguration, JsValue> {
    let caps = surface.get_capabilities(&ctx.adapter);
    let format = *caps
        .formats
        .first()
        .ok_or_else(|| js_error("the canvas offers no texture format"))?;
    Ok(wgpu::SurfaceConfiguration {
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
        format,
        color_space: wgpu::SurfaceColorSpace::Auto,
        width,
        height,
        present_mode: wgpu::PresentMode::Fifo,
        desired_maximum_frame_latency: 2,
        alpha_mode: caps
            .alpha_modes
            .first()
            .copied()
            .unwrap_or(wgpu::CompositeAlphaMode::Auto),
        view_formats: vec![format.add_srgb_suffix()],
    })
}

/// The format the renderer draws into the canvas with.
fn view_format(config: &wgpu::SurfaceConfiguration) -> wgpu::TextureFormat {
    config
        .view_formats
        .first()
        .copied()
        .unwrap_or(config.format)
}
