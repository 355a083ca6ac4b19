//! Sierra as a library: a scene built in code with a glTF character, run on the frame runner,
//! shown in a window or written headless as PNG frames.
//!
//! ```sh
//! cargo run --release --example hello_character -- --headless   # writes out/hello_character/frame_0000.png
//! cargo run --release --example hello_character                 # a window (Esc quits)
//! cargo run --release --example hello_character -- --model my/model.glb --clip Walk --scale 0.01
//! ```
//!
//! `--model` is a `.gltf`/`.glb` path relative to the current folder (default
//! `assets/levels/models/mannequin.glb`, Sierra's own mannequin, so it runs from a clone with
//! nothing beside it), or `shared:PATH` under the shared sample assets (`$SIERRA_SHARED/assets`,
//! else `../shared/assets`: `--model shared:gltf/Fox/Fox.glb --clip Run` is the Khronos Fox);
//! `--clip` names the clip it plays (default `run`; names match ignoring case, a number is a clip
//! index); `--scale` the model's scale (default 1: the mannequin is modelled in metres; the Fox,
//! in centimetres, wants `--scale 0.02`, twice life size).
//! It uses only `sierra::prelude`.

use sierra::prelude::*;

/// The command line: `--headless`, `--model PATH`, `--clip NAME`, `--scale S`.
struct Args {
    headless: bool,
    model: String,
    clip: String,
    scale: f32,
}

fn args() -> anyhow::Result<Args> {
    let mut args = Args {
        headless: false,
        model: "assets/levels/models/mannequin.glb".into(),
        clip: "run".into(),
        scale: 1.0,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || {
            it.next()
                .ok_or_else(|| anyhow::anyhow!("{arg} needs a value"))
        };
        match arg.as_str() {
            "--headless" => args.headless = true,
            "--model" => args.model = value()?,
            "--clip" => args.clip = value()?,
            "--scale" => {
                let text = value()?;
                args.scale = text
                    .parse()
                    .ok()
                    .filter(|s: &f32| s.is_finite() && *s > 0.0 && *s <= 1000.0)
                    .ok_or_else(|| anyhow::anyhow!("--scale {text}: a number in (0, 1000]"))?;
            }
            other => {
                anyhow::bail!(
                    "unknown argument `{other}` (--headless, --model PATH, --clip NAME, --scale S)"
                )
            }
        }
    }
    Ok(args)
}

/// A ground plane, a light and the character, looked at from the front-left.
fn level(model: &str, clip: &str, scale: f32) -> Level {
    // Relative model paths resolve from (and must stay inside) the current folder.
    let mut level = Level::in_folder(".");
    level.camera = Camera {
        position: Vec3::new(-1.6, 1.5, 4.2),
        target: Vec3::new(0.3, 0.5, 0.0),
        fov_y_degrees: 50.0,
        ..Camera::default()
    };
    level.clear_color = Vec3::new(0.35, 0.5, 0.7);
    let mut ground = ObjectDef::new("Ground");
    ground.mesh = Some(MeshRef::Primitive(Primitive::Plane));
    ground.scale = Vec3::new(12.0, 1.0, 12.0);
    ground.material.base_color = Vec3::new(0.3, 0.36, 0.3);
    let mut lamp = ObjectDef::new("Lamp");
    lamp.position = Vec3::new(1.5, 2.0, 1.5);
    lamp.components.push(Component::PointLight(PointLight {
        light_color: Vec3::new(1.0, 0.9, 0.7),
        intensity: 1.5,
        inner_radius: 1.0,
        outer_radius: 6.0,
    }));
    let mut character = ObjectDef::new("Character");
    // glTF characters face +Z: turn it to run across the view.
    character.scale = Vec3::splat(scale);
    character.rotation = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
    character.components.push(Component::Character(Character {
        model: model.into(),
        clip: clip.into(),
        speed: 1.0,
        clips: Default::default(),
        material: None,
    }));
    level.objects = vec![ground, lamp, character];
    level
}

fn main() -> anyhow::Result<()> {
    let args = args()?;
    let game = Game::from_level(&level(&args.model, &args.clip, args.scale), DEFAULT_TICK_HZ)?;
    if args.headless {
        // One frame, 20 ticks (a third of a second) into the clip.
        let summary = run_headless(
            game,
            &HeadlessOptions {
                frames: 1,
                ticks_per_frame: 20,
                width: 480,
                height: 270,
                out: "out/hello_character".into(),
                force: false,
                profile: false,
                lose_device_at_frame: None,
            },
        )?;
        println!("{}", summary.line());
    } else {
        run_window(
            game,
            WindowOptions {
                width: 1280,
                height: 720,
                fit_to_screen: true,
                frames: None,
                test_resize: false,
                test_minimise: false,
                lose_device_at_frame: None,
                key_track: None,
                screenshot_dir: "out/screenshots".into(),
                force: false,
                reload: None,
                screenshot_on_reload: false,
            },
        )?;
    }
    Ok(())
}
