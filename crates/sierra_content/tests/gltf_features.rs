//! glTF features without a shared sample (issue #19), each on a minimal file built here and
//! rendered through the one import → upload → draw path (`upload_gltf`), against a control
//! without the feature: `texCoord` 1, every wrap mode, the mag/min/mip filters,
//! `KHR_texture_transform` offset/rotation/scale, `COLOR_0`, `KHR_materials_emissive_strength`.
//!
//! The scene: a 2 m quad at y = 0 seen straight down through a 90° camera 1 m above it, so the
//! quad fills the `SIZE`² image exactly and pixel `(x, y)` sees the quad point `s = (x + ½) / SIZE`,
//! `t = (y + ½) / SIZE` (screen right +x, screen down +z). Its UVs are `origin + span · (s, t)`.
//! Unlit albedo (`DebugView::UnlitAlbedo`) makes each expected colour exact: the texel that
//! nearest filtering picks, computed here from the spec's wrap and transform formulas.

#[path = "../../sierra_render/tests/support/mod.rs"]
mod support;

use std::path::Path;

use glam::{Mat3, Vec2, Vec3, Vec4};
use serde_json::{json, Value};
use sierra_content::upload_gltf;
use sierra_gltf::{GltfAsset, ImportOptions, Resolver};
use sierra_render::{DebugView, FrameData, GpuContext, HeadlessRenderer, PostSettings, Sun};
use sierra_testkit::glb::merge;
use support::context;

const SIZE: u32 = 64;

/// An RGBA8 image (sRGB) as PNG bytes.
fn png(width: u32, height: u32, rgba: Vec<u8>) -> Vec<u8> {
    let img = image::RgbaImage::from_raw(width, height, rgba).unwrap();
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

/// 4×4 texels, each a distinct colour: `(60·i + 15, 60·j + 15, 200)` for column i, row j.
fn grid_texel(i: u32, j: u32) -> [u8; 3] {
    [(60 * i + 15) as u8, (60 * j + 15) as u8, 200]
}

fn grid_png() -> Vec<u8> {
    let rgba = (0..4)
        .flat_map(|j| {
            (0..4).flat_map(move |i| {
                let [r, g, b] = grid_texel(i, j);
                [r, g, b, 255]
            })
        })
        .collect();
    png(4, 4, rgba)
}

/// The quad's file: TEXCOORD_0 = `uv0(s, t)`, TEXCOORD_1 = `uv1(s, t)` at the corners (affine
/// in s, t); `material` and `sampler` as JSON; the texture is `image` (PNG bytes), if any;
/// `color` is COLOR_0 (RGBA, all corners), if any.
struct Quad {
    uv0: fn(Vec2) -> Vec2,
    uv1: fn(Vec2) -> Vec2,
    material: Value,
    sampler: Value,
    image: Option<Vec<u8>>,
    color: Option<[f32; 4]>,
    extensions: Vec<&'static str>,
}

impl Default for Quad {
    fn default() -> Self {
        Self {
            uv0: |st| st,
            uv1: |st| Vec2::new(st.y, st.x),
            material: json!({}),
            sampler: json!({}),
            image: Some(grid_png()),
            color: None,
            extensions: Vec::new(),
        }
    }
}

impl Quad {
    fn glb(&self) -> Vec<u8> {
        let corners = [
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 1.0),
        ];
        let mut bin: Vec<f32> = corners
            .iter()
            .flat_map(|c| [c.x * 2.0 - 1.0, 0.0, c.y * 2.0 - 1.0])
            .collect();
        bin.extend(corners.iter().flat_map(|_| [0.0, 1.0, 0.0]));
        bin.extend(corners.iter().flat_map(|&c| (self.uv0)(c).to_array()));
        bin.extend(corners.iter().flat_map(|&c| (self.uv1)(c).to_array()));
        bin.extend(corners.iter().flat_map(|_| self.color.unwrap_or([1.0; 4])));
        let mut bytes: Vec<u8> = bytemuck::cast_slice(&bin).to_vec();
        bytes.extend(bytemuck::cast_slice::<u16, u8>(&[0, 2, 1, 0, 3, 2]));
        let image_at = bytes.len().next_multiple_of(4);
        bytes.resize(image_at, 0);
        let image = self.image.clone().unwrap_or_default();
        bytes.extend(&image);
        let view = |offset: usize, length: usize| json!({"buffer": 0, "byteOffset": offset, "byteLength": length});
        let mut attributes = json!({"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2, "TEXCOORD_1": 3});
        if self.color.is_some() {
            attributes["COLOR_0"] = json!(4);
        }
        let mut material = json!({"pbrMetallicRoughness": {"metallicFactor": 0.0}});
        if self.image.is_some() {
            material["pbrMetallicRoughness"]["baseColorTexture"] = json!({"index": 0});
        }
        merge(&mut material, self.material.clone());
        let mut json = json!({
            "asset": {"version": "2.0"},
            "extensionsUsed": self.extensions,
            "buffers": [{"byteLength": bytes.len().next_multiple_of(4)}],
            "bufferViews": [view(0, 48), view(48, 48), view(96, 32), view(128, 32), view(160, 64), view(224, 12),
                            view(image_at, image.len())],
            "accessors": [
                {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [-1, 0, -1], "max": [1, 0, 1]},
                {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC3"},
                {"bufferView": 2, "componentType": 5126, "count": 4, "type": "VEC2"},
                {"bufferView": 3, "componentType": 5126, "count": 4, "type": "VEC2"},
                {"bufferView": 4, "componentType": 5126, "count": 4, "type": "VEC4"},
                {"bufferView": 5, "componentType": 5123, "count": 6, "type": "SCALAR"}
            ],
            "materials": [material],
            "meshes": [{"primitives": [{"attributes": attributes, "indices": 5, "material": 0}]}],
            "nodes": [{"mesh": 0}],
            "scenes": [{"nodes": [0]}]
        });
        if self.image.is_some() {
            json["images"] = json!([{"bufferView": 6, "mimeType": "image/png"}]);
            json["samplers"] = json!([self.sampler]);
            json["textures"] = json!([{"source": 0, "sampler": 0}]);
        }
        sierra_testkit::glb::glb(&serde_json::to_vec(&json).unwrap(), &bytes)
    }
}

/// Renders `quad` (unlit albedo, or lit with no light when `lit`) and returns the image.
fn render(ctx: &GpuContext, quad: &Quad, lit: bool) -> image::RgbaImage {
    let asset = GltfAsset::from_bytes(
        &quad.glb(),
        Path::new("quad.glb"),
        &Resolver::default(),
        ImportOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut headless = HeadlessRenderer::new(ctx, SIZE, SIZE).unwrap();
    let model = upload_gltf(ctx, &mut headless.renderer, &asset).unwrap_or_else(|e| panic!("{e}"));
    let camera = support::square_camera(Vec3::Y, Vec3::NEG_Z, 90f32.to_radians(), 10.0);
    let frame = FrameData {
        sun: Sun {
            intensity: 0.0,
            ambient: Vec3::ZERO,
            ..Sun::default()
        },
        draws: model.draws.clone(),
        post: PostSettings {
            debug_view: if lit {
                DebugView::Lit
            } else {
                DebugView::UnlitAlbedo
            },
            ..PostSettings::default()
        },
        ..FrameData::new(camera)
    };
    headless.render(ctx, &frame).unwrap().0
}

/// The quad point pixel `(x, y)` sees.
fn st(x: u32, y: u32) -> Vec2 {
    (Vec2::new(x as f32, y as f32) + 0.5) / SIZE as f32
}

fn repeat(u: f32) -> f32 {
    u - u.floor()
}

fn mirrored(u: f32) -> f32 {
    let m = u.rem_euclid(2.0);
    if m > 1.0 {
        2.0 - m
    } else {
        m
    }
}

fn clamp(u: f32) -> f32 {
    u.clamp(0.0, 1.0)
}

/// Compares every pixel with the grid texel at `uv(st)` (wrapped coordinates in [0, 1]),
/// skipping pixels within 0.15 texel of a texel edge; returns how many pixels differ by more
/// than 3 of 255 (the caller asserts 0 for the feature and > 0 for its control).
fn mismatches(image: &image::RgbaImage, uv: impl Fn(Vec2) -> Vec2) -> usize {
    let mut bad = 0;
    for y in 0..SIZE {
        for x in 0..SIZE {
            let texel = uv(st(x, y)) * 4.0;
            let edge = |c: f32| (c - c.round()).abs() < 0.15 && c > 0.01 && c < 3.99;
            if edge(texel.x) || edge(texel.y) {
                continue;
            }
            let want = grid_texel((texel.x as u32).min(3), (texel.y as u32).min(3));
            let got = image.get_pixel(x, y).0;
            if (0..3).any(|c| (i32::from(got[c]) - i32::from(want[c])).abs() > 3) {
                bad += 1;
            }
        }
    }
    bad
}

const NEAREST: i32 = 9728;

#[test]
fn texcoord_1_is_the_set_the_material_names() {
    let ctx = context();
    let nearest = json!({"magFilter": NEAREST, "minFilter": NEAREST});
    let set1 = Quad {
        material: json!({"pbrMetallicRoughness": {"baseColorTexture": {"texCoord": 1}}}),
        sampler: nearest.clone(),
        ..Quad::default()
    };
    let image = render(&ctx, &set1, false);
    image
        .save(std::env::temp_dir().join("sierra_gltf_texcoord1.png"))
        .ok();
    assert_eq!(
        mismatches(&image, |st| Vec2::new(st.y, st.x)),
        0,
        "TEXCOORD_1 = (t, s)"
    );
    assert!(mismatches(&image, |st| st) > 100, "control: not TEXCOORD_0");
    // Control: texCoord 0 draws TEXCOORD_0.
    let set0 = Quad {
        sampler: nearest,
        ..Quad::default()
    };
    let image = render(&ctx, &set0, false);
    assert_eq!(mismatches(&image, |st| st), 0);
}

#[test]
fn every_wrap_mode_wraps_as_the_spec_says() {
    let ctx = context();
    // UVs from -1 to 2 across the quad: three periods of the texture.
    let wide = |st: Vec2| st * 3.0 - 1.0;
    type Wrap = fn(f32) -> f32;
    let cases: [(i32, Wrap, i32, Wrap); 3] = [
        (10497, repeat, 33648, mirrored),
        (33648, mirrored, 33071, clamp),
        (33071, clamp, 10497, repeat),
    ];
    for (wrap_s, fs, wrap_t, ft) in cases {
        let quad = Quad {
            uv0: |st| st * 3.0 - 1.0,
            sampler: json!({"wrapS": wrap_s, "wrapT": wrap_t, "magFilter": NEAREST, "minFilter": NEAREST}),
            ..Quad::default()
        };
        let image = render(&ctx, &quad, false);
        image
            .save(std::env::temp_dir().join(format!("sierra_gltf_wrap_{wrap_s}_{wrap_t}.png")))
            .ok();
        let uv = |st: Vec2| {
            let w = wide(st);
            Vec2::new(fs(w.x), ft(w.y))
        };
        assert_eq!(mismatches(&image, uv), 0, "wrapS {wrap_s} wrapT {wrap_t}");
        // Control: the same pixels under the other two modes' rules differ.
        for other in [repeat, mirrored, clamp] {
            if other as usize != fs as usize {
                let wrong = |st: Vec2| {
                    let w = wide(st);
                    Vec2::new(other(w.x), ft(w.y))
                };
                assert!(
                    mismatches(&image, wrong) > 50,
                    "wrapS {wrap_s} is not another mode"
                );
            }
        }
    }
}

fn linear(byte: u8) -> f32 {
    sierra_render::texture::srgb_to_linear(f32::from(byte) / 255.0)
}

/// Linear red of every pixel.
fn reds(image: &image::RgbaImage) -> Vec<f32> {
    image.pixels().map(|p| linear(p.0[0])).collect()
}

/// Fraction of `values` within 0.05 of 0 or 1.
fn pure(values: &[f32]) -> f32 {
    values
        .iter()
        .filter(|&&v| !(0.05..=0.95).contains(&v))
        .count() as f32
        / values.len() as f32
}

/// A `side`² checker of `cell`-texel black and white squares.
fn checker(side: u32, cell: u32) -> Vec<u8> {
    let rgba = (0..side)
        .flat_map(|y| {
            (0..side).flat_map(move |x| {
                let v = if (x / cell + y / cell).is_multiple_of(2) {
                    0
                } else {
                    255
                };
                [v, v, v, 255]
            })
        })
        .collect();
    png(side, side, rgba)
}

#[test]
fn mag_min_and_mip_filters_reach_the_gpu_sampler() {
    let ctx = context();
    // Magnification: a black | white 2×1 texture across the quad. At s = 3/8, nearest is black;
    // linear is a quarter of the way from the black texel centre (1/4) to the white one (3/4).
    let halves = png(2, 1, vec![0, 0, 0, 255, 255, 255, 255, 255]);
    let mag = |filter: i32| {
        let quad = Quad {
            image: Some(halves.clone()),
            sampler: json!({"magFilter": filter, "minFilter": 9729}),
            ..Quad::default()
        };
        let image = render(&ctx, &quad, false);
        linear(image.get_pixel(SIZE * 3 / 8, SIZE / 2).0[0])
    };
    let (nearest, linear_mag) = (mag(NEAREST), mag(9729));
    assert!(nearest < 0.01, "NEAREST: {nearest}");
    assert!((linear_mag - 0.25).abs() < 0.04, "LINEAR: {linear_mag}");

    // Minification, 4 texels per pixel (level 2) of a 1-texel checker: without mips every
    // pixel is one texel, black or white; with mips (levels ≥ 1 are all 50 % grey) all grey.
    let fine = checker(256, 1);
    let min = |filter: i32| {
        let quad = Quad {
            image: Some(fine.clone()),
            sampler: json!({"magFilter": 9729, "minFilter": filter}),
            ..Quad::default()
        };
        reds(&render(&ctx, &quad, false))
    };
    let no_mips = min(NEAREST);
    assert!(pure(&no_mips) > 0.9, "NEAREST: {} pure", pure(&no_mips));
    let trilinear = min(9987);
    let grey = trilinear
        .iter()
        .filter(|v| (**v - 0.5).abs() < 0.05)
        .count();
    assert!(
        grey as f32 > 0.9 * trilinear.len() as f32,
        "LINEAR_MIPMAP_LINEAR: {grey} grey"
    );

    // Between mips: 4-texel cells of a 64² texture over 64 px, UVs scaled by 2^2.3, so the
    // level of detail is 2.3: level 2 is a 1-texel checker (pure), level 3 is grey. The nearest
    // mip draws level 2 (pure); the linear blend is 0.7 · (0 or 1) + 0.3 · 0.5 (never pure).
    let coarse = checker(64, 4);
    let mip = |filter: i32| {
        let quad = Quad {
            uv0: |st| st * 2f32.powf(2.3),
            image: Some(coarse.clone()),
            sampler: json!({"magFilter": NEAREST, "minFilter": filter}),
            ..Quad::default()
        };
        reds(&render(&ctx, &quad, false))
    };
    let nearest_mip = mip(9984);
    let linear_mip = mip(9986);
    eprintln!(
        "pure pixels: NEAREST_MIPMAP_NEAREST {:.2}, NEAREST_MIPMAP_LINEAR {:.2}",
        pure(&nearest_mip),
        pure(&linear_mip)
    );
    assert!(
        pure(&nearest_mip) > 0.8,
        "NEAREST_MIPMAP_NEAREST: {}",
        pure(&nearest_mip)
    );
    assert!(
        pure(&linear_mip) < 0.1,
        "NEAREST_MIPMAP_LINEAR: {}",
        pure(&linear_mip)
    );
}

#[test]
fn texture_transform_offsets_rotates_and_scales_the_uvs() {
    let ctx = context();
    let nearest = json!({"magFilter": NEAREST, "minFilter": NEAREST});
    let cases = [
        (Vec2::new(0.25, 0.5), 0.0f32, Vec2::ONE),
        (Vec2::ZERO, 0.6, Vec2::ONE),
        (Vec2::ZERO, 0.0, Vec2::new(1.5, 0.75)),
        (Vec2::new(0.1, -0.3), -1.1, Vec2::new(0.8, 1.7)),
    ];
    for (offset, rotation, scale) in cases {
        let quad = Quad {
            material: json!({"pbrMetallicRoughness": {"baseColorTexture": {"extensions": {"KHR_texture_transform":
                {"offset": offset.to_array(), "rotation": rotation, "scale": scale.to_array()}}}}}),
            sampler: nearest.clone(),
            extensions: vec!["KHR_texture_transform"],
            ..Quad::default()
        };
        let image = render(&ctx, &quad, false);
        // The extension's spec: uv' = T · R · S · uv, R = [cos sin; −sin cos] (rows).
        let (s, c) = rotation.sin_cos();
        let m = Mat3::from_translation(offset)
            * Mat3::from_cols(Vec3::new(c, -s, 0.0), Vec3::new(s, c, 0.0), Vec3::Z)
            * Mat3::from_scale(scale);
        let transformed = |st: Vec2| {
            let uv = m.transform_point2(st);
            Vec2::new(repeat(uv.x), repeat(uv.y))
        };
        let what = format!("offset {offset} rotation {rotation} scale {scale}");
        assert_eq!(mismatches(&image, transformed), 0, "{what}");
        assert!(
            mismatches(&image, |st| st) > 50,
            "control: {what} changes the image"
        );
    }
}

#[test]
fn color_0_multiplies_the_base_colour() {
    let ctx = context();
    let colored = Quad {
        image: None,
        color: Some([0.5, 0.25, 1.0, 1.0]),
        material: json!({"pbrMetallicRoughness": {"baseColorFactor": [0.5, 1.0, 1.0, 1.0]}}),
        ..Quad::default()
    };
    let centre = |quad: &Quad| {
        let p = render(&ctx, quad, false).get_pixel(SIZE / 2, SIZE / 2).0;
        Vec3::new(linear(p[0]), linear(p[1]), linear(p[2]))
    };
    let got = centre(&colored);
    assert!(
        (got - Vec3::new(0.25, 0.25, 1.0)).abs().max_element() < 0.01,
        "{got}"
    );
    let plain = centre(&Quad {
        color: None,
        ..colored
    });
    assert!(
        (plain - Vec3::new(0.5, 1.0, 1.0)).abs().max_element() < 0.01,
        "control: {plain}"
    );
}

#[test]
fn emissive_strength_scales_the_emission() {
    let ctx = context();
    let emissive = |strength: Option<f32>| {
        let mut material = json!({"emissiveFactor": [0.1, 0.05, 0.2],
                                  "pbrMetallicRoughness": {"baseColorFactor": [0.0, 0.0, 0.0, 1.0]}});
        if let Some(s) = strength {
            material["extensions"] =
                json!({"KHR_materials_emissive_strength": {"emissiveStrength": s}});
        }
        let quad = Quad {
            image: None,
            material,
            extensions: vec!["KHR_materials_emissive_strength"],
            ..Quad::default()
        };
        let p = render(&ctx, &quad, true).get_pixel(SIZE / 2, SIZE / 2).0;
        Vec4::new(linear(p[0]), linear(p[1]), linear(p[2]), 1.0).truncate()
    };
    let strong = emissive(Some(3.0));
    assert!(
        (strong - Vec3::new(0.3, 0.15, 0.6)).abs().max_element() < 0.01,
        "{strong}"
    );
    let plain = emissive(None);
    assert!(
        (plain - Vec3::new(0.1, 0.05, 0.2)).abs().max_element() < 0.01,
        "control: {plain}"
    );
}
