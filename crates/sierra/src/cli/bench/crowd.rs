//! `sierra bench crowd [--instances 100,1000,10000] [--frames N] [--size WxH] [--json]`: the
//! baked-animation crowd pass (`sierra_render::passes::crowd`) with N mannequins in one instanced draw.
//! Per count: CPU milliseconds per frame spent recording and submitting (GPU timing off, the
//! wait for the GPU outside the timed span), and GPU milliseconds per frame of the crowd pass and
//! of the whole frame (timestamp queries, where the adapter has them). The CPU time should stay
//! nearly flat as the count grows: per frame only a time uniform is written.
//!
//! `--changing P` adds, per count, a run in which P % of the members (scattered, drawn anew
//! each frame) change state every frame: each switches to another clip with a crossfade
//! ([`CrowdInstance::switch_to`]) and is written back with [`CrowdPass::update_instances`]
//! (per run of adjacent members, or one span write when cheaper:
//! [`crate::world::crowd_reaction::write_changed`]), inside the timed span. The report gives
//! its CPU milliseconds and the ratio to the static crowd's of the same run (goal ≤ 2).
//!
//! [`CrowdPass::update_instances`]: sierra_render::passes::crowd::CrowdPass::update_instances

use anyhow::{Context, Result};
use clap::Args;
use glam::{Mat4, Quat, Vec3, Vec4};
use sierra_content::crowd::{bake_asset, baked_palettes};
use sierra_render::material::SurfaceMaterial;
use sierra_render::passes::crowd::CrowdInstance;
use sierra_render::{Camera, FrameData, GpuContext, HeadlessRenderer, Material, Sun};

use crate::cli::Size;

/// Arguments of `sierra bench crowd`.
#[derive(Debug, Args)]
pub struct CrowdBenchArgs {
    /// Crowd sizes, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "100,1000,10000", value_parser = crate::cli::limits::parse_instances)]
    pub instances: Vec<u32>,
    /// Timed frames per size (after 3 warm-up frames).
    #[arg(long, default_value_t = 30, value_parser = crate::cli::limits::parse_frames)]
    pub frames: u32,
    /// Render size, WIDTHxHEIGHT.
    #[arg(long, default_value = "640x360")]
    pub size: Size,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Also time frames in which this percentage of the members changes state (e.g. 1).
    #[arg(long)]
    pub changing: Option<f32>,
}

/// One row of the report.
struct Row {
    instances: u32,
    cpu_ms: f64,
    gpu_crowd_ms: Option<f64>,
    gpu_frame_ms: Option<f64>,
    triangles: u64,
    /// CPU ms per frame with `--changing` % of the members changing state each frame.
    changing_cpu_ms: Option<f64>,
}

/// splitmix64 (Steele, Lea, Flood 2014), so every run changes the same members.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Switches `count` members drawn at random to their next clip at `now` and lists them as the
/// frame's crowd updates ([`crate::world::crowd_reaction::write_changed`]); `changed` receives
/// the members changed.
fn change_members(
    frame: &mut sierra_render::CrowdFrame,
    handles: &[sierra_render::passes::crowd::CrowdHandle],
    instances: &mut [CrowdInstance],
    changed: &mut Vec<usize>,
    rng: &mut u64,
    count: usize,
    now: f32,
    clips: u32,
) {
    changed.clear();
    let n = instances.len() as u64;
    changed.extend((0..count).map(|_| (splitmix(rng) % n.max(1)) as usize));
    changed.sort_unstable();
    changed.dedup();
    for &i in changed.iter() {
        let m = &mut instances[i];
        let next = (m.second_clip + 1) % clips;
        m.switch_to(next, now, 0.25);
    }
    frame.clear_updates();
    crate::world::crowd_reaction::write_changed(frame, handles, instances, changed);
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// A square grid of `n` mannequins 1.2 m apart, each with its own clip, phase and speed.
fn grid(n: u32, clips: u32) -> Vec<CrowdInstance> {
    let side = (n as f32).sqrt().ceil().max(1.0) as u32;
    (0..n)
        .map(|i| {
            let (x, z) = ((i % side) as f32, (i / side) as f32);
            let half = (side as f32 - 1.0) * 0.6;
            let model = Mat4::from_rotation_translation(
                Quat::from_rotation_y(i as f32 * 0.37),
                Vec3::new(x * 1.2 - half, 0.0, z * 1.2 - half),
            );
            CrowdInstance::new(
                model,
                i % clips,
                i as f32 * 0.13,
                0.8 + (i % 5) as f32 * 0.1,
            )
        })
        .collect()
}

/// Runs the benchmark.
///
/// # Errors
/// GPU and mannequin errors, an empty `--instances` list.
pub fn run(args: CrowdBenchArgs) -> Result<()> {
    if args.instances.is_empty() {
        anyhow::bail!("--instances needs at least one count");
    }
    let ctx = GpuContext::headless()?;
    let asset = sierra_gltf::builtin::mannequin::load().context("building the mannequin")?;
    let (meshes, baked) = bake_asset(&asset, 30.0).context("baking the mannequin's clips")?;
    let clips = baked.clips.len() as u32;
    let palettes = baked_palettes(&baked);
    let (width, height) = (args.size.width, args.size.height);
    let mut rows = Vec::new();
    let mut progress =
        sierra_profile::progress::Progress::new("bench crowd count", args.instances.len() as u64);
    for &n in &args.instances {
        let mut headless = HeadlessRenderer::new(&ctx, width, height)
            .with_context(|| format!("creating a {width}x{height} renderer"))?;
        let mut instances = grid(n, clips);
        let mut handles = Vec::new();
        for mesh in &meshes {
            let handle = headless
                .renderer
                .crowd
                .add_crowd(
                    &ctx,
                    mesh,
                    &palettes,
                    &Material::default(),
                    &SurfaceMaterial::default(),
                    &instances,
                )
                .with_context(|| format!("uploading a crowd of {n}"))?;
            handles.push(handle);
        }
        let extent = (n as f32).sqrt() * 1.2;
        let mut frame = FrameData {
            camera: Camera::look_at(
                Vec3::new(0.0, extent * 0.6 + 2.0, extent * 0.9 + 3.0),
                Vec3::ZERO,
                Vec3::Y,
                50f32.to_radians(),
                width as f32 / height as f32,
                0.1,
                extent * 3.0 + 20.0,
            ),
            sun: Sun::default(),
            point_lights: Vec::new(),
            draws: Vec::new(),
            clear_color: Vec4::new(0.1, 0.1, 0.12, 1.0),
            skinned: Default::default(),
            crowds: Default::default(),
            sea: Default::default(),
            post: Default::default(),
        };
        // A lost device shows in the next render's error; the wait only must not hang on it.
        let wait = |ctx: &GpuContext| {
            let _ = ctx.wait_idle("waiting for the crowd benchmark's frame");
        };
        // CPU: recording + submitting only (timings are read without waiting; the GPU wait is
        // outside the span).
        let mut cpu = Vec::new();
        for f in 0..args.frames + 3 {
            frame.crowds.time = f as f32 / 60.0;
            let start = std::time::Instant::now();
            headless
                .renderer
                .render(&ctx, &frame, &headless.target.view)
                .context("rendering a crowd frame")?;
            let ms = start.elapsed().as_secs_f64() * 1e3;
            wait(&ctx);
            if f >= 3 {
                cpu.push(ms);
            }
        }
        // The same frames with members changing state (the static run above is the reference).
        let changing_cpu_ms = match args.changing {
            Some(percent) => {
                let per_frame = ((n as f32 * percent / 100.0).round() as usize).max(1);
                let (mut rng, mut changed) = (0x5EED_u64, Vec::with_capacity(per_frame));
                let mut ms = Vec::new();
                for f in 0..args.frames + 3 {
                    let now = f as f32 / 60.0;
                    frame.crowds.time = now;
                    let start = std::time::Instant::now();
                    change_members(
                        &mut frame.crowds,
                        &handles,
                        &mut instances,
                        &mut changed,
                        &mut rng,
                        per_frame,
                        now,
                        clips,
                    );
                    headless
                        .renderer
                        .render(&ctx, &frame, &headless.target.view)
                        .context("rendering a changing crowd frame")?;
                    let elapsed = start.elapsed().as_secs_f64() * 1e3;
                    wait(&ctx);
                    if f >= 3 {
                        ms.push(elapsed);
                    }
                }
                frame.crowds.clear_updates();
                Some(median(ms))
            }
            None => None,
        };
        // GPU: timestamp queries around each pass, read after the frames (the timings of the
        // frames above are dropped).
        headless.renderer.flush_gpu_timings(&ctx)?;
        let mut timings = Vec::new();
        for f in 0..args.frames {
            frame.crowds.time = f as f32 / 60.0;
            let stats = headless
                .renderer
                .render(&ctx, &frame, &headless.target.view)
                .context("rendering a timed crowd frame")?;
            timings.extend(stats.gpu);
        }
        timings.extend(headless.renderer.flush_gpu_timings(&ctx)?);
        let frame_ms: Vec<f64> = timings.iter().map(|t| t.gpu_ms()).collect();
        let crowd_ms: Vec<f64> = timings
            .iter()
            .flat_map(|t| t.per_label_ms())
            .filter(|(label, _)| label == "crowd")
            .map(|(_, ms)| ms)
            .collect();
        rows.push(Row {
            instances: n,
            cpu_ms: median(cpu),
            gpu_crowd_ms: (!crowd_ms.is_empty()).then(|| median(crowd_ms)),
            gpu_frame_ms: (!frame_ms.is_empty()).then(|| median(frame_ms)),
            triangles: headless.renderer.crowd.totals().1,
            changing_cpu_ms,
        });
        progress.inc();
    }
    progress.finish();
    let adapter = ctx.adapter_summary();
    let device_type = format!("{:?}", ctx.adapter.get_info().device_type);
    if args.json {
        let rows: Vec<_> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "instances": r.instances,
                    "cpu_ms_per_frame": r.cpu_ms,
                    "gpu_crowd_ms_per_frame": r.gpu_crowd_ms,
                    "gpu_frame_ms_per_frame": r.gpu_frame_ms,
                    "triangles": r.triangles,
                    "changing_percent": args.changing,
                    "changing_cpu_ms_per_frame": r.changing_cpu_ms,
                    "changing_over_static_cpu": r.changing_cpu_ms.map(|c| c / r.cpu_ms),
                })
            })
            .collect();
        let out = serde_json::json!({
            "adapter": adapter,
            "adapter_type": device_type,
            "size": format!("{width}x{height}"),
            "frames": args.frames,
            "sample_rate_hz": baked.sample_rate,
            "rows": rows,
        });
        outln!("{}", serde_json::to_string_pretty(&out)?)?;
        return Ok(());
    }
    outln!("adapter: {adapter} — type {device_type}")?;
    outln!(
        "crowd of mannequins ({} clips baked at {} Hz), {width}x{height}, median of {} frames",
        clips,
        baked.sample_rate,
        args.frames
    )?;
    outln!(
        "{:>10} {:>12} {:>14} {:>14} {:>12}",
        "instances",
        "CPU ms/frame",
        "GPU crowd ms",
        "GPU frame ms",
        "triangles"
    )?;
    let opt = |v: Option<f64>| v.map_or_else(|| "n/a".to_owned(), |v| format!("{v:.3}"));
    for r in &rows {
        outln!(
            "{:>10} {:>12.3} {:>14} {:>14} {:>12}",
            r.instances,
            r.cpu_ms,
            opt(r.gpu_crowd_ms),
            opt(r.gpu_frame_ms),
            r.triangles
        )?;
    }
    if let Some(percent) = args.changing {
        outln!("with {percent} % of the members changing state every frame (CPU ms/frame, ratio to static):")?;
        for r in &rows {
            if let Some(c) = r.changing_cpu_ms {
                outln!("{:>10} {:>12.3} {:>8.2}x", r.instances, c, c / r.cpu_ms)?;
            }
        }
    }
    Ok(())
}
