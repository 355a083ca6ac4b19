//! `AudioLoop`: a looping ambient sound that starts with the level (seed 002's sea and gulls).
//! The type lives in `sierra_audio`, which synthesises, decodes and plays it; see
//! [`sierra_audio::AudioLoop`] for the fields.

pub use sierra_audio::AudioLoop;
