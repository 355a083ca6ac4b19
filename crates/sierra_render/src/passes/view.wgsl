// The view group (group 0 of every scene pass: forward, crowd, sky, sea; `FrameBindings` in
// `passes/forward.rs`): the frame's camera and lights, written once a frame. Prepended to each
// scene pass's shader; the structs mirror `passes/forward.rs` (checked by a naga reflection test).
// Bindings 2-9 (environment, shadow map) are declared by the shaders that read them
// (`forward.wgsl`; the shadow map's in `sun_shadow.wgsl`, shared by forward and sea).

const MAX_POINT_LIGHTS: u32 = 8u;

struct CameraUniform {
    view_proj: mat4x4<f32>,
    view: mat4x4<f32>,
    // xyz: world position in metres; w unused.
    position: vec4<f32>,
    // Clip -> world (inverse of `view_proj`): the sky's view rays.
    inv_view_proj: mat4x4<f32>,
}

struct PointLightUniform {
    position: vec3<f32>,
    inner_radius: f32,
    // colour * intensity
    color: vec3<f32>,
    outer_radius: f32,
}

struct LightsUniform {
    // Unit vector from the scene towards the sun.
    to_sun: vec3<f32>,
    point_light_count: u32,
    // colour * intensity
    sun_color: vec3<f32>,
    // 0: lit; 1: unlit albedo; 2: the sea's foam mask (`DebugView` in `post.rs`).
    debug_view: u32,
    ambient: vec3<f32>,
    // World height of the sea's still surface (m); -1e30 without a sea.
    water_level: f32,
    point_lights: array<PointLightUniform, MAX_POINT_LIGHTS>,
}

@group(0) @binding(0) var<uniform> camera: CameraUniform;
@group(0) @binding(1) var<storage, read> lights: LightsUniform;
