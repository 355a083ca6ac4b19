// Forward pass: draws meshes into the HDR target, lit by the sun (through its shadow map) and
// point lights, with Blinn-Phong (Phong materials) or Cook-Torrance GGX (metallic-roughness).
//
// Phong shading model (fixed; render tests compute it analytically), all linear RGB:
//   albedo = material.base_color.rgb * vertex.color.rgb * base colour texture
//   colour = ambient * albedo
//          + sum over lights [ light * (albedo * max(N.L, 0) + specular * max(N.H, 0)^power * [N.L > 0]) * attenuation ]
//          + emissive * emissive texture
// (the sun's term times its shadow factor, ambient times occlusion) where L points from the surface towards the light, V towards the camera,
// H = normalize(L + V). The sun has attenuation 1; a point light has
// 1 - smoothstep(inner_radius, outer_radius, distance) (document 000). The
// specular term is gated by N.L > 0 so surfaces facing away from a light get no highlight.
// Metallic-roughness materials take their ambient term from the environment (`environment_pbr`:
// image-based lighting), Phong ones too when its flag says so (`environment_phong`).
// Uniform structs mirror `passes/forward.rs` (checked by a naga reflection test); the camera and
// lights (group 0, bindings 0-1) are declared in `view.wgsl`, which the pass prepends.

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


// Image-based lighting (`environment/mod.rs`). Flags: 1 Phong materials use it, 2 multiple-
// scattering energy compensation.
struct EnvironmentUniform {
    intensity: f32,
    flags: u32,
    // The prefiltered cube's last mip (roughness 1).
    max_lod: f32,
    _pad: f32,
}
@group(0) @binding(2) var<storage, read> environment: EnvironmentUniform;
// Cosine-weighted mean radiance (irradiance / pi) around a normal.
@group(0) @binding(3) var irradiance_map: texture_cube<f32>;
// Radiance prefiltered by the GGX lobe; mip = roughness * max_lod.
@group(0) @binding(4) var prefiltered_map: texture_cube<f32>;
// Split-sum table: (A, B) at (N.V, roughness), E(F0) = F0 * A + B.
@group(0) @binding(5) var brdf_lut: texture_2d<f32>;
@group(0) @binding(6) var environment_sampler: sampler;
@group(1) @binding(0) var<uniform> object: ObjectUniform;

// The sun's shadow map and `sun_shadow` are in `sun_shadow.wgsl`, which the pass prepends.

// Surface material (`material.rs`). Flags: 1 metallic-roughness (else Phong), 2 normal map,
// 4 alpha mask, 8 double-sided, 16 procedural bump detail, 32 terrain surface detail.
struct MaterialUniform {
    flags: u32,
    alpha_cutoff: f32,
    metallic: f32,
    roughness: f32,
    normal_scale: f32,
    occlusion_strength: f32,
    // First octave of the bump detail: cycles per metre, metres.
    detail_frequency: f32,
    detail_amplitude: f32,
    // Terrain surface detail (`SurfaceDetailLayers`): layer repeats per uv unit, normal scale.
    surface_detail_repeat: f32,
    surface_detail_normal_scale: f32,
}
@group(2) @binding(0) var<storage, read> material: MaterialUniform;
@group(2) @binding(1) var material_sampler: sampler;
@group(2) @binding(2) var base_color_texture: texture_2d<f32>;
// G: roughness, B: metalness (glTF).
@group(2) @binding(3) var metallic_roughness_texture: texture_2d<f32>;
@group(2) @binding(4) var normal_texture: texture_2d<f32>;
// R: ambient occlusion.
@group(2) @binding(5) var occlusion_texture: texture_2d<f32>;
@group(2) @binding(6) var emissive_texture: texture_2d<f32>;
// Terrain surface detail: layers grass, sand, rock, snow; RG normal XY, B albedo factor / 2.
@group(2) @binding(7) var surface_detail_layers: texture_2d_array<f32>;

const PI: f32 = 3.14159265;

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
    // A mirroring model matrix (negative determinant) flips the bitangent's handedness too.
    let linear = mat3x3<f32>(object.model[0].xyz, object.model[1].xyz, object.model[2].xyz);
    let mirror = select(1.0, -1.0, determinant(linear) < 0.0);
    out.tangent = vec4<f32>(linear * in.tangent.xyz, in.tangent.w * mirror);
    out.color = in.color;
    return out;
}

// Hash of a lattice point to [0, 1) ("Hash without Sine", Dave Hoskins 2014: no trigonometry,
// the same on every GPU).
fn lattice_hash(p: vec3<f32>) -> f32 {
    var q = fract(p * 0.1031);
    q += dot(q, q.zyx + 31.32);
    return fract((q.x + q.y) * q.z);
}

// Gradient of 3D value noise at `p` (quintic fade 6t^5-15t^4+10t^3; the analytic derivative of
// the trilinear blend, after Inigo Quilez's "value noise derivatives").
fn value_noise_gradient(p: vec3<f32>) -> vec3<f32> {
    let i = floor(p);
    let f = p - i;
    let u = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
    let du = 30.0 * f * f * (f * (f - 2.0) + 1.0);
    let a = lattice_hash(i);
    let b = lattice_hash(i + vec3<f32>(1.0, 0.0, 0.0));
    let c = lattice_hash(i + vec3<f32>(0.0, 1.0, 0.0));
    let d = lattice_hash(i + vec3<f32>(1.0, 1.0, 0.0));
    let e = lattice_hash(i + vec3<f32>(0.0, 0.0, 1.0));
    let f1 = lattice_hash(i + vec3<f32>(1.0, 0.0, 1.0));
    let g = lattice_hash(i + vec3<f32>(0.0, 1.0, 1.0));
    let h = lattice_hash(i + vec3<f32>(1.0, 1.0, 1.0));
    let k1 = b - a;
    let k2 = c - a;
    let k3 = e - a;
    let k4 = a - b - c + d;
    let k5 = a - c - e + g;
    let k6 = a - b - e + f1;
    let k7 = -a + b + c - d + e - f1 - g + h;
    return du * vec3<f32>(
        k1 + k4 * u.y + k6 * u.z + k7 * u.y * u.z,
        k2 + k5 * u.z + k4 * u.x + k7 * u.z * u.x,
        k3 + k6 * u.x + k5 * u.y + k7 * u.x * u.y,
    );
}

// Bump mapping (Blinn 1978) by a world-space height field of three value-noise octaves: the
// normal leans against the height gradient's part along the surface. `footprint` is the pixel's
// size in metres: an octave fades out as its wavelength shrinks below about four pixels, so
// distant surfaces do not shimmer (the noise has no mipmaps to filter it).
fn detail_bump(n: vec3<f32>, world_position: vec3<f32>, footprint: f32) -> vec3<f32> {
    var gradient = vec3<f32>(0.0);
    var frequency = material.detail_frequency;
    var amplitude = material.detail_amplitude;
    for (var octave = 0; octave < 3; octave++) {
        let fade = clamp(2.0 - 8.0 * footprint * frequency, 0.0, 1.0);
        gradient += value_noise_gradient(world_position * frequency) * (amplitude * frequency * fade);
        frequency *= 2.0;
        amplitude *= 0.5;
    }
    return normalize(n - (gradient - n * dot(n, gradient)));
}

// Class colours of the island's bands (linear RGB; `Surface::color` in sierra_terrain's
// island.rs): the terrain's vertex colour is a blend of these.
const SURFACE_WET_SAND = vec3<f32>(0.30, 0.22, 0.12);
const SURFACE_DRY_SAND = vec3<f32>(0.72, 0.60, 0.38);
const SURFACE_GRASS = vec3<f32>(0.10, 0.24, 0.04);
const SURFACE_ROCK = vec3<f32>(0.22, 0.19, 0.17);
const SURFACE_SNOW = vec3<f32>(0.90, 0.92, 0.95);

// Weights (summing to 1) of the surface layers grass, sand, rock, snow at a terrain pixel of
// vertex colour `band` and geometric up component `up` (normal.y): inverse-distance (Shepard,
// power 4) weights of the band colour to the class colours (wet and dry sand share the sand
// layer), then rock raised on steep ground (normal.y below 0.72 to 0.86, the bands' own slope
// blend), so a colour between two bands blends their layers as the band colours blend.
fn surface_weights(band: vec3<f32>, up: f32) -> vec4<f32> {
    let inv = 1.0 / (vec4<f32>(
        dot(band - SURFACE_GRASS, band - SURFACE_GRASS),
        min(dot(band - SURFACE_WET_SAND, band - SURFACE_WET_SAND),
            dot(band - SURFACE_DRY_SAND, band - SURFACE_DRY_SAND)),
        dot(band - SURFACE_ROCK, band - SURFACE_ROCK),
        dot(band - SURFACE_SNOW, band - SURFACE_SNOW),
    ) + 1e-4);
    let steep = 1.0 - smoothstep(0.72, 0.86, up);
    let w = inv * inv * vec4<f32>(1.0, 1.0, 0.5 + steep, 1.0);
    return w / (w.x + w.y + w.z + w.w);
}

struct SurfaceDetail {
    // Tangent-space normal (unit).
    normal: vec3<f32>,
    // Albedo multiplier.
    albedo: f32,
}

// The blended surface detail at texture coordinates `uv` (the mesh's, times the repeat) with
// explicit gradients (so layers of zero weight are skipped in non-uniform control flow).
fn surface_detail(uv: vec2<f32>, ddx: vec2<f32>, ddy: vec2<f32>, weights: vec4<f32>) -> SurfaceDetail {
    var xy = vec2<f32>(0.0);
    var albedo = 0.0;
    for (var k = 0; k < 4; k++) {
        let w = weights[k];
        if w > 0.01 {
            let t = textureSampleGrad(surface_detail_layers, material_sampler, uv, k, ddx, ddy);
            xy += w * (t.xy * 2.0 - 1.0);
            albedo += w * t.z * 2.0;
        } else {
            albedo += w;
        }
    }
    xy *= material.surface_detail_normal_scale;
    var out: SurfaceDetail;
    out.normal = normalize(vec3<f32>(xy, sqrt(max(1.0 - dot(xy, xy), 0.0))));
    out.albedo = albedo;
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

// Cook-Torrance microfacet BRDF times N.L for one light (glTF 2.0 Appendix B): GGX normal
// distribution, Smith-Schlick visibility (k = (r+1)^2/8, Karis 2013), Schlick Fresnel, Lambert
// diffuse. Multiplied by PI so a light of radiance 1 on a white Lambertian surface facing it gives
// 1, as in the Phong branch: both models read the same light values.
fn cook_torrance(n: vec3<f32>, v: vec3<f32>, l: vec3<f32>, light: vec3<f32>, albedo: vec3<f32>,
                 metallic: f32, roughness: f32) -> vec3<f32> {
    let n_dot_l = dot(n, l);
    if (n_dot_l <= 0.0) {
        return vec3<f32>(0.0);
    }
    let h = normalize(l + v);
    let n_dot_v = max(dot(n, v), 1e-4);
    let n_dot_h = max(dot(n, h), 0.0);
    let v_dot_h = max(dot(v, h), 0.0);
    let alpha = max(roughness * roughness, 1e-3);
    let alpha2 = alpha * alpha;
    let d_denom = n_dot_h * n_dot_h * (alpha2 - 1.0) + 1.0;
    let distribution = alpha2 / (PI * d_denom * d_denom);
    let k = (roughness + 1.0) * (roughness + 1.0) / 8.0;
    let visibility = 1.0 / ((n_dot_v * (1.0 - k) + k) * (n_dot_l * (1.0 - k) + k) * 4.0);
    let f0 = mix(vec3<f32>(0.04), albedo, metallic);
    let fresnel = f0 + (1.0 - f0) * pow(1.0 - v_dot_h, 5.0);
    let specular = distribution * visibility * fresnel;
    let diffuse = (1.0 - fresnel) * (1.0 - metallic) * albedo / PI;
    return (diffuse + specular) * PI * light * n_dot_l;
}

// Environment light on a metallic-roughness surface: split-sum specular (Karis 2013) with the
// roughness-dependent Fresnel and multiple-scattering energy compensation of Fdez-Agüera 2019
// (JCGT 8(1), listing 3): the specular lobe's missing energy Ems = 1 - Ess comes back as
// Fms * Ems of the irradiance, and dielectrics' diffuse keeps what neither lobe reflects. In a
// uniform environment of radiance L a white surface returns exactly L at any roughness.
fn environment_pbr(n: vec3<f32>, v: vec3<f32>, albedo: vec3<f32>, metallic: f32, roughness: f32) -> vec3<f32> {
    let n_dot_v = clamp(dot(n, v), 1e-4, 1.0);
    let r = reflect(-v, n);
    let f0 = mix(vec3<f32>(0.04), albedo, metallic);
    let dfg = textureSampleLevel(brdf_lut, environment_sampler, vec2<f32>(n_dot_v, roughness), 0.0).rg;
    let fr = max(vec3<f32>(1.0 - roughness), f0) - f0;
    let k_s = f0 + fr * pow(1.0 - n_dot_v, 5.0);
    let fss_ess = k_s * dfg.x + dfg.y;
    let radiance = textureSampleLevel(prefiltered_map, environment_sampler, r, roughness * environment.max_lod).rgb;
    let irradiance = textureSampleLevel(irradiance_map, environment_sampler, n, 0.0).rgb;
    let diffuse_color = albedo * (1.0 - metallic);
    var specular = fss_ess * radiance;
    var diffuse = diffuse_color * (1.0 - fss_ess) * irradiance;
    if (environment.flags & 2u) != 0u {
        let ess = dfg.x + dfg.y;
        let ems = 1.0 - ess;
        let f_avg = f0 + (1.0 - f0) / 21.0;
        let fms_ems = ems * fss_ess * f_avg / (1.0 - ems * f_avg);
        specular += fms_ems * irradiance;
        diffuse = diffuse_color * (1.0 - fss_ess - fms_ems) * irradiance;
    }
    return (specular + diffuse) * environment.intensity;
}

// Environment light on a Phong surface (when the level asks for it): the albedo under the
// irradiance, the specular colour times the radiance prefiltered at the roughness whose GGX lobe
// matches the Blinn-Phong power (alpha^2 = 2 / (power + 2), Walter et al. 2007).
fn environment_phong(n: vec3<f32>, v: vec3<f32>, albedo: vec3<f32>) -> vec3<f32> {
    let roughness = sqrt(sqrt(2.0 / (object.specular.a + 2.0)));
    let r = reflect(-v, n);
    let radiance = textureSampleLevel(prefiltered_map, environment_sampler, r, roughness * environment.max_lod).rgb;
    let irradiance = textureSampleLevel(irradiance_map, environment_sampler, n, 0.0).rgb;
    return (albedo * irradiance + object.specular.rgb * radiance) * environment.intensity;
}

// Light from one source with the material's model.
fn shade(pbr: bool, n: vec3<f32>, v: vec3<f32>, l: vec3<f32>, light: vec3<f32>, albedo: vec3<f32>,
         metallic: f32, roughness: f32) -> vec3<f32> {
    if pbr {
        return cook_torrance(n, v, l, light, albedo, metallic, roughness);
    }
    return blinn_phong(n, v, l, light, albedo);
}

// What a scene surface shows in the sea's foam view (`DebugView::Foam`): black, so only the
// sea's foam mask (`sea.wgsl`) is drawn.
fn foam_view_background(alpha: f32) -> vec4<f32> {
    return vec4<f32>(0.0, 0.0, 0.0, alpha);
}

@fragment
fn fs_main(in: VertexOut, @builtin(front_facing) front_facing: bool) -> @location(0) vec4<f32> {
    // Sample every texture first: implicit-derivative sampling needs uniform control flow.
    let base_sample = textureSample(base_color_texture, material_sampler, in.uv);
    let mr_sample = textureSample(metallic_roughness_texture, material_sampler, in.uv);
    let normal_sample = textureSample(normal_texture, material_sampler, in.uv).xyz;
    let occlusion_sample = textureSample(occlusion_texture, material_sampler, in.uv).r;
    let emissive_sample = textureSample(emissive_texture, material_sampler, in.uv).rgb;
    // Pixel footprint in metres (derivatives also need uniform control flow).
    let footprint = length(fwidth(in.world_position));
    // The triangle's own normal (flat): the shadow lookup is pushed off the triangle itself.
    let face_normal = cross(dpdx(in.world_position), dpdy(in.world_position));
    // Texture-coordinate derivatives for the surface detail's explicit-gradient samples.
    let uv_dx = dpdx(in.uv);
    let uv_dy = dpdy(in.uv);

    let base = object.base_color * in.color * base_sample;
    if (material.flags & 4u) != 0u && base.a < material.alpha_cutoff {
        discard;
    }
    if lights.debug_view == 1u {
        return base;
    }
    if lights.debug_view == 2u {
        return foam_view_background(base.a);
    }
    var n = normalize(in.normal);
    var surface = SurfaceDetail(vec3<f32>(0.0, 0.0, 1.0), 1.0);
    if (material.flags & 32u) != 0u {
        let uv = in.uv * material.surface_detail_repeat;
        let r = material.surface_detail_repeat;
        surface = surface_detail(uv, uv_dx * r, uv_dy * r, surface_weights(in.color.rgb, n.y));
    }
    // Double-sided: the back face is lit as seen, with the flipped normal (glTF §3.9.5).
    let back = (material.flags & 8u) != 0u && !front_facing;
    if back {
        n = -n;
    }
    if (material.flags & 2u) != 0u {
        // TBN (seed 000 "Normal mapping"): Gram-Schmidt tangent, bitangent = cross(N, T) * w so
        // mirrored UVs (w = -1) bend the normal the right way.
        let t = normalize(in.tangent.xyz - n * dot(n, in.tangent.xyz));
        let b = cross(n, t) * in.tangent.w;
        let m = (normal_sample * 2.0 - 1.0) * vec3<f32>(material.normal_scale, material.normal_scale, 1.0);
        n = normalize(t * m.x + b * m.y + n * m.z);
    }
    if (material.flags & 32u) != 0u {
        // The layers' normal in the same tangent frame, on top of the normal map.
        let t = normalize(in.tangent.xyz - n * dot(n, in.tangent.xyz));
        let b = cross(n, t) * in.tangent.w;
        let m = surface.normal;
        n = normalize(t * m.x + b * m.y + n * m.z);
    }
    if (material.flags & 16u) != 0u {
        n = detail_bump(n, in.world_position, footprint);
    }
    let v = normalize(camera.position.xyz - in.world_position);
    let albedo = base.rgb * surface.albedo;
    let pbr = (material.flags & 1u) != 0u;
    let metallic = material.metallic * mr_sample.b;
    let roughness = material.roughness * mr_sample.g;
    let occlusion = mix(1.0, occlusion_sample, material.occlusion_strength);

    var ambient = lights.ambient * albedo;
    if pbr {
        ambient = environment_pbr(n, v, albedo, metallic, roughness);
    } else if (environment.flags & 1u) != 0u {
        ambient = environment_phong(n, v, albedo);
    }
    var color = ambient * occlusion;
    let sun = shade(pbr, n, v, lights.to_sun, lights.sun_color, albedo, metallic, roughness);
    // The shadow lookup is pushed along the triangle's flat normal, not the smooth one: near the
    // terminator of a coarse round mesh the smooth normal still faces the sun while the facet
    // itself is edge-on, and a push along the smooth normal leaves the point in the shadow of
    // the neighbouring facet (a ladder of lit and shadowed rings down a mannequin's side).
    let smooth_normal = normalize(in.normal) * select(1.0, -1.0, back);
    var flat_normal = smooth_normal;
    if dot(face_normal, face_normal) > 1e-20 {
        flat_normal = normalize(face_normal);
        flat_normal *= select(-1.0, 1.0, dot(flat_normal, smooth_normal) >= 0.0);
    }
    color += sun * shadow_in_water(sun_shadow(in.world_position, flat_normal), lights.water_level - in.world_position.y);
    let count = min(lights.point_light_count, MAX_POINT_LIGHTS);
    for (var i = 0u; i < count; i++) {
        let light = lights.point_lights[i];
        let to_light = light.position - in.world_position;
        let distance = length(to_light);
        let attenuation = 1.0 - smoothstep(light.inner_radius, light.outer_radius, distance);
        let l = to_light / max(distance, 1e-6);
        color += shade(pbr, n, v, l, light.color, albedo, metallic, roughness) * attenuation;
    }
    color += object.emissive.rgb * emissive_sample;
    return vec4<f32>(color, base.a);
}
