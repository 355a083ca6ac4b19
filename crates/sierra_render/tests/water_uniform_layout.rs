//! The water compute passes' uniform structs against the layout of their assembled WGSL
//! (`water_common.wgsl` + `water.wgsl` or `water8.wgsl`; naga's reflection).

use sierra_render::compute::water::WaterUniforms;

#[test]
fn uniform_struct_matches_the_shader_layout() {
    let module = naga::front::wgsl::parse_str(sierra_render::compute::water::SHADER).unwrap();
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).unwrap();
    let size_of = |name: &str| {
        let (handle, _) = module
            .types
            .iter()
            .find(|(_, t)| t.name.as_deref() == Some(name))
            .unwrap();
        layouter[handle].size as usize
    };
    assert_eq!(
        size_of("WaterUniforms"),
        std::mem::size_of::<WaterUniforms>()
    );
    assert_eq!(
        size_of("DropUniforms"),
        std::mem::size_of::<sierra_render::compute::water::DropUniforms>()
    );
}

#[test]
fn the_8_connection_shader_shares_the_uniform_layout() {
    let module = naga::front::wgsl::parse_str(sierra_render::compute::water8::SHADER).unwrap();
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).unwrap();
    let (handle, _) = module
        .types
        .iter()
        .find(|(_, t)| t.name.as_deref() == Some("WaterUniforms"))
        .unwrap();
    assert_eq!(
        layouter[handle].size as usize,
        std::mem::size_of::<WaterUniforms>()
    );
}
