//! Mesh primitives: vertex attributes, skin influences, morph targets.

use std::path::Path;

use glam::{Vec2, Vec3, Vec4};
use gltf::accessor::{DataType, Dimensions};
// Accessor types spelled as in glTF (`VEC3`), apart from glam's vector types.
use gltf::accessor::Dimensions::{Scalar, Vec2 as VEC2, Vec3 as VEC3, Vec4 as VEC4};
use gltf::mesh::Semantic;

use crate::accessor::{read_floats, Expect, Norm};
use crate::buffers::Buffers;
use crate::{Error, Result};

/// Position/normal/tangent deltas of one morph target (glTF 2.0 §3.7.2.2);
/// each present array has the primitive's vertex count.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MorphTarget {
    /// POSITION deltas (metres).
    pub positions: Vec<Vec3>,
    /// NORMAL deltas (empty when absent).
    pub normals: Vec<Vec3>,
    /// TANGENT deltas, xyz (empty when absent).
    pub tangents: Vec<Vec3>,
}

/// One drawable primitive (triangle list).
///
/// Every present attribute has `positions.len()` elements. Skin influences are
/// reduced to 4 per vertex: over all `JOINTS_n`/`WEIGHTS_n` sets the four
/// largest weights are kept and renormalised to sum to 1; a vertex whose
/// weights sum to 0 is bound to skin joint 0 with weight 1 (one warning per primitive).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImportedPrimitive {
    /// POSITION (metres, mesh space).
    pub positions: Vec<Vec3>,
    /// NORMAL, unit length (empty when absent: compute flat normals).
    pub normals: Vec<Vec3>,
    /// TANGENT, xyz unit + w handedness ±1 (empty when absent).
    pub tangents: Vec<Vec4>,
    /// TEXCOORD_0 (empty when absent).
    pub uvs: Vec<Vec2>,
    /// TEXCOORD_1 (empty when absent).
    pub uvs1: Vec<Vec2>,
    /// The UVs the primitive's material samples ([`ImportedPrimitive::draw_uvs`]): the
    /// `TEXCOORD_n` set of its [`crate::ImportedMaterial::primary_texture`] with that texture's
    /// `KHR_texture_transform` applied. Empty when the material has no texture (or for a
    /// primitive built in code): then `uvs` are drawn.
    pub texture_uvs: Vec<Vec2>,
    /// COLOR_0 as linear RGBA (empty when absent).
    pub colors: Vec<Vec4>,
    /// Skin joint indices (into the skin's `joints` array), 4 per vertex (empty when not skinned).
    pub joints: Vec<[u16; 4]>,
    /// Skin weights matching `joints`, summing to 1 (empty when not skinned).
    pub weights: Vec<Vec4>,
    /// Triangle list indices (generated 0..n when the primitive has none).
    pub indices: Vec<u32>,
    /// Index into [`crate::GltfAsset::materials`]; `None`: the glTF default material.
    pub material: Option<usize>,
    /// Morph targets.
    pub morph_targets: Vec<MorphTarget>,
    /// Accessor index of each `JOINTS_n` set (for error messages).
    pub joint_accessors: Vec<usize>,
}

/// A glTF mesh.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImportedMesh {
    /// Mesh name.
    pub name: String,
    /// Primitives.
    pub primitives: Vec<ImportedPrimitive>,
    /// Default morph weights (`[morph target count]`, zeros when the file gives none).
    pub weights: Vec<f32>,
}

impl ImportedPrimitive {
    /// The UVs to draw with: `texture_uvs` when set, else `uvs` (TEXCOORD_0).
    pub fn draw_uvs(&self) -> &[Vec2] {
        if self.texture_uvs.is_empty() {
            &self.uvs
        } else {
            &self.texture_uvs
        }
    }
}

impl ImportedMesh {
    /// Number of morph targets (of the first primitive; glTF requires all to agree).
    pub fn morph_target_count(&self) -> usize {
        self.primitives.first().map_or(0, |p| p.morph_targets.len())
    }
}

const FLOAT_OR_UNORM: &[DataType] = &[DataType::F32, DataType::U8, DataType::U16];
/// `KHR_mesh_quantization`: every 8- and 16-bit type (POSITION, TEXCOORD_n, morph POSITION).
const QUANTISED: &[DataType] = &[
    DataType::F32,
    DataType::I8,
    DataType::U8,
    DataType::I16,
    DataType::U16,
];
/// `KHR_mesh_quantization`: signed normalised types (NORMAL, TANGENT and their morph deltas).
const FLOAT_OR_SNORM: &[DataType] = &[DataType::F32, DataType::I8, DataType::I16];

/// The accepted layouts of one kind of accessor: dimensions, component types and the
/// `normalized` flag of integer components (glTF 2.0 §3.7.2.1 and `KHR_mesh_quantization`).
struct Layout {
    dims: &'static [Dimensions],
    types: &'static [DataType],
    normalized: Norm,
}

impl Layout {
    const fn new(
        dims: &'static [Dimensions],
        types: &'static [DataType],
        normalized: Norm,
    ) -> Self {
        Self {
            dims,
            types,
            normalized,
        }
    }
}

const INDEX_TYPES: &[DataType] = &[DataType::U8, DataType::U16, DataType::U32];
const POSITION: Layout = Layout::new(&[VEC3], QUANTISED, Norm::Either);
const NORMAL: Layout = Layout::new(&[VEC3], FLOAT_OR_SNORM, Norm::Required);
const TANGENT: Layout = Layout::new(&[VEC4], FLOAT_OR_SNORM, Norm::Required);
const TEXCOORD: Layout = Layout::new(&[VEC2], QUANTISED, Norm::Either);
const COLOR: Layout = Layout::new(&[VEC3, VEC4], FLOAT_OR_UNORM, Norm::Required);
const JOINTS: Layout = Layout::new(&[VEC4], &[DataType::U8, DataType::U16], Norm::Forbidden);
const WEIGHTS: Layout = Layout::new(&[VEC4], FLOAT_OR_UNORM, Norm::Required);
const INDICES: Layout = Layout::new(&[Scalar], INDEX_TYPES, Norm::Forbidden);
/// Morph target POSITION deltas may be unnormalised integers.
const POSITION_DELTA: Layout = Layout::new(&[VEC3], FLOAT_OR_SNORM, Norm::Either);
/// Morph target NORMAL and TANGENT (xyz) deltas.
const DIRECTION_DELTA: Layout = Layout::new(&[VEC3], FLOAT_OR_SNORM, Norm::Required);

fn vec3s(v: Vec<f32>) -> Vec<Vec3> {
    v.chunks_exact(3).map(Vec3::from_slice).collect()
}

/// Reads the accessors of one primitive: every error names the file, the accessor and
/// `mesh M primitive P WHAT` (WHAT the attribute: `NORMAL`, `TEXCOORD_1`, `morph target 0
/// POSITION`…), and vertex attributes must have the `vertices` elements of POSITION.
struct PrimitiveReader<'a> {
    file: &'a Path,
    buffers: &'a Buffers,
    mesh: usize,
    primitive: usize,
    /// POSITION's element count (0 until POSITION is read).
    vertices: usize,
}

impl PrimitiveReader<'_> {
    /// `mesh M primitive P what`: the usage named in errors and warnings.
    fn usage(&self, what: &str) -> String {
        format!("mesh {} primitive {} {what}", self.mesh, self.primitive)
    }

    /// An [`Error::Accessor`] about accessor `a`, read as `what`.
    fn error(&self, a: &gltf::Accessor, what: &str, reason: String) -> Error {
        Error::Accessor {
            file: self.file.to_owned(),
            accessor: a.index(),
            usage: self.usage(what),
            reason,
        }
    }

    /// `a`'s components as `f32` (`[count × components]`, normalised integers mapped to
    /// [0, 1] or [-1, 1]), after checking them against `layout`.
    fn floats(&self, a: &gltf::Accessor, what: &str, layout: &Layout) -> Result<Vec<f32>> {
        let usage = self.usage(what);
        let expect = Expect {
            usage: &usage,
            dims: layout.dims,
            types: layout.types,
            normalized: layout.normalized,
        };
        read_floats(self.file, self.buffers, a, &expect)
    }

    /// [`Self::floats`] of a vertex attribute, which must have one element per vertex.
    fn attribute(&self, a: &gltf::Accessor, what: &str, layout: &Layout) -> Result<Vec<f32>> {
        if a.count() != self.vertices {
            let n = self.vertices;
            return Err(self.error(a, what, format!("{} elements, POSITION has {n}", a.count())));
        }
        self.floats(a, what, layout)
    }

    /// A VEC3 vertex attribute as [`Vec3`]s.
    fn vec3s(&self, a: &gltf::Accessor, what: &str, layout: &Layout) -> Result<Vec<Vec3>> {
        Ok(vec3s(self.attribute(a, what, layout)?))
    }
}

pub(crate) fn read_mesh(
    file: &Path,
    buffers: &Buffers,
    mesh: &gltf::Mesh,
    warnings: &mut Vec<String>,
) -> Result<ImportedMesh> {
    let mut out = ImportedMesh {
        name: mesh.name().unwrap_or("").to_owned(),
        ..Default::default()
    };
    for prim in mesh.primitives() {
        let mut r = PrimitiveReader {
            file,
            buffers,
            mesh: mesh.index(),
            primitive: prim.index(),
            vertices: 0,
        };
        let attr = |sem: Semantic| prim.get(&sem);
        let Some(pos_acc) = attr(Semantic::Positions) else {
            return Err(Error::Accessor {
                file: file.to_owned(),
                accessor: usize::MAX,
                usage: r.usage("POSITION"),
                reason: "primitive has no POSITION attribute".into(),
            });
        };
        r.vertices = pos_acc.count();
        let positions = r.vec3s(&pos_acc, "POSITION", &POSITION)?;
        let n = positions.len();
        let mut p = ImportedPrimitive {
            positions,
            material: prim.material().index(),
            ..Default::default()
        };
        if let Some(a) = attr(Semantic::Normals) {
            // Quantised normals are only nearly unit: renormalise (KHR_mesh_quantization).
            p.normals = r.vec3s(&a, "NORMAL", &NORMAL)?;
            p.normals.iter_mut().for_each(|n| *n = n.normalize_or(*n));
        }
        if let Some(a) = attr(Semantic::Tangents) {
            p.tangents = r
                .attribute(&a, "TANGENT", &TANGENT)?
                .chunks_exact(4)
                .map(|t| Vec3::from_slice(t).normalize_or(Vec3::X).extend(t[3]))
                .collect();
        }
        for (set, dst) in [(0u32, &mut p.uvs), (1, &mut p.uvs1)] {
            if let Some(a) = attr(Semantic::TexCoords(set)) {
                let what = format!("TEXCOORD_{set}");
                *dst = r
                    .attribute(&a, &what, &TEXCOORD)?
                    .chunks_exact(2)
                    .map(Vec2::from_slice)
                    .collect();
            }
        }
        if let Some(a) = attr(Semantic::Colors(0)) {
            let v = r.attribute(&a, "COLOR_0", &COLOR)?;
            p.colors = if a.dimensions() == Dimensions::Vec3 {
                v.chunks_exact(3)
                    .map(|c| Vec4::new(c[0], c[1], c[2], 1.0))
                    .collect()
            } else {
                v.chunks_exact(4).map(Vec4::from_slice).collect()
            };
        }
        read_influences(&r, &prim, &mut p, warnings)?;
        p.indices = match prim.indices() {
            Some(a) => {
                let v = r.floats(&a, "indices", &INDICES)?;
                let idx: Vec<u32> = v.into_iter().map(|x| x as u32).collect();
                if let Some(bad) = idx.iter().position(|&i| i as usize >= n) {
                    let reason = format!("index {bad} = {} >= vertex count {n}", idx[bad]);
                    return Err(r.error(&a, "indices", reason));
                }
                idx
            }
            None => (0..n as u32).collect(),
        };
        for (ti, target) in prim.morph_targets().enumerate() {
            let mut t = MorphTarget::default();
            for (acc, dst, what, layout) in [
                (
                    target.positions(),
                    &mut t.positions,
                    "POSITION",
                    &POSITION_DELTA,
                ),
                (target.normals(), &mut t.normals, "NORMAL", &DIRECTION_DELTA),
                (
                    target.tangents(),
                    &mut t.tangents,
                    "TANGENT",
                    &DIRECTION_DELTA,
                ),
            ] {
                if let Some(a) = acc {
                    let what = format!("morph target {ti} {what}");
                    *dst = r.vec3s(&a, &what, layout)?;
                }
            }
            p.morph_targets.push(t);
        }
        out.primitives.push(p);
    }
    let targets = out.morph_target_count();
    out.weights = mesh
        .weights()
        .map(|w| w.to_vec())
        .unwrap_or_else(|| vec![0.0; targets]);
    Ok(out)
}

/// Reads every `JOINTS_n`/`WEIGHTS_n` set of `prim` into `p.joints`/`p.weights`: the four
/// largest weights of each vertex over all sets, renormalised (see [`ImportedPrimitive`]).
fn read_influences(
    r: &PrimitiveReader<'_>,
    prim: &gltf::Primitive,
    p: &mut ImportedPrimitive,
    warnings: &mut Vec<String>,
) -> Result<()> {
    let n = r.vertices;
    // (joint, weight) candidates of every vertex over all sets.
    let mut influences: Vec<Vec<(u16, f32)>> = Vec::new();
    for set in 0.. {
        let (Some(ja), Some(wa)) = (
            prim.get(&Semantic::Joints(set)),
            prim.get(&Semantic::Weights(set)),
        ) else {
            break;
        };
        let (joints, weights) = (format!("JOINTS_{set}"), format!("WEIGHTS_{set}"));
        let j = r.attribute(&ja, &joints, &JOINTS)?;
        let w = r.attribute(&wa, &weights, &WEIGHTS)?;
        if let Some(i) = w.iter().position(|x| !x.is_finite() || *x < 0.0) {
            let reason = format!("weight component {i} is {} (must be finite and >= 0)", w[i]);
            return Err(r.error(&wa, &weights, reason));
        }
        influences.resize(n, Vec::new());
        for v in 0..n {
            for c in 0..4 {
                influences[v].push((j[v * 4 + c] as u16, w[v * 4 + c]));
            }
        }
        p.joint_accessors.push(ja.index());
    }
    if influences.is_empty() {
        return Ok(());
    }
    let mut zero_sum = 0usize;
    for mut inf in influences {
        // Stable sort keeps file order among equal weights.
        inf.sort_by(|a, b| b.1.total_cmp(&a.1));
        inf.truncate(4);
        inf.resize(4, (0, 0.0));
        let sum: f32 = inf.iter().map(|x| x.1).sum();
        if sum > 0.0 {
            p.joints.push([inf[0].0, inf[1].0, inf[2].0, inf[3].0]);
            p.weights
                .push(Vec4::new(inf[0].1, inf[1].1, inf[2].1, inf[3].1) / sum);
        } else {
            zero_sum += 1;
            p.joints.push([0; 4]);
            p.weights.push(Vec4::X);
        }
    }
    if zero_sum > 0 {
        let msg = format!("{}: {} ({zero_sum} vertices): skin weights sum to 0; bound to skin joint 0 with weight 1", r.file.display(), r.usage("WEIGHTS"));
        log::warn!("{msg}");
        warnings.push(msg);
    }
    Ok(())
}

/// Fills every primitive's `texture_uvs` from its material's primary texture (UV set and
/// transform). Warns once per material whose other textures ask for another UV set, transform
/// or sampler (the renderer draws a material with one of each), and once per primitive whose
/// material names a `TEXCOORD_n` set the primitive lacks (then TEXCOORD_0 is used).
pub(crate) fn apply_material_uvs(
    file: &Path,
    meshes: &mut [ImportedMesh],
    materials: &[crate::ImportedMaterial],
    warnings: &mut Vec<String>,
) {
    let mut warn = |msg: String| {
        log::warn!("{msg}");
        warnings.push(msg);
    };
    for (i, m) in materials.iter().enumerate() {
        let Some(primary) = m.primary_texture() else {
            continue;
        };
        for (slot, t) in m.textures().skip(1) {
            if (t.tex_coord, t.transform, t.sampler)
                != (primary.tex_coord, primary.transform, primary.sampler)
            {
                warn(format!(
                    "{}: material {i} ({:?}): {slot} uses another UV set, texture transform or \
                     sampler than the material's first texture; Sierra draws it with the first's",
                    file.display(),
                    m.name
                ));
            }
        }
    }
    for (mi, mesh) in meshes.iter_mut().enumerate() {
        for (pi, p) in mesh.primitives.iter_mut().enumerate() {
            let Some(t) = p
                .material
                .and_then(|m| materials.get(m))
                .and_then(|m| m.primary_texture())
            else {
                continue;
            };
            let set = match t.tex_coord {
                0 => &p.uvs,
                1 if !p.uvs1.is_empty() => &p.uvs1,
                n => {
                    warn(format!(
                        "{}: mesh {mi} primitive {pi}: its material samples TEXCOORD_{n}, which \
                         the primitive lacks (Sierra reads TEXCOORD_0 and TEXCOORD_1); drawn with TEXCOORD_0",
                        file.display()
                    ));
                    &p.uvs
                }
            };
            p.texture_uvs = set.iter().map(|&uv| t.transform.apply(uv)).collect();
        }
    }
}
