//! Behaviour of the virtual-pipes water simulation: invariants of the model
//! (conservation, lake at rest, positivity, symmetry), the stability limit and bad input.

mod common;

use common::{
    bumpy_terrain, dam, dam_break_scene, lake_scene, min_value, run_tracking_volume,
    worst_asymmetry,
};
use glam::Vec2;
use sierra_terrain::water::{
    Boundary, InitialState, WaterComponent, WaterError, WaterParams, WaterSim, MAX_GRID_SIDE,
};
use sierra_testkit::diff::max_abs_diff;

#[test]
fn volume_is_conserved_over_10000_steps_with_closed_boundaries() {
    let (p, terrain, depth) = dam_break_scene();
    let mut sim = WaterSim::new(p, terrain, depth).unwrap();
    let (rel, lowest) = run_tracking_volume(&mut sim, 0.9 * p.max_stable_dt(1.6), 10_000);
    assert!(rel < 1e-4, "relative volume change {rel:e}");
    assert!(lowest >= 0.0, "negative depth {lowest}");
    // The water did move: the surface is no longer the dam.
    assert!(sim.max_depth() < 1.5);
}

#[test]
fn lake_at_rest_stays_at_rest() {
    let (p, terrain, depth) = lake_scene();
    let start = depth.clone();
    let mut sim = WaterSim::new(p, terrain, depth).unwrap();
    let mut velocity = vec![Vec2::ZERO; p.cell_count()];
    for _ in 0..500 {
        sim.step(0.9 * sim.max_stable_dt()).unwrap();
    }
    sim.velocity_field(&mut velocity);
    let vmax = velocity.iter().map(|v| v.length()).fold(0.0, f32::max);
    assert!(vmax < 1e-6, "max |velocity| {vmax}");
    let dmax = max_abs_diff(sim.depth(), &start);
    assert!(dmax < 1e-6, "depth moved by {dmax}");
}

#[test]
fn water_never_goes_negative_when_flooding_dry_slopes() {
    let p = WaterParams::new(64, 16, 1.0);
    // A slope rising to the right; a column of water on the dry left end rushes around.
    let terrain: Vec<f32> = (0..p.cell_count())
        .map(|i| (i % p.cols) as f32 * 0.05)
        .collect();
    let depth: Vec<f32> = (0..p.cell_count())
        .map(|i| if i % p.cols < 4 { 3.0 } else { 0.0 })
        .collect();
    let mut sim = WaterSim::new(p, terrain, depth).unwrap();
    let v0 = sim.total_volume();
    for _ in 0..3000 {
        sim.step(0.95 * sim.max_stable_dt()).unwrap();
        let m = min_value(sim.depth());
        assert!(m >= 0.0, "negative depth {m} at step {}", sim.steps());
    }
    assert!((sim.total_volume() - v0).abs() / v0 < 1e-4);
    // The wave reached cells that were dry.
    assert!(sim.depth()[8 * p.cols + 20] > 0.0);
}

#[test]
fn dam_break_spreads_symmetrically() {
    let n = 64;
    let p = WaterParams::new(n, n, 1.0);
    let init = InitialState::Dam {
        low: 1.0,
        high: 2.0,
        center: Vec2::splat(32.0),
        radius: 8.0,
    };
    let terrain = vec![0.0; n * n];
    let depth = init.depth(&p, &terrain).unwrap();
    let mut sim = WaterSim::new(p, terrain, depth).unwrap();
    for _ in 0..150 {
        sim.step(0.1).unwrap();
    }
    let d = sim.depth();
    let at = |x: usize, y: usize| d[y * n + x];
    let worst = worst_asymmetry(d, n);
    assert!(worst < 1e-5, "asymmetry {worst}");
    // The centre dropped and a ring travelled out: 16 m from the centre the water rose.
    assert!(at(32, 32) < 1.9, "centre {}", at(32, 32));
    assert!(at(32 + 16, 32) > 1.02, "ring {}", at(48, 32));
    assert!(at(32, 32 + 16) > 1.02);
}

#[test]
fn steps_above_the_stability_limit_are_refused_and_advance_subdivides() {
    let p = WaterParams::new(32, 32, 1.0);
    let depth = InitialState::Still { level: 9.0 }
        .depth(&p, &vec![0.0; 32 * 32])
        .unwrap();
    let mut sim = WaterSim::flat(p, depth).unwrap();
    let limit = sim.max_stable_dt();
    // Independent values: pipe bound 0.5*sqrt(1/9.81) = 0.15964 s, CFL 1/sqrt(9.81*9) = 0.10643 s.
    assert!((p.pipe_dt_limit() - 0.159_637).abs() < 1e-5);
    assert!((limit - 0.106_425).abs() < 1e-5);
    match sim.step(limit * 1.01) {
        Err(WaterError::TimeStepTooLarge { max_dt, .. }) => assert_eq!(max_dt, limit),
        other => panic!("expected TimeStepTooLarge, got {other:?}"),
    }
    assert_eq!(sim.steps(), 0, "a refused step changes nothing");
    assert!(matches!(sim.step(0.0), Err(WaterError::TimeStep(_))));
    assert!(matches!(sim.step(f32::NAN), Err(WaterError::TimeStep(_))));
    let n = sim.advance(1.0).unwrap();
    assert_eq!(n, 10, "1 s / 0.1064 s -> 10 sub-steps");
    assert!((sim.time() - 1.0).abs() < 1e-5);
}

#[test]
fn open_boundaries_drain_and_the_books_balance() {
    let mut p = WaterParams::new(32, 32, 1.0);
    p.boundary = Boundary::Open;
    let depth = vec![1.0; 32 * 32];
    let mut sim = WaterSim::flat(p, depth).unwrap();
    let v0 = sim.total_volume();
    for _ in 0..200 {
        sim.step(0.1).unwrap();
    }
    let v = sim.total_volume();
    assert!(v < 0.9 * v0, "water left through the edges: {v} of {v0}");
    let books = v0 + sim.volume_added() - sim.volume_removed();
    assert!((books - v).abs() / v0 < 1e-4, "{books} vs {v}");
}

#[test]
fn sources_sinks_rain_and_drops_add_what_they_say() {
    let p = WaterParams::new(32, 32, 2.0);
    let mut sim = WaterSim::flat(p, vec![0.5; 32 * 32]).unwrap();
    let v0 = sim.total_volume();
    sim.add_source(Vec2::new(20.0, 20.0), 3.0, 2.0).unwrap(); // 2 m³/s
    sim.add_source(Vec2::new(50.0, 40.0), 3.0, -1.0).unwrap(); // -1 m³/s
    sim.set_rain(1e-3).unwrap(); // 1 mm/s over 4096 m²: 4.096 m³/s
    sim.add_drop(Vec2::new(32.0, 32.0), 4.0, 0.3).unwrap();
    let drop_volume = sim.total_volume() - v0;
    assert!(drop_volume > 0.0);
    for _ in 0..100 {
        sim.step(0.05).unwrap();
    }
    // 5 s: +10 m³ source, -5 m³ sink (never runs dry here), +20.48 m³ rain.
    let expected = v0 + drop_volume + 10.0 - 5.0 + 20.48;
    let v = sim.total_volume();
    assert!((v - expected).abs() < 1e-3 * expected, "{v} vs {expected}");
    assert!((sim.volume_removed() - 5.0).abs() < 1e-3);
    assert!(sim.add_source(Vec2::new(-5.0, 3.0), 1.0, 1.0).is_err());
    assert!(sim.set_rain(-1.0).is_err());
}

#[test]
fn bad_input_gives_clear_errors() {
    let grid = |cols, rows| WaterSim::flat(WaterParams::new(cols, rows, 1.0), vec![]);
    for (c, r) in [(0, 16), (16, 0), (MAX_GRID_SIDE + 1, 4), (8192, 8192)] {
        let e = grid(c, r).unwrap_err();
        assert!(matches!(e, WaterError::GridSize { .. }), "{c}x{r}: {e}");
        assert!(e.to_string().contains(&format!("{c}x{r}")));
    }
    let e = WaterSim::flat(WaterParams::new(4, 4, -1.0), vec![0.0; 16]).unwrap_err();
    assert!(
        matches!(
            e,
            WaterError::Parameter {
                name: "cell_size",
                ..
            }
        ),
        "{e}"
    );
    let mut depth = vec![1.0; 16];
    depth[6] = f32::NAN;
    let e = WaterSim::flat(WaterParams::new(4, 4, 1.0), depth).unwrap_err();
    assert!(
        matches!(
            e,
            WaterError::NonFinite {
                what: "depth",
                index: 6,
                col: 2,
                row: 1,
                ..
            }
        ),
        "{e}"
    );
    let mut terrain = vec![0.0; 16];
    terrain[3] = f32::INFINITY;
    let e = WaterSim::new(WaterParams::new(4, 4, 1.0), terrain, vec![1.0; 16]).unwrap_err();
    assert!(
        matches!(
            e,
            WaterError::NonFinite {
                what: "terrain",
                ..
            }
        ),
        "{e}"
    );
    let e = WaterSim::flat(WaterParams::new(4, 4, 1.0), vec![1.0; 15]).unwrap_err();
    assert!(
        matches!(
            e,
            WaterError::Length {
                expected: 16,
                found: 15,
                ..
            }
        ),
        "{e}"
    );
    let e = WaterSim::flat(WaterParams::new(4, 4, 1.0), vec![-0.1; 16]).unwrap_err();
    assert!(matches!(e, WaterError::NegativeDepth { .. }), "{e}");
    let e = InitialState::Still { level: f32::NAN }
        .depth(&WaterParams::new(4, 4, 1.0), &[0.0; 16])
        .unwrap_err();
    assert!(
        matches!(e, WaterError::Parameter { name: "level", .. }),
        "{e}"
    );
}

#[test]
fn water_component_reads_from_level_json() {
    let c: WaterComponent = serde_json::from_str(
        r#"{ "gridSize": [128, 64], "cellSize": 0.5, "initialLevel": 1.5, "boundary": "open",
             "drops": { "period": 2.0, "radius": 3.0, "amplitude": 0.4, "seed": 9 } }"#,
    )
    .unwrap();
    let p = c.params().unwrap();
    assert_eq!((p.cols, p.rows, p.boundary), (128, 64, Boundary::Open));
    let drops = c.drops.unwrap();
    assert_eq!(drops.drops_between(0.0, 4.5), 1..3, "drops at 2 s and 4 s");
    let size = Vec2::new(64.0, 32.0);
    let a = drops.position(1, size);
    assert!(a.cmpge(Vec2::splat(3.0)).all() && a.cmple(size - 3.0).all());
    assert_ne!(a, drops.position(2, size));
    let e = serde_json::from_str::<WaterComponent>(r#"{ "gridSize": [8, 8], "speed": 1 }"#)
        .unwrap_err();
    assert!(e.to_string().contains("unknown field `speed`"), "{e}");
    let bad: WaterComponent = serde_json::from_str(r#"{ "cellSize": -2.0 }"#).unwrap();
    assert!(matches!(
        bad.params(),
        Err(WaterError::Parameter {
            name: "cell_size",
            ..
        })
    ));
}

/// Depth and flux bits, plus the books, after `steps` steps on a pool of `threads` threads.
fn run_on_threads(threads: usize, steps: usize) -> (Vec<u32>, Vec<u32>, u64) {
    let p = WaterParams {
        boundary: Boundary::Open,
        ..WaterParams::new(37, 29, 0.5)
    };
    let terrain = bumpy_terrain(&p);
    let depth = dam(Vec2::new(9.0, 7.0), 3.0).depth(&p, &terrain).unwrap();
    let mut sim = WaterSim::new(p, terrain, depth).unwrap();
    sim.set_rain(0.01).unwrap();
    let dt = 0.9 * p.max_stable_dt(1.6);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        for _ in 0..steps {
            sim.step(dt).unwrap();
        }
    });
    let f = sim.flux();
    let flux = [&f.left, &f.right, &f.top, &f.bottom]
        .iter()
        .flat_map(|c| c.iter().map(|v| v.to_bits()))
        .collect();
    let depth = sim.depth().iter().map(|v| v.to_bits()).collect();
    (depth, flux, sim.volume_removed().to_bits())
}

#[test]
fn banded_steps_equal_the_single_thread_step_bit_for_bit() {
    // 29 rows: 2 bands of 15 + 14, 3 bands of 10 + 10 + 9, 8 bands of 4 (the last of 1).
    let one = run_on_threads(1, 60);
    // The water moved and some left through the open edges: the comparison is not vacuous.
    assert!(one.1.iter().any(|&b| f32::from_bits(b) > 1e-3));
    assert!(f64::from_bits(one.2) > 0.0);
    for threads in [2, 3, 8] {
        let banded = run_on_threads(threads, 60);
        assert!(banded.0 == one.0, "depth differs with {threads} threads");
        assert!(banded.1 == one.1, "flux differs with {threads} threads");
        assert_eq!(
            banded.2, one.2,
            "outflow books differ with {threads} threads"
        );
    }
}

#[test]
fn the_copy_probe_moves_the_step_bytes() {
    let mut probe = sierra_terrain::water::CopyProbe::new(33, 17);
    assert_eq!(probe.bytes(), 33 * 17 * 44);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    pool.install(|| probe.run());
    let d = probe.destination();
    // Sources are k + 0.5: terrain + depth = 0.5 + 1.5, then the flux channels 2.5..5.5.
    assert!(d[0].iter().all(|&v| v == 2.0));
    for (k, want) in [2.5f32, 3.5, 4.5, 5.5].iter().enumerate() {
        assert!(d[k + 1].iter().all(|v| v == want), "channel {k}");
    }
}
