use std::fmt;
use std::path::{Component, Path, PathBuf};

use crate::clip::Clip;
use crate::error::Error;
use crate::synth;

/// Sample rate of the built-in sounds, Hz.
pub const BUILTIN_SAMPLE_RATE: u32 = 44_100;

/// A sound synthesised in code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// Waves breaking on a beach ([`synth::surf`]).
    Surf,
    /// Gulls calling near and far ([`synth::gulls`]).
    Gulls,
}

impl Builtin {
    /// Every built-in sound, with its name after `builtin:`.
    pub const ALL: [(Builtin, &'static str); 2] =
        [(Builtin::Surf, "surf"), (Builtin::Gulls, "gulls")];

    /// Synthesises the sound at [`BUILTIN_SAMPLE_RATE`].
    pub fn synthesise(self) -> Clip {
        match self {
            Builtin::Surf => synth::surf(BUILTIN_SAMPLE_RATE),
            Builtin::Gulls => synth::gulls(BUILTIN_SAMPLE_RATE),
        }
    }

    fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(b, _)| *b == self)
            .map_or("", |(_, n)| n)
    }
}

/// Where a looping sound comes from: `"builtin:surf"`, `"builtin:gulls"`, or a `.wav`/`.ogg`
/// path relative to the level's asset root. In JSON it is that string.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum SoundSource {
    /// A procedural sound.
    Builtin(Builtin),
    /// An audio file, relative to the asset root.
    File(PathBuf),
}

/// What a source string may be, for error messages.
fn valid_sources() -> String {
    let builtins: Vec<String> = Builtin::ALL
        .iter()
        .map(|(_, n)| format!("builtin:{n}"))
        .collect();
    format!(
        "{}, or a relative path ending in .wav or .ogg",
        builtins.join(", ")
    )
}

impl SoundSource {
    /// Parses a level's `source` string.
    ///
    /// # Errors
    /// [`Error::UnknownBuiltin`] for `builtin:<unknown>`, [`Error::UnsupportedSource`] for a path
    /// that is not `.wav`/`.ogg`; both list what is valid.
    pub fn parse(source: &str) -> Result<Self, Error> {
        if let Some(name) = source.strip_prefix("builtin:") {
            return Builtin::ALL
                .iter()
                .find(|(_, n)| *n == name)
                .map(|(b, _)| SoundSource::Builtin(*b))
                .ok_or_else(|| Error::UnknownBuiltin {
                    name: name.to_owned(),
                    valid: valid_sources(),
                });
        }
        let path = PathBuf::from(source);
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("wav" | "ogg") => Ok(SoundSource::File(path)),
            _ => Err(Error::UnsupportedSource {
                source_str: source.to_owned(),
                valid: valid_sources(),
            }),
        }
    }

    /// Synthesises or decodes the sound; files are resolved inside `asset_root`.
    ///
    /// # Errors
    /// [`Error::OutsideAssetRoot`] for an absolute path or one with `..`; the file errors of
    /// [`Clip::from_file`].
    pub fn load(&self, asset_root: &Path) -> Result<Clip, Error> {
        match self {
            SoundSource::Builtin(builtin) => Ok(builtin.synthesise()),
            SoundSource::File(path) => Clip::from_file(&resolve_in_root(asset_root, path)?),
        }
    }
}

impl TryFrom<String> for SoundSource {
    type Error = Error;

    fn try_from(source: String) -> Result<Self, Error> {
        Self::parse(&source)
    }
}

impl From<SoundSource> for String {
    fn from(source: SoundSource) -> String {
        source.to_string()
    }
}

impl fmt::Display for SoundSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SoundSource::Builtin(b) => write!(f, "builtin:{}", b.name()),
            SoundSource::File(p) => write!(f, "{}", p.display()),
        }
    }
}

/// `root/path`, refusing paths that could leave `root`.
fn resolve_in_root(root: &Path, path: &Path) -> Result<PathBuf, Error> {
    let escapes = path
        .components()
        .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir));
    if escapes {
        return Err(Error::OutsideAssetRoot {
            path: path.to_path_buf(),
            root: root.to_path_buf(),
        });
    }
    Ok(root.join(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_builtins_and_files() {
        assert_eq!(
            SoundSource::parse("builtin:surf").unwrap(),
            SoundSource::Builtin(Builtin::Surf)
        );
        assert_eq!(
            SoundSource::parse("builtin:gulls").unwrap(),
            SoundSource::Builtin(Builtin::Gulls)
        );
        assert_eq!(
            SoundSource::parse("sounds/Wind.OGG").unwrap(),
            SoundSource::File("sounds/Wind.OGG".into())
        );
        assert_eq!(
            SoundSource::parse("builtin:gulls").unwrap().to_string(),
            "builtin:gulls"
        );
    }

    #[test]
    fn bad_sources_list_the_valid_ones() {
        let e = SoundSource::parse("builtin:whales")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("whales") && e.contains("builtin:surf") && e.contains("builtin:gulls"),
            "{e}"
        );
        let e = SoundSource::parse("music.mp3").unwrap_err().to_string();
        assert!(e.contains("music.mp3") && e.contains(".ogg"), "{e}");
    }

    #[test]
    fn paths_cannot_leave_the_asset_root() {
        let root = Path::new("/levels/island");
        for bad in ["../secret.wav", "/etc/x.wav", "a/../../b.wav"] {
            let source = SoundSource::parse(bad).unwrap();
            assert!(
                matches!(source.load(root), Err(Error::OutsideAssetRoot { .. })),
                "{bad}"
            );
        }
    }
}
