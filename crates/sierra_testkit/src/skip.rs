//! The one way a test says it cannot run: [`skip`] prints why, appends a line to the run's skip
//! log, and under CI fails the test unless the reason is allow-listed.
//!
//! A test that lacks something it needs (the shared sample models, the Node tools, `xvfb-run`,
//! a GPU adapter or one of its features, a SIMD level of the CPU) calls [`skip`] (or a helper
//! built on it: [`shared_asset_or_skip`], [`unless`], [`simd_paths`]) and then returns:
//!
//! ```ignore
//! let Some(path) = sierra_testkit::skip::shared_asset_or_skip("gltf/Fox/Fox.glb") else { return };
//! if skip::unless(has_lines, Reason::GpuFeature, "POLYGON_MODE_LINE") { return; }
//! ```
//!
//! - **Said:** a line `SKIPPED <test> [<reason>]: <detail>` on stderr.
//! - **Counted:** when `SIERRA_SKIP_DIR` is set, the line `<test>\t<reason>\t<detail>\n` is
//!   appended to `$SIERRA_SKIP_DIR/skips.tsv` (one `write` under an exclusive `flock`, so the
//!   test processes `cargo test` runs side by side never interleave). `scripts/test.sh` (what
//!   `make test` runs) sets it and prints the count by reason after cargo's summary. A test
//!   logs each (reason, detail) once, however often it asks.
//! - **Failed under CI:** when `CI` is set to anything but `false` or `0`, a skip panics naming
//!   the test and the reason, unless the reason's [`Reason::name`] is a line of the committed
//!   allow-list `tests/skip-allowlist.txt` ([`ALLOWLIST`]): CI never passes by skipping.
//!
//! `<test>` is `<package>/<test binary>::<test function>` (the package from `CARGO_PKG_NAME`,
//! the binary from the executable's name without cargo's hash, the function from the name
//! libtest gives the test's thread).

use std::collections::HashSet;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The allow-list, relative to the workspace root: one [`Reason::name`] a line; `#` starts a
/// comment. Reasons listed there skip under CI too (still said and counted).
pub const ALLOWLIST: &str = "tests/skip-allowlist.txt";

/// The skip log's file name inside `$SIERRA_SKIP_DIR`.
pub const LOG_FILE: &str = "skips.tsv";

/// `SIERRA_TEST_WITHOUT_SIMD=avx512[,avx2,…]`: SIMD levels the tests treat as absent from this
/// CPU (so the branch a CPU without them takes runs on one that has them).
pub const WITHOUT_SIMD_ENV: &str = "SIERRA_TEST_WITHOUT_SIMD";

/// Why a test cannot run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The Khronos sample models (`../shared/assets` or `$SIERRA_SHARED/assets`) are missing.
    SharedAssets,
    /// `tools/js/node_modules` (three.js, gltfpack; `npm ci` in `tools/js`) is missing.
    NodeTools,
    /// `xvfb-run` (the window tests' X server) is not installed.
    XvfbRun,
    /// No GPU adapter (not even Mesa's lavapipe) could be opened.
    NoGpuAdapter,
    /// The adapter lacks an optional feature the test checks (timestamp queries,
    /// `POLYGON_MODE_LINE`, pipeline statistics…; the detail names it).
    GpuFeature,
    /// The CPU lacks a SIMD level (AVX-512, AVX2, VBMI; the detail names it), so the paths
    /// compiled for it cannot be compared with the others here.
    CpuSimd,
    /// The browser tests' tools are missing: Chromium, the `wasm32-unknown-unknown` target or
    /// `wasm-bindgen` at `Cargo.lock`'s version (the detail names which).
    WebTools,
}

impl Reason {
    /// Every reason, in the order the summary lists them.
    pub const ALL: [Reason; 7] = [
        Reason::SharedAssets,
        Reason::NodeTools,
        Reason::XvfbRun,
        Reason::NoGpuAdapter,
        Reason::GpuFeature,
        Reason::CpuSimd,
        Reason::WebTools,
    ];

    /// The stable short name used in the log, the summary and the allow-list.
    pub fn name(self) -> &'static str {
        match self {
            Reason::SharedAssets => "shared-assets",
            Reason::NodeTools => "node-tools",
            Reason::XvfbRun => "xvfb-run",
            Reason::NoGpuAdapter => "gpu-adapter",
            Reason::GpuFeature => "gpu-feature",
            Reason::CpuSimd => "cpu-simd",
            Reason::WebTools => "web-tools",
        }
    }

    /// The reason named `name` ([`Reason::name`]), if any.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.name() == name)
    }

    /// What makes the test run.
    pub fn remedy(self) -> &'static str {
        match self {
            Reason::SharedAssets => {
                "put the glTF sample models at ../shared/assets beside the checkout, or set SIERRA_SHARED"
            }
            Reason::NodeTools => "run `npm ci` in tools/js (make test does when npm exists)",
            Reason::XvfbRun => "install xvfb and xauth (scripts/setup.sh does)",
            Reason::NoGpuAdapter => "install Mesa's Vulkan driver (scripts/setup.sh does)",
            Reason::GpuFeature => "run on an adapter with the feature (lavapipe has it)",
            Reason::CpuSimd => "run on a CPU with that instruction set",
            Reason::WebTools => {
                "install chromium, the wasm32 target and wasm-bindgen-cli (scripts/setup.sh does)"
            }
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether this is a CI run: `CI` set to anything but empty, `false` or `0`.
pub fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "false" | "0"))
}

/// The reasons of the allow-list at `path` (see [`ALLOWLIST`]); a missing file allows none.
///
/// # Panics
/// When a line names no [`Reason`] (the file name and line in the message).
pub fn allowlist_at(path: &Path) -> Vec<Reason> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let name = line.split('#').next().unwrap_or("").trim();
            (!name.is_empty()).then(|| {
                Reason::from_name(name).unwrap_or_else(|| {
                    panic!(
                        "{}:{}: no skip reason named {name:?}",
                        path.display(),
                        i + 1
                    )
                })
            })
        })
        .collect()
}

/// The committed allow-list ([`ALLOWLIST`] under the workspace root).
pub fn allowlist() -> Vec<Reason> {
    allowlist_at(&crate::workspace_root().join(ALLOWLIST))
}

/// The running test as `<package>/<binary>::<test>` (see the module docs).
pub fn test_name() -> String {
    let package = std::env::var("CARGO_PKG_NAME").unwrap_or_else(|_| "?".into());
    let binary = std::env::current_exe()
        .ok()
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .map(|stem| match stem.rsplit_once('-') {
            Some((name, hash)) if hash.chars().all(|c| c.is_ascii_hexdigit()) => name.to_owned(),
            _ => stem,
        })
        .unwrap_or_else(|| "?".into());
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("?");
    format!("{package}/{binary}::{test}")
}

/// Skips the running test: prints `SKIPPED <test> [<reason>]: <detail>`, appends it to the
/// skip log, and returns so the caller can `return`.
///
/// # Panics
/// Under CI ([`ci`]) when `reason` is not on the allow-list: the message names the test, the
/// reason, the detail and what would make the test run.
pub fn skip(reason: Reason, detail: impl fmt::Display) {
    let test = test_name();
    let detail = detail.to_string().replace(['\t', '\n', '\r'], " ");
    let line = format!("{test}\t{reason}\t{detail}\n");
    let first = first_time(&line);
    let ci_fails = ci() && !allowlist().contains(&reason);
    if first {
        eprintln!("SKIPPED {test} [{reason}]: {detail} ({})", reason.remedy());
        if let Some(dir) = std::env::var_os("SIERRA_SKIP_DIR") {
            if let Err(e) = append_line(&PathBuf::from(dir).join(LOG_FILE), &line) {
                eprintln!("skip log: {e}");
            }
        }
    }
    if ci_fails {
        panic!(
            "CI: {test} skipped [{reason}]: {detail} — a CI run must not pass by skipping \
             ({}; only the reasons in {ALLOWLIST} may skip under CI)",
            reason.remedy()
        );
    }
}

/// Whether this process sees `key` (a log line, a message) for the first time.
fn first_time(key: &str) -> bool {
    static SEEN: Mutex<Option<HashSet<String>>> = Mutex::new(None);
    SEEN.lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashSet::new)
        .insert(key.to_owned())
}

/// Appends `line` to `path` in one `write` under an exclusive `flock`.
fn append_line(path: &Path, line: &str) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    // SAFETY: flock(2) on a descriptor this function owns; no memory is shared.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) };
    let written = file.write_all(line.as_bytes());
    // SAFETY: as above.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_UN) };
    written
}

/// `true` (after [`skip`]) when `available` is false, so a test reads
/// `if skip::unless(has_it, Reason::GpuFeature, "TIMESTAMP_QUERY") { return; }`.
///
/// # Panics
/// As [`skip`].
pub fn unless(available: bool, reason: Reason, detail: impl fmt::Display) -> bool {
    if !available {
        skip(reason, detail);
    }
    !available
}

/// Path of the shared asset `relative` (e.g. `"gltf/Fox/Fox.glb"`) under
/// [`crate::shared_assets_root`], or `None` after [`skip`] with [`Reason::SharedAssets`].
///
/// # Panics
/// As [`skip`] (under CI).
pub fn shared_asset_or_skip(relative: &str) -> Option<PathBuf> {
    let path = crate::shared_assets_root().join(relative);
    if path.exists() {
        return Some(path);
    }
    skip(
        Reason::SharedAssets,
        format!("shared asset {} not found", path.display()),
    );
    None
}

/// Whether the program `name` is on `PATH`; `false` after [`skip`] with `reason` when not.
///
/// # Panics
/// As [`skip`] (under CI).
pub fn program_or_skip(name: &str, reason: Reason) -> bool {
    let found = std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|dir| {
            std::fs::metadata(dir.join(name)).is_ok_and(|m| {
                use std::os::unix::fs::PermissionsExt;
                m.is_file() && m.permissions().mode() & 0o111 != 0
            })
        })
    });
    !unless(found, reason, format!("{name} is not on PATH"))
}

/// Whether the tests treat the SIMD level `level` (`"avx512"`, `"avx2"`, `"avx512vbmi"`) as
/// absent: `SIERRA_TEST_WITHOUT_SIMD` (comma-separated) lists it or a prefix of it (`avx512`
/// also hides `avx512vbmi`).
pub fn simd_hidden(level: &str) -> bool {
    let level = level.to_ascii_lowercase();
    std::env::var(WITHOUT_SIMD_ENV).is_ok_and(|v| {
        v.split(',')
            .map(|l| l.trim().to_ascii_lowercase())
            .any(|l| !l.is_empty() && level.starts_with(&l))
    })
}

/// The SIMD paths a test compares with its portable/scalar reference: of `candidates`
/// (`(path, level name, whether this CPU runs it)`), those the CPU runs and
/// `SIERRA_TEST_WITHOUT_SIMD` does not hide. Each one left out is a [`Reason::CpuSimd`] skip
/// (allow-listed), and the paths compared are printed, so the test says which ran.
///
/// # Panics
/// As [`skip`], where `cpu-simd` is not allow-listed under CI.
pub fn simd_paths<T: Copy + fmt::Debug>(
    candidates: impl IntoIterator<Item = (T, &'static str, bool)>,
) -> Vec<T> {
    let mut compared = Vec::new();
    for (path, level, on_cpu) in candidates {
        if !on_cpu {
            skip(
                Reason::CpuSimd,
                format!("this CPU has no {level}: {path:?} not compared"),
            );
        } else if simd_hidden(level) {
            skip(
                Reason::CpuSimd,
                format!("{WITHOUT_SIMD_ENV} hides {level}: {path:?} not compared"),
            );
        } else {
            compared.push(path);
        }
    }
    let said = format!(
        "{}: SIMD paths compared (besides the portable baseline): {compared:?}",
        test_name()
    );
    if first_time(&said) {
        eprintln!("{said}");
    }
    compared
}

/// Whether a test of one SIMD level's own code runs: `on_cpu` (the CPU has `level`, from
/// `is_x86_feature_detected!`) and `SIERRA_TEST_WITHOUT_SIMD` does not hide `level`; `false`
/// after a [`Reason::CpuSimd`] skip otherwise.
pub fn simd_level_or_skip(level: &'static str, on_cpu: bool) -> bool {
    !simd_paths([(level, level, on_cpu)]).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_round_trips_through_its_name() {
        for r in Reason::ALL {
            assert_eq!(Reason::from_name(r.name()), Some(r));
        }
        assert_eq!(Reason::from_name("shared"), None);
    }

    #[test]
    fn the_committed_allowlist_holds_only_the_cpu_simd_reason() {
        assert_eq!(allowlist(), vec![Reason::CpuSimd]);
    }

    #[test]
    fn an_allowlist_line_naming_no_reason_is_an_error_naming_the_line() {
        let dir = std::env::temp_dir().join(format!("sierra-allowlist-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("list.txt");
        std::fs::write(&path, "# comment\ncpu-simd  # fine\n\nshared\n").unwrap();
        let err = std::panic::catch_unwind(|| allowlist_at(&path)).unwrap_err();
        let msg = err.downcast_ref::<String>().unwrap();
        assert!(
            msg.contains("list.txt:4") && msg.contains("\"shared\""),
            "{msg}"
        );
        std::fs::write(&path, "# comment\ncpu-simd  # fine\n\nxvfb-run\n").unwrap();
        assert_eq!(allowlist_at(&path), vec![Reason::CpuSimd, Reason::XvfbRun]);
        assert!(allowlist_at(&dir.join("absent.txt")).is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_test_name_names_the_package_binary_and_test() {
        let name = test_name();
        assert_eq!(
            name,
            "sierra_testkit/sierra_testkit::skip::tests::the_test_name_names_the_package_binary_and_test"
        );
    }
}
