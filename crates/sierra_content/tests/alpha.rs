//! glTF alpha modes (§3.9.4) through the one material conversion (`GltfMaterials`), with
//! materials built here: MASK discards texels under the cutoff, BLEND composites "over" in a
//! back-to-front sorted pass whatever the submission order. Rendered unlit
//! (`DebugView::UnlitAlbedo`), so every expected colour is exact arithmetic.

// The renderer tests' helpers (GPU context), shared rather than copied.
#[path = "../../sierra_render/tests/support/mod.rs"]
mod support;

use glam::{Mat4, Vec3, Vec4};
use sierra_content::GltfMaterials;
use sierra_gltf::{AlphaMode, ImportedImage, ImportedMaterial, TextureRef};
use sierra_render::{
    primitives, Camera, DebugView, DrawItem, FrameData, GpuContext, HeadlessRenderer, PostSettings,
};
use support::context;

const SIZE: u32 = 64;

/// Looking straight down at the origin from `height` metres: screen right is +x, screen down +z.
fn camera(height: f32) -> Camera {
    support::square_camera(Vec3::Y * height, Vec3::NEG_Z, 40f32.to_radians(), 20.0)
}

fn material(base: Vec4, alpha_mode: AlphaMode, texture: Option<usize>) -> ImportedMaterial {
    ImportedMaterial {
        base_color_factor: base,
        base_color_texture: texture.map(|image| TextureRef {
            image,
            ..TextureRef::default()
        }),
        alpha_mode,
        ..ImportedMaterial::default()
    }
}

/// Renders one 10 m plane per `(material index, height)`, submitted in that order.
fn render(
    ctx: &GpuContext,
    materials: &[ImportedMaterial],
    images: &[ImportedImage],
    planes: &[(usize, f32)],
) -> image::RgbaImage {
    let mut headless = HeadlessRenderer::new(ctx, SIZE, SIZE).unwrap();
    let converted = GltfMaterials::from_parts(ctx, "test", materials, images).unwrap();
    let mut frame = FrameData {
        clear_color: Vec4::new(0.0, 0.0, 0.0, 1.0),
        post: PostSettings {
            debug_view: DebugView::UnlitAlbedo,
            ..PostSettings::default()
        },
        ..FrameData::new(camera(3.0))
    };
    for &(m, height) in planes {
        let mesh = headless
            .renderer
            .upload_mesh(ctx, &primitives::plane(10.0), "plane")
            .unwrap();
        let (surface, factors) = converted.get(Some(m)).unwrap();
        headless.renderer.set_material(ctx, mesh, surface).unwrap();
        frame.draws.push(DrawItem {
            mesh,
            model: Mat4::from_translation(Vec3::Y * height),
            material: factors,
            surface: None,
        });
    }
    headless.render(ctx, &frame).unwrap().0
}

/// An sRGB-encoded byte as linear light (the test kit's independent decoder).
fn srgb_to_linear(c: u8) -> f32 {
    sierra_testkit::srgb::srgb_to_linear(c) as f32
}

fn linear_at(image: &image::RgbaImage, x: u32, y: u32) -> Vec3 {
    let p = image.get_pixel(x, y).0;
    Vec3::new(
        srgb_to_linear(p[0]),
        srgb_to_linear(p[1]),
        srgb_to_linear(p[2]),
    )
}

fn assert_close(got: Vec3, want: Vec3, what: &str) {
    assert!(
        (got - want).abs().max_element() < 0.02,
        "{what}: got {got}, want {want}"
    );
}

#[test]
fn a_mask_material_discards_texels_under_its_cutoff() {
    let ctx = context();
    // 64×1: alpha 0.2 on the left half (u < 0.5), 0.9 on the right.
    let rgba8 = (0..64)
        .flat_map(|x| [255, 255, 255, if x < 32 { 51 } else { 230 }])
        .collect();
    let images = [ImportedImage {
        name: "alpha".into(),
        width: 64,
        height: 1,
        rgba8,
    }];
    let green = Vec4::new(0.0, 1.0, 0.0, 1.0);
    let mask = material(green, AlphaMode::Mask { cutoff: 0.5 }, Some(0));
    let image = render(&ctx, &[mask], &images, &[(0, 0.0)]);
    image
        .save(std::env::temp_dir().join("sierra_alpha_mask.png"))
        .ok();
    let y = SIZE / 2;
    // u = 0.5 at the centre column; the plane fills the view.
    assert_close(
        linear_at(&image, SIZE / 8, y),
        Vec3::ZERO,
        "left (alpha 0.2)",
    );
    assert_close(
        linear_at(&image, SIZE * 7 / 8, y),
        Vec3::Y,
        "right (alpha 0.9)",
    );
    // The same texture opaque: alpha ignored, both halves drawn.
    let opaque = material(green, AlphaMode::Opaque, Some(0));
    let image = render(&ctx, &[opaque], &images, &[(0, 0.0)]);
    assert_close(linear_at(&image, SIZE / 8, y), Vec3::Y, "opaque left");
}

#[test]
fn blend_materials_composite_back_to_front_whatever_the_submission_order() {
    let ctx = context();
    let materials = [
        material(Vec4::new(0.0, 0.0, 1.0, 1.0), AlphaMode::Opaque, None),
        material(Vec4::new(1.0, 0.0, 0.0, 0.5), AlphaMode::Blend, None),
        material(Vec4::new(0.0, 1.0, 0.0, 0.5), AlphaMode::Blend, None),
    ];
    // Blue floor; red at 0.5 m, green at 1 m (nearer the camera); the nearest submitted first.
    let over = |top: Vec3, a: f32, below: Vec3| top * a + below * (1.0 - a);
    let sorted = over(Vec3::Y, 0.5, over(Vec3::X, 0.5, Vec3::Z));
    let unsorted = over(Vec3::X, 0.5, over(Vec3::Y, 0.5, Vec3::Z));
    for planes in [
        [(2, 1.0), (1, 0.5), (0, 0.0)],
        [(0, 0.0), (1, 0.5), (2, 1.0)],
        [(1, 0.5), (2, 1.0), (0, 0.0)],
    ] {
        let image = render(&ctx, &materials, &[], &planes);
        image
            .save(std::env::temp_dir().join("sierra_alpha_blend.png"))
            .ok();
        let got = linear_at(&image, SIZE / 2, SIZE / 2);
        assert_close(got, sorted, &format!("submitted as {planes:?}"));
        assert!((got - unsorted).abs().max_element() > 0.1);
    }
    // A blended surface under an opaque one is hidden (depth tested, though not written).
    let image = render(&ctx, &materials, &[], &[(0, 1.0), (1, 0.5)]);
    assert_close(
        linear_at(&image, SIZE / 2, SIZE / 2),
        Vec3::Z,
        "red under blue",
    );
}
