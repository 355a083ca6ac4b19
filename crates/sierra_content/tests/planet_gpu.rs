//! The planet and clouds generated on the GPU (noise compute shader) against the CPU reference
//! (sierra_terrain::planet) at the thesis's density: same vertex count, triangles, positions
//! within 1e-4 of the radius, cloud cover within 1e-3.

use sierra_content::planet::planet_meshes_gpu;
use sierra_render::compute::noise::NoiseCompute;
use sierra_render::GpuContext;
use sierra_terrain::planet::{cloud_mesh, planet_mesh, PlanetParams, THESIS_RINGS};

#[test]
fn gpu_planet_matches_cpu_at_the_thesis_density() {
    let ctx = GpuContext::headless().unwrap_or_else(|e| panic!("{e}"));
    let compute = NoiseCompute::new(&ctx).unwrap();
    let params = PlanetParams {
        rings: THESIS_RINGS,
        ..PlanetParams::default()
    };
    let (planet, clouds) = planet_meshes_gpu(&ctx, &compute, &params).unwrap();
    let (cpu_planet, cpu_clouds) = (planet_mesh(&params).unwrap(), cloud_mesh(&params).unwrap());
    let vertices = planet.positions.len() + clouds.positions.len();
    let triangles = (planet.indices.len() + clouds.indices.len()) / 3;
    assert_eq!(
        (vertices, triangles),
        (161_202, 318_400),
        "the thesis's Table 1 density"
    );
    assert_eq!(planet.indices, cpu_planet.indices);

    // Relative to the radius: a vertex's error over its distance from the centre.
    let worst = |a: &[glam::Vec3], b: &[glam::Vec3]| {
        a.iter()
            .zip(b)
            .map(|(p, q)| (*p - *q).length() / q.length())
            .fold(0.0f32, f32::max)
    };
    let surface = worst(&planet.positions, &cpu_planet.positions);
    assert!(
        surface <= 1e-4,
        "planet positions differ by {surface} relative"
    );
    let shell = worst(&clouds.positions, &cpu_clouds.positions);
    assert!(shell <= 1e-4, "cloud positions differ by {shell} relative");
    // The relief is real (not a plain sphere) and the cloud cover agrees.
    let radii: Vec<f32> = planet.positions.iter().map(|p| p.length()).collect();
    let hi = radii.iter().copied().fold(0.0, f32::max);
    assert!(hi > params.radius * 1.02, "mountains {hi}");
    let cover = cpu_clouds
        .colors
        .iter()
        .zip(&clouds.colors)
        .map(|(a, b)| (a.w - b.w).abs())
        .fold(0.0f32, f32::max);
    assert!(cover <= 1e-3, "cloud alpha differs by {cover}");
}
