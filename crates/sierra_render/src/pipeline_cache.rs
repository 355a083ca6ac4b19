//! [`PipelineCache`]: a pass's render pipelines by [`PipelineKey`], in the manner of Bevy's
//! specialised pipelines: one pipeline per combination of the state a draw needs (sample count,
//! blending, culling and winding, wireframe, vertex layout), created once and looked up by key
//! when recording.
//!
//! Passes **pre-warm** their caches when they are created and when the targets change (a
//! level's MSAA setting at load): every key the pass can meet at that sample count is built
//! then, so frames look pipelines up and never compile one. Creations go through
//! [`GpuContext::create_render_pipeline`], which counts them ([`GpuContext::creation_counts`],
//! `stats.json`'s `pipelines_created`) and marks each in a `pipeline_compile` trace span;
//! switching back to a sample count already warmed creates nothing.

use std::collections::HashMap;

use crate::context::GpuContext;
use crate::error::Result;
use crate::targets::{DEPTH_FORMAT, HDR_FORMAT};

/// The vertex input a pipeline reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VertexLayout {
    /// No vertex buffer (full-screen triangles, procedural geometry).
    #[default]
    None,
    /// [`crate::Vertex`] per vertex.
    Mesh,
    /// [`crate::Vertex`] per vertex plus the crowd's per-instance data.
    MeshInstanced,
}

/// What specialises a pipeline of a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PipelineKey {
    /// Samples per pixel of the targets ([`crate::RenderTargets::sample_count`]).
    pub sample_count: u32,
    /// Alpha-blended (no depth writes) rather than opaque.
    pub blend: bool,
    /// No back-face culling.
    pub double_sided: bool,
    /// Clockwise front faces (a model matrix with a negative determinant).
    pub mirrored: bool,
    /// Lines instead of filled triangles.
    pub wireframe: bool,
    /// The vertex input.
    pub vertex_layout: VertexLayout,
}

impl PipelineKey {
    /// Opaque, single-sided, counter-clockwise, filled, at `sample_count` samples, reading
    /// `vertex_layout`.
    pub fn new(sample_count: u32, vertex_layout: VertexLayout) -> Self {
        Self {
            sample_count,
            blend: false,
            double_sided: false,
            mirrored: false,
            wireframe: false,
            vertex_layout,
        }
    }

    /// The front face this key draws with.
    pub fn front_face(&self) -> wgpu::FrontFace {
        if self.mirrored {
            wgpu::FrontFace::Cw
        } else {
            wgpu::FrontFace::Ccw
        }
    }

    /// The faces this key culls.
    pub fn cull_mode(&self) -> Option<wgpu::Face> {
        (!self.double_sided).then_some(wgpu::Face::Back)
    }

    /// The multisample state of this key.
    pub fn multisample(&self) -> wgpu::MultisampleState {
        wgpu::MultisampleState {
            count: self.sample_count,
            ..Default::default()
        }
    }
}

/// What a scene pass's pipelines (HDR colour and depth targets) share besides their key.
pub struct SceneShader<'a> {
    /// Pipeline label.
    pub label: &'a str,
    /// Pipeline layout.
    pub layout: &'a wgpu::PipelineLayout,
    /// Module holding both entry points.
    pub module: &'a wgpu::ShaderModule,
    /// Vertex entry point.
    pub vertex_entry: &'a str,
    /// Fragment entry point.
    pub fragment_entry: &'a str,
    /// Vertex buffers (as the key's [`VertexLayout`]).
    pub buffers: &'a [Option<wgpu::VertexBufferLayout<'a>>],
    /// Depth test.
    pub depth_compare: wgpu::CompareFunction,
    /// Whether opaque keys write depth (blended keys never do: they hide nothing behind them).
    pub depth_write: bool,
}

impl<'a> SceneShader<'a> {
    /// A shader drawing no vertex buffers, with `entries` = (vertex, fragment) entry points,
    /// testing depth with `Less` and writing it for opaque keys.
    pub fn new(
        label: &'a str,
        layout: &'a wgpu::PipelineLayout,
        module: &'a wgpu::ShaderModule,
        (vertex_entry, fragment_entry): (&'a str, &'a str),
    ) -> Self {
        Self {
            label,
            layout,
            module,
            vertex_entry,
            fragment_entry,
            buffers: &[],
            depth_compare: wgpu::CompareFunction::Less,
            depth_write: true,
        }
    }

    /// With `buffers` as vertex buffers.
    pub fn buffers(self, buffers: &'a [Option<wgpu::VertexBufferLayout<'a>>]) -> Self {
        Self { buffers, ..self }
    }

    /// Testing depth with `compare`, never writing it.
    pub fn depth_read_only(self, compare: wgpu::CompareFunction) -> Self {
        Self {
            depth_compare: compare,
            depth_write: false,
            ..self
        }
    }
}

/// The pipeline of `shader` specialised by `key`: alpha blending without depth writes for a
/// blended key, its sides and winding (a mirrored key's front faces are clockwise), line mode
/// for a wireframe key, its sample count.
pub fn scene_pipeline(
    ctx: &GpuContext,
    shader: &SceneShader<'_>,
    key: PipelineKey,
) -> wgpu::RenderPipeline {
    ctx.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(shader.label),
        layout: Some(shader.layout),
        vertex: wgpu::VertexState {
            module: shader.module,
            entry_point: Some(shader.vertex_entry),
            compilation_options: Default::default(),
            buffers: shader.buffers,
        },
        primitive: wgpu::PrimitiveState {
            topology: wgpu::PrimitiveTopology::TriangleList,
            front_face: key.front_face(),
            cull_mode: key.cull_mode(),
            polygon_mode: if key.wireframe {
                wgpu::PolygonMode::Line
            } else {
                wgpu::PolygonMode::Fill
            },
            ..Default::default()
        },
        depth_stencil: Some(wgpu::DepthStencilState {
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(shader.depth_write && !key.blend),
            depth_compare: Some(shader.depth_compare),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: key.multisample(),
        fragment: Some(wgpu::FragmentState {
            module: shader.module,
            entry_point: Some(shader.fragment_entry),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format: HDR_FORMAT,
                blend: key.blend.then_some(wgpu::BlendState::ALPHA_BLENDING),
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// Render pipelines by key.
#[derive(Debug, Default)]
pub struct PipelineCache {
    pipelines: HashMap<PipelineKey, wgpu::RenderPipeline>,
}

impl PipelineCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// A cache holding `pipeline` under `key` (a pass's first pipeline, built with the pass).
    pub fn with(key: PipelineKey, pipeline: wgpu::RenderPipeline) -> Self {
        let mut cache = Self::new();
        cache.insert(key, pipeline);
        cache
    }

    /// Caches `pipeline` (built by the caller, e.g. with the pass) under `key`.
    pub fn insert(&mut self, key: PipelineKey, pipeline: wgpu::RenderPipeline) {
        self.pipelines.insert(key, pipeline);
    }

    /// Builds, with `build`, the pipelines of the `keys` not cached yet, inside error scopes
    /// naming `what`; cached keys cost nothing.
    ///
    /// # Errors
    /// [`crate::RenderError::Gpu`] when a pipeline fails validation.
    pub fn warm(
        &mut self,
        ctx: &GpuContext,
        what: &str,
        keys: impl IntoIterator<Item = PipelineKey>,
        mut build: impl FnMut(PipelineKey) -> wgpu::RenderPipeline,
    ) -> Result<()> {
        let missing: Vec<PipelineKey> = keys
            .into_iter()
            .filter(|k| !self.pipelines.contains_key(k))
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        let built = ctx.scoped(
            || format!("creating the {what} pipelines"),
            || missing.iter().map(|&k| (k, build(k))).collect::<Vec<_>>(),
        )?;
        self.pipelines.extend(built);
        Ok(())
    }

    /// The pipeline of `key`, when warmed.
    pub fn get(&self, key: &PipelineKey) -> Option<&wgpu::RenderPipeline> {
        self.pipelines.get(key)
    }

    /// Pipelines cached.
    pub fn len(&self) -> usize {
        self.pipelines.len()
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.pipelines.is_empty()
    }
}
