//! `sierra export-mannequin OUT.glb`: writes the built-in mannequin (skin, six
//! clips, material) as a glTF 2.0 binary — the same bytes the engine loads for
//! `"model": "builtin:mannequin"`.

use std::path::PathBuf;

use clap::Args;
use sierra_gltf::builtin::mannequin;

/// `sierra export-mannequin` arguments.
#[derive(Debug, Args)]
pub struct ExportMannequinArgs {
    /// Output `.glb` path (parent folders are created). An existing file is refused.
    pub out: PathBuf,
    /// Overwrite `OUT` when it exists.
    #[arg(long)]
    pub force: bool,
}

/// Runs `sierra export-mannequin`.
///
/// # Errors
/// `OUT` exists (without `--force`); the output file or its folder cannot be written.
pub fn run(args: ExportMannequinArgs) -> anyhow::Result<()> {
    crate::output::check_single_file(&args.out, args.force)?;
    let bytes = mannequin::glb();
    sierra_assets::write_atomic(&args.out, &bytes)?;
    outln!("wrote {} ({} bytes)", args.out.display(), bytes.len())?;
    Ok(())
}
