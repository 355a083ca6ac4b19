//! Regression test for the demo's unbounded memory (#10, soak): on Mesa 22.3 lavapipe, a shader
//! whose control flow depends on uniform-buffer values (light count, PCF radius, material flags,
//! the tonemapper) is specialised on those values ("inlined uniforms") and a new variant is
//! JIT-compiled, and never freed, each time such a buffer is rebound — per draw in the forward
//! pass: ~115 MB per frame on the island (85 draws), ~1.3-2.2 MB per draw (heaptrack: about five
//! MCJIT objects each). The passes now keep such data in read-only storage buffers, which are
//! never inlined (see `sierra_render::passes::forward`'s module docs).
//!
//! This test renders frames of 32 cubes and of 1 through the public renderer and requires the
//! resident set to stay flat (it grew 71 MiB per frame of 32 draws before the fix).

use glam::{Mat4, Vec3, Vec4};
use sierra_render::{
    primitives, Camera, DrawItem, FrameData, GpuContext, HeadlessRenderer, Material,
};
use sierra_testkit::skip::{skip, Reason};

const WARM_FRAMES: usize = 3;
const MEASURED_FRAMES: i64 = 10;

fn rss_kib() -> i64 {
    sierra::cli::bench::soak::rss_kib().unwrap() as i64
}

#[test]
fn frames_of_many_draws_do_not_grow_the_resident_set() {
    let ctx = match GpuContext::headless() {
        Ok(ctx) => ctx,
        Err(e) => return skip(Reason::NoGpuAdapter, e),
    };
    let mut headless = HeadlessRenderer::new(&ctx, 64, 64).unwrap();
    let cube = headless
        .renderer
        .upload_mesh(&ctx, &primitives::cube(1.0), "cube")
        .unwrap();
    let mut frame = FrameData {
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
                surface: None,
            })
            .collect(),
        ..FrameData::new(Camera::look_at(
            Vec3::new(0.0, 3.0, 8.0),
            Vec3::ZERO,
            Vec3::Y,
            1.0,
            1.0,
            0.1,
            50.0,
        ))
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
    assert!(one < 256, "{one} KiB per frame of 1 draw");
}
