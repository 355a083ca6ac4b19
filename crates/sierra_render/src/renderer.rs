//! [`Renderer`]: runs the passes of a frame in order.
//!
//! A frame ([`FrameData`]) first runs its simulation inputs on the GPU — the sea's drops and
//! water-column steps ([`crate::SeaFrame`]), the skinned meshes' morph weights and skinning
//! ([`crate::SkinnedFrame`], one compute pass whose outputs join the frame's draws, culled by
//! their posed bounds) — then the passes, in the order written once, in code, in `Renderer::parts` (each pass's
//! module says what it reads and writes), which resizing, preparing and recording all iterate; a new pass is a field and one entry there (a pass that
//! casts sun shadows also answers [`crate::passes::Pass::shadow_caster`]).
//!
//! Every pass and compute dispatch runs inside a GPU scope ([`crate::gpu_profiler`]); the
//! timings come back in later frames' [`FrameStats::gpu`], never waited for.

use crate::compute::skinning::{SkinnedMeshData, Skinning};
use crate::compute::water::WaterCompute;
use crate::context::GpuContext;
use crate::environment::{Environment, EnvironmentMaps, EnvironmentSizes};
use crate::error::{RenderError, Result};
use crate::frame::{DrawItem, SeaOp, SkinnedMeshHandle};
use crate::frame::{FrameData, MaterialHandle, MeshHandle};
use crate::gpu_profiler::{GpuFrameTimings, GpuScopes};
use crate::material::SurfaceMaterial;
use crate::material_store::MaterialStore;
use crate::mesh::{GpuMesh, MeshData};
use crate::mesh_store::MeshStore;
use crate::passes::bloom::BloomPass;
use crate::passes::crowd::CrowdPass;
use crate::passes::forward::ForwardPass;
use crate::passes::fxaa::FxaaPass;
use crate::passes::resolve::MsaaResolvePass;
use crate::passes::sea::{SeaPass, SeaSettings};
use crate::passes::shadow::ShadowPass;
use crate::passes::sky::SkyPass;
use crate::passes::tonemap::TonemapPass;
use crate::passes::view::FrameBindings;
use crate::passes::{Pass, PassInputs, ShadowCaster};
use crate::pipeline_statistics::PassQueries;
use crate::readback;
use crate::targets::{OffscreenTarget, RenderTargets, OUTPUT_FORMAT};

/// Counters of one rendered frame (the `stats.json` entries).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrameStats {
    /// Triangles submitted (sum over the forward pass's draws, plus those of every crowd member
    /// the crowd pass does not cull).
    pub triangles: u64,
    /// Draw calls the forward pass recorded (frame draws minus culled ones).
    pub draw_calls: u32,
    /// Frame draws the forward pass left out because their world bounds lie outside the view
    /// frustum.
    pub culled_draws: u32,
    /// Skinned meshes skinned on the GPU this frame (the frame's [`crate::SkinnedFrame::draws`]).
    pub skinned_draws: u32,
    /// This frame's number: every [`Renderer::render`] counts one, from 0. Its GPU timings
    /// arrive a few frames later in [`FrameStats::gpu`] under the same number.
    pub frame: u64,
    /// GPU timings of the frames whose results became ready during this call (this frame's or
    /// earlier ones'), oldest first; read without waiting. Always empty without timestamp queries.
    /// [`Renderer::flush_gpu_timings`] returns the rest at the end of a run.
    pub gpu: Vec<GpuFrameTimings>,
}

impl FrameStats {
    /// The newest GPU timings among [`FrameStats::gpu`].
    pub fn newest_gpu(&self) -> Option<&GpuFrameTimings> {
        self.gpu.last()
    }
}

/// Draws [`FrameData`] into a final image (a window surface texture or an [`OffscreenTarget`]).
pub struct Renderer {
    targets: RenderTargets,
    /// Hands the targets' bytes back to the memory accounting when a resize replaces them.
    targets_memory: Vec<crate::memory::MemoryRelease>,
    /// Every drawable mesh, uploaded once ([`Renderer::upload_mesh`]).
    meshes: MeshStore,
    /// Surface materials draws name ([`Renderer::add_material`]).
    materials: MaterialStore,
    /// Sun shadow map (drawn first; the forward pass samples it).
    shadow: ShadowPass,
    /// Scene → HDR target.
    pub forward: ForwardPass,
    /// Instanced crowds from baked animation textures, drawn after the forward pass.
    pub crowd: CrowdPass,
    /// Procedural sky behind the scene (drawn when the frame's `post.sky.enabled`).
    sky: SkyPass,
    /// The simulated sea, blended over the scene (draws nothing until `sea.bind_water`).
    pub sea: SeaPass,
    /// Resolves the multisampled scene once, after the last scene pass (MSAA only).
    resolve: MsaaResolvePass,
    /// Bloom added onto the HDR target (when the frame's `post.bloom.enabled`).
    bloom: BloomPass,
    /// HDR target → final image (the frame's `post.tonemap`, sRGB), or → the FXAA input.
    tonemap: TonemapPass,
    /// FXAA input → final image (when the frame's `post.aa` is FXAA).
    fxaa: FxaaPass,
    /// The final images' format (the tonemap and FXAA passes write it).
    output_format: wgpu::TextureFormat,
    /// The skinning compute pass and its instances, created at the first skinned upload.
    skinning: Option<Skinning>,
    /// The sea's water simulation ([`Renderer::set_water`]), stepped by each frame's sea ops.
    water: Option<WaterCompute>,
    /// Image-based lighting: the maps the forward and crowd passes sample, baked before them.
    environment: Environment,
    /// The view group every scene pass binds (camera, lights, environment, shadow map),
    /// written once per frame before the passes' `prepare`.
    view: FrameBindings,
    /// `[frame draws + skinned draws]` the scene passes draw this frame (reused).
    draws: Vec<DrawItem>,
    /// GPU scopes around every pass and dispatch, read a few frames later.
    scopes: GpuScopes,
}

/// What encoding a frame borrows from the renderer ([`Renderer::parts`]): the passes, mutable,
/// in frame order, and the shared data they read.
struct FrameParts<'a> {
    passes: [&'a mut dyn Pass; 9],
    targets: &'a RenderTargets,
    meshes: &'a MeshStore,
    materials: &'a MaterialStore,
    draws: &'a [DrawItem],
    skinning: Option<&'a Skinning>,
    environment: &'a Environment,
    scopes: &'a mut GpuScopes,
}

/// Side of the sun's shadow map in texels.
const SHADOW_MAP_RESOLUTION: u32 = 2048;

impl Renderer {
    /// Creates a renderer for final images of `output_format` and `width` × `height` pixels.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for a zero side, [`RenderError::LimitExceeded`], [`RenderError::Gpu`].
    pub fn new(
        ctx: &GpuContext,
        width: u32,
        height: u32,
        output_format: wgpu::TextureFormat,
    ) -> Result<Self> {
        let targets = RenderTargets::new(ctx, width, height)?;
        let shadow = ShadowPass::new(ctx, SHADOW_MAP_RESOLUTION)?;
        let materials = MaterialStore::new(ctx)?;
        let environment = Environment::new(ctx, EnvironmentSizes::default())?;
        // The view group (group 0) every scene pass binds; the renderer writes it each frame.
        let view = FrameBindings::new(ctx, "scene frame", &environment.maps, shadow.receiver())?;
        let forward = ForwardPass::new(ctx, &view, &shadow, &materials)?;
        let (crowd, sky) = (
            CrowdPass::new(ctx, &shadow, &view)?,
            SkyPass::new(ctx, &view)?,
        );
        let sea = SeaPass::new(ctx, &view)?;
        let mut renderer = Self {
            targets_memory: targets.memory_releases(ctx),
            targets,
            meshes: MeshStore::new(),
            crowd,
            forward,
            materials,
            environment,
            view,
            shadow,
            sky,
            sea,
            resolve: MsaaResolvePass::default(),
            bloom: BloomPass::new(ctx)?,
            tonemap: TonemapPass::new(ctx, output_format)?,
            fxaa: FxaaPass::new(ctx, output_format)?,
            output_format,
            scopes: GpuScopes::new(ctx)?,
            skinning: None,
            water: None,
            draws: Vec::new(),
        };
        renderer.resize_passes(ctx)?;
        Ok(renderer)
    }

    /// Rebuilds the pass `file` belongs to ([`crate::shader_files::RELOADABLE`]) from `source`,
    /// the text of that file read from a shader folder: only that pass's shader module and
    /// pipelines are created ([`GpuContext::creation_counts`] says so). Returns the pass's name.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for a file no pass reloads, or WGSL that does not parse
    /// (`FILE:LINE:COLUMN: message`); [`RenderError::Gpu`] when the pipelines fail to build.
    /// The running pass is kept on any error.
    pub fn reload_shader(
        &mut self,
        ctx: &GpuContext,
        file: &str,
        source: &str,
    ) -> Result<&'static str> {
        let pass = crate::shader_files::pass_of(file).ok_or_else(|| {
            let names = crate::shader_files::RELOADABLE.map(|(name, _)| name);
            RenderError::InvalidInput(format!(
                "{file}: not a shader the renderer reloads (those are {})",
                names.join(", ")
            ))
        })?;
        crate::shader_files::check(file, source)?;
        match pass {
            "bloom" => {
                let mut rebuilt = BloomPass::with_source(ctx, source)?;
                rebuilt.resize(ctx, &self.targets)?;
                self.bloom = rebuilt;
            }
            "tonemap" => {
                let mut rebuilt = TonemapPass::with_source(ctx, self.output_format, source)?;
                rebuilt.resize(ctx, &self.targets)?;
                self.tonemap = rebuilt;
            }
            _ => {
                let mut rebuilt = FxaaPass::with_source(ctx, self.output_format, source)?;
                rebuilt.resize(ctx, &self.targets)?;
                self.fxaa = rebuilt;
            }
        }
        Ok(pass)
    }

    /// Remakes the environment maps at `sizes` (tests on the software driver use small ones);
    /// the next frame bakes them.
    ///
    /// # Errors
    /// As [`EnvironmentSizes::validate`]; GPU errors.
    pub fn set_environment_sizes(
        &mut self,
        ctx: &GpuContext,
        sizes: EnvironmentSizes,
    ) -> Result<()> {
        self.environment = Environment::new(ctx, sizes)?;
        // Every scene pass holds a clone of the view group, which shares the new binding.
        self.view.bind_environment(ctx, &self.environment.maps)
    }

    /// Bakes the environment of `sun` and `post` (a frame's [`FrameData::sun`] and
    /// [`FrameData::post`]) completely now and waits for it: at load, so the first frame does
    /// not bake and the time shows in the start-up stages.
    ///
    /// # Errors
    /// GPU errors.
    pub fn bake_environment(
        &mut self,
        ctx: &GpuContext,
        sun: &crate::Sun,
        post: &crate::PostSettings,
    ) -> Result<()> {
        self.environment.bake_now(ctx, sun, post)
    }

    /// Sets the equirectangular image an [`crate::EnvironmentSource::Image`] environment reads
    /// (see [`Environment::set_image`]).
    ///
    /// # Errors
    /// As [`Environment::set_image`].
    pub fn set_environment_image(
        &mut self,
        ctx: &GpuContext,
        width: u32,
        height: u32,
        rgba: &[f32],
    ) -> Result<()> {
        self.environment.set_image(ctx, width, height, rgba)
    }

    /// The environment maps the scene passes sample.
    pub fn environment_maps(&self) -> &EnvironmentMaps {
        &self.environment.maps
    }

    /// Current size in pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.targets.width, self.targets.height)
    }

    /// Shared targets (HDR colour, depth).
    pub fn targets(&self) -> &RenderTargets {
        &self.targets
    }

    /// Whether frames are timed on the GPU (the adapter has timestamp queries).
    pub fn gpu_timed(&self) -> bool {
        self.scopes.timed()
    }

    /// GPU timings that became ready since the last call or render, without waiting (a
    /// headless run calls it after its read-back, which finished the frame).
    ///
    /// # Errors
    /// [`RenderError::Gpu`] when the device is lost.
    pub fn collect_gpu_timings(&mut self, ctx: &GpuContext) -> Result<Vec<GpuFrameTimings>> {
        self.scopes.collect(ctx)
    }

    /// Waits for every submitted frame and returns the GPU timings not returned yet: once, at
    /// the end of a run.
    ///
    /// # Errors
    /// [`RenderError::Gpu`] when the device is lost.
    pub fn flush_gpu_timings(&mut self, ctx: &GpuContext) -> Result<Vec<GpuFrameTimings>> {
        self.scopes.flush(ctx)
    }

    /// How many times the renderer waited on the GPU for timings (only
    /// [`Renderer::flush_gpu_timings`] waits): stays 0 in a window.
    pub fn gpu_timing_waits(&self) -> u64 {
        self.scopes.waits()
    }

    /// Uploads a mesh once; any number of draws may draw it, each with its own material. The
    /// handle stays valid for the renderer's life.
    ///
    /// # Errors
    /// As [`GpuMesh::upload`].
    pub fn upload_mesh(
        &mut self,
        ctx: &GpuContext,
        mesh: &MeshData,
        label: &str,
    ) -> Result<MeshHandle> {
        self.meshes.upload(ctx, mesh, label)
    }

    /// Registers a mesh already on the GPU (e.g. a skinned instance's output
    /// vertex buffer, written by [`crate::compute::skinning::Skinning`]).
    pub fn add_gpu_mesh(&mut self, mesh: GpuMesh) -> MeshHandle {
        self.meshes.add_gpu_mesh(mesh)
    }

    /// Sets the model-space bounds `(min, max)` (metres, the space [`crate::DrawItem::model`]
    /// maps from) of mesh `handle` for frustum culling; `None`: never culled. Uploaded meshes
    /// get their vertices' bounds, meshes added with [`Renderer::add_gpu_mesh`] none until
    /// posed bounds are given here.
    pub fn set_mesh_bounds(
        &mut self,
        handle: MeshHandle,
        bounds: Option<(glam::Vec3, glam::Vec3)>,
    ) {
        self.meshes.set_bounds(handle, bounds);
    }

    /// Lets only the first `count` indices of mesh `handle` cast sun shadows (`None`: all of
    /// them, the default), e.g. a terrain chunk's ground without its skirt
    /// ([`MeshStore::set_caster_indices`]).
    pub fn set_caster_indices(&mut self, handle: MeshHandle, count: Option<u32>) {
        self.meshes.set_caster_indices(handle, count);
    }

    /// An uploaded mesh.
    pub fn mesh(&self, handle: MeshHandle) -> Option<&GpuMesh> {
        self.meshes.get(handle)
    }

    /// The mesh store (skinning registers its output meshes here; tests count uploads).
    pub fn meshes(&self) -> &MeshStore {
        &self.meshes
    }

    /// The mesh store, to register meshes (e.g. [`crate::compute::skinning::Skinning::upload`]).
    pub fn meshes_mut(&mut self) -> &mut MeshStore {
        &mut self.meshes
    }

    /// The material store.
    pub fn materials(&self) -> &MaterialStore {
        &self.materials
    }

    /// Binds a surface material once; draws name it by the handle ([`crate::DrawItem::surface`]).
    ///
    /// # Errors
    /// [`RenderError::Gpu`] when binding fails.
    pub fn add_material(
        &mut self,
        ctx: &GpuContext,
        material: &SurfaceMaterial,
    ) -> Result<MaterialHandle> {
        self.materials.add(ctx, material)
    }

    /// Gives the mesh `mesh` a default surface material: draws of it that name no
    /// [`crate::DrawItem::surface`] use it. Meshes without one are Phong, untextured, opaque.
    ///
    /// # Errors
    /// [`RenderError::Gpu`] when binding fails.
    pub fn set_material(
        &mut self,
        ctx: &GpuContext,
        mesh: MeshHandle,
        material: &SurfaceMaterial,
    ) -> Result<MaterialHandle> {
        self.set_shared_material(ctx, &[mesh], material)
    }

    /// Gives every mesh in `meshes` the same default surface material, bound once (e.g. all
    /// chunks of a terrain).
    ///
    /// # Errors
    /// [`RenderError::Gpu`] when binding fails.
    pub fn set_shared_material(
        &mut self,
        ctx: &GpuContext,
        meshes: &[MeshHandle],
        material: &SurfaceMaterial,
    ) -> Result<MaterialHandle> {
        let handle = self.materials.add(ctx, material)?;
        self.materials.set_mesh_default(meshes, handle)?;
        Ok(handle)
    }

    /// Recreates the size-dependent targets. Zero sizes (a minimised window) are
    /// refused with [`RenderError::InvalidInput`]; callers skip rendering instead.
    ///
    /// # Errors
    /// As [`RenderTargets::new`].
    pub fn resize(&mut self, ctx: &GpuContext, width: u32, height: u32) -> Result<()> {
        if (width, height) == self.size() {
            return Ok(());
        }
        self.targets = RenderTargets::with_samples(ctx, width, height, self.targets.sample_count)?;
        self.targets_memory = self.targets.memory_releases(ctx);
        self.resize_passes(ctx)
    }

    /// Samples per pixel of the scene passes (1: no multisampling; 4: 4× MSAA).
    pub fn sample_count(&self) -> u32 {
        self.targets.sample_count
    }

    /// Switches multisample anti-aliasing: `sample_count` samples per pixel for every pass that
    /// draws into the HDR target (forward, crowd, sky, sea share the count through
    /// [`RenderTargets::sample_count`] and rebuild their pipelines), resolved before bloom and
    /// tonemapping. 1 turns it off (the default); 4 is 4× MSAA.
    ///
    /// # Errors
    /// [`RenderError::Unsupported`] when the adapter cannot multisample the HDR and depth formats
    /// at `sample_count` (the renderer keeps its current count); GPU errors as [`Renderer::new`].
    pub fn set_sample_count(&mut self, ctx: &GpuContext, sample_count: u32) -> Result<()> {
        if sample_count == self.targets.sample_count {
            return Ok(());
        }
        let (width, height) = self.size();
        self.targets = RenderTargets::with_samples(ctx, width, height, sample_count)?;
        self.targets_memory = self.targets.memory_releases(ctx);
        self.resize_passes(ctx)
    }

    /// Lets every pass rebuild what depends on the targets (sizes, sample count).
    fn resize_passes(&mut self, ctx: &GpuContext) -> Result<()> {
        let FrameParts {
            passes, targets, ..
        } = self.parts();
        for pass in passes {
            pass.resize(ctx, targets)?;
        }
        Ok(())
    }

    /// The frame's passes in order — the one place the order is written (the shadow pass first:
    /// it draws every [`crate::passes::ShadowCaster`]); beside them, borrowed shared, what they
    /// read.
    fn parts(&mut self) -> FrameParts<'_> {
        FrameParts {
            passes: [
                &mut self.shadow,
                &mut self.forward,
                &mut self.crowd,
                &mut self.sky,
                &mut self.sea,
                &mut self.resolve,
                &mut self.bloom,
                &mut self.tonemap,
                &mut self.fxaa,
            ],
            targets: &self.targets,
            meshes: &self.meshes,
            materials: &self.materials,
            draws: &self.draws,
            skinning: self.skinning.as_ref(),
            environment: &self.environment,
            scopes: &mut self.scopes,
        }
    }

    /// Uploads one skinned mesh instance (bind pose, influences, morph targets) and registers
    /// the plain mesh its posed vertices are written to; frames draw it through
    /// [`crate::SkinnedFrame`]. Compiles the skinning pass at the first call.
    ///
    /// # Errors
    /// As [`Skinning::new`] and [`Skinning::upload`].
    pub fn upload_skinned_mesh(
        &mut self,
        ctx: &GpuContext,
        mesh: &SkinnedMeshData,
        label: &str,
    ) -> Result<SkinnedMeshHandle> {
        let mut skinning = match self.skinning.take() {
            Some(s) => s,
            None => Skinning::new(ctx)?,
        };
        let handle = skinning.upload(ctx, &mut self.meshes, mesh, label);
        self.skinning = Some(skinning);
        handle
    }

    /// Sets the morph weights a skinned instance has at load (its node's or mesh's default
    /// `weights`); frames that list the instance in [`crate::SkinnedFrame::morphs`] replace them.
    ///
    /// # Errors
    /// As [`Skinning::set_morph_weights`]; an instance never uploaded.
    pub fn set_rest_morph_weights(
        &mut self,
        ctx: &GpuContext,
        handle: SkinnedMeshHandle,
        weights: &[f32],
    ) -> Result<()> {
        match &self.skinning {
            Some(skinning) => skinning.set_morph_weights(ctx, handle, weights),
            None => Err(RenderError::InvalidInput(format!(
                "skinned mesh {} was never uploaded",
                handle.0
            ))),
        }
    }

    /// The skinning pass, once a skinned mesh was uploaded (output meshes, posed bounds).
    pub fn skinning(&self) -> Option<&Skinning> {
        self.skinning.as_ref()
    }

    /// Hands the sea's water simulation to the renderer with the sea's placement and look
    /// (`settings`): the sea pass reads its state, and each frame's [`crate::SeaFrame`] ops step
    /// it before the scene passes.
    ///
    /// # Errors
    /// GPU errors binding the water buffers to the sea pass.
    pub fn set_water(
        &mut self,
        ctx: &GpuContext,
        water: WaterCompute,
        settings: SeaSettings,
    ) -> Result<()> {
        self.sea.settings = settings;
        self.sea.bind_water(ctx, &water)?;
        self.sea.set_current(water.current_index());
        self.water = Some(water);
        Ok(())
    }

    /// Gives the sea pass the ground's heights at the terrain mesh's resolution
    /// ([`SeaPass::set_shore`]), after [`Renderer::set_water`] or before it.
    ///
    /// # Errors
    /// As [`SeaPass::set_shore`].
    pub fn set_sea_shore(
        &mut self,
        ctx: &GpuContext,
        shore: &crate::passes::sea::ShoreHeights<'_>,
    ) -> Result<()> {
        self.sea.set_shore(ctx, shore, self.water.as_ref())
    }

    /// The sea's water simulation, when one was set (tests and tools read its depth back).
    pub fn water(&self) -> Option<&WaterCompute> {
        self.water.as_ref()
    }

    /// Runs the frame's simulation inputs: sea drops and steps, then morph weights and
    /// skinning; fills `self.draws` with the frame's draws followed by the skinned outputs.
    fn run_frame_inputs(&mut self, ctx: &GpuContext, frame: &FrameData) -> Result<()> {
        if let Some(water) = &mut self.water {
            for op in &frame.sea.ops {
                run_sea_op(ctx, &self.scopes, water, op)?;
            }
            self.sea.set_current(water.current_index());
        } else if !frame.sea.ops.is_empty() {
            return Err(RenderError::InvalidInput(
                "the frame steps the sea but no water simulation was set (Renderer::set_water)"
                    .to_owned(),
            ));
        }
        self.draws.clear();
        self.draws.extend_from_slice(&frame.draws);
        let skinned = &frame.skinned;
        if skinned.draws.is_empty() && skinned.morphs.is_empty() {
            return Ok(());
        }
        let Some(skinning) = &mut self.skinning else {
            return Err(RenderError::InvalidInput(
                "the frame has skinned draws but no skinned mesh was uploaded".to_owned(),
            ));
        };
        for m in &skinned.morphs {
            let range = m.first as usize..(m.first as usize + m.count as usize);
            let weights = skinned.morph_weights.get(range).ok_or_else(|| {
                RenderError::InvalidInput(format!(
                    "morph weights {}..{} of skinned mesh {} lie outside the frame's {} weights",
                    m.first,
                    u64::from(m.first) + u64::from(m.count),
                    m.mesh.0,
                    skinned.morph_weights.len()
                ))
            })?;
            skinning.set_morph_weights(ctx, m.mesh, weights)?;
        }
        // Encoded at the start of the frame's own command buffer (encode_and_submit).
        let palettes_and_draws = (&skinned.palettes[..], &skinned.draws[..]);
        skinning.prepare(ctx, palettes_and_draws, &mut self.draws)?;
        for d in &skinned.draws {
            if let Some(mesh) = skinning.output_mesh(d.mesh) {
                self.meshes.set_bounds(mesh, skinning.posed_bounds(d.mesh));
            }
        }
        Ok(())
    }

    /// Renders `frame` into `output` (a view of a texture of the renderer's size
    /// and output format) and submits the work.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for bad frame data (unknown mesh handles),
    /// [`RenderError::Gpu`] for wgpu validation errors, [`RenderError::DeviceLost`] once the
    /// device is lost (checked before anything is recorded).
    pub fn render(
        &mut self,
        ctx: &GpuContext,
        frame: &FrameData,
        output: &wgpu::TextureView,
    ) -> Result<FrameStats> {
        // Nothing is recorded or submitted on a lost device (`crate::device_loss`).
        ctx.check_device("rendering a frame")?;
        let mut stats = FrameStats::default();
        self.run_frame_inputs(ctx, frame)?;
        self.environment.prepare(ctx, &frame.sun, &frame.post);
        self.view.write(ctx, frame);
        let result = self.encode_and_submit(ctx, frame, output);
        for i in self.forward.drawn() {
            stats.draw_calls += 1;
            if let Some(mesh) = self.draws.get(i).and_then(|d| self.meshes.get(d.mesh)) {
                stats.triangles += u64::from(mesh.triangle_count());
            }
        }
        stats.culled_draws = self.forward.culled_draws();
        stats.skinned_draws = frame.skinned.draws.len() as u32;
        stats.triangles += self.crowd.drawn_triangles(frame.camera.view_proj());
        result?;
        stats.frame = self.scopes.end_frame(web_time::Instant::now())?;
        stats.gpu = self.scopes.collect(ctx)?;
        Ok(stats)
    }

    fn encode_and_submit(
        &mut self,
        ctx: &GpuContext,
        frame: &FrameData,
        output: &wgpu::TextureView,
    ) -> Result<()> {
        let FrameParts {
            mut passes,
            targets,
            meshes,
            materials,
            draws,
            skinning,
            environment,
            scopes,
        } = self.parts();
        let inputs = PassInputs {
            frame,
            draws,
            meshes,
            materials,
            targets,
            output,
            shadow_casters: &[],
        };
        for pass in &mut passes {
            pass.prepare(ctx, &inputs)?;
        }
        // Shared from here on: recording reads the passes, and the shadow pass draws the
        // casters the others own.
        let casters: Vec<&dyn ShadowCaster> =
            passes.iter().filter_map(|p| p.shadow_caster()).collect();
        let inputs = PassInputs {
            shadow_casters: &casters,
            ..inputs
        };
        let descriptor = wgpu::CommandEncoderDescriptor {
            label: Some("frame"),
        };
        let mut encoder = ctx.device.create_command_encoder(&descriptor);
        ctx.scoped(
            || "recording and submitting the frame".to_owned(),
            || {
                // The passes nest in a `frame` scope where the device can time the encoder.
                let frame_scope = scopes.begin_encoder_scope("frame", &mut encoder);
                let parent = frame_scope.as_ref();
                // The environment's bake steps first: the scene passes sample what they publish.
                if environment.active() {
                    scopes.compute_pass("environment", &mut encoder, parent, |e, t| {
                        environment.record(e, t);
                    });
                }
                // Skinned vertices (and morphs) first: the shadow and forward passes draw them.
                let skinned = &frame.skinned.draws;
                if let Some(skinning) = skinning.filter(|_| !skinned.is_empty()) {
                    scopes.compute_pass("skinning", &mut encoder, parent, |e, t| {
                        skinning.record(e, skinned, t);
                    });
                }
                for pass in &passes {
                    // A scope only around a pass that writes its timestamps.
                    if pass.active() {
                        scopes.render_pass(pass.name(), &mut encoder, parent, |e, t| {
                            pass.record(e, &inputs, t);
                        });
                    } else {
                        pass.record(&mut encoder, &inputs, PassQueries::none());
                    }
                }
                if let Some(frame_scope) = frame_scope {
                    scopes.end(&mut encoder, frame_scope);
                }
                scopes.resolve(&mut encoder);
                ctx.queue.submit([encoder.finish()]);
            },
        )?;
        ctx.take_uncaptured_errors("rendering a frame")
    }

    /// Renders `frame` into `target` and reads it back as an sRGB RGBA image.
    ///
    /// # Errors
    /// As [`Renderer::render`] and [`readback::read_texture_rgba`]; [`RenderError::InvalidInput`]
    /// when `target` is not the renderer's size.
    pub fn render_to_image(
        &mut self,
        ctx: &GpuContext,
        frame: &FrameData,
        target: &OffscreenTarget,
    ) -> Result<(image::RgbaImage, FrameStats)> {
        let target_size = (target.texture.width(), target.texture.height());
        if target_size != self.size() {
            return Err(RenderError::InvalidInput(format!(
                "off-screen target is {}x{} but the renderer is {}x{}",
                target_size.0, target_size.1, self.targets.width, self.targets.height
            )));
        }
        let mut stats = self.render(ctx, frame, &target.view)?;
        let image = readback::read_texture_rgba(ctx, &target.texture)?;
        // The read-back finished the frame: its timings are ready now, without another wait.
        stats.gpu.extend(self.scopes.collect(ctx)?);
        Ok((image, stats))
    }
}

/// Runs one of a frame's sea ops in a submission of its own (a drop's parameters are a
/// queue write, so two drops cannot share one), inside a GPU scope.
fn run_sea_op(
    ctx: &GpuContext,
    scopes: &GpuScopes,
    water: &mut WaterCompute,
    op: &SeaOp,
) -> Result<()> {
    let mut encoder = ctx
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("sea op"),
        });
    let recorded = match *op {
        SeaOp::State(ref state) => return water.write_state(&ctx.queue, state),
        SeaOp::Drop {
            at,
            radius,
            amplitude,
        } => scopes.compute_pass("water drop", &mut encoder, None, |e, t| {
            water.record_drop(&ctx.queue, e, (at, radius, amplitude), t)
        }),
        SeaOp::Step { dt, count } => {
            scopes.compute_pass("water steps", &mut encoder, None, |e, t| {
                water.record_steps_timed(&ctx.queue, e, dt, count, t)
            })
        }
    };
    recorded?;
    ctx.queue.submit([encoder.finish()]);
    ctx.take_uncaptured_errors("running the sea's drops and steps")
}

/// A renderer plus its off-screen image: the headless path in one value.
pub struct HeadlessRenderer {
    /// The renderer ([`OUTPUT_FORMAT`] output).
    pub renderer: Renderer,
    /// The image it renders into.
    pub target: OffscreenTarget,
}

impl HeadlessRenderer {
    /// Creates a `width` × `height` headless renderer.
    ///
    /// # Errors
    /// As [`Renderer::new`].
    pub fn new(ctx: &GpuContext, width: u32, height: u32) -> Result<Self> {
        Ok(Self {
            renderer: Renderer::new(ctx, width, height, OUTPUT_FORMAT)?,
            target: OffscreenTarget::new(ctx, width, height)?,
        })
    }

    /// Renders one frame and reads it back.
    ///
    /// # Errors
    /// As [`Renderer::render_to_image`].
    pub fn render(
        &mut self,
        ctx: &GpuContext,
        frame: &FrameData,
    ) -> Result<(image::RgbaImage, FrameStats)> {
        self.renderer.render_to_image(ctx, frame, &self.target)
    }
}
