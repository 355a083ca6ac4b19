//! Writes a top-down, sun-shaded preview of the island's vertex colours:
//! `cargo run --release -p sierra_terrain --example island_preview -- out.png`.
use sierra_terrain::noise::grid::Threads;
use sierra_terrain::{Island, TerrainParams};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "island_preview.png".into());
    let island = Island::generate_cpu(&TerrainParams::default(), Threads::All)?;
    let hf = island.height_field();
    let n = hf.resolution();
    let sun = glam::Vec3::new(-0.5, 0.7, -0.3).normalize();
    let sea = island.params().sea_level;
    let img = image::RgbImage::from_fn(n as u32, n as u32, |i, j| {
        let (i, j) = (i as usize, j as usize);
        let h = hf.sample(i, j);
        let nrm = hf.sample_normal(i, j);
        let c = island.surface_color(h, nrm);
        let lit = 0.25 + 0.75 * nrm.dot(sun).max(0.0);
        let mut rgb = c.truncate() * lit;
        if h < sea {
            rgb = rgb.lerp(
                glam::Vec3::new(0.02, 0.12, 0.25),
                (0.5 + (sea - h) * 0.08).min(0.95),
            );
        }
        let s = |v: f32| (v.clamp(0.0, 1.0).powf(1.0 / 2.2) * 255.0) as u8;
        image::Rgb([s(rgb.x), s(rgb.y), s(rgb.z)])
    });
    img.save(&out)?;
    println!("{out}");
    Ok(())
}
