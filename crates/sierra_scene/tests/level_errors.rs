//! Bad level input: each case is a clear error naming the file and the JSON path, never a panic.

use std::path::{Path, PathBuf};

use sierra_scene::{load_level, Error};

/// A level in a fresh temporary folder (the asset root); returns (folder guard, level path).
fn write_level(json: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("level.json");
    std::fs::write(&path, json).unwrap();
    (dir, path)
}

fn load_err(json: &str) -> (Error, String, PathBuf) {
    let (dir, path) = write_level(json);
    let err = load_level(&path).expect_err("level should be refused");
    let text = err.to_string();
    assert!(
        text.contains(&path.display().to_string()),
        "error does not name the file: {text}"
    );
    drop(dir);
    (err, text, path)
}

fn json_fields(err: &Error) -> (&str, usize, usize, &str) {
    match err {
        Error::Json {
            json_path,
            line,
            column,
            message,
            ..
        } => (json_path, *line, *column, message),
        other => panic!("expected a JSON error, got {other:?}"),
    }
}

#[test]
fn unknown_component_type_lists_valid_types() {
    let (err, text, _) = load_err(
        r#"{"objects": [
            {"name": "A", "components": [{"type": "Spinner", "degreesPerSecond": 1}]},
            {"name": "B", "components": [{"type": "Lamp", "lightColor": [1, 1, 1]}]}
        ]}"#,
    );
    let (path, line, _, message) = json_fields(&err);
    assert_eq!(path, "objects[1].components[0]");
    assert_eq!(line, 3);
    assert!(message.contains("unknown component type `Lamp`"), "{text}");
    for t in sierra_scene::COMPONENT_TYPES {
        assert!(message.contains(t), "{text}");
    }
}

#[test]
fn wrong_field_type_names_the_field() {
    let (err, text, _) = load_err(
        r#"{"objects": [{"name": "A", "components": [{"type": "Spinner", "degreesPerSecond": "fast"}]}]}"#,
    );
    let (path, line, column, message) = json_fields(&err);
    assert_eq!(path, "objects[0].components[0].degreesPerSecond", "{text}");
    assert_eq!((line, column), (1, 88), "{text}");
    assert!(message.contains("invalid type"), "{text}");
}

/// Errors found while reading the JSON name the JSON path and say what is wrong: a field of
/// the wrong type read before the component's `type`, missing and unknown fields, an unknown
/// mesh primitive (listing the valid ones).
#[test]
fn json_errors_name_the_path_and_what_is_wrong() {
    let cases: [(&str, &str, Vec<&str>); 5] = [
        (
            r#"{"objects": [{"name": "A", "components": [{"degreesPerSecond": "fast", "type": "Spinner"}]}]}"#,
            "objects[0].components[0]",
            vec!["degreesPerSecond", "invalid type"],
        ),
        (
            r#"{"objects": [{"name": "A", "components": [{"type": "CollisionBox"}]}]}"#,
            "objects[0].components[0]",
            vec!["missing field `halfExtents`"],
        ),
        (
            r#"{"objects": [{"position": [0, 1, 0]}]}"#,
            "objects[0]",
            vec!["missing field `name`"],
        ),
        (
            r#"{"objects": [{"name": "A", "positon": [0, 1, 0]}]}"#,
            "objects[0].positon",
            vec!["unknown field `positon`", "position"],
        ),
        (
            r#"{"objects": [{"name": "A", "mesh": "cylinder"}]}"#,
            "objects[0].mesh",
            sierra_scene::level::PRIMITIVE_NAMES.to_vec(),
        ),
    ];
    for (json, expected_path, needles) in cases {
        let (err, text, _) = load_err(json);
        let (path, _, _, message) = json_fields(&err);
        assert_eq!(path, expected_path, "{text}");
        for needle in needles {
            assert!(message.contains(needle), "{needle:?}: {text}");
        }
    }
}

#[test]
fn bad_rotation_and_scale() {
    let (err, text, _) = load_err(r#"{"objects": [{"name": "A", "rotation": [1, 2]}]}"#);
    assert_eq!(json_fields(&err).0, "objects[0].rotation", "{text}");
    assert!(text.contains("Euler degrees"), "{text}");
    let (err, text, _) = load_err(r#"{"objects": [{"name": "A", "scale": "big"}]}"#);
    assert_eq!(json_fields(&err).0, "objects[0].scale", "{text}");
}

#[test]
fn malformed_json_gives_line_and_column() {
    let (err, text, _) = load_err("{\"objects\": [\n  {\"name\": \"A\",}\n]}");
    let (_, line, column, _) = json_fields(&err);
    assert_eq!((line, column), (2, 16), "{text}");
    let (err, _, _) = load_err(r#"{"objects": []} trailing"#);
    json_fields(&err);
}

#[test]
fn parent_that_does_not_exist() {
    let (err, text, _) =
        load_err(r#"{"objects": [{"name": "A"}, {"name": "B", "parent": "Nope"}]}"#);
    match err {
        Error::UnknownObject {
            json_path, name, ..
        } => {
            assert_eq!(json_path, "objects[1].parent");
            assert_eq!(name, "Nope");
        }
        other => panic!("{other:?}"),
    }
    assert!(text.contains("objects: A, B"), "{text}");
}

#[test]
fn follow_camera_target_must_exist() {
    let (err, text, _) = load_err(
        r#"{"objects": [{"name": "Cam", "components": [{"type": "FollowCamera", "target": "Player", "offset": [0, 2, 5]}]}]}"#,
    );
    assert!(
        matches!(&err, Error::UnknownObject { json_path, .. } if json_path == "objects[0].components[0].target"),
        "{text}"
    );
}

#[test]
fn parent_cycle_is_reported_with_its_members() {
    let (err, text, _) = load_err(
        r#"{"objects": [{"name": "Root"}, {"name": "A", "parent": "C"}, {"name": "B", "parent": "A"}, {"name": "C", "parent": "B"}]}"#,
    );
    match &err {
        Error::ParentCycle {
            cycle, json_path, ..
        } => {
            assert_eq!(cycle.len(), 4, "{text}");
            assert_eq!(cycle.first(), cycle.last());
            assert!(json_path.starts_with("objects[") && json_path.ends_with("].parent"));
        }
        other => panic!("{other:?}"),
    }
    let (err, _, _) = load_err(r#"{"objects": [{"name": "Self", "parent": "Self"}]}"#);
    assert!(matches!(err, Error::ParentCycle { .. }));
}

#[test]
fn duplicate_names_are_refused() {
    let (err, _, _) = load_err(r#"{"objects": [{"name": "A"}, {"name": "A"}]}"#);
    assert!(
        matches!(&err, Error::DuplicateName { json_path, .. } if json_path == "objects[1].name")
    );
}

#[test]
fn mesh_file_that_does_not_exist() {
    let (err, text, _) = load_err(r#"{"objects": [{"name": "A", "mesh": "models/missing.glb"}]}"#);
    match &err {
        Error::InLevel {
            json_path, source, ..
        } => {
            assert_eq!(json_path, "objects[0].mesh");
            assert!(matches!(**source, Error::AssetNotFound { .. }), "{text}");
        }
        other => panic!("{other:?}"),
    }
    assert!(text.contains("models/missing.glb"), "{text}");
}

#[test]
fn path_escaping_the_asset_root() {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("secret.glb");
    std::fs::write(&outside, b"glTF").unwrap();
    let level_dir = dir.path().join("levels");
    std::fs::create_dir(&level_dir).unwrap();
    // `..` is resolved by the file system, so `sub` exists for the second case to climb out.
    std::fs::create_dir(level_dir.join("sub")).unwrap();
    let path = level_dir.join("level.json");
    for mesh in ["../secret.glb", "sub/../../secret.glb"] {
        std::fs::write(
            &path,
            format!(r#"{{"objects": [{{"name": "A", "mesh": "{mesh}"}}]}}"#),
        )
        .unwrap();
        let err = load_level(&path).unwrap_err();
        match &err {
            Error::InLevel {
                json_path, source, ..
            } => {
                assert_eq!(json_path, "objects[0].mesh");
                assert!(matches!(**source, Error::OutsideAssetRoot { .. }), "{err}");
            }
            other => panic!("{other:?}"),
        }
    }
    let abs = outside.display().to_string();
    std::fs::write(
        &path,
        format!(
            r#"{{"objects": [{{"name": "A", "mesh": {}}}]}}"#,
            serde_json::to_string(&abs).unwrap()
        ),
    )
    .unwrap();
    let err = load_level(&path).unwrap_err();
    assert!(
        matches!(&err, Error::InLevel { source, .. } if matches!(**source, Error::OutsideAssetRoot { .. })),
        "{err}"
    );
    // The same file is fine when the asset root is widened to include it.
    std::fs::write(
        &path,
        r#"{"objects": [{"name": "A", "mesh": "../secret.glb"}]}"#,
    )
    .unwrap();
    sierra_scene::level::load_level_with_root(&path, dir.path()).unwrap();
}

#[test]
fn missing_level_file() {
    let err = load_level(Path::new("/nonexistent/level.json")).unwrap_err();
    assert!(matches!(err, Error::Io { .. }));
    assert!(err.to_string().contains("/nonexistent/level.json"));
}

#[test]
fn minimal_level_gets_documented_defaults() {
    let (_dir, path) =
        write_level(r#"{"objects": [{"name": "A", "rotation": [0, 90, 0], "scale": 2}]}"#);
    let level = load_level(&path).unwrap();
    let a = &level.objects[0];
    assert_eq!(a.scale, glam::Vec3::splat(2.0));
    let x = a.rotation * glam::Vec3::X;
    assert!(x.abs_diff_eq(-glam::Vec3::Z, 1e-6), "{x}");
    assert_eq!(level.camera.fov_y_degrees, 60.0);
    assert_eq!(a.material.specular_power, 32.0);
}

#[test]
fn bad_normal_maps_are_refused_with_their_path() {
    let (err, text, _) = load_err(
        r#"{"objects": [{"name": "A", "mesh": "cube", "material": {"normalMap": "builtin:waves"}}]}"#,
    );
    let (path, _, _, message) = json_fields(&err);
    assert_eq!(path, "objects[0].material.normalMap", "{text}");
    for name in sierra_scene::level::BUILTIN_NORMAL_MAPS {
        assert!(message.contains(&format!("builtin:{name}")), "{text}");
    }
    let (err, text, _) = load_err(
        r#"{"objects": [{"name": "A", "mesh": "cube", "material": {"normalMap": "bumps.tga"}}]}"#,
    );
    assert_eq!(
        json_fields(&err).0,
        "objects[0].material.normalMap",
        "{text}"
    );
    let (err, text, _) = load_err(
        r#"{"objects": [{"name": "A", "mesh": "cube", "material": {"normalMap": "missing.png"}}]}"#,
    );
    assert!(
        matches!(&err, Error::InLevel { json_path, .. } if json_path == "objects[0].material.normalMap"),
        "{text}"
    );
}

#[test]
fn normal_maps_parse() {
    let (_dir, path) = write_level(
        r#"{"objects": [{"name": "A", "mesh": "cube", "material": {"normalMap": "builtin:bricks", "normalScale": 0.5}}]}"#,
    );
    let level = load_level(&path).unwrap_or_else(|e| panic!("{e}"));
    let material = &level.objects[0].material;
    assert_eq!(
        material.normal_map,
        Some(sierra_scene::level::NormalMapRef::Builtin("bricks".into()))
    );
    assert_eq!(material.normal_scale, 0.5);
}

#[test]
fn msaa_must_be_1_or_4() {
    let (err, text, _) = load_err(r#"{"post": {"msaa": 3}}"#);
    let (path, _, _, message) = json_fields(&err);
    assert_eq!(path, "post.msaa", "{text}");
    assert!(message.contains("1 (off) or 4"), "{text}");
    let (_dir, path) = write_level(r#"{"post": {"msaa": 4}}"#);
    let level = load_level(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(level.post.msaa, 4);
}

#[test]
fn environment_source_is_sky_ambient_or_an_image_path() {
    use sierra_scene::level::EnvironmentSource;
    for (json, expected) in [
        (r#"{"source": "sky"}"#, EnvironmentSource::Sky),
        (
            r#"{"source": "ambient", "intensity": 0.5}"#,
            EnvironmentSource::Ambient,
        ),
        (
            r#"{"source": "env/Studio.PNG"}"#,
            EnvironmentSource::Image("env/Studio.PNG".into()),
        ),
        (r#"{}"#, EnvironmentSource::Sky),
    ] {
        let (dir, path) = write_level(&format!(r#"{{"post": {{"environment": {json}}}}}"#));
        let level = load_level(&path).unwrap_or_else(|e| panic!("{json}: {e}"));
        let environment = level.post.environment.expect("environment");
        assert_eq!(environment.source, expected, "{json}");
        drop(dir);
    }
    let (err, text, _) = load_err(r#"{"post": {"environment": {"source": "studio.exr"}}}"#);
    let (path, _, _, message) = json_fields(&err);
    assert_eq!(path, "post.environment.source");
    assert!(message.contains("`sky`, `ambient`"), "{text}");
}

/// `n` crowds of `count` members each.
fn crowds(n: usize, count: u32, limits: &str) -> String {
    let objects: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#"{{"name": "C{i}", "components": [{{"type": "Crowd", "model": "builtin:mannequin", "count": {count}}}]}}"#
            )
        })
        .collect();
    format!(
        r#"{{"settings": {{"limits": {{{limits}}}}}, "objects": [{}]}}"#,
        objects.join(", ")
    )
}

/// Issue #44: 20 crowds × 100,000 members, each allowed alone, ran for minutes; the level's
/// crowds now share one budget, and the crowd that crosses it is named.
#[test]
fn crowds_share_one_instance_budget_per_level() {
    let (_, text, path) = load_err(&crowds(20, 100_000, ""));
    assert_eq!(
        text,
        format!(
            "{}: at `objects[1].components[0].count`: this crowd brings the level's crowds to 200000 members, more than the limit of 100000 crowd instances per level (default 100000; raise it with --max-crowd-instances)",
            path.display()
        )
    );
    // A level may lower the budget (never raise it).
    let (_, text, _) = load_err(&crowds(3, 40, r#""crowdInstances": 100"#));
    assert!(
        text.contains("objects[2].components[0].count")
            && text.contains("to 120 members, more than the limit of 100"),
        "{text}"
    );
    let (_, text, _) = load_err(&crowds(2, 60_000, r#""crowdInstances": 1000000"#));
    assert!(text.contains("limit of 100000"), "{text}");
    // Negative controls: exactly at the budget loads, and the CLI flag raises it.
    let (_dir, path) = write_level(&crowds(2, 50_000, ""));
    load_level(&path).unwrap();
    let (_dir, path) = write_level(&crowds(20, 100_000, ""));
    let options = sierra_scene::LoadOptions {
        limits: sierra_assets::BudgetOverrides {
            crowd_instances: Some(2_000_000),
            ..Default::default()
        },
        ..Default::default()
    };
    sierra_scene::load_level_with(&path, &options).unwrap();
}

/// An exposure beyond ±16 stops and a character colour outside `[0, 1]` are refused, each
/// naming its JSON path; the same level with values in range loads.
#[test]
fn exposure_and_character_material_out_of_range() {
    let (err, text, _) = load_err(r#"{"post": {"exposure": 40}, "objects": []}"#);
    assert!(
        matches!(&err, Error::Invalid { json_path, .. } if json_path == "post.exposure"),
        "{text}"
    );
    let character = |color: &str| {
        format!(
            r#"{{"post": {{"exposure": -1.5}}, "objects": [{{"name": "P", "components": [{{"type": "Character",
                "model": "builtin:mannequin", "material": {{"baseColor": {color}}}}}]}}]}}"#
        )
    };
    let (err, text, _) = load_err(&character("[0.2, 1.5, 0.3]"));
    assert!(
        matches!(&err, Error::Invalid { json_path, .. }
            if json_path == "objects[0].components[0].material.baseColor"),
        "{text}"
    );
    let (_dir, path) = write_level(&character("[0.2, 0.5, 0.3]"));
    load_level(&path).unwrap_or_else(|e| panic!("{e}"));
}
