// The procedural sky's radiance (`sky_radiance`), shared by the sky pass (`sky.wgsl`) and the
// environment bake (`environment/bake.wgsl`), each of which declares the uniform `sky` this reads
// and binds it where its own layout puts it. `SkyUniform` mirrors `passes/sky.rs`.

struct SkyUniform {
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
