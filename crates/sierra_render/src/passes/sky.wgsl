// Procedural sky (seed 002 draws a sky behind the landscape; we compute it rather than sample a
// texture): a gradient from the horizon colour to the zenith colour by elevation, a ground colour
// below the horizon, and a sun disc with a soft rim and glow centred on the sun direction that
// also lights the scene. Drawn after the opaque pass at depth 1.0 with `LessEqual`, so it only
// covers pixels no geometry wrote: "behind everything", with no overdraw of shaded pixels.

// Prepended with `view.wgsl` (group 0, the view group: the camera) and `sky_radiance.wgsl` (the
// model); group 1 holds the sky's own parameters.

@group(1) @binding(0) var<uniform> sky: SkyUniform;

struct SkyOut {
    @builtin(position) position: vec4<f32>,
    @location(0) ndc: vec2<f32>,
}

@vertex
fn vs_sky(@builtin(vertex_index) index: u32) -> SkyOut {
    let xy = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u)) * 2.0 - 1.0;
    var out: SkyOut;
    // z = w: depth 1.0, the far plane.
    out.position = vec4<f32>(xy, 1.0, 1.0);
    out.ndc = xy;
    return out;
}

@fragment
fn fs_sky(in: SkyOut) -> @location(0) vec4<f32> {
    // Any depth on the pixel's ray gives its direction; mid-range avoids far-plane precision loss.
    let point = camera.inv_view_proj * vec4<f32>(in.ndc, 0.5, 1.0);
    let dir = normalize(point.xyz / point.w - camera.position.xyz);
    return vec4<f32>(sky_color(dir), 1.0);
}
