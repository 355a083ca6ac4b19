// Procedural sky (seed 002 draws a sky behind the landscape; we compute it rather than sample a
// texture): a gradient from the horizon colour to the zenith colour by elevation, a ground colour
// below the horizon, and a sun disc with a soft rim and glow centred on the sun direction that
// also lights the scene. Drawn after the opaque pass at depth 1.0 with `LessEqual`, so it only
// covers pixels no geometry wrote: "behind everything", with no overdraw of shaded pixels.

struct SkyUniform {
    // Clip space -> world space (inverse of the camera's view-projection).
    inv_view_proj: mat4x4<f32>,
    // xyz: camera position (metres).
    camera_position: vec4<f32>,
    // xyz: unit vector towards the sun; w: cosine of the disc's angular radius.
    to_sun: vec4<f32>,
    // rgb: linear colour straight up.
    zenith: vec4<f32>,
    // rgb: linear colour at the horizon; w: exponent shaping the gradient.
    horizon: vec4<f32>,
    // rgb: linear colour below the horizon.
    ground: vec4<f32>,
    // rgb: radiance of the disc (sun colour * intensity * disc scale); w: glow strength.
    sun: vec4<f32>,
}

@group(0) @binding(0) var<uniform> sky: SkyUniform;

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

// Sky radiance seen along the unit world direction `dir`.
fn sky_color(dir: vec3<f32>) -> vec3<f32> {
    return sky_radiance(dir, 1.0);
}

// Sky radiance along `dir` with the sun's disc weighted by `disc_weight`: 1 as drawn, 0 for the
// environment bake (`environment/bake.wgsl`), whose light the sun adds as a light of its own.
fn sky_radiance(dir: vec3<f32>, disc_weight: f32) -> vec3<f32> {
    let elevation = dir.y;
    var color: vec3<f32>;
    if elevation >= 0.0 {
        let t = pow(elevation, sky.horizon.w);
        color = mix(sky.horizon.rgb, sky.zenith.rgb, t);
    } else {
        // Blend into the ground over a few degrees so the horizon is not a hard line.
        color = mix(sky.horizon.rgb, sky.ground.rgb, smoothstep(0.0, 0.05, -elevation));
    }
    let cos_angle = dot(dir, sky.to_sun.xyz);
    let cos_radius = sky.to_sun.w;
    // Disc: full radiance inside the angular radius, a soft rim of 20 % of the radius.
    let rim = (1.0 - cos_radius) * 0.44;
    let disc = smoothstep(cos_radius - rim, cos_radius + rim * 0.1, cos_angle);
    // Glow: forward-scattering halo around the disc.
    let glow = sky.sun.w * pow(max(cos_angle, 0.0), 64.0);
    return color + sky.sun.rgb * (disc * disc_weight) + sky.sun.rgb * glow * 0.02;
}

@fragment
fn fs_sky(in: SkyOut) -> @location(0) vec4<f32> {
    // Any depth on the pixel's ray gives its direction; mid-range avoids far-plane precision loss.
    let point = sky.inv_view_proj * vec4<f32>(in.ndc, 0.5, 1.0);
    let dir = normalize(point.xyz / point.w - sky.camera_position.xyz);
    return vec4<f32>(sky_color(dir), 1.0);
}
