//! The checks of `gltf_render.rs` on Khronos sample models rendered from +Z at `SIZE`² (camera
//! fitted to the model's bounds: [`view`]), shared with the level-placed variants in
//! `crates/sierra/tests/level_gltf.rs`, so both paths are held to the same pixels.

#![allow(dead_code)]

use glam::Vec3;

/// Side of the rendered image, pixels (cell positions below are at this size).
pub const SIZE: u32 = 384;

/// The view the checks expect for a model with bounds `lo..hi`: `(eye, centre, near, far)`,
/// 45° vertical field of view, square image.
pub fn view(lo: Vec3, hi: Vec3) -> (Vec3, Vec3, f32, f32) {
    let centre = (lo + hi) * 0.5;
    let radius = (hi - lo).length() * 0.5;
    (
        centre + Vec3::new(0.0, 0.0, radius * 2.6),
        centre,
        radius * 0.05,
        radius * 10.0,
    )
}

/// The sun the checks expect: from the upper left front, white, ambient 0.15.
pub const SUN_DIRECTION: Vec3 = Vec3::new(0.5, -0.5, -1.0);

/// Ambient light of the checks' sun.
pub const AMBIENT: f32 = 0.15;

/// Background colour (linear RGB).
pub const CLEAR: Vec3 = Vec3::new(0.1, 0.1, 0.12);

/// Rec. 709 luma of pixel `(x, y)`, 0–255.
pub fn luminance(image: &image::RgbaImage, x: u32, y: u32) -> f32 {
    let p = image.get_pixel(x, y).0;
    0.2126 * f32::from(p[0]) + 0.7152 * f32::from(p[1]) + 0.0722 * f32::from(p[2])
}

/// Mean luminance of the upper-left minus the lower-right quadrant of the `2h × 2h` window
/// centred on `(cx, cy)`: positive for a bump lit from the upper left, negative for a dent.
fn lit_from_upper_left(image: &image::RgbaImage, cx: u32, cy: u32) -> f32 {
    let h = 12;
    let (mut upper_left, mut lower_right) = (0.0, 0.0);
    for dy in 1..=h {
        for dx in 1..=h {
            upper_left += luminance(image, cx - dx, cy - dy);
            lower_right += luminance(image, cx + dx, cy + dy);
        }
    }
    (upper_left - lower_right) / (h * h) as f32
}

/// Offset from `(cx, cy)` of the brightest pixel within 8 pixels (the specular highlight).
fn highlight_offset(image: &image::RgbaImage, cx: u32, cy: u32) -> (i32, i32) {
    let mut best = (0, 0, f32::MIN);
    for dy in -8..=8i32 {
        for dx in -8..=8i32 {
            let l = luminance(image, (cx as i32 + dx) as u32, (cy as i32 + dy) as u32);
            if l > best.2 {
                best = (dx, dy, l);
            }
        }
    }
    (best.0, best.1)
}

/// Checks every test cell at the given centres (pixels of the 384² render).
fn assert_cells_lit_from_upper_left(
    image: &image::RgbaImage,
    columns: &[u32],
    rows: &[u32],
    what: &str,
) {
    for &x in columns {
        for &y in rows {
            let g = lit_from_upper_left(image, x, y);
            assert!(
                g > 2.0,
                "{what}: cell at ({x}, {y}) not lit from the upper left ({g})"
            );
        }
    }
}

// Cell centres come from the renders (the camera is fitted to the model's bounds, so they are
// fixed): each geometry cell sits beside its normal-mapped twin.
pub const ROWS: [u32; 5] = [86, 131, 177, 222, 268];

/// Pixels whose red channel dominates (the model's red "X" marks: a face seen from the wrong side).
fn red_marks(image: &image::RgbaImage) -> usize {
    image
        .pixels()
        .filter(|p| {
            let [r, g, b, _] = p.0.map(u32::from);
            r > 90 && r > 2 * g && r > 2 * b
        })
        .count()
}

/// Pixels whose green channel dominates (the model's green check marks).
fn green_marks(image: &image::RgbaImage) -> usize {
    image
        .pixels()
        .filter(|p| {
            let [r, g, b, _] = p.0.map(u32::from);
            g > 90 && 2 * g > 3 * r && 2 * g > 3 * b
        })
        .count()
}

/// NormalTangentTest: every geometry cell and its normal-mapped twin is lit from the upper left.
pub fn check_normal_tangent(image: &image::RgbaImage) {
    // Dielectric columns: geometry (left of each pair) and normal map with MikkTSpace tangents
    // (right) both show a bump lit from the light's side; a flipped bitangent shows dents.
    assert_cells_lit_from_upper_left(image, &[81, 118, 173, 210], &ROWS, "NormalTangentTest");
}

/// NormalTangentMirrorTest: both halves (geometry, mirrored-UV normal maps) lit from one side.
pub fn check_normal_tangent_mirror(image: &image::RgbaImage) {
    // Left half: real geometry; right half: normal-mapped quads with the file's tangents
    // (mirrored UVs, w = -1 where mirrored). Both must be lit from the same side.
    let rows = [106, 145, 184, 223, 262];
    assert_cells_lit_from_upper_left(image, &[68, 100, 132, 164], &rows, "mirror test left");
    // The right half's material is metallic (dark without an environment map), so its relief
    // shows in the specular highlight: up and to the left of each cell's centre, as on a sphere
    // lit from the upper left (a wrong handedness moves it right or down).
    for x in [222, 254, 286, 318] {
        for y in rows {
            let (dx, dy) = highlight_offset(image, x, y);
            assert!(
                dx < 0 && dy < 0,
                "mirror test right: highlight of cell ({x}, {y}) at offset ({dx}, {dy})"
            );
        }
    }
}

/// A textured model is not blank: many distinct colours from its texture.
pub fn check_textured(image: &image::RgbaImage, name: &str) {
    let mut colours: Vec<[u8; 4]> = image.pixels().map(|p| p.0).collect();
    colours.sort_unstable();
    colours.dedup();
    assert!(colours.len() > 50, "{name}: only {} colours", colours.len());
}

/// NegativeScaleTest: mirrored nodes culled and lit like the others.
pub fn check_negative_scale(image: &image::RgbaImage) {
    // glTF 2.0 §3.7.4: a node whose world matrix has a negative determinant shows its clockwise
    // faces. Rendered correctly the model shows six green checks and no red X (the X marks sit
    // on the faces that must be culled); the mirrored row's checks are as many pixels as the
    // unmirrored row's.
    let reds = red_marks(image);
    let greens = green_marks(image);
    assert!(
        reds < 10,
        "{reds} red-mark pixels: mirrored faces culled the wrong way"
    );
    assert!(greens > 200, "{greens} green-mark pixels");
    // Rows of the check table at this framing: "scale 1.0" around y = 0.32, "scale -1.0" around
    // y = 0.40 of the image height.
    let band = |y0: f32, y1: f32| {
        let (y0, y1) = ((y0 * SIZE as f32) as u32, (y1 * SIZE as f32) as u32);
        green_marks(&image::imageops::crop_imm(image, 0, y0, SIZE, y1 - y0).to_image())
    };
    let (plain, mirrored) = (band(0.28, 0.36), band(0.36, 0.44));
    assert!(
        plain > 50 && mirrored * 5 > plain * 4 && plain * 5 > mirrored * 4,
        "green checks: {plain} pixels in the scale 1.0 row, {mirrored} in the scale -1.0 row"
    );
    // The white spheres (scale 1.0 at x = 0.57, mirrored at x = 0.70, y = 0.57) are lit alike:
    // a mirrored sphere drawn inside out would show its dim inner side.
    let mean = |fx: f32, fy: f32| {
        let (cx, cy) = ((fx * SIZE as f32) as u32, (fy * SIZE as f32) as u32);
        let mut sum = 0.0;
        for y in cy - 4..=cy + 4 {
            for x in cx - 4..=cx + 4 {
                sum += luminance(image, x, y);
            }
        }
        sum / 81.0
    };
    let (plain, mirrored) = (mean(0.568, 0.568), mean(0.703, 0.568));
    assert!(
        plain > 150.0 && (plain - mirrored).abs() < 0.1 * plain,
        "white sphere luminance {plain}, mirrored {mirrored}"
    );
}
