//! The demo island level loads and renders headless (tiny size, few frames) with terrain, sea,
//! planet, birds and palms drawn; the `walk` camera path stays at eye height over the terrain;
//! the headless demo's scripted player jumps onto a platform and back down.

#[path = "common/uploaded_demo.rs"]
mod uploaded_demo;

use std::path::Path;

use glam::Vec3;
use sierra::camera_path::{CameraPath, CameraPathKind, EYE_HEIGHT};
use sierra::cli::demo::{
    script_headless_demo, DEFAULT_HEADLESS_FRAMES, DEMO_LEVEL, HEADLESS_TICKS_PER_FRAME,
};
use sierra::game::Game;
use sierra::game_loop::DEFAULT_TICK_HZ;
use sierra::gameplay::player::PlayerState;
use sierra::headless::{run_headless, HeadlessOptions};
use uploaded_demo::uploaded_demo;

#[test]
fn demo_island_renders_every_landscape_element() {
    let game = Game::load(Path::new(DEMO_LEVEL), DEFAULT_TICK_HZ).unwrap();
    let w = &game.world;
    assert!(w.landscape.is_some() && w.sea.is_some(), "terrain and sea");
    assert!(
        w.sky.planet.is_some() && w.sky.palms.is_some(),
        "planet and palms"
    );
    assert_eq!(w.sky.flock.as_ref().unwrap().birds().len(), 10, "ten birds");

    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("demo_island");
    let mut game = game;
    game.camera_path = Some(CameraPath::new(
        CameraPathKind::Aerial,
        5.0 / DEFAULT_TICK_HZ as f32,
    ));
    let summary = run_headless(game, &HeadlessOptions::new(5, 128, 72, out.clone())).unwrap();
    let stats: serde_json::Value = sierra_testkit::json::read(&summary.stats);
    let last = &stats["frames"][4];
    // 64 terrain chunks + planet + clouds + 10 birds + palms + 6 platform/lamp nodes, drawn or
    // left out by frustum culling.
    assert!(
        last["draw_calls"].as_u64().unwrap() + last["culled_draws"].as_u64().unwrap()
            >= 64 + 2 + 10 + 1 + 6,
        "{last}"
    );
    assert!(last["triangles"].as_u64().unwrap() > 50_000, "{last}");
    let image = image::open(out.join("frame_0004.png")).unwrap().to_rgb8();
    let mut lo = [255u8; 3];
    let mut hi = [0u8; 3];
    for p in image.pixels() {
        for c in 0..3 {
            lo[c] = lo[c].min(p[c]);
            hi[c] = hi[c].max(p[c]);
        }
    }
    assert!(
        (0..3).all(|c| hi[c] - lo[c] > 60),
        "uniform image {lo:?}..{hi:?}"
    );
}

#[test]
fn walk_path_stays_at_eye_height_over_the_terrain() {
    let mut game = uploaded_demo().game;
    game.camera_path = Some(CameraPath::new(CameraPathKind::Walk, 1.0));
    let mut moved = 0.0f32;
    let mut last: Option<glam::Vec3> = None;
    for _ in 0..70 {
        game.tick();
        let eye = game.scene.camera.position;
        let ground = game.world.ground_height(eye.x, eye.z).unwrap().max(0.0);
        assert!(eye.y >= ground + EYE_HEIGHT - 1e-3, "{eye} under {ground}");
        assert!(eye.y <= ground + EYE_HEIGHT + 1e-3, "{eye} over {ground}");
        if let Some(p) = last {
            moved += (eye - p).length();
        }
        last = Some(eye);
    }
    assert!(moved > 50.0, "the walk moved {moved} m");
}

/// The README's walk (`--camera-path walk --frames 120`, 4 ticks a frame) keeps the eye at
/// least 1 m, horizontally, from the body of every crowd member and every character (the
/// platforms' walker and the player), wherever they move.
#[test]
fn walk_path_keeps_clear_of_crowds_and_characters() {
    /// A mannequin's body radius at scale 1, metres (shoulders 0.45 m wide).
    const BODY_RADIUS: f32 = 0.25;
    let mut game = uploaded_demo().game;
    let ticks = 120 * HEADLESS_TICKS_PER_FRAME;
    let seconds = f64::from(ticks) / DEFAULT_TICK_HZ;
    game.camera_path = Some(CameraPath::new(CameraPathKind::Walk, seconds as f32));
    let characters: Vec<_> = ["Pivot/Walker", "Player"]
        .iter()
        .map(|path| game.scene.find_path(path).unwrap())
        .collect();
    let mut closest = (f32::INFINITY, String::new());
    for tick in 0..ticks {
        game.tick();
        let eye = game.scene.camera.position.with_y(0.0);
        let mut bodies: Vec<(String, Vec3, f32)> = Vec::new();
        for (c, members) in game.world.crowds.placed.iter().enumerate() {
            for (i, member) in members.iter().enumerate() {
                let (scale, _, at) = member.model.to_scale_rotation_translation();
                bodies.push((format!("crowd {c} member {i}"), at, scale.x));
            }
        }
        for &node in &characters {
            let (scale, _, at) = game
                .scene
                .graph
                .world(node)
                .unwrap()
                .to_scale_rotation_translation();
            bodies.push((format!("node {node:?}"), at, scale.x));
        }
        for (name, at, scale) in bodies {
            let clearance = (at.with_y(0.0) - eye).length() - BODY_RADIUS * scale;
            if clearance < closest.0 {
                closest = (clearance, format!("{name} at tick {tick}"));
            }
        }
    }
    eprintln!("closest approach: {:.2} m to {}", closest.0, closest.1);
    assert!(closest.0 >= 1.0, "{:.2} m from {}", closest.0, closest.1);
}

/// The planet never sits on the mountain: over the headless demo's aerial flight and the
/// README's walk, the planet's bounding sphere (clouds included) seen from the eye stays clear of
/// the terrain's highest point by at least 2° plus its own angular radius.
#[test]
fn the_planet_clears_the_summit_from_every_camera_of_the_demo() {
    let mut game = uploaded_demo().game;
    let planet = game.world.sky.planet.clone().unwrap();
    let centre = Vec3::from(planet.position);
    let bound = planet.radius * (1.0 + planet.relief).max(planet.cloud_height);
    let field = game.world.height_field().unwrap();
    let (_, top) = field.height_range();
    let n = field.resolution();
    let summit = (0..n * n)
        .map(|k| field.sample_position(k % n, k / n))
        .find(|p| p.y == top)
        .unwrap();
    let ticks = 120 * HEADLESS_TICKS_PER_FRAME;
    let seconds = (f64::from(ticks) / DEFAULT_TICK_HZ) as f32;
    let mut worst = (f32::INFINITY, String::new());
    for kind in [CameraPathKind::Aerial, CameraPathKind::Walk] {
        game.camera_path = Some(CameraPath::new(kind, seconds));
        game.world.time = 0.0;
        for tick in 0..ticks {
            game.tick();
            let eye = game.scene.camera.position;
            let to_planet = centre - eye;
            let angular_radius = (bound / to_planet.length()).asin();
            let separation = to_planet.angle_between(summit - eye);
            let clearance = (separation - angular_radius).to_degrees();
            if clearance < worst.0 {
                worst = (clearance, format!("{kind:?} tick {tick}, eye {eye}"));
            }
        }
    }
    eprintln!(
        "closest: {:.1}° between the planet's limb and the summit ({})",
        worst.0, worst.1
    );
    assert!(worst.0 >= 2.0, "{:.1}° at {}", worst.0, worst.1);
}

/// The headless demo's script (#27): after the aerial flight the player walks down the beach,
/// jumps onto the spinning red platform, stands on it and walks back off onto the sand, the
/// follow camera behind; the feet stay on the terrain wherever the player walks on it.
#[test]
fn the_headless_demo_player_jumps_onto_a_platform_and_back_down_to_the_beach() {
    let mut game = uploaded_demo().game;
    let ticks = u64::from(DEFAULT_HEADLESS_FRAMES * HEADLESS_TICKS_PER_FRAME);
    script_headless_demo(&mut game, ticks).unwrap();
    let platform = game.scene.object("PlatformLeft");
    let node = game.gameplay.player.as_ref().unwrap().node;
    let (mut on_platform, mut back_on_sand, mut worst) = (0, 0, 0.0f32);
    for _ in 0..ticks {
        game.tick();
        let p = Vec3::from(game.scene.graph.world(node).unwrap().translation);
        let player = game.gameplay.player.as_ref().unwrap();
        if player.airborne {
            continue;
        }
        if player.ground.is_some() && player.ground == platform {
            on_platform += 1;
            assert!((p.y - 3.2).abs() < 0.05, "standing on the platform at {p}");
        } else if player.ground.is_none() {
            let ground = game.world.ground_height(p.x, p.z).unwrap();
            worst = worst.max((p.y - ground).abs());
            if on_platform > 0 {
                back_on_sand += 1;
            }
        }
    }
    let player = game.gameplay.player.as_ref().unwrap();
    eprintln!("states {:?}", player.history);
    assert!(
        on_platform > 10,
        "stood on the platform {on_platform} ticks"
    );
    assert!(back_on_sand > 10, "back on the beach {back_on_sand} ticks");
    assert!(worst < 0.05, "feet {worst} m off the terrain");
    let states = player.state_sequence();
    let jumps = states.iter().filter(|s| **s == PlayerState::Jump).count();
    let falls = states.iter().filter(|s| **s == PlayerState::Fall).count();
    assert!(jumps == 1 && falls == 1, "{states:?}");
    // The follow camera has the view once the flight is over: behind the player, above the sand.
    let eye = game.scene.camera.position;
    let p = Vec3::from(game.scene.graph.world(node).unwrap().translation);
    assert!(
        eye.z < p.z && eye.distance(p) < 12.0,
        "camera {eye}, player {p}"
    );
}
