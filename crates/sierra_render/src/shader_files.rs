//! The engine's WGSL files that can be read from a folder instead of the embedded copies
//! (`sierra demo --shader-dir DIR`) and rebuilt while running ([`crate::Renderer::reload_shader`]):
//! which pass each belongs to, and the check a file passes before any pipeline is rebuilt.
//!
//! The renderer takes the text (plain data); the caller reads the file (through
//! `sierra_assets`, as every other file).

use crate::error::{RenderError, Result};
use crate::passes::fullscreen::FULLSCREEN_WGSL;

/// `(file, pass)`: the WGSL files a folder may replace and the pass each rebuilds. Each is a
/// full-screen pass, compiled after [`FULLSCREEN_WGSL`].
pub const RELOADABLE: [(&str, &str); 3] = [
    ("bloom.wgsl", "bloom"),
    ("tonemap.wgsl", "tonemap"),
    ("fxaa.wgsl", "fxaa"),
];

/// The pass `file` (a file name, e.g. `tonemap.wgsl`) belongs to, if it is reloadable.
pub fn pass_of(file: &str) -> Option<&'static str> {
    RELOADABLE
        .iter()
        .find(|(name, _)| *name == file)
        .map(|&(_, pass)| pass)
}

/// Parses `source` (the text of `file`) as it will be compiled, after the full-screen prelude,
/// with naga (the compiler wgpu uses).
///
/// # Errors
/// [`RenderError::InvalidInput`]: `FILE:LINE:COLUMN: MESSAGE`, the place in `file` itself (1-based).
pub fn check(file: &str, source: &str) -> Result<()> {
    let full = format!("{FULLSCREEN_WGSL}{source}");
    let Err(e) = naga::front::wgsl::parse_str(&full) else {
        return Ok(());
    };
    let prelude_lines = FULLSCREEN_WGSL.lines().count() as u32;
    let place = match e.location(&full) {
        Some(at) if at.line_number > prelude_lines => {
            format!("{}:{}", at.line_number - prelude_lines, at.line_position)
        }
        _ => "1:1".to_owned(),
    };
    Err(RenderError::InvalidInput(format!(
        "{file}:{place}: {}",
        e.message()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The embedded files pass; a missing semicolon on line 3 of a copy is reported at line 3
    /// of that file (not of the prelude before it).
    #[test]
    fn a_broken_shader_is_named_with_its_own_line() {
        for (file, embedded) in [
            ("bloom.wgsl", crate::passes::bloom::WGSL),
            ("tonemap.wgsl", crate::passes::tonemap::WGSL),
            ("fxaa.wgsl", crate::passes::fxaa::WGSL),
        ] {
            check(file, embedded).unwrap();
            assert!(pass_of(file).is_some());
        }
        let broken = "// one\n// two\nconst X: f32 = 1.0\nconst Y: f32 = 2.0;\n";
        let message = check("tonemap.wgsl", broken).unwrap_err().to_string();
        assert!(
            message.contains("tonemap.wgsl:3:") || message.contains("tonemap.wgsl:4:"),
            "{message}"
        );
        assert_eq!(pass_of("forward.wgsl"), None);
    }
}
