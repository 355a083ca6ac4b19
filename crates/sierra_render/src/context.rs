//! [`GpuContext`]: one wgpu instance, adapter, device and queue, created
//! headless or for a window surface.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::device_loss::{self, DeviceLoss, LossFlag};
use crate::error::{RenderError, Result};
use crate::memory::{texture_bytes, GpuMemory, MemoryClass, MemoryLedger, MemoryRelease};

/// Optional features Sierra uses when the adapter has them; nothing requires them, each has a
/// fallback:
///
/// - `TIMESTAMP_QUERY`: GPU time per pass in `stats.json` (null without it).
/// - `TIMESTAMP_QUERY_INSIDE_ENCODERS`: a `frame` GPU scope around a frame's passes, which nest
///   inside it ([`crate::gpu_profiler`]; without it the passes are timed at the top level).
/// - `POLYGON_MODE_LINE`: wireframe mode (without it frames are drawn filled).
/// - `PIPELINE_STATISTICS_QUERY`: vertex, primitive and fragment counts per render pass
///   ([`crate::pipeline_statistics`]; absent without it).
pub const OPTIONAL_FEATURES: wgpu::Features = wgpu::Features::TIMESTAMP_QUERY
    .union(wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS)
    .union(wgpu::Features::POLYGON_MODE_LINE)
    .union(wgpu::Features::PIPELINE_STATISTICS_QUERY);

/// The limits Sierra asks the device for: WebGPU's defaults ([`wgpu::Limits::default`]), so
/// code that would exceed them on a real GPU fails here too (a software adapter's generous
/// limits hide nothing), or [`wgpu::Limits::downlevel_defaults`] on an adapter below them.
/// Every size is checked against the device's limits with a clear
/// [`RenderError::LimitExceeded`].
pub fn required_limits(adapter: &wgpu::Limits) -> wgpu::Limits {
    let default = wgpu::Limits::default();
    if default.check_limits(adapter) {
        default
    } else {
        wgpu::Limits::downlevel_defaults()
    }
}

/// Pipelines (render and compute) and shader modules created on a device so far, counted by
/// [`GpuContext::create_render_pipeline`], [`GpuContext::create_compute_pipeline`] and
/// [`GpuContext::create_shader_module`] (the only ways `sierra_render` creates them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CreationCounts {
    /// Render and compute pipelines.
    pub pipelines: u64,
    /// Shader modules.
    pub shader_modules: u64,
}

impl CreationCounts {
    /// What was created between `earlier` and `self` (counts only grow).
    pub fn since(self, earlier: Self) -> Self {
        Self {
            pipelines: self.pipelines.saturating_sub(earlier.pipelines),
            shader_modules: self.shader_modules.saturating_sub(earlier.shader_modules),
        }
    }
}

#[derive(Debug, Default)]
struct Counters {
    pipelines: AtomicU64,
    shader_modules: AtomicU64,
}

/// Device errors that no error scope caught, recorded by the handler that
/// [`GpuContext`] installs instead of wgpu's default (which panics).
type ErrorSink = Arc<Mutex<Vec<String>>>;

/// One wgpu instance, adapter, device and queue.
///
/// Created with [`GpuContext::headless`] (tests, `sierra render`) or
/// [`GpuContext::for_window`] (a winit window); nothing downstream cares which.
///
/// Adapter choice honours wgpu's environment variables: `WGPU_BACKEND`
/// (e.g. `vulkan`, `gl`), `WGPU_ADAPTER_NAME` (a case-insensitive substring of
/// the adapter name) and `WGPU_POWER_PREF`. Without them the best adapter wins
/// (high-performance preference: discrete > integrated > software).
pub struct GpuContext {
    /// The wgpu instance (its backends come from `WGPU_BACKEND`).
    pub instance: wgpu::Instance,
    /// The chosen adapter.
    pub adapter: wgpu::Adapter,
    /// The logical device; its limits are [`required_limits`], not the adapter's.
    pub device: wgpu::Device,
    /// The device's queue.
    pub queue: wgpu::Queue,
    /// Features enabled on the device: the subset of [`OPTIONAL_FEATURES`] the adapter has.
    pub features: wgpu::Features,
    uncaptured: ErrorSink,
    lost: LossFlag,
    created: Counters,
    memory: Arc<MemoryLedger>,
}

/// Anisotropic filtering level of material samplers on hardware adapters.
pub const MATERIAL_ANISOTROPY: u16 = 8;

/// [`GpuContext::material_anisotropy`] for an adapter type.
pub fn anisotropy_for(device_type: wgpu::DeviceType) -> u16 {
    match device_type {
        wgpu::DeviceType::Cpu => 1,
        _ => MATERIAL_ANISOTROPY,
    }
}

impl std::fmt::Debug for GpuContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let info = self.adapter.get_info();
        f.debug_struct("GpuContext")
            .field("adapter", &info.name)
            .field("backend", &info.backend)
            .field("features", &self.features)
            .finish()
    }
}

impl GpuContext {
    /// Creates a context with no surface (off-screen rendering, compute, tests). Native only:
    /// it blocks on the adapter and device requests ([`GpuContext::headless_async`] on the web).
    ///
    /// # Errors
    /// [`RenderError::NoAdapter`] (with the packages to install) when no adapter
    /// exists or none matches `WGPU_ADAPTER_NAME`; [`RenderError::RequestDevice`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn headless() -> Result<Self> {
        pollster::block_on(Self::headless_async())
    }

    /// [`GpuContext::headless`] without blocking: the web build (wasm32, WebGPU) awaits it from
    /// the page's event loop, where a blocking wait would never see the browser answer.
    ///
    /// # Errors
    /// As [`GpuContext::headless`].
    pub async fn headless_async() -> Result<Self> {
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        Self::for_instance_async(instance, None).await
    }

    /// A context on `instance`'s best adapter (compatible with `surface` when given; the web
    /// page passes its canvas's surface), without blocking.
    ///
    /// # Errors
    /// As [`GpuContext::headless`].
    pub async fn for_instance_async(
        instance: wgpu::Instance,
        surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<Self> {
        let adapter = select_adapter(&instance, surface).await?;
        Self::from_adapter(instance, adapter).await
    }

    /// Creates a context and a surface for a window.
    ///
    /// `display` is the event loop's display handle (winit:
    /// `Box::new(event_loop.owned_display_handle())`, needed by the GL backend);
    /// `window` is the window itself, usually an `Arc<winit::window::Window>`.
    /// The surface is not configured yet: call [`GpuContext::configure_surface`]. Native only
    /// (the web page makes its canvas surface and calls [`GpuContext::for_instance_async`]).
    ///
    /// # Errors
    /// [`RenderError::Surface`] when the surface cannot be created, else as [`GpuContext::headless`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn for_window(
        display: Box<dyn wgpu::wgt::WgpuHasDisplayHandle>,
        window: impl Into<wgpu::SurfaceTarget<'static>>,
    ) -> Result<(Self, wgpu::Surface<'static>)> {
        let instance = wgpu::Instance::new(
            wgpu::InstanceDescriptor::new_with_display_handle_from_env(display),
        );
        let surface = instance
            .create_surface(window)
            .map_err(|e| RenderError::Surface(e.to_string()))?;
        let ctx = pollster::block_on(Self::for_instance_async(instance, Some(&surface)))?;
        Ok((ctx, surface))
    }

    async fn from_adapter(instance: wgpu::Instance, adapter: wgpu::Adapter) -> Result<Self> {
        let info = adapter.get_info();
        let features = adapter.features() & OPTIONAL_FEATURES;
        let (device, queue) = (adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("sierra device"),
            required_features: features,
            required_limits: required_limits(&adapter.limits()),
            experimental_features: wgpu::ExperimentalFeatures::disabled(),
            memory_hints: wgpu::MemoryHints::Performance,
            trace: wgpu::Trace::Off,
        }))
        .await
        .map_err(|source| RenderError::RequestDevice {
            adapter: info.name.clone(),
            source,
        })?;
        let lost = LossFlag::install(&device);
        let uncaptured: ErrorSink = Arc::default();
        let sink = Arc::clone(&uncaptured);
        device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            log::error!("uncaptured wgpu error: {error}");
            if let Ok(mut errors) = sink.lock() {
                errors.push(error.to_string());
            }
        }));
        log::info!(
            "GPU adapter: {} ({:?}, {:?}), optional features {:?}",
            info.name,
            info.backend,
            info.device_type,
            features
        );
        Ok(Self {
            instance,
            adapter,
            device,
            queue,
            features,
            uncaptured,
            lost,
            created: Counters::default(),
            memory: Arc::default(),
        })
    }

    /// Adapter name, backend and type, for logs and summaries (e.g. `llvmpipe (LLVM 15.0.6, 256 bits) (Vulkan, Cpu)`).
    pub fn adapter_summary(&self) -> String {
        let info = self.adapter.get_info();
        format!("{} ({:?}, {:?})", info.name, info.backend, info.device_type)
    }

    /// Anisotropic filtering level for material textures: [`MATERIAL_ANISOTROPY`] (8×) on
    /// hardware adapters, 1 (off: trilinear only) on CPU adapters (`wgpu::DeviceType::Cpu`,
    /// e.g. Mesa's lavapipe).
    ///
    /// Why: lavapipe (Mesa 21.3 onwards, 22.3 here) filters anisotropically with an elliptical
    /// weighted average whose loop visits every texel under the pixel's footprint ellipse, with
    /// no cap on its size. A surface at a grazing angle a few centimetres from the eye gives
    /// each pixel a footprint of millions of texels: one forward pass of the demo's walk path
    /// took 228 s at 240×135 (frame 33; `perf` showed ~95 % of the run inside the JIT-compiled
    /// fragment shader), and 0.14 s with anisotropy off. Hardware samplers cap the work at the
    /// clamp (8 taps), so real GPUs keep it. `docs/stalls.md` has the measurements.
    pub fn material_anisotropy(&self) -> u16 {
        anisotropy_for(self.adapter.get_info().device_type)
    }

    /// Whether GPU timestamps can be written around passes.
    pub fn has_timestamps(&self) -> bool {
        self.features.contains(wgpu::Features::TIMESTAMP_QUERY)
    }

    /// Runs `f` (resource creation, command recording...) inside validation and
    /// out-of-memory error scopes and turns a captured error into
    /// [`RenderError::Gpu`] naming `context`.
    ///
    /// On the web (wasm32) an error scope's answer arrives only after control returns to the
    /// browser, so `f` runs without scopes there: its errors reach the uncaptured-error sink
    /// and are returned by a later [`GpuContext::take_uncaptured_errors`] (the next frame's).
    ///
    /// # Errors
    /// [`RenderError::Gpu`] when wgpu reported an error while `f` ran;
    /// [`RenderError::DeviceLost`] once the device is lost (then `f` is not run).
    pub fn scoped<T>(&self, context: impl FnOnce() -> String, f: impl FnOnce() -> T) -> Result<T> {
        if let Some(loss) = self.lost.get() {
            return Err(loss.error(&context()));
        }
        self.in_error_scopes(context, f)
    }

    /// The web form of [`GpuContext::scoped`]'s scopes: none (see there).
    #[cfg(target_arch = "wasm32")]
    #[allow(clippy::unnecessary_wraps)]
    fn in_error_scopes<T>(
        &self,
        _context: impl FnOnce() -> String,
        f: impl FnOnce() -> T,
    ) -> Result<T> {
        Ok(f())
    }

    /// Runs `f` inside validation and out-of-memory error scopes ([`GpuContext::scoped`]).
    #[cfg(not(target_arch = "wasm32"))]
    fn in_error_scopes<T>(
        &self,
        context: impl FnOnce() -> String,
        f: impl FnOnce() -> T,
    ) -> Result<T> {
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let value = f();
        let validation_error = pollster::block_on(validation.pop());
        let oom_error = pollster::block_on(oom.pop());
        // A loss during `f` leaves what it created invalid, with or without an error.
        if let Some(loss) = self.lost.get() {
            return Err(loss.error(&context()));
        }
        match validation_error.or(oom_error) {
            Some(error) => Err(RenderError::Gpu {
                context: context(),
                message: error.to_string(),
            }),
            None => Ok(value),
        }
    }

    /// Pipelines and shader modules this context created so far.
    pub fn creation_counts(&self) -> CreationCounts {
        CreationCounts {
            pipelines: self.created.pipelines.load(Ordering::Relaxed),
            shader_modules: self.created.shader_modules.load(Ordering::Relaxed),
        }
    }

    /// Creates a render pipeline, counted ([`GpuContext::creation_counts`]) and inside a
    /// `pipeline_compile` tracing span (the Chrome trace shows each compilation).
    pub fn create_render_pipeline(
        &self,
        desc: &wgpu::RenderPipelineDescriptor<'_>,
    ) -> wgpu::RenderPipeline {
        let _span = pipeline_span(desc.label);
        self.created.pipelines.fetch_add(1, Ordering::Relaxed);
        self.device.create_render_pipeline(desc)
    }

    /// Creates a compute pipeline, counted and spanned as [`GpuContext::create_render_pipeline`].
    pub fn create_compute_pipeline(
        &self,
        desc: &wgpu::ComputePipelineDescriptor<'_>,
    ) -> wgpu::ComputePipeline {
        let _span = pipeline_span(desc.label);
        self.created.pipelines.fetch_add(1, Ordering::Relaxed);
        self.device.create_compute_pipeline(desc)
    }

    /// Compiles WGSL `source` into a shader module labelled `label`, counted and spanned as
    /// [`GpuContext::create_render_pipeline`].
    pub fn create_shader_module(
        &self,
        label: &str,
        source: impl Into<std::borrow::Cow<'static, str>>,
    ) -> wgpu::ShaderModule {
        let _span = pipeline_span(Some(label));
        self.created.shader_modules.fetch_add(1, Ordering::Relaxed);
        self.device
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            })
    }

    /// Returns the errors wgpu reported outside any error scope since the last
    /// call (e.g. during a submit), as one [`RenderError::Gpu`].
    ///
    /// # Errors
    /// [`RenderError::Gpu`] naming `context` when any error was recorded;
    /// [`RenderError::DeviceLost`] once the device is lost.
    pub fn take_uncaptured_errors(&self, context: &str) -> Result<()> {
        self.lost.check(context)?;
        let errors = match self.uncaptured.lock() {
            Ok(mut errors) => std::mem::take(&mut *errors),
            Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
        };
        if errors.is_empty() {
            Ok(())
        } else {
            Err(RenderError::Gpu {
                context: context.to_owned(),
                message: errors.join("; "),
            })
        }
    }

    /// What wgpu reported when it lost the device, if it did ([`crate::device_loss`]).
    pub fn device_lost(&self) -> Option<DeviceLoss> {
        self.lost.get()
    }

    /// Refuses to go on once the device is lost: call before using the device (every frame
    /// does). Reads a flag; makes no wgpu call.
    ///
    /// # Errors
    /// [`RenderError::DeviceLost`] naming `doing` (e.g. "rendering a frame").
    pub fn check_device(&self, doing: &str) -> Result<()> {
        self.lost.check(doing)
    }

    /// Polls the device without blocking (finished work's callbacks run, and the device-lost
    /// callback if the device was lost).
    ///
    /// # Errors
    /// [`RenderError::DeviceLost`], [`RenderError::Gpu`] naming `doing`.
    pub fn poll_device(&self, doing: &str) -> Result<()> {
        device_loss::poll(&self.device, &self.lost, doing, None).map(|_| ())
    }

    /// Blocks until the GPU has finished everything submitted, in waits of
    /// [`device_loss::WAIT_SLICE`] with the loss checked between them: a lost device ends it
    /// with an error instead of a hang.
    ///
    /// On the web (wasm32) nothing can block: this only checks the device. The callers wait so
    /// that later GPU work or a read-back sees finished results (the environment bake, water
    /// steps), which WebGPU's queue order already guarantees; read-backs there are
    /// [`crate::readback::read_texture_rgba_async`].
    ///
    /// # Errors
    /// [`RenderError::DeviceLost`], [`RenderError::Gpu`] naming `doing`.
    pub fn wait_idle(&self, doing: &str) -> Result<()> {
        self.wait_for_idle(doing)
    }

    /// The web's [`GpuContext::wait_idle`]: a device check.
    #[cfg(target_arch = "wasm32")]
    fn wait_for_idle(&self, doing: &str) -> Result<()> {
        self.poll_device(doing)
    }

    /// Polls in slices until idle ([`GpuContext::wait_idle`]).
    #[cfg(not(target_arch = "wasm32"))]
    fn wait_for_idle(&self, doing: &str) -> Result<()> {
        // Each poll blocks up to a slice while work is in flight, so this never spins.
        while !device_loss::poll(
            &self.device,
            &self.lost,
            doing,
            Some(device_loss::WAIT_SLICE),
        )? {}
        Ok(())
    }

    /// Waits as [`GpuContext::wait_idle`] until `ready` gives a value (a buffer mapping's
    /// callback, ...). On the web (wasm32) it cannot wait: `ready` is asked once after a
    /// non-blocking poll, and a value not there yet is [`RenderError::Readback`] saying so.
    ///
    /// # Errors
    /// As [`GpuContext::wait_idle`].
    pub fn wait_until<T>(&self, doing: &str, ready: impl FnMut() -> Option<T>) -> Result<T> {
        self.wait_for(doing, ready)
    }

    /// The web's [`GpuContext::wait_until`]: one non-blocking poll, then `ready` once.
    #[cfg(target_arch = "wasm32")]
    fn wait_for<T>(&self, doing: &str, mut ready: impl FnMut() -> Option<T>) -> Result<T> {
        self.poll_device(doing)?;
        ready().ok_or_else(|| {
            RenderError::Readback(format!(
                "{doing}: the web build cannot block waiting for the GPU; use the async read-back"
            ))
        })
    }

    /// Waits in slices until `ready` gives a value ([`GpuContext::wait_until`]).
    #[cfg(not(target_arch = "wasm32"))]
    fn wait_for<T>(&self, doing: &str, ready: impl FnMut() -> Option<T>) -> Result<T> {
        device_loss::wait_until(&self.device, &self.lost, doing, ready)
    }

    /// Configures `surface` for a `width` × `height` window: the adapter's default
    /// configuration with an sRGB format where offered (the output pass then needs
    /// no manual encoding) and `AutoVsync` presentation.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for a zero side (skip minimised windows instead),
    /// [`RenderError::LimitExceeded`], [`RenderError::Surface`] when the adapter cannot
    /// present to the surface, [`RenderError::Gpu`].
    pub fn configure_surface(
        &self,
        surface: &wgpu::Surface<'_>,
        width: u32,
        height: u32,
    ) -> Result<wgpu::SurfaceConfiguration> {
        self.check_texture_size("window surface", width, height)?;
        let mut config = surface
            .get_default_config(&self.adapter, width, height)
            .ok_or_else(|| {
                RenderError::Surface("the adapter cannot present to this window".to_owned())
            })?;
        let caps = surface.get_capabilities(&self.adapter);
        if let Some(srgb) = caps.formats.iter().copied().find(|f| f.is_srgb()) {
            config.format = srgb;
        }
        config.present_mode = wgpu::PresentMode::AutoVsync;
        self.scoped(
            || {
                format!(
                    "configuring the window surface {width}x{height} {:?}",
                    config.format
                )
            },
            || surface.configure(&self.device, &config),
        )?;
        Ok(config)
    }

    /// Checks a 2D texture size against `max_texture_dimension_2d` and rejects zero sizes.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for a zero side, [`RenderError::LimitExceeded`] above the limit.
    pub fn check_texture_size(&self, what: &str, width: u32, height: u32) -> Result<()> {
        if width == 0 || height == 0 {
            return Err(RenderError::InvalidInput(format!(
                "{what} size {width}x{height} has a zero side"
            )));
        }
        let limit = self.device.limits().max_texture_dimension_2d;
        let largest = width.max(height);
        if largest > limit {
            return Err(RenderError::LimitExceeded {
                what: format!("{what} side"),
                requested: u64::from(largest),
                limit: u64::from(limit),
                limit_name: "max_texture_dimension_2d",
            });
        }
        Ok(())
    }

    /// Checks a buffer size in bytes against `max_buffer_size` (and, for
    /// uniform/storage bindings, the binding limits).
    ///
    /// # Errors
    /// [`RenderError::LimitExceeded`] when above a limit.
    pub fn check_buffer_size(
        &self,
        what: &str,
        size: u64,
        usage: wgpu::BufferUsages,
    ) -> Result<()> {
        let limits = self.device.limits();
        let mut checks = vec![(limits.max_buffer_size, "max_buffer_size")];
        if usage.contains(wgpu::BufferUsages::STORAGE) {
            checks.push((
                limits.max_storage_buffer_binding_size,
                "max_storage_buffer_binding_size",
            ));
        }
        for (limit, limit_name) in checks {
            if size > limit {
                return Err(RenderError::LimitExceeded {
                    what: format!("{what} size in bytes"),
                    requested: size,
                    limit,
                    limit_name,
                });
            }
        }
        Ok(())
    }

    /// Creates a buffer after checking its size against the device limits, inside error scopes.
    ///
    /// # Errors
    /// [`RenderError::LimitExceeded`] or [`RenderError::Gpu`].
    pub fn create_buffer(&self, desc: &wgpu::BufferDescriptor<'_>) -> Result<wgpu::Buffer> {
        let what = desc.label.unwrap_or("buffer");
        self.check_buffer_size(what, desc.size, desc.usage)?;
        let buffer = self.scoped(
            || format!("creating buffer `{what}` ({} bytes)", desc.size),
            || self.device.create_buffer(desc),
        )?;
        self.count_buffer(desc.usage, desc.size);
        Ok(buffer)
    }

    fn count_buffer(&self, usage: wgpu::BufferUsages, bytes: u64) {
        if let Some(class) = MemoryClass::of_buffer(usage) {
            self.memory.add(class, bytes);
        }
    }

    /// The GPU memory this context's `create_*` functions created and that is still held, by
    /// class ([`crate::memory`]), with wgpu's allocator report where the backend gives one.
    pub fn gpu_memory(&self) -> GpuMemory {
        GpuMemory::of(&self.memory, &self.device)
    }

    /// A guard that takes `texture`'s bytes out of [`GpuContext::gpu_memory`] when dropped:
    /// for resources replaced during a run (render targets on resize).
    pub fn release_on_drop(&self, texture: &wgpu::Texture) -> MemoryRelease {
        MemoryRelease::for_texture(Arc::clone(&self.memory), texture)
    }

    /// A guard that takes `buffer`'s bytes out of [`GpuContext::gpu_memory`] when dropped: for
    /// buffers that live for one operation (a compute dispatch and its read-back).
    pub fn release_buffer_on_drop(&self, buffer: &wgpu::Buffer) -> Option<MemoryRelease> {
        let class = MemoryClass::of_buffer(buffer.usage())?;
        Some(self.release_bytes_on_drop(class, buffer.size()))
    }

    /// A guard that takes `bytes` of `class` out of [`GpuContext::gpu_memory`] when dropped.
    pub fn release_bytes_on_drop(&self, class: MemoryClass, bytes: u64) -> MemoryRelease {
        MemoryRelease::new(Arc::clone(&self.memory), class, bytes)
    }

    /// Creates a buffer holding `contents` (size checked, inside error scopes).
    ///
    /// # Errors
    /// [`RenderError::LimitExceeded`] or [`RenderError::Gpu`]; [`RenderError::DeviceLost`]
    /// (never wgpu's panic: [`crate::buffer_init::create_buffer_init`]).
    pub fn create_buffer_init(
        &self,
        label: &str,
        contents: &[u8],
        usage: wgpu::BufferUsages,
    ) -> Result<wgpu::Buffer> {
        self.check_buffer_size(label, contents.len() as u64, usage)?;
        let doing = || format!("creating buffer `{label}` ({} bytes)", contents.len());
        let (buffer, failed) = self.scoped(doing, || {
            crate::buffer_init::create_buffer_init(
                &self.device,
                &wgpu::util::BufferInitDescriptor {
                    label: Some(label),
                    contents,
                    usage,
                },
            )
        })?;
        if let Some(message) = failed {
            // Unmappable at creation: the device is lost, which the poll lets wgpu report.
            self.poll_device(&doing())?;
            return Err(RenderError::Gpu {
                context: doing(),
                message,
            });
        }
        // `create_buffer_init` pads to COPY_BUFFER_ALIGNMENT, as the buffer's size says.
        self.count_buffer(usage, buffer.size());
        Ok(buffer)
    }

    /// Creates a 2D texture after checking its size, inside error scopes.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`], [`RenderError::LimitExceeded`] or [`RenderError::Gpu`].
    pub fn create_texture(&self, desc: &wgpu::TextureDescriptor<'_>) -> Result<wgpu::Texture> {
        let what = desc.label.unwrap_or("texture");
        self.check_texture_size(what, desc.size.width, desc.size.height)?;
        let texture = self.scoped(
            || {
                format!(
                    "creating texture `{what}` {}x{} {:?}",
                    desc.size.width, desc.size.height, desc.format
                )
            },
            || self.device.create_texture(desc),
        )?;
        let bytes = texture_bytes(
            desc.size,
            desc.format,
            desc.mip_level_count,
            desc.sample_count,
        );
        self.memory.add(MemoryClass::of_texture(desc.usage), bytes);
        Ok(texture)
    }
}

/// The `pipeline_compile` span around one pipeline or shader module creation.
fn pipeline_span(label: Option<&str>) -> tracing::span::EnteredSpan {
    tracing::info_span!("pipeline_compile", label = label.unwrap_or("unlabelled")).entered()
}

/// Picks the adapter: the one named by `WGPU_ADAPTER_NAME` if set, else the best one.
async fn select_adapter(
    instance: &wgpu::Instance,
    surface: Option<&wgpu::Surface<'_>>,
) -> Result<wgpu::Adapter> {
    let adapters = instance.enumerate_adapters(wgpu::Backends::all()).await;
    let names: Vec<String> = adapters
        .iter()
        .map(|a| {
            let info = a.get_info();
            format!("`{}` ({:?})", info.name, info.backend)
        })
        .collect();
    let found = if names.is_empty() {
        "no adapters found".to_owned()
    } else {
        format!("found {}", names.join(", "))
    };
    if let Ok(wanted) = std::env::var("WGPU_ADAPTER_NAME") {
        let wanted_lower = wanted.to_lowercase();
        return adapters
            .into_iter()
            .filter(|a| surface.is_none_or(|s| a.is_surface_supported(s)))
            .find(|a| a.get_info().name.to_lowercase().contains(&wanted_lower))
            .ok_or_else(|| RenderError::NoAdapter {
                reason: format!("WGPU_ADAPTER_NAME=`{wanted}` matches none; {found}"),
            });
    }
    instance
        .request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::from_env()
                .unwrap_or(wgpu::PowerPreference::HighPerformance),
            force_fallback_adapter: false,
            compatible_surface: surface,
            apply_limit_buckets: false,
        })
        .await
        .map_err(|e| RenderError::NoAdapter {
            reason: format!("{e}; {found}"),
        })
}
