//! Running a program under hostile input without risking the test machine.
//!
//! A loader bug met by a hostile file (a buffer `uri` of `/dev/zero`, an image that declares
//! 100000×100000 pixels, a parent chain 20,000 deep) must fail a test, never take the CI machine
//! down with it. [`run_limited`] starts the program as a child process with a memory limit
//! (`setrlimit`), in its own process group, with a wall-clock timeout after which the whole group
//! is killed, and reports its exit, its output and its peak resident memory (from `wait4`).
//!
//! ```no_run
//! use std::{process::Command, time::Duration};
//! use sierra_testkit::child::{run_limited, Limits};
//! let mut cmd = Command::new("target/release/sierra"); // in a test: env!("CARGO_BIN_EXE_sierra")
//! cmd.args(["inspect", "/dev/zero"]);
//! let out = run_limited(&mut cmd, &Limits::address_space(1 << 30, Duration::from_secs(20))).unwrap();
//! assert_eq!(out.exit_code(), Some(1), "{}", out.stderr);
//! assert!(!out.timed_out && out.peak_rss_kib < 512 * 1024);
//! ```
//!
//! Linux only (the project's machines and CI are Linux).

use std::io::{self, Read};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, ExitStatus, Stdio};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How much of each output stream is kept in [`Outcome`]; the rest is read and counted, not kept.
pub const CAPTURE_LIMIT_BYTES: usize = 16 << 20;

/// Limits for one child run.
#[derive(Clone, Debug)]
pub struct Limits {
    /// `RLIMIT_AS`: bytes of virtual address space. Right for CPU-only commands; programs that
    /// start a Vulkan driver (lavapipe maps large virtual ranges) need [`Limits::data_bytes`].
    pub address_space_bytes: Option<u64>,
    /// `RLIMIT_DATA`: bytes of data segment and private anonymous mappings (heap), for commands
    /// that start lavapipe.
    pub data_bytes: Option<u64>,
    /// Wall-clock time after which the child's process group is killed (`SIGKILL`).
    pub timeout: Duration,
}

impl Limits {
    /// An `RLIMIT_AS` limit of `bytes` and a timeout: for commands that do not touch the GPU.
    pub fn address_space(bytes: u64, timeout: Duration) -> Self {
        Self {
            address_space_bytes: Some(bytes),
            data_bytes: None,
            timeout,
        }
    }

    /// An `RLIMIT_DATA` limit of `bytes` and a timeout: for commands that start lavapipe.
    pub fn data(bytes: u64, timeout: Duration) -> Self {
        Self {
            address_space_bytes: None,
            data_bytes: Some(bytes),
            timeout,
        }
    }
}

/// What a limited child run did.
#[derive(Debug)]
pub struct Outcome {
    /// How the child ended (exit code or signal); a timed-out child ends by `SIGKILL`.
    pub status: ExitStatus,
    /// Standard output, lossily decoded, at most [`CAPTURE_LIMIT_BYTES`].
    pub stdout: String,
    /// Standard error, lossily decoded, at most [`CAPTURE_LIMIT_BYTES`].
    pub stderr: String,
    /// Total bytes the child wrote to standard output (also past the capture limit).
    pub stdout_bytes: u64,
    /// Peak resident set size of the child in KiB (`ru_maxrss` from `wait4`).
    pub peak_rss_kib: u64,
    /// The child was killed because it ran past [`Limits::timeout`].
    pub timed_out: bool,
    /// Wall-clock time from spawn to exit.
    pub wall: Duration,
}

impl Outcome {
    /// The exit code, or `None` when a signal ended the child.
    pub fn exit_code(&self) -> Option<i32> {
        self.status.code()
    }

    /// The signal that ended the child (e.g. 6 for an abort, 9 for the timeout's kill), if any.
    pub fn signal(&self) -> Option<i32> {
        self.status.signal()
    }

    /// A one-paragraph summary for assertion messages.
    pub fn describe(&self) -> String {
        format!(
            "status {:?}, timed out {}, peak RSS {} KiB, {:.2?} wall, {} stdout bytes\nstderr: {}",
            self.status,
            self.timed_out,
            self.peak_rss_kib,
            self.wall,
            self.stdout_bytes,
            truncate(&self.stderr, 4000)
        )
    }
}

/// Runs `cmd` with standard input closed, its outputs captured, under `limits`.
///
/// The child gets its own process group, so a timeout kills everything it started.
///
/// # Errors
/// The spawn's or `wait4`'s I/O error.
pub fn run_limited(cmd: &mut Command, limits: &Limits) -> io::Result<Outcome> {
    let address_space = limits.address_space_bytes;
    let data = limits.data_bytes;
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: the closure runs in the forked child before exec and calls only async-signal-safe
    // functions (setpgid, setrlimit), touching no memory shared with the parent.
    unsafe {
        cmd.pre_exec(move || {
            if libc::setpgid(0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
            set_limit(libc::RLIMIT_AS, address_space)?;
            set_limit(libc::RLIMIT_DATA, data)?;
            Ok(())
        });
    }
    let start = Instant::now();
    let mut child = cmd.spawn()?;
    let pid = child.id() as libc::pid_t;
    let stdout = child.stdout.take().map(drain);
    let stderr = child.stderr.take().map(drain);
    let (status, rusage, timed_out) = wait_with_timeout(pid, limits.timeout)?;
    let wall = start.elapsed();
    let (stdout, stdout_bytes) = join(stdout);
    let (stderr, _) = join(stderr);
    Ok(Outcome {
        status,
        stdout,
        stderr,
        stdout_bytes,
        peak_rss_kib: u64::try_from(rusage.ru_maxrss).unwrap_or(0),
        timed_out,
        wall,
    })
}

fn set_limit(resource: libc::__rlimit_resource_t, bytes: Option<u64>) -> io::Result<()> {
    let Some(bytes) = bytes else { return Ok(()) };
    let limit = libc::rlimit {
        rlim_cur: bytes,
        rlim_max: bytes,
    };
    // SAFETY: a plain system call on a valid, initialised struct.
    if unsafe { libc::setrlimit(resource, &limit) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Polls `wait4(pid, WNOHANG)` until the child exits or `timeout` passes; then kills its
/// process group and reaps it.
fn wait_with_timeout(
    pid: libc::pid_t,
    timeout: Duration,
) -> io::Result<(ExitStatus, libc::rusage, bool)> {
    let deadline = Instant::now() + timeout;
    let mut timed_out = false;
    loop {
        let mut raw_status = 0;
        // SAFETY: all-zero bytes are a valid `rusage`.
        let mut rusage: libc::rusage = unsafe { std::mem::zeroed() };
        let flags = if timed_out { 0 } else { libc::WNOHANG };
        // SAFETY: `pid` is our own unreaped child; the out-pointers are valid for writes.
        let reaped = unsafe { libc::wait4(pid, &mut raw_status, flags, &mut rusage) };
        if reaped == pid {
            return Ok((ExitStatus::from_raw(raw_status), rusage, timed_out));
        }
        if reaped < 0 {
            let error = io::Error::last_os_error();
            if error.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(error);
        }
        if Instant::now() >= deadline {
            // SAFETY: signals the child's own process group (set up in `pre_exec`).
            unsafe { libc::kill(-pid, libc::SIGKILL) };
            timed_out = true;
            continue;
        }
        thread::sleep(Duration::from_millis(5));
    }
}

type Drained = JoinHandle<(Vec<u8>, u64)>;

/// Reads a stream to its end on a thread, keeping at most [`CAPTURE_LIMIT_BYTES`].
fn drain(mut stream: impl Read + Send + 'static) -> Drained {
    thread::spawn(move || {
        let mut kept = Vec::new();
        let mut total = 0u64;
        let mut buf = vec![0u8; 64 << 10];
        loop {
            match stream.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    total += n as u64;
                    let room = CAPTURE_LIMIT_BYTES.saturating_sub(kept.len());
                    kept.extend_from_slice(&buf[..n.min(room)]);
                }
            }
        }
        (kept, total)
    })
}

fn join(handle: Option<Drained>) -> (String, u64) {
    let (bytes, total) = handle.and_then(|h| h.join().ok()).unwrap_or_default();
    (String::from_utf8_lossy(&bytes).into_owned(), total)
}

fn truncate(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}… ({} bytes in all)", &text[..cut], text.len()),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `sh -c SCRIPT` with an address-space limit of `bytes` and a timeout.
    fn sh(script: &str, bytes: u64, timeout: Duration) -> Outcome {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", script]);
        run_limited(&mut cmd, &Limits::address_space(bytes, timeout)).unwrap()
    }

    #[test]
    fn captures_exit_code_and_both_streams() {
        let out = sh(
            "echo out; echo err >&2; exit 3",
            1 << 30,
            Duration::from_secs(10),
        );
        assert_eq!(out.exit_code(), Some(3));
        assert_eq!(out.stdout, "out\n");
        assert_eq!(out.stderr, "err\n");
        assert!(!out.timed_out);
    }

    #[test]
    fn a_hang_is_killed_at_the_timeout_with_its_children() {
        let out = sh(
            "sleep 30 & sleep 30; wait",
            1 << 30,
            Duration::from_millis(300),
        );
        assert!(out.timed_out, "{}", out.describe());
        assert_eq!(out.signal(), Some(libc::SIGKILL));
        assert!(out.wall < Duration::from_secs(5), "{}", out.describe());
    }

    #[test]
    fn the_memory_limit_stops_a_large_allocation_and_peak_rss_is_measured() {
        // `head -c` of /dev/zero into `tr` holds little; a 64 MiB `dd` block must be allocated
        // whole. Under a 32 MiB address space dd cannot allocate its buffer and fails.
        let limited = sh(
            "dd if=/dev/zero of=/dev/null bs=64M count=1 2>&1",
            32 << 20,
            Duration::from_secs(10),
        );
        assert_ne!(limited.exit_code(), Some(0), "{}", limited.describe());
        // Negative control: with room, the same command succeeds and its peak RSS shows the block.
        let roomy = sh(
            "dd if=/dev/zero of=/dev/null bs=64M count=1 2>&1",
            1 << 30,
            Duration::from_secs(10),
        );
        assert_eq!(roomy.exit_code(), Some(0), "{}", roomy.describe());
        assert!(roomy.peak_rss_kib >= 60 * 1024, "{}", roomy.describe());
    }

    #[test]
    fn output_past_the_capture_limit_is_counted_not_kept() {
        let out = sh(
            "head -c 20000000 /dev/zero",
            1 << 30,
            Duration::from_secs(20),
        );
        assert_eq!(out.stdout_bytes, 20_000_000);
        assert!(out.stdout.len() <= CAPTURE_LIMIT_BYTES);
    }
}
