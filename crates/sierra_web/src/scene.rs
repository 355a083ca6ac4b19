//! The page's model and what the user set (orbit, clip, play/pause, wireframe) turned into
//! frames: the same frame source as `sierra view` ([`ModelFrames`]), on every target, so the
//! native test renders the browser's frame from the same code.

use std::future::Future;
use std::task::{Context, Poll, Waker};

use sierra_content::model_frames::{upload_model, LoadedModel, ModelLoad};
use sierra_content::orbit::Orbit;
use sierra_gltf::GltfAsset;
use sierra_render::{
    readback, FrameData, GpuContext, HeadlessRenderer, RenderError, Renderer, Result,
};

/// A loaded model and the viewer's state.
pub struct ModelScene {
    model: LoadedModel,
    /// The orbit camera around the model's bounding sphere.
    pub orbit: Orbit,
    /// The clip shown (index into [`ModelScene::clips`]; ignored without clips).
    pub clip: usize,
    /// Seconds into the clip.
    pub time: f32,
    /// Whether time advances.
    pub playing: bool,
    /// Draw meshes as lines (only where the adapter has `POLYGON_MODE_LINE`; WebGPU has not).
    pub wireframe: bool,
    frame: FrameData,
}

impl ModelScene {
    /// Uploads `asset` (named `name` in messages) into `renderer`, framed for `aspect` (width /
    /// height) as `sierra view` frames it, its first clip at time 0, playing.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] naming the model, GPU errors.
    pub fn load(
        ctx: &GpuContext,
        renderer: &mut Renderer,
        asset: &GltfAsset,
        name: &str,
        aspect: f32,
    ) -> Result<Self> {
        let load = ModelLoad {
            name,
            albedo: false,
            frames: 1,
            aspect,
        };
        let clip = (!asset.clips.is_empty()).then_some(0);
        let model = upload_model(ctx, renderer, &load, asset, clip)?;
        let (centre, radius) = model.sphere;
        let orbit = Orbit::framing(centre, radius, aspect);
        Ok(Self {
            frame: FrameData::new(orbit.camera(aspect)),
            model,
            orbit,
            clip: 0,
            time: 0.0,
            playing: true,
            wireframe: false,
        })
    }

    /// `(name, duration seconds)` of every clip, file order.
    pub fn clips(&self) -> &[(String, f32)] {
        &self.model.clips
    }

    /// Advances time by `dt` seconds while playing, looping over the clip.
    pub fn advance(&mut self, dt: f32) {
        let duration = self.clips().get(self.clip).map_or(0.0, |c| c.1);
        if self.playing && duration > 0.0 {
            self.time = (self.time + dt).rem_euclid(duration);
        }
    }

    /// The frame for the current state at `aspect`.
    ///
    /// # Errors
    /// A clip or palette the model does not match.
    pub fn frame(&mut self, aspect: f32) -> Result<&FrameData> {
        let clip = self.clip.min(self.clips().len().saturating_sub(1));
        let camera = self.orbit.camera(aspect);
        let source = &mut self.model.source;
        source.show(clip, self.time, camera, self.wireframe);
        source.extract(&mut self.frame)?;
        Ok(&self.frame)
    }
}

/// Renders `asset` at its first frame into a `width` × `height` off-screen image and reads it
/// back: the browser test's frame, and the native frame it is compared with (the same calls;
/// natively the read-back completes at once).
///
/// # Errors
/// GPU and model errors.
pub async fn render_first_frame(
    ctx: &GpuContext,
    asset: &GltfAsset,
    width: u32,
    height: u32,
) -> Result<image::RgbaImage> {
    let mut headless = HeadlessRenderer::new(ctx, width, height)?;
    let aspect = width as f32 / height as f32;
    let mut scene = ModelScene::load(ctx, &mut headless.renderer, asset, "model", aspect)?;
    let frame = scene.frame(aspect)?;
    headless
        .renderer
        .render(ctx, frame, &headless.target.view)?;
    readback::read_texture_rgba_async(ctx, &headless.target.texture).await
}

/// Runs a future that completes without waiting (the native forms of the async read-back and
/// device creation finish inside their first poll).
///
/// # Errors
/// [`RenderError::Readback`] if it would have to wait.
pub fn complete_now<T>(future: impl Future<Output = Result<T>>) -> Result<T> {
    let mut future = std::pin::pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(value) => value,
        Poll::Pending => Err(RenderError::Readback(
            "a native read-back asked to wait for the browser".into(),
        )),
    }
}
