// Forward pass: draws opaque meshes into the HDR target with Blinn-Phong shading.
//
// Shading model (fixed; render tests compute it analytically), all linear RGB:
//   albedo = material.base_color.rgb * vertex.color.rgb
//   colour = ambient * albedo
//          + sum over lights [ light * (albedo * max(N.L, 0) + specular * max(N.H, 0)^power * [N.L > 0]) * attenuation ]
//          + emissive
// where L points from the surface towards the light, V towards the camera,
// H = normalize(L + V). The sun has attenuation 1; a point light has
// 1 - smoothstep(inner_radius, outer_radius, distance) (document 000). The
// specular term is gated by N.L > 0 so surfaces facing away from a light get no highlight.
// Uniform structs mirror `passes/forward.rs` (checked by a naga reflection test).

const MAX_POINT_LIGHTS: u32 = 8u;

struct CameraUniform {
    view_proj: mat4x4<f32>,
    view: mat4x4<f32>,
    // xyz: world position in metres; w unused.
    position: vec4<f32>,
}

struct PointLightUniform {
    position: vec3<f32>,
    inner_radius: f32,
    // colour * intensity
    color: vec3<f32>,
    outer_radius: f32,
}

struct LightsUniform {
    // Unit vector from the scene towards the sun.
    to_sun: vec3<f32>,
    point_light_count: u32,
    // colour * intensity
    sun_color: vec3<f32>,
    _pad0: f32,
    ambient: vec3<f32>,
    _pad1: f32,
    point_lights: array<PointLightUniform, MAX_POINT_LIGHTS>,
}

struct ObjectUniform {
    model: mat4x4<f32>,
    // Inverse transpose of `model` (only the upper 3x3 is used).
    normal_matrix: mat4x4<f32>,
    base_color: vec4<f32>,
    // rgb: specular colour, a: specular power.
    specular: vec4<f32>,
    // rgb: emitted light, a unused.
    emissive: vec4<f32>,
}

@group(0) @binding(0) var<uniform> camera: CameraUniform;
@group(0) @binding(1) var<uniform> lights: LightsUniform;
@group(1) @binding(0) var<uniform> object: ObjectUniform;

// Sun shadow map (`passes/shadow.rs`): depth from the sun, compared with LessEqual.
struct ShadowUniform {
    light_view_proj: mat4x4<f32>,
    // x: 1 when on; y: texel size in uv; z: normal offset in metres; w: PCF radius in texels.
    params: vec4<f32>,
}
@group(2) @binding(0) var shadow_map: texture_depth_2d;
@group(2) @binding(1) var shadow_sampler: sampler_comparison;
@group(2) @binding(2) var<uniform> shadow: ShadowUniform;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) tangent: vec4<f32>,
    @location(4) color: vec4<f32>,
}

struct VertexOut {
    @builtin(position) clip_position: vec4<f32>,
    @location(0) world_position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) tangent: vec4<f32>,
    @location(4) color: vec4<f32>,
}

@vertex
fn vs_main(in: VertexIn) -> VertexOut {
    let world = object.model * vec4<f32>(in.position, 1.0);
    var out: VertexOut;
    out.clip_position = camera.view_proj * world;
    out.world_position = world.xyz;
    out.normal = (object.normal_matrix * vec4<f32>(in.normal, 0.0)).xyz;
    out.uv = in.uv;
    out.tangent = vec4<f32>((object.model * vec4<f32>(in.tangent.xyz, 0.0)).xyz, in.tangent.w);
    out.color = in.color;
    return out;
}

// Diffuse + specular from one light of radiance `light` arriving along unit `l`.
fn blinn_phong(n: vec3<f32>, v: vec3<f32>, l: vec3<f32>, light: vec3<f32>, albedo: vec3<f32>) -> vec3<f32> {
    let n_dot_l = dot(n, l);
    if (n_dot_l <= 0.0) {
        return vec3<f32>(0.0);
    }
    let h = normalize(l + v);
    let specular = object.specular.rgb * pow(max(dot(n, h), 0.0), object.specular.a);
    return light * (albedo * n_dot_l + specular);
}

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

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    let n = normalize(in.normal);
    let v = normalize(camera.position.xyz - in.world_position);
    let albedo = object.base_color.rgb * in.color.rgb;

    var color = lights.ambient * albedo;
    color += blinn_phong(n, v, lights.to_sun, lights.sun_color, albedo) * sun_shadow(in.world_position, n);
    let count = min(lights.point_light_count, MAX_POINT_LIGHTS);
    for (var i = 0u; i < count; i++) {
        let light = lights.point_lights[i];
        let to_light = light.position - in.world_position;
        let distance = length(to_light);
        let attenuation = 1.0 - smoothstep(light.inner_radius, light.outer_radius, distance);
        let l = to_light / max(distance, 1e-6);
        color += blinn_phong(n, v, l, light.color, albedo) * attenuation;
    }
    color += object.emissive.rgb;
    return vec4<f32>(color, object.base_color.a * in.color.a);
}
