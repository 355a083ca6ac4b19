//! GPU linear blend skinning against the CPU reference: the mannequin, CesiumMan
//! and Fox posed at three times of a clip, rendered GPU-skinned and CPU-skinned
//! (both drawn as plain meshes with the same palette), almost no differing pixels.
//! Images: `sierra_skin_<model>_<time>_{gpu,cpu}.png` in the temp directory.

#[path = "common/reference_palette.rs"]
mod reference_palette;
#[path = "common/silhouette.rs"]
mod silhouette;

// The renderer tests' helpers (GPU context, frames, HDR targets), shared rather than copied.
#[path = "../../sierra_render/tests/support/mod.rs"]
mod support;

use glam::{Mat4, Vec3, Vec4};
use reference_palette::reference_palette;
use sierra_content::skinned_mesh::skinned_primitive_mesh;
use sierra_gltf::builtin::mannequin;
use sierra_gltf::{ClipSelector, GltfAsset};
use sierra_render::compute::skinning::{skin_on_cpu, SkinnedDrawItem, SkinnedMeshData, Skinning};
use sierra_render::{Camera, FrameData, HeadlessRenderer, Material, Sun};
use silhouette::differing_and_covered;
use support::context;

const SIZE: u32 = 128;

/// The reference palette of skin `skin` at `time` s into the clip named `clip`.
fn palette(asset: &GltfAsset, clip: &str, time: f32, skin: usize) -> Vec<Mat4> {
    reference_palette(asset, &ClipSelector::Name(clip.into()), time, skin)
}

fn skinned_meshes(asset: &GltfAsset) -> Vec<(SkinnedMeshData, usize)> {
    let mut out = Vec::new();
    for inst in asset.skin_instances() {
        let joints = asset.skins[inst.skin].joint_count();
        for p in &asset.meshes[inst.mesh].primitives {
            out.push((skinned_primitive_mesh(p, joints).unwrap(), inst.skin));
        }
    }
    out
}

/// Renders `asset` posed by `clip` at `time` both ways; returns (gpu, cpu, posed bounds).
fn render_both(
    asset: &GltfAsset,
    clip: &str,
    time: f32,
    name: &str,
) -> (image::RgbaImage, image::RgbaImage, (Vec3, Vec3)) {
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, SIZE, SIZE).unwrap();
    let mut skinning = Skinning::new(&ctx).unwrap();
    let material = Material {
        base_color: Vec4::new(0.8, 0.6, 0.45, 1.0),
        ..Material::default()
    };
    let mut palettes = Vec::new();
    let mut skinned_draws = Vec::new();
    let mut cpu_draws = Vec::new();
    let mut cpu_positions = Vec::new();
    for (i, (mesh, skin)) in skinned_meshes(asset).iter().enumerate() {
        let p = palette(asset, clip, time, *skin);
        let handle = skinning
            .upload(
                &ctx,
                headless.renderer.meshes_mut(),
                mesh,
                &format!("{name}{i}"),
            )
            .unwrap();
        let posed = skin_on_cpu(mesh, &p);
        cpu_positions.extend(posed.positions.iter().map(|p| Vec3::from(*p)));
        let cpu = headless
            .renderer
            .upload_mesh(&ctx, &posed, &format!("{name}{i} cpu"))
            .unwrap();
        skinned_draws.push(SkinnedDrawItem {
            mesh: handle,
            model: Mat4::IDENTITY,
            palette_offset: palettes.len() as u32,
            material,
        });
        cpu_draws.push(sierra_render::DrawItem {
            mesh: cpu,
            model: Mat4::IDENTITY,
            material,
            surface: None,
        });
        palettes.extend(p);
    }
    let (lo, hi) = support::bounding_box(cpu_positions);
    let camera =
        support::framing_camera((lo, hi), Vec3::new(0.3, 0.2, 1.0), 2.6, 45f32.to_radians());
    let mut frame = FrameData {
        camera,
        sun: Sun {
            direction: Vec3::new(0.5, -0.7, -1.0).normalize(),
            ..Sun::default()
        },
        point_lights: Vec::new(),
        draws: Vec::new(),
        clear_color: Vec4::new(0.1, 0.1, 0.12, 1.0),
        ..FrameData::new(camera)
    };
    skinning
        .skin(&ctx, &palettes, &skinned_draws, &mut frame.draws)
        .unwrap();
    let (gpu, _) = headless.render(&ctx, &frame).unwrap();
    frame.draws = cpu_draws;
    let (cpu, _) = headless.render(&ctx, &frame).unwrap();
    let dir = std::env::temp_dir();
    gpu.save(dir.join(format!("sierra_skin_{name}_{time}_gpu.png")))
        .ok();
    cpu.save(dir.join(format!("sierra_skin_{name}_{time}_cpu.png")))
        .ok();
    (gpu, cpu, (lo, hi))
}

fn check_model(asset: &GltfAsset, clip: &str, times: [f32; 3], name: &str) -> Vec<(Vec3, Vec3)> {
    times
        .iter()
        .map(|&t| {
            let (gpu, cpu, b) = render_both(asset, clip, t, name);
            let (differing, covered) = differing_and_covered(&gpu, &cpu);
            assert!(covered > 300, "{name} t={t}: only {covered} pixels covered");
            assert!(
                differing * 200 <= covered,
                "{name} t={t}: {differing} of {covered} pixels differ"
            );
            b
        })
        .collect()
}

#[test]
fn mannequin_gpu_skinning_matches_the_cpu_reference() {
    let asset = mannequin::load().unwrap();
    let b = check_model(&asset, "walk", [0.0, 0.25, 0.6], "mannequin");
    // Upright: about 1.8 m tall whatever the pose.
    for (lo, hi) in b {
        assert!((hi.y - lo.y) > 1.5 && (hi.y - lo.y) < 1.9, "{lo} {hi}");
    }
}

#[test]
fn cesium_man_stands_upright_and_matches_the_cpu_reference() {
    let Some(p) = sierra_testkit::shared_asset("gltf/CesiumMan/CesiumMan.glb") else {
        return;
    };
    let asset = GltfAsset::load(p).unwrap();
    let clip = asset.clips[0].name.clone();
    for (lo, hi) in check_model(&asset, &clip, [0.0, 0.5, 1.2], "cesium_man") {
        let size = hi - lo;
        // Standing as in the Khronos viewer (Y up): a 90° error would lay him along Z.
        assert!(size.y > 1.4 * size.z && size.y > 1.2 * size.x, "{size}");
    }
}

#[test]
fn fox_gets_computed_normals_and_matches_the_cpu_reference() {
    let Some(p) = sierra_testkit::shared_asset("gltf/Fox/Fox.glb") else {
        return;
    };
    let asset = GltfAsset::load(p).unwrap();
    assert!(asset.meshes[0].primitives[0].normals.is_empty());
    let (mesh, _) = &skinned_meshes(&asset)[0];
    assert!(mesh
        .mesh
        .normals
        .iter()
        .all(|n| (Vec3::from(*n).length() - 1.0).abs() < 1e-3));
    check_model(&asset, "Walk", [0.0, 0.3, 0.6], "fox");
}

#[test]
fn bad_skinned_input_gives_clear_errors() {
    let asset = mannequin::load().unwrap();
    let joints = asset.skin(0).unwrap().joint_count();
    assert_eq!(joints, 68);
    let mut prim = asset.meshes[0].primitives[0].clone();
    // Too few joints for the influences.
    let err = skinned_primitive_mesh(&prim, 4).unwrap_err().to_string();
    assert!(err.contains("the skin has 4 joints"), "{err}");
    prim.joints.clear();
    let err = skinned_primitive_mesh(&prim, joints)
        .unwrap_err()
        .to_string();
    assert!(err.contains("cannot be drawn skinned"), "{err}");
    // A palette range outside the frame's palettes.
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, 16, 16).unwrap();
    let mut skinning = Skinning::new(&ctx).unwrap();
    let mesh = skinned_primitive_mesh(&asset.meshes[0].primitives[0], joints).unwrap();
    let h = skinning
        .upload(&ctx, headless.renderer.meshes_mut(), &mesh, "m")
        .unwrap();
    let draw = SkinnedDrawItem {
        mesh: h,
        model: Mat4::IDENTITY,
        palette_offset: 5,
        material: Material::default(),
    };
    let err = skinning
        .skin(
            &ctx,
            &vec![Mat4::IDENTITY; joints],
            &[draw],
            &mut Vec::new(),
        )
        .unwrap_err()
        .to_string();
    assert!(err.contains("5..73") && err.contains("68"), "{err}");
}

/// Reads float accessor `index` of a `.glb` from its raw JSON and BIN chunk
/// (tightly packed float accessors only, enough for the models checked here).
fn raw_floats(json: &serde_json::Value, bin: &[u8], index: usize) -> Vec<f32> {
    let a = &json["accessors"][index];
    assert_eq!(a["componentType"], 5126, "accessor {index} is not float");
    let width = match a["type"].as_str().unwrap() {
        "SCALAR" => 1,
        "VEC3" => 3,
        "VEC4" => 4,
        "MAT4" => 16,
        t => panic!("{t}"),
    };
    let v = &json["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
    let start = v["byteOffset"].as_u64().unwrap_or(0) + a["byteOffset"].as_u64().unwrap_or(0);
    let stride = v["byteStride"].as_u64().unwrap_or(4 * width as u64);
    let count = a["count"].as_u64().unwrap();
    let mut out = Vec::new();
    for e in 0..count {
        for c in 0..width as u64 {
            let o = (start + e * stride + c * 4) as usize;
            out.push(f32::from_le_bytes(bin[o..o + 4].try_into().unwrap()));
        }
    }
    out
}

/// Posed bounds computed from the raw glTF of a `.glb` at the first key of animation 0
/// (all its samplers must share key times): node TRS with animated values replacing them,
/// world = parent world × local, joint matrix = world × inverse bind matrix, applied to
/// the vertices with their weights. Independent of sierra_gltf and sierra_anim.
fn raw_posed_bounds(glb: &[u8]) -> (Vec3, Vec3) {
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let json: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let bin = &glb[20 + json_len + 8..];
    let nodes = json["nodes"].as_array().unwrap();
    let mut t: Vec<Vec3> = Vec::new();
    let mut r: Vec<glam::Quat> = Vec::new();
    let mut s: Vec<Vec3> = Vec::new();
    for n in nodes {
        if let Some(m) = n["matrix"].as_array() {
            let m: Vec<f32> = m.iter().map(|x| x.as_f64().unwrap() as f32).collect();
            let (sc, rot, tr) = Mat4::from_cols_slice(&m).to_scale_rotation_translation();
            t.push(tr);
            r.push(rot);
            s.push(sc);
            continue;
        }
        let f = |key: &str, default: &[f32]| -> Vec<f32> {
            n[key].as_array().map_or(default.to_vec(), |a| {
                a.iter().map(|x| x.as_f64().unwrap() as f32).collect()
            })
        };
        t.push(Vec3::from_slice(&f("translation", &[0.0; 3])));
        r.push(glam::Quat::from_slice(&f(
            "rotation",
            &[0.0, 0.0, 0.0, 1.0],
        )));
        s.push(Vec3::from_slice(&f("scale", &[1.0; 3])));
    }
    let anim = &json["animations"][0];
    for ch in anim["channels"].as_array().unwrap() {
        let sampler = &anim["samplers"][ch["sampler"].as_u64().unwrap() as usize];
        let out = raw_floats(&json, bin, sampler["output"].as_u64().unwrap() as usize);
        let node = ch["target"]["node"].as_u64().unwrap() as usize;
        match ch["target"]["path"].as_str().unwrap() {
            "translation" => t[node] = Vec3::from_slice(&out[..3]),
            "rotation" => r[node] = glam::Quat::from_slice(&out[..4]).normalize(),
            "scale" => s[node] = Vec3::from_slice(&out[..3]),
            _ => {}
        }
    }
    let mut parent = vec![None; nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        for c in n["children"].as_array().into_iter().flatten() {
            parent[c.as_u64().unwrap() as usize] = Some(i);
        }
    }
    fn world(i: usize, p: &[Option<usize>], l: &[Mat4]) -> Mat4 {
        p[i].map_or(Mat4::IDENTITY, |q| world(q, p, l)) * l[i]
    }
    let local: Vec<Mat4> = (0..nodes.len())
        .map(|i| Mat4::from_scale_rotation_translation(s[i], r[i], t[i]))
        .collect();
    let (mut lo, mut hi) = (Vec3::MAX, Vec3::MIN);
    for n in nodes
        .iter()
        .filter(|n| n["skin"].is_u64() && n["mesh"].is_u64())
    {
        let skin = &json["skins"][n["skin"].as_u64().unwrap() as usize];
        let ibm = raw_floats(
            &json,
            bin,
            skin["inverseBindMatrices"].as_u64().unwrap() as usize,
        );
        let joints: Vec<Mat4> = skin["joints"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(k, j)| {
                world(j.as_u64().unwrap() as usize, &parent, &local)
                    * Mat4::from_cols_slice(&ibm[k * 16..k * 16 + 16])
            })
            .collect();
        let mesh = &json["meshes"][n["mesh"].as_u64().unwrap() as usize];
        for prim in mesh["primitives"].as_array().unwrap() {
            let attrs = &prim["attributes"];
            let pos = raw_floats(&json, bin, attrs["POSITION"].as_u64().unwrap() as usize);
            let w = raw_floats(&json, bin, attrs["WEIGHTS_0"].as_u64().unwrap() as usize);
            let ja = &json["accessors"][attrs["JOINTS_0"].as_u64().unwrap() as usize];
            let jv = &json["bufferViews"][ja["bufferView"].as_u64().unwrap() as usize];
            let size = if ja["componentType"] == 5121 { 1 } else { 2 };
            let start = (jv["byteOffset"].as_u64().unwrap_or(0)
                + ja["byteOffset"].as_u64().unwrap_or(0)) as usize;
            let stride = jv["byteStride"].as_u64().unwrap_or(4 * size as u64) as usize;
            for v in 0..pos.len() / 3 {
                let mut m = Mat4::ZERO;
                for k in 0..4 {
                    let o = start + v * stride + k * size;
                    let j = if size == 1 {
                        bin[o] as usize
                    } else {
                        u16::from_le_bytes([bin[o], bin[o + 1]]) as usize
                    };
                    m += joints[j] * w[v * 4 + k];
                }
                let p = m.transform_point3(Vec3::from_slice(&pos[v * 3..v * 3 + 3]));
                lo = lo.min(p);
                hi = hi.max(p);
            }
        }
    }
    (lo, hi)
}

#[test]
fn posed_bounds_equal_an_independent_computation_from_the_raw_gltf() {
    let mut cases = vec![("mannequin".to_owned(), mannequin::glb())];
    if let Some(p) = sierra_testkit::shared_asset("gltf/CesiumMan/CesiumMan.glb") {
        cases.push(("cesium_man".into(), std::fs::read(p).unwrap()));
    }
    for (name, glb) in cases {
        let asset = GltfAsset::from_bytes(
            &glb,
            std::path::Path::new(&name),
            &Default::default(),
            sierra_gltf::ImportOptions::default(),
        )
        .unwrap();
        let clip = asset.clips[0].name.clone();
        // The first key time of animation 0, read from the raw JSON (every sampler's input `min`).
        let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
        let json: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
        let anim = &json["animations"][0];
        let mins: Vec<f64> = anim["samplers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                json["accessors"][s["input"].as_u64().unwrap() as usize]["min"][0]
                    .as_f64()
                    .unwrap()
            })
            .collect();
        assert!(
            mins.iter().all(|m| *m == mins[0]),
            "{name}: samplers start at different times"
        );
        let first_key = mins[0] as f32;
        let (mut lo, mut hi) = (Vec3::MAX, Vec3::MIN);
        for (mesh, skin) in skinned_meshes(&asset) {
            let p = palette(&asset, &clip, first_key, skin);
            for v in skin_on_cpu(&mesh, &p).positions {
                lo = lo.min(Vec3::from(v));
                hi = hi.max(Vec3::from(v));
            }
        }
        let (rlo, rhi) = raw_posed_bounds(&glb);
        assert!(
            lo.abs_diff_eq(rlo, 1e-3) && hi.abs_diff_eq(rhi, 1e-3),
            "{name}: engine {lo} {hi}, raw {rlo} {rhi}"
        );
    }
}

#[test]
fn baked_matrices_give_the_palette_paths_image() {
    // The matrices document 004 bakes (sierra_anim, 60 frames/s), interpolated between the
    // two nearest frames as the crowd shader will, against the directly posed palette.
    let asset = mannequin::load().unwrap();
    let walk = asset.find_clip(&ClipSelector::Name("walk".into())).unwrap();
    let clip = asset.skin_clip(0, walk).unwrap();
    let skin = &asset.skins[0];
    let baked =
        sierra_anim::bake_skinning_matrices(&skin.skeleton, &skin.skin, &[&clip], 60.0).unwrap();
    let t = 0.37f32;
    let x = t * baked.sample_rate;
    let (f, a) = (x.floor() as usize, x.fract());
    let from_baked: Vec<Mat4> = (0..baked.joint_count)
        .map(|j| {
            let m0 = baked.matrix(0, f, j).unwrap();
            let m1 = baked.matrix(0, f + 1, j).unwrap();
            m0 * (1.0 - a) + m1 * a
        })
        .collect();
    let direct = palette(&asset, "walk", t, 0);
    let max_diff = from_baked
        .iter()
        .zip(&direct)
        .map(|(a, b)| {
            (*a - *b)
                .to_cols_array()
                .iter()
                .fold(0f32, |m, x| m.max(x.abs()))
        })
        .fold(0.0, f32::max);
    assert!(
        max_diff < 0.01,
        "baked vs posed palette differ by {max_diff}"
    );
    let ctx = context();
    let mut images = Vec::new();
    for p in [&from_baked, &direct] {
        let mut headless = HeadlessRenderer::new(&ctx, SIZE, SIZE).unwrap();
        let mut skinning = Skinning::new(&ctx).unwrap();
        let mesh = &skinned_meshes(&asset)[0].0;
        let h = skinning
            .upload(&ctx, headless.renderer.meshes_mut(), mesh, "m")
            .unwrap();
        let mut frame = FrameData {
            clear_color: Vec4::new(0.1, 0.1, 0.12, 1.0),
            ..FrameData::new(Camera::look_at(
                Vec3::new(1.0, 1.2, 3.0),
                Vec3::new(0.0, 0.9, 0.0),
                Vec3::Y,
                45f32.to_radians(),
                1.0,
                0.1,
                20.0,
            ))
        };
        let draw = SkinnedDrawItem {
            mesh: h,
            model: Mat4::IDENTITY,
            palette_offset: 0,
            material: Material::default(),
        };
        skinning.skin(&ctx, p, &[draw], &mut frame.draws).unwrap();
        images.push(headless.render(&ctx, &frame).unwrap().0);
    }
    let (differing, covered) = differing_and_covered(&images[0], &images[1]);
    assert!(
        covered > 300 && differing * 100 <= covered,
        "{differing} of {covered}"
    );
}

#[test]
fn skinned_model_poses_like_sierra_pose_and_rejects_bad_input() {
    use sierra_content::{ModelPoser, SkinnedModel};
    let asset = mannequin::load().unwrap();
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, 16, 16).unwrap();
    let model = SkinnedModel::upload(&ctx, &mut headless.renderer, &asset).unwrap();
    let walk = model.clip("walk").unwrap();
    let (mut palettes, mut draws) = (vec![Mat4::IDENTITY; 3], Vec::new());
    let world = Mat4::from_translation(Vec3::new(2.0, 0.0, 1.0));
    // The palette comes from the animation job (as the game's characters get theirs).
    let mut poser = ModelPoser::new(&asset, 0).unwrap();
    let palette_now = poser
        .palette(walk, 0.37, sierra_anim::Playback::Loop)
        .unwrap();
    model
        .draw_with_palette(0, palette_now, world, &mut palettes, &mut draws)
        .unwrap();
    // A palette of the wrong length and an unknown skin are refused.
    assert!(model
        .draw_with_palette(0, &palette_now[1..], world, &mut palettes, &mut draws)
        .is_err());
    assert!(model
        .draw_with_palette(1, palette_now, world, &mut palettes, &mut draws)
        .is_err());
    assert_eq!(draws.len(), 1);
    assert_eq!(draws[0].palette_offset, 3);
    assert_eq!(draws[0].model, world);
    let expected = palette(&asset, "walk", 0.37, 0);
    for (a, b) in palettes[3..].iter().zip(&expected) {
        assert!(a.abs_diff_eq(*b, 1e-5), "{a} {b}");
    }
    let err = model.clip("moonwalk").unwrap_err().to_string();
    assert!(
        err.contains("moonwalk") && err.contains("jump_start"),
        "{err}"
    );
    // A model without a skin cannot be an animated character.
    let mut unskinned = asset.clone();
    for n in &mut unskinned.nodes {
        n.skin = None;
    }
    let err = SkinnedModel::upload(&ctx, &mut headless.renderer, &unskinned)
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("builtin:mannequin has no skinned mesh"),
        "{err}"
    );
}

#[test]
fn rigged_simple_and_recursive_skeletons_match_the_cpu_reference() {
    for (file, name) in [
        ("gltf/RiggedSimple/RiggedSimple.glb", "rigged_simple"),
        (
            "gltf/RecursiveSkeletons/RecursiveSkeletons.glb",
            "recursive_skeletons",
        ),
    ] {
        let Some(p) = sierra_testkit::shared_asset(file) else {
            continue;
        };
        let asset = GltfAsset::load(p).unwrap();
        let clip = asset.clips[0].name.clone();
        let d = asset.clips[0].duration;
        for (lo, hi) in check_model(&asset, &clip, [0.0, d * 0.4, d * 0.8], name) {
            eprintln!("{name}: posed bounds {lo} .. {hi}");
        }
    }
}
