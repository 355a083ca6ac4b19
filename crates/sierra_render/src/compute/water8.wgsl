// The thesis's water columns on the GPU (seed 002, Annex E.2.1): every column connected to its
// 8 neighbours, 4 shared flows stored per column: (E, SE, S, SW) = towards
// (col + 1, row), (col + 1, row + 1), (col, row + 1), (col - 1, row + 1), m^3/s, positive away
// from the column. The same three passes and summation order as the CPU reference
// sierra_terrain::water::columns8:
//   flow8_main:  unlimited flows from the old heights and the last step's limited flows;
//   limit8_main: each column's limiter K over its 8 pipes;
//   depth8_main: limited flows (stored for the next step) and the new depth.
// Closed edges: pipes leaving the grid carry nothing. Neighbours are read straight from storage.

// Bindings 0 (u) and 1 (terrain), inside and index_of: water_common.wgsl.
@group(0) @binding(2) var<storage, read> depth_in: array<f32>;
@group(0) @binding(3) var<storage, read_write> depth_out: array<f32>;
// Limited flows of the last step (written by depth8_main).
@group(0) @binding(4) var<storage, read_write> flow: array<vec4<f32>>;
// Unlimited flows of this step (written by flow8_main).
@group(0) @binding(5) var<storage, read_write> raw: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> limit: array<f32>;

fn pipe(k: u32) -> vec2<i32> {
    var pipes = array<vec2<i32>, 4>(vec2<i32>(1, 0), vec2<i32>(1, 1), vec2<i32>(0, 1), vec2<i32>(-1, 1));
    return pipes[k];
}

fn pos(v: f32) -> f32 {
    return select(0.0, v, v > 0.0);
}

// Unlimited flows of column `cell` (index `i`) from the old heights and last step's flows.
fn flow8(cell: vec2<i32>, i: u32) {
    let h = terrain[i] + depth_in[i];
    let old = flow[i];
    var q = vec4<f32>(0.0);
    for (var k = 0u; k < 4u; k++) {
        let c = cell + pipe(k);
        if inside(c) {
            let j = index_of(c);
            q[k] = old[k] * u.damp + u.gravity_coef * (h - (terrain[j] + depth_in[j]));
        }
    }
    raw[i] = q;
}

@compute @workgroup_size(16, 16, 1)
fn flow8_main(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec2<i32>(id.xy);
    if inside(cell) {
        flow8(cell, index_of(cell));
    }
}

// Limiter K of column `cell` (index `i`): the share of its outflow over its 8 pipes that its
// water can supply this step.
fn limit8(cell: vec2<i32>, i: u32) {
    let own = raw[i];
    var out = ((pos(own.x) + pos(own.y)) + pos(own.z)) + pos(own.w);
    for (var k = 0u; k < 4u; k++) {
        let c = cell - pipe(k);
        if inside(c) {
            out += pos(-raw[index_of(c)][k]);
        }
    }
    let out_volume = out * u.dt;
    let held = depth_in[i] * u.cell_area;
    limit[i] = select(1.0, held / out_volume, out_volume > held);
}

@compute @workgroup_size(16, 16, 1)
fn limit8_main(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec2<i32>(id.xy);
    if inside(cell) {
        limit8(cell, index_of(cell));
    }
}

fn limited(q: f32, k_from: f32, k_to: f32) -> f32 {
    return q * select(k_to, k_from, q > 0.0);
}

// Limited flows of column `cell` (index `i`), stored for the next step, and its new depth.
fn depth8(cell: vec2<i32>, i: u32) {
    let q = raw[i];
    let k_i = limit[i];
    var own = vec4<f32>(0.0);
    var inflow = vec4<f32>(0.0);
    for (var k = 0u; k < 4u; k++) {
        let dst = cell + pipe(k);
        if inside(dst) {
            own[k] = limited(q[k], k_i, limit[index_of(dst)]);
        }
        let src = cell - pipe(k);
        if inside(src) {
            let j = index_of(src);
            inflow[k] = limited(raw[j][k], limit[j], k_i);
        }
    }
    flow[i] = own;
    let out_sum = ((own.x + own.y) + own.z) + own.w;
    let in_sum = ((inflow.x + inflow.y) + inflow.z) + inflow.w;
    depth_out[i] = pos(depth_in[i] + (in_sum - out_sum) * u.dt_over_area + u.rain_dt);
}

@compute @workgroup_size(16, 16, 1)
fn depth8_main(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec2<i32>(id.xy);
    if inside(cell) {
        depth8(cell, index_of(cell));
    }
}
