//! Posed bounds of skinned meshes (`sierra_render::compute::skinned_bounds`): per-joint bind-space boxes
//! transformed by the palette contain every CPU-skinned vertex of Fox, CesiumMan and the
//! mannequin at several times of a clip, stay close to the exact box, and differ from the
//! bind-pose box (which would miss posed vertices).

#[path = "common/reference_palette.rs"]
mod reference_palette;

use glam::{Mat4, Vec3};
use reference_palette::reference_palette;
use sierra_content::skinned_mesh::skinned_primitive_mesh;
use sierra_gltf::builtin::mannequin;
use sierra_gltf::{ClipSelector, GltfAsset};
use sierra_render::compute::skinned_bounds::{transform_bounds, JointBounds};
use sierra_render::compute::skinning::{skin_on_cpu, SkinnedMeshData};

/// The box of `mesh`'s bind-pose vertex positions (min, max corners).
fn bind_pose_box(mesh: &SkinnedMeshData) -> (Vec3, Vec3) {
    mesh.mesh
        .positions
        .iter()
        .map(|p| Vec3::from(*p))
        .fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(a, b), p| {
            (a.min(p), b.max(p))
        })
}

fn inside((lo, hi): (Vec3, Vec3), p: Vec3, eps: f32) -> bool {
    p.cmpge(lo - eps).all() && p.cmple(hi + eps).all()
}

/// Checks every primitive of every skinned node at `times`; returns how many skinned vertices
/// fell outside the bind-pose box (a bind-pose bound would have missed them).
fn check(asset: &GltfAsset, clip: ClipSelector, times: &[f32], name: &str) -> usize {
    let mut outside_bind = 0;
    for inst in asset.skin_instances() {
        let joints = asset.skins[inst.skin].joint_count();
        for (k, prim) in asset.meshes[inst.mesh].primitives.iter().enumerate() {
            let mesh = skinned_primitive_mesh(prim, joints).unwrap();
            let bounds = JointBounds::new(&mesh);
            let bind = bind_pose_box(&mesh);
            for &t in times {
                let pal = reference_palette(asset, &clip, t, inst.skin);
                let posed = bounds.posed_bounds(&pal).unwrap();
                let skinned = skin_on_cpu(&mesh, &pal);
                let exact = skinned
                    .positions
                    .iter()
                    .map(|p| Vec3::from(*p))
                    .fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(a, b), p| {
                        (a.min(p), b.max(p))
                    });
                let size = (exact.1 - exact.0).length();
                for p in skinned.positions.iter().map(|p| Vec3::from(*p)) {
                    assert!(
                        inside(posed, p, size * 1e-5),
                        "{name} primitive {k} t={t}: skinned vertex {p} outside posed bounds {posed:?}"
                    );
                    if !inside(bind, p, size * 1e-3) {
                        outside_bind += 1;
                    }
                }
                // Conservative but useful for culling: not much larger than the exact box.
                let posed_size = (posed.1 - posed.0).length();
                assert!(
                    posed_size <= 2.0 * size,
                    "{name} t={t}: posed bounds {posed_size} vs exact {size}"
                );
                // A world matrix moves the bounds like the vertices.
                let world =
                    Mat4::from_translation(Vec3::new(3.0, -1.0, 2.0)) * Mat4::from_rotation_y(0.7);
                let moved = transform_bounds(world, posed);
                for p in skinned.positions.iter().take(50).map(|p| Vec3::from(*p)) {
                    assert!(inside(moved, world.transform_point3(p), size * 1e-5));
                }
            }
        }
    }
    outside_bind
}

#[test]
fn mannequin_posed_bounds_contain_every_skinned_vertex() {
    let asset = mannequin::load().unwrap();
    let times = [0.0, 0.2, 0.45, 0.7];
    check(
        &asset,
        ClipSelector::Name("walk".into()),
        &times,
        "mannequin walk",
    );
    let moved = check(
        &asset,
        ClipSelector::Name("jump_start".into()),
        &times,
        "mannequin jump",
    );
    let moved = moved
        + check(
            &asset,
            ClipSelector::Name("run".into()),
            &times,
            "mannequin run",
        );
    assert!(
        moved > 0,
        "the clips never leave the bind-pose box: the test proves nothing"
    );
}

#[test]
fn fox_and_cesium_man_posed_bounds_contain_every_skinned_vertex() {
    let times = [0.0, 0.3, 0.8, 1.4];
    if let Some(path) = sierra_testkit::shared_asset("gltf/Fox/Fox.glb") {
        let fox = GltfAsset::load(&path).unwrap();
        let outside = check(&fox, ClipSelector::Name("Run".into()), &times, "Fox");
        assert!(outside > 0, "Fox's run stays in its bind-pose box?");
    }
    if let Some(path) = sierra_testkit::shared_asset("gltf/CesiumMan/CesiumMan.glb") {
        let man = GltfAsset::load(&path).unwrap();
        let outside = check(&man, ClipSelector::Index(0), &times, "CesiumMan");
        assert!(outside > 0, "CesiumMan's walk stays in its bind-pose box?");
    }
}

#[test]
fn a_palette_shorter_than_the_skin_gives_no_bounds() {
    let asset = mannequin::load().unwrap();
    let inst = asset.skin_instances()[0];
    let joints = asset.skins[inst.skin].joint_count();
    let mesh = skinned_primitive_mesh(&asset.meshes[inst.mesh].primitives[0], joints).unwrap();
    let bounds = JointBounds::new(&mesh);
    assert_eq!(bounds.boxes.len(), joints);
    assert_eq!(bounds.posed_bounds(&vec![Mat4::IDENTITY; joints - 1]), None);
    // The identity palette gives the bind-pose box.
    let (lo, hi) = bounds.posed_bounds(&vec![Mat4::IDENTITY; joints]).unwrap();
    let (blo, bhi) = bind_pose_box(&mesh);
    assert!((lo - blo).length() < 1e-6 && (hi - bhi).length() < 1e-6);
}

#[test]
fn posed_bounds_contain_morphed_vertices_for_weights_in_0_1() {
    let Some(path) = sierra_testkit::shared_asset("gltf/AnimatedMorphCube/AnimatedMorphCube.glb")
    else {
        return;
    };
    let asset = GltfAsset::load(&path).unwrap();
    let mesh =
        sierra_content::skinned_mesh::rigid_primitive_mesh(&asset.meshes[0].primitives[0]).unwrap();
    let bounds = JointBounds::new(&mesh);
    let joint = [Mat4::from_rotation_z(0.5) * Mat4::from_scale(Vec3::new(1.0, 2.0, 0.5))];
    let posed = bounds.posed_bounds(&joint).unwrap();
    let mut grew = false;
    for weights in [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.3, 0.8]] {
        let skinned =
            sierra_render::compute::skinning::skin_on_cpu_morphed(&mesh, &weights, &joint);
        let unmorphed = sierra_render::compute::skinning::skin_on_cpu(&mesh, &joint);
        for (p, q) in skinned.positions.iter().zip(&unmorphed.positions) {
            assert!(inside(posed, Vec3::from(*p), 1e-5), "{weights:?}: {p:?}");
            grew |= (Vec3::from(*p) - Vec3::from(*q)).length() > 1e-3;
        }
    }
    assert!(grew, "the morph targets moved nothing");
}

/// The bounds the skinning pass keeps for culling contain its GPU-skinned vertices (read back).
#[test]
fn skinning_pass_posed_bounds_contain_the_gpu_skinned_vertices() {
    use sierra_render::compute::skinning::{SkinnedDrawItem, Skinning};
    let asset = mannequin::load().unwrap();
    let inst = asset.skin_instances()[0];
    let joints = asset.skins[inst.skin].joint_count();
    let mesh = skinned_primitive_mesh(&asset.meshes[inst.mesh].primitives[0], joints).unwrap();
    let ctx = sierra_render::GpuContext::headless().unwrap();
    let mut headless = sierra_render::HeadlessRenderer::new(&ctx, 16, 16).unwrap();
    let mut skinning = Skinning::new(&ctx).unwrap();
    let h = skinning
        .upload(&ctx, headless.renderer.meshes_mut(), &mesh, "m")
        .unwrap();
    assert_eq!(
        skinning.posed_bounds(h),
        None,
        "no bounds before the first skin"
    );
    // A leading dummy joint, so the draw's palette range does not start at 0.
    let mut palettes = vec![Mat4::from_scale(Vec3::splat(100.0))];
    palettes.extend(reference_palette(
        &asset,
        &ClipSelector::Name("jump_start".into()),
        0.3,
        0,
    ));
    let draws = [SkinnedDrawItem {
        mesh: h,
        model: Mat4::IDENTITY,
        palette_offset: 1,
        material: sierra_render::Material::default(),
    }];
    let mut out = Vec::new();
    skinning.skin(&ctx, &palettes, &draws, &mut out).unwrap();
    let posed = skinning.posed_bounds(h).unwrap();
    let output = headless
        .renderer
        .mesh(skinning.output_mesh(h).unwrap())
        .unwrap();
    let bytes = sierra_render::readback::read_buffer(&ctx, &output.vertex_buffer).unwrap();
    let floats: &[f32] = bytemuck::cast_slice(&bytes);
    for v in floats.chunks_exact(16) {
        let p = Vec3::new(v[0], v[1], v[2]);
        assert!(inside(posed, p, 1e-4), "GPU vertex {p} outside {posed:?}");
    }
    assert!(
        posed.1.y - posed.0.y < 2.5,
        "bounds from the right palette range: {posed:?}"
    );
}
