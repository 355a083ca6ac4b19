//! The `sierra` command line: one module per subcommand.
//!
//! To add a subcommand: write `cli/<name>.rs` with an `Args` struct (clap `Args`)
//! and a `run(args) -> anyhow::Result<()>`, then add one variant to [`Command`]
//! and one arm to [`run`].

mod args;
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

use clap::{Parser, Subcommand};

pub use args::{AssetArgs, DebugViewArg, Size};

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
        #[cfg(feature = "window")]
        Command::View(args) if args.window => crate::viewer::run(&args),
        #[cfg(not(feature = "window"))]
        Command::View(args) if args.window => anyhow::bail!(
            "`view --window` needs a window, and this sierra was built without the `window` \
             feature (cargo build --no-default-features); rebuild with default features, or drop \
             --window to render PNG frames"
        ),
        Command::View(args) => view::run(args),
    }
}
