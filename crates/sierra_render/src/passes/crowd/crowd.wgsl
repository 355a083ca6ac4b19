// Crowd vertex stage (seed 004 "Animation Rendering", done better): many instances of one skinned
// mesh in one instanced draw, posed from baked skinning matrices in an Rgba32Float texture.
// Appended to forward.wgsl and crowd_common.wgsl (`crowd/mod.rs` concatenates the sources), so
// `fs_main` lights crowds exactly like every other mesh; group 1 binding 0 (`object`) carries
// the crowd's material colours; each member's tint multiplies the vertex colour. The mesh attributes are forward.wgsl's `VertexIn`.

@vertex
fn vs_crowd(vertex: VertexIn, in: CrowdVertexIn) -> VertexOut {
    let rows = crowd_skin_rows(in);
    let p = vec4<f32>(vertex.position, 1.0);
    let skinned = vec3<f32>(dot(rows[0], p), dot(rows[1], p), dot(rows[2], p));
    // Rows -> the 3x3 linear part (column-major) for normals and tangents, as skinning.wgsl.
    let skin3 = transpose(mat3x3<f32>(rows[0].xyz, rows[1].xyz, rows[2].xyz));
    let model = crowd_model(in);
    let linear = mat3x3<f32>(in.model0.xyz, in.model1.xyz, in.model2.xyz);
    // Inverse transpose up to a positive factor: the cofactor matrix, signed by the determinant,
    // so non-uniform scale and mirroring keep normals right (fs_main normalises).
    let det = determinant(linear);
    let cofactor = mat3x3<f32>(
        cross(linear[1], linear[2]),
        cross(linear[2], linear[0]),
        cross(linear[0], linear[1]),
    ) * select(1.0, -1.0, det < 0.0);
    let world = model * vec4<f32>(skinned, 1.0);
    var out: VertexOut;
    out.clip_position = camera.view_proj * world;
    out.world_position = world.xyz;
    out.normal = cofactor * (skin3 * vertex.normal);
    out.uv = vertex.uv;
    out.tangent = vec4<f32>(linear * (skin3 * vertex.tangent.xyz), vertex.tangent.w * select(1.0, -1.0, det < 0.0));
    // The member's tint multiplies the albedo (fs_main: material × vertex colour × texture).
    out.color = vertex.color * in.tint;
    return out;
}
