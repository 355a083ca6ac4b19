//! The check every asset URL passes before the web build fetches it: the served folder (the
//! folder the page is served from) is the asset root, so a URL must be a relative path that
//! stays inside it. Compiled on every target so the rule is tested natively.

use std::path::{Component, Path, PathBuf};

/// `written` (a URL path relative to the served folder, percent-decoded: a model named by the
/// page, or a glTF reference already joined to its file's folder) as a normalised relative
/// path inside the served folder: `.` dropped, `a/../b` → `b`, `\` read as a separator.
///
/// # Errors
/// A message naming `written` and why, when it is empty, absolute (`/x`, `C:\x`), has a
/// scheme or host (`http://…`, `//host/…`, `file:…`), a query or fragment, or a `..` that
/// climbs out of the served folder.
pub fn served_path(written: &str) -> Result<PathBuf, String> {
    let refuse = |why: &str| {
        Err(format!(
            "`{written}` is refused: {why}; assets are fetched only from the folder the page is served from (relative URLs inside it)"
        ))
    };
    if written.is_empty() {
        return refuse("the URL is empty");
    }
    if written.contains(':') {
        return refuse("a URL with a scheme or drive (`:`) leaves the served folder");
    }
    if written.starts_with('/') || written.starts_with('\\') {
        return refuse("an absolute URL leaves the served folder");
    }
    if written.contains(['?', '#']) {
        return refuse("a query (`?`) or fragment (`#`) is not part of an asset path");
    }
    let unified = written.replace('\\', "/");
    normalise(Path::new(&unified))
        .ok_or(())
        .or_else(|()| refuse("`..` climbs out of the served folder"))
}

/// `path` with `.` dropped and each `..` taking back one name; `None` when a `..` has no name
/// left to take back (or the path is absolute).
pub(crate) fn normalise(path: &Path) -> Option<PathBuf> {
    let mut names: Vec<&std::ffi::OsStr> = Vec::new();
    for c in path.components() {
        match c {
            Component::Normal(name) => names.push(name),
            Component::CurDir => {}
            Component::ParentDir => {
                names.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(names.iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_paths_normalise() {
        assert_eq!(served_path("box.gltf").unwrap(), PathBuf::from("box.gltf"));
        assert_eq!(
            served_path("./models/a/../box.gltf").unwrap(),
            PathBuf::from("models/box.gltf")
        );
        assert_eq!(
            served_path("m\\box.glb").unwrap(),
            PathBuf::from("m/box.glb")
        );
    }

    #[test]
    fn leaving_paths_are_refused_with_a_message() {
        for (url, why) in [
            ("../secret.bin", "climbs out"),
            ("models/../../x.png", "climbs out"),
            ("/etc/passwd", "absolute"),
            ("\\x", "absolute"),
            ("http://evil.example/x.glb", "scheme"),
            ("file:///etc/passwd", "scheme"),
            ("//host/x.glb", "absolute"),
            ("x.glb?y", "query"),
            ("", "empty"),
        ] {
            let e = served_path(url).unwrap_err();
            assert!(e.contains(why), "{url}: {e}");
            assert!(
                e.contains(&format!("`{url}`")),
                "{url}: message names it: {e}"
            );
        }
    }
}
