//! Running a program whose success (or clean failure) a test depends on: the `sierra` binary,
//! a Node tool.
//!
//! ```no_run
//! use std::process::Command;
//! let out = sierra_testkit::process::output_ok(
//!     Command::new("target/release/sierra").args(["inspect", "assets/levels/platforms.json"]),
//! );
//! let tree = sierra_testkit::json::parse(&out.stdout);
//! assert_eq!(tree["nodeCount"], 5);
//! ```

use std::process::{Command, Output};

/// Runs `cmd` to its end with its outputs captured and returns them.
///
/// # Panics
/// When the program cannot start, or exits other than with status 0: the message names the
/// command and carries its stdout and stderr, so the failing test says why.
pub fn output_ok(cmd: &mut Command) -> Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{cmd:?} does not start: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs `cmd`, which must fail cleanly, and returns its stderr.
///
/// # Panics
/// When the program cannot start, exits with status 0, or panics (`panicked` on stderr): bad
/// input must end in a clear error message, never a Rust panic.
pub fn stderr_of_clean_failure(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{cmd:?} does not start: {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !out.status.success(),
        "{cmd:?} was expected to fail; stdout:\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(!stderr.contains("panicked"), "{cmd:?} panicked: {stderr}");
    stderr
}
