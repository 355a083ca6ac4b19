//! OBJ export read back with `tobj`, at 100/50/25/10 % levels of detail: the files load, the
//! vertex counts are within 10 % of the target, and the geometry keeps its bounds.

use sierra_terrain::lod::simplify_to_percent;
use sierra_terrain::noise::grid::Threads;
use sierra_terrain::obj::write_obj;
use sierra_terrain::palm::{palm_mesh, PalmParams};
use sierra_terrain::planet::{planet_mesh, PlanetParams};
use sierra_terrain::{Island, Mesh, TerrainParams};

fn check_lods(mesh: &Mesh, dir: &std::path::Path) {
    let full = mesh.vertex_count() as f32;
    for percent in [100u32, 50, 25, 10] {
        let lod = simplify_to_percent(mesh, percent).unwrap();
        let files = write_obj(&lod, dir, &format!("{}_{percent}", mesh.name)).unwrap();
        let (models, materials) = tobj::load_obj(
            &files.obj,
            &tobj::LoadOptions {
                triangulate: true,
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("{}: {e}", files.obj.display()));
        let materials = materials.unwrap();
        assert_eq!(materials.len(), 1);
        assert_eq!(models.len(), 1);
        let m = &models[0].mesh;
        let vertices = m.positions.len() / 3;
        let target = full * percent as f32 / 100.0;
        assert!(
            (vertices as f32 - target).abs() <= 0.1 * target,
            "{} at {percent}%: {vertices} vertices, target {target}",
            mesh.name
        );
        assert_eq!(m.indices.len(), lod.indices.len());
        assert_eq!(m.normals.len(), m.positions.len());
        if !mesh.colors.is_empty() {
            assert_eq!(m.vertex_color.len(), m.positions.len());
        }
        // Same extents (simplification keeps the silhouette within a few percent).
        let (lo, hi) = mesh.bounds().unwrap();
        let ext = (hi - lo).length();
        let ys = m.positions.iter().skip(1).step_by(3).copied();
        let top = ys.fold(f32::NEG_INFINITY, f32::max);
        assert!(
            (top - hi.y).abs() < 0.15 * ext,
            "{} top {top} vs {}",
            mesh.name,
            hi.y
        );
        // Values round-trip exactly (shortest float formatting).
        if percent == 100 {
            assert_eq!(m.positions[0], lod.positions[0].x);
        }
    }
}

#[test]
fn island_planet_and_palm_lods_read_back_with_tobj() {
    let dir = tempfile::tempdir().unwrap();
    let island = Island::generate_cpu(
        &TerrainParams {
            resolution: 129,
            ..TerrainParams::default()
        },
        Threads::All,
    )
    .unwrap();
    check_lods(&island.mesh(), dir.path());
    check_lods(
        &planet_mesh(&PlanetParams {
            rings: 48,
            ..PlanetParams::default()
        })
        .unwrap(),
        dir.path(),
    );
    check_lods(&palm_mesh(&PalmParams::default(), 0).unwrap(), dir.path());
}

#[test]
fn bad_lod_percentages_and_paths_are_errors() {
    let mesh = palm_mesh(&PalmParams::default(), 0).unwrap();
    assert!(simplify_to_percent(&mesh, 0).is_err());
    assert!(simplify_to_percent(&mesh, 101).is_err());
    let file = tempfile::NamedTempFile::new().unwrap();
    // A directory path that is an existing file.
    let err = write_obj(&mesh, &file.path().join("sub"), "x").unwrap_err();
    assert!(err.to_string().contains("sub"), "{err}");
}
