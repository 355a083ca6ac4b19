// Water columns (virtual pipes) on the GPU: the same model as
// sierra_terrain::water (Mei, Decaudin & Hu 2007 §3, 4-pipe outflow flux), in two dispatches
// per step, each with 16x16 workgroups that stage an 18x18 tile (one-cell halo) in workgroup
// memory, as the thesis designs its water-columns shader (seed 002, Annex E.2.2):
//   flux_main:  heights (terrain + depth) staged -> new outflow flux of the 16x16 cells;
//   depth_main: new flux staged -> new depth (ping-pong buffer) and Mei's velocity field.
// Grid: row-major index = row * cols + col; flux = (left, right, top, bottom) =
// towards (col - 1, col + 1, row - 1, row + 1). Sums are done in the CPU reference's order.

struct DropUniforms {
    // grid metres (x along +X, y along +Z)
    center: vec2<f32>,
    radius: f32,
    amplitude: f32,
};

// Bindings 0 (u) and 1 (terrain), inside and index_of: water_common.wgsl.
// The current depth (read by both passes) and the next one (written by depth_main).
@group(0) @binding(2) var<storage, read_write> depth_in: array<f32>;
@group(0) @binding(3) var<storage, read_write> depth_out: array<f32>;
// Updated in place: a cell's new flux depends only on its own old flux.
@group(0) @binding(4) var<storage, read_write> flux: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> velocity: array<vec2<f32>>;
@group(0) @binding(6) var<uniform> drop: DropUniforms;

const GROUP: u32 = 16u;
const TILE: u32 = 18u;
const TILE_CELLS: u32 = 324u;

var<workgroup> tile_h: array<f32, TILE_CELLS>;
var<workgroup> tile_f: array<vec4<f32>, TILE_CELLS>;

// Global cell of tile entry `t` of the group whose first cell is `origin` (may be outside).
fn tile_cell(origin: vec2<u32>, t: u32) -> vec2<i32> {
    return vec2<i32>(origin) + vec2<i32>(i32(t % TILE), i32(t / TILE)) - vec2<i32>(1, 1);
}

// Tile entry of the invocation `local` of a group (its cell, inside the halo).
fn tile_index(local: vec3<u32>) -> u32 {
    return (local.y + 1u) * TILE + local.x + 1u;
}

// The ids a staged kernel's invocation needs: its workgroup and its place in it.
struct TileIds {
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(local_invocation_id) local: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
}

// New outflow flux of `cell` (tile entry `t`) from the staged total heights.
fn flux_staged(cell: vec2<i32>, t: u32) {
    let i = index_of(cell);
    let h = tile_h[t];
    let d = depth_in[i];
    // An open edge is a dry neighbour on the same ground: its total height is our terrain.
    let ground = terrain[i];
    var hl = tile_h[t - 1u];
    var hr = tile_h[t + 1u];
    var ht = tile_h[t - TILE];
    var hb = tile_h[t + TILE];
    let at_edge = edges(cell);
    if at_edge.x { hl = ground; }
    if at_edge.y { hr = ground; }
    if at_edge.z { ht = ground; }
    if at_edge.w { hb = ground; }
    flux[i] = new_flux(flux[i], h, d, vec4<f32>(hl, hr, ht, hb), at_edge);
}

@compute @workgroup_size(16, 16, 1)
fn flux_main(ids: TileIds) {
    let origin = ids.group.xy * GROUP;
    // 256 invocations stage 324 heights: every invocation one, the first 68 a second.
    for (var t = ids.li; t < TILE_CELLS; t += GROUP * GROUP) {
        tile_h[t] = height_at(tile_cell(origin, t), 0.0);
    }
    workgroupBarrier();
    let cell = vec2<i32>(origin + ids.local.xy);
    if inside(cell) {
        flux_staged(cell, tile_index(ids.local));
    }
}

// Whether `cell` is on the grid's left, right, top and bottom edge.
fn edges(cell: vec2<i32>) -> vec4<bool> {
    return vec4<bool>(cell.x == 0, u32(cell.x) == u.cols - 1u, cell.y == 0, u32(cell.y) == u.rows - 1u);
}

// Mei's new outflow flux (left, right, top, bottom) of a cell holding `d` metres at total
// height `h`, from its old flux `old` and its neighbours' total heights `nb`; both kernel
// pairs (staged and direct) compute it here.
fn new_flux(old: vec4<f32>, h: f32, d: f32, nb: vec4<f32>, at_edge: vec4<bool>) -> vec4<f32> {
    var f = max(vec4<f32>(0.0), old * u.damp + u.gravity_coef * (vec4<f32>(h) - nb));
    // A closed edge carries no flux (the CPU's infinitely high ghost wall).
    if u.boundary != 1u {
        f = select(f, vec4<f32>(0.0), at_edge);
    }
    let out_volume = (((f.x + f.y) + f.z) + f.w) * u.dt;
    let held = d * u.cell_area;
    // Mei's K: never drain more than the cell holds.
    let k = select(1.0, held / out_volume, out_volume > held);
    return f * k;
}

// New depth and velocity of `cell` (tile entry `t`) from the staged new fluxes.
fn depth_staged(cell: vec2<i32>, t: u32) {
    let own = tile_f[t];
    let from_left = tile_f[t - 1u].y;
    let from_right = tile_f[t + 1u].x;
    let from_top = tile_f[t - TILE].w;
    let from_bottom = tile_f[t + TILE].z;
    write_depth(index_of(cell), own, vec4<f32>(from_left, from_right, from_top, from_bottom));
}

@compute @workgroup_size(16, 16, 1)
fn depth_main(ids: TileIds) {
    let origin = ids.group.xy * GROUP;
    // Outside the grid nothing flows in: staging zeros there makes the edges need no test.
    for (var t = ids.li; t < TILE_CELLS; t += GROUP * GROUP) {
        tile_f[t] = flux_at(tile_cell(origin, t));
    }
    workgroupBarrier();
    let cell = vec2<i32>(origin + ids.local.xy);
    if inside(cell) {
        depth_staged(cell, tile_index(ids.local));
    }
}

// Mei eq. 4-5 and §3.2 for cell `i` from its own new flux and the inflow from its left,
// right, top and bottom neighbours (in the CPU reference's summation order).
fn write_depth(i: u32, own: vec4<f32>, inflow4: vec4<f32>) {
    let outflow = ((own.x + own.y) + own.z) + own.w;
    let inflow = ((inflow4.x + inflow4.y) + inflow4.z) + inflow4.w;
    let d = depth_in[i];
    let d_new = max(0.0, d + (inflow - outflow) * u.dt_over_area + u.rain_dt);
    depth_out[i] = d_new;

    // Mei §3.2: the water that passed through the cell per second, over its cross-section.
    let wx = 0.5 * (inflow4.x - own.x + own.y - inflow4.y);
    let wz = 0.5 * (inflow4.z - own.z + own.w - inflow4.w);
    let d_avg = 0.5 * (d + d_new);
    var v = vec2<f32>(0.0);
    if d_avg >= 1e-4 {
        v = vec2<f32>(wx, wz) / (u.cell_size * d_avg);
    }
    velocity[i] = v;
}

// A raised-cosine drop added to the current depth.
@compute @workgroup_size(16, 16, 1)
fn drop_main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= u.cols || id.y >= u.rows {
        return;
    }
    let p = (vec2<f32>(id.xy) + 0.5) * u.cell_size;
    let r = distance(p, drop.center) / drop.radius;
    if r <= 1.0 {
        let i = id.y * u.cols + id.x;
        depth_in[i] = depth_in[i] + drop.amplitude * 0.5 * (1.0 + cos(3.14159265 * r));
    }
}

// ---- The same two kernels reading neighbours straight from storage (no workgroup memory,
// no barrier). Selected with `WaterKernels::Direct`: on GPUs with good caches it can match the
// staged tiles, and software rasterisers (llvmpipe) run barrier-free shaders far faster.

// Total height (terrain + depth) of cell `c`, `fallback` off the grid (the staged tiles use 0).
fn height_at(c: vec2<i32>, fallback: f32) -> f32 {
    if inside(c) {
        let i = index_of(c);
        return terrain[i] + depth_in[i];
    }
    return fallback;
}

// New outflow flux of `cell` (index `i`), reading its neighbours' heights from storage.
fn flux_unstaged(cell: vec2<i32>, i: u32) {
    let d = depth_in[i];
    let ground = terrain[i];
    let h = ground + d;
    // Off-grid neighbours read as the open-edge value (our ground); closed edges are zeroed below.
    let hl = height_at(cell - vec2<i32>(1, 0), ground);
    let hr = height_at(cell + vec2<i32>(1, 0), ground);
    let ht = height_at(cell - vec2<i32>(0, 1), ground);
    let hb = height_at(cell + vec2<i32>(0, 1), ground);
    flux[i] = new_flux(flux[i], h, d, vec4<f32>(hl, hr, ht, hb), edges(cell));
}

@compute @workgroup_size(16, 16, 1)
fn flux_direct(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec2<i32>(id.xy);
    if inside(cell) {
        flux_unstaged(cell, index_of(cell));
    }
}

// Outflow flux of cell `c`, zero off the grid (nothing flows in from there).
fn flux_at(c: vec2<i32>) -> vec4<f32> {
    if inside(c) {
        return flux[index_of(c)];
    }
    return vec4<f32>(0.0);
}

// New depth and velocity of `cell` (index `i`), reading the new fluxes from storage.
fn depth_unstaged(cell: vec2<i32>, i: u32) {
    let own = flux[i];
    let from_left = flux_at(cell - vec2<i32>(1, 0)).y;
    let from_right = flux_at(cell + vec2<i32>(1, 0)).x;
    let from_top = flux_at(cell - vec2<i32>(0, 1)).w;
    let from_bottom = flux_at(cell + vec2<i32>(0, 1)).z;
    write_depth(i, own, vec4<f32>(from_left, from_right, from_top, from_bottom));
}

@compute @workgroup_size(16, 16, 1)
fn depth_direct(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec2<i32>(id.xy);
    if inside(cell) {
        depth_unstaged(cell, index_of(cell));
    }
}
