//! A CLI that ends (issue #22): every crash and hang found by hand, run as a child process under
//! a timeout and memory limit ([`sierra_testkit::child`]) so a regression fails instead of
//! exhausting the machine.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use sierra_testkit::child::{run_limited, Limits, Outcome};

const MIB: u64 = 1 << 20;

/// `sierra ARGS` under an address-space limit (for commands that never start the GPU).
fn sierra_cpu(args: &[&str], address_space_mib: u64, seconds: u64) -> Outcome {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sierra"));
    cmd.args(args);
    limited(
        &mut cmd,
        &Limits::address_space(address_space_mib * MIB, secs(seconds)),
    )
}

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

fn limited(cmd: &mut Command, limits: &Limits) -> Outcome {
    let outcome = run_limited(cmd, limits).expect("the child starts");
    assert!(!outcome.timed_out, "timed out: {}", outcome.describe());
    assert!(
        !outcome.stderr.contains("panicked") && outcome.signal().is_none(),
        "crashed: {}",
        outcome.describe()
    );
    outcome
}

/// A level whose objects form one parent chain `depth` deep.
fn chain_level(dir: &Path, depth: usize) -> std::path::PathBuf {
    let mut objects = Vec::with_capacity(depth);
    for i in 0..depth {
        let parent = if i == 0 {
            String::new()
        } else {
            format!(r#", "parent": "n{}""#, i - 1)
        };
        objects.push(format!(
            r#"{{"name": "n{i}", "position": [0, 0.001, 0]{parent}}}"#
        ));
    }
    let path = dir.join(format!("chain_{depth}.json"));
    std::fs::write(
        &path,
        format!(r#"{{"objects": [{}]}}"#, objects.join(",\n")),
    )
    .unwrap();
    path
}

#[test]
fn inspect_of_a_deep_chain_ends_with_output_linear_in_depth() {
    let tmp = tempfile::tempdir().unwrap();
    let mut bytes = Vec::new();
    for depth in [2_000, 20_000] {
        let level = chain_level(tmp.path(), depth);
        let o = sierra_cpu(&["inspect", level.to_str().unwrap()], 2048, 60);
        assert_eq!(o.exit_code(), Some(0), "{}", o.describe());
        bytes.push(o.stdout_bytes);
        if depth == 20_000 {
            let tree: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
            let nodes = tree["nodes"].as_array().unwrap();
            assert_eq!(nodes.len(), depth);
            let last = &nodes[depth - 1];
            assert_eq!(
                (last["name"].as_str(), last["depth"].as_u64()),
                (Some("n19999"), Some(19_999))
            );
            // Each node 1 mm above its parent: the deepest is 20 m up.
            let y = last["worldPosition"][1].as_f64().unwrap();
            assert!((y - 20.0).abs() < 0.05, "{y}");
        }
    }
    // Ten times the nodes, about ten times the bytes (quadratic output would be 100 times).
    let ratio = bytes[1] as f64 / bytes[0] as f64;
    assert!(
        (9.0..12.0).contains(&ratio),
        "bytes {bytes:?}, ratio {ratio}"
    );
}

/// Runs `sh -c 'sierra ARGS | head -1'` and returns sierra's exit status (pipefail) and stderr.
fn piped_into_head(args: &[&str]) -> Outcome {
    let mut cmd = Command::new("bash");
    cmd.arg("-c")
        .arg(r#"set -o pipefail; "$@" | head -1 >/dev/null"#)
        .arg("bash")
        .arg(env!("CARGO_BIN_EXE_sierra"))
        .args(args);
    limited(&mut cmd, &Limits::address_space(2048 * MIB, secs(60)))
}

#[test]
fn a_closed_stdout_ends_quietly_with_status_zero() {
    let tmp = tempfile::tempdir().unwrap();
    // 2,000 nodes print far more than a pipe buffer, so the writes meet the closed pipe.
    let level = chain_level(tmp.path(), 2_000);
    let o = piped_into_head(&["inspect", level.to_str().unwrap()]);
    assert_eq!(o.exit_code(), Some(0), "{}", o.describe());
    assert_eq!(o.stderr, "", "quiet");

    // `pose` of a model written first (the built-in mannequin), all its clips listed.
    let glb = tmp.path().join("m.glb");
    let o = sierra_cpu(&["export-mannequin", glb.to_str().unwrap()], 2048, 30);
    assert_eq!(o.exit_code(), Some(0), "{}", o.describe());
    let model = glb.to_str().unwrap();
    for args in [
        &["pose", model, "--clip", "0", "--time", "0.3"][..],
        &["pose", model, "--list"][..],
    ] {
        let o = piped_into_head(args);
        assert_eq!(o.exit_code(), Some(0), "{args:?}: {}", o.describe());
        assert_eq!(o.stderr, "", "{args:?}");
    }
}

#[test]
fn huge_counts_are_refused_naming_the_limit() {
    let cases: [(&[&str], &str); 9] = [
        (
            &[
                "view",
                "builtin:mannequin",
                "--frames",
                "18446744073709551615",
            ],
            "100000",
        ),
        (
            &["view", "builtin:mannequin", "--frames", "4294967296"],
            "100000",
        ),
        (&["render", "x.json", "--frames", "4294967296"], "100000"),
        (&["water", "--threads", "100000"], "1024"),
        (&["render", "x.json", "--size", "100000x10"], "8192"),
        (
            &["bench", "crowd", "--instances", "100,4000000000"],
            "1000000",
        ),
        (&["bench", "anim", "--characters", "99999999999"], "1000000"),
        (&["inspect", "x.json", "--ticks", "4000000000"], "100000"),
        (&["water", "--steps", "4000000000"], "1000000"),
    ];
    for (args, limit) in cases {
        let o = sierra_cpu(args, 1024, 20);
        assert_eq!(o.exit_code(), Some(2), "{args:?}: {}", o.describe());
        assert!(
            o.stderr.contains(limit) && o.stderr.contains("limit"),
            "{args:?} names the limit {limit}: {}",
            o.stderr
        );
        assert!(o.peak_rss_kib < 256 * 1024, "{args:?}: {}", o.describe());
    }
}

#[test]
fn a_ten_megabyte_noise_line_is_quoted_short() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("points.txt");
    std::fs::write(&input, format!("0.5 x{}\n", "9".repeat(10 << 20))).unwrap();
    let mut cmd = Command::new("bash");
    cmd.arg("-c")
        .arg(r#""$0" noise perlin2 < "$1""#)
        .arg(env!("CARGO_BIN_EXE_sierra"))
        .arg(&input);
    let o = limited(&mut cmd, &Limits::address_space(1024 * MIB, secs(30)));
    assert_eq!(o.exit_code(), Some(1), "{}", o.describe());
    assert!(o.stderr.contains("line 1"), "{}", o.stderr);
    assert!(o.stderr.len() < 1024, "stderr is {} bytes", o.stderr.len());
}
