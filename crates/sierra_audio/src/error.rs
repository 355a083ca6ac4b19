use std::path::PathBuf;

/// Errors of the audio crate. Each names the file or the source string at fault.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The audio file was refused or could not be read inside its asset root (a symlink out
    /// of it, a device or FIFO, more bytes than the file budget).
    #[error(transparent)]
    Asset(#[from] sierra_assets::AssetError),
    /// The audio file could not be opened or read.
    #[error("cannot read audio file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O failure.
        source: std::io::Error,
    },
    /// The audio file was read but is not a decodable WAV/OGG (garbage, unsupported codec or
    /// channel layout).
    #[error("cannot decode audio file {path}: {message} (supported: WAV PCM, OGG Vorbis; mono or stereo)")]
    Decode {
        /// The file.
        path: PathBuf,
        /// What the decoder reported.
        message: String,
    },
    /// The file decoded to zero frames, so there is nothing to loop.
    #[error("audio file {path} holds no samples")]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// A `builtin:` source that does not exist.
    #[error("unknown built-in sound {name:?}; valid: {valid}")]
    UnknownBuiltin {
        /// The name after `builtin:`.
        name: String,
        /// The valid sources, comma separated.
        valid: String,
    },
    /// A file source whose extension is not a supported container.
    #[error("audio source {source_str:?} is not a supported file; valid: {valid}")]
    UnsupportedSource {
        /// The source string as written.
        source_str: String,
        /// What a source may be.
        valid: String,
    },
    /// A relative file source leads outside the asset root (absolute path or `..`).
    #[error("audio file {path} is outside the asset root {root}")]
    OutsideAssetRoot {
        /// The source path as written.
        path: PathBuf,
        /// The asset root it must stay in.
        root: PathBuf,
    },
    /// The mixer refused to play a sound (e.g. its sound capacity is reached).
    #[error("cannot play {source_str}: {message}")]
    Play {
        /// The sound's source.
        source_str: String,
        /// What kira reported.
        message: String,
    },
    /// Writing or reading a WAV file with `hound` failed.
    #[error("WAV file {path}: {source}")]
    Wav {
        /// The file.
        path: PathBuf,
        /// The `hound` failure.
        source: hound::Error,
    },
}
