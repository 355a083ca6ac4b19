//! CPU mesh data ([`MeshData`]) and its GPU copy ([`GpuMesh`]).

use bytemuck::{Pod, Zeroable};

use crate::context::GpuContext;
use crate::error::{RenderError, Result};

/// An indexed triangle list on the CPU, one entry per vertex in each attribute array.
///
/// Conventions (as glTF 2.0 §3.7.2.1): right-handed, Y up, metres;
/// counter-clockwise front faces; `uvs` with (0,0) at the top-left of the
/// texture; `tangents` xyz + w = bitangent sign (`bitangent = cross(normal, tangent.xyz) * w`).
///
/// `normals` must have one entry per position. `uvs`, `tangents` and `colors`
/// may be empty (defaults: `[0,0]`, `[1,0,0,1]`, `[1,1,1,1]`), else one per position.
/// `colors` are linear RGBA and multiply the material's base colour (terrain
/// paints its sand/grass/rock this way).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshData {
    /// Vertex positions, metres, in the mesh's local space.
    pub positions: Vec<[f32; 3]>,
    /// Unit normals.
    pub normals: Vec<[f32; 3]>,
    /// Texture coordinates.
    pub uvs: Vec<[f32; 2]>,
    /// Unit tangents, w = ±1 handedness.
    pub tangents: Vec<[f32; 4]>,
    /// Linear RGBA vertex colours.
    pub colors: Vec<[f32; 4]>,
    /// Triangle list, three indices per counter-clockwise triangle.
    pub indices: Vec<u32>,
}

/// One interleaved vertex as the GPU sees it (64 bytes; locations 0..=4 in `forward.wgsl`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct Vertex {
    /// `@location(0)` position.
    pub position: [f32; 3],
    /// `@location(1)` normal.
    pub normal: [f32; 3],
    /// `@location(2)` uv.
    pub uv: [f32; 2],
    /// `@location(3)` tangent.
    pub tangent: [f32; 4],
    /// `@location(4)` linear RGBA colour.
    pub color: [f32; 4],
}

impl Vertex {
    /// Attributes at shader locations 0..=4.
    pub const ATTRIBUTES: [wgpu::VertexAttribute; 5] = wgpu::vertex_attr_array![
        0 => Float32x3, 1 => Float32x3, 2 => Float32x2, 3 => Float32x4, 4 => Float32x4
    ];

    /// The vertex buffer layout for pipelines that draw [`GpuMesh`]es.
    pub fn layout() -> wgpu::VertexBufferLayout<'static> {
        wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<Vertex>() as wgpu::BufferAddress,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &Self::ATTRIBUTES,
        }
    }
}

impl MeshData {
    /// Number of triangles (`indices.len() / 3`).
    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }

    /// Checks attribute lengths, the index count (a multiple of 3, not zero)
    /// and that every index is inside the vertex range.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] naming the first problem.
    pub fn validate(&self) -> Result<()> {
        let n = self.positions.len();
        let optional = [
            ("uvs", self.uvs.len()),
            ("tangents", self.tangents.len()),
            ("colors", self.colors.len()),
        ];
        if self.normals.len() != n {
            return Err(RenderError::InvalidInput(format!(
                "mesh has {n} positions but {} normals",
                self.normals.len()
            )));
        }
        for (name, len) in optional {
            if len != 0 && len != n {
                return Err(RenderError::InvalidInput(format!(
                    "mesh has {n} positions but {len} {name} (expected {n} or 0)"
                )));
            }
        }
        if self.indices.is_empty() || !self.indices.len().is_multiple_of(3) {
            return Err(RenderError::InvalidInput(format!(
                "mesh index count {} is not a positive multiple of 3",
                self.indices.len()
            )));
        }
        if let Some((i, &index)) = self
            .indices
            .iter()
            .enumerate()
            .find(|(_, &v)| v as usize >= n)
        {
            return Err(RenderError::InvalidInput(format!(
                "mesh index {i} is {index}, but there are only {n} vertices"
            )));
        }
        Ok(())
    }

    /// Interleaves the attributes into GPU vertices, filling absent optional attributes with defaults.
    pub fn vertices(&self) -> Vec<Vertex> {
        (0..self.positions.len())
            .map(|i| Vertex {
                position: self.positions[i],
                normal: self.normals.get(i).copied().unwrap_or([0.0, 1.0, 0.0]),
                uv: self.uvs.get(i).copied().unwrap_or([0.0, 0.0]),
                tangent: self
                    .tangents
                    .get(i)
                    .copied()
                    .unwrap_or([1.0, 0.0, 0.0, 1.0]),
                color: self.colors.get(i).copied().unwrap_or([1.0; 4]),
            })
            .collect()
    }
}

/// A mesh uploaded to the GPU: interleaved [`Vertex`] buffer + `u32` index buffer.
#[derive(Debug)]
pub struct GpuMesh {
    /// Interleaved [`Vertex`]es (`VERTEX` usage).
    pub vertex_buffer: wgpu::Buffer,
    /// `u32` triangle-list indices (`INDEX` usage).
    pub index_buffer: wgpu::Buffer,
    /// First index drawn (0 for a whole mesh; see [`GpuMesh::range`]).
    pub first_index: u32,
    /// Number of indices drawn from `first_index`.
    pub index_count: u32,
    /// Number of vertices.
    pub vertex_count: u32,
}

impl GpuMesh {
    /// This mesh drawing only `indices` of its own index range (clamped to it), sharing its
    /// buffers (nothing is copied or uploaded): e.g. a terrain chunk's ground without its
    /// skirt, or one side of the skirt.
    pub fn range(&self, indices: std::ops::Range<u32>) -> Self {
        let end = indices.end.min(self.index_count);
        let start = indices.start.min(end);
        Self {
            vertex_buffer: self.vertex_buffer.clone(),
            index_buffer: self.index_buffer.clone(),
            first_index: self.first_index + start,
            index_count: end - start,
            vertex_count: self.vertex_count,
        }
    }

    /// The index range a draw of this mesh draws.
    pub fn indices(&self) -> std::ops::Range<u32> {
        self.first_index..self.first_index + self.index_count
    }

    /// Validates and uploads `mesh`.
    ///
    /// # Errors
    /// [`RenderError::InvalidInput`] from [`MeshData::validate`], [`RenderError::LimitExceeded`], [`RenderError::Gpu`].
    pub fn upload(ctx: &GpuContext, mesh: &MeshData, label: &str) -> Result<Self> {
        mesh.validate()?;
        let too_many =
            |what: &str| RenderError::InvalidInput(format!("mesh `{label}` has too many {what}"));
        let vertex_count = u32::try_from(mesh.positions.len()).map_err(|_| too_many("vertices"))?;
        let index_count = u32::try_from(mesh.indices.len()).map_err(|_| too_many("indices"))?;
        let vertices = mesh.vertices();
        let vertex_buffer = ctx.create_buffer_init(
            &format!("{label} vertices"),
            bytemuck::cast_slice(&vertices),
            wgpu::BufferUsages::VERTEX,
        )?;
        let index_buffer = ctx.create_buffer_init(
            &format!("{label} indices"),
            bytemuck::cast_slice(&mesh.indices),
            wgpu::BufferUsages::INDEX,
        )?;
        Ok(Self {
            vertex_buffer,
            index_buffer,
            first_index: 0,
            index_count,
            vertex_count,
        })
    }

    /// Number of triangles.
    pub fn triangle_count(&self) -> u32 {
        self.index_count / 3
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertex_is_64_bytes_and_matches_attribute_offsets() {
        assert_eq!(std::mem::size_of::<Vertex>(), 64);
        let offsets: Vec<u64> = Vertex::ATTRIBUTES.iter().map(|a| a.offset).collect();
        assert_eq!(
            offsets,
            vec![
                std::mem::offset_of!(Vertex, position) as u64,
                std::mem::offset_of!(Vertex, normal) as u64,
                std::mem::offset_of!(Vertex, uv) as u64,
                std::mem::offset_of!(Vertex, tangent) as u64,
                std::mem::offset_of!(Vertex, color) as u64,
            ]
        );
    }

    #[test]
    fn validate_rejects_bad_indices_and_lengths() {
        let mut mesh = MeshData {
            positions: vec![[0.0; 3]; 3],
            normals: vec![[0.0, 1.0, 0.0]; 3],
            indices: vec![0, 1, 2],
            ..Default::default()
        };
        assert!(mesh.validate().is_ok());
        mesh.indices = vec![0, 1, 3];
        assert!(mesh
            .validate()
            .unwrap_err()
            .to_string()
            .contains("index 2 is 3"));
        mesh.indices = vec![0, 1];
        assert!(mesh.validate().is_err());
        mesh.indices = vec![0, 1, 2];
        mesh.uvs = vec![[0.0; 2]; 2];
        assert!(mesh.validate().unwrap_err().to_string().contains("2 uvs"));
    }
}
