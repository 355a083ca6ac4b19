//! Shared by the window tests: runs the `sierra` binary in a window under Xvfb.
// Each test uses some of the helpers.
#![allow(dead_code)]

use std::ffi::{OsStr, OsString};
use std::os::unix::process::CommandExt;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The screen the window tests run on unless they need another.
pub const SCREEN: &str = "1024x768";

/// Runs `sierra ARGS…` under `xvfb-run -a` on a screen of `screen` pixels (`"WIDTHxHEIGHT"`,
/// 24-bit colour; e.g. [`SCREEN`]), on lavapipe unless `WGPU_BACKEND` says otherwise, with a
/// private `XDG_RUNTIME_DIR`, and waits up to `timeout` for it to exit; the run must exit 0.
/// Returns its stdout and stderr as text, or `None` when `xvfb-run` is not installed, after a
/// `xvfb-run` skip (`sierra_testkit::skip`; a failure under CI), so the caller returns at once. Panics (the test fails) when the run
/// outlasts `timeout` or exits with an error (its output in the message).
pub fn window_run_ok<I, S>(screen: &str, args: I, timeout: Duration) -> Option<(String, String)>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let sierra = std::iter::once(OsString::from(env!("CARGO_BIN_EXE_sierra")));
    let args = args.into_iter().map(|a| a.as_ref().to_owned());
    let out = run_in_xvfb(screen, sierra.chain(args), timeout)?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    Some((stdout, stderr))
}

/// The line [`window_run_status`] adds to stderr, before sierra's exit status.
const STATUS_LINE: &str = "sierra exit status: ";

/// As [`window_run_ok`], whatever the exit, and with sierra's own exit status rather than xvfb-run's: xvfb-run exits 5
/// when it fails to remove its temporary folder after the command, whatever the command did
/// (seen here about once in five runs of a window that ends with an error). Returns
/// `(status, stdout, stderr)`: the status the shell saw (128 + N for a signal N), `None` when
/// sierra never reported one.
pub fn window_run_status<I, S>(
    screen: &str,
    args: I,
    timeout: Duration,
) -> Option<(Option<i32>, String, String)>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let script = format!(r#""$0" "$@"; echo "{STATUS_LINE}$?" >&2"#);
    let command = ["sh", "-c", &script, env!("CARGO_BIN_EXE_sierra")]
        .into_iter()
        .map(OsString::from)
        .chain(args.into_iter().map(|a| a.as_ref().to_owned()));
    let out = run_in_xvfb(screen, command, timeout)?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let status = stderr
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix(STATUS_LINE))
        .and_then(|n| n.trim().parse().ok());
    Some((status, stdout, stderr))
}

/// `xvfb-run -a` of `command` (program and arguments) on a `screen` ("WxH") display, with
/// lavapipe's Vulkan unless `WGPU_BACKEND` says otherwise, a private runtime folder, no Wayland,
/// piped output, and its own process group, so a timed-out run is killed whole (xvfb-run, Xvfb
/// and sierra), not left running to slow every later test.
fn xvfb_command(
    screen: &str,
    command: impl IntoIterator<Item = OsString>,
    runtime_dir: &std::path::Path,
) -> Command {
    let mut xvfb = Command::new("xvfb-run");
    xvfb.args(["-a", "-s", &format!("-screen 0 {screen}x24")])
        .args(command)
        .env(
            "WGPU_BACKEND",
            std::env::var("WGPU_BACKEND").unwrap_or_else(|_| "vulkan".into()),
        )
        .env("XDG_RUNTIME_DIR", runtime_dir)
        .env_remove("WAYLAND_DISPLAY")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    xvfb
}

/// Runs `command` (program and arguments) under `xvfb-run -a` as [`window_run_ok`] describes.
fn run_in_xvfb(
    screen: &str,
    command: impl IntoIterator<Item = OsString>,
    timeout: Duration,
) -> Option<Output> {
    if !sierra_testkit::skip::program_or_skip("xvfb-run", sierra_testkit::skip::Reason::XvfbRun) {
        return None;
    }
    let runtime_dir = tempfile::tempdir().unwrap();
    let mut child = xvfb_command(screen, command, runtime_dir.path())
        .spawn()
        .expect("xvfb-run starts");
    let deadline = Instant::now() + timeout;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let group = -(child.id() as i32);
            // SAFETY: kill(2) with a negative pid signals that process group; no memory involved.
            unsafe { libc::kill(group, libc::SIGKILL) };
            let _ = child.wait();
            panic!("the window run did not finish within {timeout:?}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Some(child.wait_with_output().unwrap())
}

/// A `sierra` window running under `xvfb-run` while the test goes on ([`spawn_window`]): its
/// stdout and stderr collected as they come, the whole process group killed when dropped.
pub struct RunningWindow {
    child: std::process::Child,
    stdout: std::sync::Arc<std::sync::Mutex<String>>,
    stderr: std::sync::Arc<std::sync::Mutex<String>>,
    _runtime_dir: tempfile::TempDir,
}

/// Collects `pipe`'s lines into a shared string on a thread of its own.
fn collect(pipe: impl std::io::Read + Send + 'static) -> std::sync::Arc<std::sync::Mutex<String>> {
    use std::io::BufRead as _;
    let text = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let sink = text.clone();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(pipe).lines().map_while(Result::ok) {
            let mut sink = sink.lock().unwrap();
            sink.push_str(&line);
            sink.push('\n');
        }
    });
    text
}

/// Starts `sierra ARGS…` under `xvfb-run -a` as [`window_run_ok`] does, without waiting for
/// it; `None` after an `xvfb-run` skip.
pub fn spawn_window<I, S>(screen: &str, args: I) -> Option<RunningWindow>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    if !sierra_testkit::skip::program_or_skip("xvfb-run", sierra_testkit::skip::Reason::XvfbRun) {
        return None;
    }
    let runtime_dir = tempfile::tempdir().unwrap();
    let command = std::iter::once(OsString::from(env!("CARGO_BIN_EXE_sierra")))
        .chain(args.into_iter().map(|a| a.as_ref().to_owned()));
    let mut child = xvfb_command(screen, command, runtime_dir.path())
        .spawn()
        .expect("xvfb-run starts");
    let stdout = collect(child.stdout.take().unwrap());
    let stderr = collect(child.stderr.take().unwrap());
    Some(RunningWindow {
        child,
        stdout,
        stderr,
        _runtime_dir: runtime_dir,
    })
}

impl RunningWindow {
    /// Its stdout so far.
    pub fn stdout(&self) -> String {
        self.stdout.lock().unwrap().clone()
    }

    /// Its stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Whether it is still running.
    pub fn running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// Waits until `stdout` (`err`: stderr) holds `needle` at least `count` times; panics with
    /// both outputs when `timeout` passes or the window exits first.
    pub fn wait_for(&mut self, needle: &str, count: usize, err: bool, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        loop {
            let text = if err { self.stderr() } else { self.stdout() };
            if text.matches(needle).count() >= count {
                return;
            }
            assert!(
                self.running() && Instant::now() < deadline,
                "waited for `{needle}` ×{count}\nstdout:\n{}\nstderr:\n{}",
                self.stdout(),
                self.stderr()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for RunningWindow {
    fn drop(&mut self) {
        // SAFETY: kill(2) with a negative pid signals that process group; no memory involved.
        unsafe { libc::kill(-(self.child.id() as i32), libc::SIGKILL) };
        let _ = self.child.wait();
    }
}
