//! `--test-minimise` (window test, issue #44): Xvfb has no window manager to minimise with, so
//! the window injects what a minimise delivers — a 0 × 0 resize — and unmaps itself, stays so
//! for [`HIDDEN`], maps and restores itself, then asks for 100 resizes within a second. It
//! prints what the test checks: the CPU time used while hidden (`/proc/self/stat`) against the
//! wall time and the game ticks run meanwhile, and the resident memory (`/proc/self/status`)
//! before and after the resize storm.

use std::time::{Duration, Instant};

/// How long the window stays at 0 × 0 and unmapped.
pub const HIDDEN: Duration = Duration::from_secs(5);

/// Resizes of the storm, and the time it spans.
pub const STORM_RESIZES: u32 = 100;
const STORM_SPAN: Duration = Duration::from_secs(1);

/// Frames drawn after the storm before memory is read again (the last resizes applied).
const SETTLE_FRAMES: u64 = 30;

/// Frame at which the window hides.
pub const HIDE_AT_FRAME: u64 = 10;

/// What the script asks the window to do now.
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    /// Nothing.
    Wait,
    /// Resize to 0 × 0 and unmap.
    Hide,
    /// Map again and resize to the original size.
    Show,
    /// Request this inner size (the storm).
    Resize(u32, u32),
    /// The script has finished.
    Done,
}

/// The script's state.
#[derive(Debug, Default)]
pub struct MinimiseScript {
    hidden: Option<(Instant, f64, u64)>,
    shown: bool,
    storm: Option<(Instant, u32, u64)>,
    storm_ended_at: Option<u64>,
    done: bool,
}

impl MinimiseScript {
    /// The next step at rendered frame `frames` with the game at `tick`, for a window of
    /// `size`; prints the measurements when a phase ends.
    pub fn step(&mut self, frames: u64, tick: u64, size: (u32, u32)) -> Step {
        if self.done {
            return Step::Done;
        }
        let Some((since, cpu, ticks)) = self.hidden else {
            if frames < HIDE_AT_FRAME {
                return Step::Wait;
            }
            self.hidden = Some((Instant::now(), cpu_seconds(), tick));
            let _ = outln!("test-minimise: hiding (0x0, unmapped)");
            return Step::Hide;
        };
        if !self.shown {
            if since.elapsed() < HIDDEN {
                return Step::Wait;
            }
            let wall = since.elapsed().as_secs_f64();
            let used = cpu_seconds() - cpu;
            let _ = outln!(
                "test-minimise: hidden {wall:.3} s, cpu {used:.3} s, ticks {}",
                tick - ticks
            );
            self.shown = true;
            return Step::Show;
        }
        let (start, sent, _) = *self.storm.get_or_insert_with(|| {
            let rss = rss_kib();
            let _ = outln!("test-minimise: rss before storm {rss} KiB");
            (Instant::now(), 0, rss)
        });
        if sent < STORM_RESIZES {
            let due = STORM_SPAN.mul_f64(f64::from(sent) / f64::from(STORM_RESIZES));
            if start.elapsed() < due {
                return Step::Wait;
            }
            if let Some(storm) = &mut self.storm {
                storm.1 += 1;
            }
            let (w, h) = size;
            return if sent % 2 == 0 {
                Step::Resize((w / 2).max(1), (h / 2).max(1))
            } else {
                Step::Resize(w, h)
            };
        }
        let ended = *self.storm_ended_at.get_or_insert(frames);
        if frames < ended + SETTLE_FRAMES {
            return Step::Wait;
        }
        let _ = outln!(
            "test-minimise: storm of {STORM_RESIZES} resizes in {:.3} s, rss after {} KiB",
            start.elapsed().as_secs_f64(),
            rss_kib()
        );
        self.done = true;
        Step::Done
    }
}

/// CPU time (user + system) of this process so far, seconds (`/proc/self/stat` fields 14 and
/// 15, in clock ticks of 1/100 s, the value on every Linux port); 0 where unreadable.
pub fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which may hold spaces), from field 3 on.
    let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
        return 0.0;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime is field 14, stime 15: indices 11 and 12 counting from field 3.
    (ticks(11) + ticks(12)) / 100.0
}

/// Resident memory of this process, KiB (`VmRSS`); 0 where unreadable.
pub fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.split_whitespace().next()?.parse().ok())
        })
        .unwrap_or(0)
}
