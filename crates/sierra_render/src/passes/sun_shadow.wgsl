// The sun's shadow as a receiver reads it (group 0, bindings 7-9 of the view group,
// `ShadowReceiver` in `passes/shadow.rs`): depth from the sun, compared with LessEqual.
// Prepended after `view.wgsl` to the shader of every pass that receives the sun's shadow
// (forward and crowd: `forward.wgsl`; the sea: `sea.wgsl`), so they share one lookup.
struct ShadowUniform {
    light_view_proj: mat4x4<f32>,
    // x: 1 when on; y: texel size in uv; z: normal offset in metres; w: PCF radius in texels.
    params: vec4<f32>,
}
@group(0) @binding(7) var shadow_map: texture_depth_2d;
@group(0) @binding(8) var shadow_sampler: sampler_comparison;
@group(0) @binding(9) var<storage, read> shadow: ShadowUniform;

// Fraction of the sun reaching `world_position` (1 = lit), by percentage-closer filtering:
// (2r+1)^2 bilinear comparison taps, one texel apart. The lookup point is pushed along the
// surface normal (normal-offset shadows) so lit slopes do not shadow themselves (acne).
fn sun_shadow(world_position: vec3<f32>, normal: vec3<f32>) -> f32 {
    if shadow.params.x < 0.5 {
        return 1.0;
    }
    let offset_position = world_position + normal * shadow.params.z;
    let clip = shadow.light_view_proj * vec4<f32>(offset_position, 1.0);
    let ndc = clip.xyz / clip.w;
    let uv = vec2<f32>(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
    if any(uv < vec2<f32>(0.0)) || any(uv > vec2<f32>(1.0)) || ndc.z > 1.0 {
        return 1.0;
    }
    let radius = i32(shadow.params.w);
    var lit = 0.0;
    for (var y = -radius; y <= radius; y++) {
        for (var x = -radius; x <= radius; x++) {
            let tap = uv + vec2<f32>(f32(x), f32(y)) * shadow.params.y;
            lit += textureSampleCompareLevel(shadow_map, shadow_sampler, tap, ndc.z);
        }
    }
    let taps = f32((2 * radius + 1) * (2 * radius + 1));
    return lit / taps;
}

// The sun's share `lit` (from `sun_shadow`) at a point `depth` metres under the sea's still
// surface: light scattered in the water fills the shadow, up to 80 % of the sun's from half
// a metre down (a shadow on a sea bed or in the water is soft and keeps the water's hue, not a
// dark slab; above the water, depth <= 0, it is left as it is). The forward pass (sea bed,
// anything wading) and the sea's own water body take the same fill.
fn shadow_in_water(lit: f32, depth: f32) -> f32 {
    return mix(lit, 1.0, 0.8 * smoothstep(0.0, 0.5, depth));
}
