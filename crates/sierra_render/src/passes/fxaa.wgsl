// FXAA 3.11, quality variant (Timothy Lottes, "FXAA", NVIDIA white paper, 2011; FXAA 3.11
// source, 2011), written from the paper's description:
//  1. local contrast: the luma range of the pixel and its 4 neighbours; below a threshold the
//     pixel is not on an edge and passes unchanged;
//  2. sub-pixel aliasing: how much the pixel differs from the 3x3 neighbourhood's lowpass;
//  3. edge direction: horizontal or vertical from the 3x3 luma second differences, and which
//     side (towards the steeper neighbour) the edge lies on;
//  4. end-of-edge search: step along the edge, half a pixel off it, in both directions until the
//     luma pair there leaves the edge's average (at most FXAA_STEPS steps of growing length);
//  5. blend: shift the sample position across the edge by how far the pixel sits from the
//     nearer end (0.5 at the end, 0 in the middle), or by the sub-pixel amount when larger,
//     and read the colour there with bilinear filtering.
// Input (`ldr`): linear display colour in rgb, perceptual luma in a (the tonemap pass).

struct FxaaParams {
    // 1 / target size in pixels.
    texel: vec2<f32>,
    // 1 when the output is not an *Srgb format and the shader applies the sRGB OETF.
    encode_srgb: u32,
    _pad: u32,
}

@group(0) @binding(0) var ldr: texture_2d<f32>;
@group(0) @binding(1) var ldr_sampler: sampler;
@group(0) @binding(2) var<storage, read> params: FxaaParams;

// Lottes's "quality" defaults: edges need a contrast of 1/8 of the local maximum (and at least
// 1/16, so dark noise is left alone); sub-pixel removal 3/4.
const EDGE_THRESHOLD: f32 = 0.125;
const EDGE_THRESHOLD_MIN: f32 = 0.0625;
const SUBPIX: f32 = 0.75;
// Edge-end search: at most 12 steps, of FXAA 3.11 quality preset 39's lengths in pixels.
const FXAA_STEPS: u32 = 12u;

// Length of search step `i`: 1, 1, 1, 1, 1, 1.5, 2, 2, 2, 2, 4, 8 pixels.
fn step_length(i: u32) -> f32 {
    if i < 5u {
        return 1.0;
    }
    if i == 5u {
        return 1.5;
    }
    if i < 10u {
        return 2.0;
    }
    return select(8.0, 4.0, i == 10u);
}

fn luma_at(uv: vec2<f32>) -> f32 {
    return textureSampleLevel(ldr, ldr_sampler, uv, 0.0).a;
}

fn luma_off(uv: vec2<f32>, dx: f32, dy: f32) -> f32 {
    return luma_at(uv + vec2<f32>(dx, dy) * params.texel);
}

fn output(color: vec3<f32>) -> vec4<f32> {
    if params.encode_srgb == 1u {
        return vec4<f32>(srgb_encode(color), 1.0);
    }
    return vec4<f32>(color, 1.0);
}

@fragment
fn fs_fxaa(in: FullscreenOut) -> @location(0) vec4<f32> {
    let uv = in.position.xy * params.texel;
    let centre = textureSampleLevel(ldr, ldr_sampler, uv, 0.0);
    let m = centre.a;
    let n = luma_off(uv, 0.0, -1.0);
    let s = luma_off(uv, 0.0, 1.0);
    let e = luma_off(uv, 1.0, 0.0);
    let w = luma_off(uv, -1.0, 0.0);

    // 1. Local contrast.
    let range_max = max(max(max(n, s), max(e, w)), m);
    let range_min = min(min(min(n, s), min(e, w)), m);
    let range = range_max - range_min;
    if range < max(EDGE_THRESHOLD_MIN, range_max * EDGE_THRESHOLD) {
        return output(centre.rgb);
    }
    let nw = luma_off(uv, -1.0, -1.0);
    let ne = luma_off(uv, 1.0, -1.0);
    let sw = luma_off(uv, -1.0, 1.0);
    let se = luma_off(uv, 1.0, 1.0);

    // 2. Sub-pixel aliasing: the centre against the 3x3 lowpass (edges weighted 2, corners 1).
    let lowpass = (2.0 * (n + s + e + w) + (nw + ne + sw + se)) / 12.0;
    let subpix_contrast = clamp(abs(lowpass - m) / range, 0.0, 1.0);
    let subpix_smooth = (-2.0 * subpix_contrast + 3.0) * subpix_contrast * subpix_contrast;
    let subpix_offset = subpix_smooth * subpix_smooth * SUBPIX;

    // 3. Edge direction from second differences along each axis.
    let edge_horizontal = abs(-2.0 * w + nw + sw) + 2.0 * abs(-2.0 * m + n + s) + abs(-2.0 * e + ne + se);
    let edge_vertical = abs(-2.0 * n + nw + ne) + 2.0 * abs(-2.0 * m + w + e) + abs(-2.0 * s + sw + se);
    let horizontal = edge_horizontal >= edge_vertical;
    // The two neighbours across the edge ("negative" = up or left) and which is steeper.
    let luma_neg = select(w, n, horizontal);
    let luma_pos = select(e, s, horizontal);
    let gradient_neg = abs(luma_neg - m);
    let gradient_pos = abs(luma_pos - m);
    let towards_neg = gradient_neg >= gradient_pos;
    let gradient = max(gradient_neg, gradient_pos);
    let step_across = select(params.texel.x, params.texel.y, horizontal) * select(1.0, -1.0, towards_neg);
    let luma_pair = 0.5 * (m + select(luma_pos, luma_neg, towards_neg));

    // 4. Search both ways along the edge, half a pixel across it.
    var start = uv;
    if horizontal {
        start.y += 0.5 * step_across;
    } else {
        start.x += 0.5 * step_across;
    }
    let along = select(vec2<f32>(0.0, params.texel.y), vec2<f32>(params.texel.x, 0.0), horizontal);
    let threshold = 0.25 * gradient;
    var pos_neg = start - along;
    var pos_pos = start + along;
    var end_neg = luma_at(pos_neg) - luma_pair;
    var end_pos = luma_at(pos_pos) - luma_pair;
    var done_neg = abs(end_neg) >= threshold;
    var done_pos = abs(end_pos) >= threshold;
    for (var i = 1u; i < FXAA_STEPS; i++) {
        if done_neg && done_pos {
            break;
        }
        if !done_neg {
            pos_neg -= along * step_length(i);
            end_neg = luma_at(pos_neg) - luma_pair;
            done_neg = abs(end_neg) >= threshold;
        }
        if !done_pos {
            pos_pos += along * step_length(i);
            end_pos = luma_at(pos_pos) - luma_pair;
            done_pos = abs(end_pos) >= threshold;
        }
    }

    // 5. Blend across the edge by the distance to the nearer end.
    let dist_neg = select(uv.y - pos_neg.y, uv.x - pos_neg.x, horizontal);
    let dist_pos = select(pos_pos.y - uv.y, pos_pos.x - uv.x, horizontal);
    let nearer_is_neg = dist_neg < dist_pos;
    let dist = min(dist_neg, dist_pos);
    let span = dist_neg + dist_pos;
    // The end is a real one when the luma there moved the other way from the centre's side.
    let centre_below = m - luma_pair < 0.0;
    let good_end = select((end_pos < 0.0) != centre_below, (end_neg < 0.0) != centre_below, nearer_is_neg);
    let edge_offset = select(0.0, 0.5 - dist / span, good_end);
    let offset = max(edge_offset, subpix_offset);
    var sample_at = uv;
    if horizontal {
        sample_at.y += offset * step_across;
    } else {
        sample_at.x += offset * step_across;
    }
    return output(textureSampleLevel(ldr, ldr_sampler, sample_at, 0.0).rgb);
}
