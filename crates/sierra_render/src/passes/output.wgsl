// Output pass: HDR scene colour -> final image (surface or PNG).
// Tonemap 0 = none: linear colour clamped to [0, 1], so render tests can compare
// linear values. When the target format is not *Srgb, the sRGB transfer function
// (IEC 61966-2-1) is applied here; *Srgb targets encode in hardware.
// `OutputUniform` mirrors `passes/output.rs` (checked by a naga reflection test).

struct OutputUniform {
    tonemap: u32,
    encode_srgb: u32,
    exposure: f32,
    _pad0: f32,
}

@group(0) @binding(0) var hdr: texture_2d<f32>;
@group(0) @binding(1) var<uniform> params: OutputUniform;

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    // One triangle covering the screen: (-1,-1), (3,-1), (-1,3).
    let x = f32(index & 1u) * 4.0 - 1.0;
    let y = f32(index >> 1u) * 4.0 - 1.0;
    return vec4<f32>(x, y, 0.0, 1.0);
}

fn srgb_encode(linear: vec3<f32>) -> vec3<f32> {
    let low = linear * 12.92;
    let high = 1.055 * pow(linear, vec3<f32>(1.0 / 2.4)) - 0.055;
    return select(high, low, linear <= vec3<f32>(0.0031308));
}

@fragment
fn fs_main(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let hdr_color = textureLoad(hdr, vec2<i32>(position.xy), 0);
    var color = hdr_color.rgb * params.exposure;
    // Only `none` exists so far; later tonemappers branch on params.tonemap.
    color = clamp(color, vec3<f32>(0.0), vec3<f32>(1.0));
    if (params.encode_srgb != 0u) {
        color = srgb_encode(color);
    }
    return vec4<f32>(color, 1.0);
}
