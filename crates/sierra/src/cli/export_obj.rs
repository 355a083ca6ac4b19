//! `sierra export-obj`: writes a generated mesh as OBJ + MTL at several levels of detail
//! (simplified with meshoptimizer), as the thesis exported its landscape for reduction (§2.3.6).
//!
//! Objects: `island` (the `Terrain` mesh), `planet`, `clouds`, `palm` (one tree), `palms` (all
//! palms of the island), `birds` (the flock at time 0). Parameters are the defaults of the
//! `Terrain`/`Planet`/`PalmTrees`/`Birds` components; `--resolution` overrides the island's,
//! `--rings` the planet's (200: the thesis's density), `--gpu` computes the planet's fBm with the
//! noise compute shader.

use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::Args;
use sierra_terrain::birds::{BirdsParams, Flock};
use sierra_terrain::lod::simplify_to_percent;
use sierra_terrain::noise::grid::Threads;
use sierra_terrain::obj::write_obj;
use sierra_terrain::palm::{palm_mesh, palms_mesh, PalmParams};
use sierra_terrain::planet::{cloud_mesh, planet_mesh, PlanetParams};
use sierra_terrain::{Island, Mesh, TerrainParams};

use crate::output::OutputDir;

/// Objects that can be exported.
pub const OBJECTS: &[&str] = &["island", "planet", "clouds", "palm", "palms", "birds"];

/// `sierra export-obj` arguments.
#[derive(Debug, Args)]
pub struct ExportObjArgs {
    /// Level file (optional; the built-in generated objects use their component defaults).
    pub level: Option<PathBuf>,
    /// island | planet | clouds | palm | palms | birds.
    #[arg(long)]
    pub object: String,
    /// Comma-separated levels of detail in percent of the vertices, each in 1..=100.
    #[arg(long, default_value = "100,50,25,10")]
    pub lod: String,
    /// Output directory (created): new, empty, or an earlier Sierra run's (replaced).
    #[arg(long, default_value = "out/obj")]
    pub out: PathBuf,
    /// Overwrite files in `--out` under the names this run writes even when Sierra did not
    /// write them; every other file is left alone.
    #[arg(long)]
    pub force: bool,
    /// Island height samples per side (default: the Terrain component's 513).
    #[arg(long, allow_negative_numbers = true)]
    pub resolution: Option<i64>,
    /// Most vertices of the generated mesh (default 4194304 = 2048²): `--resolution R` makes R².
    #[arg(long, value_name = "N")]
    pub max_vertices: Option<u64>,
    /// Latitude rings of `planet` and `clouds` (default: the Planet component's 96; the thesis's
    /// density is 200: 159,200 triangles each).
    #[arg(long, allow_negative_numbers = true)]
    pub rings: Option<i64>,
    /// Compute the fBm of `planet` and `clouds` on the GPU (the noise compute shader) instead
    /// of the CPU.
    #[arg(long)]
    pub gpu: bool,
}

/// How the generated objects are built: island resolution, planet rings, GPU noise.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuildOptions {
    /// Island height samples per side (`None`: the component default).
    pub resolution: Option<i64>,
    /// Planet and cloud rings (`None`: the component default).
    pub rings: Option<i64>,
    /// Planet and cloud fBm on the GPU.
    pub gpu: bool,
}

/// The planet or its clouds at `rings`, the fBm on the GPU when asked.
fn planet_object(clouds: bool, opts: BuildOptions) -> anyhow::Result<Mesh> {
    let mut p = PlanetParams::default();
    if let Some(r) = opts.rings {
        p.rings = r;
    }
    if opts.gpu {
        let ctx = sierra_render::GpuContext::headless()?;
        let noise = sierra_render::compute::noise::NoiseCompute::new(&ctx)?;
        let (planet, cloud) = sierra_content::planet::planet_meshes_gpu(&ctx, &noise, &p)?;
        return Ok(if clouds { cloud } else { planet });
    }
    Ok(if clouds {
        cloud_mesh(&p)?
    } else {
        planet_mesh(&p)?
    })
}

/// Parses `100,50,25,10`.
///
/// # Errors
/// A value that is not an integer in 1..=100, or an empty list.
pub fn parse_lods(text: &str) -> anyhow::Result<Vec<u32>> {
    let lods = text
        .split(',')
        .map(|f| {
            let v: i64 = f
                .trim()
                .parse()
                .with_context(|| format!("--lod: `{f}` is not an integer"))?;
            if !(1..=100).contains(&v) {
                bail!("--lod: {v} is not a percentage in 1..=100");
            }
            Ok(v as u32)
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    if lods.is_empty() {
        bail!("--lod needs at least one percentage");
    }
    Ok(lods)
}

/// Checks the object's name and parameters without building it, so that a bad `--resolution`
/// or `--rings` is refused before the output folder is created or emptied.
///
/// # Errors
/// An unknown name (listing the valid ones) or parameters out of range, as [`build_object`].
pub fn check_object(name: &str, opts: BuildOptions) -> anyhow::Result<()> {
    match name {
        "island" | "palms" => {
            let mut p = TerrainParams::default();
            if let Some(r) = opts.resolution {
                p.resolution = r;
            }
            p.validate()?;
        }
        "planet" | "clouds" => {
            let mut p = PlanetParams::default();
            if let Some(r) = opts.rings {
                p.rings = r;
            }
            p.validate()?;
        }
        "palm" | "birds" => {}
        other => bail!(
            "unknown object `{other}`; valid objects: {}",
            OBJECTS.join(", ")
        ),
    }
    Ok(())
}

/// Builds the named object's full-detail mesh.
///
/// # Errors
/// An unknown name (listing the valid ones) or invalid parameters.
pub fn build_object(name: &str, opts: BuildOptions) -> anyhow::Result<Mesh> {
    let island = || -> anyhow::Result<Island> {
        let mut p = TerrainParams::default();
        if let Some(r) = opts.resolution {
            p.resolution = r;
        }
        Ok(Island::generate_cpu(&p, Threads::All)?)
    };
    Ok(match name {
        "island" => island()?.mesh(),
        "planet" => planet_object(false, opts)?,
        "clouds" => planet_object(true, opts)?,
        "palm" => palm_mesh(&PalmParams::default(), 0)?,
        "palms" => palms_mesh(&island()?, &PalmParams::default())?,
        "birds" => Flock::new(&BirdsParams::default())?.mesh(),
        other => bail!(
            "unknown object `{other}`; valid objects: {}",
            OBJECTS.join(", ")
        ),
    })
}

/// Runs the export and prints one line per file.
///
/// # Errors
/// Bad arguments, a level file that cannot be read, write failures.
pub fn run(args: ExportObjArgs) -> anyhow::Result<()> {
    let lods = parse_lods(&args.lod)?;
    if let Some(level) = &args.level {
        // The generated objects take their parameters from the component defaults; the level
        // must still exist and be JSON so a typo is not silently ignored.
        let text = std::fs::read_to_string(level)
            .with_context(|| format!("reading {}", level.display()))?;
        serde_json::from_str::<serde_json::Value>(&text)
            .with_context(|| format!("{} is not JSON", level.display()))?;
    }
    if let Some(r) = args.resolution {
        let limit = args
            .max_vertices
            .unwrap_or(sierra_assets::Budgets::DEFAULT.mesh_vertices);
        let vertices = r.unsigned_abs().saturating_mul(r.unsigned_abs());
        if vertices > limit {
            bail!(
                "--resolution {r}: the island mesh would have {vertices} vertices, more than the limit of {limit} vertices per generated mesh ({})",
                sierra_assets::Budget::MeshVertices.how_to_raise()
            );
        }
    }
    let opts = BuildOptions {
        resolution: args.resolution,
        rings: args.rings,
        gpu: args.gpu,
    };
    check_object(&args.object, opts)?; // before the output folder is touched
    let stems: Vec<String> = lods
        .iter()
        .map(|percent| format!("{}_lod{percent}", args.object))
        .collect();
    let names: Vec<String> = stems
        .iter()
        .flat_map(|stem| [format!("{stem}.obj"), format!("{stem}.mtl")])
        .collect();
    let out = OutputDir::replace(&args.out, &names, args.force)?;
    // Building the mesh, then simplifying and writing each LOD.
    let mut progress =
        sierra_profile::progress::Progress::new("export-obj step", 1 + lods.len() as u64);
    let mesh = build_object(&args.object, opts)?;
    progress.inc();
    for (percent, stem) in lods.into_iter().zip(&stems) {
        let lod = simplify_to_percent(&mesh, percent)?;
        let files = write_obj(&lod, out.dir(), stem)?;
        outln!(
            "{}  {percent}%  {} vertices  {} triangles",
            files.obj.display(),
            lod.vertex_count(),
            lod.triangle_count()
        )?;
        progress.inc();
    }
    progress.finish();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lod_lists_parse_and_bad_ones_are_errors() {
        assert_eq!(parse_lods("100,50, 25,10").unwrap(), vec![100, 50, 25, 10]);
        assert!(parse_lods("0").is_err());
        assert!(parse_lods("101").is_err());
        assert!(parse_lods("50,x").is_err());
        assert!(build_object("volcano", BuildOptions::default())
            .unwrap_err()
            .to_string()
            .contains("island"));
        let bad = BuildOptions {
            resolution: Some(-4),
            ..BuildOptions::default()
        };
        assert!(build_object("island", bad).is_err());
        let rings = |r| BuildOptions {
            rings: Some(r),
            ..BuildOptions::default()
        };
        assert!(build_object("planet", rings(2)).is_err());
        // The check refuses what the build refuses, without building.
        assert!(check_object("volcano", BuildOptions::default()).is_err());
        assert!(check_object("island", bad).is_err());
        assert!(check_object("palms", bad).is_err());
        assert!(check_object("clouds", rings(2)).is_err());
        assert!(check_object("island", BuildOptions::default()).is_ok());
        assert!(check_object("planet", rings(10)).is_ok());
        let m = build_object("clouds", rings(10)).unwrap();
        assert_eq!(
            (m.vertex_count(), m.triangle_count()),
            (11 * 21, 4 * 100 - 4 * 10)
        );
    }
}
