//! The `#[repr(C)]` uniform structs must match their WGSL declarations byte
//! for byte: sizes and member offsets come from naga's layout of the shader source.

use std::mem::{offset_of, size_of};

use sierra_render::passes::{forward, view};

/// `(member name, Rust offset)` pairs of a struct.
macro_rules! members {
    ($ty:ty { $($field:ident),* $(,)? }) => {
        (size_of::<$ty>(), vec![$((stringify!($field), offset_of!($ty, $field))),*])
    };
}

fn check(source: &str, wgsl_name: &str, rust: (usize, Vec<(&str, usize)>)) {
    let module = naga::front::wgsl::parse_str(source).expect("shader parses");
    let (_, ty) = module
        .types
        .iter()
        .find(|(_, ty)| ty.name.as_deref() == Some(wgsl_name))
        .unwrap_or_else(|| panic!("struct {wgsl_name} not in the shader"));
    let naga::TypeInner::Struct { members, span } = &ty.inner else {
        panic!("{wgsl_name} is not a struct");
    };
    let (rust_size, rust_members) = rust;
    assert_eq!(
        *span as usize, rust_size,
        "{wgsl_name}: WGSL size vs Rust size"
    );
    let wgsl: Vec<(String, usize)> = members
        .iter()
        .map(|m| (m.name.clone().unwrap_or_default(), m.offset as usize))
        .collect();
    let rust: Vec<(String, usize)> = rust_members
        .into_iter()
        .map(|(n, o)| (n.to_owned(), o))
        .collect();
    assert_eq!(wgsl, rust, "{wgsl_name}: member names and offsets");
}

#[test]
fn forward_uniforms_match_wgsl() {
    check(
        forward::SHADER,
        "CameraUniform",
        members!(view::CameraUniform {
            view_proj,
            view,
            position,
            inv_view_proj
        }),
    );
    check(
        forward::SHADER,
        "PointLightUniform",
        members!(view::PointLightUniform {
            position,
            inner_radius,
            color,
            outer_radius
        }),
    );
    check(
        forward::SHADER,
        "LightsUniform",
        members!(view::LightsUniform {
            to_sun,
            point_light_count,
            sun_color,
            debug_view,
            ambient,
            water_level,
            point_lights
        }),
    );
    check(
        forward::SHADER,
        "ObjectUniform",
        members!(forward::ObjectUniform {
            model,
            normal_matrix,
            base_color,
            specular,
            emissive
        }),
    );
}

#[test]
fn environment_uniforms_match_wgsl() {
    use sierra_render::environment::{bake, EnvironmentUniform};
    check(
        forward::SHADER,
        "EnvironmentUniform",
        members!(EnvironmentUniform {
            intensity,
            flags,
            max_lod,
            _pad
        }),
    );
    let bake_source = bake::shader_source();
    check(
        &bake_source,
        "BakeStep",
        members!(bake::StepUniform {
            face,
            size,
            samples,
            roughness,
            source_size,
            source_mips,
            _pad
        }),
    );
    check(
        &bake_source,
        "BakeSource",
        members!(bake::SourceUniform {
            mode,
            _pad0,
            _pad1,
            _pad2,
            color
        }),
    );
}

#[test]
fn every_scene_pass_declares_the_view_group_as_the_renderer_writes_it() {
    use sierra_render::passes::sky;
    // The sky and sea shaders begin with the view group's declarations (`view.wgsl`): their
    // `CameraUniform` and `LightsUniform` are the ones `FrameBindings` writes.
    let sea = sierra_render::passes::sea::shader_source();
    for source in [sky::shader_source(), sea] {
        check(
            &source,
            "CameraUniform",
            members!(view::CameraUniform {
                view_proj,
                view,
                position,
                inv_view_proj
            }),
        );
        check(
            &source,
            "LightsUniform",
            members!(view::LightsUniform {
                to_sun,
                point_light_count,
                sun_color,
                debug_view,
                ambient,
                water_level,
                point_lights
            }),
        );
    }
}

#[test]
fn sea_uniforms_match_wgsl() {
    use sierra_render::passes::sea::SeaUniforms;
    // As `SeaPass::new` compiles it: the view group's declarations and the shadow lookup first.
    check(
        &sierra_render::passes::sea::shader_source(),
        "SeaUniforms",
        members!(SeaUniforms {
            shallow,
            deep,
            sky,
            foam,
            origin,
            grid,
            far,
            glint,
            flags
        }),
    );
}

#[test]
fn tonemap_params_match_wgsl() {
    use sierra_render::passes::{fullscreen::FULLSCREEN_WGSL, tonemap::TonemapParams};
    // The pass prepends the shared full-screen triangle, as `TonemapPass::new` does.
    check(
        &format!(
            "{FULLSCREEN_WGSL}{}",
            include_str!("../src/passes/tonemap.wgsl")
        ),
        "TonemapParams",
        (
            size_of::<TonemapParams>(),
            vec![
                ("tonemapper", offset_of!(TonemapParams, tonemapper)),
                ("exposure", offset_of!(TonemapParams, exposure)),
                ("encode_srgb", offset_of!(TonemapParams, encode_srgb)),
                ("luma_alpha", offset_of!(TonemapParams, luma_alpha)),
            ],
        ),
    );
}

#[test]
fn bloom_sky_shadow_and_material_uniforms_match_wgsl() {
    use sierra_render::material::MaterialUniform;
    use sierra_render::passes::bloom::BloomParams;
    use sierra_render::passes::fullscreen::FULLSCREEN_WGSL;
    use sierra_render::passes::shadow::ShadowUniform;
    use sierra_render::passes::sky::SkyUniform;
    // The bloom pass prepends the shared full-screen triangle, as `BloomPass::new` does.
    check(
        &format!(
            "{FULLSCREEN_WGSL}{}",
            include_str!("../src/passes/bloom.wgsl")
        ),
        "BloomParams",
        members!(BloomParams {
            direction,
            threshold,
            intensity
        }),
    );
    // The sky pass and the environment bake both read it (`sky_radiance.wgsl`), each binding it
    // where its layout puts it.
    let sky_sources = [
        sierra_render::passes::sky::shader_source(),
        sierra_render::environment::bake::shader_source(),
    ];
    for source in &sky_sources {
        check(
            source,
            "SkyUniform",
            members!(SkyUniform {
                to_sun,
                zenith,
                horizon,
                ground,
                sun
            }),
        );
    }
    // The shadow pass writes the uniform the receivers read (forward and crowd through
    // `forward::SHADER`, the sea through `sea::shader_source`, both via `sun_shadow.wgsl`).
    let sea = sierra_render::passes::sea::shader_source();
    for source in [
        include_str!("../src/passes/shadow.wgsl"),
        forward::SHADER,
        &sea,
    ] {
        check(
            source,
            "ShadowUniform",
            members!(ShadowUniform {
                light_view_proj,
                params
            }),
        );
    }
    check(
        forward::SHADER,
        "MaterialUniform",
        members!(MaterialUniform {
            flags,
            alpha_cutoff,
            metallic,
            roughness,
            normal_scale,
            occlusion_strength,
            detail_frequency,
            detail_amplitude,
            surface_detail_repeat,
            surface_detail_normal_scale
        }),
    );
}

#[test]
fn a_wrong_layout_is_detected() {
    // The checker itself must fail on a mismatch (a test that cannot fail is a defect).
    let result = std::panic::catch_unwind(|| {
        check(
            "struct S { a: vec3<f32>, b: f32 }",
            "S",
            (16, vec![("a", 0), ("b", 16)]),
        )
    });
    assert!(result.is_err());
}
