// Environment bake kernels (`environment/bake.rs`), appended to `passes/sky_radiance.wgsl` so the source
// kernel evaluates the very sky the sky pass draws (`sky_radiance`, without the sun's disc: the
// sun lights the scene as a light of its own).
//
// Cube faces follow the sampler's convention (WebGPU/Vulkan: +X, -X, +Y, -Y, +Z, -Z); a face is
// one layer of a 2D-array view, texel (x, y) with y down.
//
// Sources: GGX importance sampling and the split-sum BRDF table (Karis 2013, "Real Shading in
// Unreal Engine 4"), filtered importance sampling (Křivánek & Colbert 2008, GPU Gems 3 ch. 20:
// each sample reads the source mip whose texel covers the sample's solid angle), the
// height-correlated Smith visibility (Heitz 2014; Filament's `V_SmithGGXCorrelated`).

const BAKE_PI: f32 = 3.14159265;

// One step's constants (one buffer per step, written once).
struct BakeStep {
    // Face written by `bake_source` (the others write all six, one per workgroup z).
    face: u32,
    // Output side in texels.
    size: u32,
    // Samples per output texel.
    samples: u32,
    // Perceptual roughness of a prefiltered mip.
    roughness: f32,
    // Side of the source cube's mip 0, and its mip count.
    source_size: f32,
    source_mips: f32,
    _pad: vec2<f32>,
}

// Where the environment's radiance comes from.
struct BakeSource {
    // 0: the procedural sky (`sky`), 1: a uniform colour, 2: an equirectangular image.
    mode: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
    // rgb: radiance of the uniform source.
    color: vec4<f32>,
}

// The sky's parameters (`SkyUniform`, `passes/sky_radiance.wgsl`) as the source kernel reads them.
@group(0) @binding(0) var<uniform> sky: SkyUniform;
@group(0) @binding(1) var<storage, read> source: BakeSource;
@group(0) @binding(2) var<storage, read> step: BakeStep;
@group(0) @binding(3) var equirect: texture_2d<f32>;
@group(0) @binding(4) var bake_sampler: sampler;
@group(0) @binding(5) var environment_cube: texture_cube<f32>;
@group(0) @binding(6) var mip_above: texture_2d_array<f32>;
@group(0) @binding(7) var output_faces: texture_storage_2d_array<rgba16float, write>;
@group(0) @binding(8) var output_lut: texture_storage_2d<rgba16float, write>;

// World direction through the centre of texel `texel` of `face` of a `size`-texel cube.
fn cube_direction(face: u32, texel: vec2<u32>, size: u32) -> vec3<f32> {
    let uv = (vec2<f32>(texel) + 0.5) / f32(size) * 2.0 - 1.0;
    let u = uv.x;
    let v = uv.y;
    var dir: vec3<f32>;
    switch face {
        case 0u: { dir = vec3<f32>(1.0, -v, -u); }
        case 1u: { dir = vec3<f32>(-1.0, -v, u); }
        case 2u: { dir = vec3<f32>(u, 1.0, v); }
        case 3u: { dir = vec3<f32>(u, -1.0, -v); }
        case 4u: { dir = vec3<f32>(u, -v, 1.0); }
        default: { dir = vec3<f32>(-u, -v, -1.0); }
    }
    return normalize(dir);
}

// The source's radiance along unit `dir`.
fn source_radiance(dir: vec3<f32>) -> vec3<f32> {
    if source.mode == 1u {
        return source.color.rgb;
    }
    if source.mode == 2u {
        // Equirectangular: u = longitude from -Z towards +X, v = polar angle from +Y.
        let uv = vec2<f32>(atan2(dir.x, -dir.z) / (2.0 * BAKE_PI) + 0.5, acos(clamp(dir.y, -1.0, 1.0)) / BAKE_PI);
        return textureSampleLevel(equirect, bake_sampler, uv, 0.0).rgb * source.color.rgb;
    }
    return sky_radiance(dir, 0.0);
}

// Mip 0 of one face of the source cube.
@compute @workgroup_size(8, 8, 1)
fn bake_source(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= step.size || id.y >= step.size {
        return;
    }
    let dir = cube_direction(step.face, id.xy, step.size);
    textureStore(output_faces, id.xy, step.face, vec4<f32>(source_radiance(dir), 1.0));
}

// One mip of all six faces: the average of the 2x2 texels above it.
@compute @workgroup_size(8, 8, 1)
fn bake_downsample(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= step.size || id.y >= step.size {
        return;
    }
    let face = i32(id.z);
    let p = vec2<i32>(id.xy) * 2;
    let sum = textureLoad(mip_above, p, face, 0) + textureLoad(mip_above, p + vec2<i32>(1, 0), face, 0)
        + textureLoad(mip_above, p + vec2<i32>(0, 1), face, 0) + textureLoad(mip_above, p + vec2<i32>(1, 1), face, 0);
    textureStore(output_faces, id.xy, id.z, vec4<f32>(sum.rgb * 0.25, 1.0));
}

// Hammersley point `i` of `n` in [0, 1)^2.
fn hammersley(i: u32, n: u32) -> vec2<f32> {
    return vec2<f32>(f32(i) / f32(n), f32(reverseBits(i)) * 2.3283064365386963e-10);
}

// An orthonormal frame whose third axis is unit `n`.
fn tangent_frame(n: vec3<f32>) -> mat3x3<f32> {
    var up = vec3<f32>(0.0, 0.0, 1.0);
    if abs(n.z) > 0.999 {
        up = vec3<f32>(1.0, 0.0, 0.0);
    }
    let t = normalize(cross(up, n));
    return mat3x3<f32>(t, cross(n, t), n);
}

// A GGX half vector (alpha = roughness^2) around +Z for the point `xi`.
fn sample_ggx(xi: vec2<f32>, alpha: f32) -> vec3<f32> {
    let phi = 2.0 * BAKE_PI * xi.x;
    let cos_theta = sqrt((1.0 - xi.y) / (1.0 + (alpha * alpha - 1.0) * xi.y));
    let sin_theta = sqrt(max(1.0 - cos_theta * cos_theta, 0.0));
    return vec3<f32>(sin_theta * cos(phi), sin_theta * sin(phi), cos_theta);
}

fn ggx_distribution(n_dot_h: f32, alpha: f32) -> f32 {
    let a2 = alpha * alpha;
    let d = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
    return a2 / (BAKE_PI * d * d);
}

// Source mip whose texels cover a sample of probability density `pdf` (per steradian) among
// `step.samples` (filtered importance sampling), one level blurrier to hide the sample pattern.
fn sample_lod(pdf: f32) -> f32 {
    let texel_solid_angle = 4.0 * BAKE_PI / (6.0 * step.source_size * step.source_size);
    let sample_solid_angle = 1.0 / (f32(step.samples) * max(pdf, 1e-8));
    return clamp(0.5 * log2(sample_solid_angle / texel_solid_angle) + 1.0, 0.0, step.source_mips - 1.0);
}

// Diffuse irradiance over pi (the cosine-weighted mean radiance) around each texel's direction.
@compute @workgroup_size(8, 8, 1)
fn bake_irradiance(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= step.size || id.y >= step.size {
        return;
    }
    let n = cube_direction(id.z, id.xy, step.size);
    let frame = tangent_frame(n);
    var sum = vec3<f32>(0.0);
    for (var i = 0u; i < step.samples; i++) {
        let xi = hammersley(i, step.samples);
        // Cosine-weighted direction (Malley's method): pdf = cos(theta) / pi.
        let r = sqrt(xi.y);
        let phi = 2.0 * BAKE_PI * xi.x;
        let cos_theta = sqrt(max(1.0 - xi.y, 0.0));
        let l = frame * vec3<f32>(r * cos(phi), r * sin(phi), cos_theta);
        let lod = sample_lod(cos_theta / BAKE_PI);
        sum += textureSampleLevel(environment_cube, bake_sampler, l, lod).rgb;
    }
    textureStore(output_faces, id.xy, id.z, vec4<f32>(sum / f32(step.samples), 1.0));
}

// One mip of the prefiltered specular cube: the source convolved with the GGX lobe of
// `step.roughness` around the reflection direction (n = v = r, Karis 2013), weighted by N.L.
@compute @workgroup_size(8, 8, 1)
fn bake_prefilter(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= step.size || id.y >= step.size {
        return;
    }
    let n = cube_direction(id.z, id.xy, step.size);
    if step.roughness <= 0.0 {
        // A mirror: the source itself.
        let mirror = textureSampleLevel(environment_cube, bake_sampler, n, 0.0).rgb;
        textureStore(output_faces, id.xy, id.z, vec4<f32>(mirror, 1.0));
        return;
    }
    let alpha = step.roughness * step.roughness;
    let frame = tangent_frame(n);
    var sum = vec3<f32>(0.0);
    var weight = 0.0;
    for (var i = 0u; i < step.samples; i++) {
        let h = frame * sample_ggx(hammersley(i, step.samples), alpha);
        let n_dot_h = dot(n, h);
        let l = 2.0 * n_dot_h * h - n;
        let n_dot_l = dot(n, l);
        if n_dot_l > 0.0 {
            // pdf of l: D * (N.H) / (4 V.H), with V.H = N.H here.
            let lod = sample_lod(ggx_distribution(n_dot_h, alpha) * 0.25);
            sum += textureSampleLevel(environment_cube, bake_sampler, l, lod).rgb * n_dot_l;
            weight += n_dot_l;
        }
    }
    textureStore(output_faces, id.xy, id.z, vec4<f32>(sum / max(weight, 1e-6), 1.0));
}

// Height-correlated Smith visibility G / (4 N.L N.V) (Heitz 2014).
fn smith_visibility(n_dot_v: f32, n_dot_l: f32, alpha: f32) -> f32 {
    let a2 = alpha * alpha;
    let gv = n_dot_l * sqrt(n_dot_v * n_dot_v * (1.0 - a2) + a2);
    let gl = n_dot_v * sqrt(n_dot_l * n_dot_l * (1.0 - a2) + a2);
    return 0.5 / max(gv + gl, 1e-8);
}

// Split-sum BRDF table: texel (i, j) at N.V = (i + 0.5) / size, roughness = (j + 0.5) / size
// holds (A, B) with the specular directional albedo E(F0) = F0 * A + B (Karis 2013); A + B is
// the single-scattering energy Ess the forward pass compensates (Fdez-Agüera 2019).
@compute @workgroup_size(8, 8, 1)
fn bake_brdf_lut(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= step.size || id.y >= step.size {
        return;
    }
    let n_dot_v = (f32(id.x) + 0.5) / f32(step.size);
    let roughness = (f32(id.y) + 0.5) / f32(step.size);
    let alpha = roughness * roughness;
    let v = vec3<f32>(sqrt(1.0 - n_dot_v * n_dot_v), 0.0, n_dot_v);
    var a = 0.0;
    var b = 0.0;
    for (var i = 0u; i < step.samples; i++) {
        let h = sample_ggx(hammersley(i, step.samples), alpha);
        let v_dot_h = dot(v, h);
        let l = 2.0 * v_dot_h * h - v;
        let n_dot_l = l.z;
        if n_dot_l > 0.0 && v_dot_h > 0.0 {
            // BRDF * N.L / pdf with pdf = D N.H / (4 V.H): the D cancels.
            let g_vis = smith_visibility(n_dot_v, n_dot_l, alpha) * 4.0 * n_dot_l * v_dot_h / h.z;
            let fc = pow(1.0 - v_dot_h, 5.0);
            a += (1.0 - fc) * g_vis;
            b += fc * g_vis;
        }
    }
    let n = f32(step.samples);
    textureStore(output_lut, id.xy, vec4<f32>(a / n, b / n, 0.0, 1.0));
}
