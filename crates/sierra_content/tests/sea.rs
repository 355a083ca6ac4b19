//! The sea pass over F's island: the simulated water (GPU compute) drawn by `sea.wgsl` after
//! the forward pass. Checks that water covers the sea and not the land, and that the surface
//! moves as the simulation steps (drops spreading rings). Frames are written as PNGs to
//! `$CARGO_TARGET_TMPDIR/sea_frame_N.png` to look at.

// The renderer tests' helpers (GPU context, HDR read-back), shared rather than copied.
#[path = "../../sierra_render/tests/support/mod.rs"]
mod support;

use glam::{Mat4, Vec2, Vec3, Vec4};
use sierra_content::water::water_compute;
use sierra_render::compute::water::WaterCompute;
use sierra_render::passes::forward::ForwardPass;
use sierra_render::passes::sea::SeaPass;
use sierra_render::passes::sea_lod::SeaLod;
use sierra_render::passes::shadow::ShadowPass;
use sierra_render::passes::view::FrameBindings;
use sierra_render::passes::{Pass, PassInputs, PassQueries};
use sierra_render::targets::RenderTargets;
use sierra_render::{
    Camera, DrawItem, FrameData, GpuContext, GpuMesh, HeadlessRenderer, Material, MeshData,
    MeshHandle, Sun,
};
use sierra_render::{MaterialStore, MeshStore};
use sierra_render::{PostSettings, TonemapSettings, Tonemapper};
use sierra_terrain::island::{Island, TerrainParams};
use sierra_terrain::noise::grid::Threads;
use sierra_terrain::water::{InitialState, WaterParams};
use support::context;

const W: u32 = 256;
const H: u32 = 176;

fn island_mesh(island: &Island) -> MeshData {
    let m = island.mesh();
    MeshData {
        positions: m.positions.iter().map(|p| p.to_array()).collect(),
        normals: m.normals.iter().map(|n| n.to_array()).collect(),
        colors: m.colors.iter().map(|c| c.to_array()).collect(),
        indices: m.indices.clone(),
        ..Default::default()
    }
}

/// The island's heights at the centres of an `n`×`n` water grid of `cell`-metre cells whose
/// corner is at `origin` (the grid's row-major terrain).
fn terrain_under_grid(island: &Island, n: usize, cell: f32, origin: Vec3) -> Vec<f32> {
    (0..n * n)
        .map(|i| {
            let x = origin.x + ((i % n) as f32 + 0.5) * cell;
            let z = origin.z + ((i / n) as f32 + 0.5) * cell;
            island.height_at(x, z).unwrap()
        })
        .collect()
}

/// F's island generated on the CPU at `resolution` (chunks of 32 cells) under a water grid
/// of `n`² cells covering it, still water at `level` (the island's sea level for `None`), with
/// a drop `radius` m wide and 3 m high at each world (x, z) of `drops`. Returns the island,
/// the grid's corner and the simulation.
fn island_sea(
    ctx: &GpuContext,
    resolution: i64,
    (n, level): (usize, Option<f32>),
    drops: &[(f32, f32)],
    radius: f32,
) -> (Island, Vec3, WaterCompute) {
    let tp = TerrainParams {
        resolution,
        chunk_cells: 32,
        ..TerrainParams::default()
    };
    let island = Island::generate_cpu(&tp, Threads::All).unwrap();
    let cell = tp.size / n as f32;
    let origin = Vec3::new(-tp.size * 0.5, 0.0, -tp.size * 0.5);
    let p = WaterParams::new(n, n, cell);
    let terrain = terrain_under_grid(&island, n, cell, origin);
    let level = level.unwrap_or(tp.sea_level);
    let depth = InitialState::Still { level }.depth(&p, &terrain).unwrap();
    let mut water = water_compute(ctx, p, &terrain, &depth).unwrap();
    for &(x, z) in drops {
        let at = Vec2::new(x, z) - Vec2::new(origin.x, origin.z);
        water.add_drop(ctx, at, radius, 3.0).unwrap();
    }
    (island, origin, water)
}

/// A sun low over the sea, shining away from the camera, in `color` with `ambient` light.
fn sea_sun(color: Vec3, ambient: f32) -> Sun {
    Sun {
        direction: Vec3::new(0.25, -0.45, 1.0),
        color,
        intensity: 2.0,
        ambient: Vec3::splat(ambient),
    }
}

/// A `W`:`H` camera at `eye` looking at `target`.
fn camera(eye: Vec3, target: Vec3, up: Vec3, fov_y: f32, near: f32, far: f32) -> Camera {
    Camera::look_at(eye, target, up, fov_y, W as f32 / H as f32, near, far)
}

/// The forward pass then the sea pass drawing `water` (grid corner at `origin`) into
/// `W`×`H` targets whose HDR image the test reads back. Both bind one view group (camera,
/// sun; no shadows, black environment), written once per frame, as in the renderer.
struct ForwardThenSea {
    targets: RenderTargets,
    materials: MaterialStore,
    view: FrameBindings,
    forward: ForwardPass,
    sea: SeaPass,
}

impl ForwardThenSea {
    fn new(ctx: &GpuContext, water: &WaterCompute, origin: Vec3) -> Self {
        let materials = MaterialStore::new(ctx).unwrap();
        let view = FrameBindings::unlit(ctx).unwrap();
        let no_shadows = ShadowPass::new(ctx, 1).unwrap();
        let forward = ForwardPass::new(ctx, &view, &no_shadows, &materials).unwrap();
        let mut sea = SeaPass::new(ctx, &view).unwrap();
        sea.settings.origin = origin;
        sea.bind_water(ctx, water).unwrap();
        Self {
            targets: RenderTargets::new(ctx, W, H).unwrap(),
            materials,
            view,
            forward,
            sea,
        }
    }

    /// Draws `frame` (its draws from `meshes`) and returns the HDR image, tonemapped by
    /// [`to_rgb`], row-major.
    fn draw(&mut self, ctx: &GpuContext, frame: &FrameData, meshes: &MeshStore) -> Vec<[f32; 3]> {
        let inputs = PassInputs {
            frame,
            draws: &frame.draws,
            meshes,
            materials: &self.materials,
            targets: &self.targets,
            output: &self.targets.hdr_view.clone(),
            shadow_casters: &[],
        };
        self.view.write(ctx, frame);
        self.forward.prepare(ctx, &inputs).unwrap();
        self.sea.prepare(ctx, &inputs).unwrap();
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        self.forward
            .record(&mut encoder, &inputs, PassQueries::none());
        self.sea.record(&mut encoder, &inputs, PassQueries::none());
        ctx.queue.submit([encoder.finish()]);
        ctx.take_uncaptured_errors("sea test frame").unwrap();
        to_rgb(&support::read_rgb(ctx, &self.targets.hdr))
    }
}

/// Linear HDR → Reinhard → sRGB-ish, in 0..1.
fn to_rgb(hdr: &[Vec3]) -> Vec<[f32; 3]> {
    hdr.iter()
        .map(|c| c.to_array().map(|v| (v / (1.0 + v)).powf(1.0 / 2.2)))
        .collect()
}

fn save(path: &std::path::Path, rgb: &[[f32; 3]]) {
    let bytes = rgb
        .iter()
        .flat_map(|p| p.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8))
        .collect();
    image::RgbImage::from_raw(W, H, bytes)
        .unwrap()
        .save(path)
        .unwrap();
}

#[test]
fn sea_over_the_island_moves_and_stays_off_the_land() {
    let ctx = context();
    // The water grid: 128² cells of 4 m over the 512 m island, still sea at sea level; drops
    // in the sea in front of the camera: rings spreading towards the beach.
    let (island, origin, mut water) = island_sea(
        &ctx,
        129,
        (128, None),
        &[(-150.0, 170.0), (120.0, 200.0)],
        24.0,
    );
    let mesh = GpuMesh::upload(&ctx, &island_mesh(&island), "island").unwrap();

    let mut passes = ForwardThenSea::new(&ctx, &water, origin);
    let eye = Vec3::new(0.0, 170.0, 380.0);
    let frame = FrameData {
        sun: sea_sun(Vec3::new(1.0, 0.95, 0.85), 0.15),
        draws: vec![DrawItem {
            mesh: MeshHandle(0),
            model: Mat4::IDENTITY,
            material: Material::default(),
            surface: None,
        }],
        clear_color: Vec4::new(0.5, 0.65, 0.9, 1.0),
        ..FrameData::new(camera(
            eye,
            Vec3::new(0.0, 0.0, 40.0),
            Vec3::Y,
            0.9,
            1.0,
            2000.0,
        ))
    };
    let mut meshes = MeshStore::new();
    meshes.add_gpu_mesh(mesh);
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let mut frames = Vec::new();
    for k in 0..3 {
        if k > 0 {
            water.step(&ctx, 0.25, 24).unwrap();
        }
        passes.sea.set_current(water.current_index());
        let rgb = passes.draw(&ctx, &frame, &meshes);
        save(&dir.join(format!("sea_frame_{k}.png")), &rgb);
        frames.push(rgb);
    }

    // Where the camera sees sea and land: project world points.
    let vp = frame.camera.view_proj();
    let pixel = |world: Vec3| {
        let c = vp * world.extend(1.0);
        let ndc = c.truncate() / c.w;
        let x = ((ndc.x * 0.5 + 0.5) * W as f32) as usize;
        let y = ((0.5 - ndc.y * 0.5) * H as f32) as usize;
        y * W as usize + x
    };
    let sea_point = Vec3::new(0.0, 0.0, 230.0);
    assert!(
        island.height_at(0.0, 230.0).unwrap() < -1.0,
        "open sea there"
    );
    let s = frames[0][pixel(sea_point)];
    assert!(s[2] > s[0] + 0.05, "sea pixel is blue-green, got {s:?}");
    let (peak_x, peak_z) = (0.0, 0.0);
    let peak_h = island.height_at(peak_x, peak_z).unwrap();
    assert!(peak_h > 5.0, "the island centre is land ({peak_h} m)");
    let land = frames[0][pixel(Vec3::new(peak_x, peak_h, peak_z))];
    assert!(
        land[0] + 0.02 >= land[2],
        "land is not covered by water, got {land:?}"
    );

    // The sea moves: later frames differ from the first where the rings are.
    let diff = |a: &[[f32; 3]], b: &[[f32; 3]]| {
        a.iter()
            .zip(b)
            .filter(|(p, q)| (0..3).any(|c| (p[c] - q[c]).abs() > 0.02))
            .count()
    };
    let changed = diff(&frames[0], &frames[2]);
    assert!(changed > 200, "only {changed} pixels changed");
    assert!(diff(&frames[1], &frames[2]) > 100);
    // The uniform block's layout against the shader: `sierra_render/tests/uniform_layout.rs`.
}

/// The sea through the whole renderer (every pass of `Renderer::parts`), as the
/// demo runs it: the island plus the simulated sea, 2 frames with a drop spreading.
/// Writes `$CARGO_TARGET_TMPDIR/sea_renderer_N.png`.
#[test]
fn renderer_runs_the_sea_pass_between_sky_and_bloom() {
    let ctx = context();
    let (island, origin, mut water) =
        island_sea(&ctx, 65, (96, Some(0.0)), &[(-120.0, 180.0)], 30.0);

    let mut headless = HeadlessRenderer::new(&ctx, W, H).unwrap();
    let r = &mut headless.renderer;
    let mesh = r
        .upload_mesh(&ctx, &island_mesh(&island), "island")
        .unwrap();
    r.sea.settings.origin = origin;
    r.sea.bind_water(&ctx, &water).unwrap();
    let frame = FrameData {
        sun: sea_sun(Vec3::new(1.0, 0.95, 0.85), 0.2),
        draws: vec![DrawItem {
            mesh,
            model: Mat4::IDENTITY,
            material: Material::default(),
            surface: None,
        }],
        clear_color: Vec4::new(0.5, 0.65, 0.9, 1.0),
        post: PostSettings {
            tonemap: TonemapSettings {
                tonemapper: Tonemapper::Aces,
                ..TonemapSettings::default()
            },
            ..PostSettings::default()
        },
        ..FrameData::new(camera(
            Vec3::new(0.0, 170.0, 380.0),
            Vec3::new(0.0, 0.0, 40.0),
            Vec3::Y,
            0.9,
            1.0,
            2000.0,
        ))
    };
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let mut images = Vec::new();
    for k in 0..2 {
        if k > 0 {
            water.step(&ctx, 0.25, 24).unwrap();
        }
        headless.renderer.sea.set_current(water.current_index());
        let (image, stats) = headless.render(&ctx, &frame).unwrap();
        if let Some(timings) = stats.newest_gpu() {
            assert!(timings.scopes.iter().any(|s| s.label == "sea"));
        }
        image
            .save(dir.join(format!("sea_renderer_{k}.png")))
            .unwrap();
        images.push(image);
    }
    // Open sea in front of the island is blue-green; the frames differ where the ring spreads.
    let vp = frame.camera.view_proj();
    let c = vp * Vec3::new(0.0, 0.0, 230.0).extend(1.0);
    let ndc = c.truncate() / c.w;
    let (x, y) = (
        ((ndc.x * 0.5 + 0.5) * W as f32) as u32,
        ((0.5 - ndc.y * 0.5) * H as f32) as u32,
    );
    let px = images[0].get_pixel(x, y).0;
    assert!(px[2] > px[0] + 10, "sea pixel {px:?}");
    let changed = images[0]
        .pixels()
        .zip(images[1].pixels())
        .filter(|(a, b)| (0..3).any(|c| a.0[c].abs_diff(b.0[c]) > 4))
        .count();
    assert!(changed > 100, "only {changed} pixels changed");
}

/// The open sea around the grid: with `horizon` set, a point beyond the grid is drawn as deep
/// still water of the same colour as deep water just inside the grid (no visible edge); with
/// `horizon = 0` it is not drawn at all (the clear colour shows).
#[test]
fn open_sea_continues_the_grid_without_an_edge() {
    let ctx = context();
    // A 32 m square of still water 60 m deep over a flat floor, corner at (-16, -60, -16).
    let (n, cell) = (16usize, 2.0);
    let origin = Vec3::new(-16.0, -60.0, -16.0);
    let p = WaterParams::new(n, n, cell);
    let terrain = vec![0.0; n * n];
    let depth = InitialState::Still { level: 60.0 }
        .depth(&p, &terrain)
        .unwrap();
    let water = water_compute(&ctx, p, &terrain, &depth).unwrap();
    let mut passes = ForwardThenSea::new(&ctx, &water, origin);
    passes.sea.settings.rest_level = 0.0;
    // Looking down at the grid's +X edge from above: left half grid, right half open sea.
    let frame = FrameData {
        sun: Sun {
            // Low, so its highlight is out of view.
            direction: Vec3::new(1.0, -0.4, 0.3),
            color: Vec3::ONE,
            intensity: 2.0,
            ambient: Vec3::splat(0.2),
        },
        clear_color: Vec4::new(1.0, 0.0, 1.0, 1.0),
        ..FrameData::new(camera(
            Vec3::new(15.0, 20.0, 0.0),
            Vec3::new(15.0, 0.0, 0.0),
            Vec3::NEG_Z,
            0.9,
            0.5,
            500.0,
        ))
    };
    let meshes = MeshStore::new();
    let mut render = |horizon: f32| {
        passes.sea.settings.horizon = horizon;
        passes.draw(&ctx, &frame, &meshes)
    };
    let without = render(0.0);
    let with = render(200.0);
    save(
        &std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("open_sea.png"),
        &with,
    );
    // The grid's last vertices are at x = 15 m, the image's centre column.
    let (row, inside, outside) = (H as usize / 2, W as usize / 2 - 12, W as usize / 2 + 12);
    let at = |img: &[[f32; 3]], x: usize| img[row * W as usize + x];
    let magenta = |c: [f32; 3]| c[0] > 0.6 && c[1] < 0.1 && c[2] > 0.6;
    assert!(!magenta(at(&without, inside)), "the grid is drawn");
    assert!(
        magenta(at(&without, outside)),
        "no open sea without a horizon"
    );
    let (a, b) = (at(&with, inside), at(&with, outside));
    assert!(!magenta(b), "the open sea is drawn: {b:?}");
    assert!(
        (0..3).all(|c| (a[c] - b[c]).abs() < 0.03),
        "deep water inside {a:?} and the open sea outside {b:?} look alike"
    );
}

/// How `sea_alone` draws: filled, wireframe in line mode, wireframe from barycentric edges.
#[derive(Clone, Copy, PartialEq)]
enum Wire {
    Off,
    Lines,
    Barycentric,
}

/// Renders the sea of `water` alone (no terrain) from a low camera at one edge of the grid,
/// with `lod` (or every cell), in wireframe as `wire` says, after clearing to the sky colour;
/// returns the image and the grid triangles drawn.
fn sea_alone(
    ctx: &GpuContext,
    water: &WaterCompute,
    origin: Vec3,
    lod: Option<SeaLod>,
    wire: Wire,
) -> (Vec<[f32; 3]>, u32) {
    let wireframe = wire != Wire::Off;
    let mut passes = ForwardThenSea::new(ctx, water, origin);
    passes.sea.settings.lod = lod;
    passes.sea.barycentric_wireframe = wire == Wire::Barycentric;
    passes.sea.set_current(water.current_index());
    let frame = FrameData {
        sun: sea_sun(Vec3::ONE, 0.15),
        clear_color: Vec4::new(1.0, 0.0, 1.0, 1.0),
        post: PostSettings {
            wireframe,
            ..Default::default()
        },
        ..FrameData::new(camera(
            origin + Vec3::new(256.0, 60.0, -40.0),
            origin + Vec3::new(256.0, 0.0, 200.0),
            Vec3::Y,
            1.0,
            1.0,
            3000.0,
        ))
    };
    let rgb = passes.draw(ctx, &frame, &MeshStore::new());
    (rgb, passes.sea.triangle_count())
}

/// The sea's level of detail: far tiles coarser (fewer triangles than the full grid), no
/// cracks where tiles of different strides meet (no sky pixel shows through where the full
/// grid covers), and the simulation under it untouched: 2,000 steps drawn with the LOD between
/// them keep the volume to 1e-6. Writes `$CARGO_TARGET_TMPDIR/sea_lod_{full,lod}.png`.
#[test]
fn sea_lod_draws_fewer_triangles_without_cracks_and_leaves_the_simulation_alone() {
    let ctx = context();
    let (n, cell) = (128usize, 4.0);
    let origin = Vec3::new(-256.0, 0.0, -256.0);
    let mut p = WaterParams::new(n, n, cell);
    p.damping = 0.05;
    // A floor sloping from 12 m deep to 2 m deep under a choppy surface (waves 2-3 cells long,
    // which coarse strides cannot follow: where tiles of two strides meet, unmatched edges
    // would open cracks), and a drop near the camera's far side.
    let terrain: Vec<f32> = (0..n * n)
        .map(|i| -12.0 + 10.0 * (i / n) as f32 / n as f32)
        .collect();
    let depth: Vec<f32> = (0..n * n)
        .map(|i| {
            let (x, z) = ((i % n) as f32, (i / n) as f32);
            1.5 * (x * 2.1).sin() * (z * 2.7).cos() - terrain[i]
        })
        .collect();
    let volume = |d: &[f32]| d.iter().map(|&x| f64::from(x)).sum::<f64>() * f64::from(cell * cell);
    let v0 = volume(&depth);
    let mut water = water_compute(&ctx, p, &terrain, &depth).unwrap();
    water
        .add_drop(&ctx, Vec2::new(300.0, 330.0), 40.0, 2.0)
        .unwrap();
    let v_drop = volume(&water.read_depth(&ctx).unwrap());
    assert!(v_drop > v0);

    let lod = SeaLod {
        distance: 60.0,
        max_stride: 8,
    };
    let (full, full_tris) = sea_alone(&ctx, &water, origin, None, Wire::Off);
    let (coarse, lod_tris) = sea_alone(&ctx, &water, origin, Some(lod), Wire::Off);
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    save(&dir.join("sea_lod_full.png"), &full);
    save(&dir.join("sea_lod_lod.png"), &coarse);
    assert_eq!(full_tris, 2 * 127 * 127);
    assert!(
        lod_tris * 3 < full_tris,
        "{lod_tris} LOD triangles of {full_tris}"
    );
    // The clear colour is magenta: a crack would show it where the full grid covers.
    let sky = |c: &[f32; 3]| c[0] > 0.6 && c[1] < 0.1 && c[2] > 0.6;
    let water_px = full.iter().filter(|c| !sky(c)).count();
    let cracks = full
        .iter()
        .zip(&coarse)
        .filter(|(f, c)| !sky(f) && sky(c))
        .count();
    assert!(
        water_px > (W * H) as usize / 3,
        "the sea fills the view: {water_px}"
    );
    // Without the edge snapping in sea.wgsl this view shows 60.
    assert!(cracks <= 10, "{cracks} sky pixels through the LOD sea");
    // And the picture is the same sea: mean colour difference small.
    let mean_diff = full
        .iter()
        .zip(&coarse)
        .map(|(a, b)| (0..3).map(|k| (a[k] - b[k]).abs()).sum::<f32>())
        .sum::<f32>()
        / (3 * W * H) as f32;
    assert!(mean_diff < 0.02, "mean difference {mean_diff}");

    // 2,000 steps, drawn with the LOD every 100: the volume in the simulated region stays.
    let dt = 0.9 * water.max_stable_dt();
    for _ in 0..20 {
        water.step(&ctx, dt, 100).unwrap();
        sea_alone(&ctx, &water, origin, Some(lod), Wire::Off);
    }
    let rel = (volume(&water.read_depth(&ctx).unwrap()) - v_drop).abs() / v_drop;
    assert!(
        rel < 1e-6,
        "relative volume change {rel:e} over 2,000 steps"
    );

    // Wireframe (where the device draws lines): the LOD tiles' lines, the sky between them.
    if !sierra_testkit::skip::unless(
        ctx.device
            .features()
            .contains(wgpu::Features::POLYGON_MODE_LINE),
        sierra_testkit::skip::Reason::GpuFeature,
        "no POLYGON_MODE_LINE: only the barycentric wireframe is checked",
    ) {
        let (lines, _) = sea_alone(&ctx, &water, origin, Some(lod), Wire::Lines);
        save(&dir.join("sea_lod_wireframe.png"), &lines);
        let through = lines.iter().filter(|c| sky(c)).count();
        let filled_sky = coarse.iter().filter(|c| sky(c)).count();
        assert!(
            through > filled_sky + water_px / 10,
            "the wireframe sea shows the sky between its lines: {through} vs {filled_sky}"
        );
    }
    // The fallback without line mode: triangle edges from barycentric coordinates, the sky
    // between them too.
    let (edges, _) = sea_alone(&ctx, &water, origin, Some(lod), Wire::Barycentric);
    save(&dir.join("sea_lod_wireframe_barycentric.png"), &edges);
    let through = edges.iter().filter(|c| sky(c)).count();
    let filled_sky = coarse.iter().filter(|c| sky(c)).count();
    assert!(
        through > filled_sky + water_px / 10,
        "the barycentric wireframe shows the sky between its edges: {through} vs {filled_sky}"
    );
    let sea_left = edges.iter().filter(|c| !sky(c)).count();
    assert!(
        sea_left > water_px / 20,
        "and still draws the edges: {sea_left}"
    );
}
