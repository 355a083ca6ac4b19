//! sierra_audio
