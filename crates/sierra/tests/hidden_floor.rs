//! The sea bed the sea always hides is left out of the landscape's meshes
//! (`sierra::world::hidden_floor`): the demo's frames stay the same as with every triangle drawn,
//! while the forward pass runs far fewer fragment invocations. The control: a hidden floor raised to
//! half a metre under the rest level (a sea made opaque over its shallows, and their sand left out)
//! changes the frames well past the same tolerance.

use std::path::{Path, PathBuf};

use sierra::cli::demo::{script_headless_demo, DEMO_LEVEL, HEADLESS_TICKS_PER_FRAME};
use sierra::game::Game;
use sierra::game_loop::DEFAULT_TICK_HZ;
use sierra::headless::{run_headless, HeadlessOptions};

const FRAMES: u32 = 30;
const SIZE: (u32, u32) = (240, 136);
/// Frames compared: the aerial flight, the hand-over to the follow camera, the follow camera.
const COMPARED: [u32; 4] = [0, 8, 16, 29];

/// Renders the headless demo's first [`FRAMES`] frames with the sea hiding ground deeper than
/// `opaque_floor_depth` metres; returns the output folder and the forward pass's fragment
/// invocations summed over the frames.
fn render(opaque_floor_depth: f32, out: &Path) -> (PathBuf, u64) {
    let mut game = Game::load(Path::new(DEMO_LEVEL), DEFAULT_TICK_HZ).unwrap();
    game.world
        .sea
        .as_mut()
        .expect("the demo has a sea")
        .opaque_floor_depth = opaque_floor_depth;
    let ticks = u64::from(FRAMES) * u64::from(HEADLESS_TICKS_PER_FRAME);
    script_headless_demo(&mut game, ticks).unwrap();
    let summary = run_headless(
        game,
        &HeadlessOptions {
            ticks_per_frame: HEADLESS_TICKS_PER_FRAME,
            ..HeadlessOptions::new(FRAMES as usize, SIZE.0, SIZE.1, out.to_path_buf())
        },
    )
    .unwrap();
    let stats: serde_json::Value = sierra_testkit::json::read(&summary.stats);
    let fragments = stats["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            f["gpu_pass_statistics"]["forward"]["fragment_shader_invocations"]
                .as_u64()
                .expect("pipeline statistics of the forward pass")
        })
        .sum();
    (out.to_path_buf(), fragments)
}

/// Mean absolute difference (0–255 units, over RGB) and the fraction of pixels with a channel
/// more than 8 apart, over the compared frames.
fn difference(a: &Path, b: &Path) -> (f64, f64) {
    let (mut sum, mut far, mut n) = (0u64, 0u64, 0u64);
    for f in COMPARED {
        let name = format!("frame_{f:04}.png");
        let x = image::open(a.join(&name)).unwrap().to_rgb8();
        let y = image::open(b.join(&name)).unwrap().to_rgb8();
        for (p, q) in x.pixels().zip(y.pixels()) {
            let d = (0..3).map(|c| p[c].abs_diff(q[c]));
            sum += d.clone().map(u64::from).sum::<u64>();
            far += u64::from(d.max().unwrap() > 8);
            n += 1;
        }
    }
    (sum as f64 / (3 * n) as f64, far as f64 / n as f64)
}

#[test]
fn the_sea_bed_the_sea_hides_is_not_drawn_and_no_frame_changes() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = tmp.path();
    let (all, all_fragments) = render(f32::INFINITY, &tmp.join("all"));
    let (culled, culled_fragments) = render(6.0, &tmp.join("culled"));
    let (mean, far) = difference(&all, &culled);
    eprintln!(
        "forward fragments {all_fragments} -> {culled_fragments}; mean diff {mean:.3}, \
         {:.3} % of pixels beyond 8",
        100.0 * far
    );
    assert!(
        mean <= 0.1 && far <= 0.0005,
        "hiding the deep sea bed changed the frames: mean {mean:.3}, {:.3} % beyond 8",
        100.0 * far
    );
    assert!(
        (culled_fragments as f64) < 0.8 * all_fragments as f64,
        "forward fragments {all_fragments} -> {culled_fragments}: the sea bed is still drawn"
    );

    // The control: a floor hidden under only half a metre of water is seen to go.
    let (shallow, _) = render(0.5, &tmp.join("shallow"));
    let (mean, far) = difference(&all, &shallow);
    eprintln!(
        "control: mean diff {mean:.3}, {:.3} % beyond 8",
        100.0 * far
    );
    assert!(
        mean > 0.1 || far > 0.0005,
        "the comparison cannot see a shallow floor hidden: mean {mean:.3}, {:.3} % beyond 8",
        100.0 * far
    );
}
