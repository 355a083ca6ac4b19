//! Ambient audio for Sierra: looping sounds that start with the level (seed 002's sea and gulls).
//!
//! - [`AudioLoop`] is the level component: a [`SoundSource`] (`"builtin:surf"`, `"builtin:gulls"`
//!   or a `.wav`/`.ogg` file), a volume, and whether it is spatial (emitted from its node's world
//!   position, which the game passes in every tick) or ambient.
//! - The built-in sounds are synthesised in code ([`synth`]): surf is filtered noise under slow
//!   swell envelopes, gulls are chirped harmonic calls. Both are exactly periodic, so they loop
//!   without a click.
//! - [`AudioEngine`] plays the loops on the default sound device with kira; with no device (or
//!   when muted) it runs silently and says so once. Spatial loops follow the [`Listener`]
//!   ([`gain_and_pan`]: inverse-distance gain, pan from the listener's right axis).
//! - [`OfflineMixer`] renders the same mix to a buffer without a device, and [`write_wav`] saves
//!   it, for tests and inspection.
//!
//! Conventions: amplitudes are linear in [-1, 1], gains linear, pan in [-1 (left), 1 (right)],
//! positions in metres, right-handed and Y up as glTF.
//!
//! ```
//! use sierra_audio::{AudioLoop, Listener, OfflineMixer, SoundSource};
//! # fn main() -> Result<(), sierra_audio::Error> {
//! let loops = [(AudioLoop::ambient(SoundSource::parse("builtin:gulls")?), glam::Vec3::ZERO)];
//! let mut mixer = OfflineMixer::from_loops(&loops, std::path::Path::new("."), &Listener::default(), 44_100)?;
//! let one_second = mixer.render_seconds(1.0);
//! assert_eq!(one_second.len(), 44_100);
//! # Ok(())
//! # }
//! ```
#![warn(missing_docs)]

mod clip;
mod component;
mod device;
mod engine;
mod error;
mod mixer;
mod source;
mod spatial;
pub mod synth;
mod wav;

pub use clip::Clip;
pub use component::AudioLoop;
pub use engine::{AudioEngine, AudioOptions, AudioStatus};
pub use error::Error;
pub use kira::Frame;
pub use mixer::{rms, OfflineMixer};
pub use source::{Builtin, SoundSource, BUILTIN_SAMPLE_RATE};
pub use spatial::{gain_and_pan, Listener};
pub use wav::write_wav;
