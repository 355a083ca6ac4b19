//! Files a headless run writes: `frame_NNNN.png`, `contact_sheet.png`, `stats.json`, and the
//! folders they go in ([`OutputDir`]: never over a user's files).

mod folder;

pub use folder::{check_single_file, OutputDir, MANIFEST};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use image::RgbaImage;
use serde::Serialize;

/// Most frames a contact sheet shows.
pub const CONTACT_SHEET_MAX: usize = 16;

/// Widest thumbnail in a contact sheet, pixels (larger frames are scaled down).
pub const THUMBNAIL_MAX_WIDTH: u32 = 320;

/// The file names a headless run of `frames` frames writes (`trace.json` when `profile`).
pub fn headless_names(frames: usize, profile: bool) -> Vec<String> {
    let mut names: Vec<String> = (0..frames).map(frame_name).collect();
    names.extend(["contact_sheet.png".to_owned(), "stats.json".to_owned()]);
    if profile {
        names.push("trace.json".to_owned());
    }
    names
}

/// File name of frame `index`: `frame_0000.png`, `frame_0001.png`, ...
pub fn frame_name(index: usize) -> String {
    format!("frame_{index:04}.png")
}

/// Path of frame `index` in `dir`: `frame_0000.png`, `frame_0001.png`, ...
pub fn frame_path(dir: &Path, index: usize) -> PathBuf {
    dir.join(frame_name(index))
}

/// Writes `image` as PNG.
///
/// # Errors
/// I/O or encoding errors, naming the file; as [`write_image`].
pub fn write_png(image: &RgbaImage, path: &Path) -> Result<()> {
    write_image(image, path)
}

/// Writes `image` (RGBA8, RGB8, grey...) as PNG through [`sierra_assets::write_atomic_with`]:
/// under a temporary name in the same folder, renamed when complete, so a failed write leaves
/// nothing under `path`.
///
/// # Errors
/// I/O or encoding errors, naming the file.
pub fn write_image<P>(image: &image::ImageBuffer<P, Vec<P::Subpixel>>, path: &Path) -> Result<()>
where
    P: image::PixelWithColorType,
    [P::Subpixel]: image::EncodableLayout,
{
    sierra_assets::write_atomic_with(path, |w| {
        image
            .write_with_encoder(image::codecs::png::PngEncoder::new(w))
            .map_err(|e| match e {
                image::ImageError::IoError(e) => e,
                other => std::io::Error::other(other),
            })
    })?;
    Ok(())
}

/// Indices of up to [`CONTACT_SHEET_MAX`] evenly spaced frames out of `count`,
/// always including the first and the last.
pub fn contact_sheet_indices(count: usize) -> Vec<usize> {
    if count <= CONTACT_SHEET_MAX {
        return (0..count).collect();
    }
    let last = count - 1;
    (0..CONTACT_SHEET_MAX)
        .map(|i| (i * last + (CONTACT_SHEET_MAX - 1) / 2) / (CONTACT_SHEET_MAX - 1))
        .collect()
}

/// Lays `frames` out in a grid (columns = ⌈√n⌉), each scaled to at most
/// [`THUMBNAIL_MAX_WIDTH`] wide, with a 2-pixel dark gap.
pub fn contact_sheet(frames: &[RgbaImage]) -> RgbaImage {
    let Some(first) = frames.first() else {
        return RgbaImage::new(1, 1);
    };
    let (w, h) = first.dimensions();
    let scale = (THUMBNAIL_MAX_WIDTH as f32 / w as f32).min(1.0);
    let tw = ((w as f32 * scale).round() as u32).max(1);
    let th = ((h as f32 * scale).round() as u32).max(1);
    let n = frames.len() as u32;
    let cols = (n as f64).sqrt().ceil() as u32;
    let rows = n.div_ceil(cols);
    let gap = 2;
    let mut sheet = RgbaImage::from_pixel(
        cols * (tw + gap) + gap,
        rows * (th + gap) + gap,
        image::Rgba([16, 16, 16, 255]),
    );
    for (i, frame) in frames.iter().enumerate() {
        let thumb = if (tw, th) == frame.dimensions() {
            frame.clone()
        } else {
            image::imageops::resize(frame, tw, th, image::imageops::FilterType::Triangle)
        };
        let (col, row) = (i as u32 % cols, i as u32 / cols);
        image::imageops::replace(
            &mut sheet,
            &thumb,
            i64::from(gap + col * (tw + gap)),
            i64::from(gap + row * (th + gap)),
        );
    }
    sheet
}

/// One frame's entry in `stats.json`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FrameRecord {
    /// Frame index (0-based).
    pub frame: usize,
    /// Simulation tick after this frame's update.
    pub tick: u64,
    /// Wall-clock CPU milliseconds: tick, frame build, command recording, submit and the wait for read-back (PNG encoding excluded).
    pub cpu_ms: f64,
    /// GPU milliseconds of the frame: end of its last top-level scope − start of its first
    /// (gaps between passes included); `null` where timestamp queries are unsupported.
    pub gpu_ms: Option<f64>,
    /// GPU milliseconds per scope (every render pass and compute dispatch, by label; a label
    /// that repeats adds up); `null` where timestamp queries are unsupported.
    pub gpu_pass_ms: Option<BTreeMap<String, f64>>,
    /// Every GPU scope of the frame in recording order; `null` where timestamp queries are
    /// unsupported.
    pub gpu_scopes: Option<Vec<GpuScopeRecord>>,
    /// Triangles submitted.
    pub triangles: u64,
    /// Draw calls recorded.
    pub draw_calls: u32,
    /// Draws left out by frustum culling (outside the view).
    pub culled_draws: u32,
    /// Render and compute pipelines created during this frame (ticks, extract and render):
    /// 0 once the level is loaded, the pipeline caches being pre-warmed at load.
    pub pipelines_created: u64,
    /// Shader modules created during this frame (0 after load, as `pipelines_created`).
    pub shader_modules_created: u64,
    /// Pipeline statistics per render-pass scope label; `null` where the adapter has no
    /// `PIPELINE_STATISTICS_QUERY` (or no timestamps: they come back with the GPU timings).
    pub gpu_pass_statistics: Option<BTreeMap<String, PassStatisticsRecord>>,
}

/// What the GPU counted in one render-pass scope (see
/// [`sierra_render::pipeline_statistics::PassStatistics`]).
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq)]
pub struct PassStatisticsRecord {
    /// Vertex shader invocations.
    pub vertex_shader_invocations: u64,
    /// Primitives that reached the clipper.
    pub clipper_invocations: u64,
    /// Primitives the clipper passed on.
    pub clipper_primitives_out: u64,
    /// Fragment shader invocations.
    pub fragment_shader_invocations: u64,
    /// Vertex shader invocations per screen pixel (`width × height` of the run, whatever
    /// target the pass drew into).
    pub vertex_invocations_per_pixel: f64,
    /// Fragment shader invocations per screen pixel (as `vertex_invocations_per_pixel`).
    pub fragment_invocations_per_pixel: f64,
}

/// Per label, the statistics of `stats` as records, per pixel of a `pixels`-pixel screen.
pub fn pass_statistics_records(
    stats: &[sierra_render::pipeline_statistics::PassStatistics],
    pixels: u64,
) -> BTreeMap<String, PassStatisticsRecord> {
    stats
        .iter()
        .map(|s| {
            let per_pixel = s.per_pixel(pixels);
            let record = PassStatisticsRecord {
                vertex_shader_invocations: s.vertex_shader_invocations,
                clipper_invocations: s.clipper_invocations,
                clipper_primitives_out: s.clipper_primitives_out,
                fragment_shader_invocations: s.fragment_shader_invocations,
                vertex_invocations_per_pixel: per_pixel.vertex,
                fragment_invocations_per_pixel: per_pixel.fragment,
            };
            (s.label.clone(), record)
        })
        .collect()
}

/// One GPU scope of a frame in `stats.json` (see [`sierra_render::GpuScopeTiming`]).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GpuScopeRecord {
    /// Pass or dispatch (`"shadow"`, `"skinning"`, `"water steps"`, ...).
    pub label: String,
    /// Nesting depth, 0 at the top level.
    pub depth: u32,
    /// Start, milliseconds after the frame's first scope started.
    pub start_ms: f64,
    /// End, milliseconds after the frame's first scope started.
    pub end_ms: f64,
}

impl FrameRecord {
    /// Fills the GPU fields from `timings` (the frame's, from the renderer) of a
    /// `pixels`-pixel screen.
    pub fn set_gpu(&mut self, timings: &sierra_render::GpuFrameTimings, pixels: u64) {
        self.gpu_ms = Some(timings.gpu_ms());
        self.gpu_pass_ms = Some(timings.per_label_ms().into_iter().collect());
        self.gpu_scopes = Some(
            timings
                .scopes
                .iter()
                .map(|s| GpuScopeRecord {
                    label: s.label.clone(),
                    depth: s.depth,
                    start_ms: s.start_ms,
                    end_ms: s.end_ms,
                })
                .collect(),
        );
        self.gpu_pass_statistics = timings
            .pass_statistics
            .as_deref()
            .map(|s| pass_statistics_records(s, pixels));
    }
}

/// Invocations per screen pixel of one pass in the run's median frame (`stats.json`'s
/// `pass_invocations_median`): each value is the median over the frames that counted the pass
/// (the mean of the middle two for an even count), so vertex and fragment may come from
/// different frames.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq)]
pub struct MedianInvocations {
    /// Median vertex shader invocations per screen pixel.
    pub vertex_invocations_per_pixel: f64,
    /// Median fragment shader invocations per screen pixel.
    pub fragment_invocations_per_pixel: f64,
    /// Frames whose statistics counted this pass.
    pub frames: usize,
}

/// Per pass label, the median invocations per pixel over `records` (see
/// [`MedianInvocations`]); `None` when no frame has statistics (the adapter cannot count).
pub fn median_invocations(records: &[FrameRecord]) -> Option<BTreeMap<String, MedianInvocations>> {
    let mut samples: BTreeMap<String, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
    for stats in records
        .iter()
        .filter_map(|r| r.gpu_pass_statistics.as_ref())
    {
        for (label, s) in stats {
            let entry = samples.entry(label.clone()).or_default();
            entry.0.push(s.vertex_invocations_per_pixel);
            entry.1.push(s.fragment_invocations_per_pixel);
        }
    }
    if samples.is_empty() {
        return None;
    }
    let summary = samples
        .into_iter()
        .map(|(label, (mut vertex, mut fragment))| {
            let median = MedianInvocations {
                vertex_invocations_per_pixel: median(&mut vertex),
                fragment_invocations_per_pixel: median(&mut fragment),
                frames: fragment.len(),
            };
            (label, median)
        })
        .collect();
    Some(summary)
}

/// Median of `values` (sorted in place; the mean of the middle two for an even count; 0 when
/// empty).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => values[n / 2],
        _ => 0.5 * (values[n / 2 - 1] + values[n / 2]),
    }
}

/// `stats.json`: the run's settings and one record per frame.
#[derive(Clone, Debug, Serialize)]
pub struct RunStats {
    /// Level file.
    pub level: String,
    /// Adapter used (name, backend, type).
    pub adapter: String,
    /// Image width, pixels.
    pub width: u32,
    /// Image height, pixels.
    pub height: u32,
    /// Simulation ticks per second.
    pub tick_hz: f64,
    /// Start-up wall-clock milliseconds by stage (`level`, `gameplay`, `terrain_cpu`,
    /// `crowd_bakes`, `gpu_init`, `pipelines`, `mesh_upload`, `terrain_upload` (GPU generation
    /// and chunks), `water_upload`, `sky_upload`, `crowd_upload`, `environment` (the image-based
    /// lighting bake, waited for); a level without some part skips its stage) and their `total`.
    pub startup_ms: BTreeMap<String, f64>,
    /// Render and compute pipelines created by the start of the first frame (the whole load,
    /// the GPU context's count; every pass's cache warmed for each key the level can use).
    pub pipelines_at_load: u64,
    /// Shader modules created by the start of the first frame.
    pub shader_modules_at_load: u64,
    /// How many times the run waited on the GPU for timings: at most 1, the flush after the
    /// last frame (each frame's timings are read after its PNG read-back, without waiting).
    pub gpu_timing_waits: u64,
    /// Median and slowest frame (CPU wall-clock `cpu_ms`); `null` for a run of no frames.
    pub frame_times: Option<FrameTimeSummary>,
    /// Per render-pass label, the median frame's shader invocations per screen pixel
    /// ([`median_invocations`]); `null` where the adapter has no pipeline statistics.
    pub pass_invocations_median: Option<BTreeMap<String, MedianInvocations>>,
    /// Per-frame records.
    pub frames: Vec<FrameRecord>,
    /// CPU time per frame stage (profiler scopes: average, maximum, p95 in milliseconds);
    /// `null` when the run was not profiled.
    pub cpu_scopes: Option<sierra_profile::ScopeStats>,
    /// GPU memory held after the last frame, bytes per resource class.
    pub gpu_memory: GpuMemoryRecord,
}

/// GPU memory by resource class, bytes: Sierra's own accounting of the buffers and textures it
/// created and still holds (`sierra_render::memory`), written as `{"meshes": …, "textures": …,
/// "render_targets": …, "storage": …, "uniforms": …, "other": …, "total": …, "wgpu_allocated": …}`
/// (the last `null` where the backend has no allocator report).
#[derive(Clone, Debug, PartialEq)]
pub struct GpuMemoryRecord(pub sierra_render::GpuMemory);

impl From<&sierra_render::GpuMemory> for GpuMemoryRecord {
    fn from(m: &sierra_render::GpuMemory) -> Self {
        Self(m.clone())
    }
}

impl Serialize for GpuMemoryRecord {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        use sierra_render::MemoryClass;
        let mut map = serializer.serialize_map(Some(MemoryClass::ALL.len() + 2))?;
        for class in MemoryClass::ALL {
            map.serialize_entry(class.name(), &self.0.class(class))?;
        }
        map.serialize_entry("total", &self.0.total)?;
        map.serialize_entry("wgpu_allocated", &self.0.wgpu_allocated)?;
        map.end()
    }
}

/// The spread of a run's frame times, to spot stalls (one frame far slower than the rest).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct FrameTimeSummary {
    /// Median frame time, milliseconds (the mean of the middle two for an even count).
    pub median_ms: f64,
    /// Slowest frame time, milliseconds.
    pub slowest_ms: f64,
    /// Index of the slowest frame.
    pub slowest_frame: usize,
    /// `slowest_ms / median_ms`.
    pub slowest_to_median: f64,
}

impl FrameTimeSummary {
    /// The summary of `records`' `cpu_ms`; `None` when there are none.
    pub fn of(records: &[FrameRecord]) -> Option<Self> {
        let mut times: Vec<f64> = records.iter().map(|r| r.cpu_ms).collect();
        if times.is_empty() {
            return None;
        }
        let median_ms = median(&mut times);
        let slowest = records
            .iter()
            .max_by(|a, b| a.cpu_ms.total_cmp(&b.cpu_ms))?;
        Some(Self {
            median_ms,
            slowest_ms: slowest.cpu_ms,
            slowest_frame: slowest.frame,
            slowest_to_median: slowest.cpu_ms / median_ms.max(f64::MIN_POSITIVE),
        })
    }
}

/// Writes `stats` as pretty JSON.
///
/// # Errors
/// I/O errors, naming the file.
pub fn write_stats(stats: &RunStats, path: &Path) -> Result<()> {
    let json = serde_json::to_string_pretty(stats).context("serialising stats")?;
    sierra_assets::write_atomic(path, json.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contact_sheet_picks_evenly_spaced_frames_with_both_ends() {
        assert_eq!(contact_sheet_indices(3), vec![0, 1, 2]);
        let picked = contact_sheet_indices(100);
        assert_eq!(picked.len(), 16);
        assert_eq!((picked[0], picked[15]), (0, 99));
        let gaps: Vec<usize> = picked.windows(2).map(|w| w[1] - w[0]).collect();
        assert!(gaps.iter().all(|&g| g == 6 || g == 7), "{gaps:?}");
    }

    fn record(frame: usize, cpu_ms: f64) -> FrameRecord {
        FrameRecord {
            frame,
            tick: frame as u64,
            cpu_ms,
            gpu_ms: None,
            gpu_pass_ms: None,
            gpu_scopes: None,
            triangles: 0,
            draw_calls: 0,
            culled_draws: 0,
            pipelines_created: 0,
            shader_modules_created: 0,
            gpu_pass_statistics: None,
        }
    }

    #[test]
    fn frame_time_summary_finds_the_median_and_the_stall() {
        assert_eq!(FrameTimeSummary::of(&[]), None);
        let run: Vec<FrameRecord> = [10.0, 12.0, 500.0, 11.0]
            .into_iter()
            .enumerate()
            .map(|(i, ms)| record(i, ms))
            .collect();
        let summary = FrameTimeSummary::of(&run).unwrap();
        assert_eq!(summary.median_ms, 11.5);
        assert_eq!((summary.slowest_ms, summary.slowest_frame), (500.0, 2));
        assert!((summary.slowest_to_median - 500.0 / 11.5).abs() < 1e-12);
        assert_eq!(FrameTimeSummary::of(&run[..3]).unwrap().median_ms, 12.0);
    }

    #[test]
    fn median_invocations_per_pass_over_the_frames_that_counted() {
        use sierra_render::pipeline_statistics::PassStatistics;
        let counted = |label: &str, vertex, fragment| PassStatistics {
            label: label.to_owned(),
            vertex_shader_invocations: vertex,
            fragment_shader_invocations: fragment,
            ..PassStatistics::default()
        };
        // A 10 x 10 screen: 100 pixels. The shadow pass runs in frames 0..3 only.
        let frames = [
            vec![counted("forward", 100, 300), counted("shadow", 50, 1_000)],
            vec![counted("forward", 200, 100)],
            vec![counted("forward", 400, 200), counted("shadow", 150, 3_000)],
        ];
        let mut run: Vec<FrameRecord> = (0..4).map(|i| record(i, 1.0)).collect();
        for (r, stats) in run.iter_mut().zip(&frames) {
            r.gpu_pass_statistics = Some(pass_statistics_records(stats, 100));
        }
        // Frame 3 has no statistics (not counted), so it does not drag the medians to 0.
        let medians = median_invocations(&run).unwrap();
        let forward = medians["forward"];
        assert_eq!(forward.frames, 3);
        assert_eq!(forward.vertex_invocations_per_pixel, 2.0);
        assert_eq!(forward.fragment_invocations_per_pixel, 2.0);
        let shadow = medians["shadow"];
        assert_eq!(shadow.frames, 2);
        assert_eq!(shadow.vertex_invocations_per_pixel, 1.0);
        assert_eq!(shadow.fragment_invocations_per_pixel, 20.0);
        // A run whose adapter never counted has no medians at all.
        assert_eq!(median_invocations(&run[3..]), None);
    }

    #[test]
    fn contact_sheet_grid_holds_every_thumbnail() {
        let frames: Vec<RgbaImage> = (0..5)
            .map(|i| RgbaImage::from_pixel(10, 8, image::Rgba([i * 40, 0, 0, 255])))
            .collect();
        let sheet = contact_sheet(&frames);
        // 5 frames → 3 columns × 2 rows of 10×8 with 2-pixel gaps.
        assert_eq!(sheet.dimensions(), (3 * 12 + 2, 2 * 10 + 2));
        assert_eq!(sheet.get_pixel(2 + 12 + 5, 2 + 4).0, [40, 0, 0, 255]);
        assert_eq!(sheet.get_pixel(2 + 12 + 5, 2 + 10 + 4).0, [160, 0, 0, 255]);
    }
}
