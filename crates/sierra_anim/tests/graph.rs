//! Animation graph behaviour: transitions on conditions and exit times, crossfades over
//! their durations, blend spaces, masked override layers, additive layers, clip events,
//! and clear errors for bad graph files.

mod graph_common;

use glam::Vec3;
use graph_common::Rig;
use sierra_anim::graph::{AnimGraph, GraphBinding};
use sierra_anim::{blend_poses, BlendLayer, Transform};

const MACHINE: &str = r#"{
  "parameters": [
    { "name": "speed", "type": "float" },
    { "name": "hit", "type": "trigger" }
  ],
  "clips": [ { "slot": "a" }, { "slot": "b", "loop": false }, { "slot": "c" } ],
  "layers": [ { "name": "base", "entry": "idle",
    "states": [ { "name": "idle", "clip": "a" }, { "name": "walk", "clip": "c" },
                { "name": "hit", "clip": "b" } ],
    "transitions": [
      { "from": "idle", "to": "walk", "conditions": [ { "parameter": "speed", "test": "greater", "value": 1 } ] },
      { "from": "walk", "to": "idle", "conditions": [ { "parameter": "speed", "test": "less", "value": 0.5 } ] },
      { "from": "walk", "to": "hit", "conditions": [ { "parameter": "hit", "test": "triggered" } ] },
      { "from": "hit", "to": "idle", "exitTime": 1.0 }
    ] } ]
}"#;

#[test]
fn transitions_fire_on_their_conditions_and_exit_times() {
    let mut rig = Rig::new(MACHINE);
    let dt = 0.125;
    // Negative controls: speed at or below the threshold keeps idle; a trigger with no
    // transition from idle is dropped after one update instead of firing later.
    assert!(rig.instance.set_float("speed", 1.0));
    assert!(rig.instance.fire("hit"));
    for _ in 0..5 {
        rig.update(dt);
        assert_eq!(rig.state(), "idle");
    }
    rig.instance.set_float("speed", 1.5);
    rig.update(dt);
    assert_eq!(rig.state(), "walk");
    // Hysteresis: 0.75 is neither > 1 nor < 0.5.
    rig.instance.set_float("speed", 0.75);
    rig.update(dt);
    assert_eq!(rig.state(), "walk", "the stale trigger fired");
    rig.instance.fire("hit");
    rig.update(dt);
    assert_eq!(rig.state(), "hit");
    let hit = rig.instance.graph().parameter("hit").unwrap();
    assert_eq!(rig.instance.value(hit), 0.0, "the trigger is consumed");
    // `b` lasts 0.5 s: exit time 1.0 is reached by the 4th update of 0.125 s, not before.
    for k in 1..=4 {
        rig.update(dt);
        let expected = if k < 4 { "hit" } else { "idle" };
        assert_eq!(rig.state(), expected, "update {k} in hit");
    }
    rig.instance.set_float("speed", 0.0);
    rig.update(dt);
    assert_eq!(rig.state(), "idle");
    assert!(!rig.instance.set_float("nope", 1.0), "unknown parameter");
}

#[test]
fn crossfades_blend_over_their_durations() {
    let json = MACHINE.replace(
        r#""to": "walk", "conditions""#,
        r#""to": "walk", "duration": 0.5, "conditions""#,
    );
    let mut rig = Rig::new(&json);
    let dt = 0.0625;
    rig.update(dt); // idle at 0.0625 s
    rig.instance.set_float("speed", 2.0);
    rig.update(dt); // idle at 0.125 s, then the fade to walk starts
    assert_eq!(rig.state(), "walk");
    for k in 0..=10 {
        let t_walk = k as f32 * dt;
        let t_idle = 0.125 + t_walk;
        let w = (t_walk / 0.5).min(1.0);
        let (wa, wb) = rig.instance.layers()[0].fade.weights();
        assert!(
            (wb - w).abs() < 1e-6 && (wa + wb - 1.0).abs() < 1e-6,
            "weights at step {k}"
        );
        let pose = rig.pose();
        let idle = rig.sample("a", t_idle, true);
        let walk = rig.sample("c", t_walk, true);
        if w >= 1.0 {
            assert_eq!(pose, walk, "the fade is over at step {k}");
            assert!(rig.instance.layers()[0].previous.is_none());
        } else {
            let mut expected = vec![Transform::IDENTITY; idle.len()];
            let layers = [BlendLayer::new(&idle, 1.0 - w), BlendLayer::new(&walk, w)];
            blend_poses(&layers, rig.skeleton.rest_pose(), &mut expected).unwrap();
            assert_eq!(pose, expected, "step {k}");
            // Translations are the weighted mean (independent arithmetic).
            let mean = idle[0].translation * (1.0 - w) + walk[0].translation * w;
            assert!((pose[0].translation - mean).length() < 1e-6);
        }
        if k == 0 {
            // Weight 0 for the target: the source pose (up to nlerp's renormalisation).
            for (p, i) in pose.iter().zip(&idle) {
                assert!(
                    p.rotation.angle_between(i.rotation) < 1e-3 && p.translation == i.translation
                );
            }
        }
        rig.update(dt);
    }
}

const BLEND: &str = r#"{
  "parameters": [ { "name": "speed", "type": "float" } ],
  "clips": [ { "slot": "a" }, { "slot": "b" }, { "slot": "c" } ],
  "layers": [ { "name": "base", "entry": "move",
    "states": [ { "name": "move", "blend1d": { "parameter": "speed",
      "points": [ { "clip": "a", "value": 0 }, { "clip": "c", "value": 1.5 }, { "clip": "b", "value": 4 } ] } } ] } ]
}"#;

#[test]
fn a_blend_space_blends_the_two_clips_around_the_parameter_in_phase() {
    let mut rig = Rig::new(BLEND);
    rig.instance.set_float("speed", 0.75);
    // Halfway between a (1 s) and c (0.8 s): one cycle lasts 0.9 s.
    rig.update(0.45);
    let phase = rig.instance.layers()[0].current.time;
    assert!((phase - 0.5).abs() < 1e-6, "{phase}");
    let (a, c) = (rig.sample("a", 0.5, true), rig.sample("c", 0.4, true));
    let mut expected = vec![Transform::IDENTITY; a.len()];
    let layers = [BlendLayer::new(&a, 0.5), BlendLayer::new(&c, 0.5)];
    blend_poses(&layers, rig.skeleton.rest_pose(), &mut expected).unwrap();
    let pose = rig.pose();
    assert_eq!(pose, expected);
    // At a point's value (and beyond the ends) that clip plays alone.
    rig.instance.set_float("speed", 9.0);
    assert_eq!(rig.pose(), rig.sample("b", 0.5 * 0.5, true));
}

const LAYERED: &str = r#"{
  "parameters": [ { "name": "upper", "type": "float", "default": 1 } ],
  "clips": [ { "slot": "a" }, { "slot": "b" }, { "slot": "rest" }, { "slot": "lifted" } ],
  "layers": [
    { "name": "base", "entry": "s", "states": [ { "name": "s", "clip": "a" } ] },
    { "name": "upper", "weightParameter": "upper", "mask": { "include": ["spine"], "exclude": ["head"] },
      "entry": "s", "states": [ { "name": "s", "clip": "b" } ] }
  ]
}"#;

fn joint(rig: &Rig, name: &str) -> usize {
    rig.skeleton.find_joint(name).unwrap()
}

#[test]
fn a_masked_upper_body_layer_leaves_the_legs_bit_equal_to_the_base_layer() {
    let mut rig = Rig::new(LAYERED);
    rig.update(0.3);
    let base = rig.sample("a", 0.3, true);
    let over = rig.sample("b", 0.3, true);
    let upper = ["spine", "chest", "arm_l", "arm_r"].map(|n| joint(&rig, n));
    let lower = ["hips", "thigh_l", "shin_l", "thigh_r", "shin_r", "head"].map(|n| joint(&rig, n));
    let pose = rig.pose();
    for &j in &lower {
        assert_eq!(pose[j], base[j], "joint {j} outside the mask changed");
        assert_ne!(pose[j], over[j], "fixture: the layer's clip differs here");
    }
    for &j in &upper {
        assert_eq!(
            pose[j], over[j],
            "weight 1 inside the mask copies the layer"
        );
    }
    // Half weight: the legs are still bit-equal, the upper body is the 50 % blend.
    rig.instance.set_float("upper", 0.5);
    let pose = rig.pose();
    for &j in &lower {
        assert_eq!(pose[j], base[j]);
    }
    for &j in &upper {
        let mut expected = [Transform::IDENTITY];
        let layers = [
            BlendLayer::new(&base[j..j + 1], 0.5),
            BlendLayer::new(&over[j..j + 1], 0.5),
        ];
        blend_poses(&layers, &rig.skeleton.rest_pose()[j..j + 1], &mut expected).unwrap();
        assert_eq!(pose[j], expected[0]);
    }
    // Weight 0: the whole pose is the base layer.
    rig.instance.set_float("upper", 0.0);
    assert_eq!(rig.pose(), base);
}

#[test]
fn a_mask_naming_a_joint_the_skeleton_lacks_is_a_binding_error() {
    let json = LAYERED.replace(r#"["spine"]"#, r#"["spine", "tail"]"#);
    let graph = AnimGraph::from_json_str(&json, "layers.graph.json").unwrap();
    let skeleton = graph_common::skeleton();
    let clips = graph_common::clips(&skeleton);
    let e = GraphBinding::by_name(&graph, &skeleton, &clips)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("layers.graph.json")
            && e.contains("layers[1].mask.include[1]")
            && e.contains("`tail`"),
        "{e}"
    );
}

fn additive(clip: &str) -> String {
    LAYERED
        .replace(
            r#""mask": { "include": ["spine"], "exclude": ["head"] },"#,
            r#""blend": "additive","#,
        )
        .replace(r#""clip": "b""#, &format!(r#""clip": "{clip}""#))
}

#[test]
fn an_additive_layer_of_the_rest_pose_is_the_identity() {
    let mut rig = Rig::new(&additive("rest"));
    rig.update(0.3);
    let base = rig.sample("a", 0.3, true);
    assert_eq!(
        rig.pose(),
        base,
        "adding the rest pose's zero difference changed the pose"
    );
    // Negative control: a layer whose root is 0.25 m above rest adds exactly that lift.
    let mut rig = Rig::new(&additive("lifted"));
    rig.update(0.3);
    let pose = rig.pose();
    let lift = pose[0].translation - base[0].translation;
    assert!(
        (Vec3::from(lift) - Vec3::new(0.0, 0.25, 0.0)).length() < 1e-6,
        "{lift}"
    );
    assert_eq!(pose[0].rotation, base[0].rotation);
    assert_eq!(
        &pose[1..],
        &base[1..],
        "joints the additive clip leaves at rest are untouched"
    );
    rig.instance.set_float("upper", 0.5);
    let half = rig.pose()[0].translation - base[0].translation;
    assert!((half.y - 0.125).abs() < 1e-6, "{half}");
    // An additive rotation composes: base · (rest⁻¹ · rest·q) = base · q.
    let mut rig = Rig::new(&additive("b"));
    rig.update(0.3);
    let b = rig.sample("b", 0.3, true);
    let pose = rig.pose();
    let rest = rig.skeleton.rest_pose();
    for j in 0..pose.len() {
        let expected = base[j].rotation * (rest[j].rotation.conjugate() * b[j].rotation);
        // Componentwise (q and -q are one rotation): `angle_between`'s acos(dot) resolves no
        // better than ~7e-4 rad next to dot = 1 in f32.
        let q = pose[j].rotation;
        assert!(
            q.abs_diff_eq(expected, 1e-5) || q.abs_diff_eq(-expected, 1e-5),
            "joint {j}: pose {q:?}, expected {expected:?}"
        );
    }
}

#[test]
fn events_fire_once_per_loop_at_their_times() {
    let json = r#"{
      "clips": [ { "slot": "a", "events": [ { "name": "step_l", "time": 0.25 }, { "name": "step_r", "time": 0.75 } ] },
                 { "slot": "b", "loop": false, "events": [ { "name": "hit", "time": 0.2 } ] } ],
      "layers": [ { "name": "base", "entry": "walk", "states": [ { "name": "walk", "clip": "a" } ] },
                  { "name": "one", "entry": "b", "weight": 0, "states": [ { "name": "b", "clip": "b" } ] } ] }"#;
    let mut rig = Rig::new(json);
    let names = rig.instance.graph().event_names.clone();
    let dt = 1.0 / 60.0;
    let mut fired = Vec::new();
    for k in 0..180 {
        rig.events.clear();
        rig.update(dt);
        for e in rig.events.events() {
            fired.push((k, names[e.name as usize].clone(), e.time, e.layer));
        }
    }
    let walk: Vec<_> = fired.iter().filter(|f| f.3 == 0).collect();
    let order: Vec<&str> = walk.iter().map(|f| f.1.as_str()).collect();
    assert_eq!(order, ["step_l", "step_r"].repeat(3), "{fired:?}");
    for (n, f) in walk.iter().enumerate() {
        // Update k moves the playhead from k·dt to (k+1)·dt; the event's time in the
        // n/2-th loop must lie in that step.
        let at = f.2 as f64 + (n / 2) as f64;
        let (t0, t1) = (f.0 as f64 * dt as f64, (f.0 + 1) as f64 * dt as f64);
        assert!(t0 - 1e-5 <= at && at < t1 + 1e-5, "{f:?}");
    }
    let once: Vec<_> = fired.iter().filter(|f| f.3 == 1).collect();
    assert_eq!(
        once.len(),
        1,
        "a one-shot clip fires its event once: {once:?}"
    );
    assert_eq!(
        once[0].0, 12,
        "0.2 s is passed by update 12 (12/60 ≤ 0.2 < 13/60)"
    );
    assert_eq!(rig.events.dropped(), 0);
    // A full buffer drops and counts instead of growing.
    let mut small = sierra_anim::graph::EventBuffer::with_capacity(1);
    rig.instance.update(2.0, &rig.binding, &mut small);
    assert_eq!((small.events().len(), small.dropped()), (1, 3));
}

fn error(json: &str) -> String {
    match AnimGraph::from_json_str(json, "bad.graph.json") {
        Ok(_) => panic!("accepted: {json}"),
        Err(e) => {
            let s = e.to_string();
            assert!(s.starts_with("bad.graph.json: at `"), "{s}");
            s
        }
    }
}

#[test]
fn bad_graph_files_give_errors_naming_file_and_json_path() {
    let cases: &[(&str, &str, &str)] = &[
        (r#""to": "walk", "conditions""#, r#""to": "wlak", "conditions""#, "`layers[0].transitions[0].to`: no state `wlak` in this layer (states: idle, walk, hit)"),
        (r#""test": "greater", "value": 1"#, r#""test": "isTrue""#, "`layers[0].transitions[0].conditions[0].parameter`: parameter `speed` is a Float; this needs a Bool"),
        (r#""test": "greater", "value": 1"#, r#""test": "greater""#, "`layers[0].transitions[0].conditions[0].value`: `greater` and `less` need a `value`"),
        (r#""parameter": "hit""#, r#""parameter": "hot""#, "`layers[0].transitions[2].conditions[0].parameter`: no parameter `hot` (parameters: speed, hit)"),
        (r#"{ "name": "hit", "clip": "b" }"#, r#"{ "name": "hit", "clip": "bb" }"#, "`layers[0].states[2].clip`: no clip slot `bb` (slots: a, b, c)"),
        (r#"{ "name": "hit", "clip": "b" }"#, r#"{ "name": "hit", "clip": "b", "speed": "fast" }"#, "`layers[0].states[2].speed` (line"),
        (r#"{ "name": "hit", "clip": "b" }"#, r#"{ "name": "hit", "clip": "b", "sped": 2 }"#, "unknown field `sped`"),
        (r#"{ "name": "hit", "clip": "b" }"#, r#"{ "name": "hit" }"#, "`layers[0].states[2]`: a state needs exactly one of `clip` and `blend1d`"),
        (r#"{ "name": "walk", "clip": "c" }"#, r#"{ "name": "idle", "clip": "c" }"#, "`layers[0].states[1].name`: state `idle` is empty or defined twice"),
        (r#""exitTime": 1.0"#, r#""exitTime": -1"#, "`layers[0].transitions[3].exitTime`: -1 must be a finite number >= 0"),
        (r#""type": "trigger""#, r#""type": "vector""#, "`parameters[1].type` (line"),
    ];
    for (from, to, expected) in cases {
        assert!(MACHINE.contains(from), "fixture lacks {from}");
        let e = error(&MACHINE.replacen(from, to, 1));
        assert!(e.contains(expected), "expected {expected:?} in\n{e}");
    }
    let e = error(&BLEND.replace(r#""value": 4"#, r#""value": 1"#));
    assert!(
        e.contains(
            "`layers[0].states[0].blend1d.points[2].value`: point values must increase strictly"
        ),
        "{e}"
    );
    let e = error(&LAYERED.replace(
        r#""name": "base", "entry""#,
        r#""name": "base", "blend": "additive", "entry""#,
    ));
    assert!(e.contains("`layers[0]`: the base layer"), "{e}");
    // The original parses (the cases fail for their edit alone).
    AnimGraph::from_json_str(MACHINE, "ok.graph.json").unwrap();
}
