//! `sierra export-mannequin OUT.glb`: writes the built-in mannequin (skin, six
//! clips, material) as a glTF 2.0 binary — the same bytes the engine loads for
//! `"model": "builtin:mannequin"`.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use sierra_gltf::builtin::mannequin;

/// `sierra export-mannequin` arguments.
#[derive(Debug, Args)]
pub struct ExportMannequinArgs {
    /// Output `.glb` path (parent folders are created).
    pub out: PathBuf,
}

/// Runs `sierra export-mannequin`.
///
/// # Errors
/// The output file or its folder cannot be written.
pub fn run(args: ExportMannequinArgs) -> anyhow::Result<()> {
    if let Some(parent) = args.out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    let bytes = mannequin::glb();
    std::fs::write(&args.out, &bytes).with_context(|| format!("writing {}", args.out.display()))?;
    println!("wrote {} ({} bytes)", args.out.display(), bytes.len());
    Ok(())
}
