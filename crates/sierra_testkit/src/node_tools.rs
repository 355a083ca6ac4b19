//! The Node tools of `tools/js` (three.js's `GLTFLoader`, `gltfpack`), pinned in
//! `tools/js/package-lock.json` and installed by `npm ci` there (`.ci/run`, `make setup`).
//!
//! Without `tools/js/node_modules` a test is skipped through [`crate::skip`]
//! ([`Reason::NodeTools`]), which fails it under CI: CI never passes by skipping.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::skip::{self, Reason};

/// `<workspace>/tools/js`.
pub fn tools_js() -> PathBuf {
    crate::workspace_root().join("tools").join("js")
}

/// Whether `tools/js/node_modules/PACKAGE` is installed; `false` after a
/// [`Reason::NodeTools`] skip when it is not, so the caller returns at once.
///
/// # Panics
/// When it is missing under CI (see [`crate::skip::skip`]).
pub fn installed(package: &str) -> bool {
    let dir = tools_js().join("node_modules").join(package);
    !skip::unless(
        dir.join("package.json").exists(),
        Reason::NodeTools,
        format!("no {}", dir.display()),
    )
}

/// Runs `node tools/js/SCRIPT ARGS…` and returns its stdout.
///
/// # Panics
/// When node cannot start or the script fails (its stderr in the message).
pub fn node(script: &str, args: &[&std::ffi::OsStr]) -> Vec<u8> {
    crate::process::output_ok(Command::new("node").arg(tools_js().join(script)).args(args)).stdout
}

/// `gltfpack FLAGS… -i INPUT -o OUTPUT` (the pinned npm build, run by node).
///
/// # Panics
/// When gltfpack fails or writes nothing.
pub fn gltfpack(flags: &[&str], input: &Path, output: &Path) {
    let mut args: Vec<&std::ffi::OsStr> = flags.iter().map(|f| f.as_ref()).collect();
    args.extend([
        "-i".as_ref(),
        input.as_os_str(),
        "-o".as_ref(),
        output.as_os_str(),
    ]);
    node("node_modules/gltfpack/cli.js", &args);
    assert!(output.exists(), "gltfpack wrote no {}", output.display());
}
