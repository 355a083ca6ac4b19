//! Open bug (#10.5, the demo's unbounded memory): on Mesa 22.3 lavapipe every forward-pass draw
//! makes the driver JIT-compile new code that is never freed (heaptrack: about five MCJIT objects
//! and 1.3-2.2 MB per draw per frame), so `sierra demo` grows by ~115 MB per frame on the island
//! (85 draws) and ~4.5 MB on the player level (3 draws), in a window and headless alike. The
//! growth scales with draws, not with pixels (64x64 and 480x270 grow alike), and does not depend
//! on point lights, the PCF radius, shadows, bloom, sky, GPU timing or wireframe.
//! `ForwardPass` alone (its own `prepare`/`record`, no other pass) reproduces it, while
//! forward.wgsl drawn on raw wgpu with the same bind pattern (dynamic object offsets, material
//! group per draw, a 2048² shadow map rendered first, depth, indexed draws, anisotropic sRGB
//! sampling, non-zero light/shadow/material uniforms) does not grow: the trigger is in the
//! forward pass's own resources or state, not in the shader text.
//!
//! This test renders frames of 1 and 32 cubes through the public renderer and requires the
//! resident set to stay flat; it fails until the cause is fixed, hence ignored:
//! `WGPU_BACKEND=vulkan cargo test --release -p sierra --test renderer_memory -- --ignored --nocapture`

use glam::{Mat4, Vec3, Vec4};
use sierra_render::{
    primitives, Camera, DrawItem, FrameData, GpuContext, HeadlessRenderer, Material, Sun,
};

const WARM_FRAMES: usize = 3;
const MEASURED_FRAMES: i64 = 10;

fn rss_kib() -> i64 {
    sierra::cli::bench::soak::rss_kib().unwrap() as i64
}

#[test]
#[ignore = "open bug: lavapipe grows ~1.3 MB per forward draw (see the module docs)"]
fn frames_of_many_draws_do_not_grow_the_resident_set() {
    let Ok(ctx) = GpuContext::headless() else {
        eprintln!("skipping: no GPU adapter");
        return;
    };
    let mut headless = HeadlessRenderer::new(&ctx, 64, 64).unwrap();
    let cube = headless
        .renderer
        .upload_mesh(&ctx, &primitives::cube(1.0), "cube")
        .unwrap();
    let mut frame = FrameData {
        camera: Camera::look_at(
            Vec3::new(0.0, 3.0, 8.0),
            Vec3::ZERO,
            Vec3::Y,
            1.0,
            1.0,
            0.1,
            50.0,
        ),
        sun: Sun::default(),
        point_lights: Vec::new(),
        draws: (0..32)
            .map(|i| DrawItem {
                mesh: cube,
                model: Mat4::from_translation(Vec3::new(i as f32 * 0.1 - 1.6, 0.0, 0.0)),
                material: Material {
                    base_color: Vec4::ONE,
                    specular_color: Vec3::splat(0.2),
                    specular_power: 16.0,
                    emissive: Vec3::ZERO,
                },
            })
            .collect(),
        clear_color: Vec4::W,
    };
    let mut growth_per_frame = |frame: &FrameData| {
        for _ in 0..WARM_FRAMES {
            headless.render(&ctx, frame).unwrap();
        }
        let before = rss_kib();
        for _ in 0..MEASURED_FRAMES {
            headless.render(&ctx, frame).unwrap();
        }
        (rss_kib() - before) / MEASURED_FRAMES
    };
    let many = growth_per_frame(&frame);
    frame.draws.truncate(1);
    let one = growth_per_frame(&frame);
    println!("RSS growth per frame: {many} KiB with 32 draws, {one} KiB with 1 draw");
    // Allocator noise is a few KiB per frame; the bug is >1 MiB per draw.
    assert!(many < 256, "{many} KiB per frame of 32 draws");
}
