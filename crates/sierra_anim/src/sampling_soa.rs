//! Sampling a clip into a structure-of-arrays pose, eight joints at a time.
//!
//! Uniform channels (see `clip_soa.rs`) locate their key interval once (with the context's
//! cursor for that channel) and interpolate whole blocks from two contiguous key blocks;
//! other channels fall back to the scalar sampler lane by lane. Both run the formulas of
//! [`crate::lane`], so the result equals [`crate::sample_clip`] bit for bit.

use crate::clip_soa::SoaChannel;
use crate::compressed::CompressedClip;
use crate::lane::{lerp3, slerp4, Trs};
use crate::sampling::{locate, JointSampler};
use crate::sampling_compressed::CompressedCache;
use crate::simd::{dispatch, SimdLevel, F8, LANES};
use crate::soa::{soa_blocks, SoaTransform};
use crate::{AnimError, Clip, ClipRef, ClipSource, Playback, SamplingContext};

/// Key-block offsets `k · blocks`, `(k + 1) · blocks` and the fraction `u` of one uniform channel.
#[derive(Clone, Copy, Debug)]
struct Interval {
    k0: usize,
    k1: usize,
    u: f32,
}

/// Samples one clip block by block (used by [`sample_clip_soa`] and the fused job).
pub(crate) struct SoaSampler<'a> {
    clip: &'a Clip,
    scalar: JointSampler<'a>,
    intervals: [Option<Interval>; 3],
}

fn interval<const C: usize>(
    channel: Option<&SoaChannel<C>>,
    t: f32,
    in_wrap: bool,
    blocks: usize,
    cursor: &mut u32,
) -> Option<Interval> {
    let ch = channel.filter(|_| !in_wrap)?;
    let (k, u) = locate(&ch.times, t, cursor);
    let k1 = (k + 1).min(ch.times.len() - 1);
    Some(Interval {
        k0: k * blocks,
        k1: k1 * blocks,
        u,
    })
}

impl<'a> SoaSampler<'a> {
    #[inline(always)]
    pub(crate) fn new(
        clip: &'a Clip,
        time: f32,
        playback: Playback,
        context: &'a mut SamplingContext,
    ) -> Self {
        context.bind(clip);
        let (t, wrap) = playback.local_time(time, clip.duration());
        // The wrap segment of LoopWithPeriod interpolates last → first: scalar code.
        let in_wrap = wrap.is_some_and(|(start, _)| t > start);
        let blocks = soa_blocks(clip.joint_count());
        let soa = &clip.soa;
        let c = &mut context.channel_cursors;
        let intervals = [
            interval(soa.translations.as_ref(), t, in_wrap, blocks, &mut c[0]),
            interval(soa.rotations.as_ref(), t, in_wrap, blocks, &mut c[1]),
            interval(soa.scales.as_ref(), t, in_wrap, blocks, &mut c[2]),
        ];
        Self {
            clip,
            scalar: JointSampler::new(clip, time, playback, context),
            intervals,
        }
    }

    /// Lane by lane with the scalar sampler: `get(sampler, joint)` for joints in range, `pad` past them.
    #[inline(always)]
    fn lanes<const C: usize>(
        &mut self,
        b: usize,
        pad: [f32; C],
        get: impl Fn(&mut JointSampler<'a>, usize) -> [f32; C],
    ) -> [F8; C] {
        let mut out = [F8::ZERO; C];
        for i in 0..LANES {
            let j = b * LANES + i;
            let v = if j < self.clip.joint_count() {
                get(&mut self.scalar, j)
            } else {
                pad
            };
            for (o, x) in out.iter_mut().zip(v) {
                o.0[i] = x;
            }
        }
        out
    }
}

/// A sampler producing a clip's pose block by block (raw or compressed clips).
pub(crate) trait BlockSource {
    /// Joints `8·b .. 8·b + 8` (identity past the last joint).
    fn block(&mut self, b: usize) -> Trs<F8>;
}

/// Samples a compressed clip block by block from the context's cached keys.
pub(crate) struct CompressedSampler<'a> {
    cache: &'a CompressedCache,
    t: F8,
}

impl<'a> CompressedSampler<'a> {
    #[inline(always)]
    pub(crate) fn new(
        clip: &CompressedClip,
        time: f32,
        playback: Playback,
        context: &'a mut SamplingContext,
    ) -> Self {
        let (t, wrap) = playback.local_time(time, clip.duration());
        let wrap = wrap.filter(|&(start, _)| t > start);
        context.compressed.refresh(clip, t, wrap);
        Self {
            cache: &context.compressed,
            t: F8::splat(t),
        }
    }
}

impl BlockSource for CompressedSampler<'_> {
    #[inline(always)]
    fn block(&mut self, b: usize) -> Trs<F8> {
        let (tb, rb, sb) = (&self.cache.t[b], &self.cache.r[b], &self.cache.s[b]);
        let u = |d_t0: F8, inv: F8| (self.t - d_t0) * inv;
        let [theta, inv_sin, sign] = rb.seg;
        Trs {
            t: lerp3(&tb.a, &tb.b, u(tb.t0, tb.inv_dt)),
            q: slerp4(&rb.a, &rb.b, u(rb.t0, rb.inv_dt), theta, inv_sin, sign),
            s: lerp3(&sb.a, &sb.b, u(sb.t0, sb.inv_dt)),
        }
    }
}

/// Linear interpolation of block `b` of a uniform vector channel (translations or scales)
/// over the key interval `iv` (`None` when the channel is not uniform or in a wrap segment).
#[inline(always)]
fn lerp_block(iv: Option<Interval>, channel: Option<&SoaChannel<3>>, b: usize) -> Option<[F8; 3]> {
    let (iv, ch) = (iv?, channel?);
    Some(lerp3(
        &ch.keys[iv.k0 + b],
        &ch.keys[iv.k1 + b],
        ch.interpolate[b] * iv.u,
    ))
}

impl BlockSource for SoaSampler<'_> {
    #[inline(always)]
    fn block(&mut self, b: usize) -> Trs<F8> {
        let soa = &self.clip.soa;
        let t = match lerp_block(self.intervals[0], soa.translations.as_ref(), b) {
            Some(t) => t,
            None => self.lanes(b, [0.0; 3], |s, j| s.translation(j).to_array()),
        };
        let q = match (self.intervals[1], &soa.rotations) {
            (Some(iv), Some(ch)) => {
                let [theta, inv_sin, sign] = ch.segments[iv.k0 + b];
                slerp4(
                    &ch.keys[iv.k0 + b],
                    &ch.keys[iv.k1 + b],
                    ch.interpolate[b] * iv.u,
                    theta,
                    inv_sin,
                    sign,
                )
            }
            _ => self.lanes(b, [0.0, 0.0, 0.0, 1.0], |s, j| s.rotation(j).to_array()),
        };
        let s = match lerp_block(self.intervals[2], soa.scales.as_ref(), b) {
            Some(s) => s,
            None => self.lanes(b, [1.0; 3], |s, j| s.scale(j).to_array()),
        };
        Trs { t, q, s }
    }
}

/// Samples every joint of `clip` (a raw [`Clip`], a [`crate::CompressedClip`] or a
/// [`crate::ClipRef`]) at `time` seconds into `output` (`[soa_blocks(clip.joint_count())]`;
/// lanes past the last joint get identity), mapping time with `playback`, eight joints at a
/// time with the best instruction set of this CPU. A raw clip gives the same bits as
/// [`crate::sample_clip`]; a compressed one decodes its keys into `context` (see
/// `compressed.rs`), with no allocation once the context has served a clip this large.
///
/// Errors: [`AnimError::BufferSize`] when `output` has the wrong length.
pub fn sample_clip_soa<C: ClipSource + ?Sized>(
    clip: &C,
    time: f32,
    playback: Playback,
    context: &mut SamplingContext,
    output: &mut [SoaTransform],
) -> Result<(), AnimError> {
    sample_clip_soa_with(SimdLevel::detect(), clip, time, playback, context, output)
}

/// [`sample_clip_soa`] with a chosen instruction set (lowered to what this CPU supports).
///
/// Errors: as [`sample_clip_soa`].
pub fn sample_clip_soa_with<C: ClipSource + ?Sized>(
    level: SimdLevel,
    clip: &C,
    time: f32,
    playback: Playback,
    context: &mut SamplingContext,
    output: &mut [SoaTransform],
) -> Result<(), AnimError> {
    crate::soa::check_blocks("SoA sampling output", clip.joint_count(), output.len())?;
    match clip.clip_ref() {
        ClipRef::Raw(c) => {
            let mut sampler = SoaSampler::new(c, time, playback, context);
            sample_dispatch(level, &mut sampler, output);
        }
        ClipRef::Compressed(c) => {
            let mut sampler = CompressedSampler::new(c, time, playback, context);
            sample_dispatch(level, &mut sampler, output);
        }
    }
    Ok(())
}

dispatch! {
    fn sample_dispatch<S: BlockSource>(sampler: &mut S, output: &mut [SoaTransform]) => sample_kernel
}

#[inline(always)]
fn sample_kernel<S: BlockSource>(sampler: &mut S, output: &mut [SoaTransform]) {
    for (b, o) in output.iter_mut().enumerate() {
        *o = sampler.block(b).into();
    }
}
