// The sea: a grid displaced by the simulated water (compute/water.wgsl buffers, read directly
// in the vertex shader: no CPU round trip), normals from height differences bent by
// procedural detail waves, shallow/deep colour from depth (Beer-Lambert-like absorption),
// Schlick Fresnel towards the sky colour, a GGX sun glint, the sun's shadow (the forward
// pass's lookup, `sun_shadow.wgsl`), and soft foam from the simulation's fields (shallow,
// fast and converging water) broken up by noise. Linear HDR out, blended.

// Prepended with `view.wgsl` and `sun_shadow.wgsl`: group 0 is the view group (`camera`:
// view-projection and position; `lights`: the sun's direction and colour, the ambient light
// and the debug view; the sun's shadow map), written once a frame by the renderer.
// Group 1 holds the sea's own data: its parameters and the water's buffers.

struct SeaUniforms {
    // rgb shallow colour, a: absorption depth scale (m).
    shallow: vec4<f32>,
    // rgb deep colour, a: height of ground over which the transmittance fades to zero (m).
    deep: vec4<f32>,
    // rgb sky colour reflected at grazing angles, a world y of the hidden floor: over ground
    // below it the sea is opaque (the landscape may leave that ground out,
    // SeaSettings::opaque_floor_depth).
    sky: vec4<f32>,
    // x: foam depth (m), y: foam speed (m/s), z: specular strength, w: min visible depth (m).
    foam: vec4<f32>,
    // xyz: world position of the grid's corner (cell (0,0) starts here), w: cell size (m).
    origin: vec4<f32>,
    // x cols, y rows, z vertex stride (cells), w 1: wireframe drawn with barycentric edges
    // (devices without line mode), else 0.
    grid: vec4<u32>,
    // The open sea around the grid: x rest level (world y, m), y half-side of the square it
    // fills (m, from the grid's centre; 0 = none), z depth its colour is taken at (m); w the
    // frame's time (s, wrapped every 1024 s) that animates foam and detail waves.
    far: vec4<f32>,
    // The sun's glint: x GGX alpha of the water without its detail waves, y the most its
    // radiance may be, in units of the sun's light value.
    glint: vec4<f32>,
    // x: bit 0 the pre-#49 look (`SeaSettings::legacy`), bit 1 the sun's shadow received.
    flags: vec4<u32>,
};

@group(1) @binding(0) var<uniform> u: SeaUniforms;
@group(1) @binding(1) var<storage, read> terrain: array<f32>;
@group(1) @binding(2) var<storage, read> water_depth: array<f32>;
@group(1) @binding(3) var<storage, read> velocity: array<vec2<f32>>;
// The ground at the terrain mesh's resolution: [origin x, origin z, spacing, resolution, heights
// (row-major)...]; resolution 0 = none (SeaPass::set_shore).
@group(1) @binding(4) var<storage, read> shore: array<f32>;

// One level-of-detail tile (passes/sea_lod.rs): cell = (first col, first row, stride, quads
// along X), span = (quads along Z, last col, last row, 0), neighbours = strides of the left,
// right, top and bottom tiles (0: none).
struct SeaTile {
    cell: vec4<u32>,
    span: vec4<u32>,
    neighbours: vec4<u32>,
};
// Drawn as instance 2 + t (instance 0: the whole grid at one stride, 1: the open sea).
@group(1) @binding(5) var<storage, read> tiles: array<SeaTile>;

struct VsOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) depth: f32,
    @location(3) speed: f32,
    // 1 on the open-sea ring around the grid, 0 on the simulated grid.
    @location(4) far: f32,
    // Barycentric coordinates in the vertex's triangle (the barycentric wireframe).
    @location(5) bary: vec3<f32>,
};

fn surface(x: u32, y: u32) -> f32 {
    let i = y * u.grid.x + x;
    return terrain[i] + water_depth[i];
}

// The open sea beyond the simulated grid (instance 1): four flat quads at rest level joining the
// grid's outer vertex ring to a square `far.y` metres from its centre, shaded as deep still
// water by the same fragment shader, so the grid's edge does not show.
fn open_sea_vertex(vi: u32) -> VsOut {
    let cell = u.origin.w;
    // The ring reaches one cell under the grid (drawn first, the grid blends over it), so the
    // grid's wavy outer edge leaves no crack against the ring's straight one.
    let inner_min = u.origin.xz + vec2<f32>(1.5 * cell);
    let inner_max = u.origin.xz + (vec2<f32>(f32(u.grid.x), f32(u.grid.y)) - 1.5) * cell;
    let centre = 0.5 * (inner_min + inner_max);
    let outer_min = centre - vec2<f32>(u.far.y);
    let outer_max = centre + vec2<f32>(u.far.y);
    // Corners of the inner rectangle and the outer square, counter-clockwise seen from +Y.
    var inner = array<vec2<f32>, 4>(
        inner_min, vec2<f32>(inner_min.x, inner_max.y), inner_max, vec2<f32>(inner_max.x, inner_min.y),
    );
    var outer = array<vec2<f32>, 4>(
        outer_min, vec2<f32>(outer_min.x, outer_max.y), outer_max, vec2<f32>(outer_max.x, outer_min.y),
    );
    // Side k is the quad between corners k and k + 1 of both rings.
    let k = vi / 6u;
    let k1 = (k + 1u) % 4u;
    var quad = array<vec2<f32>, 6>(inner[k], outer[k], outer[k1], inner[k], outer[k1], inner[k1]);
    let xz = quad[vi % 6u];
    let world = vec3<f32>(xz.x, u.far.x, xz.y);
    var out: VsOut;
    out.clip = camera.view_proj * vec4<f32>(world, 1.0);
    out.world = world;
    out.normal = vec3<f32>(0.0, 1.0, 0.0);
    out.depth = u.far.z;
    out.speed = 0.0;
    out.far = 1.0;
    return out;
}

// Height drawn at vertex (x, y): the water surface, or just under the ground where dry (the
// terrain hides it; the fragment discards too).
fn shown_height(x: u32, y: u32) -> f32 {
    let i = y * u.grid.x + x;
    let d = water_depth[i];
    if d < u.foam.w {
        return terrain[i] - 0.05;
    }
    return terrain[i] + d;
}

// Corner `k` of the two counter-clockwise triangles (seen from +Y) of a quad.
fn quad_corner(k: u32) -> vec2<u32> {
    var corners = array<vec2<u32>, 6>(
        vec2<u32>(0u, 0u), vec2<u32>(0u, 1u), vec2<u32>(1u, 0u),
        vec2<u32>(1u, 0u), vec2<u32>(0u, 1u), vec2<u32>(1u, 1u),
    );
    return corners[k];
}

// The grid vertex at cell (x, y) drawn at height `h`, normals from differences `s` cells apart.
fn grid_vertex(x: u32, y: u32, s: u32, h: f32) -> VsOut {
    let cols = u.grid.x;
    let rows = u.grid.y;
    let i = y * cols + x;
    let cell = u.origin.w;
    let xl = select(0u, x - s, x >= s);
    let xr = min(x + s, cols - 1u);
    let yt = select(0u, y - s, y >= s);
    let yb = min(y + s, rows - 1u);
    let dhdx = (surface(xr, y) - surface(xl, y)) / (max(f32(xr - xl), 1.0) * cell);
    let dhdz = (surface(x, yb) - surface(x, yt)) / (max(f32(yb - yt), 1.0) * cell);
    let world = u.origin.xyz + vec3<f32>((f32(x) + 0.5) * cell, h, (f32(y) + 0.5) * cell);
    var out: VsOut;
    out.clip = camera.view_proj * vec4<f32>(world, 1.0);
    out.world = world;
    out.normal = vec3<f32>(-dhdx, 1.0, -dhdz);
    out.depth = water_depth[i];
    out.speed = length(velocity[i]);
    out.far = 0.0;
    return out;
}

// Height at vertex (x, y) on a tile edge running along Y (`along_y`) or X whose coarser
// neighbour draws only every `coarse`-th vertex (0: the neighbour is not coarser): on the
// straight line between the neighbour's two vertices around it, else `h`.
fn on_coarse_edge(x: u32, y: u32, coarse: u32, along_y: bool, h: f32) -> f32 {
    let t = select(x, y, along_y);
    if coarse == 0u || t % coarse == 0u {
        return h;
    }
    let t0 = t - t % coarse;
    let t1 = min(t0 + coarse, select(u.grid.x, u.grid.y, along_y) - 1u);
    let a = select(vec2<u32>(t0, y), vec2<u32>(x, t0), along_y);
    let b = select(vec2<u32>(t1, y), vec2<u32>(x, t1), along_y);
    let n = max(t1 - t0, 1u);
    return mix(shown_height(a.x, a.y), shown_height(b.x, b.y), f32(t - t0) / f32(n));
}

// Vertex `vi` of LOD tile `tile`: its quads at the tile's stride; edge vertices a coarser
// neighbour lacks are moved onto the neighbour's edge, so the tiles meet without cracks.
fn tile_vertex(vi: u32, tile: SeaTile) -> VsOut {
    let s = tile.cell.z;
    let quad = vi / 6u;
    let q = vec2<u32>(quad % tile.cell.w, quad / tile.cell.w);
    let c = tile.cell.xy + (q + quad_corner(vi % 6u)) * s;
    let x = min(c.x, tile.span.y);
    let y = min(c.y, tile.span.z);
    var h = shown_height(x, y);
    let n = tile.neighbours;
    // Left/right edges run along Z: snap rows; top/bottom edges run along X: snap columns.
    var coarse = 0u;
    if x == tile.cell.x && n.x > s { coarse = n.x; }
    if x == tile.span.y && n.y > s { coarse = n.y; }
    h = on_coarse_edge(x, y, coarse, true, h);
    coarse = 0u;
    if y == tile.cell.y && n.z > s { coarse = n.z; }
    if y == tile.span.z && n.w > s { coarse = n.w; }
    h = on_coarse_edge(x, y, coarse, false, h);
    return grid_vertex(x, y, s, h);
}

@vertex
fn vs_main(@builtin(vertex_index) vi: u32, @builtin(instance_index) instance: u32) -> VsOut {
    var out: VsOut;
    if instance == 1u {
        out = open_sea_vertex(vi);
    } else if instance >= 2u {
        out = tile_vertex(vi, tiles[instance - 2u]);
    } else {
        let cols = u.grid.x;
        let rows = u.grid.y;
        let s = u.grid.z;
        let quads_x = (cols - 1u) / s;
        let quad = vi / 6u;
        let c = (vec2<u32>(quad % quads_x, quad / quads_x) + quad_corner(vi % 6u)) * s;
        let x = min(c.x, cols - 1u);
        let y = min(c.y, rows - 1u);
        out = grid_vertex(x, y, s, shown_height(x, y));
    }
    // Corner k of each triangle (vertices 0-2 and 3-5 of a quad) gets the k-th unit vector.
    var bary = vec3<f32>(0.0);
    bary[(vi % 6u) % 3u] = 1.0;
    out.bary = bary;
    return out;
}

// Hash of a lattice point to [0, 1) ("Hash without Sine", Dave Hoskins 2014: no
// trigonometry, so large world coordinates hash the same on every GPU).
fn hash2(p: vec2<f32>) -> f32 {
    var q = fract(vec3<f32>(p.x, p.y, p.x) * 0.1031);
    q += dot(q, q.yzx + 33.33);
    return fract((q.x + q.y) * q.z);
}

// Value noise in [0, 1] on a 1 m lattice (hashed corners, smooth interpolation).
fn lattice_noise(p: vec2<f32>) -> f32 {
    let i = floor(p);
    let f = p - i;
    let w = f * f * (3.0 - 2.0 * f);
    let a = hash2(i);
    let b = hash2(i + vec2<f32>(1.0, 0.0));
    let c = hash2(i + vec2<f32>(0.0, 1.0));
    let d = hash2(i + vec2<f32>(1.0, 1.0));
    return mix(mix(a, b, w.x), mix(c, d, w.x), w.y);
}

// Weight of a pattern of `frequency` cycles per metre seen with a pixel `footprint` metres
// wide: 1 up to a quarter cycle per pixel, 0 from half a cycle (Nyquist), so no octave
// aliases and each fades in smoothly as the camera approaches.
fn band_weight(frequency: f32, footprint: f32) -> f32 {
    return 1.0 - smoothstep(0.25, 0.5, frequency * footprint);
}

// The foam's break-up pattern at world `xz` (metres) and time `t` (s), in [0, 1], mean 0.5:
// value-noise fBm from 1.6 m features down to the pixel's `footprint` (octaves finer than
// the pixel fade to their mean), each octave drifting its own way so the pattern churns
// rather than slides. A rough gain (0.9) keeps the fine octaves strong: the foam's edge is
// ragged at every scale down to the pixel, never a smooth or straight line.
fn foam_noise(xz: vec2<f32>, t: f32, footprint: f32) -> f32 {
    var frequency = 0.62;
    var amplitude = 1.0;
    var sum = 0.0;
    var total = 0.0;
    var p = xz;
    for (var k = 0; k < 8; k++) {
        let drift = vec2<f32>(cos(f32(k) * 2.4), sin(f32(k) * 2.4)) * (0.25 * t);
        let n = lattice_noise((p + drift) * frequency + vec2<f32>(f32(k) * 17.3, f32(k) * 5.1));
        sum += amplitude * mix(0.5, n, band_weight(frequency, footprint));
        total += amplitude;
        frequency *= 2.03;
        amplitude *= 0.9;
    }
    return sum / total;
}

// How much foam one simulation cell `c` (column, row; clamped to the grid) makes, from its
// fields (seed 002's water columns): fast water (from `foam.y` m/s, full at twice, and only
// where there are a few foam depths of water: the speed is the flux over the depth,
// meaningless in a film running up the sand), and converging flow, where the velocity's
// divergence (central differences, du/dx + dv/dz) is negative (water piling up: a breaking
// crest), full when neighbouring cells close on each other at the foam speed.
fn cell_foam(c: vec2<i32>) -> f32 {
    let last = vec2<i32>(i32(u.grid.x) - 1, i32(u.grid.y) - 1);
    let p = clamp(c, vec2<i32>(0), last);
    let cols = i32(u.grid.x);
    let i = p.y * cols + p.x;
    let depth = water_depth[i];
    let left = velocity[p.y * cols + max(p.x - 1, 0)].x;
    let right = velocity[p.y * cols + min(p.x + 1, last.x)].x;
    let top = velocity[max(p.y - 1, 0) * cols + p.x].y;
    let bottom = velocity[min(p.y + 1, last.y) * cols + p.x].y;
    let divergence = (right - left + bottom - top) / (2.0 * u.origin.w);
    let deep_enough = smoothstep(u.foam.x, 4.0 * u.foam.x, depth);
    let fast = smoothstep(u.foam.y, 2.0 * u.foam.y, length(velocity[i])) * deep_enough;
    let converging = smoothstep(0.25, 1.0, -divergence * u.origin.w / u.foam.y) * deep_enough;
    return fast + converging;
}

// The simulation's foam (`cell_foam`) at world `xz`, bilinear between the four nearest cell
// centres: read in the fragment shader, not interpolated over the drawn triangles, so its
// level lines are not the triangles' straight ones.
fn field_foam(xz: vec2<f32>) -> f32 {
    let g = (xz - u.origin.xz) / u.origin.w - 0.5;
    let c = vec2<i32>(floor(g));
    let f = g - floor(g);
    let top = mix(cell_foam(c), cell_foam(c + vec2<i32>(1, 0)), f.x);
    let bottom = mix(cell_foam(c + vec2<i32>(0, 1)), cell_foam(c + vec2<i32>(1, 1)), f.x);
    return mix(top, bottom, f.y);
}

// A displacement of up to half a metre either way at world `xz` and time `t` (two octaves
// of noise, 2.9 m and 1.4 m features): the foam reads its fields and its pattern at
// `xz + warp * scale` (domain warping), so their level lines curl instead of running straight.
fn foam_warp(xz: vec2<f32>, t: f32) -> vec2<f32> {
    let q = xz * 0.35 + vec2<f32>(0.05 * t, 0.0);
    return vec2<f32>(
        0.67 * lattice_noise(q) + 0.33 * lattice_noise(2.1 * q + vec2<f32>(3.1, 7.7)),
        0.67 * lattice_noise(q + vec2<f32>(41.0, 13.0)) + 0.33 * lattice_noise(2.1 * q + vec2<f32>(9.2, 1.3)),
    ) - 0.5;
}

// How much foam there is at world `xz` over water `depth` metres deep (0 none, >= 1 full): a
// shore band where the water over the ground as drawn is under 2 `foam.x` metres deep (the
// foam keeps off the last of it, see `fs_main`), thinning out by 5 `foam.x`, plus the
// simulation's (`field_foam`) read at `xz` pushed by `warp` (`foam_warp`) up to 0.6 cells
// aside, so no level line of it is straight.
fn foam_amount(xz: vec2<f32>, warp: vec2<f32>, depth: f32) -> f32 {
    let shore = 1.0 - smoothstep(2.0 * u.foam.x, 5.0 * u.foam.x, depth);
    return shore + field_foam(xz + warp * (1.2 * u.origin.w));
}

// Foam coverage in [0, 1] where the edge function (`foam_edge`, > 0 foam) is `edge` and the
// break-up noise `noise` (mean 0.5): the edge is softened over at least `edge_width` (two
// pixels' change of the edge function, from the caller's `fwidth`) and at least 0.35, so no
// edge is a hard step, and the inside is streaky (lighter where the noise is low), not a flat
// white sheet; the streaks also rough up where the soft edge crosses half coverage.
fn foam_coverage(edge: f32, noise: f32, edge_width: f32) -> f32 {
    // At most 0.8: across a triangle's edge the derivatives can jump (helper lanes), which
    // would otherwise paint a faint line of half coverage along it.
    let w = clamp(edge_width, 0.35, 0.8);
    return smoothstep(-w, w, edge) * mix(0.3, 1.0, noise);
}

// The foam's signed edge function (> 0 foam) for a foam `amount` and the break-up `noise`:
// where the amount is small only the noise's peaks foam, where it is large only its troughs
// stay clear.
fn foam_edge(amount: f32, noise: f32) -> f32 {
    return min(amount, 1.5) - 0.75 + 3.2 * (noise - 0.5);
}

// The pre-#49 foam (flat cut-outs: thin or fast water, clamped, times two octaves of noise
// thresholded 0.2 wide), kept only as the control of the look tests (`SeaSettings::legacy`).
fn legacy_foam(xz: vec2<f32>, depth: f32, speed: f32) -> f32 {
    let thin = 1.0 - smoothstep(0.0, u.foam.x, depth);
    let fast = smoothstep(u.foam.y, 2.0 * u.foam.y, speed) * smoothstep(u.foam.x, 4.0 * u.foam.x, depth);
    let amount = clamp(thin + fast, 0.0, 1.0);
    let n = 0.65 * lattice_noise(xz * 0.75) + 0.35 * lattice_noise(xz * 2.2 + vec2<f32>(17.0, 5.0));
    let cut = mix(0.75, 0.45, clamp(amount, 0.0, 1.0));
    return clamp(amount, 0.0, 1.0) * smoothstep(cut, cut + 0.2, n);
}

// Value noise (as `lattice_noise`) and its gradient: x value in [0, 1], yz d/dx, d/dy.
fn lattice_noise_gradient(p: vec2<f32>) -> vec3<f32> {
    let i = floor(p);
    let f = p - i;
    let w = f * f * (3.0 - 2.0 * f);
    let dw = 6.0 * f * (1.0 - f);
    let a = hash2(i);
    let b = hash2(i + vec2<f32>(1.0, 0.0));
    let c = hash2(i + vec2<f32>(0.0, 1.0));
    let d = hash2(i + vec2<f32>(1.0, 1.0));
    let k = a - b - c + d;
    let value = a + (b - a) * w.x + (c - a) * w.y + k * w.x * w.y;
    let gradient = dw * vec2<f32>(b - a + k * w.y, c - a + k * w.x);
    return vec3<f32>(value, gradient);
}

// Slope (dh/dx, dh/dz) of the sea's detail waves at world `xz` and time `t`, and in z the
// slope variance the pixel's `footprint` filtered away: Sierra's own procedural detail
// normal map, three octaves of value-noise height (0.9 m, 0.45 m and 0.22 m features, each
// drifting with the wind at the speed of deep-water waves of its size, sqrt(g / k)) with an
// RMS slope of about 0.035 each: ripples that break the glint into sparse sparkles (the
// glint's lobe is far narrower than their slopes). An octave finer than the pixel fades out (`band_weight`) and its slope
// variance goes to the glint's roughness instead (Toksvig 2005), so the glint neither aliases
// nor changes its energy with distance.
fn detail_slope(xz: vec2<f32>, t: f32, footprint: f32) -> vec3<f32> {
    var slope = vec2<f32>(0.0);
    var lost = 0.0;
    var frequency = 1.1;
    for (var k = 0; k < 3; k++) {
        let wind = vec2<f32>(cos(0.6 * f32(k) - 0.3), sin(0.6 * f32(k) - 0.3));
        let speed = sqrt(9.81 / (6.2831853 * frequency));
        let p = (xz - wind * speed * t) * frequency + vec2<f32>(f32(k) * 31.7, f32(k) * 11.3);
        // Value noise's gradient has an RMS of about 0.45 per lattice step; a height of
        // 0.078 / f metres per unit of noise makes slopes of RMS 0.035 at any frequency f.
        let w = band_weight(frequency, footprint);
        slope += w * 0.078 * lattice_noise_gradient(p).yz;
        lost += (1.0 - w * w) * 0.035 * 0.035;
        frequency *= 2.0;
    }
    return vec3<f32>(slope, lost);
}

// GGX (Trowbridge-Reitz) normal distribution times the height-correlated Smith visibility
// (Heitz 2014; the form of glTF 2.0 Appendix B) and N.L, for GGX alpha `a`: the sun's
// specular radiance per unit of its light value, before Fresnel.
fn ggx_specular(n_dot_h: f32, n_dot_v: f32, n_dot_l: f32, a: f32) -> f32 {
    let a2 = a * a;
    let d = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
    let distribution = a2 / (3.14159265 * d * d);
    let gv = n_dot_l * sqrt(n_dot_v * n_dot_v * (1.0 - a2) + a2);
    let gl = n_dot_v * sqrt(n_dot_l * n_dot_l * (1.0 - a2) + a2);
    let visibility = 0.5 / max(gv + gl, 1e-5);
    return distribution * visibility * n_dot_l;
}

// Bilinear ground height at world `xz` from `shore`; x = height, y = 1 where known, else 0.
fn shore_height(xz: vec2<f32>) -> vec2<f32> {
    let res = u32(shore[3]);
    if res < 2u {
        return vec2<f32>(0.0);
    }
    let g = (xz - vec2<f32>(shore[0], shore[1])) / shore[2];
    let last = f32(res - 1u);
    if any(g < vec2<f32>(0.0)) || any(g > vec2<f32>(last)) {
        return vec2<f32>(0.0);
    }
    let i = min(vec2<u32>(floor(g)), vec2<u32>(res - 2u));
    let f = g - vec2<f32>(i);
    let k = 4u + i.y * res + i.x;
    let top = mix(shore[k], shore[k + 1u], f.x);
    let bottom = mix(shore[k + res], shore[k + res + 1u], f.x);
    return vec2<f32>(mix(top, bottom, f.y), 1.0);
}

@fragment
fn fs_main(in_vertex: VsOut) -> @location(0) vec4<f32> {
    var in = in_vertex;
    let t = u.far.w;
    // Everything that takes derivatives first, before any discard.
    // Distance to the triangle's nearest edge in pixels (the barycentric wireframe).
    let bary_px = in.bary / max(fwidth(in.bary), vec3<f32>(1e-6));
    let edge_px = min(min(bary_px.x, bary_px.y), bary_px.z);
    // The pixel's footprint on the water, metres: its longer side (grazing views stretch it).
    let footprint = max(length(dpdx(in.world)), length(dpdy(in.world)));
    // The water's depth over the ground as drawn: the simulation's cells are coarser than the
    // terrain mesh, so a cell's water can float over sand the mesh puts above the cell's
    // average ground (flat slabs of water on the beach). Where the finer heights are known the
    // depth is measured against them; the water thins, fades and ends where the ground rises.
    let ground = shore_height(in.world.xz);
    // The ground under this pixel (world y): the finer heights where known, else the
    // simulation's, interpolated between the grid's (possibly coarse) vertices.
    var ground_y = in.world.y - in.depth;
    if ground.y > 0.5 && in.far < 0.5 {
        in.depth = min(in.depth, in.world.y - ground.x);
        ground_y = ground.x;
    }
    let legacy = (u.flags.x & 1u) != 0u;
    let warp = foam_warp(in.world.xz, t);
    let noise = foam_noise(in.world.xz + 1.5 * warp, t, footprint);
    // The depth the foam goes by: over the ground 1.5 warps aside, so the shore band's and
    // the wet edge's level lines curl too (on a plane beach they would be straight).
    var foam_depth = in.depth;
    let ground_aside = shore_height(in.world.xz + 1.5 * warp);
    if ground_aside.y > 0.5 && in.far < 0.5 {
        foam_depth = in.world.y - ground_aside.x;
    }
    let amount = foam_amount(in.world.xz, warp, foam_depth) * (1.0 - in.far);
    // The foam keeps off the last of the water (its last two foam depths: none at all where
    // the water ends), so where it ends towards the sand is decided by the noise too, not by
    // the wet edge's fade along the depth's straight level lines.
    let wet = clamp((foam_depth - u.foam.w) / (2.0 * u.foam.x), 0.0, 1.0);
    let edge = foam_edge(amount, noise) - 3.0 * (1.0 - wet);
    // Two pixels' change of the edge function, from its noise term alone: the other terms'
    // derivatives jump across the drawn triangles' edges (helper lanes read the fields and
    // depth beyond the triangle) and would draw faint lines of foam along them.
    let edge_width = 6.4 * fwidth(noise);

    if u.grid.w == 1u && edge_px > 1.0 {
        discard;
    }
    if in.depth < u.foam.w {
        discard;
    }
    var foam = foam_coverage(edge, noise, edge_width);
    // The wet edge: the water fades out over about two foam depths towards the dry sand, the
    // depth scaled by the same noise (x0.4 to x1.6) so its line is lace, not a contour along
    // the grid's triangles, and still exactly 0 where the water ends (no step at the discard).
    // (The water above the last of it scaled, not the clamped `wet`: scaling that would fade
    // open water too, wherever the noise is below one half.)
    let wet_noisy = clamp((foam_depth - u.foam.w) * (0.4 + 1.2 * noise) / (2.0 * u.foam.x), 0.0, 1.0);
    var shore_fade = smoothstep(0.0, 1.0, wet_noisy);
    if legacy {
        foam = legacy_foam(in.world.xz, in.depth, in.speed);
        shore_fade = smoothstep(u.foam.w, u.foam.w + 2.0 * u.foam.x, in.depth);
    }
    if lights.debug_view == 2u {
        // The foam's coverage as drawn, grey on black (the legacy foam faded with the water).
        return vec4<f32>(vec3<f32>(foam * select(1.0, shore_fade, legacy)), 1.0);
    }

    let v = normalize(camera.position.xyz - in.world);
    let l = normalize(lights.to_sun);
    // The simulation's normal, bent by the detail waves; the slope variance they lost to the
    // pixel's footprint widens the glint's lobe.
    let detail = detail_slope(in.world.xz, t, footprint);
    let sim = in.normal / max(in.normal.y, 1e-4);
    var n = normalize(vec3<f32>(sim.x - detail.x, 1.0, sim.z - detail.y));
    // Slope variance of both axes lost to the footprint, widening the lobe (Toksvig).
    let lost = 2.0 * detail.z;
    let alpha_ggx = sqrt(u.glint.x * u.glint.x + lost);
    if legacy {
        n = normalize(in.normal);
    }
    let n_dot_l = max(dot(n, l), 0.0);
    let n_dot_v = max(dot(n, v), 1e-4);
    let h = normalize(l + v);
    let n_dot_h = max(dot(n, h), 0.0);

    // The floor seen through this pixel lies along the view ray, past the ground straight
    // below where the view is oblique: march the ray down to where it meets the finer heights
    // (a fixed-point search, each step going on to the ground under where the ray would meet a
    // flat floor at the depth found so far), so a floor falling away towards the hidden one
    // fades out too, and light from the floor crosses the water along that path.
    var floor_depth = in.depth;
    if ground.y > 0.5 && in.far < 0.5 {
        let run = -v.xz / max(v.y, 0.05);
        for (var step = 0; step < 4; step++) {
            let ahead = shore_height(in.world.xz + run * floor_depth);
            if ahead.y < 0.5 {
                break;
            }
            ground_y = min(ground_y, ahead.x);
            floor_depth = max(floor_depth, in.world.y - ahead.x);
        }
    }
    // Light from the floor crosses the water along the view ray, not straight up: a path of
    // the floor's depth / cos(view angle from the vertical) (no refraction), so grazing views
    // see less of the floor.
    let path = floor_depth / max(v.y, 0.05);
    // The sun's shadow (the forward pass's PCF lookup). It darkens what the sun lights, not
    // the sky's reflection: the glint and foam by the shadow at the surface; the light the
    // water body scatters back by the shadow where the view ray, refraction ignored, meets
    // the ground (the march above, at most three absorption depths along the ray): that is
    // where the sand seen through the water is shadowed too, so the darker water and the
    // darker sand coincide instead of the sand's shadow showing as a teal slab beside the
    // surface's. Both take the same fill of light scattered in the water (`shadow_in_water`,
    // by the water's depth), so shallow water and the sand under it darken together and keep
    // one hue.
    let up = vec3<f32>(0.0, 1.0, 0.0);
    let absorbed = 1.0 - exp(-in.depth / u.shallow.a);
    var lit = 1.0;
    var lit_below = 1.0;
    if (u.flags.x & 2u) != 0u && !legacy {
        lit = sun_shadow(in.world, up);
        lit_below = sun_shadow(in.world - v * min(path, 3.0 * u.shallow.a), up);
    }
    let body_lit = shadow_in_water(lit_below, in.depth);
    let body = mix(u.shallow.rgb, u.deep.rgb, absorbed) * (lights.ambient + 0.6 * n_dot_l * body_lit * lights.sun_color);
    let fresnel = 0.02 + 0.98 * pow(1.0 - n_dot_v, 5.0);
    // Water's Schlick Fresnel at the half vector.
    let fresnel_h = 0.02 + 0.98 * pow(1.0 - max(dot(h, v), 0.0), 5.0);
    var glint = vec3<f32>(0.0);
    if legacy {
        // The pre-#49 normalised Blinn-Phong lobe (exponent 1200), kept as the tests' control.
        let lobe = (1200.0 + 8.0) / 25.132741 * pow(n_dot_h, 1200.0);
        glint = u.foam.z * fresnel_h * lobe * lights.sun_color * step(0.0, dot(n, l));
    } else {
        // GGX on the bent normal (a microfacet glint: a sparkle where a ripple faces the half
        // vector), times pi as `forward.wgsl`'s Cook-Torrance so both read the same light
        // values, capped at `glint.y` times the sun's light so a sparkle cannot bloom into a
        // column. Where ripples are finer than the pixel the lobe widens (Toksvig) and the cap
        // falls with the share of the pixel the capped sparkles would have covered (their
        // bright core, tilts within about sqrt(alpha / 5) of the half vector, against the
        // slope variance lost), so distant glitter is as bright on average as near sparkles,
        // not a wide white haze.
        let core = 0.2 * u.glint.x;
        let cap = u.glint.y * core / (core + lost);
        let radiance = 3.14159265 * ggx_specular(n_dot_h, n_dot_v, n_dot_l, alpha_ggx) * fresnel_h * u.foam.z;
        glint = min(radiance, cap) * lights.sun_color * lit;
    }
    var color = mix(body, u.sky.rgb, fresnel) + glint;
    let foam_light = lights.ambient + mix(1.0, lit, 0.9) * n_dot_l * lights.sun_color;
    color = mix(color, vec3<f32>(0.9, 0.95, 1.0) * foam_light, foam);
    // What shows of the floor: 55 % at the surface, absorbed along the path, and none over
    // ground at or below the hidden floor (faded in over the band above it, keyed to the
    // ground's height so no wave uncovers it): the landscape does not draw that ground.
    let clarity = smoothstep(0.0, 1.0, clamp((ground_y - u.sky.a) / u.deep.a, 0.0, 1.0));
    let transmittance = 0.55 * exp(-path / u.shallow.a) * clarity;
    var alpha = max(max((1.0 - transmittance) * shore_fade, 0.85 * foam), in.far);
    if legacy {
        alpha = max(max(mix(0.45, 1.0, absorbed), 0.85 * foam) * shore_fade, in.far);
    }
    return vec4<f32>(color, alpha);
}
