//! `EXT_meshopt_compression`: buffer views stored compressed by meshoptimizer's vertex and
//! index codecs, decoded here with the `meshopt` crate's bundled meshoptimizer (1.3).
//!
//! Spec: <https://github.com/KhronosGroup/glTF/tree/main/extensions/2.0/Vendor/EXT_meshopt_compression>.
//! A compressed view's extension names the compressed bytes (`buffer`, `byteOffset`,
//! `byteLength`), the decoded layout (`count` elements of `byteStride` bytes) and the codec
//! (`mode`: `ATTRIBUTES`, `TRIANGLES` or `INDICES`; `filter`: `NONE`, `OCTAHEDRAL`,
//! `QUATERNION` or `EXPONENTIAL`, attributes only). The decoded bytes replace the view's own
//! bytes, which may live in a "fallback" buffer with no data at all. Every stride, count and
//! filter constraint of the spec is checked before meshoptimizer runs (its filters `assert` on
//! a bad stride), and decoded bytes are charged to the decoded-bytes budget before allocation.

use std::path::Path;

use serde_json::Value;

use crate::buffers::Buffers;
use crate::{Error, Result};

/// The decoding a compressed view asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Attributes,
    Triangles,
    Indices,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Filter {
    None,
    Octahedral,
    Quaternion,
    Exponential,
}

impl Mode {
    /// The spec's spelling.
    fn name(self) -> &'static str {
        match self {
            Mode::Attributes => "ATTRIBUTES",
            Mode::Triangles => "TRIANGLES",
            Mode::Indices => "INDICES",
        }
    }
}

impl Filter {
    /// The spec's spelling.
    fn name(self) -> &'static str {
        match self {
            Filter::None => "NONE",
            Filter::Octahedral => "OCTAHEDRAL",
            Filter::Quaternion => "QUATERNION",
            Filter::Exponential => "EXPONENTIAL",
        }
    }
}

/// One view's `EXT_meshopt_compression` object, checked.
#[derive(Debug)]
struct Compressed {
    buffer: usize,
    offset: usize,
    length: usize,
    stride: usize,
    count: usize,
    mode: Mode,
    filter: Filter,
}

fn parse(ext: &Value, view_length: usize) -> std::result::Result<Compressed, String> {
    let uint = |key: &str, default: Option<usize>| -> std::result::Result<usize, String> {
        match ext.get(key) {
            Some(v) => v
                .as_u64()
                .and_then(|v| usize::try_from(v).ok())
                .ok_or_else(|| format!("`{key}` is {v}, not a non-negative integer")),
            None => default.ok_or_else(|| format!("`{key}` is missing")),
        }
    };
    let mode = match ext.get("mode").and_then(Value::as_str) {
        Some("ATTRIBUTES") => Mode::Attributes,
        Some("TRIANGLES") => Mode::Triangles,
        Some("INDICES") => Mode::Indices,
        other => return Err(format!("unknown mode {other:?}")),
    };
    let filter = match ext.get("filter").and_then(Value::as_str) {
        None | Some("NONE") => Filter::None,
        Some("OCTAHEDRAL") => Filter::Octahedral,
        Some("QUATERNION") => Filter::Quaternion,
        Some("EXPONENTIAL") => Filter::Exponential,
        Some(other) => return Err(format!("unknown filter `{other}`")),
    };
    let c = Compressed {
        buffer: uint("buffer", None)?,
        offset: uint("byteOffset", Some(0))?,
        length: uint("byteLength", None)?,
        stride: uint("byteStride", None)?,
        count: uint("count", None)?,
        mode,
        filter,
    };
    check_layout(&c, view_length)?;
    Ok(c)
}

/// The spec's constraints on stride, count and filter ("JSON schema updates" and "Filters").
fn check_layout(c: &Compressed, view_length: usize) -> std::result::Result<(), String> {
    let stride_ok = match c.mode {
        Mode::Attributes => c.stride.is_multiple_of(4) && (4..=256).contains(&c.stride),
        Mode::Triangles | Mode::Indices => c.stride == 2 || c.stride == 4,
    };
    if !stride_ok {
        return Err(format!(
            "byteStride {} is not allowed in mode {}",
            c.stride,
            c.mode.name()
        ));
    }
    if c.mode == Mode::Triangles && !c.count.is_multiple_of(3) {
        return Err(format!(
            "TRIANGLES count {} is not a multiple of 3",
            c.count
        ));
    }
    let filter_ok = match c.filter {
        Filter::None => true,
        _ if c.mode != Mode::Attributes => false,
        Filter::Octahedral => c.stride == 4 || c.stride == 8,
        Filter::Quaternion => c.stride == 8,
        Filter::Exponential => c.stride.is_multiple_of(4),
    };
    if !filter_ok {
        return Err(format!(
            "filter {} does not apply to mode {} with byteStride {}",
            c.filter.name(),
            c.mode.name(),
            c.stride
        ));
    }
    let decoded = c.count.checked_mul(c.stride);
    if decoded.is_none_or(|d| d > view_length) {
        return Err(format!(
            "{} elements of {} bytes do not fit the view's byteLength {view_length}",
            c.count, c.stride
        ));
    }
    Ok(())
}

/// Decodes every compressed view of `doc` into `buffers` (`raw`: the file's JSON).
pub(crate) fn decode_views(
    file: &Path,
    doc: &gltf::Document,
    raw: &crate::extensions::RawJson,
    buffers: &mut Buffers,
) -> Result<()> {
    use crate::extensions::PathPart::{Index, Key};
    for view in doc.views() {
        let index = view.index();
        let Some(ext) = raw.extension(
            &[Key("bufferViews"), Index(index)],
            "EXT_meshopt_compression",
        ) else {
            continue;
        };
        let fail = |reason: String| Error::Meshopt {
            file: file.to_owned(),
            view: index,
            reason,
        };
        let c = parse(ext, view.length()).map_err(fail)?;
        buffers.charge(file, (view.length() as u64).max(4), || {
            format!("buffer view {index} (EXT_meshopt_compression)")
        })?;
        let source = buffers
            .get(c.buffer)
            .and_then(|b| b.get(c.offset..c.offset.checked_add(c.length)?))
            .ok_or_else(|| {
                fail(format!(
                    "compressed bytes {}..+{} lie outside buffer {}",
                    c.offset, c.length, c.buffer
                ))
            })?;
        let decoded = decode(&c, source, view.length()).map_err(fail)?;
        buffers.set_view(index, decoded);
    }
    Ok(())
}

/// The web build (wasm32) has no meshoptimizer (C, and no C compiler for wasm32 in the build):
/// a compressed view is refused, naming the way round.
#[cfg(target_arch = "wasm32")]
fn decode(
    _c: &Compressed,
    _source: &[u8],
    _view_length: usize,
) -> std::result::Result<Vec<u32>, String> {
    Err("the web build does not decode EXT_meshopt_compression (meshoptimizer is C and is not built for wasm32); serve the model uncompressed (gltfpack without -c)".into())
}

/// Decodes `source` into `view_length` bytes (zero padded past `count × stride`), kept in
/// `u32` words so the filters' 16- and 32-bit accesses are aligned.
#[cfg(not(target_arch = "wasm32"))]
fn decode(
    c: &Compressed,
    source: &[u8],
    view_length: usize,
) -> std::result::Result<Vec<u32>, String> {
    let mut words = vec![0u32; view_length.div_ceil(4).max(1)];
    let dst = words.as_mut_ptr().cast::<std::ffi::c_void>();
    // SAFETY: `words` holds at least `view_length >= count × stride` bytes (checked by
    // `check_layout`), which is all meshoptimizer writes; `source` is a live slice of its
    // stated length. meshoptimizer's decoders are documented safe on untrusted input (they
    // bound every read by `buffer_size`), and the filters get the strides they assert on.
    let code = unsafe {
        use meshopt::ffi;
        match c.mode {
            Mode::Attributes => ffi::meshopt_decodeVertexBuffer(
                dst,
                c.count,
                c.stride,
                source.as_ptr(),
                source.len(),
            ),
            Mode::Triangles => ffi::meshopt_decodeIndexBuffer(
                dst,
                c.count,
                c.stride,
                source.as_ptr(),
                source.len(),
            ),
            Mode::Indices => ffi::meshopt_decodeIndexSequence(
                dst,
                c.count,
                c.stride,
                source.as_ptr(),
                source.len(),
            ),
        }
    };
    if code != 0 {
        return Err(format!(
            "meshoptimizer could not decode the {} data (error {code}): corrupt or truncated",
            c.mode.name()
        ));
    }
    // SAFETY: as above; the filter/stride pairs were checked by `check_layout`.
    unsafe {
        use meshopt::ffi;
        match c.filter {
            Filter::None => {}
            Filter::Octahedral => ffi::meshopt_decodeFilterOct(dst, c.count, c.stride),
            Filter::Quaternion => ffi::meshopt_decodeFilterQuat(dst, c.count, c.stride),
            Filter::Exponential => ffi::meshopt_decodeFilterExp(dst, c.count, c.stride),
        }
    }
    Ok(words)
}

/// Whether buffer `index` is a `fallback` buffer (its data may be absent: every view into it
/// is compressed).
pub(crate) fn is_fallback(raw: &crate::extensions::RawJson, index: usize) -> bool {
    use crate::extensions::PathPart::{Index, Key};
    raw.extension(&[Key("buffers"), Index(index)], "EXT_meshopt_compression")
        .and_then(|e| e.get("fallback"))
        .and_then(Value::as_bool)
        .unwrap_or(false)
}
