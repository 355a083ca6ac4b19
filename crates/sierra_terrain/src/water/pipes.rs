//! The virtual-pipes update: outflow flux, then water depth (Mei, Decaudin & Hu,
//! "Fast Hydraulic Erosion Simulation and Visualization on GPU", PG 2007, §3.1 and §3.2;
//! pipes as in O'Brien & Hodgins 1995).
//!
//! Per cell and pipe (left, right, top, bottom), with `h = terrain + depth`:
//! ```text
//! f_L' = max(0, f_L * damp + dt * A * g * (h(x,y) - h(x-1,y)) / l)        (Mei eq. 2)
//! K    = min(1, d * lx * ly / ((f_L' + f_R' + f_T' + f_B') * dt))            (Mei eq. 3)
//! f'   = K * f'                                     (never drain more than the cell holds)
//! d'   = d + dt * (sum f_in - sum f_out) / (lx * ly)                          (Mei eq. 4-5)
//! ```
//! This is Mei's 4-pipe flux, not the 8-pipe columns of the thesis (seed 002, Annex E): the
//! scaling factor K needs it, and it is the model the GPU compute pass runs too.
//!
//! The grid is processed in contiguous bands of rows, a few per thread (`grid::band_rows`), so
//! each thread streams its own part of every array. A band runs the flux update one row ahead of the depth
//! update, so the three flux rows a depth row needs are still in cache (one pass over memory
//! instead of two). The flux rows just above and below a band belong to its neighbours; the band
//! recomputes them into scratch (the same "halo" trade the thesis makes with its 18x18 tiles: a
//! few repeated flux computations instead of a second pass). Every cell's arithmetic is the same
//! whatever the banding, so any number of threads gives the same bits.
//!
//! The band loop is compiled three times and chosen at run time ([`SimdPath::detect`]):
//! AVX-512F, AVX2 and the build target's baseline (SSE2 on x86-64). Only the vector width
//! differs: no fused multiply-add, the same operations in the same order per cell, so every
//! kernel gives the same bits (tested).

use super::params::Boundary;
use crate::simd::SimdPath;

/// Step constants shared by every row.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StepConsts {
    pub cols: usize,
    pub rows: usize,
    /// `dt * A * g / l`, m²·s... the factor of a height difference in the flux update.
    pub gravity_coef: f32,
    /// `max(0, 1 - damping * dt)`.
    pub damp: f32,
    /// Time step, seconds.
    pub dt: f32,
    /// `cell_size²`, m².
    pub cell_area: f32,
    /// `dt / cell_size²`.
    pub dt_over_area: f32,
    /// Rain this step, metres (`rain_rate * dt`).
    pub rain_dt: f32,
    pub boundary: Boundary,
    /// The compiled version of the band loop that runs.
    pub kernel: SimdPath,
}

/// Read-only outflow flux channels, `[rows * cols]` row-major, m³/s.
#[derive(Clone, Copy)]
pub(crate) struct FluxRef<'a> {
    pub left: &'a [f32],
    pub right: &'a [f32],
    pub top: &'a [f32],
    pub bottom: &'a [f32],
}

/// Per-band scratch, allocated once per simulation.
#[derive(Debug, Clone, Default)]
pub(crate) struct BandScratch {
    /// Total heights of rows r-1, r, r+1, each padded with a ghost cell at both ends.
    h: [Vec<f32>; 3],
    /// Flux of the row above the band (left, right, top, bottom).
    above: [Vec<f32>; 4],
    /// Flux of the row below the band.
    below: [Vec<f32>; 4],
    zeros: Vec<f32>,
}

impl BandScratch {
    pub(crate) fn new(cols: usize) -> Self {
        let row = || vec![0.0; cols];
        Self {
            h: [
                vec![0.0; cols + 2],
                vec![0.0; cols + 2],
                vec![0.0; cols + 2],
            ],
            above: [row(), row(), row(), row()],
            below: [row(), row(), row(), row()],
            zeros: row(),
        }
    }
}

/// What a band reports back (the volume that left through open edges is written per row, so
/// that its sum does not depend on the banding).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct BandStats {
    /// Largest new depth in the band, metres.
    pub max_depth: f32,
}

impl BandStats {
    pub(crate) fn merge(a: Self, b: Self) -> Self {
        Self {
            max_depth: a.max_depth.max(b.max_depth),
        }
    }
}

/// Writes the padded total-height row `y` (`-1` and `rows` are ghost rows).
///
/// Ghosts make the flux loop branch-free: a closed edge is a neighbour of infinite height
/// (its flux `max(0, f - inf)` is exactly 0); an open edge is a dry neighbour on the same ground.
#[inline(always)]
fn fill_heights(c: &StepConsts, terrain: &[f32], depth: &[f32], y: isize, out: &mut [f32]) {
    let cols = c.cols;
    let open = c.boundary == Boundary::Open;
    if y < 0 || y >= c.rows as isize {
        if open {
            let edge = if y < 0 { 0 } else { c.rows - 1 };
            out[1..cols + 1].copy_from_slice(&terrain[edge * cols..(edge + 1) * cols]);
        } else {
            out[1..cols + 1].fill(f32::INFINITY);
        }
        out[0] = f32::INFINITY;
        out[cols + 1] = f32::INFINITY;
        return;
    }
    let row = y as usize * cols..(y as usize + 1) * cols;
    let (b, d) = (&terrain[row.clone()], &depth[row]);
    for ((o, &b), &d) in out[1..cols + 1].iter_mut().zip(b).zip(d) {
        *o = b + d;
    }
    let (left, right) = if open {
        (b[0], b[cols - 1])
    } else {
        (f32::INFINITY, f32::INFINITY)
    };
    out[0] = left;
    out[cols + 1] = right;
}

/// Flux update of one row (Mei eq. 2-3). `hu`, `hm`, `hd`: padded heights of the rows above,
/// at and below; `d`: depths of the row; `old`/`out`: flux channels left, right, top, bottom.
#[inline(always)]
fn flux_row(
    c: &StepConsts,
    [hu, hm, hd]: [&[f32]; 3],
    d: &[f32],
    old: [&[f32]; 4],
    out: [&mut [f32]; 4],
) {
    let n = d.len();
    let (hl, hc, hr) = (&hm[..n], &hm[1..n + 1], &hm[2..n + 2]);
    let (hu, hd) = (&hu[1..n + 1], &hd[1..n + 1]);
    let [ol, or, ot, ob] = old.map(|s| &s[..n]);
    let [l, r, t, b] = out;
    let (l, r, t, b) = (&mut l[..n], &mut r[..n], &mut t[..n], &mut b[..n]);
    let (g, damp, dt, area) = (c.gravity_coef, c.damp, c.dt, c.cell_area);
    for x in 0..n {
        let h = hc[x];
        let fl = pos(ol[x] * damp + g * (h - hl[x]));
        let fr = pos(or[x] * damp + g * (h - hr[x]));
        let ft = pos(ot[x] * damp + g * (h - hu[x]));
        let fb = pos(ob[x] * damp + g * (h - hd[x]));
        let out_volume = (((fl + fr) + ft) + fb) * dt;
        let held = d[x] * area;
        let k = if out_volume > held {
            held / out_volume
        } else {
            1.0
        };
        l[x] = fl * k;
        r[x] = fr * k;
        t[x] = ft * k;
        b[x] = fb * k;
    }
}

/// `max(v, 0)` as a plain compare-select (vectorises to one `maxps`; `-inf` from a closed
/// edge gives 0).
#[inline(always)]
fn pos(v: f32) -> f32 {
    if v > 0.0 {
        v
    } else {
        0.0
    }
}

/// Depth update of one row (Mei eq. 4-5) from the new flux of rows above (`b_up` = their
/// bottom pipes), at (`own`) and below (`t_down` = their top pipes). Returns the row's max depth.
#[inline(always)]
fn depth_row(
    c: &StepConsts,
    d: &[f32],
    own: [&[f32]; 4],
    b_up: &[f32],
    t_down: &[f32],
    out: &mut [f32],
) -> f32 {
    let n = d.len();
    let [l, r, t, b] = own.map(|s| &s[..n]);
    let (b_up, t_down, out) = (&b_up[..n], &t_down[..n], &mut out[..n]);
    let (k, rain) = (c.dt_over_area, c.rain_dt);
    let cell = |x: usize, from_left: f32, from_right: f32| {
        depth_cell(
            d[x],
            [l[x], r[x], t[x], b[x]],
            [from_left, from_right, b_up[x], t_down[x]],
            k,
            rain,
        )
    };
    if n == 1 {
        out[0] = cell(0, 0.0, 0.0);
        return out[0];
    }
    out[0] = cell(0, 0.0, l[1]);
    out[n - 1] = cell(n - 1, r[n - 2], 0.0);
    let max = out[0].max(out[n - 1]);
    // Interior: x = i + 1, written over equal-length slices so the loop vectorises.
    let m = n - 2;
    let (dl, ll, rl, tl, bl) = (
        &d[1..n - 1],
        &l[1..n - 1],
        &r[1..n - 1],
        &t[1..n - 1],
        &b[1..n - 1],
    );
    let (from_left, from_right) = (&r[..m], &l[2..]);
    let (up, down, o) = (&b_up[1..n - 1], &t_down[1..n - 1], &mut out[1..n - 1]);
    for i in 0..m {
        o[i] = depth_cell(
            dl[i],
            [ll[i], rl[i], tl[i], bl[i]],
            [from_left[i], from_right[i], up[i], down[i]],
            k,
            rain,
        );
    }
    lane_max(o, max)
}

/// The largest of `max` and `values`, kept in 16 lane accumulators so that the loop
/// vectorises (a running `if v > max` made the whole depth loop scalar: half the step's time).
/// A maximum does not depend on the order it is taken in, so the value is the same.
#[inline(always)]
fn lane_max(values: &[f32], max: f32) -> f32 {
    let mut lanes = [max; 16];
    let chunks = values.chunks_exact(16);
    let rest = chunks.remainder();
    for chunk in chunks {
        for (m, &v) in lanes.iter_mut().zip(chunk) {
            *m = if v > *m { v } else { *m };
        }
    }
    rest.iter()
        .chain(&lanes)
        .fold(max, |m, &v| if v > m { v } else { m })
}

/// Mei eq. 4-5 for one cell: `own` outflow (l, r, t, b) and inflow (from left, right, top,
/// bottom neighbours), summed in a fixed order the GPU shader repeats.
#[inline(always)]
fn depth_cell(d: f32, own: [f32; 4], inflow: [f32; 4], dt_over_area: f32, rain: f32) -> f32 {
    let outflow = ((own[0] + own[1]) + own[2]) + own[3];
    let inflow = ((inflow[0] + inflow[1]) + inflow[2]) + inflow[3];
    let v = d + (inflow - outflow) * dt_over_area + rain;
    if v > 0.0 {
        v
    } else {
        0.0
    }
}

/// One step for the band of rows starting at `y0` whose new depth and flux slices are
/// `new_depth` and `new_flux` (`band_rows * cols` each). Reads the whole old state. Writes the
/// volume that left through open edges, m³, per row of the band into `row_outflow`. Runs
/// `c.kernel`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn step_band(
    c: &StepConsts,
    terrain: &[f32],
    depth: &[f32],
    old: FluxRef<'_>,
    y0: usize,
    new_depth: &mut [f32],
    new_flux: [&mut [f32]; 4],
    s: &mut BandScratch,
    row_outflow: &mut [f64],
) -> BandStats {
    let args = (terrain, depth, old, y0, new_depth, new_flux, s, row_outflow);
    match c.kernel {
        // SAFETY: `SimdPath::detect` picks these only where the CPU has the feature (and the
        // tests force them only after checking).
        #[cfg(target_arch = "x86_64")]
        SimdPath::Avx2 => unsafe { step_band_avx2(c, args) },
        #[cfg(target_arch = "x86_64")]
        SimdPath::Avx512 => unsafe { step_band_avx512(c, args) },
        _ => step_band_impl(c, args),
    }
}

/// `step_band`'s inputs after the constants.
type BandArgs<'a, 'b> = (
    &'a [f32],
    &'a [f32],
    FluxRef<'a>,
    usize,
    &'b mut [f32],
    [&'b mut [f32]; 4],
    &'b mut BandScratch,
    &'b mut [f64],
);

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn step_band_avx2(c: &StepConsts, args: BandArgs<'_, '_>) -> BandStats {
    step_band_impl(c, args)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn step_band_avx512(c: &StepConsts, args: BandArgs<'_, '_>) -> BandStats {
    step_band_impl(c, args)
}

#[inline(always)]
fn step_band_impl(c: &StepConsts, args: BandArgs<'_, '_>) -> BandStats {
    let (terrain, depth, old, y0, new_depth, new_flux, s, row_outflow) = args;
    let cols = c.cols;
    let y1 = y0 + new_depth.len() / cols;
    let [nl, nr, nt, nb] = new_flux;
    let first = y0.saturating_sub(1);
    let last = (y1 + 1).min(c.rows);
    let mut stats = BandStats::default();

    fill_heights(c, terrain, depth, first as isize - 1, &mut s.h[1]);
    fill_heights(c, terrain, depth, first as isize, &mut s.h[2]);
    for y in first..last {
        s.h.rotate_left(1);
        fill_heights(c, terrain, depth, y as isize + 1, &mut s.h[2]);
        let row = y * cols..(y + 1) * cols;
        let old_row = [
            &old.left[row.clone()],
            &old.right[row.clone()],
            &old.top[row.clone()],
            &old.bottom[row.clone()],
        ];
        let heights = [&s.h[0][..], &s.h[1][..], &s.h[2][..]];
        if y < y0 || y >= y1 {
            let [a, b, cc, d] = if y < y0 { &mut s.above } else { &mut s.below };
            flux_row(c, heights, &depth[row], old_row, [a, b, cc, d]);
        } else {
            let local = (y - y0) * cols..(y - y0 + 1) * cols;
            let out = [
                &mut nl[local.clone()],
                &mut nr[local.clone()],
                &mut nt[local.clone()],
                &mut nb[local.clone()],
            ];
            flux_row(c, heights, &depth[row], old_row, out);
            row_outflow[y - y0] = edge_outflow(
                c,
                y,
                [
                    &nl[local.clone()],
                    &nr[local.clone()],
                    &nt[local.clone()],
                    &nb[local],
                ],
            );
        }
        // The flux of row y completes the inputs of depth row y - 1.
        if y > y0 && y - 1 < y1 {
            let m = band_depth_row(
                c,
                depth,
                y0,
                y1,
                y - 1,
                [&*nl, &*nr, &*nt, &*nb],
                s,
                new_depth,
            );
            stats.max_depth = stats.max_depth.max(m);
        }
    }
    if y1 == c.rows {
        let m = band_depth_row(
            c,
            depth,
            y0,
            y1,
            y1 - 1,
            [&*nl, &*nr, &*nt, &*nb],
            s,
            new_depth,
        );
        stats.max_depth = stats.max_depth.max(m);
    }
    stats
}

/// Volume per second leaving the grid through the edges of row `y` (zero when closed).
fn edge_outflow(c: &StepConsts, y: usize, [l, r, t, b]: [&[f32]; 4]) -> f64 {
    if c.boundary == Boundary::Closed {
        return 0.0;
    }
    let mut per_second = f64::from(l[0]) + f64::from(r[c.cols - 1]);
    if y == 0 {
        per_second += t.iter().map(|&v| f64::from(v)).sum::<f64>();
    }
    if y == c.rows - 1 {
        per_second += b.iter().map(|&v| f64::from(v)).sum::<f64>();
    }
    per_second * f64::from(c.dt)
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn band_depth_row(
    c: &StepConsts,
    depth: &[f32],
    y0: usize,
    y1: usize,
    y: usize,
    band_flux: [&[f32]; 4],
    s: &BandScratch,
    new_depth: &mut [f32],
) -> f32 {
    let cols = c.cols;
    let local = |yy: usize| (yy - y0) * cols..(yy - y0 + 1) * cols;
    let [bl, br, bt, bb] = band_flux;
    let own = [&bl[local(y)], &br[local(y)], &bt[local(y)], &bb[local(y)]];
    let b_up: &[f32] = if y == 0 {
        &s.zeros
    } else if y - 1 < y0 {
        &s.above[3]
    } else {
        &bb[local(y - 1)]
    };
    let t_down: &[f32] = if y + 1 == c.rows {
        &s.zeros
    } else if y + 1 >= y1 {
        &s.below[2]
    } else {
        &bt[local(y + 1)]
    };
    depth_row(
        c,
        &depth[y * cols..(y + 1) * cols],
        own,
        b_up,
        t_down,
        &mut new_depth[local(y)],
    )
}
