//! glTF animations → raw per-node channels (glTF 2.0 §3.11).

use std::path::Path;

use glam::{Quat, Vec3};
use gltf::accessor::{DataType, Dimensions};
use gltf::animation::{Interpolation as GltfInterpolation, Property};
use sierra_anim::{Interpolation, RawMorphTrack, RawTrack};

use crate::accessor::{read_f32s, read_floats, Expect, Norm};
use crate::buffers::Buffers;
use crate::{Error, Result};

/// Component types of rotation and morph-weight outputs: `f32`, or 8/16-bit integers
/// that must be normalized (glTF 2.0 §3.11, animation sampler output accessors).
const FLOAT_OR_NORMALIZED: &[DataType] = &[
    DataType::F32,
    DataType::I8,
    DataType::U8,
    DataType::I16,
    DataType::U16,
];

/// Keyframes of one channel.
#[derive(Clone, Debug, PartialEq)]
pub enum ChannelData {
    /// `translation` path (metres).
    Translation(RawTrack<Vec3>),
    /// `rotation` path (unit quaternions; cubic tangents as stored).
    Rotation(RawTrack<Quat>),
    /// `scale` path.
    Scale(RawTrack<Vec3>),
    /// `weights` path: morph target weights of the node's mesh (`target` = node index).
    Weights(RawMorphTrack),
}

/// One channel: which node it animates and its keys.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedChannel {
    /// Target node index.
    pub node: usize,
    /// Keys.
    pub data: ChannelData,
}

/// A glTF animation: node channels, not yet bound to a skeleton
/// (bind with [`crate::GltfAsset::build_clip`] / [`crate::GltfAsset::skin_clip`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedClip {
    /// Animation name; `""` when absent.
    pub name: String,
    /// Latest key time over all channels (seconds).
    pub duration: f32,
    /// Channels in file order.
    pub channels: Vec<ImportedChannel>,
}

pub(crate) fn read_animation(
    file: &Path,
    buffers: &Buffers,
    anim: &gltf::Animation,
    morph_counts: &[usize],
) -> Result<ImportedClip> {
    let name = anim.name().unwrap_or("").to_owned();
    let mut clip = ImportedClip {
        name: name.clone(),
        duration: 0.0,
        channels: Vec::new(),
    };
    for (ci, channel) in anim.channels().enumerate() {
        let sampler = channel.sampler();
        let input = sampler.input();
        let output = sampler.output();
        let node = channel.target().node().index();
        let key_err = |accessor: usize, reason: String| Error::Keyframes {
            file: file.to_owned(),
            animation: anim.index(),
            name: name.clone(),
            channel: ci,
            accessor,
            reason,
        };
        let usage = format!("animation {} channel {ci} input", anim.index());
        let times = read_f32s(file, buffers, &input, &usage, Dimensions::Scalar)?;
        if let Some(i) = times.iter().position(|t| !t.is_finite()) {
            return Err(key_err(
                input.index(),
                format!("key time {i} is {}", times[i]),
            ));
        }
        if let Some(i) = times.windows(2).position(|w| w[1] <= w[0]) {
            return Err(key_err(
                input.index(),
                format!(
                    "key times not strictly increasing: time[{}] = {} <= time[{i}] = {}",
                    i + 1,
                    times[i + 1],
                    times[i]
                ),
            ));
        }
        if times.is_empty() {
            return Err(key_err(input.index(), "no keys".into()));
        }
        let interpolation = match sampler.interpolation() {
            GltfInterpolation::Step => Interpolation::Step,
            GltfInterpolation::Linear => Interpolation::Linear,
            GltfInterpolation::CubicSpline => Interpolation::CubicSpline,
        };
        let per_key = if interpolation == Interpolation::CubicSpline {
            3
        } else {
            1
        };
        let usage = format!("animation {} channel {ci} output", anim.index());
        let property = channel.target().property();
        let (dims, types, normalized): (_, &[DataType], _) = match property {
            Property::Translation | Property::Scale => {
                (Dimensions::Vec3, &[DataType::F32], Norm::Forbidden)
            }
            Property::Rotation => (Dimensions::Vec4, FLOAT_OR_NORMALIZED, Norm::Required),
            Property::MorphTargetWeights => {
                (Dimensions::Scalar, FLOAT_OR_NORMALIZED, Norm::Required)
            }
        };
        let values = read_floats(
            file,
            buffers,
            &output,
            &Expect {
                usage: &usage,
                dims: &[dims],
                types,
                normalized,
            },
        )?;
        if let Some(i) = values.iter().position(|v| !v.is_finite()) {
            return Err(key_err(
                output.index(),
                format!("output component {i} is {}", values[i]),
            ));
        }
        let comps = dims.multiplicity();
        let elements = values.len() / comps;
        let data = match property {
            Property::MorphTargetWeights => {
                let per = times.len() * per_key;
                if per == 0 || elements % per != 0 {
                    return Err(key_err(
                        output.index(),
                        format!(
                            "{elements} weights is not a multiple of {} keys × {per_key}",
                            times.len()
                        ),
                    ));
                }
                let weight_count = elements / per;
                if let Some(&expected) = morph_counts.get(node) {
                    if expected != 0 && expected != weight_count {
                        return Err(key_err(output.index(), format!("{weight_count} weights per key, but node {node}'s mesh has {expected} morph targets")));
                    }
                }
                // glTF stores cubic weights as [in×W, value×W, out×W] per key, which is RawMorphTrack's layout.
                ChannelData::Weights(RawMorphTrack {
                    target: node,
                    weight_count,
                    interpolation,
                    times: times.clone(),
                    values,
                })
            }
            _ => {
                if elements != times.len() * per_key {
                    return Err(key_err(
                        output.index(),
                        format!(
                            "{elements} output values for {} keys ({per_key} per key expected)",
                            times.len()
                        ),
                    ));
                }
                match property {
                    Property::Translation => ChannelData::Translation(RawTrack {
                        interpolation,
                        times: times.clone(),
                        values: values.chunks_exact(3).map(Vec3::from_slice).collect(),
                    }),
                    Property::Scale => ChannelData::Scale(RawTrack {
                        interpolation,
                        times: times.clone(),
                        values: values.chunks_exact(3).map(Vec3::from_slice).collect(),
                    }),
                    _ => {
                        let mut quats: Vec<Quat> =
                            values.chunks_exact(4).map(Quat::from_slice).collect();
                        if interpolation != Interpolation::CubicSpline {
                            // Normalised in f64: `[3e38, 0, 0, 3e38]` is 90° about X, but its
                            // length overflows f32.
                            for (i, q) in quats.iter_mut().enumerate() {
                                let d = glam::DQuat::from_array(q.to_array().map(f64::from));
                                if d.length_squared() < 1e-24 {
                                    return Err(key_err(
                                        output.index(),
                                        format!("rotation key {i} is a zero quaternion"),
                                    ));
                                }
                                *q = d.normalize().as_quat();
                            }
                        }
                        ChannelData::Rotation(RawTrack {
                            interpolation,
                            times: times.clone(),
                            values: quats,
                        })
                    }
                }
            }
        };
        if let Some(&last) = times.last() {
            clip.duration = clip.duration.max(last);
        }
        clip.channels.push(ImportedChannel { node, data });
    }
    Ok(clip)
}
