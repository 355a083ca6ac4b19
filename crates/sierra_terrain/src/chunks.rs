//! The island drawn in square chunks with distance-based level of detail.
//!
//! Chunk `(cx, cz)` covers `chunk_cells` grid cells per side. LOD `k` keeps every `2^k`-th
//! sample, so each LOD has a quarter of the triangles of the one before. Neighbouring chunks at
//! different LODs would leave T-junction cracks; each chunk hangs a vertical skirt from its
//! border (as in Ulrich's chunked LOD) that hides them without stitching.

use glam::{Vec2, Vec3, Vec4};

use crate::detail::UV_TILE;
use crate::island::Island;
use crate::mesh::Mesh;

/// Tangent of a height-field vertex whose texture coordinates are `(x, z) / UV_TILE`: the
/// surface direction of `∂P/∂u = (1, ∂h/∂x, 0)`, which for the normal `n ∝ (−∂h/∂x, 1, −∂h/∂z)`
/// is `normalize(n_y, −n_x, 0)` (exactly orthogonal to `n`). `w = +1`: `cross(n, t)` points
/// along −z, towards decreasing v, which is "up" in a glTF texture.
pub fn height_field_tangent(normal: Vec3) -> Vec4 {
    Vec3::new(normal.y, -normal.x, 0.0)
        .normalize_or(Vec3::X)
        .extend(1.0)
}

/// Triangle grid of `cells / step` quads per side starting at sample `(i0, j0)`, coloured by the
/// island's surface classes, with world-tiling texture coordinates `(x, z) / UV_TILE` and
/// [`height_field_tangent`]s for the detail normal map ([`crate::detail`]); with
/// `skirt_depth > 0` a skirt of that depth (metres) on all four sides (skirt vertices copy the
/// attributes of the rim vertex above them). The surface's triangles come first: its
/// `6 · (cells / step)²` indices ([`surface_index_count`]), then the skirt's, side by side in
/// [`SKIRT_SIDES`] order, `6 · (cells / step)` indices each.
pub fn grid_mesh(
    island: &Island,
    i0: usize,
    j0: usize,
    cells: usize,
    step: usize,
    skirt_depth: f32,
    name: &str,
) -> Mesh {
    let hf = island.height_field();
    let q = cells / step;
    let side = q + 1;
    let mut m = Mesh::named(name);
    m.positions.reserve(side * side + 4 * side);
    for b in 0..side {
        for a in 0..side {
            let (i, j) = (i0 + a * step, j0 + b * step);
            let p = hf.sample_position(i, j);
            let n = hf.sample_normal(i, j);
            m.positions.push(p);
            m.normals.push(n);
            m.colors.push(island.surface_color(p.y, n));
            m.uvs.push(Vec2::new(p.x, p.z) / UV_TILE);
            m.tangents.push(height_field_tangent(n));
        }
    }
    let idx = |a: usize, b: usize| (b * side + a) as u32;
    for b in 0..q {
        for a in 0..q {
            let (v00, v10, v01, v11) = (idx(a, b), idx(a + 1, b), idx(a, b + 1), idx(a + 1, b + 1));
            // Counter-clockwise seen from +Y (x right, z towards the viewer).
            m.indices.extend_from_slice(&[v00, v01, v10, v10, v01, v11]);
        }
    }
    if skirt_depth > 0.0 {
        let ring: Vec<u32> = (0..q)
            .map(|a| idx(a, 0))
            .chain((0..q).map(|b| idx(q, b)))
            .chain((0..q).map(|a| idx(q - a, q)))
            .chain((0..q).map(|b| idx(0, q - b)))
            .collect();
        let base = m.positions.len() as u32;
        for &v in &ring {
            let v = v as usize;
            m.positions.push(m.positions[v] - Vec3::Y * skirt_depth);
            m.normals.push(m.normals[v]);
            m.colors.push(m.colors[v]);
            m.uvs.push(m.uvs[v]);
            m.tangents.push(m.tangents[v]);
        }
        let k = ring.len() as u32;
        for e in 0..k {
            let (t0, t1) = (ring[e as usize], ring[((e + 1) % k) as usize]);
            let (b0, b1) = (base + e, base + (e + 1) % k);
            // The ring runs +x along the z-min edge first, so (t0, t1, b0) faces outwards.
            m.indices.extend_from_slice(&[t0, t1, b0, t1, b1, b0]);
        }
    }
    m
}

/// The sides of a chunk's skirt in the order [`grid_mesh`] writes them: along `z`-min, along
/// `x`-max, along `z`-max, along `x`-min.
pub const SKIRT_SIDES: [&str; 4] = ["z-min", "x-max", "z-max", "x-min"];

/// Indices of the surface of a [`grid_mesh`] of `cells / step` quads per side (two triangles
/// each), which precede its skirt's.
pub fn surface_index_count(cells: usize, step: usize) -> usize {
    let q = cells / step.max(1);
    6 * q * q
}

impl Island {
    /// The whole terrain as one mesh at full resolution (for export and small terrains): one
    /// [`grid_mesh`] over every cell, without a skirt. (Defined here, beside the grid mesher, so
    /// that `island` does not name `chunks`.)
    pub fn mesh(&self) -> Mesh {
        let cells = self.height_field().resolution() - 1;
        grid_mesh(self, 0, 0, cells, 1, 0.0, "island")
    }
}

/// One chunk at one level of detail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkLod {
    /// Chunk column (x).
    pub cx: usize,
    /// Chunk row (z).
    pub cz: usize,
    /// Level of detail: sample step `2^lod`.
    pub lod: u32,
}

/// Chunk layout of an island.
#[derive(Clone, Debug)]
pub struct ChunkGrid {
    /// Chunks per side.
    pub chunks_per_side: usize,
    /// Cells per chunk side (the last chunk may be smaller).
    pub chunk_cells: usize,
    /// Coarsest LOD every chunk supports.
    pub max_lod: u32,
    cells: usize,
    spacing: f32,
    half: f32,
}

impl ChunkGrid {
    /// The layout for an island (chunk size from its parameters).
    pub fn new(island: &Island) -> Self {
        let hf = island.height_field();
        let cells = hf.resolution() - 1;
        let chunk_cells = (island.params().chunk_cells as usize).clamp(1, cells);
        let max_lod = chunk_cells.trailing_zeros().min(5);
        Self {
            chunks_per_side: cells.div_ceil(chunk_cells),
            chunk_cells,
            max_lod,
            cells,
            spacing: hf.spacing(),
            half: hf.size() * 0.5,
        }
    }

    /// World XZ centre of a chunk.
    pub fn chunk_center(&self, cx: usize, cz: usize) -> Vec2 {
        let c = (self.chunk_cells as f32) * self.spacing;
        Vec2::new(
            -self.half + (cx as f32 + 0.5) * c,
            -self.half + (cz as f32 + 0.5) * c,
        )
    }

    /// LOD per chunk for a camera: LOD `k` when the horizontal distance to the chunk's nearest
    /// point exceeds `lod_distance · 2^(k−1)` (so `lod_distance` metres at full detail), capped
    /// at [`Self::max_lod`].
    pub fn select(&self, camera: Vec3, lod_distance: f32) -> Vec<ChunkLod> {
        let c = self.chunk_cells as f32 * self.spacing;
        let mut out = Vec::with_capacity(self.chunks_per_side * self.chunks_per_side);
        for cz in 0..self.chunks_per_side {
            for cx in 0..self.chunks_per_side {
                let center = self.chunk_center(cx, cz);
                let d = ((Vec2::new(camera.x, camera.z) - center).abs() - Vec2::splat(c * 0.5))
                    .max(Vec2::ZERO)
                    .length();
                let mut lod = 0;
                while lod < self.max_lod && d > lod_distance * (1u32 << lod) as f32 {
                    lod += 1;
                }
                out.push(ChunkLod { cx, cz, lod });
            }
        }
        out
    }

    /// First sample `(i0, j0)`, cells per side and sample step of one chunk at its LOD.
    fn extent(&self, chunk: ChunkLod) -> (usize, usize, usize, usize) {
        let (i0, j0) = (chunk.cx * self.chunk_cells, chunk.cz * self.chunk_cells);
        let cells = self.chunk_cells.min(self.cells - i0).min(self.cells - j0);
        let step = (1usize << chunk.lod).min(cells.max(1));
        let step = if cells.is_multiple_of(step) { step } else { 1 };
        (i0, j0, cells, step)
    }

    /// Sample step of `chunk`'s mesh: `2^lod`, or 1 for a chunk whose cells it does not divide.
    /// Two chunks sharing a border sample it at the same vertices exactly when their steps
    /// are equal; otherwise the border leaves T-junction cracks that the skirt hides.
    pub fn sample_step(&self, chunk: ChunkLod) -> usize {
        self.extent(chunk).3
    }

    /// Which sides of `chunk` need their skirt when every chunk `(cx, cz)` is drawn at
    /// `lod_of(cx, cz)`, in [`SKIRT_SIDES`] order: a side on the island's outer border (the
    /// skirt closes the terrain's side) or beside a chunk of another [`Self::sample_step`] (the
    /// skirt hides the cracks). Between equal steps the border vertices coincide and the skirt,
    /// hanging below the ground, cannot be seen.
    pub fn skirt_sides(&self, chunk: ChunkLod, lod_of: impl Fn(usize, usize) -> u32) -> [bool; 4] {
        let last = self.chunks_per_side - 1;
        let (cx, cz) = (chunk.cx, chunk.cz);
        let step = self.sample_step(chunk);
        let neighbours = [
            (cz > 0).then(|| (cx, cz - 1)),
            (cx < last).then(|| (cx + 1, cz)),
            (cz < last).then(|| (cx, cz + 1)),
            (cx > 0).then(|| (cx - 1, cz)),
        ];
        neighbours.map(|n| match n {
            None => true,
            Some((x, z)) => {
                let lod = lod_of(x, z);
                self.sample_step(ChunkLod { cx: x, cz: z, lod }) != step
            }
        })
    }

    /// The indices of [`Self::mesh`]`(island, chunk)` that draw its skirt's side `side` (in
    /// [`SKIRT_SIDES`] order): after the ground's, `6 · (cells / step)` per side.
    pub fn skirt_index_range(&self, chunk: ChunkLod, side: usize) -> std::ops::Range<usize> {
        let (_, _, cells, step) = self.extent(chunk);
        let per_side = 6 * (cells / step.max(1));
        let start = surface_index_count(cells, step) + side * per_side;
        start..start + per_side
    }

    /// Indices of the ground surface of [`Self::mesh`]`(island, chunk)`: the first ones, before
    /// the skirt's. A skirt hangs below the ground it borders, so only the surface can shadow
    /// anything above the ground (the renderer draws just these into the sun's shadow map).
    pub fn surface_index_count(&self, chunk: ChunkLod) -> usize {
        let (_, _, cells, step) = self.extent(chunk);
        surface_index_count(cells, step)
    }

    /// Mesh of one chunk at its LOD, with a skirt deep enough to cover the coarsest neighbour.
    pub fn mesh(&self, island: &Island, chunk: ChunkLod) -> Mesh {
        let (i0, j0, cells, step) = self.extent(chunk);
        let skirt = self.spacing * (1u32 << self.max_lod) as f32 * 0.5 + 1.0;
        grid_mesh(
            island,
            i0,
            j0,
            cells,
            step,
            skirt,
            &format!("terrain_{}_{}_lod{}", chunk.cx, chunk.cz, chunk.lod),
        )
    }

    /// Triangles a selection will draw (without building it).
    pub fn triangle_count(&self, selection: &[ChunkLod]) -> usize {
        selection
            .iter()
            .map(|c| {
                let q = self.chunk_cells >> c.lod;
                2 * q * q + 8 * q
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::island::TerrainParams;
    use crate::noise::grid::Threads;

    /// A 257² island in 32-cell chunks (8 per side).
    fn small_island() -> Island {
        let p = TerrainParams {
            resolution: 257,
            chunk_cells: 32,
            ..TerrainParams::default()
        };
        Island::generate_cpu(&p, Threads::All).unwrap()
    }

    #[test]
    fn chunk_tangents_are_unit_orthogonal_and_follow_the_texture() {
        let island = small_island();
        let grid = ChunkGrid::new(&island);
        let (mut steep, mut dots, mut count, mut off) = (0, 0.0, 0, 0);
        for lod in [0, 2] {
            for (cx, cz) in [(3, 3), (4, 3), (3, 5)] {
                let m = grid.mesh(&island, ChunkLod { cx, cz, lod });
                m.validate().unwrap();
                assert_eq!(m.tangents.len(), m.vertex_count());
                for (t, n) in m.tangents.iter().zip(&m.normals) {
                    assert!((t.truncate().length() - 1.0).abs() < 1e-5, "{t}");
                    assert!(t.truncate().dot(*n).abs() < 1e-5, "{t} vs normal {n}");
                    assert_eq!(t.w, 1.0);
                    if n.y < 0.9 {
                        steep += 1;
                    }
                }
                // Independently of the formula: each surface triangle's ∂P/∂u (from its
                // positions and texture coordinates) runs along its vertices' tangents, and
                // its −∂P/∂v (up the texture) on the side of their bitangents cross(n, t) · w
                // (right handedness). Not exactly: the vertex frame is orthonormal while steep
                // faces shear u against v, and on the ridged noise's creases a vertex normal
                // averages both flanks; so: never opposed but on a few crease vertices, and
                // close to parallel along u on average.
                // Only at full detail: coarser LODs keep the full-resolution normals, which
                // differ from their larger faces' own.
                let side = (32 >> lod) + 1;
                for tri in m.indices.chunks_exact(3).filter(|_| lod == 0) {
                    let v = [tri[0], tri[1], tri[2]].map(|i| i as usize);
                    if v.iter().any(|&i| i >= side * side) {
                        continue; // skirt
                    }
                    let (e1, e2) = (
                        m.positions[v[1]] - m.positions[v[0]],
                        m.positions[v[2]] - m.positions[v[0]],
                    );
                    let (d1, d2) = (m.uvs[v[1]] - m.uvs[v[0]], m.uvs[v[2]] - m.uvs[v[0]]);
                    let r = 1.0 / (d1.x * d2.y - d2.x * d1.y);
                    let dp_du = ((e1 * d2.y - e2 * d1.y) * r).normalize();
                    let dp_dv = ((e2 * d1.x - e1 * d2.x) * r).normalize();
                    for i in v {
                        let t = m.tangents[i];
                        let b = m.normals[i].cross(t.truncate()) * t.w;
                        let (along_u, along_v) = (t.truncate().dot(dp_du), b.dot(-dp_dv));
                        if along_u <= 0.0 || along_v <= 0.0 {
                            off += 1;
                        }
                        dots += along_u;
                        count += 1;
                    }
                }
            }
        }
        assert!(steep > 0, "the sampled chunks should include slopes");
        assert!(
            dots / count as f32 > 0.9,
            "mean alignment {}",
            dots / count as f32
        );
        assert!(
            off * 100 < count,
            "{off} of {count} vertex frames oppose their faces"
        );
    }

    #[test]
    fn the_surface_indices_come_before_the_skirt_and_the_skirt_lies_below_them() {
        let island = small_island();
        let grid = ChunkGrid::new(&island);
        for chunk in [
            ChunkLod {
                cx: 3,
                cz: 3,
                lod: 0,
            },
            ChunkLod {
                cx: 4,
                cz: 3,
                lod: 2,
            },
            ChunkLod {
                cx: 7,
                cz: 7,
                lod: 5,
            },
        ] {
            let m = grid.mesh(&island, chunk);
            let surface = grid.surface_index_count(chunk);
            // Counted from the vertices instead: the (q + 1)² grid vertices come first, so a
            // surface triangle uses only those and a skirt triangle at least one after them.
            let q = 32 >> chunk.lod;
            let grid_vertices = ((q + 1) * (q + 1)) as u32;
            let is_surface = |t: &[u32]| t.iter().all(|&i| i < grid_vertices);
            let (head, tail) = m.indices.split_at(surface);
            assert!(head.chunks_exact(3).all(is_surface), "{chunk:?}");
            assert!(
                !tail.is_empty() && !tail.chunks_exact(3).any(is_surface),
                "{chunk:?}"
            );
            // The skirt hangs below the ground: some of its vertices below the lowest rim one.
            let lowest = m.positions[..grid_vertices as usize]
                .iter()
                .map(|p| p.y)
                .fold(f32::MAX, f32::min);
            let below = m.positions[grid_vertices as usize..]
                .iter()
                .filter(|p| p.y < lowest)
                .count();
            assert!(below > 0, "{chunk:?}: no skirt below the ground");
        }
    }

    fn grid_vertices(chunk: ChunkLod) -> usize {
        let q = 32 >> chunk.lod;
        (q + 1) * (q + 1)
    }

    /// `chunk`'s ground vertices on its east (`+x`) or west border, by `z`.
    fn border(grid: &ChunkGrid, island: &Island, chunk: ChunkLod, east: bool) -> Vec<Vec3> {
        let m = grid.mesh(island, chunk);
        let ground = &m.positions[..grid_vertices(chunk)];
        let xs = ground.iter().map(|p| p.x);
        let x = if east {
            xs.fold(f32::MIN, f32::max)
        } else {
            xs.fold(f32::MAX, f32::min)
        };
        let mut border: Vec<Vec3> = ground.iter().copied().filter(|p| p.x == x).collect();
        border.sort_by(|a, b| a.z.total_cmp(&b.z));
        border
    }

    #[test]
    fn a_skirt_is_needed_only_at_the_island_edge_or_beside_another_step() {
        let island = small_island();
        let grid = ChunkGrid::new(&island);
        // Chunks at equal LOD share their border vertices exactly: no crack to hide.
        let west = ChunkLod {
            cx: 3,
            cz: 3,
            lod: 1,
        };
        let east = ChunkLod {
            cx: 4,
            cz: 3,
            lod: 1,
        };
        let shared = border(&grid, &island, west, true);
        assert_eq!(shared, border(&grid, &island, east, false));
        // Control: at another LOD the shared border has other vertices (T-junctions).
        let coarse = ChunkLod { lod: 2, ..east };
        assert_ne!(shared, border(&grid, &island, coarse, false));

        let all = |lod: u32| move |_: usize, _: usize| lod;
        assert_eq!(grid.skirt_sides(west, all(1)), [false; 4]);
        let corner = ChunkLod {
            cx: 0,
            cz: 7,
            lod: 1,
        };
        assert_eq!(
            grid.skirt_sides(corner, all(1)),
            [false, false, true, true],
            "island edge"
        );
        let east_coarser = |x: usize, _: usize| if x == 4 { 2 } else { 1 };
        assert_eq!(
            grid.skirt_sides(west, east_coarser),
            [false, true, false, false]
        );
        assert_eq!(grid.skirt_sides(east, all(1)), [false; 4]);

        // Each side's index range draws the skirt under that side's rim: its top vertices
        // share the side's coordinate.
        let m = grid.mesh(&island, west);
        let rim = &m.positions[..grid_vertices(west)];
        let (x0, x1) = (rim[0].x, rim.iter().map(|p| p.x).fold(f32::MIN, f32::max));
        let (z0, z1) = (rim[0].z, rim.iter().map(|p| p.z).fold(f32::MIN, f32::max));
        let mut covered = grid.surface_index_count(west);
        for (side, name) in SKIRT_SIDES.iter().enumerate() {
            let on = |p: Vec3| match side {
                0 => p.z == z0,
                1 => p.x == x1,
                2 => p.z == z1,
                _ => p.x == x0,
            };
            let range = grid.skirt_index_range(west, side);
            assert_eq!(range.start, covered, "{name}");
            covered = range.end;
            for &i in &m.indices[range] {
                let p = m.positions[i as usize];
                assert!(on(p), "{name}: {p}");
            }
        }
        assert_eq!(covered, m.indices.len());
    }

    #[test]
    fn lod_reduces_triangles_and_meshes_are_valid() {
        let island = small_island();
        let grid = ChunkGrid::new(&island);
        assert_eq!(grid.chunks_per_side, 8);
        let near = grid.select(Vec3::new(0.0, 50.0, 0.0), 1e6);
        let far = grid.select(Vec3::new(0.0, 50.0, 0.0), 20.0);
        assert!(near.iter().all(|c| c.lod == 0));
        assert!(far.iter().any(|c| c.lod > 0));
        assert!(grid.triangle_count(&far) < grid.triangle_count(&near) / 2);
        let mut total = 0;
        for c in &far {
            let m = grid.mesh(&island, *c);
            m.validate().unwrap();
            total += m.triangle_count();
        }
        assert_eq!(total, grid.triangle_count(&far));
        let full = island.mesh();
        full.validate().unwrap();
        assert_eq!(full.vertex_count(), 257 * 257);
        // Upward-facing triangles: the winding is counter-clockwise seen from above.
        let t = &full.indices[..3];
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| full.positions[i as usize]);
        assert!((b - a).cross(c - a).y > 0.0);
    }
}
