//! `sierra noise FUNCTION`: evaluates improved Perlin noise or fBm at points read from stdin.
//!
//! Input: one point per line, 2 (`perlin2`, `fbm2`) or 3 (`perlin3`, `fbm3`) numbers separated
//! by spaces and/or commas; blank lines and lines starting with `#` are skipped. Output: one
//! value per line in scientific notation with 17 significant digits for `f64` and 9 for `f32`
//! (enough to round-trip).

use std::io::Write;

pub use super::noise_points::parse_points;
use anyhow::bail;
use clap::{Args, ValueEnum};
use sierra_render::compute::noise::{NoiseCompute, NoiseFunction};
use sierra_render::GpuContext;
use sierra_terrain::noise::{perlin2, perlin3, Fbm, FbmParams, NoiseFloat, Permutation};

/// The function to evaluate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Function {
    /// 2D improved Perlin noise; perlin2(x, y) is defined as perlin3(x, y, 0).
    Perlin2,
    /// 3D improved Perlin noise (Ken Perlin 2002), in [-1, 1].
    Perlin3,
    /// fBm of perlin2 (thesis Annex F: sum += noise(p·freq)·amp; freq *= lacunarity; amp *= gain).
    Fbm2,
    /// fBm of perlin3.
    Fbm3,
}

impl Function {
    fn dims(self) -> usize {
        match self {
            Function::Perlin2 | Function::Fbm2 => 2,
            Function::Perlin3 | Function::Fbm3 => 3,
        }
    }

    fn is_fbm(self) -> bool {
        matches!(self, Function::Fbm2 | Function::Fbm3)
    }
}

/// Where to evaluate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Backend {
    /// The CPU (f64 by default, or f32).
    Cpu,
    /// The GPU compute shader (f32 only).
    Gpu,
}

/// Float precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Precision {
    /// Double precision: equals Ken Perlin's Java reference.
    F64,
    /// Single precision: the same operations as the GPU.
    F32,
}

/// `sierra noise` arguments.
#[derive(Debug, Args)]
#[command(
    after_help = "Reads points from stdin, one per line: `x y` for perlin2/fbm2, `x y z` for \
perlin3/fbm3 (spaces or commas). perlin2(x, y) = perlin3(x, y, 0).\n\
Example: echo '3.14 42 7' | sierra noise perlin3   # 1.3691995878400012e-1"
)]
pub struct NoiseArgs {
    /// perlin2 | perlin3 | fbm2 | fbm3.
    #[arg(value_enum)]
    pub function: Function,
    /// fBm octaves, in (0, 32]; a fractional part weights the last octave.
    #[arg(long, allow_negative_numbers = true)]
    pub octaves: Option<f64>,
    /// fBm frequency factor per octave (default 2).
    #[arg(long, allow_negative_numbers = true)]
    pub lacunarity: Option<f64>,
    /// fBm amplitude factor per octave, the thesis's H (default 0.5).
    #[arg(long, allow_negative_numbers = true)]
    pub gain: Option<f64>,
    /// Permutation seed; without it, Ken Perlin's reference permutation.
    #[arg(long)]
    pub seed: Option<u64>,
    /// cpu (default) or gpu.
    #[arg(long, value_enum, default_value_t = Backend::Cpu)]
    pub backend: Backend,
    /// f64 (CPU default) or f32 (the GPU is always f32).
    #[arg(long, value_enum)]
    pub precision: Option<Precision>,
}

/// Runs the command on stdin/stdout.
///
/// # Errors
/// Bad options, unparsable or non-finite points (with the line number), GPU failures.
pub fn run(args: NoiseArgs) -> anyhow::Result<()> {
    let points = parse_points(std::io::stdin().lock(), args.function.dims())?;
    let values = evaluate(&args, &points)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for v in values {
        writeln!(out, "{v}")?;
    }
    out.flush()?;
    Ok(())
}

/// The fBm, or an error when fBm options are given to a plain noise function.
fn fbm_for(args: &NoiseArgs) -> anyhow::Result<Option<Fbm>> {
    if !args.function.is_fbm() {
        if args.octaves.is_some() || args.lacunarity.is_some() || args.gain.is_some() {
            bail!("--octaves, --lacunarity and --gain apply to fbm2/fbm3 only");
        }
        return Ok(None);
    }
    let d = FbmParams::default();
    Ok(Some(Fbm::new(FbmParams {
        octaves: args.octaves.unwrap_or(d.octaves),
        lacunarity: args.lacunarity.unwrap_or(d.lacunarity),
        gain: args.gain.unwrap_or(d.gain),
    })?))
}

/// Evaluates the function at every point and formats the values (17 or 9 significant digits).
///
/// # Errors
/// Invalid fBm parameters, `--backend gpu --precision f64`, GPU errors.
pub fn evaluate(args: &NoiseArgs, points: &[[f64; 3]]) -> anyhow::Result<Vec<String>> {
    let fbm = fbm_for(args)?;
    let perm = Permutation::from_optional_seed(args.seed);
    match (args.backend, args.precision) {
        (Backend::Gpu, Some(Precision::F64)) => {
            bail!("the GPU backend computes in f32 only; use --precision f32 or --backend cpu")
        }
        (Backend::Gpu, _) => {
            if points.is_empty() {
                return Ok(Vec::new());
            }
            let ctx = GpuContext::headless()?;
            let compute = NoiseCompute::new(&ctx)?;
            let function = match args.function {
                Function::Perlin2 => NoiseFunction::Perlin2,
                Function::Perlin3 => NoiseFunction::Perlin3,
                Function::Fbm2 => NoiseFunction::Fbm2,
                Function::Fbm3 => NoiseFunction::Fbm3,
            };
            let pts: Vec<[f32; 3]> = points.iter().map(|p| p.map(|v| v as f32)).collect();
            let fbm = fbm.as_ref().map(sierra_content::terrain::fbm_params);
            let table = sierra_content::terrain::permutation_table(&perm);
            let values = compute.evaluate_points(&ctx, &table, function, fbm.as_ref(), &pts)?;
            Ok(values.iter().map(|v| format!("{v:.8e}")).collect())
        }
        (Backend::Cpu, Some(Precision::F32)) => {
            Ok(cpu::<f32>(args.function, &perm, fbm.as_ref(), points)
                .iter()
                .map(|v| format!("{v:.8e}"))
                .collect())
        }
        (Backend::Cpu, _) => Ok(cpu::<f64>(args.function, &perm, fbm.as_ref(), points)
            .iter()
            .map(|v| format!("{v:.16e}"))
            .collect()),
    }
}

fn cpu<T: NoiseFloat>(
    function: Function,
    perm: &Permutation,
    fbm: Option<&Fbm>,
    points: &[[f64; 3]],
) -> Vec<T> {
    points
        .iter()
        .map(|p| {
            let [x, y, z] = p.map(T::from_f64);
            match (function, fbm) {
                (Function::Perlin2, _) => perlin2(perm, x, y),
                (Function::Perlin3, _) => perlin3(perm, x, y, z),
                (Function::Fbm2, Some(f)) => f.fbm2(perm, x, y),
                (Function::Fbm3, Some(f)) => f.fbm3(perm, x, y, z),
                // fbm_for always returns Some for the fBm functions.
                (_, None) => T::ZERO,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(function: Function) -> NoiseArgs {
        NoiseArgs {
            function,
            octaves: None,
            lacunarity: None,
            gain: None,
            seed: None,
            backend: Backend::Cpu,
            precision: None,
        }
    }

    #[test]
    fn reference_point_prints_exactly() {
        let pts = parse_points("3.14, 42 7\n\n# comment\n".as_bytes(), 3).unwrap();
        let out = evaluate(&args(Function::Perlin3), &pts).unwrap();
        assert_eq!(out, vec!["1.3691995878400012e-1".to_string()]);
        assert_eq!(out[0].parse::<f64>().unwrap(), 0.13691995878400012);
    }

    #[test]
    fn bad_input_is_a_clear_error() {
        let e = parse_points("1 2\n1 nan\n".as_bytes(), 2).unwrap_err();
        assert!(format!("{e:#}").contains("line 2"), "{e:#}");
        let e = parse_points("1 inf 3\n".as_bytes(), 3).unwrap_err();
        assert!(format!("{e:#}").contains("finite"), "{e:#}");
        let e = parse_points("1 2\n".as_bytes(), 3).unwrap_err();
        assert!(e.to_string().contains("expected 3 numbers"));
        assert!(parse_points("1 x\n".as_bytes(), 2).is_err());
        // A 10 MB line is quoted by its first characters only.
        let long = format!("1 {}\n", "9".repeat(10_000_000));
        let e = format!("{:#}", parse_points(long.as_bytes(), 3).unwrap_err());
        assert!(e.len() < 300 && e.contains("10000002 bytes in all"), "{e}");
        let mut a = args(Function::Fbm3);
        for bad in [0.0, -2.0, 33.0] {
            a.octaves = Some(bad);
            let e = evaluate(&a, &[[0.1, 0.2, 0.3]]).unwrap_err();
            assert!(e.to_string().contains("octaves"), "{e}");
        }
        let mut a = args(Function::Perlin3);
        a.octaves = Some(3.0);
        assert!(evaluate(&a, &[[0.1, 0.2, 0.3]]).is_err());
        let mut a = args(Function::Perlin3);
        a.backend = Backend::Gpu;
        a.precision = Some(Precision::F64);
        assert!(evaluate(&a, &[[0.1, 0.2, 0.3]]).is_err());
    }
}
