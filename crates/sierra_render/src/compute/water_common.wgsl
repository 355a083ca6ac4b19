// Shared by water.wgsl and water8.wgsl (prepended to each by `compute/water.rs`): the
// uniforms of both water kernels (`WaterUniforms` in water.rs), the terrain binding and the
// grid's index helpers. Grid: row-major index = row * cols + col.

struct WaterUniforms {
    cols: u32,
    rows: u32,
    // 0 closed (reflective), 1 open (outflow).
    boundary: u32,
    _pad0: u32,
    // dt * A * g / l
    gravity_coef: f32,
    // max(0, 1 - damping * dt)
    damp: f32,
    dt: f32,
    // cell_size^2, m^2
    cell_area: f32,
    dt_over_area: f32,
    // rain * dt, metres
    rain_dt: f32,
    cell_size: f32,
    _pad1: f32,
};

@group(0) @binding(0) var<uniform> u: WaterUniforms;
@group(0) @binding(1) var<storage, read> terrain: array<f32>;

fn inside(c: vec2<i32>) -> bool {
    return c.x >= 0 && c.y >= 0 && u32(c.x) < u.cols && u32(c.y) < u.rows;
}

fn index_of(c: vec2<i32>) -> u32 {
    return u32(c.y) * u.cols + u32(c.x);
}
