// Tonemapping: linear HDR (scene-referred) -> display. The output target is an *Srgb format, so the
// hardware applies the sRGB transfer function on store; this shader works in linear values.

struct TonemapParams {
    // 0 = none (clamp only; for tests comparing linear values), 1 = ACES, 2 = AgX.
    tonemapper: u32,
    // Linear scale applied before the curve (2^EV).
    exposure: f32,
    // 1 when the target is not an *Srgb format and the shader must apply the sRGB OETF itself.
    encode_srgb: u32,
    // 1 when writing the FXAA input: alpha = perceptual luma (of the sRGB-encoded colour).
    luma_alpha: u32,
}

@group(0) @binding(0) var hdr: texture_2d<f32>;
@group(0) @binding(1) var<storage, read> params: TonemapParams;

// ACES filmic: Stephen Hill's fit of the ACES RRT + sRGB ODT (BakingLab, "ACES.hlsl", MIT),
// applied in ACEScg-like space via his input/output matrices (WGSL matrices are column-major,
// so the row-major HLSL constants are written transposed).
const ACES_INPUT = mat3x3<f32>(
    vec3<f32>(0.59719, 0.07600, 0.02840),
    vec3<f32>(0.35458, 0.90834, 0.13383),
    vec3<f32>(0.04823, 0.01566, 0.83777),
);
const ACES_OUTPUT = mat3x3<f32>(
    vec3<f32>(1.60475, -0.10208, -0.00327),
    vec3<f32>(-0.53108, 1.10813, -0.07276),
    vec3<f32>(-0.07367, -0.00605, 1.07602),
);

fn rrt_and_odt_fit(v: vec3<f32>) -> vec3<f32> {
    let a = v * (v + 0.0245786) - 0.000090537;
    let b = v * (0.983729 * v + 0.4329510) + 0.238081;
    return a / b;
}

fn aces(color: vec3<f32>) -> vec3<f32> {
    return clamp(ACES_OUTPUT * rrt_and_odt_fit(ACES_INPUT * color), vec3<f32>(0.0), vec3<f32>(1.0));
}

// AgX: Troy Sobotka's AgX base look, with Benjamin Wrensch's minimal version (inset matrix, log2
// encoding over [-12.47393, 4.026069] EV, 6th-order polynomial fit of the sigmoid, outset matrix).
// The polynomial yields a display-encoded value, so it is decoded back to linear (pow 2.2) for the
// *Srgb target.
const AGX_INSET = mat3x3<f32>(
    vec3<f32>(0.842479062253094, 0.0423282422610123, 0.0423756549057051),
    vec3<f32>(0.0784335999999992, 0.878468636469772, 0.0784336),
    vec3<f32>(0.0792237451477643, 0.0791661274605434, 0.879142973793104),
);
const AGX_OUTSET = mat3x3<f32>(
    vec3<f32>(1.19687900512017, -0.0528968517574562, -0.0529716355144438),
    vec3<f32>(-0.0980208811401368, 1.15190312990417, -0.0980434501171241),
    vec3<f32>(-0.0990297440797205, -0.0989611768448433, 1.15107367264116),
);

fn agx_contrast(x: vec3<f32>) -> vec3<f32> {
    let x2 = x * x;
    let x4 = x2 * x2;
    return 15.5 * x4 * x2 - 40.14 * x4 * x + 31.96 * x4 - 6.868 * x2 * x + 0.4298 * x2
        + 0.1191 * x - 0.00232;
}

fn agx(color: vec3<f32>) -> vec3<f32> {
    let min_ev = -12.47393;
    let max_ev = 4.026069;
    var v = AGX_INSET * max(color, vec3<f32>(0.0));
    v = clamp(log2(max(v, vec3<f32>(1e-10))), vec3<f32>(min_ev), vec3<f32>(max_ev));
    v = (v - min_ev) / (max_ev - min_ev);
    v = agx_contrast(v);
    v = AGX_OUTSET * v;
    return pow(clamp(v, vec3<f32>(0.0), vec3<f32>(1.0)), vec3<f32>(2.2));
}

fn tonemap(color: vec3<f32>) -> vec3<f32> {
    let exposed = color * params.exposure;
    switch params.tonemapper {
        case 1u: { return aces(exposed); }
        case 2u: { return agx(exposed); }
        default: { return clamp(exposed, vec3<f32>(0.0), vec3<f32>(1.0)); }
    }
}

@fragment
fn fs_tonemap(in: FullscreenOut) -> @location(0) vec4<f32> {
    let color = textureLoad(hdr, vec2<i32>(in.position.xy), 0).rgb;
    var mapped = tonemap(color);
    if params.luma_alpha == 1u {
        // FXAA finds edges on perceptual luma (Lottes 2011: "luma ... in non-linear space") and
        // blends the linear colour.
        let luma = dot(srgb_encode(mapped), vec3<f32>(0.299, 0.587, 0.114));
        return vec4<f32>(mapped, luma);
    }
    if params.encode_srgb == 1u {
        mapped = srgb_encode(mapped);
    }
    return vec4<f32>(mapped, 1.0);
}
