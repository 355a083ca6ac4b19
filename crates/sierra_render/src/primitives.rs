//! Procedural primitive meshes: cube, UV sphere, plane and an N×N grid.
//!
//! All are centred on the origin, right-handed, Y up, with counter-clockwise
//! front faces seen from outside, unit normals, UVs with (0,0) at the top-left
//! of the texture, and tangents along +U with w = +1 (glTF's convention:
//! `bitangent = cross(normal, tangent)` points towards decreasing V, "up" in the image).

use glam::Vec3;

use crate::mesh::MeshData;

/// An axis-aligned cube with side `size` metres: 24 vertices (4 per face, flat
/// normals), 12 triangles.
pub fn cube(size: f32) -> MeshData {
    box_for_scale(size, Vec3::ONE)
}

/// The unit-side [`cube`] meant to be drawn scaled by `scale` (non-uniform, e.g. a thin
/// platform `[4, 0.4, 4]`), with each face's UVs spanning that face's scaled size over the
/// largest scale component instead of 0..1: every face then has the same texels per metre,
/// so a normal map is not squashed into stripes on the thin sides. `scale` components are
/// taken by absolute value; a zero or non-finite scale gives [`cube`]'s UVs.
pub fn cube_for_scale(scale: Vec3) -> MeshData {
    box_for_scale(1.0, scale)
}

fn box_for_scale(size: f32, scale: Vec3) -> MeshData {
    let scale = scale.abs();
    let largest = scale.max_element();
    let relative = if largest > 0.0 && scale.is_finite() {
        scale / largest
    } else {
        Vec3::ONE
    };
    // (normal, u axis = tangent, v axis = up in the face); cross(u, v) == normal.
    let faces = [
        (Vec3::X, Vec3::NEG_Z, Vec3::Y),
        (Vec3::NEG_X, Vec3::Z, Vec3::Y),
        (Vec3::Y, Vec3::X, Vec3::NEG_Z),
        (Vec3::NEG_Y, Vec3::X, Vec3::Z),
        (Vec3::Z, Vec3::X, Vec3::Y),
        (Vec3::NEG_Z, Vec3::NEG_X, Vec3::Y),
    ];
    let half = 0.5 * size;
    let mut mesh = MeshData::default();
    for (normal, u, v) in faces {
        let base = mesh.positions.len() as u32;
        // Corners counter-clockwise seen from outside: (-u,-v), (+u,-v), (+u,+v), (-u,+v).
        for (su, sv) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            let p = (normal + u * su + v * sv) * half;
            mesh.positions.push(p.to_array());
            mesh.normals.push(normal.to_array());
            // The face's extent along u and v relative to the largest scale (1 for a cube).
            let (eu, ev) = (relative.dot(u.abs()), relative.dot(v.abs()));
            mesh.uvs
                .push([0.5 * (su + 1.0) * eu, 0.5 * (1.0 - sv) * ev]);
            mesh.tangents.push(u.extend(1.0).to_array());
        }
        mesh.indices
            .extend_from_slice(&[base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    mesh.colors = vec![[1.0; 4]; mesh.positions.len()];
    mesh
}

/// A UV (latitude-longitude) sphere of `radius` metres with `segments` ≥ 3
/// around the Y axis and `rings` ≥ 2 from pole to pole (values below are raised).
/// `(segments + 1) * (rings + 1)` vertices (the seam is duplicated for UVs),
/// `2 * segments * (rings - 1)` triangles (none degenerate at the poles).
pub fn uv_sphere(radius: f32, segments: u32, rings: u32) -> MeshData {
    let segments = segments.max(3);
    let rings = rings.max(2);
    let mut mesh = MeshData::default();
    for i in 0..=rings {
        let v = i as f32 / rings as f32;
        let phi = v * std::f32::consts::PI;
        for j in 0..=segments {
            let u = j as f32 / segments as f32;
            let theta = u * std::f32::consts::TAU;
            let normal = Vec3::new(phi.sin() * theta.sin(), phi.cos(), phi.sin() * theta.cos());
            mesh.positions.push((normal * radius).to_array());
            mesh.normals.push(normal.to_array());
            mesh.uvs.push([u, v]);
            mesh.tangents.push([theta.cos(), 0.0, -theta.sin(), 1.0]);
        }
    }
    let row = segments + 1;
    for i in 0..rings {
        for j in 0..segments {
            let a = i * row + j;
            let (b, c, d) = (a + row, a + row + 1, a + 1);
            if i != rings - 1 {
                mesh.indices.extend_from_slice(&[a, b, c]);
            }
            if i != 0 {
                mesh.indices.extend_from_slice(&[a, c, d]);
            }
        }
    }
    mesh.colors = vec![[1.0; 4]; mesh.positions.len()];
    mesh
}

/// A square of side `size` metres in the XZ plane, facing +Y: [`grid`] with one cell.
pub fn plane(size: f32) -> MeshData {
    grid(1, size)
}

/// A square of side `size` metres in the XZ plane facing +Y, split into
/// `cells` × `cells` quads (at least 1): `(cells + 1)²` vertices,
/// `2 * cells²` triangles. UV (0,0) at (-x, -z), (1,1) at (+x, +z).
pub fn grid(cells: u32, size: f32) -> MeshData {
    let cells = cells.max(1);
    let mut mesh = MeshData::default();
    for i in 0..=cells {
        let v = i as f32 / cells as f32;
        for j in 0..=cells {
            let u = j as f32 / cells as f32;
            mesh.positions
                .push([(u - 0.5) * size, 0.0, (v - 0.5) * size]);
            mesh.normals.push([0.0, 1.0, 0.0]);
            mesh.uvs.push([u, v]);
            mesh.tangents.push([1.0, 0.0, 0.0, 1.0]);
        }
    }
    let row = cells + 1;
    for i in 0..cells {
        for j in 0..cells {
            let a = i * row + j;
            let (b, c, d) = (a + row, a + row + 1, a + 1);
            mesh.indices.extend_from_slice(&[a, b, c, a, c, d]);
        }
    }
    mesh.colors = vec![[1.0; 4]; mesh.positions.len()];
    mesh
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Texels per metre along u and v of each face of `mesh` drawn scaled by `scale`: UV
    /// change over world distance along the face's edges (vertices 0→1 and 1→2 of each quad).
    fn face_densities(mesh: &MeshData, scale: Vec3) -> Vec<(f32, f32)> {
        (0..6)
            .map(|f| {
                let at = |k: usize| {
                    let i = 4 * f + k;
                    (Vec3::from(mesh.positions[i]) * scale, mesh.uvs[i])
                };
                let ((p0, t0), (p1, t1), (p2, t2)) = (at(0), at(1), at(2));
                (
                    (t1[0] - t0[0]).abs() / (p1 - p0).length(),
                    (t2[1] - t1[1]).abs() / (p2 - p1).length(),
                )
            })
            .collect()
    }

    #[test]
    fn a_scaled_box_keeps_the_same_texel_density_on_every_face() {
        let scale = Vec3::new(4.0, 0.4, 4.0); // the demo's platforms
        let plain = face_densities(&cube(1.0), scale);
        let spread = |d: &[(f32, f32)]| {
            let all: Vec<f32> = d.iter().flat_map(|&(u, v)| [u, v]).collect();
            let max = all.iter().copied().fold(0.0, f32::max);
            let min = all.iter().copied().fold(f32::INFINITY, f32::min);
            max / min
        };
        // 0..1 on every face: the 0.4 m sides get 10x the texels per metre of the 4 m top.
        assert!((spread(&plain) - 10.0).abs() < 1e-3, "{plain:?}");
        let scaled = face_densities(&cube_for_scale(scale), scale);
        assert!(spread(&scaled) <= 1.0 + 1e-4, "{scaled:?}");
        // The top keeps the unit cube's UVs (0..1 over the 4 m face).
        assert!((scaled[2].0 - 0.25).abs() < 1e-6);
        // Same geometry, normals and tangents as the cube.
        let (a, b) = (cube(1.0), cube_for_scale(scale));
        assert_eq!(
            (a.positions, a.normals, a.tangents),
            (b.positions, b.normals, b.tangents)
        );
        assert_eq!(cube_for_scale(Vec3::ZERO).uvs, cube(1.0).uvs);
    }

    /// Every triangle's geometric normal (from its counter-clockwise winding)
    /// must agree with the vertex normals: catches flipped winding.
    fn assert_outward_ccw(mesh: &MeshData) {
        mesh.validate().unwrap();
        for tri in mesh.indices.chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|k| Vec3::from(mesh.positions[tri[k] as usize]));
            let face = (b - a).cross(c - a);
            assert!(face.length() > 1e-8, "degenerate triangle {tri:?}");
            let n = Vec3::from(mesh.normals[tri[0] as usize]);
            assert!(
                face.normalize().dot(n) > 0.0,
                "triangle {tri:?} winds clockwise"
            );
        }
    }

    /// Tangents are unit, perpendicular to normals, and point along +U.
    fn assert_tangents_follow_u(mesh: &MeshData) {
        for tri in mesh.indices.chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|k| tri[k] as usize);
            let (p0, p1, p2) = (
                Vec3::from(mesh.positions[a]),
                Vec3::from(mesh.positions[b]),
                Vec3::from(mesh.positions[c]),
            );
            let (uv0, uv1, uv2) = (mesh.uvs[a], mesh.uvs[b], mesh.uvs[c]);
            let (e1, e2) = (p1 - p0, p2 - p0);
            let (du1, dv1, du2, dv2) = (
                uv1[0] - uv0[0],
                uv1[1] - uv0[1],
                uv2[0] - uv0[0],
                uv2[1] - uv0[1],
            );
            let det = du1 * dv2 - du2 * dv1;
            if det.abs() < 1e-12 {
                continue;
            }
            let dp_du = (e1 * dv2 - e2 * dv1) / det;
            let t = Vec3::from_slice(&mesh.tangents[a][..3]);
            assert!((t.length() - 1.0).abs() < 1e-4);
            assert!(t.dot(Vec3::from(mesh.normals[a])).abs() < 1e-4);
            assert!(t.dot(dp_du) > 0.0, "tangent does not follow +U at {tri:?}");
        }
    }

    #[test]
    fn cube_is_closed_outward_and_unit() {
        let mesh = cube(1.0);
        assert_eq!((mesh.positions.len(), mesh.triangle_count()), (24, 12));
        assert_outward_ccw(&mesh);
        assert_tangents_follow_u(&mesh);
        for p in &mesh.positions {
            assert!(p.iter().all(|c| (c.abs() - 0.5).abs() < 1e-6));
        }
    }

    #[test]
    fn sphere_vertices_lie_on_radius_with_radial_normals() {
        let mesh = uv_sphere(2.0, 12, 6);
        assert_eq!(mesh.positions.len(), 13 * 7);
        assert_eq!(mesh.triangle_count(), 2 * 12 * 5);
        assert_outward_ccw(&mesh);
        assert_tangents_follow_u(&mesh);
        for (p, n) in mesh.positions.iter().zip(&mesh.normals) {
            let p = Vec3::from(*p);
            assert!((p.length() - 2.0).abs() < 1e-5);
            assert!((p / 2.0 - Vec3::from(*n)).length() < 1e-5);
        }
    }

    #[test]
    fn grid_has_cells_squared_quads_facing_up() {
        let mesh = grid(5, 10.0);
        assert_eq!(mesh.positions.len(), 36);
        assert_eq!(mesh.triangle_count(), 50);
        assert_outward_ccw(&mesh);
        assert_tangents_follow_u(&mesh);
        let xs: Vec<f32> = mesh.positions.iter().map(|p| p[0]).collect();
        assert_eq!(xs.iter().cloned().fold(f32::MAX, f32::min), -5.0);
        assert_eq!(xs.iter().cloned().fold(f32::MIN, f32::max), 5.0);
        assert_eq!(plane(2.0).triangle_count(), 2);
    }
}
