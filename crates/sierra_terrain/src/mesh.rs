//! The plain triangle mesh every generator in this crate returns.

use glam::{Mat4, Vec2, Vec3, Vec4};

use crate::error::Error;

/// An indexed triangle list. Right-handed, Y up, metres; front faces counter-clockwise; colours
/// are linear RGBA. All attribute vectors have one entry per vertex (`uvs`, `colors` and
/// `tangents` may also be empty).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// Name used by exports (`o` line in OBJ) and error messages.
    pub name: String,
    /// `[vertex_count]` positions, metres.
    pub positions: Vec<Vec3>,
    /// `[vertex_count]` unit normals.
    pub normals: Vec<Vec3>,
    /// `[vertex_count]` linear RGBA vertex colours, or empty.
    pub colors: Vec<Vec4>,
    /// `[vertex_count]` texture coordinates, or empty.
    pub uvs: Vec<Vec2>,
    /// `[vertex_count]` unit tangents along +u, `w` = ±1 bitangent sign as glTF
    /// (`bitangent = cross(normal, tangent.xyz) · w`, pointing up the texture), or empty.
    pub tangents: Vec<Vec4>,
    /// `[3 · triangle_count]` vertex indices.
    pub indices: Vec<u32>,
}

/// The cells of a grid of `rows × cols` quads whose `(rows + 1) × (cols + 1)` vertices are
/// stored row-major: `(r, [a, b, c, d])` per cell, `a` = vertex (r, s), `b` = (r, s + 1),
/// `c` = (r + 1, s), `d` = (r + 1, s + 1) (a lathe's rings or a sphere's latitude bands).
pub(crate) fn grid_cells(rows: usize, cols: usize) -> impl Iterator<Item = (u32, [u32; 4])> {
    let row = (cols + 1) as u32;
    (0..rows as u32).flat_map(move |r| {
        (0..cols as u32).map(move |s| {
            let a = r * row + s;
            (r, [a, a + 1, a + row, a + row + 1])
        })
    })
}

impl Mesh {
    /// An empty mesh with a name.
    pub fn named(name: &str) -> Self {
        Self {
            name: name.to_string(),
            ..Self::default()
        }
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.positions.len()
    }

    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }

    /// Checks that attribute counts agree and indices are in range.
    ///
    /// # Errors
    /// [`Error::Mesh`] saying which buffer is wrong.
    pub fn validate(&self) -> Result<(), Error> {
        let n = self.positions.len();
        let bad = |reason: String| Error::Mesh {
            name: self.name.clone(),
            reason,
        };
        if self.normals.len() != n {
            return Err(bad(format!(
                "{} normals for {n} positions",
                self.normals.len()
            )));
        }
        for (what, len) in [
            ("colors", self.colors.len()),
            ("uvs", self.uvs.len()),
            ("tangents", self.tangents.len()),
        ] {
            if len != 0 && len != n {
                return Err(bad(format!("{len} {what} for {n} positions")));
            }
        }
        if !self.indices.len().is_multiple_of(3) {
            return Err(bad(format!(
                "{} indices is not a multiple of 3",
                self.indices.len()
            )));
        }
        if let Some((k, &i)) = self
            .indices
            .iter()
            .enumerate()
            .find(|(_, &i)| i as usize >= n)
        {
            return Err(bad(format!(
                "index {k} = {i} is out of range for {n} vertices"
            )));
        }
        Ok(())
    }

    /// Appends `other` transformed by `transform` (normals by its inverse transpose).
    /// Missing colours/uvs/tangents on one side are filled with white / zero / `(1, 0, 0, 1)`;
    /// tangents are rotated by `transform` (a mirroring transform flips their `w`).
    pub fn append(&mut self, other: &Mesh, transform: Mat4) {
        let base = self.positions.len() as u32;
        let normal_matrix = transform.inverse().transpose();
        let had = self.positions.len();
        self.positions.extend(
            other
                .positions
                .iter()
                .map(|&p| transform.transform_point3(p)),
        );
        self.normals.extend(
            other
                .normals
                .iter()
                .map(|&n| normal_matrix.transform_vector3(n).normalize_or_zero()),
        );
        fill_attr(
            &mut self.colors,
            had,
            &other.colors,
            other.positions.len(),
            Vec4::ONE,
        );
        fill_attr(
            &mut self.uvs,
            had,
            &other.uvs,
            other.positions.len(),
            Vec2::ZERO,
        );
        let linear = glam::Mat3::from_mat4(transform);
        let mirror = linear.determinant().signum();
        let tangents: Vec<Vec4> = other
            .tangents
            .iter()
            .map(|t| {
                (linear * t.truncate())
                    .normalize_or(Vec3::X)
                    .extend(t.w * mirror)
            })
            .collect();
        fill_attr(
            &mut self.tangents,
            had,
            &tangents,
            other.positions.len(),
            Vec4::new(1.0, 0.0, 0.0, 1.0),
        );
        self.indices.extend(other.indices.iter().map(|&i| i + base));
    }

    /// Recomputes smooth normals as area-weighted sums of face normals.
    pub fn compute_normals(&mut self) {
        let mut normals = vec![Vec3::ZERO; self.positions.len()];
        for t in self.indices.chunks_exact(3) {
            let [a, b, c] = [t[0] as usize, t[1] as usize, t[2] as usize];
            let n = (self.positions[b] - self.positions[a])
                .cross(self.positions[c] - self.positions[a]);
            normals[a] += n;
            normals[b] += n;
            normals[c] += n;
        }
        self.normals = normals
            .into_iter()
            .map(|n| n.normalize_or(Vec3::Y))
            .collect();
    }

    /// Smooth normals shared by vertices at the same position (seams and poles of UV spheres
    /// get one normal): area-weighted face normals summed per welded position.
    pub fn smooth_normals_welded(&mut self) {
        use std::collections::HashMap;
        let key = |p: Vec3| (p * 1e4).round().as_ivec3().to_array();
        let mut sums: HashMap<[i32; 3], Vec3> = HashMap::new();
        for t in self.indices.chunks_exact(3) {
            let [a, b, c] = [t[0] as usize, t[1] as usize, t[2] as usize];
            let n = (self.positions[b] - self.positions[a])
                .cross(self.positions[c] - self.positions[a]);
            for v in [a, b, c] {
                *sums.entry(key(self.positions[v])).or_insert(Vec3::ZERO) += n;
            }
        }
        self.normals = self
            .positions
            .iter()
            .map(|&p| {
                sums.get(&key(p))
                    .map_or(Vec3::Y, |n| n.normalize_or(Vec3::Y))
            })
            .collect();
    }

    /// Axis-aligned bounds `(min, max)`, or `None` for an empty mesh.
    pub fn bounds(&self) -> Option<(Vec3, Vec3)> {
        let first = *self.positions.first()?;
        Some(
            self.positions
                .iter()
                .fold((first, first), |(lo, hi), &p| (lo.min(p), hi.max(p))),
        )
    }
}

fn fill_attr<T: Copy>(dst: &mut Vec<T>, had: usize, src: &[T], count: usize, default: T) {
    if dst.is_empty() && src.is_empty() {
        return;
    }
    dst.resize(had, default);
    if src.is_empty() {
        dst.extend(std::iter::repeat_n(default, count));
    } else {
        dst.extend_from_slice(src);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validate_catches_bad_indices() {
        let mut m = Mesh::named("t");
        m.positions = vec![Vec3::ZERO; 3];
        m.normals = vec![Vec3::Y; 3];
        m.indices = vec![0, 1, 3];
        assert!(m.validate().is_err());
        m.indices = vec![0, 1, 2];
        assert!(m.validate().is_ok());
    }
}
