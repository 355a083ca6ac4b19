//! Procedural tangent-space normal maps, for levels that want bumpy surfaces without image files
//! (seed 000's three platforms each have a different normal map).
//!
//! Each pattern is a height field `h(u, v)` on the unit square (tiling); the normal is
//! `normalize(-∂h/∂u · strength, +∂h/∂v · strength, 1)` by central differences — +Y is "up" in the
//! image (v decreasing), the glTF convention [`crate::material::SurfaceMaterial::normal`] expects.

/// Height-field pattern of a procedural normal map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NormalPattern {
    /// A 4×4 grid of round bumps (hemispherical caps).
    Bumps,
    /// Bricks in a running bond with bevelled mortar joints.
    Bricks,
    /// Concentric ripples around the centre.
    Ripples,
}

impl NormalPattern {
    /// Parses `bumps`, `bricks` or `ripples`.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "bumps" => Some(Self::Bumps),
            "bricks" => Some(Self::Bricks),
            "ripples" => Some(Self::Ripples),
            _ => None,
        }
    }

    /// Height in [0, 1] at texture coordinate `(u, v)` in [0, 1)².
    pub fn height(self, u: f32, v: f32) -> f32 {
        match self {
            Self::Bumps => {
                let (fu, fv) = ((u * 4.0).fract() - 0.5, (v * 4.0).fract() - 0.5);
                let r2 = (fu * fu + fv * fv) / 0.16;
                (1.0 - r2).max(0.0).sqrt()
            }
            Self::Bricks => {
                let rows = 8.0;
                let row = (v * rows).floor();
                let offset = if row as i32 % 2 == 0 { 0.0 } else { 0.5 };
                let fu = (u * 4.0 + offset).fract();
                let fv = (v * rows).fract();
                // Distance to the nearest joint, in brick-height units; bevel over 0.15.
                let edge = (fu.min(1.0 - fu) * 2.0).min(fv.min(1.0 - fv));
                (edge / 0.15).min(1.0)
            }
            Self::Ripples => {
                let (du, dv) = (u - 0.5, v - 0.5);
                let r = (du * du + dv * dv).sqrt();
                0.5 + 0.5 * (r * 40.0).sin()
            }
        }
    }
}

/// `size × size` RGBA8 normal map of `pattern` (`[size][size][4]`, top row first), to upload as
/// a linear texture; `strength` scales the slopes (height units per texture width).
pub fn normal_map(pattern: NormalPattern, size: u32, strength: f32) -> Vec<u8> {
    let n = size.max(1);
    let texel = 1.0 / n as f32;
    let height = |x: i64, y: i64| {
        let wrap = |i: i64| (i.rem_euclid(i64::from(n)) as f32 + 0.5) * texel;
        pattern.height(wrap(x), wrap(y))
    };
    let mut out = Vec::with_capacity((n * n * 4) as usize);
    for y in 0..i64::from(n) {
        for x in 0..i64::from(n) {
            let dh_du = (height(x + 1, y) - height(x - 1, y)) / (2.0 * texel);
            let dh_dv = (height(x, y + 1) - height(x, y - 1)) / (2.0 * texel);
            // v grows down the image, so "up" (+Y) is -v: the surface tilts towards +Y where
            // height grows with v.
            let normal = glam::Vec3::new(-dh_du * strength, dh_dv * strength, 1.0).normalize();
            for c in normal.to_array() {
                out.push(((c * 0.5 + 0.5) * 255.0).round() as u8);
            }
            out.push(255);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texel(map: &[u8], size: u32, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * size + x) * 4) as usize;
        [map[i], map[i + 1], map[i + 2], map[i + 3]]
    }

    #[test]
    fn bump_normals_lean_away_from_its_centre() {
        let size = 64;
        let map = normal_map(NormalPattern::Bumps, size, 0.05);
        // Bump centred between texels 7 and 8: its top is nearly flat, about (128, 128, 255).
        let top = texel(&map, size, 8, 8);
        assert!(
            top[0].abs_diff(128) <= 8 && top[1].abs_diff(128) <= 8 && top[2] >= 250,
            "{top:?}"
        );
        // Left flank faces -X (red < 128), right flank +X, upper flank +Y (green > 128).
        assert!(texel(&map, size, 5, 8)[0] < 110);
        assert!(texel(&map, size, 11, 8)[0] > 146);
        assert!(texel(&map, size, 8, 5)[1] > 146);
        assert!(texel(&map, size, 8, 11)[1] < 110);
    }

    #[test]
    fn every_texel_is_a_unit_normal_facing_out() {
        for pattern in [
            NormalPattern::Bumps,
            NormalPattern::Bricks,
            NormalPattern::Ripples,
        ] {
            let map = normal_map(pattern, 32, 0.05);
            for t in map.chunks_exact(4) {
                let v = glam::Vec3::new(t[0] as f32, t[1] as f32, t[2] as f32) / 127.5 - 1.0;
                assert!(
                    (v.length() - 1.0).abs() < 0.03 && v.z > 0.0,
                    "{pattern:?}: {t:?}"
                );
            }
        }
    }
}
