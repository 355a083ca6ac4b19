//! `inspect` refuses exactly what `render` refuses (issue #44: `inspect` accepted levels
//! `render` then refused). Every shipped level and every test level is run through both
//! commands as subprocesses: both succeed, or both fail with the same `error:` message.
//! The levels of `tests/levels/refused/` are the lenient inputs the issue lists, each with the
//! message it must be refused with.

use std::path::{Path, PathBuf};
use std::process::Command;

use sierra_testkit::workspace_root;

/// The `.json` files of `dir` (the schema left out), sorted.
fn levels_in(dir: &Path) -> Vec<PathBuf> {
    let mut levels: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "json")
                && p.file_name().is_some_and(|n| n != "schema.json")
        })
        .collect();
    levels.sort();
    levels
}

/// Runs `sierra ARGS…`; `Ok(())` on success, else `Err(the error message)` (stderr from the
/// first `error:` line). A panic fails the test.
fn run(args: &[&std::ffi::OsStr]) -> Result<(), String> {
    let out = Command::new(env!("CARGO_BIN_EXE_sierra"))
        .args(args)
        .env(
            "WGPU_BACKEND",
            std::env::var("WGPU_BACKEND").unwrap_or_else(|_| "vulkan".into()),
        )
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !stderr.contains("panicked"),
        "sierra {args:?} panicked:\n{stderr}"
    );
    if out.status.success() {
        return Ok(());
    }
    assert_eq!(out.status.code(), Some(1), "sierra {args:?}: {stderr}");
    let from = stderr.find("error:").unwrap_or(0);
    Err(stderr[from..].trim_end().to_owned())
}

fn inspect(level: &Path) -> Result<(), String> {
    run(&["inspect".as_ref(), level.as_os_str()])
}

fn render(level: &Path, out: &Path) -> Result<(), String> {
    run(&[
        "render".as_ref(),
        level.as_os_str(),
        "--frames".as_ref(),
        "1".as_ref(),
        "--size".as_ref(),
        "32x24".as_ref(),
        "--out".as_ref(),
        out.as_os_str(),
    ])
}

/// Refused levels and a part of the message each must be refused with.
const REFUSED: &[(&str, &str)] = &[
    (
        "birds_10001.json",
        "Birds component: bird count = 10001 is not a valid size: it must be in 1..=10000",
    ),
    (
        "fov_180_negative_near.json",
        "at `camera.fovYDegrees`: 180 is outside (0, 180) degrees",
    ),
    ("near_negative.json", "at `camera.near`: -1 must be > 0 metres"),
    (
        "water_size_0.json",
        "Water component: invalid water grid size 0x0",
    ),
    (
        "water_size_100000.json",
        "Water component: invalid water grid size 100000x100000",
    ),
    (
        "camera_degenerate.json",
        "at `camera.target`: equals camera.position, so there is no view direction",
    ),
    ("camera_vertical.json", "at `camera.target`: the view is vertical"),
    (
        "crowds_20x100000.json",
        "at `objects[1].components[0].count`: this crowd brings the level's crowds to 200000 members, more than the limit of 100000 crowd instances per level",
    ),
];

#[test]
fn inspect_refuses_exactly_what_render_refuses() {
    let root = workspace_root();
    let refused_dir = root.join("crates/sierra/tests/levels/refused");
    let mut levels = levels_in(&root.join("assets/levels"));
    let shipped = levels.len();
    levels.extend(levels_in(&root.join("crates/sierra/tests/levels")));
    levels.extend(levels_in(&refused_dir));
    let out = tempfile::tempdir().unwrap();
    let mut refused = 0;
    for (i, level) in levels.iter().enumerate() {
        let by_inspect = inspect(level);
        let by_render = render(level, &out.path().join(i.to_string()));
        assert_eq!(
            by_inspect,
            by_render,
            "{}: inspect and render disagree",
            level.display()
        );
        let name = level.file_name().unwrap().to_str().unwrap();
        if level.starts_with(&refused_dir) {
            let (_, message) = REFUSED
                .iter()
                .find(|(file, _)| *file == name)
                .unwrap_or_else(|| panic!("{name}: add its message to REFUSED"));
            let error = by_inspect.expect_err(name);
            assert!(
                error.contains(name) && error.contains(message),
                "{name}: {error:?} lacks {message:?}"
            );
            refused += 1;
        } else {
            // Negative control: the shipped and test levels are accepted by both.
            by_inspect.unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
    assert!(shipped >= 5, "shipped levels: {shipped}");
    assert_eq!(refused, REFUSED.len());
}

/// `sierra ARGS…` must fail with exit 2 (usage) or 1; its stderr.
fn stderr_of(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_sierra"))
        .args(args)
        .output()
        .unwrap();
    assert!(!out.status.success(), "sierra {args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Issue #44's two messages: the range `export-obj --resolution` states is the real rule, and
/// `--max-crowd-instances` is bounded.
#[test]
fn resolution_and_crowd_budget_messages_state_the_real_rule() {
    let out = tempfile::tempdir().unwrap();
    let out = out.path().join("obj");
    let err = stderr_of(&[
        "export-obj",
        "--object",
        "island",
        "--resolution",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        err.contains("resolution = 1 is not a valid size: it must be in 3..=16384")
            && !err.contains("1..="),
        "{err}"
    );
    // Refused before the output folder is made: nothing is left behind by a run that wrote nothing.
    assert!(!out.exists(), "{} was created", out.display());
    let err = stderr_of(&["inspect", "unused.json", "--max-crowd-instances", "2000000"]);
    assert!(
        err.contains("--max-crowd-instances 2000000 is over the limit of 1000000"),
        "{err}"
    );
    // Negative control: the flag within its bound raises the level's budget, so the
    // 2,000,000-member level is refused at the raised limit, not the default.
    let level = workspace_root().join("crates/sierra/tests/levels/refused/crowds_20x100000.json");
    let err = stderr_of(&[
        "inspect",
        level.to_str().unwrap(),
        "--max-crowd-instances",
        "1000000",
    ]);
    assert!(
        err.contains("objects[10].components[0].count") && err.contains("limit of 1000000"),
        "{err}"
    );
}
