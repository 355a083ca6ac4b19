//! Levels of detail by mesh simplification with meshoptimizer (quadric edge collapse; Garland &
//! Heckbert 1997), replacing the thesis's manual reduction in 3ds Max (§2.3.6, figures 23–26:
//! 100 %, 50 %, 25 %, 10 % of the vertices).

use crate::error::Error;
use crate::mesh::Mesh;

/// Tolerance on the vertex count reached, as a fraction of the target.
pub const VERTEX_TOLERANCE: f32 = 0.05;

/// Simplifies `mesh` to about `percent`% of its vertices (1..=100). Attributes of kept vertices
/// are unchanged; unused vertices are removed. Meshoptimizer reduces triangles, so the triangle
/// target is corrected (secant steps) until the vertex count is within [`VERTEX_TOLERANCE`].
///
/// # Errors
/// [`Error::OutOfRange`] for a percentage outside 1..=100, [`Error::Mesh`] for an invalid mesh.
pub fn simplify_to_percent(mesh: &Mesh, percent: u32) -> Result<Mesh, Error> {
    if !(1..=100).contains(&percent) {
        return Err(Error::OutOfRange {
            name: "LOD percentage".into(),
            value: f64::from(percent),
            expected: "1..=100".into(),
        });
    }
    mesh.validate()?;
    if percent == 100 || mesh.indices.is_empty() {
        return Ok(compact(mesh, &mesh.indices, percent));
    }
    simplify_indices(mesh, percent).map(|indices| compact(mesh, &indices, percent))
}

/// The web build (wasm32) has no meshoptimizer (C): simplification is refused, naming why.
#[cfg(target_arch = "wasm32")]
fn simplify_indices(mesh: &Mesh, _percent: u32) -> Result<Vec<u32>, Error> {
    Err(Error::Mesh {
        name: mesh.name.clone(),
        reason: "levels of detail need meshoptimizer, which the web build does not include".into(),
    })
}

/// The index list of `mesh` simplified to about `percent`% of its vertices.
#[cfg(not(target_arch = "wasm32"))]
fn simplify_indices(mesh: &Mesh, percent: u32) -> Result<Vec<u32>, Error> {
    let adapter = meshopt::VertexDataAdapter::new(meshopt::typed_to_bytes(&mesh.positions), 12, 0)
        .map_err(|e| Error::Mesh {
            name: mesh.name.clone(),
            reason: e.to_string(),
        })?;
    let target = (mesh.vertex_count() as f32 * percent as f32 / 100.0).max(3.0);
    let mut ratio = percent as f32 / 100.0;
    let mut best: Option<(f32, Vec<u32>)> = None;
    for _ in 0..8 {
        let target_indices = ((mesh.indices.len() as f32 * ratio) as usize / 3 * 3).max(3);
        let indices = meshopt::simplify(
            &mesh.indices,
            &adapter,
            target_indices,
            1.0,
            meshopt::SimplifyOptions::None,
            None,
        );
        let vertices = used_vertex_count(&indices, mesh.vertex_count()) as f32;
        let miss = (vertices - target) / target;
        if best.as_ref().is_none_or(|(m, _)| miss.abs() < m.abs()) {
            best = Some((miss, indices));
        }
        if miss.abs() <= VERTEX_TOLERANCE * 0.5 || vertices <= 0.0 {
            break;
        }
        ratio = (ratio * target / vertices).clamp(1e-4, 1.0);
    }
    Ok(best.map(|(_, i)| i).unwrap_or_default())
}

#[cfg_attr(target_arch = "wasm32", allow(dead_code))] // meshoptimizer is native-only
fn used_vertex_count(indices: &[u32], vertex_count: usize) -> usize {
    let mut used = vec![false; vertex_count];
    indices
        .iter()
        .filter(|&&i| !std::mem::replace(&mut used[i as usize], true))
        .count()
}

/// Keeps only the vertices `indices` uses, in order of first use.
fn compact(mesh: &Mesh, indices: &[u32], percent: u32) -> Mesh {
    let mut remap = vec![u32::MAX; mesh.vertex_count()];
    let mut out = Mesh::named(&format!("{}_lod{percent}", mesh.name));
    for &i in indices {
        let i = i as usize;
        if remap[i] == u32::MAX {
            remap[i] = out.positions.len() as u32;
            out.positions.push(mesh.positions[i]);
            out.normals.push(mesh.normals[i]);
            if !mesh.colors.is_empty() {
                out.colors.push(mesh.colors[i]);
            }
            if !mesh.uvs.is_empty() {
                out.uvs.push(mesh.uvs[i]);
            }
            if !mesh.tangents.is_empty() {
                out.tangents.push(mesh.tangents[i]);
            }
        }
        out.indices.push(remap[i]);
    }
    out
}
