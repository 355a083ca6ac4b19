//! The propagation pass over the dense, parent-first arrays: only the slot ranges that can
//! hold a dirty node are touched, and each range is processed in chunks of [`CHUNK`] slots in
//! two phases:
//!
//! 1. **Local columns, across slots**: the rotation-scale columns `R(q) · diag(s)` of every
//!    slot in the chunk, from the structure-of-arrays local transforms, in a loop the compiler
//!    vectorises over slots. No dependencies between slots.
//! 2. **World matrices, slot by slot**: `world[i] = world[parent[i]] · local[i]` as an affine
//!    3×4 product (three column products plus the translation), with the parent's world kept in
//!    registers when the parent is the previous slot (chains), so the dependent chain does not
//!    wait on a store-to-load round trip.
//!
//! Both phases use exactly the operations, in the order, of glam's
//! `Affine3A::from_scale_rotation_translation` and `Affine3A * Affine3A` (no fused
//! multiply-add), so every dispatch path (AVX-512, AVX2, portable) gives the same bits as the
//! per-node reference `world[parent] * local.to_affine()`.
//!
//! On AVX-512 machines a range that is one whole subtree (every slot recomputed, none driven)
//! takes [`super::subtree_avx512`] instead: no per-slot test, one 512-bit product per slot.
//!
//! Dirty ranges: each slot knows `span_end`, an exclusive upper bound of its descendants'
//! slots (parents come first, so a subtree lies in `slot..span_end[slot]`, possibly
//! interleaved with other nodes). The ranges of the flagged slots are merged, and nothing
//! outside them is read or written.

use std::ops::Range;

use glam::{Affine3A, Mat3A, Vec3A};

use super::locals::LocalSoa;
use super::slots::{
    PassArrays, PropagationStats, World, DRIVEN, LOCAL_DIRTY, NO_PARENT, WORLD_WRITTEN,
};

/// Slots per chunk: the phase-1 scratch (9 × 64 floats, 2.3 KiB) stays in L1.
const CHUNK: usize = 64;

/// Which compiled version of the pass runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// Plain code for the build target (SSE2 on x86-64).
    Portable,
    /// AVX2 (VEX encoding, 8-lane phase 1, broadcast loads in phase 2).
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// AVX-512 F + VL: as AVX2, with 32 vector registers, so a parent's matrix and the
    /// broadcast columns stay in registers along a chain (no spills); whole-subtree ranges
    /// take `subtree_avx512`.
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Kernel {
    /// The best kernel this CPU runs (detected at run time).
    pub(crate) fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("avx512f") && has!("avx512vl") {
                return Kernel::Avx512;
            }
            if has!("avx2") {
                return Kernel::Avx2;
            }
        }
        Kernel::Portable
    }

    /// Every kernel this CPU runs, portable first, less those `SIERRA_TEST_WITHOUT_SIMD`
    /// hides; each one left out is a `cpu-simd` skip (`sierra_testkit::skip::simd_paths`,
    /// which also prints the kernels compared).
    #[cfg(test)]
    pub(crate) fn available() -> Vec<Self> {
        let mut all = vec![Kernel::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            all.extend(sierra_testkit::skip::simd_paths([
                (Kernel::Avx2, "avx2", has!("avx2")),
                (
                    Kernel::Avx512,
                    "avx512",
                    has!("avx512f") && has!("avx512vl"),
                ),
            ]));
        }
        all
    }
}

/// Runs the pass over the merged ranges of the slots in `dirty` (sorted here, then cleared).
pub(crate) fn run(
    kernel: Kernel,
    dirty: &mut Vec<u32>,
    epoch: u32,
    a: &mut PassArrays<'_>,
) -> PropagationStats {
    dirty.sort_unstable();
    let mut stats = PropagationStats::default();
    let mut cols = [[0.0f32; CHUNK]; 9];
    let mut k = 0;
    // Ranges are computed `LOOKAHEAD` ahead of the one processed, and prefetched then (in a
    // graph larger than a core's L2; in a smaller one the prefetches are only extra work).
    let prefetch = a.parents.len() >= PREFETCH_ABOVE_SLOTS;
    let mut ahead: [Option<Range<usize>>; LOOKAHEAD] = Default::default();
    for r in &mut ahead {
        *r = merged_range(dirty, &mut k, a.span_end);
        if let (Some(r), true) = (&r, prefetch) {
            prefetch_range(r, a);
        }
    }
    while let Some(slots) = ahead[0].take() {
        ahead.rotate_left(1);
        let last = merged_range(dirty, &mut k, a.span_end);
        if let (Some(r), true) = (&last, prefetch) {
            prefetch_range(r, a);
        }
        ahead[LOOKAHEAD - 1] = last;
        stats.visited += slots.len();
        stats.recomputed += range(kernel, slots, epoch, a, &mut cols);
    }
    dirty.clear();
    stats
}

/// How many dirty ranges ahead of the one being computed are prefetched (one range of a
/// 68-node rig takes ~300 ns, a few DRAM latencies).
const LOOKAHEAD: usize = 2;

/// Graph size (slots) from which the pass prefetches: ~120 bytes per slot (local transform,
/// world, parent, stamp, flags) put 32k slots at ~4 MB, well past a core's 1 MiB L2. Below it
/// the 250-rig bench (17k slots) ran 10 % slower with prefetches than without.
const PREFETCH_ABOVE_SLOTS: usize = 1 << 15;

/// Slots of the next range whose data [`prefetch_range`] requests: a rig-sized range is
/// covered whole; a longer one is streamed well by the hardware prefetcher after its start.
const PREFETCH_SLOTS: usize = 2 * CHUNK;

/// Asks the caches for the first slots of the next dirty range while the current one is
/// computed. Dirty ranges are short runs with gaps (e.g. every second rig of 68 nodes), which
/// the hardware stream prefetchers of the 14 arrays the pass reads never learn: without this
/// the 4,000-rig bench ran at ~2.5× its cache-resident time per node.
#[inline(always)]
fn prefetch_range(slots: &Range<usize>, a: &PassArrays<'_>) {
    #[cfg(target_arch = "x86_64")]
    {
        let end = slots.end.min(slots.start + PREFETCH_SLOTS);
        let r = slots.start..end;
        let l = a.locals;
        for column in [
            &l.tx, &l.ty, &l.tz, &l.qx, &l.qy, &l.qz, &l.qw, &l.sx, &l.sy, &l.sz,
        ] {
            prefetch_lines::<false, _>(&column[r.clone()]);
        }
        prefetch_lines::<false, _>(&a.parents[r.clone()]);
        // What the pass writes is asked for with the intent to write (`prefetchw`), so that
        // the stores find their lines owned rather than shared.
        prefetch_lines::<true, _>(&a.changed[r.clone()]);
        prefetch_lines::<true, _>(&a.flags[r.clone()]);
        prefetch_lines::<true, _>(&a.worlds[r]);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slots, a);
}

/// One prefetch per 64-byte line of `s`, for writing (`prefetchw`) when `WRITE`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn prefetch_lines<const WRITE: bool, T>(s: &[T]) {
    use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
    let p = s.as_ptr().cast::<i8>();
    // From the line holding the first byte to the line holding the last one.
    let (first, bytes) = (p as usize % 64, std::mem::size_of_val(s));
    let mut off = 0;
    while off < first + bytes {
        let line = p.wrapping_sub(first).wrapping_add(off);
        if WRITE {
            // SAFETY: `line` lies in a line `s` touches; prefetches never fault, and
            // `prefetchw` (0F 0D /1) runs on every x86-64 CPU this pass targets (AMD since K6,
            // Intel since Broadwell; a no-op hint on older ones).
            unsafe {
                std::arch::asm!("prefetchw [{0}]", in(reg) line, options(nostack, preserves_flags, readonly))
            };
        } else {
            // SAFETY: as above.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line) };
        }
        off += 64;
    }
}

/// The union of the spans of the sorted dirty slots from `dirty[*k]` on that overlap the
/// first one; advances `k` past them.
fn merged_range(dirty: &[u32], k: &mut usize, span_end: &[u32]) -> Option<Range<usize>> {
    let start = *dirty.get(*k)? as usize;
    let mut end = span_end[start] as usize;
    *k += 1;
    while *k < dirty.len() && (dirty[*k] as usize) < end {
        end = end.max(span_end[dirty[*k] as usize] as usize);
        *k += 1;
    }
    Some(start..end)
}

/// Phase-1 output: `cols[3 * c + r][k]` is row `r` of column `c` of slot `base + k`'s
/// rotation-scale matrix.
type Columns = [[f32; CHUNK]; 9];

fn range(
    kernel: Kernel,
    slots: Range<usize>,
    epoch: u32,
    a: &mut PassArrays<'_>,
    cols: &mut Columns,
) -> usize {
    match kernel {
        Kernel::Portable => range_generic(slots, epoch, a, cols),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Kernel::Avx2` is only chosen after `is_x86_feature_detected!("avx2")`
        // (see `Kernel::detect` and the tests, which check before forcing it).
        Kernel::Avx2 => unsafe { range_avx2(slots, epoch, a, cols) },
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => {
            if super::subtree_avx512::is_whole_subtree(&slots, a.parents, a.flags) {
                // SAFETY: as above, after detecting avx512f and avx512vl; the range was
                // checked to be one whole subtree.
                unsafe { super::subtree_avx512::range(slots, epoch, a) }
            } else {
                // SAFETY: as above, after detecting avx512f and avx512vl.
                unsafe { range_avx512(slots, epoch, a, cols) }
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
unsafe fn range_avx512(
    slots: Range<usize>,
    epoch: u32,
    a: &mut PassArrays<'_>,
    cols: &mut Columns,
) -> usize {
    range_generic(slots, epoch, a, cols)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn range_avx2(
    slots: Range<usize>,
    epoch: u32,
    a: &mut PassArrays<'_>,
    cols: &mut Columns,
) -> usize {
    range_generic(slots, epoch, a, cols)
}

/// The slots of one merged range, chunk by chunk; returns how many world matrices were
/// recomputed.
#[inline(always)]
fn range_generic(
    slots: Range<usize>,
    epoch: u32,
    a: &mut PassArrays<'_>,
    cols: &mut Columns,
) -> usize {
    let mut recomputed = 0;
    let mut prev = Prev {
        slot: NO_PARENT,
        world: Affine3A::IDENTITY,
    };
    let mut base = slots.start;
    while base < slots.end {
        let n = CHUNK.min(slots.end - base);
        local_columns(a.locals, base, n, cols);
        recomputed += world_chunk(base, n, cols, epoch, a, &mut prev);
        base += n;
    }
    recomputed
}

/// Phase 1: the columns of `R(q) · diag(s)` for slots `base..base + n`, as glam's
/// `Mat3A::from_quat` then per-column scale; `cols[3 * c + r]` is row `r` of column `c`.
#[inline(always)]
fn local_columns(l: &LocalSoa, base: usize, n: usize, cols: &mut Columns) {
    let r = base..base + n;
    let (qx, qy, qz, qw) = (
        &l.qx[r.clone()],
        &l.qy[r.clone()],
        &l.qz[r.clone()],
        &l.qw[r.clone()],
    );
    let (sx, sy, sz) = (&l.sx[r.clone()], &l.sy[r.clone()], &l.sz[r]);
    let [c0, c1, c2, c3, c4, c5, c6, c7, c8] = cols;
    let (c0, c1, c2, c3, c4, c5, c6, c7, c8) = (
        &mut c0[..n],
        &mut c1[..n],
        &mut c2[..n],
        &mut c3[..n],
        &mut c4[..n],
        &mut c5[..n],
        &mut c6[..n],
        &mut c7[..n],
        &mut c8[..n],
    );
    for k in 0..n {
        let (x, y, z, w) = (qx[k], qy[k], qz[k], qw[k]);
        let (x2, y2, z2) = (x + x, y + y, z + z);
        let (xx, xy, xz) = (x * x2, x * y2, x * z2);
        let (yy, yz, zz) = (y * y2, y * z2, z * z2);
        let (wx, wy, wz) = (w * x2, w * y2, w * z2);
        c0[k] = (1.0 - (yy + zz)) * sx[k];
        c1[k] = (xy + wz) * sx[k];
        c2[k] = (xz - wy) * sx[k];
        c3[k] = (xy - wz) * sy[k];
        c4[k] = (1.0 - (xx + zz)) * sy[k];
        c5[k] = (yz + wx) * sy[k];
        c6[k] = (xz + wy) * sz[k];
        c7[k] = (yz - wx) * sz[k];
        c8[k] = (1.0 - (xx + yy)) * sz[k];
    }
}

/// The last world matrix computed, for a child in the next slot.
struct Prev {
    slot: u32,
    world: Affine3A,
}

/// Phase 2 for slots `base..base + n`: recomputes every slot that is flagged or whose parent
/// moved in this pass. Returns the number recomputed.
#[inline(always)]
fn world_chunk(
    base: usize,
    n: usize,
    cols: &Columns,
    epoch: u32,
    a: &mut PassArrays<'_>,
    prev: &mut Prev,
) -> usize {
    let mut recomputed = 0;
    let n = n.min(CHUNK);
    let r = base..base + n;
    let (parents, flags) = (&a.parents[r.clone()], &mut a.flags[r.clone()]);
    let l = a.locals;
    let (tx, ty, tz) = (&l.tx[r.clone()], &l.ty[r.clone()], &l.tz[r]);
    for k in 0..n {
        let i = base + k;
        let p = parents[k];
        // `prev` is always a slot recomputed in this pass: no stamp to look up (chains).
        let parent_moved = p == prev.slot || (p != NO_PARENT && a.changed[p as usize] == epoch);
        let f = flags[k];
        if f & (LOCAL_DIRTY | WORLD_WRITTEN) == 0 && !parent_moved {
            continue;
        }
        if f & DRIVEN != 0 {
            // Animated joint: its world came from the animation job; only tell the children.
            if f & WORLD_WRITTEN != 0 {
                a.changed[i] = epoch;
            }
            flags[k] = DRIVEN;
            continue;
        }
        let col = |j: usize| [cols[3 * j][k], cols[3 * j + 1][k], cols[3 * j + 2][k]];
        let t = [tx[k], ty[k], tz[k]];
        let world = if p == NO_PARENT {
            Affine3A {
                matrix3: Mat3A::from_cols(
                    Vec3A::from_array(col(0)),
                    Vec3A::from_array(col(1)),
                    Vec3A::from_array(col(2)),
                ),
                translation: Vec3A::from_array(t),
            }
        } else {
            let parent = if p == prev.slot {
                prev.world
            } else {
                a.worlds[p as usize].0
            };
            Affine3A {
                matrix3: Mat3A::from_cols(
                    mul_vec(&parent, col(0)),
                    mul_vec(&parent, col(1)),
                    mul_vec(&parent, col(2)),
                ),
                translation: mul_vec(&parent, t) + parent.translation,
            }
        };
        a.worlds[i] = World(world);
        *prev = Prev {
            slot: i as u32,
            world,
        };
        a.changed[i] = epoch;
        flags[k] = 0;
        recomputed += 1;
    }
    recomputed
}

/// `m.matrix3 · v` in glam's order: `((x_axis·v.x + y_axis·v.y) + z_axis·v.z)`, each scalar
/// broadcast from memory.
#[inline(always)]
fn mul_vec(m: &Affine3A, v: [f32; 3]) -> Vec3A {
    let m3 = &m.matrix3;
    (m3.x_axis * Vec3A::splat(v[0]) + m3.y_axis * Vec3A::splat(v[1]))
        + m3.z_axis * Vec3A::splat(v[2])
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3};

    use super::Kernel;
    use crate::graph::{SceneGraph, Transform};

    /// A random forest of `n` nodes (xorshift, fixed seed) with non-uniform and mirrored scales.
    fn forest(n: usize, mut seed: u64) -> SceneGraph {
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut unit = move || (next() >> 40) as f32 / (1u64 << 24) as f32;
        let mut g = SceneGraph::new();
        let mut ids = Vec::new();
        for i in 0..n {
            let t = Transform::new(
                Vec3::new(unit() - 0.5, unit(), unit() * 2.0),
                Quat::from_euler(glam::EulerRot::XYZ, unit() * 6.0, unit() * 3.0, unit())
                    .normalize(),
                Vec3::new(0.5 + unit(), -0.8 - unit() * 0.4, 1.0 + unit()),
            );
            let parent = (i > 0 && unit() > 0.05).then(|| ids[(unit() * i as f32) as usize % i]);
            ids.push(g.add(format!("n{i}"), t, parent).unwrap());
        }
        g
    }

    /// Rigs shaped like the bench's (chains branching off a spine) with random local
    /// transforms, plus a prop attached to the last rig's last joint.
    fn rigs(count: usize, seed: u64) -> (SceneGraph, Vec<crate::graph::NodeId>) {
        let mut g = forest(0, seed);
        let base = forest(68 * count, seed);
        let mut ids = Vec::new();
        for r in 0..count {
            for j in 0..68 {
                let parent = match j {
                    0 => None,
                    j if j % 6 == 0 => Some(ids[68 * r + j / 6]),
                    j => Some(ids[68 * r + j - 1]),
                };
                let local = base.locals.get(68 * r + j);
                ids.push(g.add(format!("r{r}j{j}"), local, parent).unwrap());
            }
        }
        let prop = Transform::new(Vec3::X, Quat::from_rotation_y(0.3), Vec3::splat(2.0));
        ids.push(g.add("prop", prop, Some(ids[68 * count - 1])).unwrap());
        (g, ids)
    }

    #[test]
    fn whole_subtree_and_general_ranges_give_the_same_bits() {
        let bits = |g: &SceneGraph| -> Vec<u32> {
            g.worlds
                .iter()
                .flat_map(|w| w.0.to_cols_array().map(f32::to_bits))
                .collect()
        };
        for kernel in Kernel::available() {
            let (mut portable, ids) = rigs(5, 0xB0B);
            let (mut fast, _) = rigs(5, 0xB0B);
            let mut both = |edit: &dyn Fn(&mut SceneGraph)| {
                edit(&mut portable);
                edit(&mut fast);
                let a = portable.propagate_with(Kernel::Portable);
                let b = fast.propagate_with(kernel);
                assert_eq!(a, b, "{kernel:?}");
                assert!(bits(&portable) == bits(&fast), "{kernel:?}");
                a
            };
            // Everything new: one whole-subtree range per rig.
            assert_eq!(both(&|_| {}).recomputed, ids.len());
            // Every second rig's root: whole-subtree ranges, one of them with the prop.
            let roots: Vec<_> = ids.iter().step_by(68).step_by(2).copied().collect();
            let turn = move |g: &mut SceneGraph| {
                for &r in &roots {
                    let mut t = g.local(r).unwrap();
                    t.rotation = Quat::from_rotation_y(0.7) * t.rotation;
                    g.set_local(r, t);
                }
            };
            assert_eq!(both(&turn).recomputed, 3 * 68 + 1);
            // A spine joint (its span holds other chains: general path) and the prop alone
            // (a one-slot subtree under a parent outside the range).
            let (spine, prop) = (ids[68 + 3], ids[5 * 68]);
            both(&move |g: &mut SceneGraph| {
                g.set_local(spine, Transform::from_translation(Vec3::Y));
                g.set_local(prop, Transform::from_translation(Vec3::Z));
            });
            // A driven joint inside a moved rig: general path for that rig.
            let joint = ids[2 * 68 + 10];
            both(&move |g: &mut SceneGraph| {
                g.set_world(joint, glam::Affine3A::from_rotation_x(1.0));
                turn(g);
            });
        }
    }

    #[test]
    fn every_kernel_this_cpu_runs_gives_the_same_bits() {
        let kernels = Kernel::available();
        // The kernel the engine picks is among those compared (unless the tests hide a level).
        let hidden = std::env::var_os(sierra_testkit::skip::WITHOUT_SIMD_ENV).is_some();
        assert!(hidden || kernels.contains(&Kernel::detect()));
        for n in [1, 7, 63, 64, 65, 500] {
            let mut portable = forest(n, 0x5EED + n as u64);
            assert_eq!(portable.propagate_with(Kernel::Portable).recomputed, n);
            let bits = |g: &SceneGraph| -> Vec<u32> {
                g.worlds
                    .iter()
                    .flat_map(|w| w.0.to_cols_array().map(f32::to_bits))
                    .collect()
            };
            for &kernel in &kernels[1..] {
                let mut fast = forest(n, 0x5EED + n as u64);
                assert_eq!(fast.propagate_with(kernel).recomputed, n);
                assert!(bits(&portable) == bits(&fast), "{n} nodes, {kernel:?}");
            }
        }
    }
}
