//! Where a glTF's bytes come from: the GLB container, buffers and images, all read through a
//! [`Resolver`] (inside the asset root, within the budgets), and the decoded-bytes budget the
//! accessor reader charges.

use std::path::Path;

use sierra_assets::{AssetError, Budget, Resolver};

use crate::buffers::Buffers;
use crate::{Error, ImportedImage, Result};

/// Checks a binary glTF's header and chunk lengths against the file size (glTF 2.0 §4.4
/// "GLB File Format Specification"), so a truncated file says so plainly. Text `.gltf`
/// files pass through.
pub(crate) fn check_glb_container(file: &Path, bytes: &[u8]) -> Result<()> {
    if !bytes.starts_with(b"glTF") {
        return Ok(());
    }
    let fail = |reason: String| {
        Err(Error::Container {
            file: file.to_owned(),
            reason,
        })
    };
    let word = |at: usize| {
        bytes
            .get(at..at.checked_add(4)?)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]) as usize)
    };
    let (Some(version), Some(declared)) = (word(4), word(8)) else {
        return fail(format!(
            "truncated GLB: the file ends at byte {}, inside the 12-byte header",
            bytes.len()
        ));
    };
    if version != 2 {
        return fail(format!("GLB container version {version}, expected 2"));
    }
    // The `gltf` crate (1.4.1, `Glb::from_slice`) subtracts 12 from this length unchecked
    // (found by the `gltf_import` fuzz target, docs/fuzzing.md).
    if declared < 12 {
        return fail(format!(
            "the GLB header declares {declared} bytes, less than the 12-byte header itself"
        ));
    }
    if declared > bytes.len() {
        return fail(format!(
            "truncated GLB: the header declares {declared} bytes but the file ends at byte {}",
            bytes.len()
        ));
    }
    let mut at = 12;
    while at < declared {
        let Some(chunk_len) = word(at) else {
            return fail(format!(
                "truncated GLB: the chunk header at byte {at} is cut off at byte {declared}"
            ));
        };
        let end = at.saturating_add(8).saturating_add(chunk_len);
        if end > declared {
            return fail(format!(
                "truncated GLB: the chunk at byte {at} declares {chunk_len} bytes, ending at byte {end}, past the end of the file at byte {declared}"
            ));
        }
        at = end;
    }
    Ok(())
}

/// Reads every buffer: the GLB binary chunk or a URI through `resolver`; an
/// `EXT_meshopt_compression` fallback buffer without a URI has no bytes (its views are decoded).
/// Then decodes the compressed views ([`crate::meshopt`]).
pub(crate) fn load_buffers(
    file: &Path,
    doc: &gltf::Document,
    raw: &crate::extensions::RawJson,
    mut blob: Option<Vec<u8>>,
    resolver: &Resolver,
) -> Result<Buffers> {
    let mut data = Vec::new();
    for buffer in doc.buffers() {
        let i = buffer.index();
        let fail = |reason: String| Error::Buffer {
            file: file.to_owned(),
            buffer: i,
            reason,
        };
        let fallback = crate::meshopt::is_fallback(raw, i);
        // glTF 2.0 §4.4.3.3: only buffer 0 may be the GLB binary chunk.
        let no_data = i > 0 || blob.is_none();
        if fallback && no_data && matches!(buffer.source(), gltf::buffer::Source::Bin) {
            data.push(Vec::new());
            continue;
        }
        let mut bytes = match buffer.source() {
            gltf::buffer::Source::Bin => blob.take().ok_or_else(|| {
                fail("refers to the GLB binary chunk, but the file has none".into())
            })?,
            gltf::buffer::Source::Uri(uri) => resolver
                .read_uri(uri, &format!("{}: buffers[{i}].uri", file.display()))
                .map_err(|e| fail(format!("uri `{}`: {e}", short(uri))))?,
        };
        if bytes.len() < buffer.length() {
            return Err(fail(format!(
                "truncated: {} bytes, but its byteLength is {}",
                bytes.len(),
                buffer.length()
            )));
        }
        // glTF 2.0 §3.6.1.1: buffers may be padded to 4 bytes; keep accessor reads in bounds.
        while bytes.len() % 4 != 0 {
            bytes.push(0);
        }
        data.push(bytes);
    }
    let mut buffers = Buffers::new(data, resolver.budgets().gltf_decoded_bytes);
    crate::meshopt::decode_views(file, doc, raw, &mut buffers)?;
    Ok(buffers)
}

/// At most 80 characters of a URI (data: URIs can be megabytes long).
fn short(uri: &str) -> String {
    match uri.char_indices().nth(80) {
        Some((cut, _)) => format!("{}…", &uri[..cut]),
        None => uri.to_owned(),
    }
}

/// Reads and decodes every image to RGBA8. Each image's size is read from its header and
/// checked against [`sierra_assets::Budgets::image_size`] and the decoded-bytes budget
/// before any pixel is decoded.
pub(crate) fn load_images(
    file: &Path,
    doc: &gltf::Document,
    buffers: &Buffers,
    resolver: &Resolver,
) -> Result<Vec<ImportedImage>> {
    doc.images()
        .map(|img| {
            let i = img.index();
            let fail = |reason: String| Error::Image {
                file: file.to_owned(),
                image: i,
                reason,
            };
            let (bytes, uri_name): (std::borrow::Cow<[u8]>, Option<String>) = match img.source() {
                gltf::image::Source::View { view, mime_type } => {
                    let data = buffers.view(&view).ok_or_else(|| {
                        fail(format!(
                            "buffer view {} lies outside its buffer",
                            view.index()
                        ))
                    })?;
                    check_mime(mime_type, data).map_err(fail)?;
                    (data.into(), None)
                }
                gltf::image::Source::Uri { uri, mime_type } => {
                    let bytes = resolver
                        .read_uri(uri, &format!("{}: images[{i}].uri", file.display()))
                        .map_err(|e| fail(format!("uri `{}`: {e}", short(uri))))?;
                    let declared = mime_type.or_else(|| data_uri_mime(uri));
                    if let Some(declared) = declared {
                        check_mime(declared, &bytes).map_err(fail)?;
                    }
                    let name = (!uri.starts_with("data:")).then(|| uri.to_owned());
                    (bytes.into(), name)
                }
            };
            let name = img
                .name()
                .map(str::to_owned)
                .or(uri_name)
                .unwrap_or_else(|| format!("image {i}"));
            decode_image(
                file,
                i,
                &name,
                &bytes,
                buffers,
                resolver.budgets().image_size,
            )
        })
        .collect()
}

/// The MIME type a `data:` URI declares (`data:image/png;base64,…` → `image/png`).
fn data_uri_mime(uri: &str) -> Option<&str> {
    let rest = uri.strip_prefix("data:")?;
    let end = rest.find([';', ','])?;
    Some(&rest[..end]).filter(|m| !m.is_empty())
}

/// Checks that an image's bytes are what its declared MIME type says (glTF 2.0 §5.17:
/// `image/png` or `image/jpeg`), so a PNG labelled `image/jpeg` is refused rather than
/// decoded by guessing. Other types (extensions' images) are left to the decoder.
///
/// # Errors
/// The declared and the actual format, for [`Error::Image`].
fn check_mime(declared: &str, bytes: &[u8]) -> std::result::Result<(), String> {
    let expected = match declared {
        "image/png" => image::ImageFormat::Png,
        "image/jpeg" => image::ImageFormat::Jpeg,
        _ => return Ok(()),
    };
    match image::guess_format(bytes) {
        Ok(actual) if actual == expected => Ok(()),
        Ok(actual) => Err(format!(
            "mimeType is `{declared}` but the bytes are a {} image",
            format!("{actual:?}").to_uppercase()
        )),
        Err(_) => Err(format!(
            "mimeType is `{declared}` but the bytes are not a PNG or JPEG image"
        )),
    }
}

/// Reads and decodes a standalone image file (a level's normal map) through `resolver`: inside
/// the root, within the file budget, its size checked from the header against
/// [`sierra_assets::Budgets::image_size`] and its RGBA8 size against
/// [`sierra_assets::Budgets::gltf_decoded_bytes`] before decoding.
///
/// # Errors
/// [`Error::Asset`] (outside the root, not a regular file, over a budget), [`Error::Image`]
/// (not a PNG/JPEG, undecodable).
pub fn load_image_file(resolver: &Resolver, relative: &Path) -> Result<ImportedImage> {
    let file = resolver.display(relative);
    let bytes = resolver.read(relative)?;
    let budget = Buffers::new(Vec::new(), resolver.budgets().gltf_decoded_bytes);
    let name = relative.display().to_string();
    decode_image(
        &file,
        0,
        &name,
        &bytes,
        &budget,
        resolver.budgets().image_size,
    )
}

fn decode_image(
    file: &Path,
    index: usize,
    name: &str,
    bytes: &[u8],
    buffers: &Buffers,
    max_side: u32,
) -> Result<ImportedImage> {
    let fail = |reason: String| Error::Image {
        file: file.to_owned(),
        image: index,
        reason,
    };
    let reader = || {
        image::ImageReader::new(std::io::Cursor::new(bytes))
            .with_guessed_format()
            .map_err(|e| fail(e.to_string()))
    };
    let probe = reader()?;
    if probe.format().is_none() {
        return Err(fail(format!("`{name}` is not a PNG or JPEG image")));
    }
    let (w, h) = probe
        .into_dimensions()
        .map_err(|e| fail(format!("`{name}`: unreadable header: {e}")))?;
    for (side, value) in [("width", w), ("height", h)] {
        if value > max_side {
            return Err(Error::Asset(AssetError::OverBudget {
                file: file.to_owned(),
                what: format!("image {index} (`{name}`) {side}, from its header,"),
                amount: format!("{value} pixels ({w}×{h})"),
                limit: u64::from(max_side),
                unit: "pixels",
                budget: Budget::ImageSize,
            }));
        }
    }
    let rgba_bytes = u64::from(w) * u64::from(h) * 4;
    buffers.charge(file, rgba_bytes, || {
        format!("image {index} (`{name}`, {w}×{h} RGBA8)")
    })?;
    let mut reader = reader()?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(max_side);
    limits.max_image_height = Some(max_side);
    // The decoder's own buffers (16-bit channels, the RGBA conversion) stay within 4× the result.
    limits.max_alloc = Some(rgba_bytes.saturating_mul(4).max(1 << 20));
    reader.limits(limits);
    let decoded = reader
        .decode()
        .map_err(|e| fail(format!("`{name}` ({w}×{h}): cannot decode: {e}")))?;
    Ok(ImportedImage {
        name: name.to_owned(),
        width: w,
        height: h,
        rgba8: decoded.into_rgba8().into_raw(),
    })
}
