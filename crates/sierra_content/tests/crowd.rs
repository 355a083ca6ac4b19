//! Crowds from baked animation textures (`sierra_render::passes::crowd`): the baked GPU path against
//! the palette path (same clip, time and transform → the same image), a 1,000-mannequin crowd
//! over two frames, crowd members casting sun shadows on the ground, members outside the view
//! culled before the vertex stage, and clear errors for bakes that do not fit a texture or bad
//! instances.
//! Images: `sierra_crowd_*.png` in the temp directory.

#[path = "common/reference_palette.rs"]
mod reference_palette;
#[path = "common/silhouette.rs"]
mod silhouette;

// The renderer tests' helpers (GPU context, frames, HDR targets), shared rather than copied.
#[path = "../../sierra_render/tests/support/mod.rs"]
mod support;

use glam::{Mat4, Quat, Vec3, Vec4};
use reference_palette::reference_palette;
use sierra_content::crowd::baked_palettes;
use sierra_content::skinned_mesh::skinned_primitive_mesh;
use sierra_gltf::builtin::mannequin;
use sierra_gltf::{ClipSelector, GltfAsset};
use sierra_render::compute::skinning::{SkinnedDrawItem, SkinnedMeshData, Skinning};
use sierra_render::material::SurfaceMaterial;
use sierra_render::passes::crowd::{
    baked_texture_size, BakedPaletteClip, BakedPalettes, CrowdInstance,
};
use sierra_render::{Camera, FrameData, HeadlessRenderer, Material, RenderError, Sun};
use sierra_testkit::skip::{self, Reason};
use silhouette::differing_and_covered;
use support::context;

const SIZE: u32 = 128;
const RATE: f32 = 60.0;

fn mesh(asset: &GltfAsset) -> SkinnedMeshData {
    let inst = asset.skin_instances()[0];
    let joints = asset.skins[inst.skin].joint_count();
    skinned_primitive_mesh(&asset.meshes[inst.mesh].primitives[0], joints).unwrap()
}

/// Bakes `names` (in order) of the mannequin's skin 0.
fn bake(asset: &GltfAsset, names: &[&str]) -> BakedPalettes {
    let skin = &asset.skins[0];
    let clips: Vec<_> = names
        .iter()
        .map(|n| {
            let c = asset.find_clip(&ClipSelector::Name((*n).into())).unwrap();
            asset.skin_clip(0, c).unwrap()
        })
        .collect();
    let refs: Vec<_> = clips.iter().collect();
    baked_palettes(
        &sierra_anim::bake_skinning_matrices(&skin.skeleton, &skin.skin, &refs, RATE).unwrap(),
    )
}

fn frame(eye: Vec3, target: Vec3, far: f32) -> FrameData {
    FrameData {
        clear_color: Vec4::new(0.1, 0.1, 0.12, 1.0),
        ..FrameData::new(Camera::look_at(
            eye,
            target,
            Vec3::Y,
            45f32.to_radians(),
            1.0,
            0.1,
            far,
        ))
    }
}

fn save(image: &image::RgbaImage, name: &str) {
    let _ = image.save(std::env::temp_dir().join(format!("sierra_crowd_{name}.png")));
}

/// Adds a crowd of `instances` of `mesh` animated by `baked`, in default materials.
fn add_crowd(
    ctx: &sierra_render::GpuContext,
    headless: &mut HeadlessRenderer,
    mesh: &SkinnedMeshData,
    baked: &BakedPalettes,
    instances: &[CrowdInstance],
) {
    headless
        .renderer
        .crowd
        .add_crowd(
            ctx,
            mesh,
            baked,
            &Material::default(),
            &SurfaceMaterial::default(),
            instances,
        )
        .unwrap();
}

/// A renderer of `SIZE`² pixels whose frames ([`unshadowed_frame`]) have no sun shadows: the
/// baked and palette paths both cast them, so the comparisons below see the skinning alone,
/// without self-shadowing.
fn unshadowed(ctx: &sierra_render::GpuContext) -> HeadlessRenderer {
    HeadlessRenderer::new(ctx, SIZE, SIZE).unwrap()
}

/// `view` with the sun's shadows off.
fn unshadowed_frame(view: &FrameData) -> FrameData {
    let mut view = view.clone();
    view.post.shadow.enabled = false;
    view
}

/// `view` at crowd time `time` with one baked crowd `instance`, drawn without shadows.
fn render_baked_instance(
    ctx: &sierra_render::GpuContext,
    (mesh, baked): (&SkinnedMeshData, &BakedPalettes),
    instance: CrowdInstance,
    view: &FrameData,
    time: f32,
) -> image::RgbaImage {
    let mut headless = unshadowed(ctx);
    add_crowd(ctx, &mut headless, mesh, baked, &[instance]);
    let mut view = unshadowed_frame(view);
    view.crowds.time = time;
    headless.render(ctx, &view).unwrap().0
}

#[test]
fn baked_crowd_instance_matches_the_palette_path() {
    let asset = mannequin::load().unwrap();
    let mesh = mesh(&asset);
    // Two clips so the walk lives in a row range that does not start at row 0.
    let baked = bake(&asset, &["idle", "walk"]);
    let walk_duration = baked.clips[1].duration;
    let ctx = context();
    let model = Mat4::from_scale_rotation_translation(
        Vec3::splat(1.1),
        Quat::from_rotation_y(0.6),
        Vec3::new(0.2, 0.0, -0.1),
    );
    let view = frame(Vec3::new(1.0, 1.2, 3.0), Vec3::new(0.0, 0.9, 0.0), 20.0);
    // Instance time = offset + speed × global time = 0.2 + 0.5 × 0.34 = 0.37 s into the walk.
    let t = 0.37f32;
    let (global, offset, speed) = (0.34f32, 0.2f32, 0.5f32);
    // The baked path interpolates frames 60 per second apart (the palette path samples the
    // keys exactly): that difference is the tolerance below.

    // Palette path: the pose sampled directly, skinned by the compute pass, forward-drawn.
    let palette = reference_palette(&asset, &ClipSelector::Name("walk".into()), t, 0);
    let mut headless = unshadowed(&ctx);
    let mut skinning = Skinning::new(&ctx).unwrap();
    let h = skinning
        .upload(&ctx, headless.renderer.meshes_mut(), &mesh, "m")
        .unwrap();
    let mut palette_frame = unshadowed_frame(&view);
    let draw = SkinnedDrawItem {
        mesh: h,
        model,
        palette_offset: 0,
        material: Material::default(),
    };
    skinning
        .skin(&ctx, &palette, &[draw], &mut palette_frame.draws)
        .unwrap();
    let reference = headless.render(&ctx, &palette_frame).unwrap().0;

    // Baked path: one crowd instance; a second run one loop later must give the same image.
    let images: Vec<_> = [0.0, 1.0]
        .map(|loops| {
            let instance = CrowdInstance::new(model, 1, offset + loops * walk_duration, speed);
            render_baked_instance(&ctx, (&mesh, &baked), instance, &view, global)
        })
        .into();
    save(&reference, "palette");
    save(&images[0], "baked");
    save(&images[1], "baked_next_loop");
    for image in &images {
        let (differing, covered) = differing_and_covered(image, &reference);
        assert!(
            covered > 300 && differing * 100 <= covered,
            "baked vs palette path: {differing} of {covered} pixels differ"
        );
    }
    // A wrong clip (idle instead of walk) must not pass the same comparison.
    let wrong = CrowdInstance::new(model, 0, offset, speed);
    let wrong = render_baked_instance(&ctx, (&mesh, &baked), wrong, &view, global);
    let (differing, covered) = differing_and_covered(&wrong, &reference);
    assert!(
        differing * 100 > covered,
        "idle and walk look alike ({differing} of {covered}): the comparison cannot fail"
    );
}

#[test]
fn a_crowd_of_1000_mannequins_renders_and_animates() {
    let asset = mannequin::load().unwrap();
    let mesh = mesh(&asset);
    let names = ["idle", "walk", "run"];
    let baked = bake(&asset, &names);
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, SIZE, SIZE).unwrap();
    let instances: Vec<CrowdInstance> = (0..1000u32)
        .map(|i| {
            let (x, z) = ((i % 40) as f32 - 19.5, (i / 40) as f32 - 12.0);
            let model = Mat4::from_rotation_translation(
                Quat::from_rotation_y(i as f32 * 0.37),
                Vec3::new(x * 1.2, 0.0, z * 1.2),
            );
            let mut inst =
                CrowdInstance::new(model, i % 3, i as f32 * 0.13, 0.8 + (i % 5) as f32 * 0.1);
            if i % 4 == 0 {
                // Half-way crossfades between run and walk.
                inst.clip = 2;
                inst.second_clip = 1;
                inst.crossfade = 0.5;
            }
            inst
        })
        .collect();
    add_crowd(&ctx, &mut headless, &mesh, &baked, &instances);
    assert_eq!(headless.renderer.crowd.totals().0, 1000);
    let mut view = frame(Vec3::new(0.0, 22.0, 34.0), Vec3::new(0.0, 0.0, 0.0), 200.0);
    let mut images = Vec::new();
    for (i, t) in [0.0f32, 0.25].into_iter().enumerate() {
        view.crowds.time = t;
        let image = headless.render(&ctx, &view).unwrap().0;
        save(&image, &format!("1000_frame{i}"));
        images.push(image);
    }
    let background = *images[0].get_pixel(0, 0);
    let covered = images[0].pixels().filter(|p| **p != background).count();
    assert!(
        covered > 2000,
        "only {covered} of {} pixels show the crowd",
        SIZE * SIZE
    );
    let (differing, _) = differing_and_covered(&images[1], &images[0]);
    assert!(
        differing > 100,
        "the crowd did not move between frames ({differing} pixels differ)"
    );
}

#[test]
fn bakes_that_do_not_fit_and_bad_instances_give_clear_errors() {
    let asset = mannequin::load().unwrap();
    let mesh = mesh(&asset);
    let ctx = context();
    let limit = ctx.device.limits().max_texture_dimension_2d;
    // One row per baked frame: one more frame than the texture can hold.
    let frames = limit + 1;
    let tall = BakedPalettes {
        joint_count: 1,
        sample_rate: RATE,
        clips: vec![BakedPaletteClip {
            first_frame: 0,
            frame_count: frames,
            duration: (frames - 1) as f32 / RATE,
        }],
        texels: vec![Vec4::ZERO; frames as usize * 3],
    };
    match baked_texture_size(&ctx, &tall) {
        Err(e @ RenderError::LimitExceeded { .. }) => {
            let text = e.to_string();
            assert!(
                text.contains("max_texture_dimension_2d") && text.contains(&frames.to_string()),
                "{text}"
            );
        }
        other => panic!("expected LimitExceeded, got {other:?}"),
    }
    let mut headless = HeadlessRenderer::new(&ctx, 16, 16).unwrap();
    let crowd = &mut headless.renderer.crowd;
    let (m, s) = (Material::default(), SurfaceMaterial::default());
    // The same through add_crowd (joint counts matching so the size check is reached).
    let mut one_joint = mesh.clone();
    one_joint.joint_count = 1;
    one_joint.joints.iter_mut().for_each(|j| *j = [0; 4]);
    assert!(matches!(
        crowd.add_crowd(&ctx, &one_joint, &tall, &m, &s, &[]),
        Err(RenderError::LimitExceeded { .. })
    ));
    let baked = bake(&asset, &["idle"]);
    // A clip the bake does not have.
    let bad = CrowdInstance::new(Mat4::IDENTITY, 3, 0.0, 1.0);
    let err = crowd
        .add_crowd(&ctx, &mesh, &baked, &m, &s, &[bad])
        .unwrap_err();
    assert!(err.to_string().contains("1 clips"), "{err}");
    // A skin that does not match the bake.
    let err = crowd
        .add_crowd(&ctx, &one_joint, &baked, &m, &s, &[])
        .unwrap_err();
    assert!(err.to_string().contains("joints"), "{err}");
    // Texel count not matching the clips.
    let mut short = baked.clone();
    short.texels.pop();
    assert!(matches!(
        baked_texture_size(&ctx, &short),
        Err(RenderError::InvalidInput(_))
    ));
}

/// Vertex invocations of the crowd pass and of the shadow pass (0 where a pass did not run)
/// in one frame; `None` where the adapter cannot count (pipeline statistics).
fn crowd_and_shadow_vertices(
    ctx: &sierra_render::GpuContext,
    headless: &mut HeadlessRenderer,
    view: &FrameData,
) -> Option<(u64, u64)> {
    let (_, stats) = headless.render(ctx, view).unwrap();
    let mut gpu = stats.gpu;
    gpu.extend(headless.renderer.flush_gpu_timings(ctx).unwrap());
    let passes = gpu
        .into_iter()
        .find(|t| t.frame == stats.frame)?
        .pass_statistics?;
    let vertices = |label: &str| {
        passes
            .iter()
            .filter(|s| s.label == label)
            .map(|s| s.vertex_shader_invocations)
            .sum::<u64>()
    };
    Some((vertices("crowd"), vertices("shadow")))
}

/// Members are culled before the vertex stage (`passes::crowd::bounds`): a crowd 500 m to the
/// side (outside the view and the sun's fitted box) costs the crowd and shadow passes no
/// vertex invocations (pipeline statistics), the same members in view cost some, and a member
/// out of view beside one in view adds nothing to the one's count. Negative control: with
/// culling off the far crowd's vertices run again, so the zero comes from the cull and not
/// from the clipper.
#[test]
fn a_crowd_outside_the_view_costs_no_vertex_invocations() {
    let asset = mannequin::load().unwrap();
    let mesh = mesh(&asset);
    let baked = bake(&asset, &["walk"]);
    let ctx = context();
    let mut headless = HeadlessRenderer::new(&ctx, SIZE, SIZE).unwrap();
    let at =
        |x: f32| CrowdInstance::new(Mat4::from_translation(Vec3::new(x, 0.0, 0.0)), 0, 0.0, 1.0);
    let members = |xs: &[f32]| xs.iter().map(|&x| at(x)).collect::<Vec<_>>();
    add_crowd(&ctx, &mut headless, &mesh, &baked, &members(&[-0.6, 0.6]));
    let crowd = sierra_render::passes::crowd::CrowdHandle(0);
    let mut view = frame(Vec3::new(0.0, 1.0, 4.0), Vec3::new(0.0, 0.9, 0.0), 50.0);
    view.crowds.time = 0.25;
    assert!(view.post.shadow.enabled && view.sun.intensity > 0.0);
    let Some(in_view) = crowd_and_shadow_vertices(&ctx, &mut headless, &view) else {
        return skip::skip(
            Reason::GpuFeature,
            format!("no pipeline statistics on {}", ctx.adapter_summary()),
        );
    };
    assert!(in_view.0 > 0 && in_view.1 > 0, "in view: {in_view:?}");

    let set = |xs: &[f32], headless: &mut HeadlessRenderer| {
        headless
            .renderer
            .crowd
            .set_instances(&ctx, crowd, &members(xs))
            .unwrap();
    };
    set(&[500.0, 520.0], &mut headless);
    let outside = crowd_and_shadow_vertices(&ctx, &mut headless, &view).unwrap();
    assert_eq!(
        outside,
        (0, 0),
        "crowd and shadow vertices of a crowd out of view"
    );
    // Frame stats count the triangles of members drawn: none here, both of the two in view.
    let drawn = |headless: &HeadlessRenderer| {
        let crowd = &headless.renderer.crowd;
        crowd.drawn_triangles(view.camera.view_proj())
    };
    assert_eq!(drawn(&headless), 0);

    set(&[-0.6, 0.6, 500.0], &mut headless);
    let mixed = crowd_and_shadow_vertices(&ctx, &mut headless, &view).unwrap();
    assert_eq!(mixed, in_view, "a member out of view adds no vertices");
    let per_member = mesh.mesh.indices.len() as u64 / 3;
    assert_eq!(drawn(&headless), 2 * per_member);

    // Control: unculled, the far crowd's vertices run through both passes.
    set(&[500.0, 520.0], &mut headless);
    headless.renderer.crowd.culling = false;
    let unculled = crowd_and_shadow_vertices(&ctx, &mut headless, &view).unwrap();
    assert_eq!(
        unculled, in_view,
        "every member's vertices run when nothing is culled"
    );
}

#[test]
fn crowd_member_shadows_the_ground_away_from_the_sun() {
    let asset = mannequin::load().unwrap();
    let mesh = mesh(&asset);
    let baked = bake(&asset, &["idle"]);
    let ctx = context();
    let (mut headless, plane) = support::renderer_with_mesh(
        &ctx,
        (SIZE, SIZE),
        &sierra_render::primitives::plane(1.0),
        "ground",
    );
    // Sun from +X at 45° elevation: a standing figure's shadow falls along -X, about as long as
    // the figure is tall (1.8 m); the +X side stays lit.
    let mut view = frame(Vec3::new(0.0, 5.0, 4.0), Vec3::new(0.0, 0.0, 0.0), 30.0);
    view.sun = Sun {
        direction: Vec3::new(-1.0, -1.0, 0.0),
        color: Vec3::ONE,
        intensity: 1.0,
        ambient: Vec3::splat(0.1),
    };
    view.draws.push(sierra_render::DrawItem {
        mesh: plane,
        model: Mat4::from_scale(Vec3::new(10.0, 1.0, 10.0)),
        material: Material {
            base_color: Vec4::new(0.6, 0.6, 0.6, 1.0),
            ..Material::default()
        },
        surface: None,
    });
    let (ground_only, _) = headless.render(&ctx, &view).unwrap();
    let instance = CrowdInstance::new(Mat4::IDENTITY, 0, 0.0, 1.0);
    add_crowd(&ctx, &mut headless, &mesh, &baked, &[instance]);
    let mut view = view.clone();
    view.crowds.time = 0.25;
    let (with_crowd, _) = headless.render(&ctx, &view).unwrap();
    save(&with_crowd, "shadow");
    let pixel = |p: Vec3| {
        let ndc = view.camera.view_proj().project_point3(p);
        let x = ((ndc.x * 0.5 + 0.5) * SIZE as f32) as u32;
        let y = ((0.5 - ndc.y * 0.5) * SIZE as f32) as u32;
        (x, y)
    };
    let luma = |img: &image::RgbaImage, (x, y): (u32, u32)| {
        let p = img.get_pixel(x, y).0;
        (u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2])) as f32 / 3.0
    };
    // Ground points on the shadow side (torso and head heights 0.9-1.6 m, cast 45° down to -X)
    // and the same points mirrored to the sun side. None is covered by the figure itself.
    let mut darker = 0;
    let shadow_side = [-0.9f32, -1.1, -1.3, -1.5];
    for &x in &shadow_side {
        let shade = pixel(Vec3::new(x, 0.0, 0.0));
        let lit = pixel(Vec3::new(-x, 0.0, 0.0));
        let (before, after) = (luma(&ground_only, shade), luma(&with_crowd, shade));
        if after < before * 0.75 {
            darker += 1;
        }
        let (lit_before, lit_after) = (luma(&ground_only, lit), luma(&with_crowd, lit));
        assert!(
            (lit_before - lit_after).abs() <= 2.0,
            "sun side at x = {}: {lit_before} -> {lit_after}",
            -x
        );
    }
    assert!(
        darker >= 3,
        "only {darker} of {} ground points behind the figure are in its shadow",
        shadow_side.len()
    );
}

/// A crowd in wireframe (`post.wireframe`, the crowd pass's line-mode pipeline): the members'
/// triangles as lines, so the background shows through where the filled crowd covers it.
/// Images: `sierra_crowd_wireframe_{filled,lines}.png`.
#[test]
fn a_crowd_draws_in_wireframe() {
    let ctx = context();
    let lines = ctx
        .device
        .features()
        .contains(wgpu::Features::POLYGON_MODE_LINE);
    if skip::unless(
        lines,
        Reason::GpuFeature,
        "no POLYGON_MODE_LINE on this adapter: wireframe frames are drawn filled",
    ) {
        return;
    }
    let asset = mannequin::load().unwrap();
    let mesh = mesh(&asset);
    let baked = bake(&asset, &["walk"]);
    let mut headless = HeadlessRenderer::new(&ctx, 256, 256).unwrap();
    let instances: Vec<CrowdInstance> = (0..3)
        .map(|i| {
            let model = Mat4::from_translation(Vec3::new(i as f32 - 1.0, 0.0, 0.0));
            CrowdInstance::new(model, 0, i as f32 * 0.3, 1.0)
        })
        .collect();
    add_crowd(&ctx, &mut headless, &mesh, &baked, &instances);
    let mut view = frame(Vec3::new(0.0, 1.0, 3.2), Vec3::new(0.0, 0.9, 0.0), 50.0);
    let filled = headless.render(&ctx, &view).unwrap().0;
    view.post.wireframe = true;
    let lines = headless.render(&ctx, &view).unwrap().0;
    let save_big = |image: &image::RgbaImage, name: &str| {
        let _ = image.save(std::env::temp_dir().join(format!("sierra_crowd_wireframe_{name}.png")));
    };
    save_big(&filled, "filled");
    save_big(&lines, "lines");
    let background = *filled.get_pixel(0, 0);
    let covered = |img: &image::RgbaImage| {
        img.pixels()
            .filter(|p| p.0.iter().zip(background.0).any(|(a, b)| a.abs_diff(b) > 8))
            .count()
    };
    let (solid, wire) = (covered(&filled), covered(&lines));
    assert!(solid > 3000, "the crowd fills {solid} pixels");
    assert!(
        wire > solid / 10 && wire < solid * 9 / 10,
        "lines cover {wire} of the {solid} pixels the filled crowd covers"
    );
}
