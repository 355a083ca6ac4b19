//! GPU noise (`compute/noise.wgsl`) against the CPU `f32` path of `sierra_terrain`: 10,000
//! random points with |p| <= 256 for perlin3 and fbm3 agree to 1e-5, perlin2/fbm2 too, and the
//! grid entry equals the CPU grid.

use sierra_content::terrain::{fbm2_grid_gpu, fbm_params, permutation_table};
use sierra_render::compute::noise::{NoiseCompute, NoiseFunction};
use sierra_render::GpuContext;
use sierra_terrain::noise::grid::{fbm2_grid, GridSpec, Threads};
use sierra_terrain::noise::{perlin2, perlin3, Fbm, FbmKind, FbmParams, Permutation};
use sierra_testkit::diff::max_abs_diff;

fn random_points(n: usize, seed: u64) -> Vec<[f32; 3]> {
    let mut s = seed;
    let mut next = move || {
        // SplitMix64, independent of the crate's generator.
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        ((z >> 11) as f64 / (1u64 << 53) as f64 * 512.0 - 256.0) as f32
    };
    (0..n).map(|_| [next(), next(), next()]).collect()
}

#[test]
fn gpu_matches_cpu_f32_on_random_points() {
    let ctx = GpuContext::headless().unwrap_or_else(|e| panic!("{e}"));
    let compute = NoiseCompute::new(&ctx).unwrap();
    let points = random_points(10_000, 42);
    let fbm = Fbm::new(FbmParams {
        octaves: 6.0,
        lacunarity: 2.0,
        gain: 0.5,
    })
    .unwrap();
    for perm in [Permutation::reference(), Permutation::from_seed(7)] {
        let gpu = compute
            .evaluate_points(
                &ctx,
                &permutation_table(&perm),
                NoiseFunction::Perlin3,
                None,
                &points,
            )
            .unwrap();
        let cpu: Vec<f32> = points
            .iter()
            .map(|p| perlin3(&perm, p[0], p[1], p[2]))
            .collect();
        let d = max_abs_diff(&gpu, &cpu);
        assert!(d <= 1e-5, "perlin3 max |gpu - cpu| = {d}");
        assert!(
            cpu.iter().any(|v| v.abs() > 0.5),
            "values are not trivially zero"
        );

        let gpu = compute
            .evaluate_points(
                &ctx,
                &permutation_table(&perm),
                NoiseFunction::Fbm3,
                Some(&fbm_params(&fbm)),
                &points,
            )
            .unwrap();
        let cpu: Vec<f32> = points
            .iter()
            .map(|p| fbm.fbm3(&perm, p[0], p[1], p[2]))
            .collect();
        let d = max_abs_diff(&gpu, &cpu);
        assert!(d <= 1e-5, "fbm3 max |gpu - cpu| = {d}");

        let gpu = compute
            .evaluate_points(
                &ctx,
                &permutation_table(&perm),
                NoiseFunction::Perlin2,
                None,
                &points,
            )
            .unwrap();
        let cpu: Vec<f32> = points.iter().map(|p| perlin2(&perm, p[0], p[1])).collect();
        assert!(max_abs_diff(&gpu, &cpu) <= 1e-5);
    }
    let ridged = Fbm::new(FbmParams {
        octaves: 4.5,
        lacunarity: 2.2,
        gain: 0.45,
    })
    .unwrap()
    .with_kind(FbmKind::Ridged);
    let perm = Permutation::from_seed(11);
    let gpu = compute
        .evaluate_points(
            &ctx,
            &permutation_table(&perm),
            NoiseFunction::Fbm2,
            Some(&fbm_params(&ridged)),
            &points,
        )
        .unwrap();
    let cpu: Vec<f32> = points
        .iter()
        .map(|p| ridged.fbm2(&perm, p[0], p[1]))
        .collect();
    assert!(max_abs_diff(&gpu, &cpu) <= 1e-5);
}

#[test]
fn gpu_grid_matches_cpu_grid() {
    let ctx = GpuContext::headless().unwrap_or_else(|e| panic!("{e}"));
    let compute = NoiseCompute::new(&ctx).unwrap();
    let perm = Permutation::from_seed(3);
    let fbm = Fbm::new(FbmParams::default())
        .unwrap()
        .with_kind(FbmKind::Ridged);
    let grid = GridSpec::new(77, 45, [-1.7, 3.2], [0.031, 0.047]).unwrap();
    let gpu = fbm2_grid_gpu(&ctx, &compute, &perm, &fbm, &grid).unwrap();
    let mut cpu = vec![0f32; 77 * 45];
    fbm2_grid(&perm, &fbm, &grid, Threads::One, &mut cpu).unwrap();
    let d = max_abs_diff(&gpu, &cpu);
    assert!(d <= 1e-5, "grid max |gpu - cpu| = {d}");
}

#[test]
fn fbm_without_parameters_is_an_error() {
    let ctx = GpuContext::headless().unwrap_or_else(|e| panic!("{e}"));
    let compute = NoiseCompute::new(&ctx).unwrap();
    let perm = Permutation::reference();
    assert!(compute
        .evaluate_points(
            &ctx,
            &permutation_table(&perm),
            NoiseFunction::Fbm3,
            None,
            &[[0.0; 3]]
        )
        .is_err());
    assert!(compute
        .evaluate_points(
            &ctx,
            &permutation_table(&perm),
            NoiseFunction::Perlin3,
            None,
            &[]
        )
        .is_err());
}

#[test]
fn island_generated_on_the_gpu_matches_the_cpu() {
    use sierra_content::terrain::generate_island_gpu;
    use sierra_terrain::{Island, TerrainParams};
    let ctx = GpuContext::headless().unwrap_or_else(|e| panic!("{e}"));
    let compute = NoiseCompute::new(&ctx).unwrap();
    let params = TerrainParams {
        resolution: 65,
        ..TerrainParams::default()
    };
    let gpu = generate_island_gpu(&ctx, &compute, &params).unwrap();
    let cpu = Island::generate_cpu(&params, Threads::One).unwrap();
    let d = max_abs_diff(gpu.height_field().heights(), cpu.height_field().heights());
    assert!(d < 1e-3, "max height difference {d} m");
    // Heights were read back once; gameplay queries run on the CPU copy.
    assert!(gpu.height_at(0.0, 0.0).is_some());
    let bad = TerrainParams {
        resolution: -3,
        ..TerrainParams::default()
    };
    assert!(generate_island_gpu(&ctx, &compute, &bad).is_err());
}
