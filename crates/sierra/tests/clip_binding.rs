//! A character's clip binding (`Character.clips`): the Fox of `examples/interop/fox.json` (a
//! `shared:` model) plays Survey/Walk/Run over its key track and moves at the speed each
//! binding documents; bad bindings are errors naming the state and listing the model's clips;
//! a level from before the binding existed loads and plays as before.

use std::path::PathBuf;

use glam::Vec3;
use sierra::game::Game;
use sierra::gameplay::input::InputTrack;

/// Speeds documented in `examples/interop/fox.json` (m/s).
const WALK: f32 = 1.8;
const RUN: f32 = 4.1;

/// One tick of the fox: the clip its graph plays and its root's world position.
struct Sample {
    clip: String,
    position: Vec3,
}

fn run_fox(ticks: u64) -> Option<Vec<Sample>> {
    sierra_testkit::shared_asset("gltf/Fox/Fox.glb")?;
    // `shared:` resolves against $SIERRA_SHARED/assets, else ../shared/assets from the
    // current folder: cargo runs tests in the crate's folder, so point it at the repository's.
    std::env::set_var(
        "SIERRA_SHARED",
        sierra_testkit::shared_assets_root().join(".."),
    );
    let mut game = Game::load(&repo("examples/interop/fox.json"), 60.0).unwrap();
    game.gameplay.track =
        Some(InputTrack::load(&repo("examples/interop/fox_walk_run.json")).unwrap());
    let node = game.gameplay.player.as_ref().unwrap().node;
    let mut samples = Vec::new();
    for _ in 0..ticks {
        game.tick();
        let world = |n| Vec3::from(game.scene.graph.world(n).unwrap().translation);
        samples.push(Sample {
            clip: game.gameplay.player_clip().unwrap().1.to_owned(),
            position: world(node),
        });
    }
    Some(samples)
}

/// `path` under the repository root.
fn repo(path: &str) -> PathBuf {
    sierra_testkit::workspace_root().join(path)
}

#[test]
fn the_fox_plays_survey_walk_run_over_its_track_at_the_documented_speeds() {
    let Some(s) = run_fox(360) else { return };
    // Track: RIGHT held over ticks 60..300, RUN over 180..300. A state changes in the tick its
    // input changes; the first tick of each range is left out (the change itself).
    let ranges = [
        (1..60, "Survey", 0.0),
        (61..180, "Walk", WALK),
        (181..300, "Run", RUN),
        (301..360, "Survey", 0.0),
    ];
    for (ticks, clip, speed) in ranges {
        for t in ticks.clone() {
            assert_eq!(s[t].clip, clip, "tick {t}");
            let v = (s[t].position - s[t - 1].position) * 60.0;
            assert!(
                (v.length() - speed).abs() <= 0.05 * speed.max(1e-3),
                "tick {t} ({clip}): {} m/s, documented {speed}",
                v.length()
            );
            if speed > 0.0 {
                assert!(
                    v.normalize().dot(Vec3::X) > 0.999,
                    "RIGHT moves along +X: {v}"
                );
            }
        }
    }
}

/// A temporary level with the Fox (through `shared:`) as the player, with `character` as its
/// `Character` component; returns the load result.
fn load_player(character: &str) -> Option<anyhow::Result<Game>> {
    sierra_testkit::shared_asset("gltf/Fox/Fox.glb")?;
    std::env::set_var(
        "SIERRA_SHARED",
        sierra_testkit::shared_assets_root().join(".."),
    );
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("level.json");
    let json = format!(
        r#"{{"objects": [{{"name": "Fox", "components": [{character},
            {{"type": "PlayerControl"}}]}}]}}"#
    );
    std::fs::write(&level, json).unwrap();
    Some(Game::load(&level, 60.0))
}

fn error_of(character: &str) -> Option<String> {
    let result = load_player(character)?;
    Some(format!(
        "{:#}",
        result.err().expect("the level must be refused")
    ))
}

const FOX: &str = r#""type": "Character", "model": "shared:gltf/Fox/Fox.glb""#;

#[test]
fn a_wrong_clip_name_names_the_state_and_lists_the_models_clips() {
    let Some(e) = error_of(&format!(
        r#"{{{FOX}, "clips": {{"idle": "Survey", "walk": "Trot"}}}}"#
    )) else {
        return;
    };
    assert!(e.contains("objects[0].components[0].clips.walk"), "{e}");
    assert!(e.contains("state `walk`"), "{e}");
    assert!(e.contains("no clip named `Trot`"), "{e}");
    assert!(e.contains(r#"0: "Survey", 1: "Walk", 2: "Run""#), "{e}");

    // Without a binding the Fox has no `idle`: the player cannot stand, and says so.
    let e = error_of(&format!("{{{FOX}}}")).unwrap();
    assert!(e.contains("state `idle`"), "{e}");
    assert!(e.contains(r#"bind one: "clips": {"idle": "CLIP"}"#), "{e}");
    assert!(e.contains(r#"0: "Survey""#), "{e}");

    // An index past the clips, a state no graph has, a negative speed.
    let e = error_of(&format!(r#"{{{FOX}, "clips": {{"idle": 7}}}}"#)).unwrap();
    assert!(
        e.contains("state `idle`: the model has no clip with index 7"),
        "{e}"
    );
    let e = error_of(&format!(r#"{{{FOX}, "clips": {{"idle": 0, "trot": 1}}}}"#)).unwrap();
    assert!(
        e.contains("state `trot`: no such state (states: idle, walk, run"),
        "{e}"
    );
    let e = error_of(&format!(
        r#"{{{FOX}, "clips": {{"idle": 0, "walk": {{"clip": 1, "speed": -1}}}}}}"#
    ))
    .unwrap();
    assert!(
        e.contains("clips.walk") && e.contains("`speed` must be"),
        "{e}"
    );
}

#[test]
fn names_match_ignoring_case_and_indices_bind_clips() {
    // `walk`/`run` find `Walk`/`Run` by name; `idle` is bound by index (as for an unnamed clip);
    // the start clip `"idle"` is the bound state's.
    let Some(game) = load_player(&format!(r#"{{{FOX}, "clips": {{"idle": 0}}}}"#)) else {
        return;
    };
    let game = game.unwrap();
    assert_eq!(game.gameplay.player_clip(), Some((0, "Survey")));
    let c = &game.gameplay.characters[0];
    assert_eq!(c.current.clip, 0);
    let graph = c.graph.as_ref().unwrap();
    let names: Vec<Option<&str>> = graph
        .binding
        .slot_clips
        .iter()
        .map(|s| s.map(|i| c.model.clips[i].name()))
        .collect();
    // Slots idle, walk, run, jump_start, in_air, land: the jump states stand in with idle's.
    let expected = ["Survey", "Walk", "Run", "Survey", "Survey", "Survey"];
    assert_eq!(names, expected.map(Some));
    // Without a speed in the binding the player keeps PlayerControl's (4 m/s, run twice that).
    let p = game.gameplay.player.as_ref().unwrap();
    assert_eq!((p.speed, p.run_speed), (4.0, 8.0));
}

#[test]
fn a_level_from_before_clip_bindings_loads_and_plays_as_before() {
    // player.json has no `clips`: the mannequin's clips are found by the states' names.
    let mut game = Game::load(&repo("assets/levels/player.json"), 60.0).unwrap();
    game.gameplay.track =
        Some(InputTrack::load(&repo("assets/input/player_walk_jump.json")).unwrap());
    let mut clips = vec![game.gameplay.player_clip().unwrap().1.to_owned()];
    for _ in 0..45 {
        game.tick();
        let clip = game.gameplay.player_clip().unwrap().1;
        if clips.last().map(String::as_str) != Some(clip) {
            clips.push(clip.to_owned());
        }
    }
    assert_eq!(clips, ["idle", "walk", "jump_start"]);
    let p = game.gameplay.player.as_ref().unwrap();
    assert_eq!((p.speed, p.run_speed), (4.0, 8.0));
}

#[test]
fn sierra_render_draws_the_textured_fox_level_from_the_repository_root() {
    // The CLI path of the same level and track: `shared:` found from the repository root.
    if sierra_testkit::shared_asset("gltf/Fox/Fox.glb").is_none() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_sierra"))
        .current_dir(repo(""))
        .env(
            "SIERRA_SHARED",
            sierra_testkit::shared_assets_root().join(".."),
        )
        .args(["render", "examples/interop/fox.json", "--input"])
        .args([
            "examples/interop/fox_walk_run.json",
            "--frames",
            "2",
            "--size",
            "160x90",
        ])
        .arg("--out")
        .arg(out.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    let frame = image::open(out.path().join("frame_0001.png"))
        .unwrap()
        .to_rgba8();
    // The Fox's orange texels (red well above green above blue) fill part of the frame.
    let orange = frame
        .pixels()
        .filter(|p| p[0] > 120 && i32::from(p[0]) - i32::from(p[1]) > 40 && p[1] > p[2])
        .count();
    assert!(orange > 100, "{orange} orange pixels");
}
