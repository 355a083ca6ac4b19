//! [`ScenePipelines`]: the pipelines of one scene pass (forward, crowd, sky, sea) — its shader,
//! pipeline layout and fixed state, and the [`PipelineCache`] of every key warmed so far. The
//! passes describe their shader once here instead of each writing a `*_pipeline(ctx, layout,
//! module, key)` function and calling it from `new` and `resize`.

use crate::context::GpuContext;
use crate::error::Result;
use crate::pipeline_cache::{scene_pipeline, PipelineCache, PipelineKey, SceneShader};

/// A scene pass's shader and the pipelines built from it by key.
pub struct ScenePipelines {
    label: &'static str,
    layout: wgpu::PipelineLayout,
    module: wgpu::ShaderModule,
    /// Vertex and fragment entry points.
    entries: (&'static str, &'static str),
    buffers: Vec<Option<wgpu::VertexBufferLayout<'static>>>,
    /// `Some(compare)`: depth tested with `compare`, never written ([`SceneShader::depth_read_only`]).
    depth_read_only: Option<wgpu::CompareFunction>,
    cache: PipelineCache,
}

impl ScenePipelines {
    /// The pipelines of `module`'s `entries` (vertex, fragment) with `layout`, labelled `label`;
    /// no vertex buffers and depth written until [`Self::buffers`] / [`Self::depth_read_only`]
    /// say otherwise. Builds nothing until [`Self::warm`].
    pub fn new(
        label: &'static str,
        layout: wgpu::PipelineLayout,
        module: wgpu::ShaderModule,
        entries: (&'static str, &'static str),
    ) -> Self {
        Self {
            label,
            layout,
            module,
            entries,
            buffers: Vec::new(),
            depth_read_only: None,
            cache: PipelineCache::new(),
        }
    }

    /// The vertex buffers every pipeline reads.
    pub fn buffers(self, buffers: &[Option<wgpu::VertexBufferLayout<'static>>]) -> Self {
        Self {
            buffers: buffers.to_vec(),
            ..self
        }
    }

    /// Depth tested with `compare` and never written (sky, sea).
    pub fn depth_read_only(self, compare: wgpu::CompareFunction) -> Self {
        Self {
            depth_read_only: Some(compare),
            ..self
        }
    }

    /// Builds the pipelines of `keys` not built yet (counted by the context).
    ///
    /// # Errors
    /// [`crate::RenderError::Gpu`] when a pipeline fails to build.
    pub fn warm(
        &mut self,
        ctx: &GpuContext,
        keys: impl IntoIterator<Item = PipelineKey>,
    ) -> Result<()> {
        let mut shader = SceneShader::new(self.label, &self.layout, &self.module, self.entries)
            .buffers(&self.buffers);
        if let Some(compare) = self.depth_read_only {
            shader = shader.depth_read_only(compare);
        }
        self.cache.warm(ctx, self.label, keys, |key| {
            scene_pipeline(ctx, &shader, key)
        })
    }

    /// The pipeline of `key`, if warmed.
    pub fn get(&self, key: &PipelineKey) -> Option<&wgpu::RenderPipeline> {
        self.cache.get(key)
    }

    /// Pipelines built so far.
    pub fn len(&self) -> usize {
        self.cache.len()
    }

    /// Whether none is built yet.
    pub fn is_empty(&self) -> bool {
        self.cache.is_empty()
    }
}
