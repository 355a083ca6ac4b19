// Crowd skinning shared by the lit crowd pipeline (forward.wgsl + this + crowd.wgsl) and the
// depth-only shadow caster pipeline (this + crowd_shadow.wgsl), so both pose a member the same
// way: baked skinning matrices of two frames per clip, interpolated and crossfaded, 4 influences.
// Group 1 bindings 1-2 hold the baked animation (binding 0 is the lit pipeline's `object`).
//
// Texture layout (BakedPalettes in crowd/mod.rs): width 3 * joint_count, one row per global frame;
// texel (3j + r, g) is row r of joint j's 3x4 skinning matrix at global frame g.

const MAX_CROWD_CLIPS: u32 = 64u;

struct CrowdClip {
    first_frame: u32,
    frame_count: u32,
    // Seconds.
    duration: f32,
    _pad: f32,
}

struct CrowdUniform {
    // Global time in seconds (the only per-frame upload).
    time: f32,
    // Frames per second of the baked texture.
    sample_rate: f32,
    clip_count: u32,
    _pad: u32,
    clips: array<CrowdClip, MAX_CROWD_CLIPS>,
}

@group(1) @binding(1) var baked: texture_2d<f32>;
@group(1) @binding(2) var<uniform> crowd: CrowdUniform;

// A member's skinning and placement: the vertex's influences (vertex buffer 1) and the
// instance's data (vertex buffer 2); the mesh's own attributes (locations 0-4) are read apart.
struct CrowdVertexIn {
    @location(5) joints: vec4<u32>,
    @location(6) weights: vec4<f32>,
    // Instance: model -> world (column-major columns).
    @location(7) model0: vec4<f32>,
    @location(8) model1: vec4<f32>,
    @location(9) model2: vec4<f32>,
    @location(10) model3: vec4<f32>,
    // x: clip, y: second clip (crossfade target).
    @location(11) clips: vec2<u32>,
    // x: time offset (s), y: speed (playback rate), z: weight of the second clip at fade start,
    // w: time offset of the second clip (s).
    @location(12) play: vec4<f32>,
    // x: fade start (global s), y: fade rate (weight per second; 0: constant weight).
    @location(13) fade: vec2<f32>,
    // rgb: linear tint multiplying the member's albedo (CrowdInstance::tint), a: 1.
    @location(14) tint: vec4<f32>,
}

// The three baked rows of `joint` at global frame `row`.
fn baked_rows(joint: u32, row: u32) -> mat3x4<f32> {
    let x = i32(joint * 3u);
    let y = i32(row);
    return mat3x4<f32>(
        textureLoad(baked, vec2<i32>(x, y), 0),
        textureLoad(baked, vec2<i32>(x + 1, y), 0),
        textureLoad(baked, vec2<i32>(x + 2, y), 0),
    );
}

// Where clip `c` is at instance time `t` (looping): the two nearest baked rows and the weight of
// the second. Frame f was baked at min(f / rate, duration), so the last interval may be shorter.
struct FramePair {
    row0: u32,
    row1: u32,
    weight: f32,
}

fn frame_pair(c: u32, t: f32) -> FramePair {
    let clip = crowd.clips[min(c, crowd.clip_count - 1u)];
    var local = 0.0;
    if clip.duration > 0.0 {
        local = t - floor(t / clip.duration) * clip.duration;
    }
    let last = clip.frame_count - 1u;
    let f0 = min(u32(floor(local * crowd.sample_rate)), last);
    let f1 = min(f0 + 1u, last);
    let t0 = min(f32(f0) / crowd.sample_rate, clip.duration);
    let t1 = min(f32(f1) / crowd.sample_rate, clip.duration);
    var out: FramePair;
    out.row0 = clip.first_frame + f0;
    out.row1 = clip.first_frame + f1;
    out.weight = select(0.0, clamp((local - t0) / (t1 - t0), 0.0, 1.0), t1 > t0);
    return out;
}

// Skinning matrix of `joint` (rows), interpolated between two baked frames of each clip and
// crossfaded between the instance's two clips (a blend of baked palettes, see CrowdInstance).
fn joint_rows(joint: u32, a: FramePair, b: FramePair, fade: f32) -> mat3x4<f32> {
    var m = baked_rows(joint, a.row0) * ((1.0 - a.weight) * (1.0 - fade))
        + baked_rows(joint, a.row1) * (a.weight * (1.0 - fade));
    if fade > 0.0 {
        m += baked_rows(joint, b.row0) * ((1.0 - b.weight) * fade)
            + baked_rows(joint, b.row1) * (b.weight * fade);
    }
    return m;
}

// Linear blend skinning (glTF 2.0 §3.7.3.3) with the weighted sum of 4 baked matrices at the
// instance's time: the three rows of the 3x4 skinning matrix (model space of the bind pose ->
// model space of the pose).
fn crowd_skin_rows(in: CrowdVertexIn) -> mat3x4<f32> {
    let a = frame_pair(in.clips.x, in.play.x + in.play.y * crowd.time);
    let b = frame_pair(in.clips.y, in.play.w + in.play.y * crowd.time);
    let fade = clamp(in.play.z + in.fade.y * (crowd.time - in.fade.x), 0.0, 1.0);
    var rows = mat3x4<f32>(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
    for (var i = 0u; i < 4u; i++) {
        let w = in.weights[i];
        if w != 0.0 {
            rows += joint_rows(in.joints[i], a, b, fade) * w;
        }
    }
    return rows;
}

// The instance's model -> world matrix (column-major columns of the instance attributes).
fn crowd_model(in: CrowdVertexIn) -> mat4x4<f32> {
    return mat4x4<f32>(in.model0, in.model1, in.model2, in.model3);
}
