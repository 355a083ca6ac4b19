//! Per-vertex tangents for normal mapping, generated with MikkTSpace (`bevy_mikktspace`, the
//! reference algorithm glTF 2.0 §3.7.2.1 names for meshes without a `TANGENT` attribute, so
//! normal maps baked by other tools light the same here).

use bevy_mikktspace::{Geometry, TangentSpace};

use crate::mesh::MeshData;

/// Fills `mesh.tangents` (`[vertex_count] [x, y, z, w]`, w = ±1 bitangent sign as glTF) when it is
/// empty and the mesh has normals and texture coordinates; returns whether tangents were made.
///
/// Vertices shared by faces whose tangent frames disagree keep the frame MikkTSpace gives their
/// last face (an indexed mesh cannot hold two); glTF exporters split such vertices already.
/// Vertices MikkTSpace leaves undefined (degenerate faces) get `[1, 0, 0, 1]`.
pub fn generate_tangents_if_missing(mesh: &mut MeshData) -> bool {
    let count = mesh.positions.len();
    if !mesh.tangents.is_empty()
        || mesh.normals.len() != count
        || mesh.uvs.len() != count
        || mesh.indices.len() < 3
    {
        return false;
    }
    let mut geometry = MikkGeometry {
        mesh,
        tangents: vec![[1.0, 0.0, 0.0, 1.0]; count],
    };
    if let Err(err) = bevy_mikktspace::generate_tangents(&mut geometry) {
        log::warn!("MikkTSpace failed ({err:?}); normal maps use a default tangent");
    }
    let tangents = geometry.tangents;
    mesh.tangents = tangents;
    true
}

struct MikkGeometry<'a> {
    mesh: &'a MeshData,
    tangents: Vec<[f32; 4]>,
}

impl MikkGeometry<'_> {
    fn vertex(&self, face: usize, vert: usize) -> usize {
        self.mesh.indices[face * 3 + vert] as usize
    }
}

impl Geometry for MikkGeometry<'_> {
    fn num_faces(&self) -> usize {
        self.mesh.indices.len() / 3
    }

    fn num_vertices_of_face(&self, _face: usize) -> usize {
        3
    }

    fn position(&self, face: usize, vert: usize) -> [f32; 3] {
        self.mesh.positions[self.vertex(face, vert)]
    }

    fn normal(&self, face: usize, vert: usize) -> [f32; 3] {
        self.mesh.normals[self.vertex(face, vert)]
    }

    fn tex_coord(&self, face: usize, vert: usize) -> [f32; 2] {
        // glTF's v grows down the image while its normal maps store +Y "up" (spec §3.9.3);
        // MikkTSpace's bitangent follows +v, so it is given v flipped, as Blender's exporter does.
        let [u, v] = self.mesh.uvs[self.vertex(face, vert)];
        [u, 1.0 - v]
    }

    fn set_tangent(&mut self, tangent_space: Option<TangentSpace>, face: usize, vert: usize) {
        if let Some(space) = tangent_space {
            let index = self.vertex(face, vert);
            self.tangents[index] = space.tangent_encoded();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A quad in the XY plane, normal +Z, with u along +X and v along -Y (glTF: v grows down
    /// the image, so the texture's "up" is +Y): tangent +X, bitangent sign +1.
    fn quad(flip_u: bool) -> MeshData {
        let u = |x: f32| if flip_u { 1.0 - x } else { x };
        MeshData {
            positions: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 1.0, 0.0],
                [0.0, 1.0, 0.0],
            ],
            normals: vec![[0.0, 0.0, 1.0]; 4],
            uvs: vec![[u(0.0), 1.0], [u(1.0), 1.0], [u(1.0), 0.0], [u(0.0), 0.0]],
            tangents: Vec::new(),
            colors: Vec::new(),
            indices: vec![0, 1, 2, 0, 2, 3],
        }
    }

    #[test]
    fn tangent_follows_u_and_mirrored_uvs_flip_the_sign() {
        let mut mesh = quad(false);
        assert!(generate_tangents_if_missing(&mut mesh));
        for t in &mesh.tangents {
            assert!((t[0] - 1.0).abs() < 1e-5 && t[1].abs() < 1e-5, "{t:?}");
        }
        // Bitangent = cross(N, T) * w must point up the image (+Y here): w = +1.
        let w = mesh.tangents[0][3];
        assert_eq!(w, 1.0);
        let mut mirrored = quad(true);
        generate_tangents_if_missing(&mut mirrored);
        for t in &mirrored.tangents {
            assert!(
                (t[0] + 1.0).abs() < 1e-5,
                "mirrored u: tangent -X, got {t:?}"
            );
        }
        // Mirroring u flips the tangent; the bitangent (v direction) is unchanged, so the sign flips.
        assert_eq!(mirrored.tangents[0][3], -w);
    }

    #[test]
    fn existing_tangents_are_kept() {
        let mut mesh = quad(false);
        mesh.tangents = vec![[0.0, 1.0, 0.0, -1.0]; 4];
        assert!(!generate_tangents_if_missing(&mut mesh));
        assert_eq!(mesh.tangents[0], [0.0, 1.0, 0.0, -1.0]);
    }
}
