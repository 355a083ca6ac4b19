//! Headless preview of the procedural landscape (island with GPU-generated heights, chunked LOD,
//! palms, birds, planet with clouds, a flat sea plane), rendered with the forward renderer:
//! `WGPU_BACKEND=vulkan cargo run --release -p sierra_render --example landscape -- out.png [aerial|beach]`.
//! The demo proper (animated sea, camera paths) lives in the `sierra` binary.

use glam::{Mat4, Vec2, Vec3, Vec4};
use sierra_content::terrain::generate_island_gpu;
use sierra_render::compute::noise::NoiseCompute;
use sierra_render::material::{AlphaMode, SurfaceMaterial};
use sierra_render::{
    Camera, DrawItem, FrameData, GpuContext, HeadlessRenderer, Material, MeshData, Sun,
};
use sierra_terrain::birds::{BirdsParams, Flock};
use sierra_terrain::chunks::ChunkGrid;
use sierra_terrain::palm::{palms_mesh, PalmParams};
use sierra_terrain::planet::{cloud_mesh, planet_mesh, PlanetParams};
use sierra_terrain::{Mesh, TerrainParams};

fn to_mesh_data(m: &Mesh) -> MeshData {
    MeshData {
        positions: m.positions.iter().map(|p| p.to_array()).collect(),
        normals: m.normals.iter().map(|n| n.to_array()).collect(),
        uvs: m.uvs.iter().map(|u| u.to_array()).collect(),
        tangents: Vec::new(),
        colors: m.colors.iter().map(|c| c.to_array()).collect(),
        indices: m.indices.clone(),
    }
}

fn sea_plane(size: f32, level: f32) -> Mesh {
    let mut m = Mesh::named("sea");
    let h = size * 0.5;
    for (x, z) in [(-h, -h), (h, -h), (-h, h), (h, h)] {
        m.positions.push(Vec3::new(x, level, z));
        m.normals.push(Vec3::Y);
        m.uvs.push(Vec2::ZERO);
        m.colors.push(Vec4::new(0.02, 0.10, 0.20, 0.78));
    }
    m.indices = vec![0, 2, 1, 1, 2, 3];
    m
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "landscape.png".into());
    let ctx = GpuContext::headless()?;
    let t0 = std::time::Instant::now();
    let compute = NoiseCompute::new(&ctx)?;
    let terrain = TerrainParams::default();
    let island = generate_island_gpu(&ctx, &compute, &terrain)?;
    println!(
        "island on the GPU: {:.1} ms",
        t0.elapsed().as_secs_f64() * 1e3
    );

    let (w, h) = (960, 540);
    let mut headless = HeadlessRenderer::new(&ctx, w, h)?;
    let r = &mut headless.renderer;
    let beach = std::env::args().nth(2).as_deref() == Some("beach");
    let palm_places = sierra_terrain::palm::place_palms(&island, &PalmParams::default())?;
    let (eye, target) = if beach {
        // Standing on the sand a few metres from a palm, looking along the beach and up.
        let palm = palm_places[0].transform_point3(Vec3::ZERO);
        let inland = -Vec3::new(palm.x, 0.0, palm.z).normalize();
        let side = inland.cross(Vec3::Y);
        let eye = palm - side * 14.0 - inland * 3.0;
        let eye = eye.with_y(island.height_at(eye.x, eye.z).unwrap_or(0.0).max(0.0) + 1.7);
        (eye, palm + Vec3::Y * 9.0)
    } else {
        (Vec3::new(230.0, 95.0, 300.0), Vec3::new(-20.0, 15.0, 0.0))
    };
    let camera = Camera::look_at(
        eye,
        target,
        Vec3::Y,
        55f32.to_radians(),
        w as f32 / h as f32,
        0.5,
        3000.0,
    );
    let plain = |base: Vec4| Material {
        base_color: base,
        specular_color: Vec3::splat(0.05),
        specular_power: 16.0,
        emissive: Vec3::ZERO,
    };
    let mut draws = Vec::new();
    let grid = ChunkGrid::new(&island);
    let selection = grid.select(eye, 140.0);
    println!(
        "terrain triangles drawn: {}",
        grid.triangle_count(&selection)
    );
    for chunk in selection {
        let handle = r.upload_mesh(
            &ctx,
            &to_mesh_data(&grid.mesh(&island, chunk)),
            "terrain chunk",
        )?;
        draws.push(DrawItem {
            mesh: handle,
            model: Mat4::IDENTITY,
            material: plain(Vec4::ONE),
            surface: None,
        });
    }
    let palms = r.upload_mesh(
        &ctx,
        &to_mesh_data(&palms_mesh(&island, &PalmParams::default())?),
        "palms",
    )?;
    r.set_material(
        &ctx,
        palms,
        &SurfaceMaterial {
            double_sided: true,
            ..Default::default()
        },
    )?;
    draws.push(DrawItem {
        mesh: palms,
        model: Mat4::IDENTITY,
        material: plain(Vec4::ONE),
        surface: None,
    });
    let mut birds_params = BirdsParams::default();
    if beach {
        // Keep the flock over this stretch of beach so it is in the frame.
        birds_params.center = (target + Vec3::Y * 12.0).to_array();
        birds_params.half_extent = [30.0, 6.0, 30.0];
    }
    let mut flock = Flock::new(&birds_params)?;
    flock.update(3.0);
    let birds = r.upload_mesh(&ctx, &to_mesh_data(&flock.mesh()), "birds")?;
    draws.push(DrawItem {
        mesh: birds,
        model: Mat4::IDENTITY,
        material: plain(Vec4::ONE),
        surface: None,
    });
    let planet_params = PlanetParams::default();
    let at = Mat4::from_translation(Vec3::from(planet_params.position));
    let planet = r.upload_mesh(&ctx, &to_mesh_data(&planet_mesh(&planet_params)?), "planet")?;
    draws.push(DrawItem {
        mesh: planet,
        model: at,
        material: plain(Vec4::ONE),
        surface: None,
    });
    let clouds = r.upload_mesh(&ctx, &to_mesh_data(&cloud_mesh(&planet_params)?), "clouds")?;
    r.set_material(
        &ctx,
        clouds,
        &SurfaceMaterial {
            alpha_mode: AlphaMode::Blend,
            ..Default::default()
        },
    )?;
    draws.push(DrawItem {
        mesh: clouds,
        model: at,
        material: plain(Vec4::ONE),
        surface: None,
    });
    let sea = r.upload_mesh(
        &ctx,
        &to_mesh_data(&sea_plane(3000.0, terrain.sea_level)),
        "sea",
    )?;
    r.set_material(
        &ctx,
        sea,
        &SurfaceMaterial {
            alpha_mode: AlphaMode::Blend,
            ..Default::default()
        },
    )?;
    draws.push(DrawItem {
        mesh: sea,
        model: Mat4::IDENTITY,
        material: Material {
            specular_color: Vec3::splat(0.6),
            specular_power: 64.0,
            ..plain(Vec4::ONE)
        },
        surface: None,
    });
    let frame = FrameData {
        camera,
        sun: Sun {
            direction: Vec3::new(-0.4, -0.55, -0.7).normalize(),
            color: Vec3::new(1.0, 0.95, 0.85),
            intensity: 1.2,
            ambient: Vec3::new(0.18, 0.2, 0.25),
        },
        point_lights: Vec::new(),
        draws,
        clear_color: Vec4::new(0.45, 0.62, 0.85, 1.0),
        skinned: Default::default(),
        crowds: Default::default(),
        sea: Default::default(),
        post: Default::default(),
    };
    let (image, stats) = headless.render(&ctx, &frame)?;
    image.save(&out)?;
    println!(
        "{out}: {} triangles, {} draws",
        stats.triangles, stats.draw_calls
    );
    Ok(())
}
