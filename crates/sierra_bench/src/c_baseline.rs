//! The scalar C baselines of `../shared/bench` (skel.c, pipes.c, ...), compiled with `gcc` and
//! run at bench time, so every benchmark can print its ratio to a C program measured in the
//! same invocation on the same machine. The C files are never copied into the repository.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

/// Folder of the C baselines: `$SIERRA_SHARED/bench`, else `<workspace>/../shared/bench`.
pub fn c_bench_root() -> PathBuf {
    if let Some(dir) = std::env::var_os("SIERRA_SHARED") {
        return PathBuf::from(dir).join("bench");
    }
    crate::workspace_root()
        .join("..")
        .join("shared")
        .join("bench")
}

/// A C baseline compiled with `gcc` into a uniquely named temporary file, removed on drop.
#[derive(Debug)]
pub struct CProgram {
    source: PathBuf,
    exe: PathBuf,
}

impl CProgram {
    /// Compiles `source` with `gcc -O3 -march=native -fopenmp <flags> -lm`.
    ///
    /// # Errors
    /// A message naming the file when it is missing or `gcc` cannot be run or fails.
    pub fn build(source: &Path, flags: &[&str]) -> Result<Self, String> {
        static BUILT: AtomicU64 = AtomicU64::new(0);
        if !source.is_file() {
            return Err(format!(
                "{} not found (set SIERRA_SHARED)",
                source.display()
            ));
        }
        let stem = source.file_stem().unwrap_or_default().to_string_lossy();
        let exe = std::env::temp_dir().join(format!(
            "sierra_c_bench_{stem}_{}_{}",
            std::process::id(),
            BUILT.fetch_add(1, Ordering::Relaxed)
        ));
        let gcc = Command::new("gcc")
            .args(["-O3", "-march=native", "-fopenmp"])
            .args(flags)
            .arg(source)
            .arg("-o")
            .arg(&exe)
            .arg("-lm")
            .output()
            .map_err(|e| format!("gcc for {}: {e}", source.display()))?;
        if !gcc.status.success() {
            return Err(format!(
                "gcc {}: {}",
                source.display(),
                String::from_utf8_lossy(&gcc.stderr)
            ));
        }
        Ok(Self {
            source: source.to_owned(),
            exe,
        })
    }

    /// Runs the program with `args`; returns its standard output.
    ///
    /// # Errors
    /// A message naming the C file when the program cannot run or exits with a failure.
    pub fn run(&self, args: &[&str]) -> Result<String, String> {
        let run = Command::new(&self.exe)
            .args(args)
            .output()
            .map_err(|e| format!("running {}: {e}", self.source.display()))?;
        if !run.status.success() {
            return Err(format!(
                "{} exited with {}",
                self.source.display(),
                run.status
            ));
        }
        Ok(String::from_utf8_lossy(&run.stdout).into_owned())
    }
}

impl Drop for CProgram {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.exe);
    }
}

/// Compiles `file` of [`c_bench_root`] (e.g. `"skel.c"`) with [`CProgram::build`] and `defines`,
/// runs it once with `args` and returns its standard output.
///
/// # Errors
/// As [`CProgram::build`] and [`CProgram::run`].
pub fn build_and_run(file: &str, defines: &[&str], args: &[&str]) -> Result<String, String> {
    CProgram::build(&c_bench_root().join(file), defines)?.run(args)
}

/// The number just before `unit` in the first line containing `marker`, e.g.
/// `number_before(out, "threads=1", " ns/bone")` on skel.c's output.
pub fn number_before(output: &str, marker: &str, unit: &str) -> Option<f64> {
    let line = output.lines().find(|l| l.contains(marker))?;
    let head = &line[..line.find(unit)?];
    let start = head
        .rfind(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map_or(0, |i| i + 1);
    head[start..].parse().ok()
}

#[cfg(test)]
mod tests {
    use super::number_before;

    #[test]
    fn parses_the_c_baselines_lines() {
        let skel = "N=2000 chars x 68 bones, threads=1: best 0.759 ms/frame = 379.7 ns/char = 5.58 ns/bone (TRS->mat + L2M mul)\n\
                    N=2000 chars x 68 bones, threads=2: best 0.4 ms/frame = 190.0 ns/char = 2.79 ns/bone (x)";
        assert_eq!(number_before(skel, "threads=1", " ns/bone"), Some(5.58));
        assert_eq!(number_before(skel, "threads=2", " ns/bone"), Some(2.79));
        let pipes = "virtual pipes 1024x1024, threads=2: 3.100 ms/step (2.96 ns/cell)";
        assert_eq!(number_before(pipes, "threads=2", " ns/cell"), Some(2.96));
        assert_eq!(number_before(pipes, "threads=3", " ns/cell"), None);
    }
}
