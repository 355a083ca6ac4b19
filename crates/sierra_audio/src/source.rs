use std::fmt;
use std::path::{Component, Path, PathBuf};

use sierra_assets::{open_within, AssetError, AssetRoot, Budgets};

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

    /// Synthesises or decodes the sound. Files are opened inside `asset_root` through
    /// [`sierra_assets`] (the open itself refuses symlinks out of the root, devices and FIFOs)
    /// and read within the default file budget ([`sierra_assets::Budgets::DEFAULT`]).
    ///
    /// # Errors
    /// [`Error::OutsideAssetRoot`] for an absolute path or one with `..`; [`Error::Asset`] for a
    /// refused or unreadable file; the decode errors of [`Clip::from_bytes`].
    pub fn load(&self, asset_root: &Path) -> Result<Clip, Error> {
        match self {
            SoundSource::Builtin(builtin) => Ok(builtin.synthesise()),
            SoundSource::File(path) => {
                let shown = resolve_in_root(asset_root, path)?;
                let read = AssetRoot::open(asset_root, "level folder")
                    .and_then(|root| open_within(&root, path, Budgets::DEFAULT.file_bytes));
                let bytes = read.map_err(|e| match e {
                    // A missing file or root stays the plain I/O error naming the sound file.
                    AssetError::NotFound { .. } | AssetError::Io { .. } => Error::Io {
                        path: shown.clone(),
                        source: std::io::Error::new(std::io::ErrorKind::NotFound, e.to_string()),
                    },
                    refused => Error::Asset(refused),
                })?;
                Clip::from_bytes(bytes, &shown)
            }
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

    fn write_wav(path: &Path) {
        let spec = hound::WavSpec {
            channels: 1,
            sample_rate: 8000,
            bits_per_sample: 16,
            sample_format: hound::SampleFormat::Int,
        };
        let mut w = hound::WavWriter::create(path, spec).unwrap();
        for i in 0..800 {
            w.write_sample(((i % 40) * 500) as i16).unwrap();
        }
        w.finalize().unwrap();
    }

    /// The file is opened inside the root when it is read, not only checked when the level
    /// loads: a symlink swapped in afterwards, pointing at a valid sound outside, is refused.
    #[test]
    fn a_symlink_out_of_the_root_is_refused_when_the_sound_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("level");
        std::fs::create_dir_all(&root).unwrap();
        write_wav(&dir.path().join("outside.wav"));
        write_wav(&root.join("inside.wav"));
        // Control: the same sound inside the root loads.
        let inside = SoundSource::parse("inside.wav").unwrap();
        assert!(inside.load(&root).unwrap().duration_seconds() > 0.09);
        std::os::unix::fs::symlink(dir.path().join("outside.wav"), root.join("link.wav")).unwrap();
        let err = SoundSource::parse("link.wav")
            .unwrap()
            .load(&root)
            .unwrap_err();
        assert!(matches!(err, Error::Asset(_)), "{err}");
        // A FIFO is refused without blocking.
        let made = std::process::Command::new("mkfifo")
            .arg(root.join("pipe.wav"))
            .status()
            .is_ok_and(|s| s.success());
        if made {
            let err = SoundSource::parse("pipe.wav")
                .unwrap()
                .load(&root)
                .unwrap_err();
            assert!(err.to_string().contains("FIFO"), "{err}");
        }
    }
}
