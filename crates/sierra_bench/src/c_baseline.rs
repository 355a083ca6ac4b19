//! The project's scalar C baselines (`benchmarks/c/*.c`, embedded in this crate at build time),
//! compiled with `gcc` when a benchmark runs, so every benchmark prints its ratio to a C program
//! doing the same work, measured in the same invocation on the same machine, from any clone and
//! from the release binary alone. A machine without `gcc` gets an error saying so (the bench
//! commands then fail, unless told `--no-c-baseline`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// One of the C baselines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CBaseline {
    /// `benchmarks/c/skeleton.c`: TRS → matrix, local-to-model and skinning palette of 68-joint
    /// characters on 1 and 2 threads (`sierra bench anim`, `propagation`).
    Skeleton,
    /// `benchmarks/c/perlin.c`: improved Perlin 3D and 2D (grad8) noise and fBm workloads
    /// (`sierra bench noise`).
    Perlin,
    /// `benchmarks/c/pipes.c`: one virtual-pipes water step on 1 and 2 threads
    /// (`sierra bench water`).
    Pipes,
}

impl CBaseline {
    /// The file name under `benchmarks/c/`.
    pub fn file_name(self) -> &'static str {
        match self {
            Self::Skeleton => "skeleton.c",
            Self::Perlin => "perlin.c",
            Self::Pipes => "pipes.c",
        }
    }

    /// The C source, as committed.
    pub fn source(self) -> &'static str {
        match self {
            Self::Skeleton => include_str!("../../../benchmarks/c/skeleton.c"),
            Self::Perlin => include_str!("../../../benchmarks/c/perlin.c"),
            Self::Pipes => include_str!("../../../benchmarks/c/pipes.c"),
        }
    }

    /// The gcc command line's flags (before the source): `-O3 -march=native`, and OpenMP for the
    /// multi-threaded programs.
    pub fn flags(self) -> &'static [&'static str] {
        match self {
            Self::Perlin => &["-O3", "-march=native"],
            Self::Skeleton | Self::Pipes => &["-O3", "-march=native", "-fopenmp"],
        }
    }
}

/// A C baseline compiled into a private temporary folder (removed on drop).
#[derive(Debug)]
pub struct CProgram {
    baseline: CBaseline,
    _dir: tempfile::TempDir,
    exe: PathBuf,
}

impl CProgram {
    /// Writes the embedded source to a temporary folder and compiles it with
    /// `gcc <flags> <file> -o <exe> -lm`.
    ///
    /// # Errors
    /// A message naming the file when `gcc` cannot be started (not installed: say how to get
    /// it) or fails (its diagnostics).
    pub fn build(baseline: CBaseline) -> Result<Self, String> {
        let name = baseline.file_name();
        let dir = tempfile::Builder::new()
            .prefix("sierra_c_baseline")
            .tempdir()
            .map_err(|e| format!("temporary folder for {name}: {e}"))?;
        let source = dir.path().join(name);
        std::fs::write(&source, baseline.source())
            .map_err(|e| format!("writing {}: {e}", source.display()))?;
        let exe = dir.path().join(name.trim_end_matches(".c"));
        compile(&source, baseline.flags(), &exe)?;
        Ok(Self {
            baseline,
            _dir: dir,
            exe,
        })
    }

    /// Runs the program with `args`; returns its standard output.
    ///
    /// # Errors
    /// A message naming the C file when the program cannot run or exits with a failure.
    pub fn run(&self, args: &[&str]) -> Result<String, String> {
        let name = self.baseline.file_name();
        let run = Command::new(&self.exe)
            .args(args)
            .output()
            .map_err(|e| format!("running {name}: {e}"))?;
        if !run.status.success() {
            return Err(format!(
                "{name} exited with {}: {}",
                run.status,
                String::from_utf8_lossy(&run.stderr).trim()
            ));
        }
        Ok(String::from_utf8_lossy(&run.stdout).into_owned())
    }
}

fn compile(source: &Path, flags: &[&str], exe: &Path) -> Result<(), String> {
    let name = source.file_name().unwrap_or_default().to_string_lossy();
    let gcc = Command::new("gcc")
        .args(flags)
        .arg(source)
        .arg("-o")
        .arg(exe)
        .arg("-lm")
        .output()
        .map_err(|e| {
            format!(
                "cannot run gcc to build the C baseline benchmarks/c/{name} ({e}); install gcc \
                 (Debian/Ubuntu: apt-get install gcc) or pass --no-c-baseline"
            )
        })?;
    if gcc.status.success() {
        Ok(())
    } else {
        Err(format!(
            "gcc failed on benchmarks/c/{name}: {}",
            String::from_utf8_lossy(&gcc.stderr).trim()
        ))
    }
}

/// Builds `baseline` and runs it once with `args`, returning its standard output.
///
/// # Errors
/// As [`CProgram::build`] and [`CProgram::run`].
pub fn build_and_run(baseline: CBaseline, args: &[&str]) -> Result<String, String> {
    CProgram::build(baseline)?.run(args)
}

/// The number just before `unit` in the first line containing `marker`, e.g.
/// `number_before(out, "threads=1", " ns/joint")` on skeleton.c's output.
pub fn number_before(output: &str, marker: &str, unit: &str) -> Option<f64> {
    let line = output.lines().find(|l| l.contains(marker))?;
    let head = &line[..line.find(unit)?];
    let start = head
        .rfind(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map_or(0, |i| i + 1);
    head[start..].parse().ok()
}

/// [`number_before`], or an error quoting the program's output.
///
/// # Errors
/// No line with `marker`, or no number before `unit` on it.
pub fn require(output: &str, marker: &str, unit: &str) -> Result<f64, String> {
    number_before(output, marker, unit).ok_or_else(|| {
        format!(
            "no `{marker} … <number>{unit}` in the C baseline's output:\n{}",
            output.trim()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_c_baselines_lines() {
        let skel = "skeleton characters=2000 joints=68 threads=1: 379.7 ns/character, 5.584 ns/joint (x)\n\
                    skeleton characters=2000 joints=68 threads=2: 190.0 ns/character, 2.794 ns/joint (x)";
        assert_eq!(number_before(skel, "threads=1", " ns/joint"), Some(5.584));
        assert_eq!(
            number_before(skel, "threads=2", " ns/character"),
            Some(190.0)
        );
        let pipes = "pipes 1024x1024 threads=2: 3.100 ms/step, 2.960 ns/cell";
        assert_eq!(number_before(pipes, "threads=2", " ns/cell"), Some(2.96));
        assert_eq!(number_before(pipes, "threads=3", " ns/cell"), None);
        assert!(require(pipes, "threads=3", " ns/cell").is_err());
    }

    /// Each baseline builds with gcc and runs a tiny workload whose output the benches parse.
    #[test]
    fn every_baseline_builds_and_prints_its_figures() {
        let skeleton = build_and_run(
            CBaseline::Skeleton,
            &["3", "--threads", "1,2", "--reps", "1"],
        );
        let skeleton = skeleton.unwrap();
        assert!(require(&skeleton, "threads=2:", " ns/character").unwrap() > 0.0);
        let no_skin = build_and_run(CBaseline::Skeleton, &["3", "--no-skin", "--threads", "1"]);
        assert!(no_skin.unwrap().contains("(TRS->matrix + local-to-model)"));
        let pipes =
            build_and_run(CBaseline::Pipes, &["8", "--threads", "1", "--steps", "2"]).unwrap();
        assert!(require(&pipes, "threads=1", " ns/cell").unwrap() > 0.0);
        let perlin = build_and_run(CBaseline::Perlin, &["--reps", "1"]).unwrap();
        assert!(require(&perlin, "perlin3 heightmap", " ns/sample").unwrap() > 0.0);
    }

    /// A program that fails gets an error naming the file and quoting its message (the control:
    /// bad arguments make the programs exit with status 2).
    #[test]
    fn a_failing_program_is_an_error_naming_it() {
        let e = build_and_run(CBaseline::Pipes, &["1"]).unwrap_err();
        assert!(
            e.contains("pipes.c exited with") && e.contains("usage: pipes"),
            "{e}"
        );
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("broken.c");
        std::fs::write(&bad, "int main( {").unwrap();
        let e = compile(&bad, &["-O1"], &dir.path().join("broken")).unwrap_err();
        assert!(e.contains("gcc failed on benchmarks/c/broken.c"), "{e}");
    }
}
