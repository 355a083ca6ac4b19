//! `sierra noise`'s input reader: points as text, one per line. A file of its own (depending
//! only on `anyhow`, `sierra_terrain` and [`super::limits`]) so the `noise_lines` fuzz target
//! compiles it without the renderer (docs/fuzzing.md).

use std::io::BufRead;

use anyhow::{bail, Context};
use sierra_terrain::noise::validate_point;

use super::limits::shorten;

/// Parses points, `dims` numbers per non-empty line.
///
/// # Errors
/// The line number and what is wrong (count, not a number, NaN/infinite); input quoted in the
/// message is cut to 80 characters ([`shorten`]), however long the line.
pub fn parse_points(input: impl BufRead, dims: usize) -> anyhow::Result<Vec<[f64; 3]>> {
    let mut points = Vec::new();
    for (n, line) in input.lines().enumerate() {
        let line = line.with_context(|| format!("reading stdin line {}", n + 1))?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = text
            .split([' ', '\t', ','])
            .filter(|f| !f.is_empty())
            .collect();
        if fields.len() != dims {
            bail!(
                "line {}: expected {dims} numbers, found {} in `{}`",
                n + 1,
                fields.len(),
                shorten(text)
            );
        }
        let mut p = [0.0f64; 3];
        for (slot, field) in p.iter_mut().zip(&fields) {
            *slot = field
                .parse()
                .with_context(|| format!("line {}: `{}` is not a number", n + 1, shorten(field)))?;
        }
        validate_point(n + 1, &p[..dims]).with_context(|| format!("line {}", n + 1))?;
        points.push(p);
    }
    Ok(points)
}
