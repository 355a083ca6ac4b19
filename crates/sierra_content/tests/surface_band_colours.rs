//! The forward shader tells the terrain's surface types apart by the island's band colours
//! (`forward.wgsl`'s `SURFACE_*` constants, used by `surface_weights` to blend the detail
//! layers); they must be `sierra_terrain::island::Surface::color`, or the layers would blend by
//! colours the terrain never has. Negative control: a constant written one step off in its
//! last digit is told apart.

use sierra_render::passes::forward::SHADER;
use sierra_terrain::island::Surface;

/// The `vec3<f32>(r, g, b)` of `const NAME = …;` in `source`.
fn constant(source: &str, name: &str) -> Option<[f32; 3]> {
    let line = source
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("const {name} =")))?;
    let inner = line.split_once("vec3<f32>(")?.1.split_once(')')?.0;
    let v: Vec<f32> = inner
        .split(',')
        .map(|x| x.trim().parse().ok())
        .collect::<Option<_>>()?;
    v.try_into().ok()
}

fn matches(shader: [f32; 3], surface: Surface) -> bool {
    let c = surface.color();
    (0..3).all(|i| (shader[i] - c[i]).abs() < 1e-6)
}

#[test]
fn the_shaders_band_colours_are_the_islands() {
    for (name, surface) in [
        ("SURFACE_WET_SAND", Surface::WetSand),
        ("SURFACE_DRY_SAND", Surface::DrySand),
        ("SURFACE_GRASS", Surface::Grass),
        ("SURFACE_ROCK", Surface::Rock),
        ("SURFACE_SNOW", Surface::Snow),
    ] {
        let shader = constant(SHADER, name).unwrap_or_else(|| panic!("{name} not in forward.wgsl"));
        assert!(
            matches(shader, surface),
            "{name} = {shader:?}, Surface::{surface:?} = {:?}",
            surface.color()
        );
    }
    let off = SHADER.replace(
        "const SURFACE_GRASS = vec3<f32>(0.10, 0.24, 0.04);",
        "const SURFACE_GRASS = vec3<f32>(0.10, 0.24, 0.05);",
    );
    assert_ne!(off, SHADER, "the control edits the constant");
    assert!(!matches(
        constant(&off, "SURFACE_GRASS").unwrap(),
        Surface::Grass
    ));
}
