//! Reading accessors (glTF 2.0 §3.6) with explicit checks: component type,
//! element type, bounds, byte stride, sparse substitution, normalisation.
//! Every failure is an [`Error::Accessor`] naming the accessor and its use.

use std::path::Path;

use gltf::accessor::{DataType, Dimensions};

use crate::buffers::Buffers;
use crate::{Error, Result};

/// What a caller accepts for one accessor.
pub(crate) struct Expect<'u> {
    pub usage: &'u str,
    pub dims: &'u [Dimensions],
    /// Accepted component types.
    pub types: &'u [DataType],
    /// Whether 8- and 16-bit integer components must, must not, or may be normalized.
    pub normalized: Norm,
}

/// The `normalized` flag an accessor's 8- and 16-bit integer components may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Norm {
    /// `normalized: true` (WEIGHTS, rotations, quantised normals).
    Required,
    /// `normalized: false` (JOINTS, indices).
    Forbidden,
    /// Either (`KHR_mesh_quantization` positions and UVs: unnormalised integers are scaled
    /// back by the node or texture transform).
    Either,
}

/// Most components (`count × components`) the importer decodes from an accessor that has no
/// buffer view (sparse substitutions over zeros; 2^26, 256 MiB of `f32`), whose count the file
/// does not otherwise bound. Accessors with a view are bounded by the view's bytes.
pub(crate) const MAX_VIEWLESS_COMPONENTS: usize = 1 << 26;

fn comp_size(t: DataType) -> usize {
    match t {
        DataType::I8 | DataType::U8 => 1,
        DataType::I16 | DataType::U16 => 2,
        DataType::U32 | DataType::F32 => 4,
    }
}

fn read_comp(bytes: &[u8], t: DataType, normalized: bool) -> f32 {
    // glTF 2.0 §3.11 "animation samplers" / §3.7.2.1: normalized integer decoding.
    match t {
        DataType::I8 => {
            let v = bytes[0] as i8 as f32;
            if normalized {
                (v / 127.0).max(-1.0)
            } else {
                v
            }
        }
        DataType::U8 => {
            let v = bytes[0] as f32;
            if normalized {
                v / 255.0
            } else {
                v
            }
        }
        DataType::I16 => {
            let v = i16::from_le_bytes([bytes[0], bytes[1]]) as f32;
            if normalized {
                (v / 32767.0).max(-1.0)
            } else {
                v
            }
        }
        DataType::U16 => {
            let v = u16::from_le_bytes([bytes[0], bytes[1]]) as f32;
            if normalized {
                v / 65535.0
            } else {
                v
            }
        }
        DataType::U32 => u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as f32,
        DataType::F32 => f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
    }
}

/// A sparse index, exactly (through `f32` a `u32` above 2^24 would round).
fn read_index(bytes: &[u8], t: DataType) -> usize {
    match t {
        DataType::U8 => usize::from(bytes[0]),
        DataType::U16 => usize::from(u16::from_le_bytes([bytes[0], bytes[1]])),
        _ => u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as usize,
    }
}

fn type_name(t: DataType) -> &'static str {
    match t {
        DataType::I8 => "BYTE (5120)",
        DataType::U8 => "UNSIGNED_BYTE (5121)",
        DataType::I16 => "SHORT (5122)",
        DataType::U16 => "UNSIGNED_SHORT (5123)",
        DataType::U32 => "UNSIGNED_INT (5125)",
        DataType::F32 => "FLOAT (5126)",
    }
}

/// An accessor of plain `f32` components of dimension `dims` (key times, matrices):
/// [`read_floats`] with no integer types allowed.
///
/// # Errors
/// As [`read_floats`].
pub(crate) fn read_f32s(
    file: &Path,
    buffers: &Buffers,
    accessor: &gltf::Accessor,
    usage: &str,
    dims: Dimensions,
) -> Result<Vec<f32>> {
    let expect = Expect {
        usage,
        dims: &[dims],
        types: &[DataType::F32],
        normalized: Norm::Forbidden,
    };
    read_floats(file, buffers, accessor, &expect)
}

/// Reads `accessor` as `count × components` floats (flattened), validating it against `expect`.
pub(crate) fn read_floats(
    file: &Path,
    buffers: &Buffers,
    accessor: &gltf::Accessor,
    expect: &Expect,
) -> Result<Vec<f32>> {
    let err = |reason: String| Error::Accessor {
        file: file.to_owned(),
        accessor: accessor.index(),
        usage: expect.usage.to_owned(),
        reason,
    };
    let t = accessor.data_type();
    let dims = accessor.dimensions();
    if !expect.dims.contains(&dims) {
        return Err(err(format!(
            "element type {dims:?}, expected one of {:?}",
            expect.dims
        )));
    }
    if !expect.types.contains(&t) {
        let allowed: Vec<_> = expect.types.iter().map(|&t| type_name(t)).collect();
        return Err(err(format!(
            "component type {}, expected one of {allowed:?}",
            type_name(t)
        )));
    }
    let int = t != DataType::F32;
    let normalized = accessor.normalized();
    let allowed = match expect.normalized {
        Norm::Required => normalized,
        Norm::Forbidden => !normalized,
        Norm::Either => true,
    };
    if int && t != DataType::U32 && !allowed {
        return Err(err(format!(
            "component type {} must {}be normalized here",
            type_name(t),
            if normalized { "not " } else { "" }
        )));
    }
    let comps = dims.multiplicity();
    let csize = comp_size(t);
    let elem = comps * csize;
    let count = accessor.count();
    // Every size below comes from the file: checked arithmetic, and the bounds are checked
    // before anything is allocated, so a crafted count can neither wrap nor exhaust memory.
    let overflow = || {
        err(format!(
            "{count} elements of {elem} bytes overflow the address space"
        ))
    };
    let floats = count.checked_mul(comps).ok_or_else(overflow)?;
    let view = match accessor.view() {
        Some(view) => {
            let data = buffer_slice(buffers, &view)
                .ok_or_else(|| err("buffer view lies outside its buffer".into()))?;
            let stride = view.stride().unwrap_or(elem);
            if stride < elem {
                return Err(err(format!(
                    "byte stride {stride} is smaller than the element size {elem}"
                )));
            }
            let start = accessor.offset();
            let end = match count.checked_sub(1) {
                None => Some(0),
                Some(last) => last
                    .checked_mul(stride)
                    .and_then(|b| b.checked_add(start))
                    .and_then(|b| b.checked_add(elem)),
            };
            if end.is_none_or(|end| end > data.len()) {
                return Err(err(format!(
                    "{count} elements at offset {start} with stride {stride} overrun the buffer view ({} bytes)",
                    data.len()
                )));
            }
            Some((data, start, stride))
        }
        None => {
            // A sparse accessor without a view is zeros plus its substitutions: nothing in the
            // file bounds its count, so the importer does.
            if floats > MAX_VIEWLESS_COMPONENTS {
                return Err(err(format!(
                    "{count} elements without a buffer view: more than the importer's limit of \
                     {MAX_VIEWLESS_COMPONENTS} components"
                )));
            }
            None
        }
    };
    // Decoded bytes are counted at every use (32 primitives sharing one sparse accessor decode
    // it 32 times) before the memory is allocated.
    buffers.charge(file, (floats as u64).saturating_mul(4), || {
        format!("accessor {} ({})", accessor.index(), expect.usage)
    })?;
    let mut out = vec![0.0f32; floats];
    if let Some((data, start, stride)) = view {
        for i in 0..count {
            let base = start + i * stride;
            for c in 0..comps {
                out[i * comps + c] = read_comp(&data[base + c * csize..], t, normalized);
            }
        }
    }
    if let Some(sparse) = accessor.sparse() {
        let n = sparse.count();
        let iv = sparse.indices();
        let idata = buffer_slice(buffers, &iv.view())
            .ok_or_else(|| err("sparse indices view outside its buffer".into()))?;
        let (itype, isize) = match iv.index_type() {
            gltf::accessor::sparse::IndexType::U8 => (DataType::U8, 1),
            gltf::accessor::sparse::IndexType::U16 => (DataType::U16, 2),
            gltf::accessor::sparse::IndexType::U32 => (DataType::U32, 4),
        };
        let vv = sparse.values();
        let vdata = buffer_slice(buffers, &vv.view())
            .ok_or_else(|| err("sparse values view outside its buffer".into()))?;
        let fits = |offset: usize, size: usize, len: usize| {
            n.checked_mul(size)
                .and_then(|b| b.checked_add(offset))
                .is_some_and(|end| end <= len)
        };
        if !fits(iv.offset(), isize, idata.len()) || !fits(vv.offset(), elem, vdata.len()) {
            return Err(err(format!(
                "sparse block of {n} elements overruns its buffer views"
            )));
        }
        for k in 0..n {
            let index = read_index(&idata[iv.offset() + k * isize..], itype);
            if index >= count {
                return Err(err(format!(
                    "sparse index {index} (entry {k}) >= accessor count {count}"
                )));
            }
            for c in 0..comps {
                out[index * comps + c] =
                    read_comp(&vdata[vv.offset() + k * elem + c * csize..], t, normalized);
            }
        }
    }
    Ok(out)
}

fn buffer_slice<'b>(buffers: &'b Buffers, view: &gltf::buffer::View) -> Option<&'b [u8]> {
    buffers.view(view)
}
