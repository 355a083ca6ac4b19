//! The `sierra` command line: one module per subcommand.
//!
//! To add a subcommand: write `cli/<name>.rs` with an `Args` struct (clap `Args`)
//! and a `run(args) -> anyhow::Result<()>`, then add one variant to [`Command`]
//! and one arm to [`run`].

pub mod bench;
pub mod demo;
pub mod export_mannequin;
pub mod export_obj;
pub mod inspect;
pub mod limits;
pub mod noise;
pub mod noise_points;
pub mod pose;
pub mod render;
pub mod view;
pub mod water;
pub mod water_wire;

use std::str::FromStr;

use clap::{Parser, Subcommand};

/// Sierra: a real-time 3D engine (wgpu). Headless rendering works without a GPU (Mesa lavapipe).
#[derive(Debug, Parser)]
#[command(name = "sierra", version, about)]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// Every subcommand.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Render a level headless: PNG frames, contact_sheet.png and stats.json.
    Render(render::RenderArgs),
    /// Run the built-in demo: a window when a display exists, else headless into out/demo.
    Demo(demo::DemoArgs),
    /// Run the water-columns simulation (CPU or GPU): volume, max height, time per step, height images.
    Water(water::WaterArgs),
    /// Evaluate Perlin noise or fBm (CPU f64/f32 or GPU) at points read from stdin.
    Noise(noise::NoiseArgs),
    /// Write a generated mesh (island, planet, clouds, palm, palms, birds) as OBJ + MTL at several LODs.
    ExportObj(export_obj::ExportObjArgs),
    /// Benchmarks: noise, terrain, anim, water, crowd, compression, scene, soak (table, or JSON with --json).
    Bench(bench::BenchArgs),
    /// Print one skin's joints posed by a glTF clip at a time as JSON (`--list`: skins and clips).
    Pose(pose::PoseArgs),
    /// Print a level's node tree (name, world position, mesh, components) as JSON.
    Inspect(inspect::InspectArgs),
    /// Write the built-in mannequin (skinned, six clips) as a glTF 2.0 binary.
    ExportMannequin(export_mannequin::ExportMannequinArgs),
    /// Render any glTF model (or builtin:mannequin) animating, headless, framed by its bounds.
    View(view::ViewArgs),
}

/// Runs the parsed command line.
///
/// # Errors
/// Whatever the subcommand reports; `main` prints the chain and exits with 1.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Render(args) => render::run(args),
        Command::Demo(args) => demo::run(args),
        Command::Water(args) => water::run(args),
        Command::Noise(args) => noise::run(args),
        Command::ExportObj(args) => export_obj::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Pose(args) => pose::run(args),
        Command::Inspect(args) => inspect::run(args),
        Command::ExportMannequin(args) => export_mannequin::run(args),
        Command::View(args) => view::run(args),
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
    #[arg(long, value_name = "N", value_parser = crate::cli::limits::parse_crowd_instances)]
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
