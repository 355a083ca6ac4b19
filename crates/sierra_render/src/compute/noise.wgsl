// Improved Perlin noise (Perlin 2002) and fBm (thesis, seed 002, Annex F) in f32.
// The operations and their order mirror sierra_terrain's f32 CPU path (noise/perlin.rs,
// noise/fbm.rs), so results agree to float rounding (a compiler may fuse a*b+c into one FMA).
// The permutation is uploaded as a storage buffer: 512 u32, entry i + 256 equal to entry i.

struct NoiseParams {
    // 0 perlin2, 1 perlin3, 2 fbm2, 3 fbm3.
    noise_function: u32,
    // fBm signal: 0 standard, 1 ridged (1-|n|)^2, 2 billow |n|.
    kind: u32,
    full_octaves: u32,
    // Number of points (points entry) or width * height (grid entry).
    count: u32,
    fraction: f32,
    lacunarity: f32,
    gain: f32,
    _pad0: f32,
    grid_origin: vec2<f32>,
    grid_spacing: vec2<f32>,
    grid_size: vec2<u32>,
    // Invocations per row of the 2D dispatch used by the points entry.
    points_row: u32,
    _pad1: u32,
}

@group(0) @binding(0) var<storage, read> perm: array<u32, 512>;
@group(0) @binding(1) var<uniform> params: NoiseParams;
@group(0) @binding(2) var<storage, read> points: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> values: array<f32>;

fn fade(t: f32) -> f32 {
    return t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
}

fn lerp1(t: f32, a: f32, b: f32) -> f32 {
    return a + t * (b - a);
}

fn grad(hash: u32, x: f32, y: f32, z: f32) -> f32 {
    let h = hash & 15u;
    let u = select(y, x, h < 8u);
    var v = z;
    if (h < 4u) {
        v = y;
    } else if (h == 12u || h == 14u) {
        v = x;
    }
    return select(-u, u, (h & 1u) == 0u) + select(-v, v, (h & 2u) == 0u);
}

fn p(i: u32) -> u32 {
    return perm[i & 511u];
}

fn perlin3(q: vec3<f32>) -> f32 {
    let f = floor(q);
    let xi = u32(i32(f.x) & 255);
    let yi = u32(i32(f.y) & 255);
    let zi = u32(i32(f.z) & 255);
    let x = q.x - f.x;
    let y = q.y - f.y;
    let z = q.z - f.z;
    let u = fade(x);
    let v = fade(y);
    let w = fade(z);
    let a = p(xi) + yi;
    let aa = p(a) + zi;
    let ab = p(a + 1u) + zi;
    let b = p(xi + 1u) + yi;
    let ba = p(b) + zi;
    let bb = p(b + 1u) + zi;
    return lerp1(w,
        lerp1(v, lerp1(u, grad(p(aa), x, y, z), grad(p(ba), x - 1.0, y, z)),
                 lerp1(u, grad(p(ab), x, y - 1.0, z), grad(p(bb), x - 1.0, y - 1.0, z))),
        lerp1(v, lerp1(u, grad(p(aa + 1u), x, y, z - 1.0), grad(p(ba + 1u), x - 1.0, y, z - 1.0)),
                 lerp1(u, grad(p(ab + 1u), x, y - 1.0, z - 1.0), grad(p(bb + 1u), x - 1.0, y - 1.0, z - 1.0))));
}

fn signal(n: f32) -> f32 {
    if (params.kind == 1u) {
        let r = 1.0 - abs(n);
        return r * r;
    } else if (params.kind == 2u) {
        return abs(n);
    }
    return n;
}

// perlin2(x, y) = perlin3(x, y, 0): the far face's weight fade(0) is exactly 0.
fn octave(q: vec3<f32>, freq: f32, three_d: bool) -> f32 {
    if (three_d) {
        return perlin3(vec3<f32>(q.x * freq, q.y * freq, q.z * freq));
    }
    return perlin3(vec3<f32>(q.x * freq, q.y * freq, 0.0));
}

fn fbm(q: vec3<f32>, three_d: bool) -> f32 {
    var sum = 0.0;
    var freq = 1.0;
    var amp = 1.0;
    for (var i = 0u; i < params.full_octaves; i = i + 1u) {
        sum = sum + signal(octave(q, freq, three_d)) * amp;
        freq = freq * params.lacunarity;
        amp = amp * params.gain;
    }
    if (params.fraction > 0.0) {
        sum = sum + signal(octave(q, freq, three_d)) * amp * params.fraction;
    }
    return sum;
}

fn evaluate(q: vec3<f32>) -> f32 {
    switch params.noise_function {
        case 0u: { return perlin3(vec3<f32>(q.x, q.y, 0.0)); }
        case 1u: { return perlin3(q); }
        case 2u: { return fbm(q, false); }
        default: { return fbm(q, true); }
    }
}

@compute @workgroup_size(64)
fn points_main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x + id.y * params.points_row;
    if (i >= params.count) {
        return;
    }
    values[i] = evaluate(points[i].xyz);
}

// Grid sample (i, j) at (x0 + i * dx, y0 + j * dy), z = 0; row-major output.
@compute @workgroup_size(16, 16)
fn grid_main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= params.grid_size.x || id.y >= params.grid_size.y) {
        return;
    }
    let x = params.grid_origin.x + f32(id.x) * params.grid_spacing.x;
    let y = params.grid_origin.y + f32(id.y) * params.grid_spacing.y;
    values[id.y * params.grid_size.x + id.x] = evaluate(vec3<f32>(x, y, 0.0));
}
