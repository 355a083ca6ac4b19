// The sea: a grid displaced by the simulated water (compute/water.wgsl buffers, read directly
// in the vertex shader: no CPU round trip), normals from height differences, shallow/deep
// colour from depth (Beer-Lambert-like absorption), Schlick Fresnel towards the sky colour,
// Blinn-Phong sun highlight, foam where the water is thin or fast. Linear HDR out, blended.

// Prepended with `view.wgsl`: group 0 is the view group (`camera`: view-projection and
// position; `lights`: the sun's direction and colour and the ambient light), written once a frame
// by the forward pass. Group 1 holds the sea's own data: its parameters and the water's buffers.

struct SeaUniforms {
    // rgb shallow colour, a: absorption depth scale (m).
    shallow: vec4<f32>,
    // rgb deep colour, a: height of ground over which the transmittance fades to zero (m).
    deep: vec4<f32>,
    // rgb sky colour reflected at grazing angles, a: specular power.
    sky: vec4<f32>,
    // x: foam depth (m), y: foam speed (m/s), z: specular strength, w: min visible depth (m).
    foam: vec4<f32>,
    // xyz: world position of the grid's corner (cell (0,0) starts here), w: cell size (m).
    origin: vec4<f32>,
    // x cols, y rows, z vertex stride (cells), w 1: wireframe drawn with barycentric edges
    // (devices without line mode), else 0.
    grid: vec4<u32>,
    // The open sea around the grid: x rest level (world y, m), y half-side of the square it
    // fills (m, from the grid's centre; 0 = none), z depth its colour is taken at (m), w world y
    // of the hidden floor: over ground below it the sea is opaque (the landscape may leave that
    // ground out, SeaSettings::opaque_floor_depth).
    far: vec4<f32>,
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

// Value noise in [0, 1] on a 1 m lattice (hash of the lattice corners, smooth interpolation).
fn lattice_noise(p: vec2<f32>) -> f32 {
    let i = floor(p);
    let f = p - i;
    let w = f * f * (3.0 - 2.0 * f);
    let h = vec4<f32>(
        dot(i, vec2<f32>(127.1, 311.7)),
        dot(i + vec2<f32>(1.0, 0.0), vec2<f32>(127.1, 311.7)),
        dot(i + vec2<f32>(0.0, 1.0), vec2<f32>(127.1, 311.7)),
        dot(i + vec2<f32>(1.0, 1.0), vec2<f32>(127.1, 311.7)),
    );
    let r = fract(sin(h) * 43758.5453);
    return mix(mix(r.x, r.y, w.x), mix(r.z, r.w, w.x), w.y);
}

// How much of the surface foam covers where the foam amount is `amount`: patchy when little,
// denser when much.
fn foam_strength(amount: f32) -> f32 {
    return clamp(amount, 0.0, 1.0);
}

// Foam coverage at world `xz` (metres) for a foam `strength` in [0, 1]: two octaves of value
// noise (1.3 m and 0.45 m features) thresholded lower as the strength grows, never solid (a
// solid sheet over a 4 m cell reads as a flat white slab).
fn foam_pattern(xz: vec2<f32>, strength: f32) -> f32 {
    let n = 0.65 * lattice_noise(xz * 0.75) + 0.35 * lattice_noise(xz * 2.2 + vec2<f32>(17.0, 5.0));
    let cut = mix(0.75, 0.45, strength);
    return smoothstep(cut, cut + 0.2, n);
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
    // Distance to the triangle's nearest edge in pixels (derivatives before any discard).
    let bary_px = in.bary / max(fwidth(in.bary), vec3<f32>(1e-6));
    let edge_px = min(min(bary_px.x, bary_px.y), bary_px.z);
    if u.grid.w == 1u && edge_px > 1.0 {
        discard;
    }
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
    if in.depth < u.foam.w {
        discard;
    }
    let n = normalize(in.normal);
    let v = normalize(camera.position.xyz - in.world);
    let l = normalize(lights.to_sun);
    let n_dot_l = max(dot(n, l), 0.0);
    let absorbed = 1.0 - exp(-in.depth / u.shallow.a);
    let body = mix(u.shallow.rgb, u.deep.rgb, absorbed) * (lights.ambient + 0.6 * n_dot_l * lights.sun_color);
    let fresnel = 0.02 + 0.98 * pow(1.0 - max(dot(n, v), 0.0), 5.0);
    let h = normalize(l + v);
    // The sun's glint: a normalised Blinn-Phong lobe ((p + 8) / 8π, Akenine-Möller et al.,
    // Real-Time Rendering 4th ed. §9.8) weighted by water's Schlick Fresnel at the half vector,
    // so a sharp exponent makes a small bright glint, not a broad white column over the sea.
    let fresnel_h = 0.02 + 0.98 * pow(1.0 - max(dot(h, v), 0.0), 5.0);
    let lobe = (u.sky.a + 8.0) / 25.132741 * pow(max(dot(n, h), 0.0), u.sky.a);
    let specular = u.foam.z * fresnel_h * lobe * lights.sun_color * step(0.0, dot(n, l));
    var color = mix(body, u.sky.rgb, fresnel) + specular;
    // Foam where the water is thin or fast. The speed comes from the simulation's flux over the
    // depth, which is meaningless in a film of water running up the sand (it grows as the depth
    // goes to 0), so fast-water foam needs a few foam depths of water. Both are broken up by a
    // world-space pattern into patches and streaks: smooth per-vertex values over 4 m cells
    // otherwise paint flat, hard-edged polygons.
    let thin = 1.0 - smoothstep(0.0, u.foam.x, in.depth);
    let fast = smoothstep(u.foam.y, 2.0 * u.foam.y, in.speed) * smoothstep(u.foam.x, 4.0 * u.foam.x, in.depth);
    let foam = clamp(thin + fast, 0.0, 1.0) * foam_pattern(in.world.xz, foam_strength(thin + fast));
    color = mix(color, vec3<f32>(0.9, 0.95, 1.0) * (lights.ambient + n_dot_l * lights.sun_color), foam);
    // The open sea is opaque: nothing under it is drawn but the sky.
    // Water thinning out towards the dry sand fades away instead of ending in a hard edge along
    // the grid's triangles (the wet line is interpolated between vertices, one cell wide).
    let shore_fade = smoothstep(u.foam.w, u.foam.w + 2.0 * u.foam.x, in.depth);
    // What shows of the floor: 55 % at the surface, absorbed with depth, and none over ground
    // at or below the hidden floor (faded in over the band above it, keyed to the ground's
    // height so no wave uncovers it): the landscape does not draw that ground.
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
    let clarity = smoothstep(0.0, 1.0, clamp((ground_y - u.far.w) / u.deep.a, 0.0, 1.0));
    // Light from the floor crosses the water along the view ray, not straight up: a path of
    // the floor's depth / cos(view angle from the vertical) (no refraction), so grazing views
    // see less of the floor.
    let path = floor_depth / max(v.y, 0.05);
    let transmittance = 0.55 * exp(-path / u.shallow.a) * clarity;
    let alpha = max(max(1.0 - transmittance, 0.85 * foam) * shore_fade, in.far);
    return vec4<f32>(color, alpha);
}
