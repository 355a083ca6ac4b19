// Crowd shadow casters: the crowd members drawn into the sun's shadow map (depth only, no
// fragment stage), posed by the same baked-texture skinning as the lit pipeline
// (crowd_common.wgsl, prepended by `crowd/mod.rs`). Group 0 is the shadow pass's caster group.

struct ShadowCasterUniform {
    // World -> sun clip space (orthographic; depth 0 nearest the sun).
    light_view_proj: mat4x4<f32>,
    params: vec4<f32>,
}

@group(0) @binding(0) var<uniform> caster: ShadowCasterUniform;

@vertex
fn vs_crowd_shadow(@location(0) position: vec3<f32>, in: CrowdVertexIn) -> @builtin(position) vec4<f32> {
    let rows = crowd_skin_rows(in);
    let p = vec4<f32>(position, 1.0);
    let skinned = vec3<f32>(dot(rows[0], p), dot(rows[1], p), dot(rows[2], p));
    return caster.light_view_proj * crowd_model(in) * vec4<f32>(skinned, 1.0);
}
