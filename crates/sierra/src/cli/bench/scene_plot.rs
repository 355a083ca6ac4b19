//! The plots of `sierra bench scene` (`plotters`, bitmap backend, drawn in memory and written
//! with `image`): the frame time per frame, and the backends side by side.

use std::path::Path;

use anyhow::{Context, Result};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::scene_run::{backend_name, lookup, union, BackendRun, Summary, STAGES};

/// Plot size, pixels.
pub const PLOT_SIZE: (u32, u32) = (800, 400);

/// One line of the per-frame plot.
pub struct Line {
    /// Legend text.
    pub label: String,
    /// `(frame, ms)` points.
    pub points: Vec<(u64, f64)>,
    /// Line colour.
    pub colour: RGBColor,
}

type DrawResult = std::result::Result<(), Box<dyn std::error::Error>>;

/// Draws `draw` into a [`PLOT_SIZE`] white bitmap and writes it to `path` as PNG.
///
/// # Errors
/// Font, drawing and writing errors, naming `path`.
fn draw_png(
    path: &Path,
    draw: impl FnOnce(&DrawingArea<BitMapBackend<'_>, Shift>) -> DrawResult,
) -> Result<()> {
    // plotters draws text with ab_glyph from a registered font (no system fonts needed).
    plotters::style::register_font(
        "sans-serif",
        FontStyle::Normal,
        epaint_default_fonts::UBUNTU_LIGHT,
    )
    .map_err(|_| anyhow::anyhow!("the plot's font does not load"))?;
    let mut pixels = vec![0u8; (PLOT_SIZE.0 * PLOT_SIZE.1 * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, PLOT_SIZE).into_drawing_area();
        root.fill(&WHITE)
            .map_err(|e| anyhow::anyhow!("drawing the plot {}: {e}", path.display()))?;
        draw(&root)
            .and_then(|()| Ok(root.present()?))
            .map_err(|e| anyhow::anyhow!("drawing the plot {}: {e}", path.display()))?;
    }
    // plotters' own file output needs its `image` feature.
    let image =
        image::RgbImage::from_raw(PLOT_SIZE.0, PLOT_SIZE.1, pixels).context("plot buffer size")?;
    crate::output::write_image(&image, path).context("writing the plot")
}

/// Colour of line `i` of a single run's plot: black for the whole frame, then one per stage.
pub fn line_colour(i: usize) -> RGBColor {
    const COLOURS: [RGBColor; 6] = [BLACK, RED, BLUE, GREEN, MAGENTA, RGBColor(0, 150, 150)];
    COLOURS[i % COLOURS.len()]
}

/// Frame time per frame, one line each: x in frames, y in milliseconds, a legend naming them.
///
/// # Errors
/// Drawing and writing errors, naming `path`.
pub fn plot_frames(path: &Path, lines: &[Line]) -> Result<()> {
    let frames = lines
        .iter()
        .map(|l| l.points.len())
        .max()
        .unwrap_or(1)
        .max(1);
    let max_ms = lines
        .iter()
        .flat_map(|l| l.points.iter().map(|&(_, ms)| ms))
        .fold(1.0, f64::max)
        * 1.1;
    draw_png(path, |root| {
        let mut chart = ChartBuilder::on(root)
            .caption("bench scene: CPU time per frame", ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(0..frames, 0.0..max_ms)?;
        chart
            .configure_mesh()
            .x_desc("frame")
            .y_desc("time (ms)")
            .light_line_style(RGBColor(235, 235, 235))
            .draw()?;
        for line in lines {
            let c = line.colour;
            // Frame indices count from the profiler's first frame, which is the run's first.
            chart
                .draw_series(LineSeries::new(
                    line.points.iter().map(|&(f, ms)| (f as usize, ms)),
                    &c,
                ))?
                .label(line.label.as_str())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], c));
        }
        draw_legend(&mut chart, SeriesLabelPosition::UpperRight)
    })
}

/// Rows of one panel of the comparison: a label and each run's value, ms (`None`: not run).
type Rows = Vec<(String, Vec<Option<f64>>)>;

/// The start-up stages (and total) and the per-frame stages (mean wall frame, CPU stages and
/// GPU total), each run's value.
fn comparison_rows(runs: &[BackendRun]) -> (Rows, Rows) {
    let startup = union(runs.iter().map(|r| r.startup_ms.iter().map(|(s, _)| s)))
        .into_iter()
        .map(|stage| {
            let values = runs.iter().map(|r| lookup(&r.startup_ms, stage)).collect();
            (stage.clone(), values)
        })
        .collect();
    let mut frame: Rows = vec![(
        "frame (wall)".to_owned(),
        runs.iter()
            .map(|r| Some(Summary::of(&r.frame_ms).mean))
            .collect(),
    )];
    for (i, stage) in STAGES.iter().enumerate() {
        frame.push((
            format!("cpu {stage}"),
            runs.iter().map(|r| Some(r.stage_means()[i].1)).collect(),
        ));
    }
    frame.push((
        "gpu total".to_owned(),
        runs.iter()
            .map(|r| {
                r.passes
                    .iter()
                    .find(|(l, _)| l == "total")
                    .map(|(_, v)| Summary::of(v).mean)
            })
            .collect(),
    ));
    (startup, frame)
}

/// One horizontal bar chart: a row per label, a bar per run (colour per backend).
fn draw_panel(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    title: &str,
    rows: &Rows,
    runs: &[BackendRun],
) -> DrawResult {
    let max = rows
        .iter()
        .flat_map(|(_, v)| v.iter().flatten().copied())
        .fold(1e-3, f64::max)
        * 1.15;
    // One segment per bar: row `i`'s bar for run `k` is segment `i · runs + k`; the row's
    // label sits on its first bar.
    let per_row = runs.len().max(1);
    let segments = (rows.len() * per_row).max(1);
    let labels: Vec<String> = rows.iter().map(|(l, _)| l.clone()).collect();
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 16))
        .margin(8)
        .x_label_area_size(32)
        .y_label_area_size(120)
        .build_cartesian_2d(0.0..max, (0..segments).into_segmented())?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_desc("time (ms)")
        .x_labels(6)
        .x_label_formatter(&|ms| format!("{ms:.0}"))
        .y_labels(segments)
        .y_label_formatter(&|y| match y {
            SegmentValue::CenterOf(s) if s % per_row == per_row - 1 => labels
                .get(labels.len() - 1 - s / per_row)
                .cloned()
                .unwrap_or_default(),
            _ => String::new(),
        })
        .light_line_style(RGBColor(235, 235, 235))
        .draw()?;
    for (k, run) in runs.iter().enumerate() {
        let c = bar_colour(k);
        let bars = rows.iter().enumerate().filter_map(|(i, (_, values))| {
            let v = values.get(k).copied().flatten()?;
            // Segment 0 is at the bottom: the first row goes on top.
            let s = (rows.len() - 1 - i) * per_row + (per_row - 1 - k);
            let mut bar = Rectangle::new(
                [
                    (0.0, SegmentValue::Exact(s)),
                    (v, SegmentValue::Exact(s + 1)),
                ],
                c.filled(),
            );
            bar.set_margin(1, 1, 0, 0);
            Some(bar)
        });
        chart
            .draw_series(bars)?
            .label(backend_name(run.backend))
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], c.filled()));
    }
    draw_legend(&mut chart, SeriesLabelPosition::MiddleRight)
}

/// Draws the legend of `chart`'s labelled series at `position`, boxed in black on a
/// translucent white background.
fn draw_legend<'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, BitMapBackend<'a>, CT>,
    position: SeriesLabelPosition,
) -> DrawResult {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

/// Colour of backend `k`'s bars and lines.
pub fn bar_colour(k: usize) -> RGBColor {
    [RGBColor(60, 110, 200), RGBColor(230, 140, 0)][k % 2]
}

/// The runs side by side: start-up time by stage (left) and mean frame time by stage (right),
/// in ms, one bar per backend, a legend naming them.
///
/// # Errors
/// Drawing and writing errors, naming `path`.
pub fn plot_comparison(path: &Path, runs: &[BackendRun]) -> Result<()> {
    let (startup, frame) = comparison_rows(runs);
    draw_png(path, |root| {
        let (left, right) = root.split_horizontally(PLOT_SIZE.0 / 2);
        draw_panel(&left, "start-up by stage", &startup, runs)?;
        draw_panel(&right, "mean frame time by stage", &frame, runs)?;
        Ok(())
    })
}
