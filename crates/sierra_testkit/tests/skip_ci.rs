//! The skip helper (`sierra_testkit::skip`) in a real test process: this binary runs its own
//! ignored test `child` in a child process with a chosen environment, and checks that a skip
//! passes and is logged without CI, fails naming the test and the reason under CI, passes under
//! CI when its reason is allow-listed, that appends from many processes at once stay whole lines,
//! and that `SIERRA_TEST_WITHOUT_SIMD` hides a SIMD level.

use std::path::Path;
use std::process::{Command, Output};

use sierra_testkit::skip::{Reason, LOG_FILE};

/// What the child does, from `SIERRA_SKIP_CHILD`: `skip:REASON` skips once with that reason;
/// `many:N` logs N skips with distinct details; `simd` asks for the SIMD levels avx2, avx512.
#[test]
#[ignore = "the child process of the tests below"]
fn child() {
    let mode = std::env::var("SIERRA_SKIP_CHILD").expect("run by the tests of this file");
    if let Some(reason) = mode.strip_prefix("skip:") {
        let reason = Reason::from_name(reason).unwrap();
        sierra_testkit::skip::skip(reason, "the child's detail");
        println!("after the skip");
    } else if let Some(n) = mode.strip_prefix("many:") {
        for i in 0..n.parse::<usize>().unwrap() {
            sierra_testkit::skip::skip(
                Reason::GpuFeature,
                format!("feature {i:04} {}", "x".repeat(200)),
            );
        }
    } else if mode == "simd" {
        let paths = sierra_testkit::skip::simd_paths([
            ("avx2", "avx2", true),
            ("avx512", "avx512", true),
            ("avx512vbmi", "avx512vbmi", true),
        ]);
        println!("compared {}", paths.join(","));
    } else {
        panic!("unknown mode {mode}");
    }
}

/// Runs `child` with `SIERRA_SKIP_CHILD=mode`, the skip log in `dir`, and `env` (`CI` and
/// `SIERRA_TEST_WITHOUT_SIMD` removed unless given).
fn run_child(mode: &str, dir: &Path, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args([
        "--exact",
        "child",
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ])
    .env("SIERRA_SKIP_CHILD", mode)
    .env("SIERRA_SKIP_DIR", dir)
    .env_remove("CI")
    .env_remove(sierra_testkit::skip::WITHOUT_SIMD_ENV);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

fn log_lines(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join(LOG_FILE))
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

const CHILD: &str = "sierra_testkit/skip_ci::child";

#[test]
fn without_ci_a_skip_passes_says_why_and_is_logged() {
    for ci in [None, Some("false"), Some("0")] {
        let dir = tempfile::tempdir().unwrap();
        let env: Vec<(&str, &str)> = ci.map(|v| ("CI", v)).into_iter().collect();
        let out = run_child("skip:shared-assets", dir.path(), &env);
        let said = text(&out);
        assert!(out.status.success(), "CI={ci:?}: {said}");
        assert!(said.contains("after the skip"), "{said}");
        assert!(
            said.contains(&format!(
                "SKIPPED {CHILD} [shared-assets]: the child's detail"
            )),
            "{said}"
        );
        assert_eq!(
            log_lines(dir.path()),
            [format!("{CHILD}\tshared-assets\tthe child's detail")]
        );
    }
}

#[test]
fn under_ci_a_skip_fails_naming_the_test_and_the_reason() {
    for reason in [
        "shared-assets",
        "node-tools",
        "xvfb-run",
        "gpu-adapter",
        "gpu-feature",
    ] {
        for ci in ["true", "1", "yes"] {
            let dir = tempfile::tempdir().unwrap();
            let out = run_child(&format!("skip:{reason}"), dir.path(), &[("CI", ci)]);
            let said = text(&out);
            assert!(!out.status.success(), "CI={ci} {reason} passed: {said}");
            assert!(!said.contains("after the skip"), "{said}");
            assert!(
                said.contains(&format!("CI: {CHILD} skipped [{reason}]")),
                "{said}"
            );
            // Still counted, so the summary names it.
            assert_eq!(
                log_lines(dir.path()),
                [format!("{CHILD}\t{reason}\tthe child's detail")]
            );
        }
    }
}

#[test]
fn under_ci_an_allow_listed_reason_still_skips_and_is_logged() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_child("skip:cpu-simd", dir.path(), &[("CI", "true")]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("after the skip"), "{said}");
    assert_eq!(
        log_lines(dir.path()),
        [format!("{CHILD}\tcpu-simd\tthe child's detail")]
    );
}

#[test]
fn appends_from_many_processes_at_once_stay_whole_lines() {
    let dir = tempfile::tempdir().unwrap();
    let (processes, each) = (8, 200);
    let children: Vec<_> = (0..processes)
        .map(|_| {
            Command::new(std::env::current_exe().unwrap())
                .args(["--exact", "child", "--ignored", "--test-threads=1"])
                .env("SIERRA_SKIP_CHILD", format!("many:{each}"))
                .env("SIERRA_SKIP_DIR", dir.path())
                .env_remove("CI")
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let lines = log_lines(dir.path());
    assert_eq!(lines.len(), processes * each);
    let whole = format!("{CHILD}\tgpu-feature\tfeature ");
    for line in &lines {
        assert!(
            line.starts_with(&whole) && line.len() == whole.len() + 5 + 200,
            "{line:?}"
        );
    }
}

#[test]
fn without_simd_hides_a_level_and_its_extensions_as_an_allow_listed_skip() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_child("simd", dir.path(), &[]);
    assert!(
        text(&out).contains("compared avx2,avx512,avx512vbmi"),
        "{}",
        text(&out)
    );
    assert!(log_lines(dir.path()).is_empty());

    let dir = tempfile::tempdir().unwrap();
    let env = [("CI", "true"), ("SIERRA_TEST_WITHOUT_SIMD", "avx512")];
    let out = run_child("simd", dir.path(), &env);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("compared avx2\n"), "{said}");
    let lines = log_lines(dir.path());
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines
        .iter()
        .all(|l| l.starts_with(&format!("{CHILD}\tcpu-simd\t"))));
}
