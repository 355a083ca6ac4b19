//! A private `XDG_RUNTIME_DIR` for Mesa and winit. Without one (a container, a CI job, `sudo`)
//! Mesa's Vulkan loader prints "XDG_RUNTIME_DIR is invalid or not set" for every device it
//! opens. `main` calls [`ensure_private_runtime_dir`] before any thread starts, so setting the
//! variable cannot race a reader.

use std::path::Path;

/// Whether `path` is what the XDG Base Directory spec requires of a runtime directory: an
/// absolute path to a directory owned by this user with mode 0700 (no group or other access).
pub fn is_valid_runtime_dir(path: &Path) -> bool {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    if !path.is_absolute() {
        return false;
    }
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    std::fs::symlink_metadata(path)
        .is_ok_and(|m| m.is_dir() && m.uid() == uid && m.permissions().mode() & 0o077 == 0)
}

/// When `XDG_RUNTIME_DIR` is unset or not a valid runtime directory
/// ([`is_valid_runtime_dir`]), creates a private one (mode 0700, a unique name under the
/// temporary folder) and points the variable at it. Returns the folder, removed when dropped:
/// keep it until the process ends. `None` when the variable was valid, or when no folder could
/// be made (the run goes on; Mesa then only warns).
///
/// Call it before any other thread starts: it changes the process environment.
pub fn ensure_private_runtime_dir() -> Option<tempfile::TempDir> {
    if std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|p| is_valid_runtime_dir(Path::new(&p))) {
        return None;
    }
    // tempfile creates directories with mode 0700 on Unix.
    let dir = tempfile::Builder::new()
        .prefix("sierra-runtime-")
        .tempdir()
        .ok()?;
    std::env::set_var("XDG_RUNTIME_DIR", dir.path());
    Some(dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn only_private_absolute_directories_are_valid() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
        assert!(is_valid_runtime_dir(dir.path()));
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(!is_valid_runtime_dir(dir.path()), "group/other access");
        let file = dir.path().join("f");
        std::fs::write(&file, b"").unwrap();
        assert!(!is_valid_runtime_dir(&file), "a file");
        assert!(!is_valid_runtime_dir(Path::new("relative/dir")));
        assert!(!is_valid_runtime_dir(&dir.path().join("missing")));
    }
}
