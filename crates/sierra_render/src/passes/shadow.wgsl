// Shadow map caster pass (seed 002, "Shadow": the scene drawn from the sun into a depth map).
// Depth only: no fragment stage. Slope-scaled depth bias is set on the pipeline.

struct ShadowUniform {
    // World -> sun clip space (orthographic; depth 0 nearest the sun).
    light_view_proj: mat4x4<f32>,
    // x: 1 when shadows are on; y: shadow-map texel size in uv; z: normal offset in metres;
    // w: PCF kernel radius in texels.
    params: vec4<f32>,
}

@group(0) @binding(0) var<uniform> shadow: ShadowUniform;
// Model matrix of the current draw (dynamic offset per draw).
@group(1) @binding(0) var<uniform> model: mat4x4<f32>;

@vertex
fn vs_shadow(@location(0) position: vec3<f32>) -> @builtin(position) vec4<f32> {
    return shadow.light_view_proj * model * vec4<f32>(position, 1.0);
}
