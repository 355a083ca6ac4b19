//! Sierra's GPU memory accounting (`GpuContext::gpu_memory`): uploading a mesh adds exactly its
//! vertex and index bytes to `meshes`, a texture its mip chain's bytes to `textures`; render
//! targets hand their bytes back when a resize replaces them; read-backs add nothing.

mod support;

use sierra_render::primitives::{cube, uv_sphere};
use sierra_render::texture::{ColorSpace, Texture2d};
use sierra_render::{HeadlessRenderer, MemoryClass};
use support::context;

/// Sierra's own accounting, without wgpu's allocator report (which pools and keeps blocks).
fn ours(mut m: sierra_render::GpuMemory) -> sierra_render::GpuMemory {
    m.wgpu_allocated = None;
    m
}

/// Bytes of one interleaved vertex (position, normal, uv, tangent, colour: 16 f32).
const VERTEX_BYTES: u64 = 16 * 4;

#[test]
fn a_mesh_adds_its_vertex_and_index_bytes_and_a_texture_its_mip_chain() {
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, 32, 32).unwrap();
    let before = ctx.gpu_memory();
    let (cube, sphere) = (cube(1.0), uv_sphere(1.0, 7, 5));
    headless.renderer.upload_mesh(&ctx, &cube, "cube").unwrap();
    headless
        .renderer
        .upload_mesh(&ctx, &sphere, "sphere")
        .unwrap();
    let after_meshes = ctx.gpu_memory();
    let expected: u64 = [&cube, &sphere]
        .iter()
        .map(|m| m.positions.len() as u64 * VERTEX_BYTES + m.indices.len() as u64 * 4)
        .sum();
    assert_eq!(after_meshes.meshes - before.meshes, expected);
    assert_eq!(after_meshes.textures, before.textures);

    let (w, h) = (64u64, 24u64);
    let pixels = vec![200u8; (w * h * 4) as usize];
    let _texture =
        Texture2d::from_rgba8(&ctx, "t", w as u32, h as u32, &pixels, ColorSpace::Srgb).unwrap();
    let after_texture = ctx.gpu_memory();
    // 64x24, 32x12, 16x6, 8x3, 4x1, 2x1, 1x1 texels of 4 bytes.
    let mip_texels: u64 = [64 * 24, 32 * 12, 16 * 6, 8 * 3, 4, 2, 1].iter().sum();
    assert_eq!(
        after_texture.textures - after_meshes.textures,
        mip_texels * 4
    );
    assert_eq!(after_texture.meshes, after_meshes.meshes);
    let sum: u64 = MemoryClass::ALL
        .iter()
        .map(|&c| after_texture.class(c))
        .sum();
    assert_eq!(after_texture.total, sum);
}

#[test]
fn render_targets_are_released_when_a_resize_replaces_them_and_read_backs_add_nothing() {
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, 64, 64).unwrap();
    let small = ctx.gpu_memory().render_targets;
    headless.renderer.resize(&ctx, 128, 96).unwrap();
    let large = ctx.gpu_memory().render_targets;
    // At least the HDR colour (8 bytes), depth (4) and tonemapped (8) targets per new pixel.
    assert!(
        large - small >= (128 * 96 - 64 * 64) * (8 + 4 + 8),
        "{small} -> {large}"
    );
    headless.renderer.resize(&ctx, 64, 64).unwrap();
    assert_eq!(
        ctx.gpu_memory().render_targets,
        small,
        "the replaced targets were not released"
    );

    let eye = glam::Vec3::new(0.0, 0.0, 3.0);
    let camera = support::square_camera(eye, glam::Vec3::Y, 0.9, 10.0);
    let frame = support::frame(camera);
    headless.render(&ctx, &frame).unwrap();
    let once = ctx.gpu_memory();
    for _ in 0..3 {
        headless.render(&ctx, &frame).unwrap();
    }
    assert_eq!(
        ctx.gpu_memory(),
        once,
        "frames or read-backs grew the accounted memory"
    );
}

#[test]
fn a_compute_dispatch_leaves_no_accounted_memory_behind() {
    use sierra_render::compute::noise::{NoiseCompute, NoiseFunction, PermutationTable};
    let ctx = context();
    let noise = NoiseCompute::new(&ctx).unwrap();
    let before = ctx.gpu_memory();
    let perm: PermutationTable = std::array::from_fn(|i| (i % 256) as u32);
    let points: Vec<[f32; 3]> = (0..4096).map(|i| [i as f32 * 0.37, 1.5, -2.25]).collect();
    let values = noise
        .evaluate_points(&ctx, &perm, NoiseFunction::Perlin3, None, &points)
        .unwrap();
    assert_eq!(values.len(), points.len());
    assert_eq!(
        ours(ctx.gpu_memory()),
        ours(before),
        "the dispatch's buffers stayed in the accounting"
    );
}
