// Linear blend skinning in a compute pass (glTF 2.0 §3.7.3.3): each vertex's
// bind-pose position, normal and tangent are transformed by the weighted sum of
// its four joint matrices (palette entries = global joint transform × inverse
// bind matrix), and written into a vertex buffer the forward pass draws as
// a plain mesh, so skinned meshes share its lighting, shadows and materials.
// Morph targets (glTF 2.0 §3.7.2.2) are applied first, as glTF orders them: the weighted
// position/normal/tangent deltas are added to the bind pose, then the result is skinned.
//
// Vertices are 16 floats (mesh.rs `Vertex`): position 0..3, normal 3..6,
// uv 6..8, tangent 8..12, colour 12..16; read as plain f32 arrays so the
// layout does not depend on WGSL vec3 alignment.

struct Influence {
    joints: vec4<u32>,
    weights: vec4<f32>,
}

struct Params {
    palette_offset: u32,
    vertex_count: u32,
    joint_count: u32,
    // Morph targets of this mesh (0: none; the delta/weight buffers are placeholders).
    morph_count: u32,
}

@group(0) @binding(0) var<storage, read> bind_vertices: array<f32>;
@group(0) @binding(1) var<storage, read> influences: array<Influence>;
@group(0) @binding(2) var<uniform> params: Params;
@group(0) @binding(3) var<storage, read_write> out_vertices: array<f32>;
// `[target][vertex]` 9 floats each: position delta xyz, normal delta xyz, tangent delta xyz.
@group(0) @binding(4) var<storage, read> morph_deltas: array<f32>;
// `[target]` this frame's weights.
@group(0) @binding(5) var<storage, read> morph_weights: array<f32>;
// All characters' palettes, `[total joints]` column-major mat4.
@group(1) @binding(0) var<storage, read> palette: array<mat4x4<f32>>;

fn joint_matrix(j: u32) -> mat4x4<f32> {
    // Joints are validated on upload; the clamp keeps a bad index inside the buffer.
    return palette[params.palette_offset + min(j, params.joint_count - 1u)];
}

fn safe_normalize(v: vec3<f32>, fallback: vec3<f32>) -> vec3<f32> {
    let len2 = dot(v, v);
    if (len2 > 1e-20) {
        return v * inverseSqrt(len2);
    }
    return fallback;
}

@compute @workgroup_size(64)
fn skin(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if (i >= params.vertex_count) {
        return;
    }
    let inf = influences[i];
    let m = joint_matrix(inf.joints.x) * inf.weights.x
        + joint_matrix(inf.joints.y) * inf.weights.y
        + joint_matrix(inf.joints.z) * inf.weights.z
        + joint_matrix(inf.joints.w) * inf.weights.w;
    let m3 = mat3x3<f32>(m[0].xyz, m[1].xyz, m[2].xyz);
    let b = i * 16u;
    var position = vec3<f32>(bind_vertices[b], bind_vertices[b + 1u], bind_vertices[b + 2u]);
    var normal = vec3<f32>(bind_vertices[b + 3u], bind_vertices[b + 4u], bind_vertices[b + 5u]);
    var tangent = vec3<f32>(bind_vertices[b + 8u], bind_vertices[b + 9u], bind_vertices[b + 10u]);
    for (var k = 0u; k < params.morph_count; k++) {
        let w = morph_weights[k];
        if (w != 0.0) {
            let d = (k * params.vertex_count + i) * 9u;
            position += w * vec3<f32>(morph_deltas[d], morph_deltas[d + 1u], morph_deltas[d + 2u]);
            normal += w * vec3<f32>(morph_deltas[d + 3u], morph_deltas[d + 4u], morph_deltas[d + 5u]);
            tangent += w * vec3<f32>(morph_deltas[d + 6u], morph_deltas[d + 7u], morph_deltas[d + 8u]);
        }
    }
    let p = m * vec4<f32>(position, 1.0);
    let n = safe_normalize(m3 * normal, vec3<f32>(0.0, 1.0, 0.0));
    let t = safe_normalize(m3 * tangent, vec3<f32>(1.0, 0.0, 0.0));
    out_vertices[b] = p.x;
    out_vertices[b + 1u] = p.y;
    out_vertices[b + 2u] = p.z;
    out_vertices[b + 3u] = n.x;
    out_vertices[b + 4u] = n.y;
    out_vertices[b + 5u] = n.z;
    out_vertices[b + 6u] = bind_vertices[b + 6u];
    out_vertices[b + 7u] = bind_vertices[b + 7u];
    out_vertices[b + 8u] = t.x;
    out_vertices[b + 9u] = t.y;
    out_vertices[b + 10u] = t.z;
    for (var k = 11u; k < 16u; k++) {
        out_vertices[b + k] = bind_vertices[b + k];
    }
}
