//! The `#[repr(C)]` uniforms of the lighting and post-processing passes match their WGSL structs
//! byte for byte (sizes and member offsets from naga's layout of the shader source).

use std::mem::{offset_of, size_of};

use sierra_render::material::MaterialUniform;
use sierra_render::passes::bloom::BloomParams;
use sierra_render::passes::shadow::ShadowUniform;
use sierra_render::passes::sky::SkyUniform;
use sierra_render::passes::tonemap::TonemapParams;

const FULLSCREEN: &str = include_str!("../src/passes/fullscreen.wgsl");

fn wgsl_layout(source: &str, name: &str) -> (usize, Vec<usize>) {
    let module = naga::front::wgsl::parse_str(source).unwrap_or_else(|e| panic!("{name}: {e}"));
    let (_, ty) = module
        .types
        .iter()
        .find(|(_, ty)| ty.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("struct {name} not in the shader"));
    let naga::TypeInner::Struct { members, span } = &ty.inner else {
        panic!("{name} is not a struct");
    };
    (
        *span as usize,
        members.iter().map(|m| m.offset as usize).collect(),
    )
}

#[test]
fn bloom_tonemap_sky_shadow_and_material_uniforms_match_wgsl() {
    let bloom = format!("{FULLSCREEN}{}", include_str!("../src/passes/bloom.wgsl"));
    assert_eq!(
        wgsl_layout(&bloom, "BloomParams"),
        (
            size_of::<BloomParams>(),
            vec![
                offset_of!(BloomParams, direction),
                offset_of!(BloomParams, threshold),
                offset_of!(BloomParams, intensity)
            ]
        )
    );
    let tonemap = format!("{FULLSCREEN}{}", include_str!("../src/passes/tonemap.wgsl"));
    assert_eq!(
        wgsl_layout(&tonemap, "TonemapParams"),
        (
            size_of::<TonemapParams>(),
            vec![
                offset_of!(TonemapParams, tonemapper),
                offset_of!(TonemapParams, exposure),
                offset_of!(TonemapParams, encode_srgb),
                offset_of!(TonemapParams, luma_alpha)
            ]
        )
    );
    assert_eq!(
        wgsl_layout(include_str!("../src/passes/sky.wgsl"), "SkyUniform"),
        (
            size_of::<SkyUniform>(),
            vec![
                offset_of!(SkyUniform, inv_view_proj),
                offset_of!(SkyUniform, camera_position),
                offset_of!(SkyUniform, to_sun),
                offset_of!(SkyUniform, zenith),
                offset_of!(SkyUniform, horizon),
                offset_of!(SkyUniform, ground),
                offset_of!(SkyUniform, sun)
            ]
        )
    );
    let shadow_offsets = (
        size_of::<ShadowUniform>(),
        vec![
            offset_of!(ShadowUniform, light_view_proj),
            offset_of!(ShadowUniform, params),
        ],
    );
    let forward = sierra_render::passes::forward::SHADER;
    assert_eq!(
        wgsl_layout(include_str!("../src/passes/shadow.wgsl"), "ShadowUniform"),
        shadow_offsets
    );
    assert_eq!(wgsl_layout(forward, "ShadowUniform"), shadow_offsets);
    assert_eq!(
        wgsl_layout(forward, "MaterialUniform"),
        (
            size_of::<MaterialUniform>(),
            vec![
                offset_of!(MaterialUniform, flags),
                offset_of!(MaterialUniform, alpha_cutoff),
                offset_of!(MaterialUniform, metallic),
                offset_of!(MaterialUniform, roughness),
                offset_of!(MaterialUniform, normal_scale),
                offset_of!(MaterialUniform, occlusion_strength),
                offset_of!(MaterialUniform, detail_frequency),
                offset_of!(MaterialUniform, detail_amplitude)
            ]
        )
    );
}
