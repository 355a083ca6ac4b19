// One triangle covering the viewport (no vertex buffer): vertex 0..2 -> clip (-1,-1), (3,-1), (-1,3).
// Shared by the screen-space passes (bloom, tonemap, FXAA, sky); concatenated in front of their shaders.

struct FullscreenOut {
    @builtin(position) position: vec4<f32>,
    // Texture coordinate: (0,0) top-left, (1,1) bottom-right, as wgpu's texture space.
    @location(0) uv: vec2<f32>,
}

@vertex
fn vs_fullscreen(@builtin(vertex_index) index: u32) -> FullscreenOut {
    let xy = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    var out: FullscreenOut;
    out.position = vec4<f32>(xy * 2.0 - 1.0, 0.0, 1.0);
    out.uv = vec2<f32>(xy.x, 1.0 - xy.y);
    return out;
}

// IEC 61966-2-1 sRGB transfer function (linear -> encoded), for passes writing a non-sRGB target.
fn srgb_encode(c: vec3<f32>) -> vec3<f32> {
    let low = c * 12.92;
    let high = 1.055 * pow(c, vec3<f32>(1.0 / 2.4)) - 0.055;
    return select(high, low, c <= vec3<f32>(0.0031308));
}
