//! Level of detail for the drawn sea (thesis, seed 002, §2.3.2 and §2.4.5: fewer triangles for
//! the water away from the camera): the simulated grid is drawn as square tiles of
//! [`TILE_QUADS`]² cells, each with a vertex stride of 1, 2, 4 or 8 cells chosen by its distance
//! from the camera. Only the drawing changes: the simulation still steps every cell.
//!
//! Where a tile meets a coarser neighbour, its edge vertices that the neighbour does not have
//! are moved onto the neighbour's edge line (heights interpolated between the neighbour's two
//! vertices, in `sea.wgsl`), so the tiles meet without cracks.
//!
//! A tile at distance `r` from the camera (to the nearest point of its rectangle on the rest
//! plane, metres) has stride `2^k` with `k = floor(log2(r / distance)) + 1` for `r >= distance`,
//! else 1, capped at `max_stride`.

use bytemuck::{Pod, Zeroable};
use glam::{Vec2, Vec3};

/// Cells per side of a LOD tile (a multiple of every stride).
pub const TILE_QUADS: u32 = 32;

/// The sea's level-of-detail settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeaLod {
    /// Tiles nearer than this are drawn at full resolution; the stride doubles at every
    /// doubling of the distance beyond it, metres (> 0).
    pub distance: f32,
    /// Largest stride, cells (1, 2, 4 or 8).
    pub max_stride: u32,
}

impl Default for SeaLod {
    fn default() -> Self {
        Self {
            distance: 150.0,
            max_stride: 8,
        }
    }
}

/// Mirror of `SeaTile` in `sea.wgsl` (48 bytes): one tile's draw.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct SeaTile {
    /// First cell (col, row), vertex stride in cells, quads along X at that stride.
    pub cell: [u32; 4],
    /// Quads along Z, last col and row of the tile's vertices, 0.
    pub span: [u32; 4],
    /// Strides of the left, right, top and bottom neighbours (0: none).
    pub neighbours: [u32; 4],
}

impl SeaTile {
    /// Quads this tile draws.
    pub fn quads(&self) -> u32 {
        self.cell[3] * self.span[0]
    }
}

/// The stride of a tile `r` metres from the camera.
pub fn stride_at(lod: &SeaLod, r: f32) -> u32 {
    // The largest power of two <= max_stride, within 1..=8.
    let cap = 1u32 << (31 - lod.max_stride.clamp(1, 8).leading_zeros());
    if !(r >= lod.distance && lod.distance > 0.0) {
        return 1;
    }
    let k = (r / lod.distance).log2().floor() as i32 + 1;
    (1u32 << k.clamp(0, 3)).min(cap)
}

/// The tiles of a `cols x rows` grid of `cell`-metre cells whose cell (0, 0) starts at world
/// `origin`, for a camera at `camera` (world).
pub fn plan(
    cols: u32,
    rows: u32,
    cell: f32,
    origin: Vec3,
    camera: Vec3,
    lod: &SeaLod,
) -> Vec<SeaTile> {
    if cols < 2 || rows < 2 {
        return Vec::new();
    }
    let (last_col, last_row) = (cols - 1, rows - 1);
    let (tx, tz) = (last_col.div_ceil(TILE_QUADS), last_row.div_ceil(TILE_QUADS));
    let mut tiles = Vec::with_capacity((tx * tz) as usize);
    for j in 0..tz {
        for i in 0..tx {
            let (c0, r0) = (i * TILE_QUADS, j * TILE_QUADS);
            let (c1, r1) = (
                (c0 + TILE_QUADS).min(last_col),
                (r0 + TILE_QUADS).min(last_row),
            );
            // Vertices sit at cell centres: vertex c is at origin + (c + 0.5) * cell.
            let corner = Vec2::new(origin.x, origin.z);
            let lo = corner + (Vec2::new(c0 as f32, r0 as f32) + 0.5) * cell;
            let hi = corner + (Vec2::new(c1 as f32, r1 as f32) + 0.5) * cell;
            let flat = Vec2::new(camera.x, camera.z);
            let nearest = flat.clamp(lo, hi);
            let r = (flat - nearest).extend(camera.y - origin.y).length();
            let s = stride_at(lod, r);
            tiles.push(SeaTile {
                cell: [c0, r0, s, (c1 - c0).div_ceil(s)],
                span: [(r1 - r0).div_ceil(s), c1, r1, 0],
                neighbours: [0; 4],
            });
        }
    }
    let stride = |i: u32, j: u32| tiles[(j * tx + i) as usize].cell[2];
    let neighbours: Vec<[u32; 4]> = (0..tz)
        .flat_map(|j| (0..tx).map(move |i| (i, j)))
        .map(|(i, j)| {
            [
                if i > 0 { stride(i - 1, j) } else { 0 },
                if i + 1 < tx { stride(i + 1, j) } else { 0 },
                if j > 0 { stride(i, j - 1) } else { 0 },
                if j + 1 < tz { stride(i, j + 1) } else { 0 },
            ]
        })
        .collect();
    for (t, n) in tiles.iter_mut().zip(neighbours) {
        t.neighbours = n;
    }
    tiles
}

/// Triangles the tiles draw (two per quad).
pub fn triangle_count(tiles: &[SeaTile]) -> u32 {
    tiles.iter().map(|t| 2 * t.quads()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strides_double_with_distance() {
        let lod = SeaLod {
            distance: 100.0,
            max_stride: 8,
        };
        let got: Vec<u32> = [
            0.0,
            99.0,
            100.0,
            199.0,
            200.0,
            399.0,
            400.0,
            5000.0,
            f32::NAN,
        ]
        .iter()
        .map(|&r| stride_at(&lod, r))
        .collect();
        assert_eq!(got, [1, 1, 2, 2, 4, 4, 8, 8, 1]);
        let capped = SeaLod {
            max_stride: 2,
            ..lod
        };
        assert_eq!(stride_at(&capped, 5000.0), 2);
    }

    /// With the camera at full resolution everywhere the tiles draw exactly the grid's quads;
    /// moving the camera away, the count falls.
    #[test]
    fn the_triangle_count_falls_with_distance() {
        let lod = SeaLod::default();
        let (cols, rows, cell) = (128, 128, 4.0);
        let centre = Vec3::new(256.0, 0.0, 256.0);
        let count =
            |camera: Vec3| triangle_count(&plan(cols, rows, cell, Vec3::ZERO, camera, &lod));
        let full = 2 * (cols - 1) * (rows - 1);
        let near = count(centre + Vec3::new(0.0, 10.0, 0.0));
        assert_eq!(
            triangle_count(&plan(
                cols,
                rows,
                cell,
                Vec3::ZERO,
                centre,
                &SeaLod {
                    distance: 1e9,
                    max_stride: 8
                }
            )),
            full
        );
        // Moving away along +X: never more triangles, and four different counts on the way.
        let mut last = near;
        let mut counts = vec![near];
        for d in [300.0, 450.0, 700.0, 1200.0, 2400.0] {
            let c = count(centre + Vec3::new(d, 20.0, 0.0));
            assert!(c <= last, "{c} triangles at {d} m, {last} nearer");
            counts.push(c);
            last = c;
        }
        counts.dedup();
        assert!(counts.len() >= 4, "{counts:?}");
        assert!(
            near < full,
            "the far corners of a 512 m grid are coarser: {near} of {full}"
        );
        // Far away every tile is at stride 8: 64 times fewer quads (partial tiles round up).
        assert!(last <= full / 50, "{last}");
    }

    #[test]
    fn neighbours_record_their_strides() {
        let lod = SeaLod {
            distance: 40.0,
            max_stride: 8,
        };
        let tiles = plan(97, 65, 1.0, Vec3::ZERO, Vec3::new(0.0, 1.0, 0.0), &lod);
        assert_eq!(tiles.len(), 3 * 2);
        assert_eq!(
            tiles[0].neighbours,
            [0, tiles[1].cell[2], 0, tiles[3].cell[2]]
        );
        assert_eq!(
            tiles[4].neighbours,
            [tiles[3].cell[2], tiles[5].cell[2], tiles[1].cell[2], 0]
        );
        assert!(tiles[0].cell[2] < tiles[2].cell[2], "{tiles:?}");
        // The last column of tiles ends at the grid's last vertex.
        assert_eq!(tiles[2].span[1], 96);
    }
}
