//! Radiance RGBE (`.hdr`) images (Greg Ward, "Real Pixels", Graphics Gems II, 1991; the format
//! of `ra_ppm`/`pfilt` and of most HDR environment maps): a text header (`#?RADIANCE` or
//! `#?RGBE`, `FORMAT=32-bit_rle_rgbe`, a blank line), the resolution line `-Y H +X W` (rows top
//! to bottom, columns left to right: the only orientation read here), then each row either flat
//! (4 bytes per pixel) or run-length encoded per channel ("new" RLE: `2 2 W>>8 W&255`, then for
//! each of R, G, B, E runs of `count > 128` copies of one byte or `count` literal bytes).
//!
//! Images are untrusted input: every length is checked against the data and `max_side`, and the
//! decoded `f32` size against `max_decoded_bytes`, before anything is allocated.

/// A decoded image: `width × height` linear RGBA `f32` texels (alpha 1), row 0 at the top.
#[derive(Clone, Debug, PartialEq)]
pub struct RadianceImage {
    /// Width, pixels.
    pub width: u32,
    /// Height, pixels.
    pub height: u32,
    /// `[height][width][4]` linear radiance, alpha 1.
    pub rgba: Vec<f32>,
}

/// Decodes a Radiance `.hdr` file.
///
/// # Errors
/// A message saying what is wrong: a missing `#?RADIANCE`/`#?RGBE` signature, another `FORMAT`,
/// a resolution line other than `-Y H +X W`, a side of 0 or over `max_side`, a decoded size over
/// `max_decoded_bytes`, a run that overflows its row, or data that ends early.
pub fn decode_radiance(
    bytes: &[u8],
    max_side: u32,
    max_decoded_bytes: u64,
) -> Result<RadianceImage, String> {
    let (width, height, mut at) = header(bytes)?;
    if width == 0 || height == 0 || width > max_side || height > max_side {
        return Err(format!(
            "the image is {width}x{height}, sides must be 1..={max_side} pixels"
        ));
    }
    let decoded = u64::from(width) * u64::from(height) * 16;
    if decoded > max_decoded_bytes {
        return Err(format!(
            "the image decodes to {decoded} bytes, more than the limit of {max_decoded_bytes}"
        ));
    }
    let w = width as usize;
    let mut row = vec![0u8; w * 4];
    let mut rgba = Vec::with_capacity(w * height as usize * 4);
    for y in 0..height {
        at = read_row(bytes, at, &mut row).map_err(|e| format!("row {y}: {e}"))?;
        rgba.extend(row.chunks_exact(4).flat_map(rgbe_to_rgba));
    }
    Ok(RadianceImage {
        width,
        height,
        rgba,
    })
}

/// RGBE → linear RGBA (Ward's `colr_color`: mantissas at their bin centres).
fn rgbe_to_rgba(p: &[u8]) -> [f32; 4] {
    if p[3] == 0 {
        return [0.0, 0.0, 0.0, 1.0];
    }
    let scale = 2f32.powi(i32::from(p[3]) - 136);
    let c = |i: usize| (f32::from(p[i]) + 0.5) * scale;
    [c(0), c(1), c(2), 1.0]
}

/// Parses the header: `(width, height, offset of the pixel data)`.
fn header(bytes: &[u8]) -> Result<(u32, u32, usize), String> {
    let mut lines = Vec::new();
    let mut start = 0;
    // The header and resolution line are short: refuse to scan megabytes for them.
    let limit = bytes.len().min(64 * 1024);
    for (i, &b) in bytes[..limit].iter().enumerate() {
        if b == b'\n' {
            lines.push((
                std::str::from_utf8(&bytes[start..i]).unwrap_or("\u{fffd}"),
                i + 1,
            ));
            start = i + 1;
            // The resolution line follows the blank line that ends the header.
            if lines.len() >= 2 && lines[lines.len() - 2].0.is_empty() {
                break;
            }
        }
    }
    let first = lines.first().map_or("", |l| l.0);
    if !(first.starts_with("#?RADIANCE") || first.starts_with("#?RGBE")) {
        return Err("not a Radiance file: it does not start with #?RADIANCE or #?RGBE".to_owned());
    }
    for (line, _) in &lines {
        if let Some(format) = line.strip_prefix("FORMAT=") {
            if format.trim() != "32-bit_rle_rgbe" {
                return Err(format!(
                    "unsupported FORMAT={format} (only 32-bit_rle_rgbe)"
                ));
            }
        }
    }
    let blank = lines.iter().position(|l| l.0.is_empty());
    let Some((resolution, data)) = blank.and_then(|i| lines.get(i + 1)) else {
        return Err("the header has no blank line and resolution line".to_owned());
    };
    let parts: Vec<&str> = resolution.split_whitespace().collect();
    let parse = |s: &str| {
        s.parse::<u32>()
            .map_err(|_| format!("bad resolution line `{resolution}`"))
    };
    match parts.as_slice() {
        ["-Y", h, "+X", w] => Ok((parse(w)?, parse(h)?, *data)),
        _ => Err(format!(
            "resolution line `{resolution}`: only the standard `-Y H +X W` orientation is read"
        )),
    }
}

/// Reads one row of `row.len() / 4` RGBE pixels from `bytes[at..]`; returns the next offset.
fn read_row(bytes: &[u8], at: usize, row: &mut [u8]) -> Result<usize, String> {
    let width = row.len() / 4;
    let short = || "the data ends early".to_owned();
    let head = bytes.get(at..at + 4).ok_or_else(short)?;
    let rle = (8..=0x7fff).contains(&width)
        && head[0] == 2
        && head[1] == 2
        && usize::from(head[2]) << 8 | usize::from(head[3]) == width;
    if !rle {
        let flat = bytes.get(at..at + row.len()).ok_or_else(short)?;
        row.copy_from_slice(flat);
        return Ok(at + row.len());
    }
    let mut at = at + 4;
    for channel in 0..4 {
        let mut x = 0;
        while x < width {
            let count = usize::from(*bytes.get(at).ok_or_else(short)?);
            at += 1;
            let (run, literal) = if count > 128 {
                (count - 128, false)
            } else {
                (count, true)
            };
            if run == 0 || x + run > width {
                return Err(format!(
                    "a run of {run} at column {x} does not fit the row of {width}"
                ));
            }
            for i in 0..run {
                let offset = if literal { at + i } else { at };
                row[(x + i) * 4 + channel] = *bytes.get(offset).ok_or_else(short)?;
            }
            at += if literal { run } else { 1 };
            x += run;
        }
    }
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(width: u32, height: u32, data: &[u8]) -> Vec<u8> {
        let mut bytes =
            format!("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y {height} +X {width}\n").into_bytes();
        bytes.extend_from_slice(data);
        bytes
    }

    #[test]
    fn flat_pixels_decode_to_ward_values() {
        // (128, 64, 0, e=129): 2^(129-136) = 1/128 → 128.5/128, 64.5/128, 0.5/128; e=0 is black.
        let image =
            decode_radiance(&file(2, 1, &[128, 64, 0, 129, 9, 9, 9, 0]), 64, 1 << 20).unwrap();
        assert_eq!((image.width, image.height), (2, 1));
        let expected = [
            128.5 / 128.0,
            64.5 / 128.0,
            0.5 / 128.0,
            1.0,
            0.0,
            0.0,
            0.0,
            1.0,
        ];
        assert_eq!(image.rgba, expected);
    }

    #[test]
    fn run_length_rows_match_the_same_flat_rows() {
        // One 8-pixel row: R a run of 8 × 10, G literals 0..8, B a run, E a run of 130.
        let mut rle = vec![2, 2, 0, 8];
        rle.extend([128 + 8, 10]);
        rle.push(8);
        rle.extend(0..8u8);
        rle.extend([128 + 8, 3, 128 + 8, 130]);
        let flat: Vec<u8> = (0..8u8).flat_map(|g| [10, g, 3, 130]).collect();
        let a = decode_radiance(&file(8, 1, &rle), 64, 1 << 20).unwrap();
        let b = decode_radiance(&file(8, 1, &flat), 64, 1 << 20).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        let error = |bytes: &[u8]| decode_radiance(bytes, 64, 1 << 20).unwrap_err();
        assert!(error(b"P6\n").contains("not a Radiance file"));
        assert!(error(&file(8, 1, &[2, 2, 0, 8, 128 + 9, 1])).contains("does not fit"));
        assert!(error(&file(8, 1, &[2, 2, 0, 8, 5, 1, 2])).contains("ends early"));
        assert!(error(&file(4, 2, &[0; 16])).contains("ends early"));
        assert!(error(&file(100, 1, &[])).contains("1..=64"));
        assert!(decode_radiance(&file(8, 8, &[]), 64, 100)
            .unwrap_err()
            .contains("limit"));
        let rotated = b"#?RADIANCE\n\n+X 4 -Y 4\n".to_vec();
        assert!(error(&rotated).contains("orientation"));
        let other = b"#?RADIANCE\nFORMAT=32-bit_rle_xyze\n\n-Y 1 +X 1\n\0\0\0\0".to_vec();
        assert!(error(&other).contains("FORMAT"));
    }
}
