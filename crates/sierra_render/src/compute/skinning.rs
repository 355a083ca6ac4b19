//! GPU linear blend skinning (glTF 2.0 §3.7.3.3; seed 000's skinning shader,
//! moved to a compute pass): [`Skinning::skin`] writes every skinned draw's
//! posed vertices into that instance's own vertex buffer, then returns plain
//! [`DrawItem`]s, so skinned meshes go through the forward pass with the same
//! lighting, shadows and materials as static ones.
//!
//! Per frame: all characters' palettes are uploaded once into one storage
//! buffer (`[total joints]` column-major `Mat4`, each = glTF joint matrix
//! `global joint transform × inverse bind matrix`, in the model space of the
//! draw's `model` matrix), and each draw indexes it with `palette_offset`.
//! Up to 4 influences per vertex; positions, normals and tangents are skinned.
//! Morph targets (glTF 2.0 §3.7.2.2) are applied on the GPU before skinning, as glTF orders
//! them: each instance keeps its `[target][vertex]` deltas on the GPU, and
//! [`Skinning::set_morph_weights`] writes its `[target]` weights (one small write per change).
//! Palettes have no joint limit beyond the device's storage buffer size
//! (`max_storage_buffer_binding_size`, reported as [`RenderError::LimitExceeded`]).
//!
//! [`skin_on_cpu`] is the same computation on the CPU: the reference GPU tests compare against.

use glam::{Mat4, Vec3, Vec4};

use crate::compute::skinned_bounds::JointBounds;
use crate::context::GpuContext;
use crate::error::{RenderError, Result};
use crate::frame::{DrawItem, MeshHandle};
use crate::gpu_util;
use crate::mesh::{GpuMesh, MeshData};
use crate::mesh_store::MeshStore;

const SKINNING_WGSL: &str = include_str!("skinning.wgsl");
const WORKGROUP: u32 = 64;

pub use crate::frame::{SkinnedDrawItem, SkinnedMeshHandle};
pub use crate::skinned_mesh::{MorphTarget, SkinnedMeshData};

struct Instance {
    output: MeshHandle,
    vertex_count: u32,
    joint_count: u32,
    /// Morph targets (0: none).
    morph_count: u32,
    /// `[max(morph_count, 1)]` f32 weights.
    morph_weights: wgpu::Buffer,
    /// Per-joint bind-space boxes, for the posed bounds.
    bounds: JointBounds,
    /// Bounds of the last [`Skinning::skin`] of this instance, in its draw's model space.
    posed: Option<(Vec3, Vec3)>,
    params: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
}

/// `[vertex]` the four joints and the four weights' bits, as `skinning.wgsl` reads them.
fn packed_influences(mesh: &SkinnedMeshData) -> Vec<[u32; 8]> {
    mesh.joints
        .iter()
        .zip(&mesh.weights)
        .map(|(j, w)| {
            let w = w.map(f32::to_bits);
            [j[0], j[1], j[2], j[3], w[0], w[1], w[2], w[3]]
        })
        .collect()
}

/// `[target][vertex]` 9 floats (position, normal, tangent deltas); a zero placeholder when the
/// mesh has no targets (bindings cannot be empty).
fn packed_morph_deltas(mesh: &SkinnedMeshData) -> Vec<f32> {
    let vertex_count = mesh.mesh.positions.len();
    let mut deltas = Vec::with_capacity(mesh.morph_targets.len() * vertex_count * 9);
    for target in &mesh.morph_targets {
        for v in 0..vertex_count {
            let get = |a: &[Vec3]| a.get(v).copied().unwrap_or(Vec3::ZERO).to_array();
            deltas.extend(get(&target.positions));
            deltas.extend(get(&target.normals));
            deltas.extend(get(&target.tangents));
        }
    }
    if deltas.is_empty() {
        deltas.resize(9, 0.0);
    }
    deltas
}

/// The skinning compute pass and its uploaded instances.
pub struct Skinning {
    pipeline: wgpu::ComputePipeline,
    instance_layout: wgpu::BindGroupLayout,
    palette_layout: wgpu::BindGroupLayout,
    palette: Option<(wgpu::Buffer, wgpu::BindGroup, u64)>,
    instances: Vec<Instance>,
    drawn: Vec<u32>,
}

fn storage_entry(binding: u32, read_only: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

impl Skinning {
    /// Compiles `skinning.wgsl`.
    ///
    /// # Errors
    /// [`RenderError::Gpu`] when the shader or pipeline fails validation.
    pub fn new(ctx: &GpuContext) -> Result<Self> {
        ctx.scoped(
            || "creating the skinning compute pipeline".to_owned(),
            || {
                let device = &ctx.device;
                let module = ctx.create_shader_module("skinning.wgsl", SKINNING_WGSL);
                let instance_layout =
                    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                        label: Some("skinning instance"),
                        entries: &[
                            storage_entry(0, true),
                            storage_entry(1, true),
                            wgpu::BindGroupLayoutEntry {
                                binding: 2,
                                visibility: wgpu::ShaderStages::COMPUTE,
                                ty: wgpu::BindingType::Buffer {
                                    ty: wgpu::BufferBindingType::Uniform,
                                    has_dynamic_offset: false,
                                    min_binding_size: None,
                                },
                                count: None,
                            },
                            storage_entry(3, false),
                            storage_entry(4, true),
                            storage_entry(5, true),
                        ],
                    });
                let palette_layout =
                    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                        label: Some("skinning palette"),
                        entries: &[storage_entry(0, true)],
                    });
                let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                    label: Some("skinning"),
                    bind_group_layouts: &[Some(&instance_layout), Some(&palette_layout)],
                    immediate_size: 0,
                });
                let pipeline = ctx.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some("skinning"),
                    layout: Some(&layout),
                    module: &module,
                    entry_point: Some("skin"),
                    compilation_options: Default::default(),
                    cache: None,
                });
                Self {
                    pipeline,
                    instance_layout,
                    palette_layout,
                    palette: None,
                    instances: Vec::new(),
                    drawn: Vec::new(),
                }
            },
        )
    }

    /// Uploads one skinned mesh instance: its bind pose and influences, and an
    /// output mesh registered in `meshes` (initially the bind pose).
    ///
    /// # Errors
    /// [`SkinnedMeshData::validate`]'s, [`RenderError::LimitExceeded`], [`RenderError::Gpu`].
    pub fn upload(
        &mut self,
        ctx: &GpuContext,
        meshes: &mut MeshStore,
        mesh: &SkinnedMeshData,
        label: &str,
    ) -> Result<SkinnedMeshHandle> {
        mesh.validate()?;
        let vertices = mesh.mesh.vertices();
        let vertex_count = vertices.len() as u32;
        let bytes: &[u8] = bytemuck::cast_slice(&vertices);
        // The read-only inputs of the skinning shader, labelled after the mesh.
        let input = |what: &str, contents: &[u8]| {
            ctx.create_buffer_init(
                &format!("{label} {what}"),
                contents,
                wgpu::BufferUsages::STORAGE,
            )
        };
        let bind = input("bind pose", bytes)?;
        let influences = input("influences", bytemuck::cast_slice(&packed_influences(mesh)))?;
        // COPY_SRC: tests read the skinned vertices back.
        let output = ctx.create_buffer_init(
            &format!("{label} skinned vertices"),
            bytes,
            wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        )?;
        let morph_count = mesh.morph_targets.len() as u32;
        let morph_deltas = input(
            "morph deltas",
            bytemuck::cast_slice(&packed_morph_deltas(mesh)),
        )?;
        let morph_weights = ctx.create_buffer_init(
            &format!("{label} morph weights"),
            bytemuck::cast_slice(&vec![0f32; morph_count.max(1) as usize]),
            wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        )?;
        let index_buffer = ctx.create_buffer_init(
            &format!("{label} indices"),
            bytemuck::cast_slice(&mesh.mesh.indices),
            wgpu::BufferUsages::INDEX,
        )?;
        let params = ctx.create_buffer(&wgpu::BufferDescriptor {
            label: Some("skinning params"),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })?;
        let bind_group = ctx.scoped(
            || format!("binding skinned mesh `{label}`"),
            || {
                let buffers = [
                    &bind,
                    &influences,
                    &params,
                    &output,
                    &morph_deltas,
                    &morph_weights,
                ];
                let resources = buffers.map(|b| b.as_entire_binding());
                gpu_util::bind_group(&ctx.device, label, &self.instance_layout, &resources)
            },
        )?;
        let output = meshes.add_gpu_mesh(GpuMesh {
            vertex_buffer: output,
            index_buffer,
            first_index: 0,
            index_count: mesh.mesh.indices.len() as u32,
            vertex_count,
        });
        self.instances.push(Instance {
            output,
            vertex_count,
            joint_count: mesh.joint_count,
            morph_count,
            morph_weights,
            bounds: JointBounds::new(mesh),
            posed: None,
            params,
            bind_group,
        });
        Ok(SkinnedMeshHandle(self.instances.len() as u32 - 1))
    }

    /// Sets the morph target weights of `handle` (`[target]`, glTF `weights`: usually in
    /// `[0, 1]`, any finite value allowed) used by the next [`Skinning::skin`]; they stay until set
    /// again (all 0 after upload). One small buffer write.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for an unknown handle, a length other than the mesh's
    /// morph target count, or a non-finite weight.
    pub fn set_morph_weights(
        &self,
        ctx: &GpuContext,
        handle: SkinnedMeshHandle,
        weights: &[f32],
    ) -> Result<()> {
        let Some(inst) = self.instances.get(handle.0 as usize) else {
            return Err(RenderError::InvalidInput(format!(
                "skinned mesh {} was never uploaded ({} exist)",
                handle.0,
                self.instances.len()
            )));
        };
        if weights.len() != inst.morph_count as usize {
            return Err(RenderError::InvalidInput(format!(
                "skinned mesh {} has {} morph targets but {} weights were given",
                handle.0,
                inst.morph_count,
                weights.len()
            )));
        }
        if let Some(i) = weights.iter().position(|w| !w.is_finite()) {
            return Err(RenderError::InvalidInput(format!(
                "morph weight {i} of skinned mesh {} is {}",
                handle.0, weights[i]
            )));
        }
        if !weights.is_empty() {
            ctx.queue
                .write_buffer(&inst.morph_weights, 0, bytemuck::cast_slice(weights));
        }
        Ok(())
    }

    /// Bounds `(min, max)` of `handle`'s vertices as the last [`Skinning::skin`] posed them, in
    /// the space its draw's `model` maps from (world space for the game's world-space palettes),
    /// from the posed joints ([`JointBounds::posed_bounds`]; morph weights in `[0, 1]`): what
    /// frustum culling needs for the output mesh ([`Skinning::output_mesh`]). `None` before the
    /// first skin or for an unknown handle.
    pub fn posed_bounds(&self, handle: SkinnedMeshHandle) -> Option<(Vec3, Vec3)> {
        self.instances.get(handle.0 as usize)?.posed
    }

    /// The plain mesh a skinned instance's posed vertices are written to.
    pub fn output_mesh(&self, handle: SkinnedMeshHandle) -> Option<MeshHandle> {
        self.instances.get(handle.0 as usize).map(|i| i.output)
    }

    /// Uploads `palettes` (one write), skins every draw in one compute pass
    /// (submitted before the caller renders), and appends one [`DrawItem`] per
    /// draw to `out` for [`crate::FrameData::draws`]: [`Skinning::prepare`], then
    /// [`Skinning::record`] into an encoder of its own.
    ///
    /// # Errors
    /// As [`Skinning::prepare`].
    pub fn skin(
        &mut self,
        ctx: &GpuContext,
        palettes: &[Mat4],
        draws: &[SkinnedDrawItem],
        out: &mut Vec<DrawItem>,
    ) -> Result<()> {
        self.prepare(ctx, (palettes, draws), out)?;
        if draws.is_empty() {
            return Ok(());
        }
        ctx.scoped(
            || "skinning compute pass".to_owned(),
            || {
                let mut encoder =
                    ctx.device
                        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                            label: Some("skinning"),
                        });
                self.record(&mut encoder, draws, None);
                ctx.queue.submit([encoder.finish()]);
            },
        )
    }

    /// Encodes the skinning compute pass of `draws` (those given to the last
    /// [`Skinning::prepare`]) into `encoder`, ahead of the passes that draw the outputs;
    /// `timestamps`, when given, time the compute pass. Morph targets are blended in the same
    /// dispatches (the weights were written by [`Skinning::set_morph_weights`]).
    pub fn record(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        draws: &[SkinnedDrawItem],
        timestamps: Option<wgpu::ComputePassTimestampWrites<'_>>,
    ) {
        let Some((_, palette_group, _)) = &self.palette else {
            return;
        };
        if draws.is_empty() {
            return;
        }
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("skinning"),
            timestamp_writes: timestamps,
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(1, palette_group, &[]);
        for d in draws {
            if let Some(inst) = self.instances.get(d.mesh.0 as usize) {
                pass.set_bind_group(0, &inst.bind_group, &[]);
                pass.dispatch_workgroups(inst.vertex_count.div_ceil(WORKGROUP), 1, 1);
            }
        }
    }

    /// Checks `draws`, uploads `palettes` (one write) and each draw's parameters, computes each
    /// instance's posed bounds, and appends one [`DrawItem`] per draw (its output mesh) to `out`;
    /// the compute pass itself is encoded by [`Skinning::record`].
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] for an unknown handle, a palette range
    /// outside `palettes`, or an instance drawn twice in one frame;
    /// [`RenderError::LimitExceeded`] when the palettes exceed the storage buffer limit.
    pub fn prepare(
        &mut self,
        ctx: &GpuContext,
        (palettes, draws): (&[Mat4], &[SkinnedDrawItem]),
        out: &mut Vec<DrawItem>,
    ) -> Result<()> {
        if draws.is_empty() {
            return Ok(());
        }
        self.check_draws(palettes, draws)?;
        let bytes: &[u8] = bytemuck::cast_slice(palettes);
        self.reserve_palettes(ctx, palettes.len(), bytes.len() as u64)?;
        let Some((buffer, _, _)) = &self.palette else {
            return Ok(());
        };
        ctx.queue.write_buffer(buffer, 0, bytes);
        for d in draws {
            let inst = &mut self.instances[d.mesh.0 as usize];
            let start = d.palette_offset as usize;
            inst.posed = inst
                .bounds
                .posed_bounds(&palettes[start..start + inst.joint_count as usize]);
            let params = [
                d.palette_offset,
                inst.vertex_count,
                inst.joint_count,
                inst.morph_count,
            ];
            ctx.queue
                .write_buffer(&inst.params, 0, bytemuck::cast_slice(&params));
        }
        out.extend(draws.iter().map(|d| {
            DrawItem::new(
                self.instances[d.mesh.0 as usize].output,
                d.model,
                d.material,
            )
        }));
        Ok(())
    }

    /// Checks that every draw names an uploaded instance, once, and a palette range inside
    /// `palettes`.
    fn check_draws(&mut self, palettes: &[Mat4], draws: &[SkinnedDrawItem]) -> Result<()> {
        self.drawn.clear();
        for d in draws {
            let Some(inst) = self.instances.get(d.mesh.0 as usize) else {
                return Err(RenderError::InvalidInput(format!(
                    "skinned mesh {} was never uploaded ({} exist)",
                    d.mesh.0,
                    self.instances.len()
                )));
            };
            let end = u64::from(d.palette_offset) + u64::from(inst.joint_count);
            if end > palettes.len() as u64 {
                return Err(RenderError::InvalidInput(format!(
                    "skinned draw of mesh {} needs palette entries {}..{end}, but the frame has {}",
                    d.mesh.0,
                    d.palette_offset,
                    palettes.len()
                )));
            }
            if self.drawn.contains(&d.mesh.0) {
                return Err(RenderError::InvalidInput(format!(
                    "skinned mesh {} drawn twice in one frame: upload one instance per character",
                    d.mesh.0
                )));
            }
            self.drawn.push(d.mesh.0);
        }
        Ok(())
    }

    /// Grows the palette buffer to hold `needed` bytes (`joints` matrices) when smaller.
    fn reserve_palettes(&mut self, ctx: &GpuContext, joints: usize, needed: u64) -> Result<()> {
        let limit = ctx.device.limits().max_storage_buffer_binding_size;
        if needed > limit {
            return Err(RenderError::LimitExceeded {
                what: format!("skinning palette ({joints} joints, bytes)"),
                requested: needed,
                limit,
                limit_name: "max_storage_buffer_binding_size",
            });
        }
        if self
            .palette
            .as_ref()
            .is_none_or(|(_, _, cap)| *cap < needed)
        {
            let capacity = needed.next_power_of_two().min(limit).max(needed);
            let buffer = ctx.create_buffer(&wgpu::BufferDescriptor {
                label: Some("skinning palettes"),
                size: capacity,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })?;
            let group = gpu_util::bind_group(
                &ctx.device,
                "skinning palettes",
                &self.palette_layout,
                &[buffer.as_entire_binding()],
            );
            self.palette = Some((buffer, group, capacity));
        }
        Ok(())
    }
}

/// Skins `mesh` on the CPU with `palette` (`[joint_count]`, same convention as
/// the GPU pass), without morphing: the reference for tests.
pub fn skin_on_cpu(mesh: &SkinnedMeshData, palette: &[Mat4]) -> MeshData {
    skin_on_cpu_morphed(mesh, &[], palette)
}

/// Morphs `mesh` by `morph_weights` (`[target]`; missing trailing weights count as 0) and skins
/// the result with `palette`, on the CPU, as the GPU pass does (deltas added to the bind pose,
/// then linear blend skinning; normals and tangents renormalised).
pub fn skin_on_cpu_morphed(
    mesh: &SkinnedMeshData,
    morph_weights: &[f32],
    palette: &[Mat4],
) -> MeshData {
    let get = |j: u32| {
        palette
            .get(j.min(mesh.joint_count.saturating_sub(1)) as usize)
            .copied()
            .unwrap_or(Mat4::IDENTITY)
    };
    let mut out = mesh.mesh.clone();
    for v in 0..mesh.mesh.positions.len() {
        let (j, w) = (mesh.joints[v], mesh.weights[v]);
        let m = get(j[0]) * w[0] + get(j[1]) * w[1] + get(j[2]) * w[2] + get(j[3]) * w[3];
        let mut position = Vec3::from(mesh.mesh.positions[v]);
        let mut normal = Vec3::from(mesh.mesh.normals[v]);
        let mut tangent = mesh
            .mesh
            .tangents
            .get(v)
            .map_or(Vec3::ZERO, |t| Vec4::from(*t).truncate());
        for (target, &weight) in mesh.morph_targets.iter().zip(morph_weights) {
            let delta = |a: &[Vec3]| a.get(v).copied().unwrap_or(Vec3::ZERO) * weight;
            position += delta(&target.positions);
            normal += delta(&target.normals);
            tangent += delta(&target.tangents);
        }
        out.positions[v] = m.transform_point3(position).to_array();
        out.normals[v] = m.transform_vector3(normal).normalize_or(Vec3::Y).to_array();
        if let Some(t) = mesh.mesh.tangents.get(v) {
            let t3 = m.transform_vector3(tangent).normalize_or(Vec3::X);
            out.tangents[v] = t3.extend(t[3]).to_array();
        }
    }
    out
}

/// Smooth (area-weighted) vertex normals of an indexed triangle list, for meshes
/// without NORMAL (Fox): keeps the indexing so skin influences stay per vertex.
pub fn smooth_normals(positions: &[[f32; 3]], indices: &[u32]) -> Vec<[f32; 3]> {
    let mut normals = vec![Vec3::ZERO; positions.len()];
    for tri in indices.chunks_exact(3) {
        let idx = [tri[0] as usize, tri[1] as usize, tri[2] as usize];
        if idx.iter().any(|&i| i >= positions.len()) {
            continue;
        }
        let p = idx.map(|i| Vec3::from(positions[i]));
        // The cross product's length is twice the area: larger faces weigh more.
        let n = (p[1] - p[0]).cross(p[2] - p[0]);
        for i in idx {
            normals[i] += n;
        }
    }
    normals
        .into_iter()
        .map(|n| n.normalize_or(Vec3::Y).to_array())
        .collect()
}
