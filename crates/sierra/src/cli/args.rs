//! Arguments several subcommands share: where assets may be read from and how much
//! ([`AssetArgs`]), an image size ([`Size`]) and a debug view ([`DebugViewArg`]).

use std::str::FromStr;

use super::limits;

/// `--debug-view`: what the scene passes write instead of the lit image (`render`, `demo`
/// headless); any view but `lit` renders with pass-through post-processing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum DebugViewArg {
    /// The lit image.
    #[default]
    Lit,
    /// Unlit albedo ([`sierra_render::DebugView::UnlitAlbedo`]).
    Albedo,
    /// The sea's foam mask, grey on black ([`sierra_render::DebugView::Foam`]).
    Foam,
}

impl From<DebugViewArg> for sierra_render::DebugView {
    fn from(arg: DebugViewArg) -> Self {
        match arg {
            DebugViewArg::Lit => Self::Lit,
            DebugViewArg::Albedo => Self::UnlitAlbedo,
            DebugViewArg::Foam => Self::Foam,
        }
    }
}

/// Where assets may be read from and how much (every command that loads levels or models).
/// See docs/security.md for the defaults.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct AssetArgs {
    /// Folder every asset must stay inside (default: the level's folder, or the model's).
    #[arg(long, value_name = "DIR")]
    pub asset_root: Option<std::path::PathBuf>,
    /// Most bytes read from one file (default 268435456 = 256 MiB).
    #[arg(long, value_name = "BYTES")]
    pub max_file_bytes: Option<u64>,
    /// Most bytes decoded from one glTF: accessors at each use, images as RGBA8 (default 268435456).
    #[arg(long, value_name = "BYTES")]
    pub max_gltf_bytes: Option<u64>,
    /// Largest image width or height, pixels, checked before decoding (default 8192).
    #[arg(long, value_name = "PIXELS")]
    pub max_image_size: Option<u32>,
    /// Most vertices of one generated mesh: grid:N, Terrain resolution², export-obj --resolution² (default 4194304).
    #[arg(long, value_name = "N")]
    pub max_vertices: Option<u64>,
    /// Most crowd members of a level, summed over its crowds (default 100000, at most 1000000).
    #[arg(long, value_name = "N", value_parser = super::limits::parse_crowd_instances)]
    pub max_crowd_instances: Option<u64>,
}

impl AssetArgs {
    /// The flags that were given.
    pub fn overrides(&self) -> sierra_assets::BudgetOverrides {
        sierra_assets::BudgetOverrides {
            file_bytes: self.max_file_bytes,
            gltf_decoded_bytes: self.max_gltf_bytes,
            image_size: self.max_image_size,
            mesh_vertices: self.max_vertices,
            crowd_instances: self.max_crowd_instances,
        }
    }

    /// The defaults with the flags applied.
    pub fn budgets(&self) -> sierra_assets::Budgets {
        sierra_assets::Budgets::DEFAULT.with(&self.overrides())
    }

    /// Level load options (asset root and budgets).
    pub fn load_options(&self) -> sierra_scene::LoadOptions {
        sierra_scene::LoadOptions {
            asset_root: self.asset_root.clone(),
            limits: self.overrides(),
        }
    }
}

/// An image size `WIDTHxHEIGHT` in pixels, both in 1..=[`limits::MAX_SIDE`] (e.g. `640x360`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Width, pixels.
    pub width: u32,
    /// Height, pixels.
    pub height: u32,
}

impl FromStr for Size {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let expected = "expected WIDTHxHEIGHT with positive integers, e.g. 640x360";
        let shown = limits::shorten(text);
        let (w, h) = text
            .split_once(['x', 'X'])
            .ok_or_else(|| format!("`{shown}`: {expected}"))?;
        let side = |s: &str, name: &str| -> Result<u32, String> {
            match s.trim().parse::<i128>() {
                Ok(v) if v > i128::from(limits::MAX_SIDE) => Err(format!(
                    "`{shown}`: {name} {v} is over the limit of {} pixels",
                    limits::MAX_SIDE
                )),
                Ok(v) if v >= 1 => Ok(v as u32),
                Ok(v) => Err(format!(
                    "`{shown}`: {name} {v} must be at least 1 ({expected})"
                )),
                Err(_) => Err(format!(
                    "`{shown}`: {name} `{}` is not an integer ({expected})",
                    limits::shorten(s)
                )),
            }
        };
        Ok(Size {
            width: side(w, "width")?,
            height: side(h, "height")?,
        })
    }
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_bad_ones_say_why() {
        assert_eq!(
            "640x360".parse::<Size>(),
            Ok(Size {
                width: 640,
                height: 360
            })
        );
        assert!("0x10"
            .parse::<Size>()
            .unwrap_err()
            .contains("width 0 must be at least 1"));
        assert!("10x-5"
            .parse::<Size>()
            .unwrap_err()
            .contains("height -5 must be at least 1"));
        assert!("10".parse::<Size>().unwrap_err().contains("WIDTHxHEIGHT"));
        assert!("100000x10"
            .parse::<Size>()
            .unwrap_err()
            .contains("over the limit of 8192"));
        assert!("8192x8192".parse::<Size>().is_ok());
        assert!("ax5"
            .parse::<Size>()
            .unwrap_err()
            .contains("not an integer"));
    }
}
